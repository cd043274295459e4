"""The simple built-in policy (the `easy` bot): go as far as the terrain
allows this round, never wasting a card the terrain would cut down.

Like every policy it sees only its seat's view and returns one action.
"""

from __future__ import annotations

from ..engine.actions import Action, Place, PlayTokens, draw, play
from ..engine.bmx import token_value
from ..engine.classic import effective_move
from ..engine.view import View


def easy(view: View) -> Action:
    board = view.board
    if board.phase == "grid":
        return Place(*grid_spot(view))
    if not view.hands:
        # classic: the rider further back draws first (its choice matters more)
        a, b = (board.riders[i] for i in view.own)
        return draw(a.id if (a.square, a.lane) < (b.square, b.lane) else b.id)
    i, hand = next(iter(view.hands.items()))
    rider = board.riders[i]
    course = board.course
    if board.variant == "bmx":
        return PlayTokens(rider.id, best_tokens(course, rider.square, hand, view.keep[i]))
    penalty = board.setup.standup_penalty if rider.crashed else 0
    return play(rider.id, best_card(course, rider.square, hand, penalty, board.setup.exhaustion_value))


def best_card(course, square: int, hand, penalty: int = 0, exhaustion_value: int = 2) -> int:
    """The card that moves furthest; among equal moves the cheapest one,
    an exhaustion card before a real 2."""
    best, best_key = hand[0], None
    for card in hand:
        value = card or exhaustion_value
        moves = effective_move(course, square, value, penalty)
        key = (moves, -value, card == 0)
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


def best_tokens(course, square: int, hand: tuple[int, ...], keep: int) -> tuple[int, ...]:
    """The furthest-reaching tokens, jump ramp included; fatigue tokens first among equals."""
    ramp = course.ramp
    tokens = sorted(hand)
    picks = [(t,) for t in tokens] if keep == 1 else [
        (tokens[a], tokens[b]) for a in range(len(tokens)) for b in range(a + 1, len(tokens))
    ]

    def reach(tokens: tuple[int, ...]) -> tuple[int, int]:
        value = sum(token_value(t) for t in tokens)
        if ramp and square < ramp[0] <= square + value and ramp[1] in tokens:
            value += ramp[1]
        return (value, -sum(tokens))

    return max(picks, key=reach)
