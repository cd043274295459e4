"""The host under load: 12 seats on their own devices and 20 watchers over loopback.

`python -m flamme_tui.net.bench [--races N] [--seats 12] [--watchers 20]`
(or `flamme-tui bench --net`) starts a real `flamme-tui host` process (12
players racing one rider each, every seat a device), connects the devices
and watchers from this process, plays whole races (each device takes its
first non-dominated option at once) and prints:

- the reveal latency: from the moment the last card of a round is sent to
  the moment each device and watcher has the round's `reveal`, median and
  99th percentile over every (round, device) pair;
- the host's CPU per round (its user + system time from /proc, divided by
  the rounds) and its peak memory (VmHWM);
- the messages and bytes the host sent.

Linux reads /proc; elsewhere CPU and memory are said to be unknown.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from ..i18n import _, decimal, ngettext
from .wire import PROTOCOL


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _proc_cpu(pid: int) -> float | None:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def _proc_peak_mb(pid: int) -> float | None:
    try:
        m = re.search(r"VmHWM:\s+(\d+) kB", Path(f"/proc/{pid}/status").read_text())
    except OSError:
        return None
    return int(m.group(1)) / 1024 if m else None


def _start_host(seats: int, seed: int, folder: str) -> tuple[subprocess.Popen[str], int, dict[str, str], str]:
    port = _free_port()
    env = dict(os.environ, FLAMME_TUI_DATA_DIR=folder)
    proc = subprocess.Popen(  # (-P: the installed package, not a source tree in the folder it is run from)
        [sys.executable, "-P", "-m", "flamme_tui", "host", "--players", str(seats), "--bots", "device",
         "--seed", str(seed), "--port", str(port), "--saves", folder, "--lang", "en"],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    assert proc.stdout is not None
    codes: dict[str, str] = {}
    room = ""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the host did not start: {proc.stderr.read() if proc.stderr else ''}")
        if m := re.match(r"^  (.+): flamme-tui join \S+ ([A-Z0-9-]+)$", line):
            codes[m.group(1)] = m.group(2)
        if m := re.search(r"Room code \(to watch\): (\w+)", line):
            room = m.group(1)
        if line.startswith("Commands:"):
            return proc, port, codes, room
    raise RuntimeError("the host did not start in time")


def _number_after(text: str, key: str) -> int:
    """The whole number after `key` in a message (read no further: see `_race`), -1 if none."""
    at = text.find(key)
    if at < 0:
        return -1
    digits = text[at + len(key):at + len(key) + 8].split(",", 1)[0].split("}", 1)[0]
    return int(digits) if digits.isdigit() else -1


async def _race(port: int, codes: list[str], room: str, watchers: int) -> tuple[list[float], int, int, int]:
    import aiohttp

    # every seat chooses at once: a round's last card is the last choice sent in that round
    last_sent: dict[int, float] = {}  # round -> when its last choice was sent
    latencies: list[float] = []
    totals = {"messages": 0, "bytes": 0, "choices": 0}
    done = asyncio.Event()
    # a few lines joining at a time: the host holds at most 16 lines from one address that have
    # not been welcomed yet (MAX_WAITING_PER_ADDRESS), and these 32 all come from this one
    joining = asyncio.Semaphore(8)

    async def device(code: str, watch: bool) -> None:
        async with aiohttp.ClientSession() as http:
            await joining.acquire()
            try:
                ws = await http.ws_connect(f"ws://127.0.0.1:{port}/ws", max_msg_size=4 * 1024 * 1024)
                await ws.send_str(json.dumps({"v": PROTOCOL, "type": "hello", "code": code, "watch": watch}))
                first = await ws.receive()  # the welcome
            finally:
                joining.release()
            async with ws:
                answered, round_no = -1, 0
                if first.type != aiohttp.WSMsgType.TEXT:
                    return
                async for msg in ws:
                    if msg.type != aiohttp.WSMsgType.TEXT:
                        break
                    now = time.perf_counter()
                    totals["messages"] += 1
                    totals["bytes"] += len(msg.data)
                    # (32 devices share this process: a message is read no further than needed,
                    # so that what is timed is the host, not these readers)
                    head = msg.data[:40]
                    if '"type":"reveal"' in head:
                        revealed = _number_after(msg.data, '"round":')
                        if revealed in last_sent:
                            latencies.append(now - last_sent[revealed])
                        continue
                    if '"type":"table"' in head:
                        if '"ranking":null' not in msg.data:
                            done.set()
                            return
                        round_no = _number_after(msg.data, '"round":')
                        continue
                    message = json.loads(msg.data)
                    if message["type"] == "turn" and message["at"] != answered:
                        answered = message["at"]
                        options = message["options"]
                        k = next((i for i, o in enumerate(options) if not o["dominated"]), 0)
                        totals["choices"] += 1
                        last_sent[round_no] = time.perf_counter()
                        await ws.send_str(json.dumps({"v": PROTOCOL, "type": "choose", "at": message["at"], "option": k,
                                                      "action": options[k]["action"]}))

    tasks = [asyncio.ensure_future(device(c, False)) for c in codes]
    tasks += [asyncio.ensure_future(device(room, True)) for _ in range(watchers)]
    await asyncio.wait_for(asyncio.gather(*tasks), 600)
    return latencies, totals["choices"], totals["messages"], totals["bytes"]


def bench(races: int = 1, seats: int = 12, watchers: int = 20, seed: int = 1) -> list[str]:
    lines = [ngettext("host bench: {races} race, {seats} seats on their own devices, {watchers} watchers, loopback",
                      "host bench: {races} races, {seats} seats on their own devices, {watchers} watchers, loopback",
                      races).format(races=races, seats=seats, watchers=watchers)]
    all_latencies: list[float] = []
    cpu_per_round: list[float] = []
    peaks: list[float] = []
    for k in range(races):
        with tempfile.TemporaryDirectory() as folder:
            proc, port, codes, room = _start_host(seats, seed + k, folder)
            try:
                cpu0 = _proc_cpu(proc.pid)
                latencies, choices, messages, size = asyncio.run(_race(port, list(codes.values()), room, watchers))
                cpu1 = _proc_cpu(proc.pid)
                peak = _proc_peak_mb(proc.pid)
                out, _err = proc.communicate(timeout=60)
            finally:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait(10)
            rounds = max(1, len(re.findall(r"^Round \d+ revealed", out, re.M)))
            all_latencies += latencies
            if cpu0 is not None and cpu1 is not None:
                cpu_per_round.append((cpu1 - cpu0) / rounds)
            if peak is not None:
                peaks.append(peak)
            lines.append("  " + _("race {k}: {rounds} rounds, {choices} choices, {messages} messages ({size}) to the "
                                  "devices").format(k=k + 1, rounds=rounds, choices=choices, messages=messages,
                                                    size=_("{n} MB").format(n=decimal(size / 1e6, 1))))
    if all_latencies:
        ms = sorted(x * 1000 for x in all_latencies)
        p99 = ms[min(len(ms) - 1, int(round(0.99 * (len(ms) - 1))))]
        lines.append("  " + _("reveal latency (last card sent -> reveal on each device, {n} receipts): median {median} ms, "
                              "p99 {p99} ms, max {max} ms").format(n=len(ms), median=decimal(statistics.median(ms), 1),
                                                                   p99=decimal(p99, 1), max=decimal(ms[-1], 1)))
    lines.append("  " + (_("host CPU per round: {ms} ms").format(ms=decimal(statistics.mean(cpu_per_round) * 1000, 1))
                         if cpu_per_round else _("host CPU per round: unknown (no /proc)")))
    lines.append("  " + (_("host peak memory (VmHWM): {n}").format(n=_("{n} MB").format(n=f"{max(peaks):.0f}"))
                         if peaks else _("host memory: unknown (no /proc)")))
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m flamme_tui.net.bench", description=__doc__.split("\n")[0])
    parser.add_argument("--races", type=int, default=1)
    parser.add_argument("--seats", type=int, default=12, choices=range(2, 13), metavar="2-12")
    parser.add_argument("--watchers", type=int, default=20, choices=range(0, 33), metavar="0-32")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    for line in bench(max(1, min(args.races, 100)), args.seats, args.watchers, args.seed):
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())


__all__: list[Any] = ["bench", "main"]
