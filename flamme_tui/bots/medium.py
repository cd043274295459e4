"""The `medium` bot: plays for the pack.

It values a card by the squares it gains, minus what the card is worth later
(high cards win the sprint), minus the exhaustion card it expects to take at
the front of the race, plus the slipstream it expects behind a pack.  Other
riders are guessed to move an average card.  It sees only its seat's view.
"""

from __future__ import annotations

from ..engine.actions import Action, Draw, Place, Play, PlayTokens
from ..engine.bmx import token_value
from ..engine.classic import effective_move
from ..engine.view import View
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
    out = []
    for r in board.riders:
        if r.index == skip:
            continue
        chosen = view.chosen.get(r.index)
        if chosen is not None and board.variant != "bmx":
            out.append(r.square + effective_move(board.course, r.square, chosen or board.setup.exhaustion_value,
                                                 board.setup.standup_penalty if r.crashed else 0))
        elif board.variant == "bmx":
            out.append(r.square + 3)
        else:
            out.append(r.square + effective_move(board.course, r.square, GUESS,
                                                 board.setup.standup_penalty if r.crashed else 0))
    return out


def medium(view: View) -> Action:
    board = view.board
    if board.phase == "grid":
        return Place(*grid_spot(view))
    if not view.hands:
        # the rouleur chooses first; the sprinteur then sees what is left for the sprint
        rouleur = next(board.riders[i] for i in view.own if board.riders[i].kind == "R")
        return Draw(rouleur.id)
    i, hand = next(iter(view.hands.items()))
    rider = board.riders[i]
    course = board.course
    others = guesses(view, i)
    keep = _keep_weight(course, rider.square, board.variant != "bmx")
    if board.variant == "bmx":
        return PlayTokens(rider.id, _bmx_choice(view, i, hand, others, keep))
    penalty = board.setup.standup_penalty if rider.crashed else 0
    best, best_score = hand[0], None
    for card in sorted(set(hand)):
        value = card or board.setup.exhaustion_value
        moves = effective_move(course, rider.square, value, penalty)
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
    ramp = course.ramp
    hand = sorted(hand)
    picks = {(t,) for t in hand} if view.keep[i] == 1 else {
        tuple(sorted((hand[a], hand[b]))) for a in range(len(hand)) for b in range(a + 1, len(hand))
    }
    best, best_score = None, None
    for tokens in sorted(picks):
        moves = sum(token_value(t) for t in tokens)
        if ramp and rider.square < ramp[0] <= rider.square + moves and ramp[1] in tokens:
            moves += ramp[1]
        dest = rider.square + moves
        if dest >= course.finish:
            score = 100.0 + dest
        else:
            cost = sum(-FATIGUE_COST * 0.5 if t == 0 else keep * t for t in tokens)
            score = moves - cost + _landing_bonus(dest, others, FATIGUE_COST)
        if best_score is None or score > best_score:
            best, best_score = tokens, score
    return best
