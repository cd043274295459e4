"""The `expert` bot: a determinised search over sampled worlds, in a time
(or rollout) budget.

Each sampled world (`View.sample`: the other hands and every deck order
drawn from what the seat can deduce) is raced to the line once for every
candidate still in the running, all candidates on the same world and the
same future (common random numbers), so they are compared on the same luck.
After a few worlds, a candidate whose paired difference to the leader is
clearly negative (beyond `PRUNE_Z` standard errors) leaves the race: the
rest of the budget goes to the choices that are close.  The search stops
when the budget is spent or one candidate is left.

- Candidates: the engine's options less the dominated plays, cheapest
  first (`search.candidates`); exact ties go to the cheapest.
- Other seats' cards of the round being decided: decoupled UCT at that
  round (Tak, Lanctot and Winands 2014; `Others`): each other seat picks its
  card by UCB1 on its own results over the simulated races, keyed by rider
  and card over the cards its sampled hand holds (as in information-set
  MCTS), so it is modelled as looking for its best answer, not as a fixed
  policy (against `hard`, 2-team races, 500 rollouts a decision, seeds 0-99:
  66 wins against 56 with the fixed policies below).
- In later rounds other seats are modelled by a mix of the bots: in each
  world each other seat plays `greedy` (the easy bot's way) or `saver` (the
  medium bot's way with its cards), drawn at random; its own riders play
  `saver`, which values the cards kept for the sprint and the climbs ahead.
- A simulated race is worth 1 for a win, a little for a better place and
  up to MARGIN for the margin between its best rider and the best other one
  (`search.utility`): a finer signal than won or lost, so fewer simulated
  races tell two cards apart (tuned against `hard` at 150 rollouts a
  decision, 2-team races, seeds from 0: 52 wins in 80 with a weight of 0.3,
  39 in 63 with 0.6, 53 in 100 with next to none); with every future lost
  it still plays for the best place and the closest finish.
- Its own riders race on as `saver` rather than `greedy` (22 wins against
  18 on the same first 31 seeds).
- Which rider draws first: each choice is weighed by its best answers (the
  first rider plays its `saver` card, the second tries each of its cards),
  on at most DRAW_SECONDS (DRAW_ROLLOUTS).  A best answer is picked knowing the sampled
  world, an optimistic estimate, and more for one order than the other:
  more samples sharpen that bias, not the choice, so the rest of a larger
  budget goes to the cards (against `hard`, 2-team races, seeds 0-199: the
  draw weighed on the whole 1 s won 56.0%, on 0.1 s with the cards on 1 s
  65.5%; the whole budget of 0.1 s: 62.0%).

Its random numbers come from its view alone: a hidden card it cannot see
never changes its choice; with a rollout budget the same view always gives
the same decision.
"""

from __future__ import annotations

import math
import time
from typing import Any

from ..engine.actions import Action, Bid, Choice, Place, Play, PlayTokens
from ..engine.phase import Phase
from ..engine.rng import Rng
from ..engine.turns import turns
from ..engine.view import View
from .breakaway import breakaway
from .budget import DEFAULT, Budget
from .easy import grid_spot
from .hard import respond
from .reasons import Decision
from .rollout import MAX_ROUNDS, Rollout, greedy, play_to_end, saver
from .search import MARGIN, MARGIN_SCALE, Tally, candidates, drawer_name, seed_of, what, worth

OWN: Rollout = saver  # how its own riders race on in a simulated race
MIX: tuple[tuple[Rollout, float], ...] = ((greedy, 0.5), (saver, 0.5))  # the other seats: policy, weight
MIN_WORLDS = 8  # worlds before a candidate may leave the race
PRUNE_Z = 2.0  # standard errors behind the leader that put a candidate out
SAME_WORLDS = 24  # worlds after which candidates that did exactly alike in each are called equal
DRAW_SECONDS, DRAW_ROLLOUTS = 0.1, 2_000  # the most the draw order is weighed on (see the module's doc)
DEADLINE = 0.75  # the share of a time budget after which no new world starts (see Clock)


