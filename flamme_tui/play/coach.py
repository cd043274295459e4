"""The coach after a race: for each human seat, the three cards that cost it
the most against the expert bot's choice.

Every card a human seat played is looked at again from that seat's view at
that moment (`game.view(seat)`: the public table and its own hand, never
another seat's hand or a deck order).  The expert says what it would have
played there (`bots.expert.explain`, on a rollout budget: the same save
gives the same answer on any machine).  When that differs from the card
played, both plays are raced on in the same sampled worlds (`View.sample`:
every hidden card drawn from what the seat could deduce) with the same
future in each (common random numbers), so they are compared on the same
luck.  What a world tells:

- squares: where the rider stands once the round is resolved, the expert's
  card against the card played;
- exhaustion: exhaustion cards (BMX: fatigue tokens) the seat's riders took
  that round;
- win chance: the share of worlds the seat went on to win;
- cost: what the expert's own measure of a simulated race (win, place,
  margin: `bots.expert.value`) lost by the card played.

A tour's stage is measured as the bots measure it: by what the stage's
result is worth in the tour (`engine.tour.stage_value`: the Tour Points of
the stage and of the GC were it final, the GC times of the team's best
rider and of both riders), not by the stage win.  The coach says so, and
gives that measure (out of 100) where a race gives the win chance.

The three largest costs are a seat's lessons, each with a one-line reason
in public facts.  `hint` is the same judgement before a card is played:
what the expert would play now and why, from the seat's view only.

Everything here reads views; the game is only replayed to reach the moment
of each decision.  This module must not import Textual.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from .. import words
from ..bots.budget import Budget
from ..bots.expert import MIX, OWN, explain, value
from ..bots.rollout import Rollout, play_to_end
from ..bots.search import seed_of
from ..engine.actions import Action, Play, PlayTokens
from ..engine.events import Exhaustion, Fatigue
from ..engine.phase import Phase
from ..engine.rng import Rng
from ..engine.rules import find
from ..engine.turns import next_seat
from ..engine.view import View
from .narrator import coach_figures, coach_heading, coach_reason, kind_name, label, played_text, team_name
from .races import new_game
from .session import effective

ROLLOUTS = 200  # the coach's default budget per decision: the expert's choice, then as many to compare
MIN_WORLDS = 8  # sampled worlds a comparison is made on, at the least
TOP = 3  # lessons per seat
BUDGET = Budget(rollouts=ROLLOUTS)
SALT = 0x5EED  # the comparison's worlds are not the ones the expert chose on (an honest second look)


@dataclass(frozen=True, slots=True)
class Verdict:
    """One card looked at again: the card played against the expert's."""

    seat: int
    round: int
    rider: int  # rider index
    rider_name: str  # "Red Rouleur"
    square: str  # where the rider stood when choosing ("12", "G2")
    played: str  # the card as written: "3", "E", "3+F"
    best: str
    worlds: int  # sampled worlds the two plays were compared in (0: the card played was the expert's)
    cost: float  # the expert's measure lost by the card played (mean over the worlds)
    squares: float  # squares the rider ended the round behind the expert's card (mean)
    exhaustion: float  # exhaustion cards (fatigue tokens) more than with the expert's card (mean)
    win_played: float  # win chance with the card played
    win_best: float  # ... with the expert's card
    # why the expert's card is better, as data (the words are the narrator's, when shown):
    # "same" (it is the card played), "tired", "further", "keeps", "keeps_less" or "better"
    why: str
    public: str  # the expert's own public facts about its card ("lands ..."), "" if none
    at: int  # actions in force before this decision (where a replay of it starts)
    tired: str = "exhaustion"  # what a tired rider takes: "exhaustion" (cards) or "fatigue" (BMX tokens)
    kind: str = ""  # the rider's kind ("S", "R"; "" in BMX): its name is said in the player's language
    team: str = ""  # its team's name
    # a tour's stage: the expert's measure of the stage in the tour (engine.tour.stage_value, 0 to 1), mean
    # over the worlds, with the card played and with the expert's: what the coach says instead of the win chance
    tour: bool = False
    worth_played: float = 0.0
    worth_best: float = 0.0

    @property
    def reason(self) -> str:
        """One line, public facts only: what the expert's card does better."""
        return coach_reason(self)

    def figures(self) -> str:
        """ "Yours: 2.3 squares shorter, +0.5 exhaustion; won 31% of 100 sampled races, the expert's card 45%"."""
        return coach_figures(self)

    def heading(self) -> str:
        """ "Round 5, Red Rouleur on 12: you played 3, the expert 7"."""
        return coach_heading(self)


