"""Fast policies for simulated races (rollouts): game -> action for a seat.

They play a sampled world (a whole game built by the engine from a view,
`View.sample`), thousands of times per decision, so they ask the engine
only cheap things: the seat's `legal_actions` and what a card is worth here
(`reach`, the same function as `View.reach`).  Any rule set, any number of
lanes, teams and riders per seat: an action they do not know (a place on
the grid, a bid) is played as the engine lists it first.

- `greedy`: the card that goes furthest, the cheapest among equals (the
  `easy` bot's way).
- `saver`: the same, less what a card is worth keeping for later: a lot far
  from the line, nothing near it, less while no climb lies ahead (climbs
  cut every card, and the sprint after the last one is won with high
  cards).  Close to the `medium` bot's way with its cards.
"""

from __future__ import annotations

from collections.abc import Callable

from ..engine.actions import Action, Draw, Play, PlayTokens
from ..engine.course import Course
from ..engine.phase import Phase
from ..engine.race import Race
from ..engine.turns import next_seat

# (game, seat) -> action.  The game is typed (a Race) so that, compiled, every
# question to the engine is a direct method call: these run for every action
# of every simulated race.
Rollout = Callable[[Race, int], Action]
MAX_ROUNDS = 60  # a simulated race longer than this is scored as it stands


def _first_draw(game: Race, actions: list[Action]) -> Action:
    """The rider further back draws first (its choice matters more): the
    first of the rearmost, lane 0 before lane 1 on a square."""
    pos, index = game.pos, game.index
    best = actions[0]
    best_square, best_lane = pos[index[best.rider]]
    for a in actions:
        square, lane = pos[index[a.rider]]
        if square < best_square or (square == best_square and lane < best_lane):
            best, best_square, best_lane = a, square, lane
    return best


def _first(game: Race, seat: int) -> tuple[Action, list[Action]]:
    """The seat's action when no card is to be weighed (the only one, the
    draw, a place or bid) with no plays; else its first play and every play
    (Play or PlayTokens)."""
    actions = game.legal_actions(seat)
    first = actions[0]
    if len(actions) == 1:
        return first, []
    if type(first) is Draw:
        return _first_draw(game, actions), []
    if type(first) is Play or type(first) is PlayTokens:
        return first, actions
    return first, []


def _pieces(action: Action) -> tuple[int | tuple[int, ...], int]:
    """A play's card (token tuple) and what it spends."""
    if type(action) is Play:
        card: int = action.card  # type: ignore[attr-defined]
        return card, card
    tokens: tuple[int, ...] = action.tokens  # type: ignore[attr-defined]
    spend = 0
    for t in tokens:
        spend += t
    return tokens, spend


def greedy(game: Race, seat: int) -> Action:
    first, plays = _first(game, seat)
    if not plays:
        return first
    i = game.index[first.rider]
    # the first of the greatest (reach, -spend), compared field by field
    best, best_reach, best_spend = first, -(10**9), 0
    for a in plays:
        pieces, spend = _pieces(a)
        reach = game.reach(i, pieces)
        if reach > best_reach or (reach == best_reach and spend < best_spend):
            best, best_reach, best_spend = a, reach, spend
    return best


def keep_weight(course: Course, start: int) -> float:
    """What one point of card value is worth keeping, in squares now."""
    left = course.finish - start
    if left <= 12:
        return 0.0
    weight = min(0.45, 0.015 * left)
    ahead = course.next_ascent[start] if 0 <= start < len(course.next_ascent) else left
    if ahead >= left:  # no climb before the line: holding back loses ground
        weight *= 0.3
    return weight


def saver(game: Race, seat: int) -> Action:
    first, plays = _first(game, seat)
    if not plays:
        return first
    i = game.index[first.rider]
    start = game.pos[i][0]
    course = game.course
    finish = course.finish
    weight = keep_weight(course, start)
    best, best_score = first, -1e9
    for a in plays:
        pieces, spend = _pieces(a)
        moves = game.reach(i, pieces)
        if start + moves >= finish:
            score = 1000.0 + moves  # over the line: further is better, nothing else counts
        else:
            score = moves - weight * spend
        if score > best_score:
            best, best_score = a, score
    return best


def play_to_end(game: Race, policies: list[Rollout]) -> None:
    """Every seat plays its policy (`policies[seat]`) until the line (or MAX_ROUNDS)."""
    while game.phase != Phase.OVER and game.round < MAX_ROUNDS:
        # what `turns` yields, without a generator: the seat next_seat names acts until the round is over
        start = game.round
        seat = next_seat(game)
        while seat is not None:
            named_in = game.phase
            game.apply(policies[seat](game, seat))
            # (no seat before it has anything left to do in this energy phase: see next_seat)
            seat = next_seat(game, seat if named_in == Phase.ENERGY else 0) if game.round == start else None
