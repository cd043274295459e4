"""`flamme-tui tournament`: seeded races between bots, over several processes.

Race k uses seed k, stage k mod the stage list, and rotates the bots round
the seats so no bot keeps a seat.  A team's place is the place of its best
rider among the teams.  Win shares come with 95% Wilson intervals.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import signal
import time

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


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 0.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def tournament(bots: list[str], races: int, variant: str = "classic", stages: list[str] | None = None,
               workers: int | None = None, out=print, breakaway: bool = False) -> dict:
    if find(variant).uses_tokens:
        stages = ["ABCD"]
    stages = stages or list(config.STAGE_ORDER[:7])  # the base stages
    jobs = [(variant, stages, bots, k, breakaway) for k in range(races)]
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
    out(f"{races} {variant} races, {n} seats ({', '.join(bots)}), {len(stages)} stage(s), "
        f"{workers} process(es), {elapsed:.1f} s")
    out(f"{'seat':>4}  {'bot':<8} {'wins':>6} {'share':>7}  {'95% interval':<15} {'avg place':>9}")
    table = []
    for j, name in enumerate(bots):
        wins = sum(1 for places, _ in results if places[j] == 1)
        lo, hi = wilson(wins, races)
        avg = sum(places[j] for places, _ in results) / races
        table.append({"bot": name, "wins": wins, "share": wins / races, "low": lo, "high": hi, "avg_place": avg})
        out(f"{j + 1:>4}  {name:<8} {wins:>6} {wins / races:>6.1%}  [{lo:5.1%}, {hi:5.1%}]  {avg:>9.2f}")
    return {"table": table, "seconds": elapsed}
