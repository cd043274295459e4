"""How fast the app answers: `python -m flamme_tui.ui.bench [--runs N] [--rounds N] [--size WxH ...]
[--variant classic|meteo|bmx] [--keys-only | --startup-only]`.

1. Start-up to the title menu: `python -P -m flamme_tui` is started N times in a
   pseudo-terminal (80x24) with FLAMME_TUI_EXIT_AFTER_TITLE=1, which makes the
   app quit as soon as the title menu has been drawn; wall time per run, and
   the app's CPU time to the title (steadier than wall time on a busy machine).
2. Key to screen: a 2-player race (classic unless --variant) driven by a
   Pilot (autosaving as in real play); for each key, the time from the key event to the first screen
   update handed to the terminal driver after it, and to the first frame that
   shows the whole change (the screen as it is once everything settled).
3. Keys while bots think: a race of 1 human + 3 hard bots (same variant,
   rounds and size); while the bots think (in their own process, which a
   worker of the race screen waits for), keys that change the screen are
   pressed (? opens the help, Esc closes it: the dearest key the race
   screen answers while bots think), each timed from the key event to the
   first frame showing its change.  Only keys
   answered while the bots still thought count; the same key on the human's
   turn (nobody thinking) is timed too, to compare.
4. Autosave in a long tour: the last stage of a 21-stage tour played by bots
   with the app's autosave (the save taken on the UI thread, built, encoded
   and written in a worker): per action, the UI thread's share and the
   worker's (--tour-stages N for another length).

Parts 2 and 3 run at each --size (default 80x24 and 200x60), and a summary
ends the report: per size, the median and 90th percentile of a key to its
change shown, nobody thinking and bots thinking, against one frame (16.7 ms).
The frames are looked at cheaply (their text from the compositor's strips,
not a Rich export): the bench's own look at each frame runs on the app's
thread and delayed the keys it measured.  "Race keys" are the keys of the
race screen and its curtain (not the menu key that starts the race).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import statistics
import sys
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .app import FlammeApp

# ------------------------------------------------------------------ start-up

def startup_once(timeout: float = 20.0) -> tuple[float, float, float]:
    """One start of the app in a pseudo-terminal: (seconds to the title menu drawn,
    seconds to the process gone, terminal restored, and the app's CPU seconds
    to the title menu drawn)."""
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
            os.execve(sys.executable, [sys.executable, "-P", "-m", "flamme_tui"], env)
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
            stamped = [float(v) for v in f.read().split()]  # wall clock, the app's CPU time
        return stamped[0] - wall, total, stamped[1] if len(stamped) > 1 else float("nan")
    finally:
        os.close(fd)
        os.unlink(stamp.name)


def bench_startup(runs: int) -> list[tuple[float, float, float]]:
    return [startup_once() for _ in range(runs)]


# ------------------------------------------------------------------ key to screen

MENU_KEYS = {  # title menu -> teams screen of a 2-player race of the variant
    "classic": ("enter", "enter", "enter"),
    "meteo": ("enter", "down", "enter", "enter"),
    "bmx": ("enter", "down", "down", "enter", "enter"),
}


def framed_app(frames: list[tuple[float, str, float]]) -> FlammeApp:
    """A FlammeApp (seed 7, no autoplay) that adds (time, what the screen shows,
    the process's CPU time) to `frames` for every frame it hands to the terminal driver.  The race is
    autosaved after every action, as in real play, into a scratch directory."""
    import tempfile

    os.environ["TEXTUAL_ANIMATIONS"] = "none"  # before Textual is imported
    os.environ["FLAMME_TUI_DATA_DIR"] = tempfile.mkdtemp(prefix="flamme-bench-")
    from rich.console import RenderableType
    from textual.screen import Screen

    from .app import FlammeApp

    class FramedApp(FlammeApp):
        def _display(self, screen: Screen[Any], renderable: RenderableType | None) -> None:
            if renderable is not None:
                # timed before looking at the screen (which takes a little time itself)
                now, cpu = time.perf_counter(), time.process_time()
                frames.append((now, frame_text(self), cpu))
            super()._display(screen, renderable)

    return FramedApp(seed=7, autoplay=False)


def frame_text(app: Any) -> str:
    """The whole screen's characters, cheaply: the text of the compositor's
    strips.  (textshot.screen_text exports them through a Rich console: twice
    the time or more, 5.6-6.7 ms of CPU a frame at 200x60 against 2.0-2.8 ms,
    on the app's thread, at every frame the bench looks at: the keys it
    measured waited for it.)"""
    update: Any = app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    return "\n".join("".join(strip.text for strip in line) for line in update.strips)


# seconds from a key to its first frame, to the frame showing its whole change, and the
# process's CPU seconds to that frame (steadier than wall time on a busy machine)
Latency = tuple[float, float, float]


async def _key_latency(rounds: int, size: tuple[int, int], variant: str = "classic") -> dict[str, list[Latency]]:
    frames: list[tuple[float, str, float]] = []
    app = framed_app(frames)
    from .scenarios import settle
    from .screens.curtain import CurtainScreen
    from .screens.race import RaceScreen

    times: dict[str, list[Latency]] = {}
    async with app.run_test(size=size) as pilot:

        async def press(kind: str, key: str) -> None:
            frames.clear()
            t0, cpu0 = time.perf_counter(), time.process_time()
            await pilot.press(key)
            await settle(pilot)
            final = frame_text(app)
            after = [frame for frame in frames if frame[0] > t0]
            if after:
                # the first frame after the key, and the first one showing the
                # screen as it is once everything settled
                done = next((frame for frame in after if frame[1] == final), after[-1])
                times.setdefault(kind, []).append((after[0][0] - t0, done[0] - t0, done[2] - cpu0))

        for key in MENU_KEYS[variant]:  # each menu key, named by the screen it opens (the teams
            await press("menu", key)  # screen is the slow one: it was a second of CPU before stop 45)
            if "menu" in times:
                times.setdefault(f"menu: to {type(app.screen).__name__}", []).append(times.pop("menu")[0])
        await press("menu: start the race", "ctrl+s")
        played = 0
        while played < rounds:
            await settle(pilot)
            screen = app.screen
            if isinstance(screen, CurtainScreen):
                await press("curtain: show my cards", "enter")
                continue
            if not isinstance(screen, RaceScreen) or screen.turn is None:
                break
            turn = screen.turn
            if turn.kind == "draw":
                await press("choose (rider): cards appear", "2")
            elif turn.kind == "review":
                await press("review: pass", "enter")
            elif turn.kind == "pick":
                for key in ("right", "right", "right", "left", "left"):  # (a number plays at once)
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
    return times


def bench_keys(rounds: int, size: tuple[int, int], variant: str = "classic") -> dict[str, list[Latency]]:
    return asyncio.run(_key_latency(rounds, size, variant))


FRAME = 1 / 60  # Textual draws at most 60 frames a second
CHARS = {"right_square_bracket": "]", "left_square_bracket": "[", "question_mark": "?", "enter": "\r",
         "escape": "\x1b"}


def send_key(app: Any, key: str) -> None:
    """A key event as the terminal driver sends it.  (Pilot.press waits until the
    process is idle after each key, which it is not while a bot thinks.)"""
    from textual import events

    char = CHARS.get(key, key if len(key) == 1 else None)
    event = events.Key(key, char)
    event.set_sender(app)
    app._driver.send_message(event)


async def _keys_while_bots_think(rounds: int, size: tuple[int, int], variant: str = "classic",
                                 bots: tuple[str, ...] = ("hard", "hard", "hard")) -> dict[str, list[float]]:
    """Seconds from each key pressed while the bots think to the first frame showing
    its change ("key"), and how long the bots thought after each human turn ("thinking")."""
    frames: list[tuple[float, str, float]] = []
    app = framed_app(frames)
    from .choices import RaceChoices, default_seats

    seats = default_seats(1 + len(bots))
    for seat, name in zip(seats[1:], bots, strict=True):
        seat.controller = name
    choices = RaceChoices(variant=variant, seats=seats, seed=7)
    keys = ("question_mark", "escape")  # open the help, close it: a change on every variant's screen
    out: dict[str, list[float]] = {"key": [], "thinking": [], "idle": []}
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        app.start_race(choices)
        played = 0
        deadline = time.perf_counter() + 120 * max(1, rounds)
        while played < rounds and time.perf_counter() < deadline:
            await asyncio.sleep(0.01)
            screen: Any = app.screen
            name = type(screen).__name__
            if name == "PodiumScreen":
                break
            turn = getattr(screen, "turn", None)
            if name != "RaceScreen" or turn is None:
                continue
            if turn.kind == "bot":
                start = time.perf_counter()
                k = 0
                while screen.turn is not None and screen.turn.kind == "bot":
                    before = frame_text(app)
                    frames.clear()
                    t0 = time.perf_counter()
                    send_key(app, keys[k % 2])
                    k += 1
                    changed = None
                    while changed is None and screen.turn.kind == "bot" and time.perf_counter() - t0 < 2:
                        await asyncio.sleep(0.0005)
                        changed = next((t for t, text, _ in frames if text != before), None)
                    if changed is not None and screen.turn.kind == "bot":
                        out["key"].append(changed - t0)
                    await asyncio.sleep(0.02)  # a player's pace, more or less
                out["thinking"].append(time.perf_counter() - start)
                if k % 2:  # close the help
                    send_key(app, keys[1])
                t0 = time.perf_counter()
                while app.screen is not screen and time.perf_counter() - t0 < 2:
                    await asyncio.sleep(0.001)
                continue
            if turn.kind == "draw" and screen.sel is None and len(out["idle"]) < len(out["thinking"]) + 1:
                # the same key with no bot thinking, to compare
                before = frame_text(app)
                frames.clear()
                t0 = time.perf_counter()
                send_key(app, keys[0])
                changed = None
                while changed is None and time.perf_counter() - t0 < 2:
                    await asyncio.sleep(0.0005)
                    changed = next((t for t, text, _ in frames if text != before), None)
                if changed is not None:
                    out["idle"].append(changed - t0)
                send_key(app, keys[1])
                t0 = time.perf_counter()
                while app.screen is not screen and time.perf_counter() - t0 < 2:
                    await asyncio.sleep(0.001)
                continue
            if turn.kind in ("draw", "pick"):
                wanted = screen.keep_size() if turn.kind == "pick" else 1
                chosen = len(screen.multi) if wanted > 1 else int(screen.sel is not None)
                key = str(chosen + 1) if chosen < wanted else "enter"
            elif turn.kind == "reveal":
                key = "enter"  # skip to the end, then on to the next round
                played += screen.flow.replay is not None and screen.flow.replay.at_end
            else:
                key = "enter"
            frames.clear()
            send_key(app, key)
            t0 = time.perf_counter()
            while not frames and time.perf_counter() - t0 < 1:  # wait for the answer
                await asyncio.sleep(0.001)
    return out


def bench_bots(rounds: int, size: tuple[int, int], variant: str = "classic") -> dict[str, list[float]]:
    return asyncio.run(_keys_while_bots_think(rounds, size, variant))


# ------------------------------------------------------------------ report

def bench_autosave(stages: int = 21, actions: int = 60) -> dict[str, list[float]]:
    """Seconds per action of the autosave in the last stage of a tour of
    `stages` stages (4 easy bots): "ui", what runs on the thread that plays
    (Autosave.__call__ with its store deferred), and "worker", the deferred
    store (document built, encoded, written and fsync'ed)."""
    import tempfile
    from pathlib import Path

    from .. import saves
    from ..play import tours
    from ..play.races import COLOURS, Team

    names = ["avenue-corso-paseo", "firenze-milano", "la-haut-montagne"]
    spec = tours.stages_option(",".join(names[k % len(names)] for k in range(stages)))
    teams = tuple(Team(c.capitalize(), c) for c in COLOURS[:4])
    session = tours.stage_session(tours.Tour.new(spec, teams, 1), {seat: "easy" for seat in range(4)})
    while len(session.tour.done) + 1 < stages:
        while not session.over:
            session.play_bots()
        session = tours.next_session(session)
    found: dict[str, list[float]] = {"ui": [], "worker": []}
    with tempfile.TemporaryDirectory(prefix="flamme-bench-") as folder:
        autosave = saves.attach_autosave(session, Path(folder) / "tour.json")
        deferred: list = []
        autosave.defer = deferred.append  # as the app's run_worker: the store runs later, elsewhere
        session.listeners.remove(autosave)
        for _ in range(actions):
            if session.over:
                break
            move = session.bot_move()
            session.play(move, move.think().action)
            start = time.perf_counter()
            autosave(session, session.game.actions[-1])  # what the app's UI thread runs after each action
            found["ui"].append(time.perf_counter() - start)
            start = time.perf_counter()
            for store in deferred:
                store()
            deferred.clear()
            found["worker"].append(time.perf_counter() - start)
        autosave.detach()
    return found


def ms(seconds: float) -> str:
    return f"{seconds * 1000:6.1f} ms"


def terminal_size(text: str) -> tuple[int, int]:
    """An argparse type: WIDTHxHEIGHT, 40x12 to 500x200."""
    try:
        width, height = (int(v) for v in text.lower().split("x"))
    except ValueError:
        width = height = 0
    if not (40 <= width <= 500 and 12 <= height <= 200):
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT from 40x12 to 500x200, got {text!r}")
    return width, height


def build_parser() -> argparse.ArgumentParser:
    from ..arguments import Parser, Whole

    parser = Parser(prog="python -m flamme_tui.ui.bench",
                    description="How fast the app answers: start-up to the title menu, key to screen at each "
                                "size (bots thinking or not), autosave in a long tour.")
    parser.add_argument("--runs", type=Whole(1, 100), default=5, metavar="N", help="start-ups to time, 1 to 100 (default 5)")
    parser.add_argument("--rounds", type=Whole(1, 100), default=3, metavar="N",
                        help="race rounds to drive for key latency, 1 to 100 (default 3)")
    parser.add_argument("--size", type=terminal_size, action="append", metavar="WxH",
                        help="terminal size for the key latency, 40x12 to 500x200; again for another size "
                             "(default 80x24 and 200x60)")
    parser.add_argument("--variant", default="classic", choices=sorted(MENU_KEYS),
                        help="the race driven for the key latency (default classic)")
    parser.add_argument("--keys-only", action="store_true", help="skip the start-up runs")
    parser.add_argument("--startup-only", action="store_true", help="time only the start-up")
    parser.add_argument("--tour-stages", type=Whole(1, 21), default=21, metavar="N",
                        help="stages of the tour whose last stage the autosave is timed in (default 21)")
    parser.add_argument("--autosave-only", action="store_true", help="time only the autosave in a long tour")
    return parser


def main(argv: list[str] | None = None) -> int:
    try:
        return measure(build_parser().parse_args(argv))
    except KeyboardInterrupt:  # ctrl+c: stop quietly, the shell's way (128 + SIGINT)
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second one while stopping changes nothing
        print("python -m flamme_tui.ui.bench: interrupted", file=sys.stderr)
        return 130


def percentile(values: list[float], share: float) -> float:
    """The value `share` of `values` (sorted) are at or under (nearest rank below)."""
    return values[int(share * (len(values) - 1))]


def measure(args: argparse.Namespace) -> int:
    if args.autosave_only:
        return measure_autosave(args.tour_stages)

    if not args.keys_only:
        print(f"Start-up to the title menu ({args.runs} runs, `python -P -m flamme_tui` in an 80x24 pseudo-terminal):")
        runs = bench_startup(args.runs)
        for k, label in enumerate(("title menu drawn", "process gone", "CPU to the title")):
            values = [r[k] for r in runs]
            print(f"  {label:<18} min {ms(min(values))}   median {ms(statistics.median(values))}   max {ms(max(values))}")
    if args.startup_only:
        return 0

    summary: list[tuple[str, str, list[float]]] = []
    for width, height in args.size or [(80, 24), (200, 60)]:
        size = f"{width}x{height}"
        every = measure_keys(args, (width, height))
        summary.append((size, "nobody thinking (race keys)", every))
        summary.append((size, "3 hard bots thinking (? Esc)", measure_bots(args, (width, height))))

    print(f"Key to its change shown, per size (target: 90th percentile within one frame, {ms(FRAME).strip()}):")
    print(f"  {'size':<8} {'':<29} {'n':>4}   {'median':>9}   {'p90':>9}   within one frame")
    for size, label, values in summary:
        values = sorted(values)
        if values:
            within = sum(1 for v in values if v <= FRAME)
            print(f"  {size:<8} {label:<29} {len(values):>4}   {ms(statistics.median(values))}   "
                  f"{ms(percentile(values, 0.9))}   {within}/{len(values)} ({100 * within / len(values):.0f}%)")
        else:
            print(f"  {size:<8} {label:<29}    0   no key measured")
    return measure_autosave(args.tour_stages)


def measure_keys(args: argparse.Namespace, size: tuple[int, int]) -> list[float]:
    """Part 2 at one size: its table, and every key's time to its whole change shown."""
    width, height = size
    print(f"Key to screen during a 2-player {args.variant} race ({args.rounds} rounds, {width}x{height}):")
    times = bench_keys(args.rounds, size, args.variant)
    print(f"  {'key':<30} {'n':>3}   first frame (median, max)   whole change shown (median, p90, max)"
          "   CPU to it (median, p90)")
    every, cpu = [], []
    for kind, latencies in times.items():
        first = sorted(v[0] for v in latencies)
        done = sorted(v[1] for v in latencies)
        used = sorted(v[2] for v in latencies)
        if not kind.startswith("menu"):  # (starting a race is no race key)
            every += done
            cpu += used
        print(f"  {kind:<30} {len(latencies):>3}   {ms(statistics.median(first))} {ms(max(first))}"
              f"        {ms(statistics.median(done))} {ms(percentile(done, 0.9))} {ms(max(done))}"
              f"   {ms(statistics.median(used))} {ms(percentile(used, 0.9))}")
    every.sort()
    cpu.sort()
    if every:
        print(f"  whole change shown, every race key: median {ms(statistics.median(every))}   "
              f"p90 {ms(percentile(every, 0.9))}   max {ms(max(every))}")
        # the process's CPU time from the key to that frame (the Pilot's share included):
        # what the machine's load changes least
        print(f"  CPU to it, every race key:          median {ms(statistics.median(cpu))}   "
              f"p90 {ms(percentile(cpu, 0.9))}   max {ms(max(cpu))}")
    return every


def measure_bots(args: argparse.Namespace, size: tuple[int, int]) -> list[float]:
    """Part 3 at one size: its lines, and the times of the keys answered while the bots thought."""
    width, height = size
    print(f"Keys while 3 hard bots think (1 human + 3 hard bots, {args.variant}, {args.rounds} rounds, "
          f"{width}x{height}):")
    found = bench_bots(args.rounds, size, args.variant)
    thinking, keys = sorted(found["thinking"]), sorted(found["key"])
    if thinking:
        print(f"  bots thinking after each human turn: n {len(thinking)}   median {ms(statistics.median(thinking))}"
              f"   max {ms(max(thinking))}")
    if keys:
        within = sum(1 for v in keys if v <= FRAME)
        print(f"  key to its change shown: n {len(keys)}   median {ms(statistics.median(keys))}   "
              f"p90 {ms(percentile(keys, 0.9))}   max {ms(max(keys))}   "
              f"within one frame ({ms(FRAME).strip()}): {within}/{len(keys)}")
    else:
        print("  no key was answered while the bots thought")
    idle = sorted(found["idle"])
    if idle:
        print(f"  the same key, nobody thinking:  n {len(idle)}   median {ms(statistics.median(idle))}   "
              f"max {ms(max(idle))}")
    return keys


def measure_autosave(stages: int) -> int:
    print(f"Autosave per action in the last stage of a {stages}-stage tour (4 easy bots):")
    found = bench_autosave(stages)
    for key, label in (("ui", "UI thread (save taken)"), ("worker", "worker (built, encoded, written)")):
        values = sorted(found[key])
        if values:
            print(f"  {label:<32} n {len(values)}   median {ms(statistics.median(values))}   "
                  f"p90 {ms(values[int(0.9 * (len(values) - 1))])}   max {ms(max(values))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
