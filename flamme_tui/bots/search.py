"""What the searching bots (`hard`, `expert`) share: their candidates, their
random numbers, and how a simulated race is scored.

Candidates are the engine's options (`View.options`) less the dominated
plays (`engine.options.dominated`: another card of the same rider moves
exactly as far for less), cheapest first.  A bot's random numbers come from
its view alone, so a hidden card it cannot see never changes its choice.
Nothing here knows a rule: moves come from the engine's previews and reach,
results from the engine's places (`game.place_of`).
"""

from __future__ import annotations

import math
import zlib
from typing import Any

from ..engine.actions import Action
from ..engine.options import Option, dominated, spent
from ..engine.tour import stage_value
from ..engine.view import View

# What the margin (squares between the seat's best rider and the best other
# one) may add to a simulated race's worth, and its squares' scale: a finer
# signal than won or lost, so fewer simulated races tell two plays apart
# (tuned for the expert: see its doc).
MARGIN, MARGIN_SCALE = 0.3, 5.0


def seed_of(view: View) -> int:
    """A seed from what the seat sees, stable across processes and runs."""
    board = view.board
    text = repr((view.seat, board.round, [(r.square, r.lane, r.history) for r in board.riders],
                 sorted(view.hands.items()), sorted(view.chosen.items())))
    return zlib.crc32(text.encode())


def cost(action: Action) -> int:
    """What a play spends, to keep the better cards: the sum of its pieces'
    codes (an exhaustion card or fatigue token spends nothing)."""
    return sum(spent(action))


def candidates(view: View) -> list[Option]:
    """The seat's options worth weighing: no dominated play, cheapest first
    (so among equals the play that keeps the better cards comes first)."""
    options = view.options()
    kept = [o for o, worse in zip(options, dominated(options)) if not worse]
    return sorted(kept, key=lambda o: (cost(o.action), spent(o.action)))


def what(action: Action) -> str:
    """The card(s) of a play as the log writes them: `9`, `E`, `3 F`."""
    return str(action).split(" ", 2)[2]


class Tally:
    """A candidate's results over simulated races: wins, places, margins.

    The margin is the squares between the seat's best rider and the best
    rider of any other seat at the end (negative when behind): it tells a
    close loss from a rout when every future is lost."""

    __slots__ = ("n", "wins", "places", "margin", "utility")

    def __init__(self) -> None:
        self.n = 0
        self.wins = 0
        self.places = 0
        self.margin = 0.0
        self.utility = 0.0

    def add(self, result: tuple[int, int, int], utility: float) -> None:
        win, place, margin = result
        self.n += 1
        self.wins += win
        self.places += place
        self.margin += margin
        self.utility += utility

    @property
    def mean(self) -> float:
        return self.utility / self.n if self.n else 0.0


def result(game: Any, seat: int) -> tuple[int, int, int]:
    """(1 if the seat won else 0, its place, its margin in squares) in a simulated race."""
    place = game.place_of(seat)
    mine = other = -1
    for i, p in enumerate(game.pos):
        if game.riders[i].seat == seat:
            mine = max(mine, p[0])
        else:
            other = max(other, p[0])
    return int(place == 1), place, mine - other


def utility(res: tuple[int, int, int], teams: int, margin_weight: float = 0.02, margin_scale: float = 10.0) -> float:
    """1 for a win; a little for each place above the last; some for the
    margin (a close race over a rout), bounded by `margin_weight`.  A small
    weight only orders otherwise equal results (hard); a larger one turns
    each simulated race into a finer signal than won or lost (expert)."""
    win, place, margin = res
    above = (teams - place) / max(1, teams - 1)
    return win + 0.15 * above + margin_weight * math.tanh(margin / margin_scale)


def worth(game: Any, seat: int, margin_weight: float = 0.02, margin_scale: float = 10.0) -> tuple[
        tuple[int, int, int], float]:
    """A simulated race's result for the seat and its utility; a tour stage
    is worth what its times and places bring in the tour (engine.tour.stage_value)."""
    res = result(game, seat)
    if getattr(game.setup, "tour", False):
        return res, stage_value(game, seat)
    return res, utility(res, len(game.seats), margin_weight, margin_scale)


def last_pick(game: Any, seat: int) -> bool:
    """Whether the seat's next play is its last choice of the round (no other
    rider of the seat still to draw or choose), from the seat's own view."""
    view = game.view(seat)
    if not view.hands:
        return False
    riders = view.board.riders
    return not any(i not in view.chosen and i not in view.hands and riders[i].square >= 0 for i in view.own)


def drawer_name(view: View, action: Action) -> str:
    """"the Rouleur", "the Sprinteur": the rider a draw names, as the table calls it."""
    rider = next(r for r in view.board.riders if r.id == action.rider)
    return {"R": "the Rouleur", "S": "the Sprinteur"}.get(rider.kind, rider.id)