def expert(view: View, budget: Budget = DEFAULT) -> Action:
    return explain(view, budget).action


class Clock:
    """The budget being spent: rollouts counted, and the wall clock unless
    the budget is in rollouts.

    By the clock, no new world starts after DEADLINE of the time, nor when the
    slowest world so far would not end before it: in a thinking process at a
    low priority on a busy machine one world (a few ms of CPU) took up to
    0.3 s by the clock, and with 90% of the budget and no such margin 1% of
    the decisions ran over the budget; the rest of the budget is for what
    comes before and after (the question handed to the thinking process, the
    race replayed, the answer handed back: 0.1-0.2 s on a machine that busy)."""

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self.used = 0
        self.last = time.perf_counter()
        self.slowest = 0.0  # the longest time between two questions, by the clock
        self.deadline = self.last + DEADLINE * budget.seconds

    def spent(self, upcoming: int = 0) -> bool:
        """Whether the budget is spent, or would be by `upcoming` more rollouts."""
        if self.budget.rollouts is not None:
            return self.used + upcoming > self.budget.rollouts
        now = time.perf_counter()
        self.slowest = max(self.slowest, now - self.last)
        self.last = now
        return now + self.slowest >= self.deadline


def _policies(view: View, rng: Rng) -> list[Rollout]:
    """This world's model of every seat: its own `OWN`, the others drawn from `MIX`."""
    out: list[Rollout] = []
    for seat in range(len(view.board.setup.teams)):
        if seat == view.seat:
            out.append(OWN)
            continue
        out.append(_pick(rng.random()))
    return out


def value(game: Any, seat: int) -> tuple[tuple[int, int, int], float]:
    """A simulated race's result and what it is worth to the expert (see the
    module's doc; a tour stage: its value in the tour)."""
    return worth(game, seat, MARGIN, MARGIN_SCALE)


def _pick(x: float) -> Rollout:
    """The policy of MIX that x (uniform in [0, 1)) falls on."""
    for policy, weight in MIX:
        if x < weight:
            return policy
        x -= weight
    return MIX[-1][0]


UCB_C = 0.5  # exploration of the other seats' cards of this round (decoupled UCB1)


class Others:
    """Decoupled UCT at the round being decided: each other seat picks its card
    (token set) of this round by UCB1 on its own results in the simulated
    races (an information-set bandit: keyed by rider and card, over the cards
    its sampled hand holds), so the other seats are modelled as searching for
    their best answer, not as a fixed policy; later rounds follow `fallback`.
    Within a world every candidate meets the same picks (common random numbers)."""

    def __init__(self, round: int, seat: int) -> None:
        self.round = round
        self.seat = seat
        self.n: dict[Any, int] = {}
        self.total: dict[Any, float] = {}
        self.tries: dict[int, int] = {}
        self.picked: dict[int, Any] = {}  # this world: rider index -> key picked
        self.fallback: list[Rollout] = []

    def new_world(self, fallback: list[Rollout]) -> None:
        self.picked = {}
        self.fallback = fallback

    def policy(self, game: Any, seat: int) -> Action:
        if seat == self.seat or game.round != self.round:
            return self.fallback[seat](game, seat)
        actions = game.legal_actions(seat)
        if len(actions) < 2 or not isinstance(actions[0], (Play, PlayTokens)):
            return self.fallback[seat](game, seat)
        i = game.index[actions[0].rider]
        keys = [(i, _piece(a)) for a in actions]
        done = self.picked.get(i)
        if done is not None and done in keys:
            return actions[keys.index(done)]
        prior = self.fallback[seat](game, seat)
        tries = self.tries.get(i, 0)
        best, best_score = 0, -1e9
        for k, key in enumerate(keys):
            n = self.n.get(key, 0)
            if n == 0:
                score = 1e6 + (1 if actions[k] == prior else 0)  # untried first, the policy's own card first
            else:
                score = self.total[key] / n + UCB_C * math.sqrt(math.log(max(1, tries)) / n)
            if score > best_score:
                best, best_score = k, score
        self.picked[i] = keys[best]
        return actions[best]

    def race_on(self, game: Any) -> None:
        """Race a simulated game to the line: the round being decided by `policy`,
        the later rounds by the fixed policies alone, in compiled code (the same
        race as `policy` at every action, in less than half the time)."""
        while game.phase != Phase.OVER and game.round == self.round and game.round < MAX_ROUNDS:
            for seat in turns(game):
                game.apply(self.policy(game, seat))
        play_to_end(game, self.fallback)

    def learn(self, game: Any) -> None:
        """The picks of this world, credited with their seat's result in this simulated race."""
        by_seat: dict[int, float] = {}  # a seat's two riders share one result
        for i, key in self.picked.items():
            seat = game.riders[i].seat
            if seat not in by_seat:
                by_seat[seat] = value(game, seat)[1]
            got = by_seat[seat]
            self.n[key] = self.n.get(key, 0) + 1
            self.total[key] = self.total.get(key, 0.0) + got
            self.tries[i] = self.tries.get(i, 0) + 1


