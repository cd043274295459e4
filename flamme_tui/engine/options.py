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
from typing import Any, Final

from .actions import Action

# Preview.wind: exhaustion (fatigue) at the end of the round for sure, or maybe;
# Preview.crowd: riders in the way for sure, or maybe; Preview.fall: a crash for sure, or maybe
WIND: Final = "wind"
BLOCKED: Final = "blocked"
CRASH: Final = "crash"
MAY: Final = "may"
# Preview.crowd: the square it aims at is full now, but every rider there moves first and leaves it
CLEAR: Final = "clear"


@dataclass(frozen=True, slots=True)
class Preview:
    """Where a card (tokens) would take rider `rider`, every other rider still.

    value: what the card (tokens) is worth: an exhaustion card its set-up value
    moves: squares the move is worth here: `value` after the terrain, the
        stand-up penalty and the jump ramp (what the round moves before blocking)
    square, lane: where the rider would end
    blocked: it ends short of start + moves (riders in the way, a blocked road),
        the others still (`crowd` says what the round may do)
    terrain: "" or the terrain that changed the value: "climb" (at most 5, or
        less before a climb), "descent" (at least 5), "supply" (at least 4)
    standup: squares standing up costs (meteo, a crashed rider), else 0
    ramp: squares the jump ramp adds (bmx), else 0
    crash: it would crash (meteo: blocked on a wet road)
    front: nobody on the square just ahead once it lands: in the wind, it takes
        exhaustion (fatigue) at the end of the round unless slipstream (catch-up)
        carries it on; never for a card that crosses the line (`finish`)
    finish: it would cross the finish line
    wind: who will be in the wind at the end of the round, the others' cards
        counted as the seat may know them (View.options(wind=True) fills it,
        "" otherwise): WIND, it takes an exhaustion card (fatigue token) whatever
        the others play; MAY, the others' cards decide (they may land just
        ahead of it, carry it on in slipstream or end the race); "" when it
        takes none whatever they play (sheltered, over the line, the race over)
    crowd: whether riders in the way will stop it short in the round, the
        others' cards counted as the seat may know them (View.options(wind=True)
        fills it, "" otherwise): BLOCKED whatever the others play; MAY, their
        cards decide (the riders ahead move first: they may leave the squares
        in front of it, or fill the one it aims at); "" when it is not
        whatever they play; CLEAR when it is not whatever they play although
        the square it aims at is full now (every rider there moves first and
        leaves it): View.options(wind=True) then shows it landing there
        (`square`, not `blocked`).  `blocked` alone says what the others
        standing still would do, which in a pack the round seldom does
    fall: whether it will crash in the round (meteo: blocked onto a wet
        square), filled with `crowd`: CRASH whatever the others play; MAY,
        their cards decide; "" never.  `crash` alone is the others still
    wind_odds: with `wind` MAY, its chance in percent of taking the exhaustion
        card (fatigue token) in the round: the share of sampled rounds in which
        it did, every hidden card dealt as the seat may know it and every card
        not yet down drawn at random from its rider's hand (View.wind_odds);
        -1 when not worked out (`wind` not MAY, or asked without `wind`)

    The seat's own riders whose cards are down this round move too, in the
    round's order (View.preview): the second rider's previews count the
    first rider's card; every other rider stands still.
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
    finish: bool = False
    wind: str = ""
    crowd: str = ""
    fall: str = ""
    wind_odds: int = -1

    def with_round(self, wind: str, crowd: str, fall: str, wind_odds: int = -1) -> Preview:
        """This preview, saying who will be in the wind (`wind`, `wind_odds`), whether
        riders in the way will stop it (`crowd`) and whether it will crash (`fall`)."""
        return Preview(self.rider, self.start, self.value, self.moves, self.plays_as, self.square, self.lane,
                       self.blocked, self.terrain, self.standup, self.ramp, self.crash, self.front, self.finish, wind,
                       crowd, fall, wind_odds)

    def landing_on(self, square: int, lane: int, front: bool, finish: bool) -> Preview:
        """This preview, landing on `square` unblocked (Preview.crowd CLEAR)."""
        return Preview(self.rider, self.start, self.value, self.moves, self.plays_as, square, lane, False,
                       self.terrain, self.standup, self.ramp, False, front, finish, self.wind, self.crowd, self.fall,
                       self.wind_odds)

    @property
    def gain(self) -> int:
        """Squares the rider would actually advance."""
        return self.square - self.start


@dataclass(frozen=True, slots=True)
class Option:
    """One thing the seat may do: the action, and for a card (token set) its
    preview (None for a place on the grid or the choice of who draws first)."""

    action: Action
    preview: Preview | None = None


def choice_of(action: Action) -> Any:
    """The card (tokens) a play plays, as previews take it; None for another action."""
    tokens: Any = getattr(action, "tokens", None)
    return tokens if tokens is not None else getattr(action, "card", None)


def spent(action: Action) -> tuple[int, ...]:
    """The pieces a play spends, as codes, lowest first: a card (its value, 0
    for an exhaustion card) or the tokens kept (0 for a fatigue token);
    () for an action that spends nothing (a place, a draw)."""
    tokens: Any = getattr(action, "tokens", None)
    if tokens is not None:
        return tuple(sorted(tokens))
    card: Any = getattr(action, "card", None)
    return () if card is None else (int(card),)


def dominated(options: list[Option]) -> list[bool]:
    """For each option, whether another option of the same rider does the same
    move for less: a dominated play is never worth making.

    The same move: equal `moves` (the squares the card is worth here, after
    the terrain, the stand-up penalty and the jump ramp).  The round moves a
    rider by `moves` alone, so two such plays end on the same square whatever
    the others do (previews that land alike only because others stand in the
    way are not the same move: those riders may move first).  So a card that
    would go further, past the line in reach included, is never dominated by
    one that would not.

    For less: the other play spends pieces that are each no higher, piece for
    piece (codes lowest first), and not the same pieces.  An exhaustion card
    (a fatigue token) has code 0, the lowest: getting rid of it is the point,
    so it dominates a real card of the same move (even when its value is
    higher) and is never dominated by one."""
    out = [False] * len(options)
    for a, mine in enumerate(options):
        pa = mine.preview
        if pa is None:
            continue
        cost = spent(mine.action)
        for b, other in enumerate(options):
            pb = other.preview
            if b == a or pb is None or pb.rider != pa.rider or pb.moves != pa.moves:
                continue
            cheaper = spent(other.action)
            if cheaper != cost and len(cheaper) == len(cost) and all(x <= y for x, y in zip(cheaper, cost)):
                out[a] = True
                break
    return out
