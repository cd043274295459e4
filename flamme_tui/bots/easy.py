"""The simple built-in policy (the `easy` bot): go as far as the terrain
allows this round, never wasting a card the terrain would cut down.

Like every policy it sees only its seat's view and returns one action.
What a card (token set) is worth comes from the engine (`View.reach`,
`View.options`): no rule is written here.
"""

from __future__ import annotations

from ..engine.actions import Action, Place, draw, play, play_tokens
from ..engine.bmx import token_choices
from ..engine.classic import ClassicSetup
from ..engine.phase import Phase
from ..engine.race import Race
from ..engine.view import View
from .breakaway import breakaway


def easy(view: View) -> Action:
    board = view.board
    if board.phase == Phase.GRID:
        return Place(*grid_spot(view))
    if board.phase == Phase.BREAKAWAY:
        return breakaway(view, eager=True)
    i, hand, keep = view.held()  # the one rider with cards in hand (index -1: none)
    if i < 0:
        # classic: the rider further back draws first (its choice matters more)
        setup = board.setup
        assert isinstance(setup, ClassicSetup)  # typed: direct field reads
        if setup.tour:  # a tour: a rider across the line has left, maybe one draw left
            draws = view.options()
            if len(draws) == 1:
                return draws[0].action
        a, b = view.pair()
        behind = a.square < b.square or (a.square == b.square and a.lane < b.lane)
        return draw(a.id if behind else b.id)
    rider = board.riders[i]
    if board.rules.uses_tokens:
        return play_tokens(rider.id, best_tokens(view, i, hand, keep))
    classic = board.setup
    assert isinstance(classic, ClassicSetup)
    return play(rider.id, best_card(view, i, hand, classic.exhaustion_value))


def best_card(position: View | Race, i: int, hand: tuple[int, ...], exhaustion_value: int = 2) -> int:
    """The card that moves furthest; among equal moves the cheapest one,
    an exhaustion card before a real 2.  `position` is a view or a game:
    what the engine says each card reaches (`reach`)."""
    # the first of the greatest keys (moves, -value, exhaustion card), compared field by field
    best, best_moves, best_value, best_spare = hand[0], -1, 0, False
    for card in hand:
        moves, value, spare = position.reach(i, card), card or exhaustion_value, card == 0
        if moves > best_moves or (moves == best_moves and (
                value < best_value or (value == best_value and spare and not best_spare))):
            best, best_moves, best_value, best_spare = card, moves, value, spare
    return best


def grid_spot(view: View) -> tuple[str, int, int]:
    """The rider the engine asks to place next takes the front-most free
    place: the first of the places the engine offers (front first, the
    right-hand lane first), so a bot follows the engine's placing order
    (in a tour, the grid order)."""
    for option in view.options():
        action = option.action
        if isinstance(action, Place):
            return action.rider, action.square, action.lane
    raise ValueError("no place on the grid to choose")


def best_tokens(position: View | Race, i: int, hand: tuple[int, ...], keep: int) -> tuple[int, ...]:
    """The furthest-reaching tokens, jump ramp included; fatigue tokens first among equals
    (`position` as for best_card)."""
    # each set lowest token first, the sets in that order: ties go to the first
    choices = token_choices(hand, keep)
    if keep == 1:  # distinct single tokens, highest first: reversed, they are in order
        picks = [choices[k] for k in range(len(choices) - 1, -1, -1)]
    else:
        picks = sorted([p[::-1] for p in choices])
    # the first of the greatest keys (reach, -sum of the tokens), compared field by field
    best, best_reach, best_sum = picks[0], -1, 0
    for tokens in picks:
        reach, total = position.reach(i, tokens), 0
        for t in tokens:
            total += t
        if reach > best_reach or (reach == best_reach and total < best_sum):
            best, best_reach, best_sum = tokens, reach, total
    return best
