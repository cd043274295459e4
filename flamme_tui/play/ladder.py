"""`flamme-tui ladder`: every bot against every other, head to head, in
each rule set and kind of stage, and an Elo table anchored at easy = 1000.

A game is a 2-team race between two entrants, played by the tournament's
`run_one`: game k of a pair has seed k and the seats swapped from one game
to the next (each stage is raced once from each seat).  The scripted
teams of the Peloton expansion enter where they race (classic and meteo),
against every bot, never against each other.  The expert thinks within a
fixed rollout budget, so a game is the same on any machine under any load.

Results are appended to a file, one JSON line per game, as the games end;
a rerun reads the file and plays only the games still missing, so a ladder
stopped half-way (ctrl+c, a crash, a reboot) continues where it stopped,
and a larger -n adds games to the ones already played.  The table depends
only on the games in the file, never on their order or on -j.

Elo: the ratings R maximise the likelihood of the results under the
Bradley-Terry model on the Elo scale, P(a beats b) = 1 / (1 + 10^((Rb - Ra) / 400)),
with easy fixed at 1000.  Each pair that met also counts one drawn game
(half a win each), so that a perfect score still gives a finite rating
(as BayesElo's prior of virtual draws).  The interval is 1.96 standard
errors from the curvature of the log-likelihood at its maximum (Fisher
information), relative to easy.
"""

from __future__ import annotations

import fcntl
import json
import math
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import config
from ..bots import Budget
from ..engine.terrain import ASCENT, COBBLE
from ..usertext import clean
from ..words import plural
from .tournament import run_one

BOTS = ("easy", "medium", "hard", "hard-before", "expert")
SCRIPTED_TEAMS = ("peloton", "muscle")
ANCHOR = "easy"
ANCHOR_ELO = 1000.0
LADDER_ROLLOUTS = 100  # the expert's rollouts per decision in the ladder (a fixed budget: the same games under any load)
MOUNTAIN_CLIMB = 12  # climbing squares from which a stage counts as a mountain stage
MAX_FILE_BYTES = 64 * 1024 * 1024  # a results file larger than this is refused
MAX_LINE = 4096  # a line longer than this is no result of ours
ELO = 400 / math.log(10)  # Elo points per natural unit of the logistic model


def stage_kind(stage: str) -> str:
    """flat, hilly, mountain or cobbles, from the stage's squares before the line:
    cobbles if it has any, mountain with MOUNTAIN_CLIMB climbing squares or more,
    hilly with fewer, flat with none."""
    course = config.load_course(stage, colours=2, riders=4)
    terrain = course.terrain[: course.finish]
    if any(t == COBBLE for t in terrain):
        return "cobbles"
    climb = sum(1 for t in terrain if t == ASCENT)
    return "mountain" if climb >= MOUNTAIN_CLIMB else "hilly" if climb else "flat"


@dataclass(frozen=True, slots=True)
class Category:
    """A column of the table: a rule set on some stages."""

    name: str
    variant: str
    stages: tuple[str, ...]


def categories() -> list[Category]:
    """classic by kind of stage (the base stages and the Peloton stages, 2-4 team
    versions), meteo on the base stages, bmx on its circuit."""
    base = list(config.STAGE_ORDER[:7])
    classic = base + [s for s in config.STAGE_ORDER[7:] if not s.endswith("-5-6")]
    kinds: dict[str, list[str]] = {"flat": [], "hilly": [], "mountain": [], "cobbles": []}
    for stage in classic:
        kinds[stage_kind(stage)].append(stage)
    out = [Category(kind, "classic", tuple(stages)) for kind, stages in kinds.items() if stages]
    return out + [Category("meteo", "meteo", tuple(base)), Category("bmx", "bmx", ("ABCD",))]


def entrants(category: Category, bots: Iterable[str]) -> list[str]:
    """Who enters the category: the bots, and the scripted teams where they race."""
    from ..engine.rules import find

    cards = not find(category.variant).uses_tokens  # the scripted teams play from decks of cards
    return [b for b in bots if b not in SCRIPTED_TEAMS or cards]


