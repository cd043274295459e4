"""`flamme-tui tournament`: seeded races between bots, over several processes.

Race k uses seed k, stage k mod the stage list, and rotates the bots round
the seats so no bot keeps a seat.  Two bots make a head-to-head (2-team
races), three or four a field (the same bot may take several seats).  A
team's place is the place of its best rider among the teams.  Win shares
come with 95% Wilson intervals, overall and per stage, with each bot's
average place and its average decision time; the report is a markdown
table, to paste as it is.

With a tour (`--tour ID`), each game is a whole tour: tour k has seed k and
the same rotation, and a team's place is its place by Tour Points (the
tour's winner first), so the bots are compared over tours.
"""

from __future__ import annotations

import functools
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
from ..i18n import _, decimal, ngettext, percent, short
from ..usertext import clean
from ..words import bot_level, variant_word
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


@functools.lru_cache(maxsize=64)
def setup_of(spec: RaceSpec):
    """The engine's set-up of a race spec, built once per process: reading and
    checking the stage and rules files cost more than a whole race of easy bots.
    Set-ups are frozen, so races share one."""
    return make_setup(spec)


def run_one(args: tuple) -> RaceResult:
    """One race: (variant, stages, bots, k[, breakaway[, budget]]) (default: no
    breakaway, the default budget)."""
    variant, stages, bots, k, *more = args
    breakaway = bool(more and more[0])
    budget: Budget = more[1] if len(more) > 1 else DEFAULT
    n = len(bots)
    seating = [bots[(seat + k) % n] for seat in range(n)]
    teams = tuple(Team(c.capitalize(), c) for c in COLOURS[:n])
    bots_of, scripted = seat_plan(seating)
    stage = stages[k % len(stages)]
    spec = RaceSpec(variant=variant, stage=stage, teams=teams, scripted=scripted, breakaway=breakaway)
    game = new_game(setup_of(spec), k)
    game.narrated = False  # only its outcome is read: no events made
    timed = {seat: Timed(policy(name, budget)) for seat, name in bots_of.items()}
    play_out(game, timed)  # type: ignore[arg-type]
    places = team_places(game)
    # back to the tournament's bot order: bot j sat in seat (j - k) mod n
    seat_of = [(j - k) % n for j in range(n)]
    return RaceResult([places[s] for s in seat_of], game.round, stage,
                      [timed[s].seconds if s in timed else 0.0 for s in seat_of],
                      [timed[s].decisions if s in timed else 0 for s in seat_of])


def play_tour(args: tuple) -> tuple[RaceResult, list[int]]:
    """One tour: (tour, bots, k[, budget]); its result as a race's (places by
    Tour Points, rounds raced, the tour as its stage) and each bot's Tour Points."""
    from .tours import Tour, load_tour, race_tour

    tour_ref, bots, k = args[:3]
    budget: Budget = args[3] if len(args) > 3 else DEFAULT
    n = len(bots)
    seating = [bots[(seat + k) % n] for seat in range(n)]
    teams = tuple(Team(c.capitalize(), c) for c in COLOURS[:n])
    bots_of, scripted = seat_plan(seating)
    timed = {seat: Timed(policy(name, budget)) for seat, name in bots_of.items()}
    tour = race_tour(Tour.new(load_tour(tour_ref), teams, k, scripted),
                     lambda game: play_out(game, timed))  # type: ignore[arg-type]
    place = {line.team: line.place for line in tour.ranking()}
    points = tour.points()
    rounds = sum(d.game.round for d in tour.done)
    seat_of = [(j - k) % n for j in range(n)]
    result = RaceResult([place[s] for s in seat_of], rounds, str(tour_ref),
                        [timed[s].seconds if s in timed else 0.0 for s in seat_of],
                        [timed[s].decisions if s in timed else 0 for s in seat_of])
    return result, [points[s] for s in seat_of]


def run_tour(args: tuple) -> tuple[list[int], int, list[int]]:
    """One tour; returns each bot's place by Tour Points (in the tournament's
    bot order), the rounds raced and each bot's Tour Points."""
    result, points = play_tour(args)
    return result.places, result.rounds, points


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
    return f"{percent(wins / races)} [{percent(lo)}, {percent(hi)}]" if races else "-"


