"""The bots' breakaway (PELOTON.md): which rider bids, which card it keeps.

The choices come from the engine (`View.options`: the riders that may bid,
then the cards of the bidder's draw); a card's worth is the engine's too
(`fixed_worth`).  Winning puts a rider a few squares ahead for the cost of
its two bid cards and two exhaustion cards: the `eager` bots always chase
it, the others only with a strong first bid.
"""

from __future__ import annotations

from ..engine.actions import Action, Bid, Draw
from ..engine.classic import ClassicSetup, fixed_worth
from ..engine.view import View

STRONG = 6  # a first bid at least this high is worth backing with the second


def breakaway(view: View, eager: bool) -> Action:
    options = [o.action for o in view.options()]
    draws = [a for a in options if isinstance(a, Draw)]
    if draws:  # the Rouleur bids (its deck has no 9 to lose), else the only rider
        kinds = {r.id: r.kind for r in view.board.riders}
        rouleurs = [a for a in draws if kinds[a.rider] == "R"]
        return (rouleurs or draws)[0]
    bids = [a for a in options if isinstance(a, Bid)]
    setup = view.board.setup
    assert isinstance(setup, ClassicSetup)  # the breakaway is classic and meteo's

    def worth(action: Bid) -> int:
        return fixed_worth(setup, action.card)

    i = view.first_drawn
    shown = view.board.riders[i].bids if i is not None else ()
    chase = eager or (bool(shown) and sum(fixed_worth(setup, c) for c in shown) >= STRONG) or (
        not shown and max(worth(b) for b in bids) >= STRONG)
    return max(bids, key=worth) if chase else min(bids, key=worth)
