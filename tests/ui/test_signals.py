"""SIGTERM and SIGHUP end the app as a quit does: the race saved, and the
terminal given back (raw mode, alternate screen and mouse reporting undone).
The real app in a pseudo-terminal, a race started with the keys, the signal
sent to the process."""

from __future__ import annotations

import fcntl
import os
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time

import pytest

from flamme_tui import saves

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals and pseudo-terminals")

LEAVE_ALTERNATE_SCREEN = b"\x1b[?1049l"
MOUSE_OFF = b"\x1b[?1000l"
SHOW_CURSOR = b"\x1b[?25h"


class Terminal:
    def __init__(self, tmp_path, args: tuple[str, ...] = ()) -> None:
        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        self.cooked = termios.tcgetattr(slave)
        env = dict(os.environ, FLAMME_TUI_DATA_DIR=str(tmp_path / "data"),
                   FLAMME_TUI_CONFIG_DIR=str(tmp_path / "config"), TERM="xterm-256color", TEXTUAL_ANIMATIONS="none")
        env.pop("NO_COLOR", None)
        self.process = subprocess.Popen([sys.executable, "-m", "flamme_tui", *args], stdin=slave, stdout=slave, stderr=slave,
                                        env=env, start_new_session=True, close_fds=True)
        os.close(slave)
        self.output = bytearray()

    def read(self, seconds: float, until: bytes | None = None) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end and not (until and until in self.output):
            ready, _, _ = select.select([self.master], [], [], 0.1)
            if ready:
                try:
                    data = os.read(self.master, 65536)
                except OSError:  # the process has gone and its side is closed
                    return
                if not data:
                    return
                self.output += data

    def key(self, key: bytes, then: str, seconds: float = 30) -> None:
        """Press `key`, then wait until the screen shows `then` (each screen drawn before the next key)."""
        start = len(self.output)
        os.write(self.master, key)
        end = time.monotonic() + seconds
        while time.monotonic() < end and then not in self.shown(start):
            self.read(0.2)
        assert then in self.shown(start), (key, then, self.shown(start)[-500:])

    def shown(self, start: int = 0) -> str:
        text = re.sub(rb"\x1b(\[[0-9;?]*[ -/]*[@-~]|\][^\x07]*\x07)", b" ", bytes(self.output[start:]))
        return " ".join(text.decode("utf-8", "replace").split())

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=10)
        os.close(self.master)


@pytest.mark.parametrize("name", ["SIGTERM", "SIGHUP"])
def test_a_signal_saves_the_race_and_gives_the_terminal_back(tmp_path, name):
    term = Terminal(tmp_path)
    try:
        term.read(30, until=b"New race")
        assert b"New race" in term.output, term.output[-500:]
        assert not termios.tcgetattr(term.master)[3] & termios.ECHO  # the app has the terminal raw
        term.key(b"\r", "choose the rule set")  # New race
        term.key(b"\r", "choose the stage")  # Classic
        term.key(b"\r", "teams")  # the first stage
        term.key(b"\x13", "Pass")  # ctrl+s: the race starts, behind the curtain
        folder = tmp_path / "data" / "saves"
        end = time.monotonic() + 20
        while not (folder.is_dir() and [p for p in folder.iterdir() if p.suffix == ".json"]):
            assert time.monotonic() < end, "the race was never saved"
            time.sleep(0.1)
        before = len(term.output)
        term.process.send_signal(getattr(signal, name))
        term.read(15)
        code = term.process.wait(timeout=15)
        after = bytes(term.output[before:])
        assert code == 128 + getattr(signal, name), code  # ended by the app itself, not by the signal
        for sequence in (LEAVE_ALTERNATE_SCREEN, MOUSE_OFF, SHOW_CURSOR):
            assert sequence in after, (sequence, after[-300:])
        mode = termios.tcgetattr(term.master)
        assert mode[3] & termios.ECHO and mode[3] & termios.ICANON  # cooked again, as before the app
        race = next(p for p in folder.iterdir() if p.suffix == ".json")
        session = saves.load(race)
        assert not session.over and session.game.round >= 1
    finally:
        term.close()