def report(bots: list[str], results: list[RaceResult], stages: list[str], head: str) -> list[str]:
    """The tournament as markdown: a headline, the overall table, the per-stage table."""
    table = standings(bots, results)
    scripted = [not any(r.decisions[j] for r in results) for j in range(len(bots))]  # peloton, muscle
    lines = [head, "",
             # ("95%" as a value: a per cent sign in a text makes Babel read it as a %-format)
             _("| seat | bot | wins | share | {level} interval | avg place | avg decision |").format(level=percent(0.95, 0)),
             "| ---: | --- | ---: | ---: | --- | ---: | ---: |"]
    for j, row in enumerate(table):
        lo, hi = row.interval()
        timing = "-" if scripted[j] else f"{short(float(f'{row.ms_per_decision:.3g}'))} ms"
        lines.append(f"| {j + 1} | {bot_level(row.bot)} | {row.wins} | {percent(row.share)} | [{percent(lo)}, {percent(hi)}] "
                     f"| {decimal(row.avg_place, 2)} | {timing} |")
    if len(stages) > 1:
        names = [f"{j + 1}. {bot_level(row.bot)}" for j, row in enumerate(table)]
        lines += ["", _("Win share per stage, with its {level} interval:").format(level=percent(0.95, 0)), "",
                  _("| stage | races | {bots} |").format(bots=" | ".join(names)),
                  "| --- | ---: | " + " | ".join("---" for _ in names) + " |"]
        for stage in stages:
            races = table[0].by_stage.get(stage, [0, 0])[1]
            cells = [share_text(*row.by_stage.get(stage, [0, 0])) for row in table]
            lines.append(f"| {stage} | {races} | " + " | ".join(cells) + " |")
    return lines


def quiet_pool(workers: int) -> Any:
    """A process pool whose workers ignore ctrl+c: it is for the parent alone (the
    workers are born ignoring it, so no moment is left where one could print a
    traceback); leaving the pool's `with` on it stops the workers at once."""
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        return multiprocessing.Pool(workers, initializer=signal.signal, initargs=(signal.SIGINT, signal.SIG_IGN))
    finally:
        signal.signal(signal.SIGINT, previous)


def tournament(bots: list[str], races: int, variant: str = "classic", stages: list[str] | None = None,
               workers: int | None = None, out=print, tour: str | None = None, breakaway: bool = False,
               budget: Budget = DEFAULT) -> dict:
    if find(variant).uses_tokens:
        stages = ["ABCD"]
    stages = stages or list(config.STAGE_ORDER[:7])  # the base stages
    jobs: list[tuple] = [(variant, stages, bots, k, breakaway, budget) for k in range(races)]
    run: Callable[[tuple], Any] = run_one
    if tour is not None:
        jobs, run, stages = [(tour, bots, k, budget) for k in range(races)], play_tour, [tour]
    workers = workers or os.cpu_count() or 1
    start = time.perf_counter()
    if workers > 1:
        with quiet_pool(workers) as pool:
            outcomes = pool.map(run, jobs, chunksize=max(1, races // (workers * 8)))
    else:
        outcomes = [run(job) for job in jobs]
    results: list[RaceResult] = [o[0] for o in outcomes] if tour is not None else outcomes
    points = [o[1] for o in outcomes] if tour is not None else []
    elapsed = time.perf_counter() - start
    n = len(bots)
    thinking = _(", expert budget {budget}").format(budget=budget) if "expert" in bots else ""
    processes = ngettext("{n} process", "{n} processes", workers).format(n=workers)
    seats = _(", ").join(bot_level(b) for b in bots)  # the levels in the player's language (the options take ids)
    if tour is not None:
        head = ngettext("{races} tour of {tour}, {n} seats ({bots}), {processes}{thinking}, {seconds} s; a win: the most "
                        "Tour Points",
                        "{races} tours of {tour}, {n} seats ({bots}), {processes}{thinking}, {seconds} s; a win: the most "
                        "Tour Points", races).format(races=races, tour=clean(tour, False), n=n, bots=seats, processes=processes,
                                  thinking=thinking, seconds=decimal(elapsed))
    else:
        head = ngettext("{races} {variant} race, {n} seats ({bots}), {stages}, {processes}{thinking}, {seconds} s",
                        "{races} {variant} races, {n} seats ({bots}), {stages}, {processes}{thinking}, {seconds} s",
                        races).format(
            races=races, variant=variant_word(variant), n=n, bots=seats,
            stages=ngettext("{n} stage", "{n} stages", len(stages)).format(n=len(stages)), processes=processes,
            thinking=thinking, seconds=decimal(elapsed))
    lines = report(bots, results, stages, head)
    table = []
    rows = standings(bots, results)
    for j, row in enumerate(rows):
        entry = {"bot": row.bot, "wins": row.wins, "share": row.share, "low": row.interval()[0],
                 "high": row.interval()[1], "avg_place": row.avg_place, "ms_per_decision": row.ms_per_decision,
                 "by_stage": {s: tuple(v) for s, v in row.by_stage.items()}}
        if tour is not None:
            entry["avg_points"] = sum(p[j] for p in points) / races
        table.append(entry)
    if tour is not None:  # the Tour Points, after the table
        lines += ["", _("Average Tour Points: {points}").format(
            points=", ".join(f"{j + 1}. {bot_level(row.bot)} {decimal(sum(p[j] for p in points) / races, 2)}"
                            for j, row in enumerate(rows)))]
    for line in lines:
        out(line)
    return {"table": table, "seconds": elapsed}
