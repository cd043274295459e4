"""`flamme-tui tournament`: seeded races between bots, over several processes.

Race k uses seed k, stage k mod the stage list, and rotates the bots round
the seats so no bot keeps a seat.  A team's place is the place of its best
rider among the teams.  Win shares come with 95% Wilson intervals.

With a tour (`--tour ID`), each game is a whole tour: tour k has seed k and
the same rotation, and a team's place is its place by Tour Points (the
tour's winner first), so the bots are compared over tours.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import signal
import time
from collections.abc import Callable

from .. import config
from ..bots import POLICIES
from ..engine.rules import find
from .races import COLOURS, RaceSpec, Team, make_setup, new_game, play_out, seat_plan


def team_places(game) -> list[int]:
    """Place (1 = winner) of each seat's team, by its best rider (the engine's outcome)."""
    return list(game.outcome().places)


def run_one(args: tuple) -> tuple[list[int], int]:
    """One race; returns the place of each bot (in the tournament's bot order) and rounds."""
    variant, stages, bots, k, *more = args  # and whether the breakaway is raced (default: not)
    breakaway = bool(more and more[0])
    n = len(bots)
    seating = [bots[(seat + k) % n] for seat in range(n)]
    teams = tuple(Team(c.capitalize(), c) for c in COLOURS[:n])
    bots_of, scripted = seat_plan(seating)
    spec = RaceSpec(variant=variant, stage=stages[k % len(stages)], teams=teams, scripted=scripted, breakaway=breakaway)
    game = new_game(make_setup(spec), k)
    play_out(game, {seat: POLICIES[name] for seat, name in bots_of.items()})
    places = team_places(game)
    # back to the tournament's bot order: entry j is bot j's place
    return [places[(j - k) % n] for j in range(n)], game.round


def run_tour(args: tuple) -> tuple[list[int], int, list[int]]:
    """One tour; returns each bot's place by Tour Points (in the tournament's
    bot order), the rounds raced and each bot's Tour Points."""
    from .tours import Tour, load_tour, race_tour

    tour_ref, bots, k = args
    n = len(bots)
    seating = [bots[(seat + k) % n] for seat in range(n)]
    teams = tuple(Team(c.capitalize(), c) for c in COLOURS[:n])
    bots_of, scripted = seat_plan(seating)
    policies = {seat: POLICIES[name] for seat, name in bots_of.items()}
    tour = race_tour(Tour.new(load_tour(tour_ref), teams, k, scripted), lambda game: play_out(game, policies))
    place = {line.team: line.place for line in tour.ranking()}
    points = tour.points()
    rounds = sum(d.game.round for d in tour.done)
    return [place[(j - k) % n] for j in range(n)], rounds, [points[(j - k) % n] for j in range(n)]


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 0.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def tournament(bots: list[str], races: int, variant: str = "classic", stages: list[str] | None = None,
               workers: int | None = None, out=print, tour: str | None = None, breakaway: bool = False) -> dict:
    if find(variant).uses_tokens:
        stages = ["ABCD"]
    stages = stages or list(config.STAGE_ORDER[:7])  # the base stages
    jobs: list[tuple] = [(variant, stages, bots, k, breakaway) for k in range(races)]
    run: Callable[[tuple], tuple] = run_one
    if tour is not None:
        jobs, run = [(tour, bots, k) for k in range(races)], run_tour
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
            results = pool.map(run, jobs, chunksize=max(1, races // (workers * 8)))
    else:
        results = [run(job) for job in jobs]
    elapsed = time.perf_counter() - start
    n = len(bots)
    if tour is not None:
        out(f"{races} tours of {tour}, {n} seats ({', '.join(bots)}), {workers} process(es), {elapsed:.1f} s; "
            f"a win: the most Tour Points")
    else:
        out(f"{races} {variant} races, {n} seats ({', '.join(bots)}), {len(stages)} stage(s), "
            f"{workers} process(es), {elapsed:.1f} s")
    out(f"{'seat':>4}  {'bot':<8} {'wins':>6} {'share':>7}  {'95% interval':<15} {'avg place':>9}"
        + (f" {'avg TP':>7}" if tour is not None else ""))
    table = []
    for j, name in enumerate(bots):
        wins = sum(1 for result in results if result[0][j] == 1)
        lo, hi = wilson(wins, races)
        avg = sum(result[0][j] for result in results) / races
        row = {"bot": name, "wins": wins, "share": wins / races, "low": lo, "high": hi, "avg_place": avg}
        line = f"{j + 1:>4}  {name:<8} {wins:>6} {wins / races:>6.1%}  [{lo:5.1%}, {hi:5.1%}]  {avg:>9.2f}"
        if tour is not None:
            row["avg_points"] = sum(result[2][j] for result in results) / races
            line += f" {row['avg_points']:>7.2f}"
        table.append(row)
        out(line)
    return {"table": table, "seconds": elapsed}
