"""The tutorial's race: a lesson (play/lessons.py) played by the player's
keys, its opponents played by their script, and each reveal explained.

`Tutorial(entry)` builds the race from the lesson (stage, seed, the
player's team in seat 0, the scripted teams after it).  The player acts
first in every round (seat order); each `choose` then plays the scripted
teams until the player is due again, so the round is resolved by the time
the player looks again.  `report` says, for the round just revealed, what
each of the player's riders did and why, from the engine's typed events
(Move, Slipstream, Exhaustion, Finish), then the step's check.

Progress is the log of the player's actions (the race is the lesson's
set-up, its seed and these actions; the scripted teams follow from them):
flamme_tui/lessonprogress.py keeps it between visits.  No Textual here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .. import words
from ..engine.actions import Action, Bid, Draw, Play, PlayTokens
from ..engine.cards import ROULEUR, SPRINTEUR, card_text
from ..engine.course import HEADWIND, TAILWIND, WET
from ..engine.events import Breakaway, CatchUp, Crash, Die, Exhaustion, Fatigue, Finish, Move, Slipstream
from ..engine.options import Option
from ..engine.phase import Phase
from ..engine.race import Team
from ..engine.rules import find
from ..engine.terrain import ASCENT, COBBLE, DESCENT, SUPPLY
from ..i18n import _
from .lessons import Entry, Lesson, Opponent, Step, stage_ref, team_name
from .narrator import kind_name, lane_word, lesson_events, played_text, where
from .races import RaceSpec
from .session import Session

PLAYER = 0  # the player's seat: first, so it acts first in every round
MAX_STEPS = 2  # steps taught in one round, at most (a short race: two ideas may fall due at once)


class Tutorial:
    def __init__(self, entry: Entry, actions: Sequence[str] = ()) -> None:
        lesson = entry.lesson
        assert lesson is not None
        self.entry = entry
        self.lesson: Lesson = lesson
        # the teams' names in the player's language (the lesson's file may give them: "Rouge")
        teams = [Team(team_name(lesson.player), lesson.player.colour)]
        teams += [Team(o.said("name"), o.colour) for o in lesson.opponents]
        if find(lesson.rules).uses_tokens:  # BMX: one rider a seat, on a circuit
            teams = [Team(t.name, t.colour, "S") for t in teams]
            spec = RaceSpec(variant=lesson.rules, circuit=lesson.stage, teams=tuple(teams))
        else:
            spec = RaceSpec(variant=lesson.rules, stage=stage_ref(entry.path, lesson.stage), teams=tuple(teams),
                            breakaway=lesson.breakaway)
        self.session = Session.new(spec, lesson.seed)
        # round -> the reveal in words, and the check (0: the breakaway's bids, before round 1)
        self.reports: dict[int, list[str]] = {}
        self.steps: dict[int, tuple[int, ...]] = {}  # round (0: the breakaway) -> the indexes of the steps it taught
        # (round, step index) whose check did not apply that round: the step comes again
        self.retry: set[tuple[int, int]] = set()
        self.mine: list[Action] = []  # the player's actions of the round in progress
        self._hands: dict[str, tuple[int, ...]] = {}  # rider id -> the hand its card this round came from
        # round -> whether a card (tokens) the player could play took a rider of its over the line
        self._line_in_reach: dict[int, bool] = {}
        self._opponents()
        for text in actions:
            self.choose(Action.parse(text), replaying=True)

    # ------------------------------------------------------------ the race

    @property
    def game(self) -> Any:
        return self.session.game

    @property
    def over(self) -> bool:
        return self.session.over

    def view(self) -> Any:
        return self.game.view(PLAYER)

    @property
    def in_breakaway(self) -> bool:
        return self.game.phase == Phase.BREAKAWAY

    def moment(self) -> int:
        """The round being played; 0 during the breakaway's bids (before round 1)."""
        return 0 if self.in_breakaway else int(self.game.round)

    def kind(self) -> str:
        """What the player does now: "draw" (which rider draws first), "pick", in the
        breakaway "bidder" (which rider bids) and "bid", or "over"."""
        if self.over:
            return "over"
        if self.in_breakaway:
            return "bid" if self.view().hands else "bidder"
        return "pick" if self.view().hands else "draw"

    def options(self) -> list[Option]:
        return [] if self.over else self.view().options()

    def rider_of(self, action: Action) -> Any:
        return next(r for r in self.view().board.riders if r.id == action.rider)

    def round_steps(self) -> list[Step]:
        """The steps of the round being played (none: a round the lesson leaves to the
        player): the steps not taught yet whose round (or place) this is, at most
        MAX_STEPS: the first round's own step first (it starts the race), then places
        on the track (the climb is taught on the climb: it will not wait), then the
        rounds' ideas, that can wait."""
        round_ = self.moment()
        if round_ not in self.steps:
            taught = {(r, k) for r, ks in self.steps.items() for k in ks}
            done = {k for r, k in taught if (r, k) not in self.retry}
            steps = self.lesson.steps
            due = [k for k, s in enumerate(steps) if k not in done and self._due(s)]
            due.sort(key=lambda k: (steps[k].round != 1 or round_ != 1, steps[k].at is None, k))
            self.steps[round_] = tuple(due[:MAX_STEPS])
        return [self.lesson.steps[k] for k in self.steps[round_]]

    def step(self) -> Step | None:
        """The first step of the round being played (None: none)."""
        steps = self.round_steps()
        return steps[0] if steps else None

    def _due(self, step: Step) -> bool:
        if self.in_breakaway or step.at == "breakaway":  # the bids teach the breakaway, and nothing else
            return self.in_breakaway and step.at == "breakaway"
        if step.round is not None:
            return step.round <= self.game.round
        course, game = self.game.course, self.game
        ahead = [game.pos[i][0] for i, r in enumerate(game.riders) if r.seat == PLAYER and game.pos[i][0] >= 0]
        if step.at == "climb":
            return any("^" in course.terrain[sq + 1:sq + 10] for sq in ahead)
        if step.at == "descent":
            return any("v" in course.terrain[sq:sq + 7] for sq in ahead)
        if step.at in ("wet", "wind"):
            weather = course.weather or ()
            if step.at == "wind":
                return any(sq < len(weather) and weather[sq] in (TAILWIND, HEADWIND) for sq in ahead)
            return any(WET in weather[sq + 1:sq + 10] for sq in ahead)
        if step.at == "supply":
            return any(SUPPLY in course.terrain[sq + 1:sq + 10] for sq in ahead)
        if step.at == "cobbles":
            return any(COBBLE in course.terrain[sq + 1:sq + 10] for sq in ahead)
        return any(course.finish - sq <= 9 for sq in ahead)  # "finish"

    def choose(self, action: Action, replaying: bool = False) -> None:
        """The player's action (ValueError if it is not on offer); the scripted teams then play."""
        if self.session.due() != PLAYER or action not in [o.action for o in self.options()]:
            raise ValueError(f"not on offer now: {action}")
        round_ = self.moment()
        done = self.game.rounds_done
        bid = getattr(self.game, "bid_round", 0)  # (BMX has no breakaway)
        self.round_steps()  # (fixed at the round's first choice, as the player saw them)
        if isinstance(action, Play):  # the hand it came from (said after the reveal, `recycled`)
            self._hands[action.rider] = self.view().hands[self.game.index[action.rider]]
        if isinstance(action, (Play, PlayTokens)):  # the sprint's check blames no card that could not cross
            finish = self.game.course.finish
            reach = any(o.preview is not None and o.preview.start + o.preview.moves >= finish for o in self.options())
            self._line_in_reach[round_] = self._line_in_reach.get(round_, False) or reach
        self.session.apply(action)
        self.mine.append(action)
        self._opponents()
        if round_ == 0 and (not self.in_breakaway or getattr(self.game, "bid_round", 0) != bid):
            # a bid revealed (and after the last, who broke away): told as it comes, the check first once it is made
            verdicts, lines = self._report(self.mine, 0)
            self.reports[0] = verdicts + self.reports.get(0, []) + lines
            self.mine = []
        elif self.game.rounds_done > done or self.over:
            verdicts, lines = self._report(self.mine, round_)
            self.reports[round_] = verdicts + lines
            self.mine = []

    def _opponents(self) -> None:
        """The scripted teams, until the player is due (or the race is over)."""
        game = self.game
        while not self.over and (seat := self.session.due()) != PLAYER:
            assert seat is not None
            self.session.apply(scripted(game.view(seat), self.lesson.opponents[seat - 1]))

    # ------------------------------------------------------------ words

    def kind_of(self, i: int) -> str:
        """ "Sprinteur", "Rouleur"; "rider" in BMX (one a seat)."""
        return kind_name(getattr(self.game.riders[i], "kind", ""))

    def name(self, i: int) -> str:
        return _("your {kind}").format(kind=self.kind_of(i))

    def Name(self, i: int) -> str:  # noqa: N802 - the same, at the start of a sentence
        return _("Your {kind}").format(kind=self.kind_of(i))

    def other_name(self, i: int) -> str:
        """Another team's rider: "Red Rouleur" (the team alone in BMX)."""
        team = words.team_name(self.game.setup, self.game.riders[i].seat)
        return team if self.game.rules.uses_tokens else _("{team} {kind}").format(team=team, kind=self.kind_of(i))

    def _report(self, mine: list[Action], round_: int) -> tuple[list[str], list[str]]:
        """The step's check (well done, or next time: shown first, as after a round of many moves it
        was below a small window's fold), and the round just revealed, in words, from its events."""
        game = self.game
        ours = {i for i, r in enumerate(game.riders) if r.seat == PLAYER}
        lines = lesson_events(game, ours, self.Name, self.other_name)
        if round_ == 0 and self.in_breakaway:
            return [], lines  # a first bid: the check waits for the last
        others = [] if round_ == 0 else [
            _("{rider} {card}").format(rider=self.other_name(i), card=played_text(game, r.history[-1]))
            for i, r in enumerate(game.riders) if i not in ours and r.history]
        if others:
            lines.append(_("The others played: {cards}.").format(cards=_(", ").join(others)))
        steps = [(k, self.lesson.steps[k]) for k in self.steps.get(round_, ())]
        if any(step.recycled for _k, step in steps):
            # the draw came first: what was kept and what went under the deck, before the moves
            kept = []
            for a in mine:
                if isinstance(a, Play) and a.rider in self._hands:
                    rest = list(self._hands[a.rider])
                    rest.remove(a.card)
                    kept.append(_("{rider} kept its {card}; {rest} went face up under its deck.").format(
                        rider=self.Name(game.index[a.rider]), card=card_text(a.card),
                        rest=" ".join(card_text(c) for c in rest)))
            lines[:0] = kept
        verdicts = []
        for k, step in steps:
            if step.check is None:
                continue
            passed = checked(step.check, game, ours, mine, step.at, self._line_in_reach.get(round_, False))
            if passed is None:  # the round never came to the step's place: it is taught again
                self.retry.add((round_, k))
                continue
            said = step.said("passed" if passed else "missed")
            if said:
                verdicts.append((_("Well done: {said}") if passed else _("Next time: {said}")).format(said=said))
        return verdicts, lines

    def board_lines(self) -> list[str]:
        """Where each rider stands, front first, the player's riders marked."""
        game = self.game
        out = []
        for i in game.ranking():
            r = game.riders[i]
            mark = "▸" if r.seat == PLAYER else " "
            out.append(mark + _("{rider}: {where}").format(rider=self.other_name(i),
                                                           where=where(game.course, game.pos[i][0])))
        return out

    def outcome_line(self) -> str:
        game = self.game
        winner = game.winner if game.winner is not None else game.ranking()[0]
        place = game.outcome().place_of(PLAYER)
        who = self.Name(winner) if game.riders[winner].seat == PLAYER else self.other_name(winner)
        line = _("{who} won. Your team finished {place} of {n}.").format(who=who, place=words.ordinal(place),
                                                                          n=len(game.seats))
        square = game.pos[winner][0]
        if any(game.pos[i][0] == square for i in range(len(game.riders)) if i != winner):
            # a tie on the furthest square: the rule that settled it (RULES.md, end of race)
            line += " " + _("Two riders on the furthest square: the one in the {lane} wins.").format(
                lane=lane_word(game.variant, 0))
        return line

    # ------------------------------------------------------------ progress

    def actions_text(self) -> list[str]:
        """The player's actions so far (the scripted teams' follow from them)."""
        game = self.game
        return [str(a) for a in game.actions if game.riders[game.index[a.rider]].seat == PLAYER]


