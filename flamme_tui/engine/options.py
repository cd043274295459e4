"""The seat's choices as values, each with a preview of its move.

`View.options()` lists what the seat to move may do now: places on the grid,
the rider to draw first, the cards (bmx: token sets) of the rider to play.
A card's `preview` is computed by the rule set's own movement code (the one
the round uses), on the position as it stands: it says where the rider
would end if every other rider stood still.  The round may end elsewhere,
since the others move too; with the others still, it ends exactly there
(tests/test_previews.py checks it on random positions).
"""

from __future__ import annotations

from dataclasses import dataclass

from .actions import Action


@dataclass(frozen=True, slots=True)
class Preview:
    """Where a card (tokens) would take rider `rider`, every other rider still.

    value: what the card (tokens) is worth: an exhaustion card its set-up value
    moves: squares the move is worth here: `value` after the terrain, the
        stand-up penalty and the jump ramp (what the round moves before blocking)
    square, lane: where the rider would end
    blocked: it ends short of start + moves (riders in the way, a blocked road)
    terrain: "" or the terrain that changed the value: "climb" (at most 5, or
        less before a climb), "descent" (at least 5), "supply" (at least 4)
    standup: squares standing up costs (meteo, a crashed rider), else 0
    ramp: squares the jump ramp adds (bmx), else 0
    crash: it would crash (meteo: blocked on a wet road)
    front: nobody on the square just ahead once it lands: in the wind, it takes
        exhaustion (fatigue) at the end of the round unless slipstream (catch-up)
        carries it on
    """

    rider: int
    start: int
    value: int
    moves: int
    plays_as: int  # `value` after the terrain alone (classic, meteo), else `value`
    square: int
    lane: int
    blocked: bool
    terrain: str
    standup: int
    ramp: int
    crash: bool
    front: bool

    @property
    def gain(self) -> int:
        """Squares the rider would actually advance."""
        return self.square - self.start

    def note(self) -> str:
        """A few words on what changes the card's value, "" when nothing does:
        "9 plays as 5: climb", "stands up: 2 less", "ramp +3", "blocked at 12"."""
        words = []
        if self.terrain:
            words.append(f"{self.value} plays as {self.plays_as}: {self.terrain}")
        if self.standup:
            words.append(f"stands up: {self.standup} less")
        if self.ramp:
            words.append(f"ramp +{self.ramp}")
        if self.blocked:
            words.append(f"blocked at {self.square}")
        return ", ".join(words)


@dataclass(frozen=True, slots=True)
class Option:
    """One thing the seat may do: the action, and for a card (token set) its
    preview (None for a place on the grid or the choice of who draws first)."""

    action: Action
    preview: Preview | None = None
