"""How fast the app answers: `python -m flamme_tui.ui.bench [--runs N] [--rounds N] [--size WxH]
[--variant classic|meteo|bmx] [--keys-only]`.

1. Start-up to the title menu: `python -m flamme_tui` is started N times in a
   pseudo-terminal (80x24) with FLAMME_TUI_EXIT_AFTER_TITLE=1, which makes the
   app quit as soon as the title menu has been drawn; wall time per run.
2. Key to screen: a 2-player race (classic unless --variant) driven by a
   Pilot (autosaving as in real play); for each key, the time from the key event to the first screen
   update handed to the terminal driver after it, and to the first frame that
   shows the whole change (the screen as it is once everything settled).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time

# ------------------------------------------------------------------ start-up

def startup_once(timeout: float = 20.0) -> tuple[float, float]:
    """One start of the app in a pseudo-terminal: (seconds to the title menu drawn,
    seconds to the process gone, terminal restored)."""
    import fcntl
    import pty
    import select
    import struct
    import tempfile
    import termios

    stamp = tempfile.NamedTemporaryFile(prefix="flamme-bench-", delete=False)
    stamp.close()
    env = dict(os.environ, FLAMME_TUI_EXIT_AFTER_TITLE=stamp.name, TERM=os.environ.get("TERM") or "xterm-256color")
    env.pop("TEXTUAL_ANIMATIONS", None)
    wall = time.time()
    start = time.perf_counter()
    pid, fd = pty.fork()
    if pid == 0:  # the child: the real command line entry point
        try:
            os.execve(sys.executable, [sys.executable, "-m", "flamme_tui"], env)
        finally:
            os._exit(127)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    deadline = start + timeout
    try:
        while time.perf_counter() < deadline:
            ready, _, _ = select.select([fd], [], [], 0.05)
            if ready:
                try:
                    if not os.read(fd, 65536):
                        break
                except OSError:  # the child closed the terminal: it has exited
                    break
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
        else:
            raise RuntimeError("the app did not reach its title menu in time")
        if not done:
            _, status = os.waitpid(pid, 0)
        total = time.perf_counter() - start
        if os.waitstatus_to_exitcode(status) != 0:
            raise RuntimeError(f"the app exited with {os.waitstatus_to_exitcode(status)}")
        with open(stamp.name, encoding="utf-8") as f:
            drawn = float(f.read()) - wall
        return drawn, total
    finally:
        os.close(fd)
        os.unlink(stamp.name)


def bench_startup(runs: int) -> list[tuple[float, float]]:
    return [startup_once() for _ in range(runs)]


# ------------------------------------------------------------------ key to screen

MENU_KEYS = {  # title menu -> teams screen of a 2-player race of the variant
    "classic": ("enter", "enter", "enter"),
    "meteo": ("enter", "down", "enter", "enter"),
    "bmx": ("enter", "down", "down", "enter", "enter"),
}


async def _key_latency(rounds: int, size: tuple[int, int], variant: str = "classic") -> dict[str, list[float]]:
    import tempfile

    os.environ["TEXTUAL_ANIMATIONS"] = "none"
    # the race is autosaved after every action, as in real play, into a scratch directory
    os.environ["FLAMME_TUI_DATA_DIR"] = tempfile.mkdtemp(prefix="flamme-bench-")
    from textual.app import App

    from .app import FlammeApp
    from .scenarios import settle
    from .textshot import screen_text

    frames: list[tuple[float, str]] = []  # (time, what the screen shows) of every frame
    original = App._display

    def display(self, screen, renderable):
        if renderable is not None:
            # timed before looking at the screen (which takes a few ms itself)
            frames.append((time.perf_counter(), screen_text(self)))
        return original(self, screen, renderable)

    App._display = display
    times: dict[str, list[float]] = {}
    try:
        app = FlammeApp(seed=7, autoplay=False)
        async with app.run_test(size=size) as pilot:

            async def press(kind: str, key: str) -> None:
                frames.clear()
                t0 = time.perf_counter()
                await pilot.press(key)
                await settle(pilot)
                final = screen_text(app)
                after = [(t, text) for t, text in frames if t > t0]
                if after:
                    # the first frame after the key, and the first one showing the
                    # screen as it is once everything settled
                    done = next((t for t, text in after if text == final), after[-1][0])
                    times.setdefault(kind, []).append((after[0][0] - t0, done - t0))

            await pilot.press(*MENU_KEYS[variant])
            await press("menu: start the race", "ctrl+s")
            played = 0
            while played < rounds:
                await settle(pilot)
                screen = app.screen
                name = type(screen).__name__
                if name == "CurtainScreen":
                    await press("curtain: show my cards", "enter")
                    continue
                if name != "RaceScreen":
                    break
                turn = screen.turn
                if turn.kind == "draw":
                    await press("select (rider)", "2")
                    await press("confirm: draw, cards appear", "enter")
                elif turn.kind == "pick" and screen.pending is not None:
                    await press("review: pass", "enter")
                elif turn.kind == "pick":
                    for key in ("1", "2", "3", "right", "left"):
                        await press("select a card", key)
                    await press("confirm: play the card", "enter")
                elif turn.kind == "reveal":
                    for _ in range(3):
                        await press("reveal: next step", "space")
                    await press("reveal: skip to the end", "enter")
                    await press("reveal: next round", "enter")
                    played += 1
                else:
                    await press("other", "enter")
    finally:
        App._display = original
    return times


def bench_keys(rounds: int, size: tuple[int, int], variant: str = "classic") -> dict[str, list[float]]:
    return asyncio.run(_key_latency(rounds, size, variant))


# ------------------------------------------------------------------ report

def ms(seconds: float) -> str:
    return f"{seconds * 1000:6.1f} ms"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m flamme_tui.ui.bench", description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="start-ups to time (default 5)")
    parser.add_argument("--rounds", type=int, default=3, help="race rounds to drive for key latency (default 3)")
    parser.add_argument("--size", default="80x24", help="terminal size for the key latency (default 80x24)")
    parser.add_argument("--variant", default="classic", choices=sorted(MENU_KEYS),
                        help="the race driven for the key latency (default classic)")
    parser.add_argument("--keys-only", action="store_true", help="skip the start-up runs")
    args = parser.parse_args(argv)
    width, height = (int(v) for v in args.size.lower().split("x"))

    if not args.keys_only:
        print(f"Start-up to the title menu ({args.runs} runs, `python -m flamme_tui` in an 80x24 pseudo-terminal):")
        runs = bench_startup(args.runs)
        for k, label in enumerate(("title menu drawn", "process gone")):
            values = [r[k] for r in runs]
            print(f"  {label:<18} min {ms(min(values))}   median {ms(statistics.median(values))}   max {ms(max(values))}")

    print(f"Key to screen during a 2-player {args.variant} race ({args.rounds} rounds, {width}x{height}):")
    times = bench_keys(args.rounds, (width, height), args.variant)
    print(f"  {'key':<30} {'n':>3}   first frame (median, max)   whole change shown (median, p90, max)")
    every = []
    for kind, values in times.items():
        first = sorted(v[0] for v in values)
        done = sorted(v[1] for v in values)
        every += done
        print(f"  {kind:<30} {len(values):>3}   {ms(statistics.median(first))} {ms(max(first))}"
              f"        {ms(statistics.median(done))} {ms(done[int(0.9 * (len(done) - 1))])} {ms(max(done))}")
    every.sort()
    if every:
        print(f"  whole change shown, all keys: median {ms(statistics.median(every))}   "
              f"p90 {ms(every[int(0.9 * (len(every) - 1))])}   max {ms(max(every))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