def scripted(view: Any, opponent: Opponent) -> Action:
    """A scripted team's action from its view: the Rouleur draws first (and bids in
    the breakaway); a rider plays (bids) the first card its round's list (its `bids`)
    names that it holds, else its lowest."""
    options = [o.action for o in view.options()]
    if not view.hands:
        riders = {a.rider: a for a in options if isinstance(a, Draw)}
        kinds = {r.id: r.kind for r in view.board.riders}
        return next((a for rid, a in riders.items() if kinds[rid] == ROULEUR), options[0])
    bids = {a.card: a for a in options if isinstance(a, Bid)}
    if bids:  # the breakaway: the first card of its list it holds, else its lowest
        return next((bids[c] for c in opponent.bids if c in bids), bids[min(bids, key=lambda c: (c != 0, c))])
    plays = [a for a in options if isinstance(a, Play)]
    if not plays:
        return options[0]
    rider = next(r for r in view.board.riders if r.id == plays[0].rider)
    wanted: tuple[int, ...] = ()
    if 0 < view.board.round <= len(opponent.rounds):
        wanted = opponent.rounds[view.board.round - 1].get("S" if rider.kind == SPRINTEUR else "R", ())
    held = {a.card: a for a in plays}
    for card in wanted:
        if card in held:
            return held[card]
    return min(plays, key=lambda a: (a.card != 0, a.card))  # an exhaustion card first: it is worth least


