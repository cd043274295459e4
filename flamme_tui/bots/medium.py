"""The `medium` bot: plays for the pack.

It values a card by the squares it gains, minus what the card is worth later
(high cards win the sprint), minus the exhaustion card it expects to take at
the front of the race, plus the slipstream it expects behind a pack.  Other
riders are guessed to move an average card.  It sees only its seat's view.
"""

from __future__ import annotations

from ..engine.actions import Action, Draw, Place, Play, PlayTokens
from ..engine.bmx import token_choices
from ..engine.classic import ClassicSetup
from ..engine.phase import Phase
from ..engine.view import View
from .breakaway import breakaway
from .easy import grid_spot

GUESS = 5  # what an unknown rider is guessed to move
# squares a card of exhaustion is guessed to cost later; a fatigue token in a
# 10-token bag costs far more (both tuned by tournaments against easy)
EXHAUSTION_COST = 0.2
FATIGUE_COST = 3.0
# saving high cards pays while climbs lie ahead (they cut every card to 5 and
# the sprint after the last one is won with high cards); on the flat, holding
# back mostly loses ground (tuned by tournaments against easy)
FLAT_KEEP = 0.3


def _landing_bonus(dest: int, ahead: list[int], cost: float = EXHAUSTION_COST) -> float:
    """Expected gain from the pack around `dest` given others' guessed squares;
    `cost` is what an exhaustion card (fatigue token) is worth."""
    if dest + 1 in ahead:
        return 0.0  # sheltered: no exhaustion, nothing to catch
    if dest + 2 in ahead:
        return 1.0 - 0.3 * cost  # slipstream (catch-up) likely closes the gap
    if any(sq > dest for sq in ahead):
        return -0.6 * cost  # a gap behind someone: exhaustion likely
    return -cost  # in front of everyone


def _keep_weight(course, start: int, climbs_matter: bool = True) -> float:
    """How much a card's value is worth saving: a lot early, nothing near the
    line, less when no climb is left (classic and meteo)."""
    left = course.finish - start
    if left <= 12:
        return 0.0
    weight = min(0.45, 0.015 * left)
    if climbs_matter and course.next_ascent[start] >= left:
        weight *= FLAT_KEEP
    return weight


def guesses(view: View, skip: int) -> list[int]:
    board = view.board
    tokens = board.rules.uses_tokens
    out = []
    for r in board.riders:
        if r.index == skip:
            continue
        chosen = view.chosen.get(r.index)
        if chosen is not None and not tokens:
            out.append(r.square + view.reach(r.index, chosen))
        elif tokens:
            out.append(r.square + 3)
        else:
            out.append(r.square + view.reach(r.index, GUESS))  # a card of GUESS
    return out


def medium(view: View) -> Action:
    board = view.board
    if board.phase == Phase.GRID:
        return Place(*grid_spot(view))
    if board.phase == Phase.BREAKAWAY:
        return breakaway(view, eager=False)
    if not view.hands:
        # the rouleur chooses first; the sprinteur then sees what is left for the sprint
        rouleur = next(board.riders[i] for i in view.own if board.riders[i].kind == "R")
        if getattr(board.setup, "tour", False) and rouleur.square < 0:  # a tour: it has crossed the line, the other draws
            return next(o.action for o in view.options())
        return Draw(rouleur.id)
    i, hand = next(iter(view.hands.items()))
    rider = board.riders[i]
    course = board.course
    others = guesses(view, i)
    keep = _keep_weight(course, rider.square, not board.rules.uses_tokens)
    if board.rules.uses_tokens:
        return PlayTokens(rider.id, _bmx_choice(view, i, hand, others, keep))
    setup = board.setup
    assert isinstance(setup, ClassicSetup)  # a card: classic or meteo
    best, best_score = hand[0], None
    for card in sorted(set(hand)):
        value = card or setup.exhaustion_value
        moves = view.reach(i, card)
        dest = rider.square + moves
        if dest >= course.finish:
            score = 100.0 + dest  # crossing the line beats everything; further is better
        else:
            cost = -EXHAUSTION_COST * 0.7 if card == 0 else keep * value
            score = moves - cost + _landing_bonus(dest, others)
        if best_score is None or score > best_score:
            best, best_score = card, score
    return Play(rider.id, best)


def _bmx_choice(view: View, i: int, hand, others: list[int], keep: float) -> tuple[int, ...]:
    board = view.board
    rider = board.riders[i]
    course = board.course
    picks = sorted(p[::-1] for p in token_choices(hand, view.keep[i]))  # lowest first: ties go to the first

    def score(tokens: tuple[int, ...]) -> float:
        moves = view.reach(i, tokens)
        dest = rider.square + moves
        if dest >= course.finish:
            return 100.0 + dest
        cost = sum(-FATIGUE_COST * 0.5 if t == 0 else keep * t for t in tokens)
        return moves - cost + _landing_bonus(dest, others, FATIGUE_COST)

    return max(picks, key=score)