def pairs(names: list[str]) -> list[tuple[str, str]]:
    """Every pair once, in entrant order; two scripted teams never race alone."""
    return [(a, b) for i, a in enumerate(names) for b in names[i + 1:]
            if not (a in SCRIPTED_TEAMS and b in SCRIPTED_TEAMS)]


@dataclass(frozen=True, slots=True)
class Game:
    """One game of the ladder: game k of pair (a, b) in a category."""

    category: str
    a: str
    b: str
    k: int

    @property
    def key(self) -> tuple[str, str, str, int]:
        return self.category, self.a, self.b, self.k


def schedule(cats: list[Category], bots: list[str], games: int) -> list[Game]:
    return [Game(c.name, a, b, k) for c in cats for a, b in pairs(entrants(c, bots)) for k in range(games)]


def play(job: tuple[Category, Game, Budget]) -> dict[str, Any]:
    """Play one game; its result as the file's line holds it."""
    category, game, budget = job
    stages = [s for s in category.stages for _ in range(2)]  # each stage from both seats in turn
    result = run_one((category.variant, stages, [game.a, game.b], game.k, False, budget))
    return {"category": game.category, "a": game.a, "b": game.b, "k": game.k, "stage": result.stage,
            "score": 1.0 if result.places[0] < result.places[1] else 0.0, "rounds": result.rounds,
            "budget": str(budget)}


# ------------------------------------------------------------ the file


LINE_START = b'{"a": "'  # how every result line begins (json.dumps with sorted keys)


class LadderFileError(Exception):
    """The results file cannot be used: one line saying why."""


def read_results(path: Path, budget: Budget) -> tuple[dict[tuple[str, str, str, int], dict[str, Any]], int, bool]:
    """The games in the file played with this budget, by key; how many lines
    of another budget were left aside; whether the last line was cut off (a
    write interrupted), which the next append first removes."""
    try:
        st = path.stat()
    except FileNotFoundError:
        return {}, 0, False
    if not path.is_file():
        raise LadderFileError(f"{path}: not a regular file")
    if st.st_size > MAX_FILE_BYTES:
        raise LadderFileError(f"{path}: larger than {MAX_FILE_BYTES // (1024 * 1024)} MB; not a ladder file")
    data = path.read_bytes()[:MAX_FILE_BYTES]
    cut = bool(data) and not data.endswith(b"\n")
    lines = data.split(b"\n")
    if cut:
        # a write cut short leaves the start of one of our lines (Appender.add: sorted keys, "a"
        # first); anything else is no ladder file, and must not be truncated
        tail = lines[-1]
        if len(tail) > MAX_LINE or tail[:len(LINE_START)] != LINE_START[:len(tail)]:
            raise LadderFileError(f"{path}:{len(lines)}: not a ladder result")
        lines = lines[:-1]
    games: dict[tuple[str, str, str, int], dict[str, Any]] = {}
    other = 0
    for number, raw in enumerate(lines, 1):
        if not raw.strip():
            continue
        entry = _entry(raw)
        if entry is None:
            raise LadderFileError(f"{path}:{number}: not a ladder result")
        if entry["budget"] != str(budget):
            other += 1
            continue
        games[(entry["category"], entry["a"], entry["b"], entry["k"])] = entry
    return games, other, cut


def _entry(raw: bytes) -> dict[str, Any] | None:
    """A result line, checked field by field; None if it is not one."""
    if len(raw) > MAX_LINE:
        return None
    try:
        entry = json.loads(raw)
    except ValueError:
        return None
    fields = {"category": str, "a": str, "b": str, "k": int, "stage": str, "score": float, "rounds": int,
              "budget": str}
    if not isinstance(entry, dict) or set(entry) != set(fields):
        return None
    for name, kind in fields.items():
        value = entry[name]
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            value = entry[name] = float(value)
        if not isinstance(value, kind) or isinstance(value, bool):
            return None
    if entry["score"] not in (0.0, 1.0) or not 0 <= entry["k"] < 10**6:
        return None
    return entry


