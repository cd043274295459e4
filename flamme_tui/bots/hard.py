"""The `hard` bot: Monte Carlo over the hidden information.

For each card (bmx: token choice) worth playing (no dominated play: see
`search.candidates`) it samples worlds consistent with its view (other
seats' hands, every deck order), plays the card and races every seat to the
line with the greedy rollout policy, and keeps the card whose simulated
races are worth most: 1 for a win, a little for a better place, and up to
`search.MARGIN` for the squares between its best rider and the best other
one (a finer signal than won or lost: 24 futures rarely tell two cards
apart by wins alone; in a tour stage: the best value in the tour,
engine.tour.stage_value).  Ties go to the better expected place, then to
the card that keeps the better cards.  With every future lost it still
plays for the closest finish.  The same worlds are used for every
candidate, so the comparison is between cards, not between luck.

It races ROLLOUTS simulated races per card decision, shared among the
candidates (at least WORLDS worlds each): the dominated plays left out give
the close choices more worlds, not less time.

Which rider draws first comes from the same kind of sampling: for each
choice, the first rider plays the greedy card from its hand, and the second
then tries each of its cards (it will know the first one's); the choice
whose best answers do better wins (ties: the Rouleur first).

Its random numbers come from its view alone: a hidden card it cannot see
never changes its choice.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..engine.actions import Action, Place
from ..engine.phase import Phase
from ..engine.rng import Rng
from ..engine.turns import next_seat
from ..engine.view import View
from .breakaway import breakaway
from .easy import grid_spot
from .reasons import Decision
from .rollout import Rollout, greedy, play_to_end
from .search import MARGIN, MARGIN_SCALE, Tally, candidates, drawer_name, last_pick, seed_of, what, worth

WORLDS = 24  # sampled worlds per decision, at least
ROLLOUTS = 96  # simulated races per card decision, shared among the candidates (24 worlds for 4 cards)


def hard(view: View) -> Action:
    return explain(view).action


def _key(tally: Tally) -> tuple[float, ...]:
    """Larger is better: the worth of its simulated races (see the module's
    doc), then a better expected place; the caller's order (cheapest first)
    breaks what is left."""
    return (tally.utility, -tally.places)


def score(game: Any, seat: int) -> tuple[tuple[int, int, int], float]:
    """A simulated race's result and its worth to the seat (the margin counted)."""
    return worth(game, seat, MARGIN, MARGIN_SCALE)


def explain(view: View, worlds: int | None = None) -> Decision:
    """The hard bot's choice, with a public reason (what it did, nothing
    more) and the full one (how its card scored against the next best)."""
    board = view.board
    if board.phase == Phase.GRID:
        return Decision(Place(*grid_spot(view)), "front-most free place", "front-most free place")
    if board.phase == Phase.BREAKAWAY:  # the table hears nothing of a bid before its reveal
        return Decision(breakaway(view, eager=False), "", "")
    if not view.hands:
        return _draw(view, worlds or WORLDS)
    options = candidates(view)
    if len(options) == 1:
        # "no choice" would tell the table the whole hand: it says only what was played
        action = options[0].action
        return Decision(action, f"plays {what(action)}", "no choice worth weighing")
    worlds = worlds or max(WORLDS, ROLLOUTS // len(options))
    policies: list[Rollout] = [greedy] * len(board.setup.teams)
    rng = Rng(seed_of(view))
    unseen = view.every_unseen()  # (the same for every world: worked out once)
    tallies = [Tally() for _ in options]
    for _ in range(worlds):
        world = view.sample(rng, unseen)
        world.narrated = False  # nobody reads a simulated race's events: not made
        future = rng.below(2**31)
        for k, option in enumerate(options):
            game = world.clone(rng=Rng(future))
            game.apply(option.action)
            play_to_end(game, policies)
            tallies[k].add(*score(game, view.seat))
    # equal keys: the first candidate, the cheapest
    order = sorted(range(len(options)), key=lambda k: (_key(tallies[k]), -k), reverse=True)
    best, second = order[0], order[1]
    b, s = tallies[best], tallies[second]
    full = (f"{what(options[best].action)} wins {b.wins}/{worlds} sampled futures, place {b.places / worlds:.2f}, "
            f"worth {b.mean:.3f} (next best {what(options[second].action)}: {s.wins}/{worlds}, "
            f"place {s.places / worlds:.2f}, worth {s.mean:.3f})")
    # the score comes from its own hand and deck: the table hears only the card played
    return Decision(options[best].action, f"plays {what(options[best].action)}", full)


def _draw(view: View, worlds: int) -> Decision:
    """Which rider draws first, from sampled worlds (see the module's doc)."""
    draws = [o.action for o in view.options()]
    if len(draws) == 1:  # a tour: one rider left on the track
        return Decision(draws[0], f"{drawer_name(view, draws[0])} draws", "one rider to draw")
    draws.sort(key=lambda a: drawer_name(view, a) != "the Rouleur")  # ties: the Rouleur first, as medium does
    teams = len(view.board.setup.teams)
    policies: list[Rollout] = [greedy] * teams
    rng = Rng(seed_of(view))
    unseen = view.every_unseen()  # (the same for every world: worked out once)
    values = [0.0] * len(draws)
    for _ in range(worlds):
        world = view.sample(rng, unseen)
        world.narrated = False  # nobody reads a simulated race's events: not made
        future = rng.below(2**31)
        for k, action in enumerate(draws):
            game = world.clone(rng=Rng(future))
            game.apply(action)
            values[k] += respond(game, view.seat, policies, future)
    best = max(range(len(draws)), key=lambda k: (values[k], -k))
    chosen = draws[best]
    full = " vs ".join(f"{drawer_name(view, a)} first {values[k] / worlds:.2f}" for k, a in enumerate(draws))
    return Decision(chosen, f"{drawer_name(view, chosen)} draws first", f"best answers over {worlds} futures: {full}")


def respond(game: Any, seat: int, policies: list[Rollout], future: int, counter: list[int] | None = None,
            value: Callable[[Any, int], float] = lambda game, seat: score(game, seat)[1]) -> float:
    """The seat's `value` of a simulated race when it plays the rest of the
    round by `policies` except its last choice, where it tries every card and
    keeps the best (in this world), then everyone races to the line.
    `counter[0]` counts rollouts."""
    start = game.round
    while game.phase != Phase.OVER and game.round == start:
        due = next_seat(game)
        if due is None:
            break
        if due == seat and last_pick(game, seat):
            best = None
            for action in game.legal_actions(seat):
                branch = game.clone(rng=Rng(future))
                branch.apply(action)
                play_to_end(branch, policies)
                if counter is not None:
                    counter[0] += 1
                got = value(branch, seat)
                best = got if best is None else max(best, got)
            return best if best is not None else 0.0
        game.apply(policies[due](game, due))
    play_to_end(game, policies)
    if counter is not None:
        counter[0] += 1
    return value(game, seat)