def _piece(action: Action) -> Any:
    tokens = getattr(action, "tokens", None)
    return action.card if tokens is None else tokens  # type: ignore[attr-defined]


def explain(view: View, budget: Budget = DEFAULT) -> Decision:
    """The expert's choice, a public reason (the move in public facts) and
    the full one (its scores, for headless output)."""
    board = view.board
    if board.phase == Phase.GRID:
        return Decision(Place(*grid_spot(view)), "front-most free place", "front-most free place")
    if board.phase == Phase.BREAKAWAY:  # the table hears nothing of a bid before its reveal
        return Decision(breakaway(view, eager=False), "", "")
    if not view.hands:
        return _draw(view, budget)
    options = candidates(view)
    actions = [o.action for o in options]
    if len(actions) == 1:
        return Decision(actions[0], public_reason(view, actions[0]), "no choice worth weighing")
    rng = Rng(seed_of(view))
    unseen = view.every_unseen()  # (the same for every world: worked out once)
    clock = Clock(budget)
    tallies = [Tally() for _ in actions]
    results: dict[int, list[float]] = {k: [] for k in range(len(actions))}  # utility per world
    alive = list(range(len(actions)))
    worlds = 0
    others = Others(board.round, view.seat)
    while len(alive) > 1 and (worlds < 2 or not clock.spent(len(alive))):
        world = view.sample(rng, unseen)
        world.narrated = False  # nobody reads a simulated race's events: not made
        future = rng.below(2**31)
        others.new_world(_policies(view, rng))
        values = {}
        for k in alive:
            game = world.clone(rng=Rng(future))
            game.apply(actions[k])
            others.race_on(game)
            others.learn(game)
            res, values[k] = value(game, view.seat)
            tallies[k].add(res, values[k])
        clock.used += len(alive)
        worlds += 1
        for k in alive:
            results[k].append(values[k])
        if worlds >= MIN_WORLDS:
            alive = _survivors(alive, results)
        if worlds >= SAME_WORLDS and len({tuple(results[k]) for k in alive}) == 1:
            break  # the same result in every world so far: as good as each other, the cheapest goes
    best = max(alive, key=lambda k: (tallies[k].mean, -k))
    ranked = sorted(range(len(actions)), key=lambda k: (tallies[k].n, tallies[k].mean, -k), reverse=True)
    second = next((k for k in ranked if k != best), best)
    b, s = tallies[best], tallies[second]
    full = (f"{what(actions[best])} scores {b.mean:.3f} over {b.n} sampled races (wins {b.wins})"
            f", next best {what(actions[second])}: {s.mean:.3f} over {s.n}"
            f"; {clock.used} rollouts, {len(actions)} candidates, {len(alive)} left")
    odds = tuple((actions[k], t.wins, t.n, t.margin / t.n if t.n else 0.0)
                 for k, t in ((best, b), (second, s)) if k == best or second != best)
    return Decision(actions[best], public_reason(view, actions[best]), full, odds)


