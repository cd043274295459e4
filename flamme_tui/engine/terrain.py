"""Terrain: the codes of the squares and what the terrain does to a move.

A leaf module (it imports nothing of the game) so that the course, which
tabulates moves per square when it is built, can use the rule without the
engine's rule sets.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

# Terrain codes, one character per square.
FLAT: Final = "."
ASCENT: Final = "^"
DESCENT: Final = "v"
SUPPLY: Final = "s"
COBBLE: Final = "c"  # cobblestones (Peloton): no slipstream to, from or across them
# BMX terrain ('.' and 'v' are shared with classic).
BUMPY: Final = "b"
CANYON: Final = "k"
MARSH: Final = "m"


def terrain_move(terrain: str, next_ascent: Sequence[int], start: int, value: int, penalty: int = 0) -> int:
    """Squares a card of `value` moves a rider from `start`, in the rules' order:
    descent minimum 5, supply minimum 4, minus the meteo stand-up penalty, and
    the ascent limit last: min(value, max(5, d - 1)), d the distance to the
    first ascent square in the path (at most 5 when starting on one)."""
    here = terrain[start]
    if here == DESCENT:
        value = max(value, 5)
    elif here == SUPPLY:
        value = max(value, 4)
    if penalty:
        value = max(0, value - penalty)
    if here == ASCENT:
        return min(value, 5)
    d = next_ascent[start]
    if d <= value:
        return min(value, max(5, d - 1))
    return value
