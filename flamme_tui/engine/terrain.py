"""Terrain: the codes of the squares and what the terrain does to a move.

A leaf module (it imports nothing of the game but the events' reason bits,
engine.events: Move.reason says which rule changed a move) so that the course, which
tabulates moves per square when it is built, can use the rule without the
engine's rule sets.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from .events import BY_CLIMB, BY_DESCENT, BY_STAND_UP, BY_SUPPLY

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
    """Squares a card of `value` moves a rider from `start` (terrain_rule's moves)."""
    return terrain_rule(terrain, next_ascent, start, value, penalty)[0]


def terrain_rule(terrain: str, next_ascent: Sequence[int], start: int, value: int,
                 penalty: int = 0) -> tuple[int, int]:
    """(moves, reason): the squares a card of `value` moves a rider from `start`,
    in the rules' order: descent minimum 5, supply minimum 4, minus the meteo
    stand-up penalty, and the ascent limit last: min(value, max(5, d - 1)), d the
    distance to the first ascent square in the path (at most 5 when starting on
    one); `reason` has the bit (engine.events: BY_CLIMB, BY_DESCENT, BY_SUPPLY, BY_STAND_UP)
    of each of those rules that changed the move."""
    here = terrain[start]
    reason = 0
    if here == DESCENT:
        if value < 5:
            value = 5
            reason = BY_DESCENT
    elif here == SUPPLY:
        if value < 4:
            value = 4
            reason = BY_SUPPLY
    if penalty:
        value = max(0, value - penalty)
        reason |= BY_STAND_UP
    if here == ASCENT:
        if value > 5:
            return 5, reason | BY_CLIMB
        return value, reason
    d = next_ascent[start]
    if d <= value:
        cap = max(5, d - 1)
        if value > cap:
            return cap, reason | BY_CLIMB
    return value, reason