def _model(view: View, rng: Rng) -> list[Rollout]:
    """Each seat's play in one world, as the expert models them: its own riders
    `OWN`, every other seat a policy of `MIX` drawn at random."""
    out: list[Rollout] = []
    for seat in range(len(view.board.setup.teams)):
        if seat == view.seat:
            out.append(OWN)
            continue
        x = rng.random()
        chosen = MIX[-1][0]
        for policy, weight in MIX:
            if x < weight:
                chosen = policy
                break
            x -= weight
        out.append(chosen)
    return out


def _round_out(game: Any, seat: int, policies: list[Rollout]) -> int:
    """Play the round in progress to its end; the exhaustion cards (fatigue
    tokens) the seat's riders took in it, from the round's events."""
    done = game.rounds_done
    while game.phase != Phase.OVER and game.rounds_done == done:
        who = next_seat(game)
        assert who is not None
        game.apply(policies[who](game, who))
    if game.rounds_done == done:
        return 0
    mine = {i for i, r in enumerate(game.riders) if r.seat == seat}
    taken = 0
    for e in game.events:
        if type(e) is Exhaustion and e.rider in mine:
            taken += 1
        elif type(e) is Fatigue and e.rider in mine:
            taken += e.tokens
    return taken


def _pieces(action: Action) -> Any:
    return action.tokens if isinstance(action, PlayTokens) else getattr(action, "card", None)


def _spent(action: Action) -> int:
    pieces = _pieces(action)
    if isinstance(pieces, tuple):
        return sum(pieces)
    return int(pieces or 0)


