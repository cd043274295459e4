"""The simple built-in policy (the `easy` bot): go as far as the terrain
allows this round, never wasting a card the terrain would cut down.

Like every policy it sees only its seat's view and returns one action.
What a card (token set) is worth comes from the engine (`View.reach`,
`View.options`): no rule is written here.
"""

from __future__ import annotations

from typing import Any

from ..engine.actions import Action, Place, PlayTokens, draw, play
from ..engine.bmx import token_choices
from ..engine.phase import Phase
from ..engine.view import View
from .breakaway import breakaway


def easy(view: View) -> Action:
    board = view.board
    if board.phase == Phase.GRID:
        return Place(*grid_spot(view))
    if board.phase == Phase.BREAKAWAY:
        return breakaway(view, eager=True)
    if not view.hands:
        # classic: the rider further back draws first (its choice matters more)
        if getattr(board.setup, "tour", False):  # a tour: a rider across the line has left, maybe one draw left
            draws = view.options()
            if len(draws) == 1:
                return draws[0].action
        a, b = (board.riders[i] for i in view.own)
        return draw(a.id if (a.square, a.lane) < (b.square, b.lane) else b.id)
    i, hand = next(iter(view.hands.items()))
    rider = board.riders[i]
    if board.rules.uses_tokens:
        return PlayTokens(rider.id, best_tokens(view, i, hand, view.keep[i]))
    return play(rider.id, best_card(view, i, hand, board.setup.exhaustion_value))


def best_card(position: Any, i: int, hand, exhaustion_value: int = 2) -> int:
    """The card that moves furthest; among equal moves the cheapest one,
    an exhaustion card before a real 2.  `position` is a view or a game:
    what the engine says each card reaches (`reach`)."""
    best, best_key = hand[0], None
    for card in hand:
        moves = position.reach(i, card)
        key = (moves, -(card or exhaustion_value), card == 0)
        if best_key is None or key > best_key:
            best, best_key = card, key
    return best


def grid_spot(view: View) -> tuple[str, int, int]:
    """The next rider to place takes the front-most free place."""
    board = view.board
    placed = {(r.square, r.lane) for r in board.riders if r.square >= 0}
    rider = next(r for r in board.riders if r.square < 0)
    course = board.course
    for sq in range(course.grid - 1, -1, -1):
        for lane in range(course.lanes[sq]):
            if (sq, lane) not in placed:
                return rider.id, sq, lane
    raise ValueError("no free place on the grid")


def best_tokens(position: Any, i: int, hand: tuple[int, ...], keep: int) -> tuple[int, ...]:
    """The furthest-reaching tokens, jump ramp included; fatigue tokens first among equals
    (`position` as for best_card)."""
    picks = sorted(p[::-1] for p in token_choices(hand, keep))  # lowest first: ties go to the first
    return max(picks, key=lambda tokens: (position.reach(i, tokens), -sum(tokens)))