def _children(pid: int) -> list[int]:
    """The processes whose parent is `pid` (Linux's /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    if int(stat.read().rsplit(")", 1)[1].split()[1]) == pid:
                        found.append(int(entry))
            except (OSError, IndexError, ValueError):
                pass
    return found


def _gone(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] == "Z"  # ended, not yet reaped
    except OSError:
        return True


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the bots' process is found through /proc")
@pytest.mark.parametrize("how", ["terminal closed", "SIGTERM"])
def test_the_app_ends_when_its_terminal_goes_with_the_race_saved(tmp_path, how):
    """A terminal window closed, a tmux pane killed: the app's pseudo-terminal
    hangs up.  The kernel sends SIGHUP to the terminal's session leader only,
    and this app is not one (as under a script, or here: a pty it does not
    control): it must see the terminal go by itself.  It used to live on (a
    core busy reading end-of-file), its race file locked; once a frame was
    written, its writer thread died of EIO and SIGTERM was ignored too.  A
    bot is thinking in its own process at that moment: that process goes too."""
    term = Terminal(tmp_path)
    try:
        term.read(30, until=b"New race")
        term.key(b"\r", "choose the rule set")  # New race
        term.key(b"\r", "choose the stage")  # Classic
        term.key(b"\r", "teams")  # the first stage
        term.key(b"\x06", "Bot")  # ctrl+f: seats 2-6 are bots
        term.key(b"\x13", "which rider draws first")  # ctrl+s: no curtain for the only human
        term.key(b"1", "pick a card")
        term.key(b"1", "Rouleur")
        os.write(term.master, b"1")  # the last card: the bots think now, in their own process
        folder = tmp_path / "data" / "saves"
        end = time.monotonic() + 20
        race = None
        while race is None or len(saves.load(race).entries) < 3:
            assert time.monotonic() < end, "the human's cards were never saved"
            time.sleep(0.05)
            race = next((p for p in folder.iterdir() if p.suffix == ".json"), None) if folder.is_dir() else None
        thinkers = _children(term.process.pid)
        assert thinkers, "no process of the bots was started"
        if how == "SIGTERM":
            term.process.send_signal(signal.SIGTERM)
            term.read(10)  # (the terminal is still there: its output read, so nothing waits on it)
        else:
            os.close(term.master)
            term.master = os.open(os.devnull, os.O_RDONLY)  # (for close())
        code = term.process.wait(timeout=10)  # it used to wait for SIGKILL
        signalled = signal.SIGTERM if how == "SIGTERM" else signal.SIGHUP
        assert code == 128 + signalled, code  # the app's own exit, not the signal's default
        end = time.monotonic() + 10
        while not all(_gone(pid) for pid in thinkers):
            assert time.monotonic() < end, "the bots' process lives on"
            time.sleep(0.05)
        assert not list(folder.glob("*.lock")), list(folder.iterdir())  # the race file let go
        session = saves.load(race)  # the save checks its rounds and state as it loads
        played = [str(action) for action in session.entries]
        assert not session.over and played[0] == "draw blue.S", played
        assert played[1].startswith("play blue.S ") and played[2].startswith("play blue.R "), played
        lock = saves.RaceLock.take(race)  # nobody holds it: it can be taken at once
        lock.release()
    finally:
        term.close()


def _free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_a_host_here_ends_when_its_terminal_goes(tmp_path):
    """`host --here`: the host's own seat on its terminal.  The terminal
    gone, it used to host on (its race file locked) until killed; now it
    ends, the race saved and its file let go."""
    folder = tmp_path / "saves"
    term = Terminal(tmp_path, ("host", "--bots", "device,easy,easy,easy", "--here", "1", "--host", "127.0.0.1",
                               "--port", str(_free_port()), "--saves", str(folder)))
    try:
        term.read(30, until=b"Your turn")
        assert b"Your turn" in term.output, term.shown()[-500:]
        race = next(p for p in folder.iterdir() if p.suffix == ".json")
        os.close(term.master)
        term.master = os.open(os.devnull, os.O_RDONLY)  # (for close())
        assert term.process.wait(timeout=10) == 0  # hosting ended as `quit` ends it
        assert not list(folder.glob("*.lock")), list(folder.iterdir())
        assert not saves.load(race).over
    finally:
        term.close()


STUCK_APP = """
import asyncio, queue, sys
from flamme_tui.ui.hangup import Hangup

async def main():
    guard = Hangup(lambda code: None, lambda: open(sys.argv[1], "w").write("saved"), grace=0.5)
    assert guard.start(asyncio.get_running_loop())
    full = queue.Queue(1)
    full.put("a frame")
    print("stuck", flush=True)
    full.put("the next frame")  # blocks for good, as on Textual's writer queue once its thread died

asyncio.run(main())
"""


@pytest.mark.parametrize("name", ["SIGTERM", "SIGHUP"])
def test_a_signal_ends_an_app_whose_thread_is_stuck(tmp_path, name):
    """The app's thread blocked for good (it was: on the queue of Textual's
    writer thread, dead of a write to a terminal gone) never runs asyncio's
    signal handlers: SIGTERM was ignored.  The guard's own thread still hears
    the signal, saves what it can (`last_resort`) and ends the process."""
    marker = tmp_path / "last resort"
    process = subprocess.Popen([sys.executable, "-c", STUCK_APP, str(marker)], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    try:
        assert process.stdout is not None and process.stdout.readline() == b"stuck\n", process.stderr
        time.sleep(0.2)  # (already blocked, or about to: either way the signal must end it)
        process.send_signal(getattr(signal, name))
        assert process.wait(timeout=10) == 128 + getattr(signal, name)
        assert marker.read_text() == "saved"
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=10)
