"""A tour's standings during a stage: the GC before it, the stage as it
stands (who has finished, in what time, and the gaps on the road) and the
live GC those make.  Data from the public board only (positions, who crossed
the line and where, the set-up's tour times): what every player may see.
A renderer draws it (ui/screens/standings.py); no words here.

The stage times of finished riders are the engine's (engine.tour: pack
time, the finish cap, the bonus): they are final once a rider is across,
since the winner is the first across.  A rider still on the road is timed
at the rules' rate of 10 seconds a square, carried on back from the line:
after round R, a rider on the d-th square before the line is 10·d seconds
behind one that crossed in round R onto the first square past it (and a
minute a round behind those that crossed a round earlier); once across,
its time is the one the rules give.  Riders on an unbroken run of
occupied squares on the road are a group: they take the time of its front
rider, as pack time does at the line.  The bonus goes to the first two as
they stand, so two riders of one group can stand at stage times 10 seconds
apart: each line keeps its gap before the bonus (`road`) and its bonus
apart, for the screen to show why.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..engine import tour as rules


@dataclass(frozen=True, slots=True)
class StandingLine:
    """One rider in the live GC.  `rider` is its index in the race; times in
    seconds.  `stage`: its stage time (gap to the stage's first), final when
    `finished`, else from the road; None before it stands on the grid.
    `road`: its gap to the stage's first before the bonus (what the line or
    the road gives: pack time, a group at its front rider's time), None
    with `stage`; `bonus`: the seconds it takes off as the stage stands (10
    for the first two, else 0).  `stage` is `road` less the bonus, from the
    first's time less its own: a rider without the bonus is 10 seconds
    further than its `road`."""

    rider: int
    team: int
    place: int  # in the live GC
    total: int  # live GC time: before + stage
    gap: int  # to the live GC's leader
    before: int  # GC time before this stage
    before_place: int  # 0 at the first stage (no GC yet)
    before_gap: int
    stage: int | None
    stage_place: int  # place in the stage as it stands (0 when not on the road yet)
    finished: bool
    road: int | None = None
    bonus: int = 0


@dataclass(frozen=True, slots=True)
class Standings:
    """The live GC of a tour stage, in order; `finished`: the riders across
    the line, in their stage placing."""

    tour: str
    stage: int  # 1-based
    stages: int
    round: int
    lines: tuple[StandingLine, ...]
    finished: tuple[StandingLine, ...]

    def line(self, rider: int) -> StandingLine | None:
        return next((line for line in self.lines if line.rider == rider), None)


def road_clock(board: Any) -> dict[int, tuple[int, int]]:
    """Each placed rider's raw time as the stage stands: (seconds, order key);
    the key sorts the stage placing (finished riders first, in their placing)."""
    course = board.course
    finish = course.finish
    cap = rules.finish_cap(rules.tiles_end(course), finish)
    riders = board.riders
    crossed = board.crossed
    done = [rules.Crossing(str(i), riders[i].seat, *crossed[i]) for i in crossed]
    raw = {int(k): v for k, v in rules.raw_times(done, finish, cap).items()} if done else {}
    first = min((c.round for c in done), default=0)
    out: dict[int, tuple[int, int]] = {}
    for k, c in enumerate(rules.placing(done)):
        out[int(c.rider)] = (raw[int(c.rider)], k)
    # on the road: the positions are those after the movement of round `board.round - 1`
    after = board.round - 1
    road = sorted((i for i, r in enumerate(riders) if i not in crossed and r.square >= 0),
                  key=lambda i: (-riders[i].square, riders[i].lane))
    if all(riders[i].square < course.grid for i in road):
        road = []  # all still on the grid: the stage has not started (no gaps, no bonus to the front row)
    front_time, ahead = 0, None
    for n, i in enumerate(road):
        square = riders[i].square
        if ahead is None or ahead - square > 1:  # an empty square ahead of it: the front of a group
            front_time = rules.ROUND_SECONDS * (after - first) - rules.SQUARE_SECONDS * rules.squares_past(square, finish)
        ahead = square
        out[i] = (front_time, len(done) + n)
    return out


def standings(board: Any, name: str, stage: int, stages: int, gc_before: list[rules.GcLine],
              round_no: int | None = None) -> Standings:
    """The standings of a tour stage from its public `board`, the tour's name,
    the stage's number of `stages` and the GC before it (empty at the first).
    `round_no`: the round the table shows (Table.round: while a round is
    revealed, that round, though the board counts the next one), the board's by default."""
    clock = road_clock(board)
    order = sorted(clock, key=lambda i: clock[i][1])
    bonus = {i: (rules.BONUS[k] if k < len(rules.BONUS) else 0) for k, i in enumerate(order)}
    net = {i: clock[i][0] - bonus[i] for i in order}
    first = clock[order[0]][0] if order else 0
    best = min(net.values(), default=0)
    riders = board.riders
    index = {r.id: i for i, r in enumerate(riders)}
    before = {index[g.rider]: g for g in gc_before if g.rider in index}
    stage_place = {i: k + 1 for k, i in enumerate(order)}
    totals = {i: (before[i].time if i in before else 0) + (net[i] - best if i in net else 0) for i in range(len(riders))}
    live = sorted(totals, key=lambda i: (totals[i], stage_place.get(i, len(riders) + 1),
                                          before[i].place if i in before else 0, i))
    lead = totals[live[0]] if live else 0
    lines = tuple(StandingLine(
        i, riders[i].seat, k + 1, totals[i], totals[i] - lead,
        before[i].time if i in before else 0, before[i].place if i in before else 0,
        before[i].gap if i in before else 0,
        net[i] - best if i in net else None, stage_place.get(i, 0), i in board.crossed,
        clock[i][0] - first if i in clock else None, bonus.get(i, 0),
    ) for k, i in enumerate(live))
    finished = tuple(sorted((line for line in lines if line.finished), key=lambda line: line.stage_place))
    return Standings(name, stage, stages, board.round if round_no is None else round_no, lines, finished)
