"""The `hard` bot: Monte Carlo over the hidden information.

For each card (bmx: token choice) it could play, it samples worlds
consistent with its view (other seats' hands, every deck order), plays the
card and races every seat to the line with a fast built-in rollout policy,
and keeps the card with the best average result.  The same worlds are used
for every candidate, so the comparison is between cards, not between luck.
Its random numbers come from its view alone: a hidden card it cannot see
never changes its choice.
"""

from __future__ import annotations

import zlib

from ..engine.actions import Action, Place, Play, PlayTokens, draw, play
from ..engine.classic import OVER
from ..engine.rng import Rng
from ..engine.view import View
from ..turns import turns
from .easy import best_card, best_tokens, grid_spot
from .medium import medium
from .worlds import sample_world

WORLDS = 24  # sampled worlds per decision
MAX_ROUNDS = 40  # a rollout longer than this is scored as it stands


def _seed(view: View) -> int:
    """A seed from what the seat sees, stable across processes and runs."""
    board = view.board
    text = repr((view.seat, board.round, [(r.square, r.lane, r.history) for r in board.riders],
                 sorted(view.hands.items()), sorted(view.chosen.items())))
    return zlib.crc32(text.encode())


def _utility(game, seat: int) -> float:
    """1 for a win; a little for the places behind."""
    places: list[int] = []
    for i in game.ranking():
        s = game.riders[i].seat
        if s not in places:
            places.append(s)
    place = places.index(seat)
    return 1.0 if place == 0 else 0.15 * (len(places) - 1 - place) / (len(places) - 1)


def _rollout(game) -> None:
    """Every seat plays the fast policy until the line (or MAX_ROUNDS)."""
    bmx = game.variant == "bmx"
    while game.phase != OVER and game.round < MAX_ROUNDS:
        for seat in turns(game):
            game.apply(_fast_action(game, seat, bmx))


def _fast_action(game, seat: int, bmx: bool) -> Action:
    riders, pos, course = game.riders, game.pos, game.course
    if bmx:
        r = riders[seat]
        return PlayTokens(r.id, best_tokens(course, pos[seat][0], tuple(r.hand), game.keep_size(seat)))
    for i in game.seats[seat]:
        r = riders[i]
        if r.hand:
            return play(r.id, best_card(course, pos[i][0], r.hand, game.standup_penalty(i), game.setup.exhaustion_value))
    a, b = game.seats[seat]
    return draw(riders[a].id if pos[a] < pos[b] else riders[b].id)


def hard(view: View) -> Action:
    return explain(view)[0]


def explain(view: View, worlds: int = WORLDS) -> tuple[Action, str]:
    """The hard bot's choice and a one-line reason for the race log."""
    board = view.board
    if board.phase == "grid":
        return Place(*grid_spot(view)), "front-most free place"
    if not view.hands:
        return medium(view), "the rouleur draws first"
    i, hand = next(iter(view.hands.items()))
    rider_id = board.riders[i].id
    if board.variant == "bmx":
        keep = view.keep[i]
        h = sorted(hand)
        options = sorted({(t,) for t in h} if keep == 1 else {
            (h[a], h[b]) for a in range(len(h)) for b in range(a + 1, len(h))
        })
        candidates = [PlayTokens(rider_id, tuple(o)) for o in options]
    else:
        candidates = [Play(rider_id, c) for c in sorted(set(hand))]
    if len(candidates) == 1:
        return candidates[0], "no choice"
    rng = Rng(_seed(view))
    totals = [0.0] * len(candidates)
    for _ in range(worlds):
        world = sample_world(view, rng)
        future = rng.below(2**31)
        for k, action in enumerate(candidates):
            game = world.clone(rng=Rng(future))
            game.apply(action)
            _rollout(game)
            totals[k] += _utility(game, view.seat)
    order = sorted(range(len(candidates)), key=lambda k: (-totals[k], k))
    best, second = order[0], order[1]

    def what(action: Action) -> str:
        return str(action).split(" ", 2)[2]

    reason = (f"{what(candidates[best])} scores {totals[best] / worlds:.2f} over {worlds} sampled futures"
              f" (next best {what(candidates[second])}: {totals[second] / worlds:.2f})")
    return candidates[best], reason
