"""Grand Tour classification (the Grand Tour rules): stage times, GC, Tour Points,
team classification, the carry-over of exhaustion and the grid order.

Pure functions over small values: a stage is given as the riders' crossings
(the round each crossed the line and where it stood at the end of that
movement), so the same code serves the headless command, the app and the
tests.  Times are whole seconds; `gap_text` writes them as `+1:10`.
`stage_of(game)` reads the crossings of a tour stage (engine.classic,
`tour` in its set-up), and `stage_value(game, seat)` is what the stage is
worth to a team in the tour: the bots' one measure of a tour stage.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

ROUND_SECONDS = 60  # each round after the first rider's crossing
SQUARE_SECONDS = 10  # each square past the line (up to the cap)
BONUS = (10, 10)  # seconds off for the 1st and 2nd of a stage
STAGE_POINTS = (3, 2, 1)  # Tour Points for the teams of the stage's 1st, 2nd, 3rd
GC_POINTS = (3, 2, 1)  # and for the teams of the GC's top three after the last stage


@dataclass(frozen=True, slots=True)
class Crossing:
    """A rider across the line at the end of movement in round `round`,
    standing on (`square`, `lane`); `team` is its seat."""

    rider: str
    team: int
    round: int
    square: int
    lane: int


@dataclass(frozen=True, slots=True)
class StageLine:
    """One rider's stage result: its place, its raw time (after pack time,
    before the bonus), the bonus it took and its stage time (a gap to the
    winner, 0 for the winner, the bonuses counted: what the GC adds up), all
    in seconds.  `road`: its gap to the winner on the road (before the
    bonuses: a group's riders share it), what the screens show beside the
    bonus."""

    rider: str
    team: int
    place: int
    raw: int
    bonus: int
    time: int
    road: int = 0


@dataclass(frozen=True, slots=True)
class GcLine:
    """One rider's place in the general classification: its total time and gap to the leader."""

    rider: str
    team: int
    place: int
    time: int
    gap: int


@dataclass(frozen=True, slots=True)
class TeamLine:
    """One team's place in the Tour Points or the team classification:
    `value` is its points (TP) or its time in seconds (team classification)."""

    team: int
    place: int
    value: int


def finish_cap(tiles_end: int, finish: int) -> int:
    """The most squares past the line that count: the squares of the finish
    tile after the line (5 on `u`, 4 on `U`).  `tiles_end` is the first
    square after the last tile, `finish` the first square past the line."""
    return max(1, tiles_end - finish)


def tiles_end(course: Any) -> int:
    """The first square after the course's last tile (finish_cap's `tiles_end`); a course given
    without its tiles (a save's, read from a file) ends with its real squares."""
    if course.tiles:
        last = course.tiles[-1]
        return int(last.first + last.length)
    return int(course.length)


def squares_past(square: int, finish: int) -> int:
    """Squares a rider stands past the line: the first square past it is 1."""
    return square - finish + 1


def placing(crossings: Sequence[Crossing]) -> list[Crossing]:
    """The finishing order: earlier round first; within a round furthest,
    then the right-hand lane (lane 0)."""
    return sorted(crossings, key=lambda c: (c.round, -c.square, c.lane))


def raw_times(crossings: Sequence[Crossing], finish: int, cap: int) -> dict[str, int]:
    """Each rider's raw time, pack time applied: 60 s per round after the
    first crossing, less 10 s per square past the line (at most `cap`).
    Riders that crossed in one round on an unbroken run of occupied squares
    past the line take the time of the run's front rider."""
    first = min(c.round for c in crossings)
    times: dict[str, int] = {}
    for c in placing(crossings):
        if c.rider in times:
            continue
        # the run this rider heads: riders of the same round on the squares right behind, without a gap
        run_time = ROUND_SECONDS * (c.round - first) - SQUARE_SECONDS * min(squares_past(c.square, finish), cap)
        squares = {d.square for d in crossings if d.round == c.round}
        square = c.square
        while square >= finish and square in squares:
            for d in crossings:
                if d.round == c.round and d.square == square and d.rider not in times:
                    times[d.rider] = run_time
            square -= 1
    return times


def stage_result(crossings: Sequence[Crossing], finish: int, cap: int) -> list[StageLine]:
    """The stage's result, in placing order: raw times with pack time, the
    bonus of the 1st and 2nd, and each time less the winner's."""
    if not crossings:
        return []
    raw = raw_times(crossings, finish, cap)
    order = placing(crossings)
    bonus = [BONUS[k] if k < len(BONUS) else 0 for k in range(len(order))]
    net = [raw[c.rider] - b for c, b in zip(order, bonus)]
    best, first = net[0], raw[order[0].rider]
    return [StageLine(c.rider, c.team, k + 1, raw[c.rider], bonus[k], net[k] - best, raw[c.rider] - first)
            for k, c in enumerate(order)]


def general(stages: Sequence[Sequence[StageLine]]) -> list[GcLine]:
    """The GC after these stages: the sum of each rider's stage times, lowest
    first; a tie goes to the better placing in the most recent stage."""
    if not stages:
        return []
    total: dict[str, int] = {}
    team: dict[str, int] = {}
    for stage in stages:
        for line in stage:
            total[line.rider] = total.get(line.rider, 0) + line.time
            team[line.rider] = line.team
    last = {line.rider: line.place for line in stages[-1]}
    order = sorted(total, key=lambda r: (total[r], last.get(r, len(last) + 1)))
    lead = total[order[0]]
    return [GcLine(r, team[r], k + 1, total[r], total[r] - lead) for k, r in enumerate(order)]


def best_gc_place(gc: Sequence[GcLine]) -> dict[int, int]:
    """Each team's best GC place (1 = it has the yellow jersey)."""
    best: dict[int, int] = {}
    for line in gc:
        best.setdefault(line.team, line.place)
    return best


def tour_points(stages: Sequence[Sequence[StageLine]], *, final: bool) -> dict[int, int]:
    """Each team's Tour Points: 3/2/1 for the teams of each stage's first
    three, and when `final` (after the last stage) 3/2/1 for the GC's top three."""
    points: dict[int, int] = {line.team: 0 for stage in stages for line in stage}
    for stage in stages:
        for line, tp in zip(stage, STAGE_POINTS):
            points[line.team] += tp
    if final:
        for gc_line, tp in zip(general(stages), GC_POINTS):
            points[gc_line.team] += tp
    return points


def tp_ranking(points: Mapping[int, int], gc: Sequence[GcLine]) -> list[TeamLine]:
    """Teams by Tour Points, most first; a tie goes to the team of the better
    GC rider (the first line is the tour's winner after the last stage)."""
    best = best_gc_place(gc)
    order = sorted(points, key=lambda t: (-points[t], best.get(t, len(gc) + 1), t))
    return [TeamLine(t, k + 1, points[t]) for k, t in enumerate(order)]


def team_classification(gc: Sequence[GcLine]) -> list[TeamLine]:
    """Teams by the sum of their riders' GC times, lowest first (shown, no
    points); a tie goes to the team of the better GC rider."""
    time: dict[int, int] = {}
    for line in gc:
        time[line.team] = time.get(line.team, 0) + line.time
    best = best_gc_place(gc)
    order = sorted(time, key=lambda t: (time[t], best[t]))
    return [TeamLine(t, k + 1, time[t]) for k, t in enumerate(order)]


def carried(exhaustion_cards: int) -> int:
    """Exhaustion cards a rider takes into the next stage: half of those in
    its deck, hand and recycled cards when it finished, rounded up."""
    if exhaustion_cards < 0:
        raise ValueError(f"exhaustion cards cannot be negative, got {exhaustion_cards}")
    return (exhaustion_cards + 1) // 2


def grid_order(points: Mapping[int, int], gc: Sequence[GcLine]) -> list[int]:
    """The order teams take the grid in from the second stage: reverse TP
    order (fewest first); on a tie, the team whose best GC rider is further
    behind places first."""
    best = best_gc_place(gc)
    return sorted(points, key=lambda t: (points[t], -best.get(t, len(gc) + 1), t))


def fill_from_back(order: Sequence[int], places: Sequence[tuple[int, int]],
                   per_team: int | Mapping[int, int]) -> dict[int, list[tuple[int, int]]]:
    """A random grid in a tour: the grid order fills the grid from the back.
    `places` are the free grid places, front first; the riders take the
    block of places nearest the line (as many as there are riders), and the
    first team of `order` takes the rearmost of them.  `per_team`: each
    team's riders (one number for all, or by seat: 7 to 12 players race one
    rider each).  Each team's places are given rearmost first."""
    sizes = [per_team if isinstance(per_team, int) else per_team[team] for team in order]
    riders = sum(sizes)
    block = list(places[:riders])
    if len(block) < riders:
        raise ValueError(f"{riders} riders but only {len(places)} places on the grid")
    block.reverse()
    out: dict[int, list[tuple[int, int]]] = {}
    start = 0
    for team, size in zip(order, sizes):
        out[team] = block[start:start + size]
        start += size
    return out


# ------------------------------------------------------------ from a game


def crossings_of(game: Any) -> list[Crossing]:
    """The crossings of a tour stage (a ClassicGame with `tour` in its set-up):
    where each rider stood when it crossed.  A rider still on the track (a
    bot's rollout stopped before the end) is counted as crossing one square
    past the line, one round later for each 5 squares it still has to go."""
    course = game.course
    out = []
    for i, r in enumerate(game.riders):
        if i in game.crossed:
            rnd, square, lane = game.crossed[i]
        else:
            square, lane = game.pos[i]
            rnd = game.round + max(0, course.finish - square) // 5
            square, lane = course.finish, 0
        out.append(Crossing(r.id, r.seat, rnd, square, lane))
    return out


def stage_of(game: Any) -> list[StageLine]:
    """The result of a tour stage, from where each rider crossed (the finish
    cap from the stage's last tile)."""
    course = game.course
    return stage_result(crossings_of(game), course.finish, finish_cap(tiles_end(course), course.finish))


LEAD_SECONDS = 60  # a GC lead of a minute over the best rival is worth half of what a lead can be
TEAM_SECONDS = 300  # the same for the team's two riders together


def _soft(x: float, scale: float) -> float:
    """x / (|x| + scale): from -1 to 1, and never flat (a rider far behind still gains by going faster)."""
    return x / (abs(x) + scale)


def stage_value(game: Any, seat: int) -> float:
    """What a tour stage's result (so far) is worth to `seat`'s team, from 0
    to 1: the Tour Points it takes in the stage and those its riders would
    take if the GC after this stage were the final one (half of the value);
    its best rider's GC time against the best rival's (a third); its two
    riders' GC times together against the best rival team's (the rest: both
    riders count, none is left behind).  The standing before the stage is the
    set-up's `tour_times`.  The hard bot's utility in a tour."""
    lines = stage_of(game)
    before = game.setup.tour_times
    index = {r.id: i for i, r in enumerate(game.riders)}
    total = {line.rider: line.time + (before[index[line.rider]] if before else 0) for line in lines}
    place = {line.rider: line.place for line in lines}
    team = {line.rider: line.team for line in lines}
    gc = sorted(total, key=lambda r: (total[r], place[r]))
    points = sum(tp for line, tp in zip(lines, STAGE_POINTS) if line.team == seat)
    points += sum(tp for rider, tp in zip(gc, GC_POINTS) if team[rider] == seat)
    most = sum(STAGE_POINTS[:2]) + sum(GC_POINTS[:2])  # both riders 1st and 2nd of the stage and the GC
    team_time: dict[int, int] = {}
    for rider, time in total.items():
        team_time[team[rider]] = team_time.get(team[rider], 0) + time
    mine = min(t for r, t in total.items() if team[r] == seat)
    theirs = min((t for r, t in total.items() if team[r] != seat), default=mine)
    rivals = min((t for s, t in team_time.items() if s != seat), default=team_time[seat])
    lead = _soft(theirs - mine, LEAD_SECONDS)
    together = _soft(rivals - team_time[seat], TEAM_SECONDS)
    return 0.5 * points / most + 0.3 * (lead + 1) / 2 + 0.2 * (together + 1) / 2


def gap_text(seconds: int) -> str:
    """A stage or GC time as shown: `0:00` for the leader, else `+1:20`."""
    if seconds == 0:
        return "0:00"
    sign = "+" if seconds > 0 else "-"
    minutes, secs = divmod(abs(seconds), 60)
    return f"{sign}{minutes}:{secs:02d}"
