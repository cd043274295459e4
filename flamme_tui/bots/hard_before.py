"""The `hard` bot as it was before issue 15 (`hard-before`): a reference for
tournaments, benches and tests only, never offered in a menu.  Its faults,
fixed in `hard`: it may play a card when a lower one moves as far (one
sampled future in 24 decides), ties always go to the lowest card, with every
future lost it plays its lowest card, and the Rouleur always draws first.

Monte Carlo over the hidden information.

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

from ..engine.actions import Action, Place, PlayTokens, draw, play
from ..engine.phase import Phase
from ..engine.rng import Rng
from ..engine.tour import stage_value
from ..engine.turns import turns
from ..engine.view import View
from .breakaway import breakaway
from .easy import best_card, best_tokens, grid_spot
from .medium import medium
from .reasons import Decision

WORLDS = 24  # sampled worlds per decision
MAX_ROUNDS = 40  # a rollout longer than this is scored as it stands


def _seed(view: View) -> int:
    """A seed from what the seat sees, stable across processes and runs."""
    board = view.board
    text = repr((view.seat, board.round, [(r.square, r.lane, r.history) for r in board.riders],
                 sorted(view.hands.items()), sorted(view.chosen.items())))
    return zlib.crc32(text.encode())


def _utility(game, seat: int) -> float:
    """1 for a win; a little for the places behind.  A tour stage is worth
    what its times and places bring in the tour (engine.tour.stage_value)."""
    if getattr(game.setup, "tour", False):
        return stage_value(game, seat)
    places = game.outcome().places
    place = places[seat] - 1
    return 1.0 if place == 0 else 0.15 * (len(places) - 1 - place) / (len(places) - 1)


def _rollout(game) -> None:
    """Every seat plays the fast policy until the line (or MAX_ROUNDS)."""
    bmx = game.rules.uses_tokens
    while game.phase != Phase.OVER and game.round < MAX_ROUNDS:
        for seat in turns(game):
            game.apply(_fast_action(game, seat, bmx))


def _fast_action(game, seat: int, bmx: bool) -> Action:
    riders, pos = game.riders, game.pos
    if bmx:
        r = riders[seat]
        return PlayTokens(r.id, best_tokens(game, seat, tuple(r.hand), game.keep_size(seat)))
    for i in game.seats[seat]:
        r = riders[i]
        if r.hand:
            return play(r.id, best_card(game, i, tuple(r.hand), game.setup.exhaustion_value))
    mine = game.seat_riders(seat)  # in a tour, a rider across the line has left the track
    if len(mine) == 1:
        return draw(riders[mine[0]].id)
    a, b = mine
    return draw(riders[a].id if pos[a] < pos[b] else riders[b].id)


def _low_first(action: Action) -> tuple[int, ...]:
    """Cards by value, token sets by their tokens lowest first: the order the
    candidates are compared in (a tie goes to the first)."""
    if isinstance(action, PlayTokens):
        return tuple(sorted(action.tokens))
    return (action.card,)  # type: ignore[attr-defined]


def hard(view: View) -> Action:
    return explain(view).action


def explain(view: View, worlds: int = WORLDS) -> Decision:
    """The hard bot's choice, with a public reason (what it did, nothing
    more) and the full one (how its card scored against the next best)."""
    board = view.board
    if board.phase == Phase.GRID:
        return Decision(Place(*grid_spot(view)), "front-most free place", "front-most free place")
    if board.phase == Phase.BREAKAWAY:  # the table hears nothing of a bid before its reveal
        return Decision(breakaway(view, eager=False), "", "")
    if not view.hands:
        return Decision(medium(view), "the rouleur draws first", "the rouleur draws first")
    i, hand = next(iter(view.hands.items()))
    # the engine's choices, lowest first (ties go to the first)
    candidates = sorted((o.action for o in view.options()), key=_low_first)

    def what(action: Action) -> str:
        return str(action).split(" ", 2)[2]

    if len(candidates) == 1:
        # "no choice" would tell the table the whole hand: it says only what was played
        return Decision(candidates[0], f"plays {what(candidates[0])}", "no choice")
    rng = Rng(_seed(view))
    totals = [0.0] * len(candidates)
    for _ in range(worlds):
        world = view.sample(rng)
        world.narrated = False  # nobody reads a simulated race's events: not made
        future = rng.below(2**31)
        for k, action in enumerate(candidates):
            game = world.clone(rng=Rng(future))
            game.apply(action)
            _rollout(game)
            totals[k] += _utility(game, view.seat)
    order = sorted(range(len(candidates)), key=lambda k: (-totals[k], k))
    best, second = order[0], order[1]
    full = (f"{what(candidates[best])} scores {totals[best] / worlds:.2f} over {worlds} sampled futures"
            f" (next best {what(candidates[second])}: {totals[second] / worlds:.2f})")
    # the score comes from its own hand and deck: the table hears only the card played
    return Decision(candidates[best], f"plays {what(candidates[best])}", full)
