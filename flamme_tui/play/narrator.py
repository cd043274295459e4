"""One square numbering for every screen (track, boards, builder, podium, log).

Squares are counted from the start line: the first square past it is 1, the
last square before the finish line is the line square (the stage's length
in squares, 68 on the rulebook's stages; a BMX lap of 28 squares ends on 28).
The grid squares behind the start line are G1 (just behind it), G2, ...
"To go" is how many squares a rider still has to move to cross the line.
The engine's own index (square 0 = the rearmost grid square) never shows.
"""

from __future__ import annotations

from typing import Any

from ..engine.course import Course


def number(course: Course, square: int) -> int:
    """The public number of an engine square (<= 0 on the grid)."""
    return square - course.grid + 1


def label(course: Course, square: int) -> str:
    """ "12", or "G2" for a grid square, or "-" for a rider not on the track yet."""
    if square < 0:
        return "-"
    n = number(course, square)
    return str(n) if n > 0 else f"G{1 - n}"


def line_square(course: Course) -> int:
    """The public number of the last square before the finish line."""
    return number(course, course.finish - 1)


def to_go(course: Course, square: int) -> int:
    """Squares to move to cross the finish line (0 or less: over it)."""
    return course.finish - square


def to_go_text(course: Course, square: int, short: bool = False) -> str:
    """ "9 to go", "2 past the line" ("2 past" if `short`) or "" off the track."""
    if square < 0:
        return ""
    n = to_go(course, square)
    if n > 0:
        return f"{n} to go"
    return f"{1 - n} past" + ("" if short else " the line")


def lane_word(variant: str, lane: int, lanes: int = 2) -> str:
    """Lane 0 is the right-hand lane (the inner lane of a BMX lap); on a
    three-lane square lane 1 is the middle lane, lane 2 the left one."""
    from ..engine.rules import find

    if find(variant).uses_tokens:
        return "inner lane" if lane == 0 else "outer lane"
    if lanes == 1:
        return "single file"
    return ("right lane", "middle lane" if lanes == 3 else "left lane", "left lane")[min(lane, 2)]


def place_words(game: Any, square: int, lane: int) -> str:
    """ "grid 2, left lane" or "square 12, right lane"."""
    n = number(game.course, square)
    place = f"square {n}" if n > 0 else f"grid {1 - n}"
    return f"{place}, {lane_word(game.variant, lane, game.course.lanes[square])}"


def where(course: Course, square: int) -> str:
    """ "square 12 · 57 to go" (the words the boards, log and podium use)."""
    if square < 0:
        return "not placed"
    n = number(course, square)
    place = f"square {n}" if n > 0 else f"grid {1 - n}"
    return f"{place} · {to_go_text(course, square)}"