def checked(check: str, game: Any, ours: set[int], mine: list[Action], at: str | None = None,
            line_in_reach: bool = True) -> bool | None:
    """Whether the player did what a step asked (lessons.CHECKS), from the round's events and
    actions; None when the round never came to the step's situation, so that nothing the player
    did could pass or miss it (no move of the player's from a descent or a supply square, nor on
    or onto a climb; none on or across the cobbles for a step `at` them, nor onto or across a wet
    square for no_crash; a die that let nobody catch up; the finish line out of reach of every
    card the player could play, `line_in_reach`): the step is taught again."""
    events = game.events
    moves = [e for e in events if type(e) is Move and e.rider in ours]
    terrain = game.course.terrain
    starts = {terrain[e.start] for e in moves}
    if check == "descent_gained" and DESCENT not in starts or check == "supply_gained" and SUPPLY not in starts:
        return None
    if at == "cobbles":  # blocked on the cobbles: only the moves that went onto them count
        moves = [e for e in moves if COBBLE in terrain[e.start + 1:e.start + e.moves + 1]]
        if not moves:
            return None
    weather = game.course.weather or ()
    if check == "no_crash" and not any(WET in weather[e.start:e.start + e.moves + 1] for e in moves):
        return None
    if check == "catch_up" and not any(type(e) is Die and e.face for e in events):
        return None  # the die showed nothing: nobody could catch up
    if check == "no_card_wasted_on_climb" and not any(
            e.moves < e.value or ASCENT in (terrain[e.start], terrain[e.square]) for e in moves):
        return None
    if check == "draw_rouleur_first":
        first = next((a for a in mine if isinstance(a, Draw)), None)
        return first is not None and getattr(game.riders[game.index[first.rider]], "kind", "") == ROULEUR
    if check == "no_exhaustion":
        return not any(type(e) in (Exhaustion, Fatigue) and e.rider in ours for e in events)
    if check == "slipstream":
        return any(type(e) is Slipstream and e.rider in ours for e in events)
    if check == "not_blocked":
        return not any(e.blocked for e in moves)
    if check == "no_card_wasted_on_climb":
        return not any(e.moves < e.value for e in moves)
    if check == "descent_gained":
        return any(e.moves > e.value and game.course.terrain[e.start] == DESCENT for e in moves)
    if check == "catch_up":
        return any(type(e) is CatchUp and e.rider in ours for e in events)
    if check == "no_crash":
        return not any(type(e) is Crash and e.rider in ours for e in events)
    if check == "supply_gained":
        return any(e.moves > e.value and game.course.terrain[e.start] == SUPPLY for e in moves)
    if check == "broke_away":
        result = next((e for e in events if type(e) is Breakaway), None)
        return None if result is None else any(i in ours for i in result.winners)
    if check == "finish":
        crossed = any(type(e) is Finish and e.rider in ours for e in events) or (
            game.phase == Phase.OVER and game.riders[game.winner].seat == PLAYER)
        return True if crossed else None if not line_in_reach else False
    raise ValueError(f"unknown check {check!r}")


__all__ = ["PLAYER", "Tutorial", "checked", "scripted"]