def worlds_for(budget: Budget) -> int:
    """Worlds the two plays are compared in: the rollout budget again (two plays a world)."""
    rollouts = budget.rollouts if budget.rollouts is not None else ROLLOUTS
    return max(MIN_WORLDS, rollouts // 2)


def compare(view: View, played: Action, best: Action, worlds: int) -> tuple[float, float, float, float, float,
                                                                           float, float]:
    """(cost, squares behind, exhaustion more, win chance played, win chance best,
    the expert's measure played, ... best) of `played` against `best`, over
    `worlds` worlds sampled from the view."""
    rng = Rng(seed_of(view) ^ SALT)
    unseen = view.every_unseen()  # (the same for every world: worked out once)
    i = next(r.index for r in view.board.riders if r.id == played.rider)
    seat = view.seat
    cost = squares = tired = 0.0
    wins = [0, 0]
    worths = [0.0, 0.0]
    for _ in range(worlds):
        world = view.sample(rng, unseen)
        future = rng.below(2**31)
        policies = _model(view, rng)
        got = []
        for k, action in enumerate((played, best)):
            game = world.clone(rng=Rng(future))
            game.apply(action)
            taken = _round_out(game, seat, policies)
            where = game.pos[i][0]
            play_to_end(game, policies)
            res, worth = value(game, seat)
            wins[k] += res[0]
            worths[k] += worth
            got.append((worth, where, taken))
        cost += got[1][0] - got[0][0]
        squares += got[1][1] - got[0][1]
        tired += got[0][2] - got[1][2]
    n = float(worlds)
    return cost / n, squares / n, tired / n, wins[0] / n, wins[1] / n, worths[0] / n, worths[1] / n


def _why(squares: float, tired: float, saved: bool) -> str:
    """What the expert's card does better, as data (narrator.coach_reason says it)."""
    if tired >= 0.25:
        return "tired"
    if squares >= 0.5:
        return "further"
    if saved:
        return "keeps" if squares > -0.5 else "keeps_less"
    return "better"


def judge(view: View, played: Action, budget: Budget, at: int = 0) -> Verdict:
    """The card `played` from `view` against the expert's choice there: from the view only."""
    board = view.board
    decision = explain(view, budget)
    best = decision.action
    i = next(r.index for r in board.riders if r.id == played.rider)
    rider = board.riders[i]
    name = team_name(board, rider.seat) if board.rules.uses_tokens else \
        f"{team_name(board, rider.seat)} {kind_name(rider.kind)}"
    mine, theirs = played_text(board, _pieces(played)), played_text(board, _pieces(best))
    common = dict(seat=view.seat, round=board.round, rider=i, rider_name=name,
                  square=label(board.course, rider.square), played=mine, best=theirs, at=at,
                  tired="fatigue" if board.rules.uses_tokens else "exhaustion",
                  kind="" if board.rules.uses_tokens else rider.kind, team=team_name(board, rider.seat),
                  tour=bool(getattr(board.setup, "tour", False)))
    if best == played:
        return Verdict(worlds=0, cost=0.0, squares=0.0, exhaustion=0.0, win_played=0.0, win_best=0.0,
                       why="same", public="", **common)  # type: ignore[arg-type]
    worlds = worlds_for(budget)
    cost, squares, tired, win_played, win_best, worth_played, worth_best = compare(view, played, best, worlds)
    why = _why(squares, tired, _spent(best) < _spent(played))
    return Verdict(worlds=worlds, cost=cost, squares=squares, exhaustion=tired, win_played=win_played,
                   win_best=win_best, why=why, public=decision.public, worth_played=worth_played,
                   worth_best=worth_best, **common)  # type: ignore[arg-type]


def decisions(setup: Any, seed: int, entries: Iterable[Any], seats: set[int]) -> list[tuple[int, View, Action]]:
    """(actions before it, the seat's view then, the card played) for every card
    a seat of `seats` chose in the race's log (undone picks left out)."""
    game = new_game(setup, seed)
    out: list[tuple[int, View, Action]] = []
    for n, action in enumerate(effective(entries)):
        if isinstance(action, (Play, PlayTokens)) and game.phase == Phase.ENERGY:
            seat = game.riders[game.index[action.rider]].seat
            if seat in seats:
                out.append((n, game.view(seat), action))
        game.apply(action)
    return out


def humans(setup: Any, seed: int, bots: dict[int, str]) -> list[int]:
    """The seats people played: not a bot's, not a scripted team's."""
    game = new_game(setup, seed)
    return [s for s in range(len(setup.teams)) if s not in bots and not game.script[s]]


@dataclass(frozen=True, slots=True)
class Lessons:
    """A seat's lessons: its costliest cards, worst first."""

    seat: int
    name: str
    looked_at: int  # cards looked at again
    same: int  # ... of which the expert would have played the same
    verdicts: tuple[Verdict, ...]
    tokens: bool = False  # BMX: plays of tokens, not cards (said so)
    tour: bool = False  # a tour's stage: judged by its worth in the tour, not by the stage win (said so)


Progress = Callable[[int, int], None]  # (cards looked at so far, of how many)


def coach(setup: Any, seed: int, entries: Iterable[Any], seats: Iterable[int], budget: Budget = BUDGET,
          top: int = TOP, progress: Progress | None = None) -> list[Lessons]:
    """Each seat's `top` costliest cards in the race (see the module's doc)."""
    seats = sorted(set(seats))
    points = decisions(setup, seed, entries, set(seats))
    verdicts = []
    for k, (at, view, action) in enumerate(points):
        if progress is not None:
            progress(k, len(points))
        verdicts.append(judge(view, action, budget, at))
    if progress is not None:
        progress(len(points), len(points))
    return lessons_of(setup, seats, verdicts, top)


def lessons_of(setup: Any, seats: Iterable[int], verdicts: Iterable[Verdict], top: int = TOP) -> list[Lessons]:
    """The seats' lessons from their cards' verdicts (in the race's order)."""
    judged: dict[int, list[Verdict]] = {s: [] for s in sorted(set(seats))}
    for verdict in verdicts:
        judged[verdict.seat].append(verdict)
    out = []
    for s, mine in judged.items():
        worst = sorted((v for v in mine if v.worlds and v.cost > 0), key=lambda v: (-v.cost, v.at))[:top]
        same = sum(1 for v in mine if not v.worlds)
        out.append(Lessons(s, words.team_name(setup, s), len(mine), same, tuple(worst), find(setup.variant).uses_tokens,
                           bool(getattr(setup, "tour", False))))
    return out


def report_lines(lessons: list[Lessons]) -> list[str]:
    """The coach's words, for the command line (the narrator's: coach_report)."""
    from .narrator import coach_report

    return coach_report(lessons)


def hint(view: View, budget: Budget) -> str:
    """What the expert would play now and why, from the seat's view only (one line)."""
    decision = explain(view, budget)
    board = view.board
    action = decision.action
    from ..i18n import _
    from .narrator import move_words, reason_words

    if not isinstance(action, (Play, PlayTokens)):  # which rider draws first, a place on the grid
        return _("The expert: {what}.").format(what=reason_words(decision.public) if decision.public else action)
    rider = next(r for r in board.riders if r.id == action.rider)
    card = played_text(board, _pieces(action))
    said = decision.public.split(": ", 1)[-1]  # "plays 7: lands ...": the card is said once
    why = move_words(said) or said
    if board.rules.uses_tokens:
        text = _("The expert would play {card}: {why}").format(card=card, why=why)
    else:
        text = _("The expert would play {card} with the {kind}: {why}").format(card=card, kind=kind_name(rider.kind),
                                                                                why=why)
    return text + odds_words(board, decision.odds)


def odds_words(board: Any, odds: tuple[tuple[Any, int, int, float], ...]) -> str:
    """Why the expert prefers its card, in its simulated races (where it lands says what
    happens this round only: "lands in the wind" alone read as a reason to play it): the
    wins, and the squares ahead or behind at the end, which decide when the wins are close."""
    from ..i18n import _, integer, percent

    if len(odds) < 2 or not all(n for _a, _w, n, _m in odds):
        return ""

    (_best, won, n, margin), (other, other_won, m, other_margin) = odds
    return "\n" + _("Its simulated races: won {won} of {n}, on average {gap} at the end; the {other}, next best: "
                     "{other_won}, {other_gap}.").format(
        won=percent(won / n, 0), n=integer(n), gap=gap_words(margin), other=played_text(board, _pieces(other)),
        other_won=percent(other_won / m, 0), other_gap=gap_words(other_margin))


def gap_words(margin: float) -> str:
    """Squares ahead of the best other rider (behind: negative), in words."""
    from ..i18n import _, decimal

    if abs(margin) < 0.05:
        return _("level")
    return (_("{n} squares ahead") if margin > 0 else _("{n} squares behind")).format(n=decimal(abs(margin)))


# ------------------------------------------------ for the app's thinking process

def _game_at(setup_text: str, seed: int, actions: tuple[str, ...]) -> tuple[Any, Any]:
    from ..setupdata import setup_from_json

    setup = setup_from_json(setup_text)
    game = new_game(setup, seed)
    for action in actions:
        game.apply(action)
    return setup, game


def hint_job(setup_text: str, seed: int, actions: tuple[str, ...], seat: int, seconds: float,
             rollouts: int | None, language: str = "en") -> str:
    """`hint` as plain data in, plain text out (play.thinker.Thinker.call): the race
    is replayed to its position and the hint is given the seat's view, nothing else;
    told in `language` (the thinking process is another interpreter: the app's
    language is not its own)."""
    from ..i18n import set_language

    set_language(language)
    _, game = _game_at(setup_text, seed, actions)
    return hint(game.view(seat), Budget(seconds, rollouts))


def coach_job(setup_text: str, seed: int, entries: tuple[str, ...], seats: tuple[int, ...],
              rollouts: int, start: int = 0, stop: int | None = None,
              language: str = "en") -> tuple[int, list[Verdict]]:
    """The verdicts on the cards `start` to `stop` of the seats' cards (all by default), with
    how many cards there are, as plain data in (play.thinker.Thinker.call): the log's entries
    as text, undos included.  The coach's screen asks a few cards at a time, so that it can
    say how far it has got (`lessons_of` makes the lessons of them all).  The verdicts name
    the riders in `language` (as hint_job: the thinking process has a language of its own;
    the coach said "Sprinteur Blue" in Spanish)."""
    from ..i18n import set_language

    set_language(language)
    points = _replayed(setup_text, seed, entries, seats)
    budget = Budget(rollouts=rollouts)
    return len(points), [judge(view, action, budget, at) for at, view, action in points[start:stop]]


# the race coach_job last replayed: (the race as it was asked, its decisions)
_last: list[tuple[tuple[str, int, tuple[str, ...], tuple[int, ...]], list[tuple[int, View, Action]]]] = []


def _replayed(setup_text: str, seed: int, entries: tuple[str, ...],
              seats: tuple[int, ...]) -> list[tuple[int, View, Action]]:
    """The race's `decisions`, replayed once a race: the coach's screen asks a few cards
    a call, and replaying the whole race for each call made its cost grow with the
    square of the race's length.  The last race's are kept (its views, taken as each
    card was chosen, are judged and never changed)."""
    from ..setupdata import setup_from_json
    from .session import parse_entry

    race = (setup_text, seed, entries, seats)
    if not _last or _last[0][0] != race:
        setup = setup_from_json(setup_text)
        _last[:] = [(race, decisions(setup, seed, [parse_entry(e) for e in entries], set(seats)))]
    return _last[0][1]


def replay_frame(titles: list[str], round: int, stage: int | None = None) -> int:
    """The frame of a replay (play.replay.frames, by title) a card of `round` was
    chosen in: the one before the round's reveal (0 if no frame reveals it).  In a
    tour's replay (stage by stage), the round of stage `stage` (1-based)."""
    from .narrator import replay_says

    wanted = {replay_says("round", n=round), replay_says("round finish", n=round)}
    if stage is not None:
        wanted = {replay_says("stage", k=stage, title=title) for title in wanted}
    return max(0, next((k for k, title in enumerate(titles) if title in wanted), 0) - 1)


__all__ = ["ROLLOUTS", "Lessons", "Verdict", "coach", "compare", "decisions", "hint", "humans", "judge",
           "lessons_of", "replay_frame", "report_lines"]
