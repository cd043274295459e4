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
from typing import Any

from ..engine.actions import Action, Draw, Play, PlayTokens
from ..engine.phase import Phase
from ..engine.turns import turns

Rollout = Callable[[Any, int], Action]  # (game, seat) -> action
MAX_ROUNDS = 60  # a simulated race longer than this is scored as it stands


def _plays(actions: list[Action]) -> list[tuple[Action, Any, int]] | None:
    """(action, its card or token tuple, what it spends) for plays; None for
    other actions (places, bids)."""
    first = actions[0]
    if type(first) is Play:
        return [(a, a.card, a.card) for a in actions]  # type: ignore[attr-defined]
    if type(first) is PlayTokens:
        return [(a, a.tokens, sum(a.tokens)) for a in actions]  # type: ignore[attr-defined]
    return None


def _first_draw(game: Any, actions: list[Action]) -> Action:
    """The rider further back draws first (its choice matters more)."""
    pos, index = game.pos, game.index
    return min(actions, key=lambda a: (pos[index[a.rider]][0], pos[index[a.rider]][1]))


def _choices(game: Any, seat: int) -> tuple[Action, list[tuple[Action, Any, int]] | None]:
    """The seat's action when no card is to be weighed (the only one, the
    draw, a place or bid), with no plays; else its first action and its plays."""
    actions = game.legal_actions(seat)
    first = actions[0]
    if len(actions) == 1:
        return first, None
    if type(first) is Draw:
        return _first_draw(game, actions), None
    return first, _plays(actions)


def greedy(game: Any, seat: int) -> Action:
    first, plays = _choices(game, seat)
    if plays is None:
        return first
    i = game.index[first.rider]
    reach = game.reach
    best, best_key = first, None
    for a, pieces, cost in plays:
        key = (reach(i, pieces), -cost)
        if best_key is None or key > best_key:
            best, best_key = a, key
    return best


def keep_weight(course: Any, start: int) -> float:
    """What one point of card value is worth keeping, in squares now."""
    left = course.finish - start
    if left <= 12:
        return 0.0
    weight = min(0.45, 0.015 * left)
    ahead = course.next_ascent[start] if 0 <= start < len(course.next_ascent) else left
    if ahead >= left:  # no climb before the line: holding back loses ground
        weight *= 0.3
    return weight


def saver(game: Any, seat: int) -> Action:
    first, plays = _choices(game, seat)
    if plays is None:
        return first
    i = game.index[first.rider]
    start = game.pos[i][0]
    course = game.course
    finish = course.finish
    weight = keep_weight(course, start)
    reach = game.reach
    best, best_score = first, -1e9
    for a, pieces, cost in plays:
        moves = reach(i, pieces)
        if start + moves >= finish:
            score = 1000.0 + moves  # over the line: further is better, nothing else counts
        else:
            score = moves - weight * cost
        if score > best_score:
            best, best_score = a, score
    return best


def play_to_end(game: Any, policies: list[Rollout]) -> None:
    """Every seat plays its policy (`policies[seat]`) until the line (or MAX_ROUNDS)."""
    while game.phase != Phase.OVER and game.round < MAX_ROUNDS:
        for seat in turns(game):
            game.apply(policies[seat](game, seat))
