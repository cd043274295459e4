"""`flamme-tui bench --hint`: how long the hint key takes to answer, as in the app.

Each hint goes the app's way: the race's set-up, seed and actions handed to
the bots' thinking process (`Thinker.call`), which replays the race and
gives the expert the seat's view (`play.coach.hint_job`).  Timed by the
clock from the question to the answer, at every decision of seat 0 (played
by `medium`, against medium and easy) over whole races."""

from __future__ import annotations

import asyncio
import time
from statistics import median
from typing import Any

from ..bots import POLICIES
from ..bots.budget import Budget
from ..engine.phase import Phase
from ..engine.turns import turns
from ..i18n import ngettext
from ..words import variant_word
from .coach import hint_job
from .races import new_game
from .thinker import Thinker


def percentile(times: list[float], share: float) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


async def _time(setup: Any, races: int, budget: Budget, processes: bool) -> list[float]:
    from ..setupdata import setup_json

    thinker = Thinker(processes=processes)
    thinker.warm()
    text = setup_json(setup)
    others = ["medium", "easy"]
    times: list[float] = []
    try:
        await thinker.call(int, 0)  # the process started: its start-up is the app's, not a hint's
        for seed in range(races):
            game = new_game(setup, seed)
            while game.phase != Phase.OVER:
                for seat in turns(game):
                    view = game.view(seat)
                    if seat == 0:
                        t = time.perf_counter()
                        await thinker.call(hint_job, text, seed, tuple(str(a) for a in game.actions), seat,
                                           budget.seconds, budget.rollouts)
                        times.append(time.perf_counter() - t)
                        game.apply(POLICIES["medium"](view))
                    else:
                        game.apply(POLICIES[others[seat % 2]](view))
    finally:
        thinker.close()
    return times


def run(setup: Any, variant: str, races: int, budget: Budget, processes: bool = True) -> str:
    times = asyncio.run(_time(setup, races, budget, processes))
    ms = [t * 1000 for t in times]
    return ngettext("hint on {course} · {variant}, {races} race, budget {budget}, {n} hints, in the thinking process: "
                    "median {median} ms, 90th percentile {p90} ms, 99th percentile {p99} ms, max {max} ms",
                    "hint on {course} · {variant}, {races} races, budget {budget}, {n} hints, in the thinking process: "
                    "median {median} ms, 90th percentile {p90} ms, 99th percentile {p99} ms, max {max} ms",
                    races).format(course=setup.course.name, variant=variant_word(variant), races=races, budget=budget,
                                  n=len(ms), median=f"{median(ms):.0f}", p90=f"{percentile(ms, 0.9):.0f}",
                                  p99=f"{percentile(ms, 0.99):.0f}", max=f"{max(ms):.0f}")