def _survivors(alive: list[int], values: dict[int, list[float]]) -> list[int]:
    """The candidates not clearly behind the leader: paired differences over
    the worlds they all saw, out beyond PRUNE_Z standard errors."""
    n = min(len(values[k]) for k in alive)
    means = {k: sum(values[k][-n:]) / n for k in alive}
    leader = max(alive, key=lambda k: (means[k], -k))
    keep = []
    for k in alive:
        if k == leader:
            keep.append(k)
            continue
        d = [a - b for a, b in zip(values[k][-n:], values[leader][-n:])]
        mean = sum(d) / n
        var = sum([(x - mean) ** 2 for x in d]) / max(1, n - 1)  # a list: a generator costs twice as much
        se = math.sqrt(var / n)
        if mean + PRUNE_Z * se >= 0 and not (se == 0 and mean < 0):
            keep.append(k)
    return keep


def draw_budget(budget: Budget) -> Budget:
    """The budget the draw order is weighed on: the decision's, at most DRAW_SECONDS (DRAW_ROLLOUTS)."""
    rollouts = None if budget.rollouts is None else min(budget.rollouts, DRAW_ROLLOUTS)
    return Budget(min(budget.seconds, DRAW_SECONDS), rollouts)


def _draw(view: View, budget: Budget) -> Decision:
    """Which rider draws first: each choice weighed by its best answers."""
    draws = [o.action for o in view.options()]
    if len(draws) == 1:
        return Decision(draws[0], f"{drawer_name(view, draws[0])} draws", "one rider to draw")
    draws.sort(key=lambda a: drawer_name(view, a) != "the Rouleur")  # ties: the Rouleur first, as medium does
    rng = Rng(seed_of(view))
    unseen = view.every_unseen()  # (the same for every world: worked out once)
    clock = Clock(draw_budget(budget))
    values = [0.0] * len(draws)
    worlds = 0
    counter = [0]
    while worlds < 2 or not clock.spent():
        world = view.sample(rng, unseen)
        world.narrated = False  # nobody reads a simulated race's events: not made
        future = rng.below(2**31)
        policies = _policies(view, rng)
        for k, action in enumerate(draws):
            game = world.clone(rng=Rng(future))
            game.apply(action)
            values[k] += respond(game, view.seat, policies, future, counter, lambda g, s: value(g, s)[1])
        clock.used = counter[0]
        worlds += 1
    best = max(range(len(draws)), key=lambda k: (values[k], -k))
    full = " vs ".join(f"{drawer_name(view, a)} first {values[k] / worlds:.3f}" for k, a in enumerate(draws))
    return Decision(draws[best], f"{drawer_name(view, draws[best])} draws first",
                    f"best answers over {worlds} sampled worlds ({counter[0]} rollouts): {full}")


def public_reason(view: View, action: Action) -> str:
    """One line of public facts: the card(s) played and what the move does,
    from the engine's preview on the public board (every other rider still)."""
    rider = next(r for r in view.board.riders if r.id == action.rider)
    choice: Choice
    if isinstance(action, PlayTokens):
        choice = action.tokens
    elif isinstance(action, (Play, Bid)):
        choice = action.card
    else:
        raise ValueError(f"{action} plays no card")
    preview = view.preview(rider.index, choice)
    course = view.board.course
    words = f"plays {what(action)}"
    if preview.square >= course.finish:
        return f"{words}: over the line"
    where = "in the wind at the front of its group" if preview.front else "behind a rider, out of the wind"
    if preview.terrain == "climb":
        where += ", on a climb that caps the card"
    elif preview.blocked:
        where += ", held up by riders in the way"
    return f"{words}: lands {where} (if the others stood still)"
