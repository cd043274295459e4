"""An app ends when its terminal goes (a window closed, a tmux pane killed,
ssh dropped) or when it is asked to (SIGTERM, SIGHUP): within seconds, its
own way first (the race saved as it stands, the race file let go, the bots'
process stopped), and by force if that way is stuck.

Why a guard of its own: apps were found living on after their terminal had
closed, a core busy, deaf to SIGTERM until SIGKILL.
- The kernel sends SIGHUP, when a terminal goes, to its session leader only:
  a flamme-tui started by a script or a wrapper that does not `exec` it, or
  in a pseudo-terminal it does not control, is never told.  Textual's input
  thread then reads end-of-file again and again (a core busy), and the app
  lives on, holding its race file.
- A write to a terminal that is gone fails (EIO).  Textual's writer thread
  dies of it; its queue (30 writes) fills, and the app's thread blocks for
  good on the next frame.  asyncio's signal handlers run on that thread:
  SIGTERM was ignored.
So here a thread of its own watches the terminal (poll: it hangs up) and the
signals (Python's wakeup fd: written by the C handler even while the app's
thread is blocked), writes to a terminal that is gone are dropped, and the
output goes to /dev/null once the terminal is gone (a print at exit cannot
fail).  If the app has not ended GRACE_SECONDS later, the thread saves what
it can (`last_resort`) and ends the process.
"""

from __future__ import annotations

import os
import select
import signal
import stat
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

GRACE_SECONDS = 4.0  # the app's own exit takes well under a second; then it is ended by force
SIGNALS = ("SIGTERM", "SIGHUP")  # (no SIGHUP on Windows)
STOP = 255  # written to the watching thread: the app has ended (no signal has this number)


def _numbers() -> list[int]:
    return [int(getattr(signal, name)) for name in SIGNALS if hasattr(signal, name)]


