"""Riders on squares and lanes: placement and pack moves shared by every rule set.

`cells` is a flat list, LANES entries per square (lane 0, 1, 2), holding a
rider index or EMPTY; a square with fewer lanes only uses its first entries.
Lane 0 is the right-hand lane (bmx: the inner lane), the one a rider takes
first; every "lane 0, then lane 1" of the rules goes on to lane 2 (PELOTON.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from .race import Race  # the game whose riders close_gaps moves (race.py imports this module)

EMPTY: Final = -1
LANES: Final = 3  # the most lanes a square has (Peloton wide and supply squares)


def free_lane(cells: list[int], lanes: tuple[int, ...], square: int) -> int:
    """The lowest free lane of the square, or -1 when every lane is taken."""
    base = square * LANES
    for lane in range(lanes[square]):
        if cells[base + lane] == EMPTY:
            return lane
    return -1


def square_empty(cells: list[int], square: int, but: int = EMPTY) -> bool:
    """No rider (other than `but`) on the square."""
    base = square * LANES
    for lane in range(LANES):
        r = cells[base + lane]
        if r != EMPTY and r != but:
            return False
    return True


def settle(cells: list[int], lanes: tuple[int, ...], square: int) -> tuple[int, int]:
    """The nearest square at or behind `square` with a free lane, lane 0 first.

    The moving rider has been lifted off the track, so its own square always
    has a free lane and a rider is never sent backwards.
    """
    while True:
        lane = free_lane(cells, lanes, square)
        if lane >= 0:
            return square, lane
        square -= 1


def occupied_squares(cells: list[int], positions: list[list[int]]) -> list[int]:
    """The squares with a rider on them, back to front (read from the cells between
    the rearmost and the front-most rider: cheaper than sorting the riders' squares)."""
    front, back = _span(positions)
    out: list[int] = []
    for square in range(back, front + 1):
        base = square * LANES
        if cells[base] != EMPTY or cells[base + 1] != EMPTY or cells[base + 2] != EMPTY:
            out.append(square)
    return out


def _span(positions: list[list[int]]) -> tuple[int, int]:
    """(front-most, rearmost) square of the riders on the track; (-1, -1) when none is."""
    front, back = -1, -1
    for p in positions:
        square = p[0]
        if square >= 0:
            if square > front:
                front = square
            if back < 0 or square < back:
                back = square
    return front, back


def close_gaps(game: Race, max_gap: int) -> None:
    """Slipstream (max_gap 1) and bmx catch-up (max_gap 1 or 2), in place.

    Scan from the rearmost pack: a pack with 1..max_gap empty squares before
    the next pack moves forward to join it, front square first, stopping at
    the first square that may not receive (game.slip_eligible(square) false:
    a climb, cobbles, a crosswind, a crashed rider).  The gap only counts if
    both squares facing it are eligible and every empty square of it may be
    crossed (game.slip_gap(square); false on an empty cobble square,
    PELOTON.md).  Then the scan goes on from the pack it joined, so merged
    packs chain forward.  game.gap_closed(rider, from_square, from_lane,
    to_square, to_lane) is told of every rider moved.  The rule set's hooks
    are compiled method calls (callbacks would each go through Python).
    """
    cells, positions = game.cells, game.pos
    occ = occupied_squares(cells, positions)
    i = 0
    while i < len(occ) - 1:
        back, front = occ[i], occ[i + 1]
        gap = front - back - 1
        if 1 <= gap <= max_gap and game.slip_eligible(back) and game.slip_eligible(front) and _crossable(game, back, front):
            # the pack ending at `back`: contiguous occupied squares
            first = i
            while first > 0 and occ[first - 1] == occ[first] - 1:
                first -= 1
            for k in range(i, first - 1, -1):
                square = occ[k]
                if not game.slip_eligible(square):
                    break
                _shift_square(game, square, gap)
            occ = occupied_squares(cells, positions)
            i = occ.index(front)
            continue
        i += 1


def _crossable(game: Race, back: int, front: int) -> bool:
    """Every empty square between the two packs may be crossed (game.slip_gap)."""
    for square in range(back + 1, front):
        if not game.slip_gap(square):
            return False
    return True


def _shift_square(game: Race, square: int, gap: int) -> None:
    """Move every rider on `square` forward by `gap`, lane 0 first, each keeping
    its lane where it can, else taking the lowest free lane there, else the
    nearest free lane behind (on a one-square move: its own square, in its
    lowest free lane; PELOTON.md, slipstream onto a narrower square)."""
    cells, lanes, positions = game.cells, game.course.lanes, game.pos
    base = square * LANES
    movers: list[int] = []
    for k in range(base, base + LANES):  # lifted first, lane 0 first
        r = cells[k]
        if r != EMPTY:
            movers.append(r)
            cells[k] = EMPTY
    target = square + gap
    tb = target * LANES
    for r in movers:
        lane = old = positions[r][1]
        if lane < lanes[target] and cells[tb + lane] == EMPTY:
            sq, ln = target, lane
        else:
            ln = free_lane(cells, lanes, target)
            sq = target
            if ln < 0:
                sq, ln = settle(cells, lanes, target - 1)
        cells[sq * LANES + ln] = r
        positions[r][0] = sq
        positions[r][1] = ln
        if sq != square:
            game.gap_closed(r, square, old, sq, ln)


def on_track(cells: list[int], positions: list[list[int]]) -> list[int]:
    """The riders on the track (square 0 or more), furthest first, lane 0 first
    on a square: `ranking` without those off it, read from the cells, front-most
    square first (no sort: the movement order of every round)."""
    front, back = _span(positions)
    out: list[int] = []
    for square in range(front, back - 1, -1):
        base = square * LANES
        for k in range(base, base + LANES):
            r = cells[k]
            if r != EMPTY:
                out.append(r)
    return out


def ranking(positions: list[list[int]]) -> list[int]:
    """Rider indices, furthest first; on one square lane 0 first."""
    # one integer per rider, sorted as plain ints: square high, lane low, then
    # (as a stable sort would) the lower index first among equals
    n = len(positions)
    keys = [(p[0] * LANES + (LANES - 1 - p[1])) * n + (n - 1 - i) for i, p in enumerate(positions)]
    keys.sort()  # all distinct: the reverse of this order is the ranking (sort(reverse=True) is a keyword call)
    return [n - 1 - keys[k] % n for k in range(n - 1, -1, -1)]
