"""`flamme-tui host` as a player starts it (issue 25): a real process, killed
with SIGKILL mid-race and restarted on its save; the devices come back with
their codes and the race ends as the log says.  Also: a seat handed to a bot
from the host's input, and the one-line refusals of bad options."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from test_net import Device, play_device

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_host(tmp_path: Path, *args: str) -> tuple[subprocess.Popen, dict[str, str]]:
    env = dict(os.environ, PYTHONPATH=str(ROOT), FLAMME_TUI_DATA_DIR=str(tmp_path / "data"))
    proc = subprocess.Popen([sys.executable, "-m", "flamme_tui", "host", "--lang", "en", *args], cwd=ROOT, env=env, text=True,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    facts: dict[str, str] = {}
    deadline = time.monotonic() + 30
    while "commands" not in facts and time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        if m := re.search(r"on (127\.0\.0\.1:\d+)", line):
            facts["address"] = m.group(1)
        if m := re.search(r"saved in (\S+)", line):
            facts["save"] = m.group(1)
        if m := re.search(r"^  (\w+): flamme-tui join \S+ ([A-Z0-9-]+)$", line):
            facts[m.group(1)] = m.group(2)
        if line.startswith("Commands:"):
            facts["commands"] = line
    assert "commands" in facts, (facts, proc.stderr.read() if proc.poll() is not None else "")
    return proc, facts


def stop(proc: subprocess.Popen) -> None:
    """Kill the host if it has not ended by itself (a test that failed before its race was over)."""
    if proc.poll() is None:
        proc.kill()
        proc.wait(10)


async def devices_play(address: str, codes: list[str], stop_after: int | None = None) -> list[Device]:
    port = int(address.rsplit(":", 1)[1])
    devices = [Device(port, code) for code in codes]
    for d in devices:
        await d.open()
    try:
        await asyncio.gather(*(play_device(d, stop_after) for d in devices))
    finally:
        for d in devices:
            await d.close()
    return devices


def test_a_host_killed_mid_race_restarts_on_its_save_and_the_devices_finish_it(tmp_path):
    port = str(free_port())
    saves = tmp_path / "saves"
    proc, facts = start_host(tmp_path, "--teams", "3", "--bots", "device,device,easy", "--seed", "4",
                             "--port", port, "--saves", str(saves))
    try:
        asyncio.run(devices_play(facts["address"], [facts["Red"], facts["Blue"]], stop_after=9))
        time.sleep(0.3)
    finally:
        proc.send_signal(signal.SIGKILL)  # no goodbye: whatever is on disk is what there is
        proc.wait(10)
    save = facts["save"]
    held = Path(save).read_text()
    assert '"actions"' in held
    proc, again = start_host(tmp_path, "--from", save, "--port", port)
    try:
        assert again["Red"] == facts["Red"] and again["Blue"] == facts["Blue"]  # the same codes
        asyncio.run(devices_play(again["address"], [again["Red"], again["Blue"]]))
        out, err = proc.communicate(timeout=30)
    finally:
        stop(proc)
    assert proc.returncode == 0, err
    assert "The race is over." in out and "1." in out
    # the final ranking in the devices' words and squares (from the start line), not the engine's
    ranking = out[out.index("The race is over."):]
    assert re.search(r"^ 1\. .+: .+ \(.+\)$", ranking, re.M) and not re.search(r", lane \d", ranking), ranking


def test_sigterm_or_sighup_ends_hosting_as_quit_does_the_race_saved_and_unlocked(tmp_path):
    """The default action of SIGTERM killed the host at once: its race's lock file stayed
    behind (harmless, the lock is the OS's, but litter in the saves folder)."""
    for number in (signal.SIGTERM, signal.SIGHUP):
        saves = tmp_path / f"saves-{number}"
        proc, facts = start_host(tmp_path, "--teams", "2", "--bots", "device,easy", "--seed", "4",
                                 "--port", str(free_port()), "--saves", str(saves))
        try:
            asyncio.run(devices_play(facts["address"], [facts["Red"]], stop_after=3))
            proc.send_signal(number)
            out, err = proc.communicate(timeout=20)
        finally:
            stop(proc)
        assert proc.returncode == 0 and "Traceback" not in err, err
        save = Path(facts["save"])
        assert '"actions"' in save.read_text()
        assert not Path(f"{save}.lock").exists(), sorted(p.name for p in saves.iterdir())


def test_the_hosts_player_hands_a_seat_to_a_bot_from_its_input(tmp_path):
    proc, facts = start_host(tmp_path, "--teams", "2", "--bots", "device,device", "--port", str(free_port()),
                             "--saves", str(tmp_path / "saves"))
    try:
        proc.stdin.write("bot 1\n")  # Red's player never came: a bot plays Red
        proc.stdin.flush()
        asyncio.run(devices_play(facts["address"], [facts["Blue"]]))
        out, err = proc.communicate(timeout=30)
    finally:
        stop(proc)
    assert "Red is played by a bot (easy) from now on" in out
    assert "The race is over." in out, err


def test_the_hosts_player_gives_a_seat_back_from_its_bot_to_its_device(tmp_path):
    """`bot 1` then `device 1`: Red's line, watching since, is Red's again and plays the
    race to its end with Blue's; a seat no bot plays is not one to give back."""
    proc, facts = start_host(tmp_path, "--teams", "2", "--bots", "device,device", "--seed", "4",
                             "--port", str(free_port()), "--saves", str(tmp_path / "saves"))

    async def body() -> list[Device]:
        port = int(facts["address"].rsplit(":", 1)[1])
        red, blue = Device(port, facts["Red"]), Device(port, facts["Blue"])
        for d in (red, blue):
            await d.open()
        await red.until("turn")
        proc.stdin.write("device 2\nbot 1\n")  # (Blue is no bot's: said, nothing done)
        proc.stdin.flush()
        assert (await red.until("error"))["code"] == "bot"
        proc.stdin.write("device 1\n")
        proc.stdin.flush()
        assert (await red.until("welcome"))["seat"] == 0
        try:
            await asyncio.gather(play_device(red), play_device(blue))
        finally:
            for d in (red, blue):
                await d.close()
        return [red, blue]

    try:
        red, blue = asyncio.run(body())
        out, err = proc.communicate(timeout=30)
    finally:
        stop(proc)
    assert proc.returncode == 0, err
    assert "device N: N is a seat given to a bot that had a device (none now)" in out
    assert "Red is played by a bot (easy) from now on" in out and "Red plays on its own device again" in out
    assert f"Red: flamme-tui join {facts['address']} {facts['Red']}" in out  # its line again, the same code
    assert red.chose and "The race is over." in out


def test_a_host_without_a_device_seat_or_with_a_bad_option_says_so_in_one_line(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT), FLAMME_TUI_DATA_DIR=str(tmp_path / "data"))
    for args, words in ((["--bots", "easy,easy,easy,easy"], "name at least one seat `device`"),
                        (["--bots", "device,banana"], "host: --bots: no bot is named 'banana': name 4 from"),
                        (["--from", str(tmp_path / "none.json")], "none.json")):
        run = subprocess.run([sys.executable, "-m", "flamme_tui", "host", *args], cwd=ROOT, env=env,
                             capture_output=True, text=True, timeout=60)
        assert run.returncode == 2 and words in run.stderr and len(run.stderr.strip().splitlines()) == 1, run.stderr
    run = subprocess.run([sys.executable, "-m", "flamme_tui", "join", "not an address:xx", "CODE"], cwd=ROOT,
                         env=env, capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and "not a host address" in run.stderr


def test_the_join_address_is_printed_as_a_qr_code_that_reads_back():
    segno = __import__("pytest").importorskip("segno")  # a dependency (pyproject.toml); optional at run time
    from flamme_tui.cli.host import qr_lines

    lines = qr_lines("http://192.168.1.20:8765/")
    assert lines and all(set(line) <= set("█▀▄ ") for line in lines)
    # the same symbol segno makes for the address (the drawing is segno's own)
    code = segno.make("http://192.168.1.20:8765/", error="m")
    assert len(lines) == (code.symbol_size(border=2)[1] + 1) // 2


def test_without_segno_the_host_says_there_is_no_qr_code(monkeypatch):
    import builtins

    from flamme_tui.cli import host

    real = builtins.__import__

    def no_segno(name, *args, **kwargs):
        if name == "segno":
            raise ImportError(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_segno)
    assert host.qr_lines("http://x:1/") is None


def test_the_host_bench_plays_whole_races_and_prints_latency_cpu_and_memory():
    from flamme_tui.net.bench import bench

    lines = bench(races=1, seats=3, watchers=2, seed=2)
    text = "\n".join(lines)
    assert "3 seats on their own devices, 2 watchers" in text
    assert re.search(r"reveal latency .*: median \d+\.\d ms, p99 \d+\.\d ms", text), text
    assert re.search(r"host CPU per round: \d+\.\d ms", text) and re.search(r"peak memory \(VmHWM\): \d+ MB", text)
    assert re.search(r"race 1: \d+ rounds, \d+ choices", text)


async def test_the_hosts_page_leaves_no_tab_running_when_it_closes(tmp_path, monkeypatch):
    monkeypatch.delenv("FLAMME_TUI_SERVED", raising=False)
    """A tab's app that does not quit when asked (stuck, or slow) is killed and
    reaped when the host closes its page: before, aiohttp cancelled the tab's
    handler after its shutdown timeout and the app ran on after the host.
    The tab's app is told it is served; the host's process is not (its own
    seat's screen, `host --here`, showed no paths before)."""
    import aiohttp

    pytest = __import__("pytest")
    pytest.importorskip("textual_serve")
    from flamme_tui.ui import serve

    monkeypatch.setattr(serve, "TAB_SECONDS", 0.5)
    pid_file = tmp_path / "pid"
    # an "app" that starts as a Textual app does (its prelude line) and never reads its input
    command = f"echo $$ $FLAMME_TUI_SERVED > {pid_file}; echo __GANGLION__; printf 'D\\000\\000\\000\\002hi'; exec sleep 60"
    port = free_port()
    page = await serve.start_page(command, "127.0.0.1", port)
    pid = None
    try:
        async with aiohttp.ClientSession() as http, http.ws_connect(
                f"ws://127.0.0.1:{port}/ws", headers={"Origin": f"http://127.0.0.1:{port}"}) as tab:
            shown = await asyncio.wait_for(tab.receive(), 20)  # what the app drew reached the page: it runs
            assert shown.data == b"hi", shown
            pid_text, served = pid_file.read_text().split()
            pid = int(pid_text)
            assert served == "1"  # the tab's app is told it is served
            assert "FLAMME_TUI_SERVED" not in os.environ  # the host's own screen (--here) is not
            os.kill(pid, 0)  # the tab's app runs
            await page.cleanup()  # the host goes, the tab still open
            with pytest.raises(ProcessLookupError):
                os.kill(pid, 0)  # gone, and reaped (a zombie would still answer)
    finally:
        if pid is not None:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


def tab_apps(port: int) -> list[int]:
    """The pids of the `flamme-tui join` apps serving the host on `port` in browser tabs (Linux: /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and f"join 127.0.0.1:{port}" in (entry / "cmdline").read_text().replace("\0", " "):
                found.append(int(entry.name))
        except OSError:
            pass
    return found


async def test_a_browser_tabs_app_goes_when_its_host_is_killed(tmp_path):
    """A host killed (SIGKILL, a crash) leaves no tab's app running: before, the
    tab's `join` went on under a shell of its own, retrying a host that was gone."""
    import aiohttp

    pytest = __import__("pytest")
    pytest.importorskip("textual_serve")
    if not Path("/proc/self/cmdline").exists():
        pytest.skip("no /proc to find the tab's process in")
    port, web_port = free_port(), free_port()
    proc, facts = start_host(tmp_path, "--teams", "2", "--port", str(port), "--web-port", str(web_port),
                             "--saves", str(tmp_path / "saves"))
    tabs: list[int] = []
    try:
        async with aiohttp.ClientSession() as http, http.ws_connect(
                f"ws://127.0.0.1:{web_port}/ws", headers={"Origin": f"http://127.0.0.1:{web_port}"}) as tab:
            await asyncio.wait_for(tab.receive(), 30)  # the tab's app drew its screen: it runs
            try:  # until it is idle (then a host's death is not seen by a write failing); bounded
                for _ in range(30):
                    frame = await asyncio.wait_for(tab.receive(), 1.0)
                    assert frame.type in (aiohttp.WSMsgType.TEXT, aiohttp.WSMsgType.BINARY), frame  # (not closed)
                else:
                    raise AssertionError("the tab's app never stopped drawing (a blinking cursor?)")
            except TimeoutError:
                pass
            tabs = tab_apps(port)
            assert tabs
            proc.send_signal(signal.SIGKILL)
            proc.wait(10)
            for _ in range(300):
                if not tab_apps(port):
                    break
                await asyncio.sleep(0.1)
            assert tab_apps(port) == []
    finally:
        stop(proc)
        for pid in tab_apps(port):
            os.kill(pid, signal.SIGKILL)


def test_a_hosted_race_s_seed_is_one_nobody_can_guess(tmp_path, monkeypatch):
    """A race is its set-up, seed and actions, and a device is sent the set-up and sees the
    grid and its own hands: with the seed 1 of `race` (or any small one) a device could
    find it and deal every other hand itself. Without --seed, a random 63-bit seed."""
    from flamme_tui.cli import host as host_cli
    from flamme_tui.cli import main

    seeds = []

    async def hosted(table, args, path):
        seeds.append(table.session.seed)
        return 0

    monkeypatch.setattr(host_cli, "_serve", hosted)
    for k in range(3):
        assert main(["host", "--teams", "2", "--bots", "device,easy", "--saves", str(tmp_path / str(k)),
                     "--port", str(free_port())]) == 0
    assert main(["host", "--teams", "2", "--bots", "device,easy", "--saves", str(tmp_path / "given"), "--seed", "4",
                 "--port", str(free_port())]) == 0
    assert seeds[3] == 4  # a seed given is used (the host chose to know it)
    assert len(set(seeds[:3])) == 3 and min(seeds[:3]) > 2**40