class Hangup:
    """Watch the terminal and the signals for one app (`start` on the app's
    loop, in the main thread).  `end(code)` is run on the loop when it is
    time to go (code: 128 + the signal's number, SIGHUP's for a terminal
    gone); `last_resort()` from the watching thread if the app is still
    there GRACE_SECONDS later, just before the process is ended."""

    def __init__(self, end: Callable[[int], None], last_resort: Callable[[], None] | None = None,
                 terminal: int = 0, grace: float = GRACE_SECONDS) -> None:
        self.end = end
        self.last_resort = last_resort
        self.terminal = terminal  # the terminal's file descriptor (stdin)
        self.grace = grace
        self.gone = False  # the terminal is gone
        self.triggered = False  # the watching thread is ending the app
        self._wake = -1
        self._before: list[tuple[int, Any]] = []  # the signals' handlers before start
        self._wakeup_before = -1

    def start(self, loop: Any) -> bool:
        """Begin watching; False where it cannot (not the main thread, no
        poll: Windows), the signals then left as they were."""
        if threading.current_thread() is not threading.main_thread() or not hasattr(select, "poll"):
            return False
        read, self._wake = os.pipe()
        os.set_blocking(self._wake, False)
        for number in _numbers():
            self._before.append((number, signal.signal(number, self._on_signal)))
        # the C handler writes each caught signal's number there, whatever the main thread is doing
        self._wakeup_before = signal.set_wakeup_fd(self._wake, warn_on_full_buffer=False)
        threading.Thread(target=self._watch, args=(loop, read), name="flamme-hangup", daemon=True).start()
        return True

    def stop(self) -> None:
        """The app has ended (main thread): the signals as they were before,
        and the watching thread ends, unless it is ending the app (then it
        still ends the process if the exit gets stuck)."""
        if self._wake < 0 or threading.current_thread() is not threading.main_thread():
            return
        signal.set_wakeup_fd(self._wakeup_before)
        for number, handler in self._before:
            signal.signal(number, handler if handler is not None else signal.SIG_DFL)
        self._before = []
        if not self.triggered:
            self.trigger(STOP)

    def _on_signal(self, number: int, frame: Any) -> None:
        self.trigger(number)  # (in case another library took the wakeup fd meanwhile)

    def trigger(self, number: int) -> None:
        """Wake the watching thread (any thread, a signal handler too)."""
        try:
            os.write(self._wake, bytes((number,)))
        except OSError:
            pass

    def terminal_gone(self) -> None:
        """Said by whoever finds the terminal gone (a write that failed)."""
        self.trigger(int(getattr(signal, "SIGHUP", signal.SIGTERM)))

    def _watch(self, loop: Any, read: int) -> None:
        poller = select.poll()
        poller.register(read, select.POLLIN)
        watching = os.isatty(self.terminal)
        if watching:
            poller.register(self.terminal, 0)  # no event asked: poll says when it hangs up
        wanted = _numbers()
        number = 0
        while not number:
            for fd, events in poller.poll():
                if fd == read:
                    said = os.read(read, 64)
                    if STOP in said:
                        return
                    number = next((n for n in said if n in wanted), 0)
                elif events & (select.POLLHUP | select.POLLERR | select.POLLNVAL):
                    poller.unregister(fd)
                    self.gone = True
                    number = int(getattr(signal, "SIGHUP", signal.SIGTERM))
        self.triggered = True
        if self.gone or not self._terminal_there():
            self.gone = True
            self._output_to_null()
        try:
            loop.call_soon_threadsafe(self.end, 128 + number)
        except RuntimeError:  # the loop is closed: the app is ending already
            pass
        time.sleep(self.grace)
        # still here: the app's thread is stuck (or its threads are)
        try:
            if self.last_resort is not None:
                self.last_resort()
        finally:
            os._exit(128 + number)

    def _terminal_there(self) -> bool:
        try:
            import termios

            termios.tcgetattr(self.terminal)
        except Exception:  # noqa: BLE001 - gone (EIO), or never a terminal
            return False
        return True

    def _output_to_null(self) -> None:
        """Standard output and error, where they were the terminal that is
        gone, now go to /dev/null: whatever is printed from now on (by the
        app's exit, Python's, a thread's error) cannot fail."""
        try:
            tty = os.fstat(self.terminal)
        except OSError:
            return
        null = os.open(os.devnull, os.O_WRONLY)
        try:
            for fd in (1, 2):
                try:
                    mode = os.fstat(fd)
                except OSError:
                    continue
                if stat.S_ISCHR(mode.st_mode) and mode.st_rdev == tty.st_rdev:
                    os.dup2(null, fd)
        finally:
            os.close(null)


class GuardedOutput:
    """The terminal's output for Textual's writer thread: a write that fails
    (the terminal gone: EIO; EPIPE) is dropped and said once to the guard,
    instead of killing the thread (its queue would then fill and block the
    app's thread for good)."""

    def __init__(self, file: Any, gone: Callable[[], None]) -> None:
        self._file = file
        self._gone = gone
        self._told = False

    def _failed(self) -> None:
        if not self._told:
            self._told = True
            self._gone()

    def write(self, text: str) -> int:
        try:
            return int(self._file.write(text))
        except (OSError, ValueError):  # ValueError: the file is closed
            self._failed()
            return len(text)

    def flush(self) -> None:
        try:
            self._file.flush()
        except (OSError, ValueError):
            self._failed()

    def fileno(self) -> int:
        return int(self._file.fileno())

    def isatty(self) -> bool:
        return True


def guarded_driver(hangup: Hangup) -> Any | None:
    """Textual's terminal driver (Linux, macOS) writing through GuardedOutput;
    None where there is none (Windows: its own driver is used)."""
    if sys.platform == "win32":
        return None
    from textual.drivers.linux_driver import LinuxDriver

    class GuardedDriver(LinuxDriver):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._file = GuardedOutput(self._file, hangup.terminal_gone)  # type: ignore[assignment]

    return GuardedDriver
