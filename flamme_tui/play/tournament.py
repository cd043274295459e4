"""`flamme-tui tournament`: seeded races between bots, over several processes.

Race k uses seed k, stage k mod the stage list, and rotates the bots round
the seats so no bot keeps a seat.  Two bots make a head-to-head (2-team
races), three or four a field (the same bot may take several seats).  A
team's place is the place of its best rider among the teams.  Win shares
come with 95% Wilson intervals, overall and per stage, with each bot's
average place and its average decision time; the report is a markdown
table, to paste as it is.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .. import config
from ..bots import DEFAULT, Budget, policy
from ..engine.rules import find
from .races import COLOURS, RaceSpec, Team, make_setup, new_game, play_out, seat_plan


def team_places(game) -> list[int]:
    """Place (1 = winner) of each seat's team, by its best rider (the engine's outcome)."""
    return list(game.outcome().places)


@dataclass(frozen=True, slots=True)
class RaceResult:
    """One race, in the tournament's bot order: entry j is about bot j."""

    places: list[int]
    rounds: int
    stage: str
    seconds: list[float]  # time bot j spent deciding
    decisions: list[int]  # decisions bot j took


class Timed:
    """A policy that adds up the wall time of its decisions."""

    def __init__(self, play: Callable[[Any], Any]) -> None:
        self.play = play
        self.seconds = 0.0
        self.decisions = 0

    def __call__(self, view: Any) -> Any:
        start = time.perf_counter()
        action = self.play(view)
        self.seconds += time.perf_counter() - start
        self.decisions += 1
        return action


def run_one(args: tuple) -> RaceResult:
    """One race: (variant, stages, bots, k[, budget])."""
    variant, stages, bots, k = args[:4]
    budget: Budget = args[4] if len(args) > 4 else DEFAULT
    n = len(bots)
    seating = [bots[(seat + k) % n] for seat in range(n)]
    teams = tuple(Team(c.capitalize(), c) for c in COLOURS[:n])
    bots_of, scripted = seat_plan(seating)
    stage = stages[k % len(stages)]
    spec = RaceSpec(variant=variant, stage=stage, teams=teams, scripted=scripted)
    game = new_game(make_setup(spec), k)
    timed = {seat: Timed(policy(name, budget)) for seat, name in bots_of.items()}
    play_out(game, timed)  # type: ignore[arg-type]
    places = team_places(game)
    # back to the tournament's bot order: bot j sat in seat (j - k) mod n
    seat_of = [(j - k) % n for j in range(n)]
    return RaceResult([places[s] for s in seat_of], game.round, stage,
                      [timed[s].seconds if s in timed else 0.0 for s in seat_of],
                      [timed[s].decisions if s in timed else 0 for s in seat_of])


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 0.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(slots=True)
class Standing:
    """One bot's figures over a set of races."""

    bot: str
    races: int = 0
    wins: int = 0
    place_sum: int = 0
    seconds: float = 0.0
    decisions: int = 0
    by_stage: dict[str, list[int]] = field(default_factory=dict)  # stage -> [wins, races]

    @property
    def share(self) -> float:
        return self.wins / self.races if self.races else 0.0

    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.races)

    @property
    def avg_place(self) -> float:
        return self.place_sum / self.races if self.races else 0.0

    @property
    def ms_per_decision(self) -> float:
        return 1000 * self.seconds / self.decisions if self.decisions else 0.0


def standings(bots: list[str], results: list[RaceResult]) -> list[Standing]:
    table = [Standing(name) for name in bots]
    for res in results:
        for j, row in enumerate(table):
            won = res.places[j] == 1
            row.races += 1
            row.wins += won
            row.place_sum += res.places[j]
            row.seconds += res.seconds[j]
            row.decisions += res.decisions[j]
            cell = row.by_stage.setdefault(res.stage, [0, 0])
            cell[0] += won
            cell[1] += 1
    return table


def share_text(wins: int, races: int) -> str:
    lo, hi = wilson(wins, races)
    return f"{wins / races:.1%} [{lo:.1%}, {hi:.1%}]" if races else "-"


def report(bots: list[str], results: list[RaceResult], stages: list[str], head: str) -> list[str]:
    """The tournament as markdown: a headline, the overall table, the per-stage table."""
    table = standings(bots, results)
    scripted = [not any(r.decisions[j] for r in results) for j in range(len(bots))]  # peloton, muscle
    lines = [head, "",
             "| seat | bot | wins | share | 95% interval | avg place | avg decision |",
             "| ---: | --- | ---: | ---: | --- | ---: | ---: |"]
    for j, row in enumerate(table):
        lo, hi = row.interval()
        timing = "-" if scripted[j] else f"{row.ms_per_decision:.3g} ms"
        lines.append(f"| {j + 1} | {row.bot} | {row.wins} | {row.share:.1%} | [{lo:.1%}, {hi:.1%}] "
                     f"| {row.avg_place:.2f} | {timing} |")
    if len(stages) > 1:
        names = [f"{j + 1}. {row.bot}" for j, row in enumerate(table)]
        lines += ["", "Win share per stage, with its 95% interval:", "",
                  "| stage | races | " + " | ".join(names) + " |",
                  "| --- | ---: | " + " | ".join("---" for _ in names) + " |"]
        for stage in stages:
            races = table[0].by_stage.get(stage, [0, 0])[1]
            cells = [share_text(*row.by_stage.get(stage, [0, 0])) for row in table]
            lines.append(f"| {stage} | {races} | " + " | ".join(cells) + " |")
    return lines


def tournament(bots: list[str], races: int, variant: str = "classic", stages: list[str] | None = None,
               workers: int | None = None, out=print, budget: Budget = DEFAULT) -> dict:
    if find(variant).uses_tokens:
        stages = ["ABCD"]
    stages = stages or config.stage_ids()[:7]
    jobs = [(variant, stages, bots, k, budget) for k in range(races)]
    workers = workers or os.cpu_count() or 1
    start = time.perf_counter()
    if workers > 1:
        # ctrl+c is for the parent alone (the workers are born ignoring it, so no
        # moment is left where one could print a traceback); leaving the `with`
        # on it stops the workers at once
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
        try:
            pool = multiprocessing.Pool(workers, initializer=signal.signal, initargs=(signal.SIGINT, signal.SIG_IGN))
        finally:
            signal.signal(signal.SIGINT, previous)
        with pool:
            results = pool.map(run_one, jobs, chunksize=max(1, races // (workers * 8)))
    else:
        results = [run_one(job) for job in jobs]
    elapsed = time.perf_counter() - start
    n = len(bots)
    thinking = f", expert budget {budget}" if "expert" in bots else ""
    head = (f"{races} {variant} races, {n} seats ({', '.join(bots)}), {len(stages)} stage(s), "
            f"{workers} process(es){thinking}, {elapsed:.1f} s")
    for line in report(bots, results, stages, head):
        out(line)
    table = [{"bot": row.bot, "wins": row.wins, "share": row.share, "low": row.interval()[0],
              "high": row.interval()[1], "avg_place": row.avg_place, "ms_per_decision": row.ms_per_decision,
              "by_stage": {s: tuple(v) for s, v in row.by_stage.items()}}
             for row in standings(bots, results)]
    return {"table": table, "seconds": elapsed}