class Appender:
    """Appends result lines to the file under an exclusive lock (two ladders
    never write one file), each line flushed and synced as its game ends."""

    def __init__(self, path: Path, cut: bool) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.file = open(path, "ab")  # noqa: SIM115  (closed by close())
        try:
            fcntl.flock(self.file.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self.file.close()
            raise LadderFileError(f"{path}: another ladder is writing this file") from None
        if cut:  # an interrupted write left half a line: cut it off, its game is played again
            data = path.read_bytes()
            self.file.truncate(data.rfind(b"\n") + 1)

    def add(self, entry: dict[str, Any]) -> None:
        self.file.write(json.dumps(entry, sort_keys=True).encode() + b"\n")
        self.file.flush()
        os.fsync(self.file.fileno())

    def close(self) -> None:
        self.file.close()


# ------------------------------------------------------------ Elo


@dataclass(frozen=True, slots=True)
class Rating:
    name: str
    elo: float
    half: float  # half-width of the 95% interval (0 for the anchor)
    games: int
    score: float  # points scored (a win 1)


def fit_elo(results: Iterable[tuple[str, str, float]], anchor: str = ANCHOR, prior_draws: float = 1.0,
            z: float = 1.96) -> list[Rating]:
    """Elo ratings from (a, b, score of a) results, the anchor at ANCHOR_ELO
    (see the module's doc).  The players are given in the order first met."""
    names: list[str] = []
    wins: dict[tuple[str, str], float] = {}  # (a, b) -> points a scored against b
    played: dict[tuple[str, str], float] = {}  # unordered pair (sorted) -> games
    games: dict[str, int] = {}
    score: dict[str, float] = {}
    for a, b, s in results:
        for name in (a, b):
            if name not in names:
                names.append(name)
        wins[(a, b)] = wins.get((a, b), 0.0) + s
        wins[(b, a)] = wins.get((b, a), 0.0) + 1 - s
        pair = (min(a, b), max(a, b))
        played[pair] = played.get(pair, 0.0) + 1
        games[a] = games.get(a, 0) + 1
        games[b] = games.get(b, 0) + 1
        score[a] = score.get(a, 0.0) + s
        score[b] = score.get(b, 0.0) + 1 - s
    if anchor not in names:
        return []
    for a, b in list(played):  # the virtual draws
        played[(a, b)] += prior_draws
        wins[(a, b)] = wins.get((a, b), 0.0) + prior_draws / 2
        wins[(b, a)] = wins.get((b, a), 0.0) + prior_draws / 2
    free = [n for n in names if n != anchor]
    index = {n: i for i, n in enumerate(free)}
    r = {n: 0.0 for n in names}  # natural units, the anchor at 0
    hessian: list[list[float]] = []
    for _ in range(100):  # Newton's method on the concave log-likelihood
        grad = [0.0] * len(free)
        hessian = [[0.0] * len(free) for _ in free]
        for (a, b), count in played.items():
            p = 1 / (1 + math.exp(r[b] - r[a]))
            w = count * p * (1 - p)
            g = wins[(a, b)] - count * p  # d logL / d r_a
            for x, sign in ((a, 1.0), (b, -1.0)):
                if x in index:
                    grad[index[x]] += sign * g
                    hessian[index[x]][index[x]] += w
            if a in index and b in index:
                hessian[index[a]][index[b]] -= w
                hessian[index[b]][index[a]] -= w
        step = _solve(hessian, grad)
        for n, i in index.items():
            r[n] += max(-5.0, min(5.0, step[i]))  # damped: far from the top, a step may overshoot
        if max((abs(s) for s in step), default=0.0) < 1e-10:
            break
    covariance = _inverse(hessian) if free else []
    out = []
    for n in names:
        half = 0.0 if n == anchor else z * math.sqrt(max(covariance[index[n]][index[n]], 0.0)) * ELO
        out.append(Rating(n, ANCHOR_ELO + r[n] * ELO, half, games[n], score[n]))
    return out


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """x with matrix @ x = vector (Gauss-Jordan with partial pivoting; a handful of players)."""
    n = len(vector)
    rows = [row[:] + [vector[i]] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda k: abs(rows[k][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        if abs(rows[col][col]) < 1e-300:
            raise ValueError("the results do not link every player to the anchor")
        for k in range(n):
            if k != col:
                f = rows[k][col] / rows[col][col]
                rows[k] = [x - f * y for x, y in zip(rows[k], rows[col])]
    return [rows[i][n] / rows[i][i] for i in range(n)]


def _inverse(matrix: list[list[float]]) -> list[list[float]]:
    n = len(matrix)
    columns = [_solve(matrix, [1.0 if i == j else 0.0 for i in range(n)]) for j in range(n)]
    return [[columns[j][i] for j in range(n)] for i in range(n)]


# ------------------------------------------------------------ the run


def run_games(jobs: list[tuple[Category, Game, Budget]], workers: int) -> Iterator[dict[str, Any]]:
    """Each job's result as its game ends (in any order with several processes)."""
    if workers <= 1 or len(jobs) <= 1:
        for job in jobs:
            yield play(job)
        return
    # ctrl+c is for the parent alone, as in the tournament: the games already written stay
    from .tournament import quiet_pool

    with quiet_pool(workers) as pool:
        yield from pool.imap_unordered(play, jobs, chunksize=1)


def ladder(path: Path, games: int, bots: list[str], kinds: list[str] | None = None, workers: int = 1,
           rollouts: int = LADDER_ROLLOUTS, out: Callable[[str], Any] = print) -> dict[str, list[Rating]]:
    """Play the games missing from the file, then print the table; returns the
    ratings per column (the categories, then "all")."""
    budget = Budget(rollouts=rollouts)
    cats = [c for c in categories() if kinds is None or c.name in kinds]
    done, other, cut = read_results(path, budget)
    todo = [g for g in schedule(cats, bots, games) if g.key not in done]
    by_name = {c.name: c for c in cats}
    if other:
        out(f"({plural(other, 'game')} in {clean(path, False)} played with another expert budget: left aside)")
    out(f"{plural(len(done), 'game')} in {clean(path, False)}; {len(todo)} to play"
        + (f" on {plural(workers, 'process', 'processes')}" if todo else ""))
    if todo:
        appender = Appender(path, cut)
        try:
            for entry in run_games([(by_name[g.category], g, budget) for g in todo], workers):
                appender.add(entry)
                done[(entry["category"], entry["a"], entry["b"], entry["k"])] = entry
        finally:
            appender.close()
    # the table: only the games this schedule asks for (a file may hold more)
    wanted = {g.key for g in schedule(cats, bots, games)}
    played = sorted((e for key, e in done.items() if key in wanted),
                    key=lambda e: (e["category"], e["a"], e["b"], e["k"]))
    columns = {c.name: fit_elo([(e["a"], e["b"], e["score"]) for e in played if e["category"] == c.name])
               for c in cats}
    columns["all"] = fit_elo([(e["a"], e["b"], e["score"]) for e in played])
    for line in table(columns, bots, len(played), games, budget):
        out(line)
    return columns


def table(columns: dict[str, list[Rating]], bots: list[str], played: int, games: int, budget: Budget) -> list[str]:
    """The ratings as a markdown table: a row per entrant, a column per category."""
    names = list(columns)
    lines = [f"Elo (easy = 1000, 95% interval), {plural(played, 'head-to-head game')}, {games} per pair and column, "
             f"expert at {budget}:", "",
             "| bot | " + " | ".join(names) + " |",
             "| --- | " + " | ".join("---:" for _ in names) + " |"]
    for bot in bots:
        cells = []
        for name in names:
            rating = next((r for r in columns[name] if r.name == bot), None)
            cells.append("-" if rating is None else f"{rating.elo:.0f}" if rating.half == 0
                         else f"{rating.elo:.0f} ± {rating.half:.0f}")
        lines.append(f"| {bot} | " + " | ".join(cells) + " |")
    return lines
