"""The hot-seat flow of a race: what the screen shows now, and the round replayed step by step.

`RaceFlow.current()` asks the session whose turn it is and says what
happens now: a bot is due (the screen lets it think in a worker: `bot_move`,
then `play_bot_move` with its answer; `play_bots` does both at once), a
human must act (place a rider, pass the curtain, choose the rider that
draws first, pick a card; in the Peloton breakaway choose the rider that
bids and its bid), a seat reviews its cards before passing, revealed bids
wait to be read, or a resolved round waits to be shown.  It plays
nothing itself.  A choice with one answer is no question: the flow makes it
as soon as the seat is at the screen (`_draw_alone`), so `current()` never
asks it.

The review: a human seat's last pick of the round is played at once (the
engine may resolve the round with it), then the seat reviews its cards
before anything follows (no bot, curtain or reveal): `pass_review` goes
on, `take_back` undoes the pick (Session.undo: an `undo` entry in the log)
and puts the flow back as it was before it, at that pick again.  `build_frames` turns the engine's events of the last round
into frames the track can show one by one.  No Textual here: the flow is
tested directly too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .. import i18n
from ..engine.actions import Action, Bid, Draw, Place, Play, PlayTokens
from ..engine.events import Event, Exhaustion, Fatigue, Move, Reveal
from ..engine.phase import Phase
from ..engine.tour import GcLine
from ..i18n import _
from ..words import bot_level, team_name
from .narrator import (
    Bidder,
    BidDown,
    BotChose,
    BreakawayStarts,
    Changed,
    DrawsFirst,
    Heading,
    HintTaken,
    Jersey,
    Note,
    Placed,
    Reason,
    RoundStarts,
    Told,
    WeatherKey,
    note_line,
    played_text,
    rules_title,
    weather_kinds,
)
from .session import BotMove, Session, UndoRefused


@dataclass(frozen=True, slots=True)
class Turn:
    # "bot" (a bot is due: it thinks), "place", "curtain", "draw", "pick", "reveal", "over";
    # "review" (a seat checks its cards, its last pick played: it passes, or takes the pick back);
    # the breakaway: "bidder" (which rider bids), "bid" (its card), "bids" (revealed bids to read)
    kind: str
    seat: int | None = None
    rider: int | None = None


@dataclass(frozen=True, slots=True)
class Frame:
    """One step of a resolved round, as the track shows it."""

    kind: str  # reveal, move, slip, exhaust, die, catchup, fatigue, finish
    pos: tuple[tuple[int, int], ...]
    crashed: tuple[bool, ...]
    active: tuple[int, ...] = ()  # riders this step is about
    notes: tuple[Note, ...] = ()  # the race log for this step (play.narrator tells it)
    trail: tuple[int, int] | None = None  # squares (from, to) of a move
    die: int | None = None
    marks: tuple[int, ...] = ()  # squares to mark (exhaustion, fatigue)
    tally: Tally | None = None  # what the boards count once this step has happened


@dataclass(frozen=True, slots=True)
class Tally:
    """The boards' numbers at a step: per rider the exhaustion cards (bmx:
    fatigue tokens) received and (bmx) the tokens in the bag; the fatigue supply."""

    exhaustion: tuple[int, ...]
    bag: tuple[int, ...] = ()
    supply: int | None = None
    phantom: tuple[bool, ...] = ()  # bmx: a token played this round that is not a real one


def tally_of(game: Any) -> Tally:
    """The boards' numbers now (public: the board every seat sees)."""
    riders = game.view(0).board.riders
    if not game.rules.uses_tokens:
        return Tally(tuple(r.exhaustion for r in riders))
    return Tally(tuple(r.exhaustion for r in riders), tuple(r.deck for r in riders), game.supply,
                 tuple(r.phantom for r in game.riders))


ATTACHED = {"crash", "standup", "ramp"}


def round_start(game) -> tuple[list[tuple[int, int]], list[bool], Tally]:
    """What `build_frames` starts a round's frames from: every place, who lies
    crashed, the counts so far (taken as the round's energy phase begins)."""
    return ([tuple(p) for p in game.pos], [bool(getattr(r, "crashed", False)) for r in game.riders],
            tally_of(game))


def build_frames(game, start_pos, start_crashed, start_tally: Tally | None = None) -> list[Frame]:
    """The last resolved round of `game` as frames, from the positions (and
    the boards' numbers) before it: each frame shows the state after its step."""
    events = [e for e in game.events if not isinstance(e, Reveal)]
    pos = [tuple(p) for p in start_pos]
    crashed = list(start_crashed)
    cells = {p: i for i, p in enumerate(pos)}
    tally = start_tally
    frames: list[Frame] = [Frame("reveal", tuple(pos), tuple(crashed), tally=tally)]

    def push(kind, active, notes, trail=None, die=None, marks=()):
        frames.append(Frame(kind, tuple(pos), tuple(crashed), tuple(active), tuple(notes), trail, die, tuple(marks),
                            tally))

    def amend(**changes):
        last = frames[-1]
        fields = {name: getattr(last, name) for name in Frame.__slots__}
        fields.update(changes, tally=tally)
        frames[-1] = Frame(**fields)

    def move_to(i, square, lane):
        cells.pop(pos[i], None)
        pos[i] = (square, lane)
        cells[pos[i]] = i

    for e in events:
        kind, lines = e.kind, (Told(e),)
        if tally is not None:
            tally = counted(tally, e)
        if kind == "move":
            i = e.rider
            move_to(i, e.square, e.lane)
            push("move", (i,), lines, trail=(e.start, e.square))
        elif kind in ATTACHED and len(frames) > 1:
            i = e.rider
            if kind == "crash":
                crashed[i] = True
            elif kind == "standup":
                crashed[i] = False
            amend(pos=tuple(pos), crashed=tuple(crashed), notes=frames[-1].notes + lines)
        elif kind in ("slip", "catchup"):
            i = e.rider
            move_to(i, e.square, e.lane)
            if frames[-1].kind == kind:
                last = frames[-1]
                amend(pos=tuple(pos), active=last.active + (i,), notes=last.notes + lines)
            else:
                push(kind, (i,), lines, trail=None)
        elif kind in ("exhaust", "fatigue"):
            i = e.rider
            if frames[-1].kind == kind:
                last = frames[-1]
                amend(active=last.active + (i,), notes=last.notes + lines,
                      marks=last.marks + (pos[i][0],))
            else:
                push(kind, (i,), lines, marks=(pos[i][0],))
        elif kind == "die":
            push("die", (), lines, die=e.face)
        elif kind == "finish":
            push("finish", (e.rider,), lines)
        elif kind == "crossed":  # a tour: across the line, it leaves the track at the end of the round
            if frames[-1].kind == kind:
                amend(active=frames[-1].active + (e.rider,), notes=frames[-1].notes + lines)
            else:
                push("crossed", (e.rider,), lines)
        else:
            push(kind, (), lines)
    # the engine has the last word on where everyone stands
    final = tuple(tuple(p) for p in game.pos)
    final_crashed = tuple(bool(getattr(r, "crashed", False)) for r in game.riders)
    amend(pos=final, crashed=final_crashed)
    return frames


def counted(tally: Tally, e: Event) -> Tally:
    """The boards' numbers after engine event `e`."""
    exhaustion, bag, supply = list(tally.exhaustion), list(tally.bag), tally.supply
    if isinstance(e, Move) and bag:  # bmx: the tokens played leave the bag; fatigue goes back to the supply
        i = e.rider
        bag[i] -= len(e.tokens)
        if supply is not None and not tally.phantom[i]:
            supply += sum(1 for t in e.tokens if t == 0)
    elif isinstance(e, Fatigue):
        exhaustion[e.rider] += e.tokens
        bag[e.rider] += e.tokens
        supply = None if supply is None else supply - e.tokens
    elif isinstance(e, Exhaustion):
        exhaustion[e.rider] += 1
    else:
        return tally
    return Tally(tuple(exhaustion), tuple(bag), supply, tally.phantom)


@dataclass(slots=True)
class Replay:
    """A resolved round being shown: its frames and the step on screen."""

    round: int
    frames: list[Frame]
    revealed: tuple  # (rider, played) for every rider
    step: int = 0
    logged: int = 0  # frames whose lines went to the log already

    @property
    def frame(self) -> Frame:
        return self.frames[self.step]

    @property
    def at_end(self) -> bool:
        return self.step >= len(self.frames) - 1


@dataclass(slots=True)
class Stats:
    catchup: list[int] = field(default_factory=list)  # bmx catch-up squares per rider


@dataclass(frozen=True, slots=True)
class Review:
    """A seat's last pick of the round, played, under review: taking it back
    puts the flow back to `before` (its own state just before the pick)."""

    seat: int
    rider: int
    action: Action
    before: tuple


class RaceFlow:
    """A race as the screen plays it, over a Session (which says whose turn it
    is): curtains between players, bots asked for their moves, the log in
    words, each resolved round as frames."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self._gc_key: tuple[int, int] | None = None
        self._gc: list[GcLine] = []
        self.notes: list[Note] = []  # the race log, told in words when shown (`log`)
        # each note's words, once told in a language (the player may choose another mid-race)
        self._words: dict[str, dict[Note, str]] = {}
        self.passed: int | None = None  # seat whose curtain is lifted
        self.replay: Replay | None = None
        n = len(session.game.riders)
        self.stats = Stats(catchup=[0] * n)
        self._start_round = -1
        self._reasons: list[Reason] = []  # bots' reasons, logged once the cards are revealed
        self._bot_played: list[Action] = []  # the due bot's actions so far in this turn
        self.show_reasons = True  # the player's setting (app.settings.bot_reasons)
        self._start_pos: list[tuple[int, int]] = []
        self._start_crashed: list[bool] = []
        self._start_tally: Tally | None = None
        # the breakaway: the events of the last reveal of bids, until the table has read them
        self.bids: tuple[Event, ...] | None = None
        self.review: Review | None = None  # a seat's last pick, played, being reviewed
        tour = session.tour
        if tour is None:
            self.notes.append(Heading())  # the seed waits for the podium
        else:
            self.notes.append(Heading(tour.name, len(tour.done) + 1, tour.stages))
        if weather_kinds(self.game.course):  # (Meteo: what the track's marks mean, under the first line)
            self.notes.append(WeatherKey())
        if tour is not None and self.jersey is not None:
            self.notes.append(Jersey(self.jersey))
        if self.game.phase == Phase.BREAKAWAY:
            self.notes.append(BreakawayStarts())
        self._snapshot()
        self._draw_alone()  # a race resumed at such a draw (saved before the table made it)

    # ------------------------------------------------------------- facts

    @property
    def log(self) -> list[str]:
        """The race log in words (play.narrator), told from the notes now, in the language now."""
        words = self._words.setdefault(i18n.language(), {})
        out = []
        for note in self.notes:
            line = words.get(note)
            if line is None:
                line = words[note] = note_line(note, self.game)
            out.append(line)
        return out

    def told(self, notes) -> list[str]:
        """Notes (a frame's) in words."""
        return [note_line(note, self.game) for note in notes]

    @property
    def game(self):
        return self.session.game

    @property
    def variant_name(self) -> str:
        return self.game.rules.title

    @property
    def n_seats(self) -> int:
        return len(self.game.setup.teams)

    def humans(self) -> list[int]:
        return [s for s in range(self.n_seats) if not self.session.is_bot(s) and not self.game.script[s]]

    @property
    def hot_seat(self) -> bool:
        """Curtains are needed only when two or more people share the screen."""
        return len(self.humans()) > 1

    def team_name(self, seat: int) -> str:
        """The seat's team as the player reads it (named by default: in the language now)."""
        return team_name(self.game.setup, seat)

    def team_id(self, seat: int) -> str:
        return self.game.setup.teams[seat].colour

    @property
    def stage_text(self) -> str:
        """"stage 2/3" in a tour, else ""."""
        tour = self.session.tour
        return "" if tour is None else _("stage {n}/{stages}").format(n=len(tour.done) + 1, stages=tour.stages)

    @property
    def header_rules(self) -> str:
        """What the race's header says after the course's name: the stage of a
        tour, else the rules, unless the name says them already (a BMX
        circuit is named "BMX ABCD": "BMX ABCD · BMX" said it twice)."""
        if self.stage_text:
            return self.stage_text
        words = self.game.course.name.split()
        return "" if words[:1] == [self.variant_name] else rules_title(self.game.rules)

    @property
    def gc_before(self) -> list[GcLine]:
        """A tour's GC before this stage (empty at the first stage and outside
        a tour), worked out once per stage: the screen asks for its jersey at
        every repaint, and a long tour's GC adds up every stage."""
        tour = self.session.tour
        if tour is None:
            return []
        key = (id(tour), len(tour.done))
        if self._gc_key != key:
            self._gc_key, self._gc = key, tour.gc()
        return self._gc

    @property
    def jersey(self) -> int | None:
        """The rider in the yellow jersey (the GC leader before this stage), in a tour from its second stage."""
        gc = self.gc_before
        return self.game.index.get(gc[0].rider) if gc else None

    # -------------------------------------------------------------- turns

    def bot_name(self, seat: int) -> str:
        """"Green (hard bot)": a bot seat as the screen names it while it thinks."""
        return _("{team} ({policy} bot)").format(team=self.team_name(seat), policy=bot_level(self.session.bots[seat]))

    def current(self) -> Turn:
        """What happens now (asks the session whose turn it is; plays nothing)."""
        if self.review is not None:  # before anything the pick led to: nothing else until it is passed
            return Turn("review", self.review.seat, self.review.rider)
        if self.replay is not None:
            return Turn("reveal")
        if self.bids is not None:
            return Turn("bids")
        seat = self.session.due()
        if seat is None:
            return Turn("over")
        if self.session.is_bot(seat):
            return Turn("bot", seat)
        game = self.game
        if game.phase == Phase.GRID:
            return Turn("place", seat, game.to_place())
        if self.hot_seat and self.passed != seat:
            return Turn("curtain", seat)
        view = game.view(seat)
        if game.phase == Phase.BREAKAWAY:
            if view.hands:
                return Turn("bid", seat, next(iter(view.hands)))
            return Turn("bidder", seat)
        if view.hands:
            return Turn("pick", seat, next(iter(view.hands)))
        return Turn("draw", seat)

    def lift_curtain(self, seat: int) -> None:
        self.passed = seat
        self._draw_alone()

    def bids_read(self) -> None:
        """The table has read the revealed bids: the breakaway (or the race) goes on."""
        self.bids = None
        self._draw_alone()

    def _draw_alone(self) -> None:
        """Draw for a human seat whose one rider left must draw (Session.lone_draw:
        a tour stage, its other rider across the line), instead of asking it
        which rider draws first with one answer.  Only when `current()` would
        ask it ("draw"): the seat is at the screen, its curtain lifted, so its
        cards are never dealt before the hand-off; and nothing is said in the
        log (nothing was chosen: the engine's draw for a lone rider says
        nothing either).  Called after every change that may make such a seat due."""
        if self.current().kind != "draw":
            return
        action = self.session.lone_draw()
        if action is not None:
            self._snapshot()
            self.session.apply(action)

    def act(self, action: Action) -> None:
        """A human's action (raises RuleError if illegal)."""
        seat = self.session.due()
        if seat is not None and self.session.is_bot(seat):
            raise RuntimeError(f"{self.bot_name(seat)} is to play, not a human")
        if self.review is not None:
            raise RuntimeError(f"{self.team_name(self.review.seat)} reviews its cards: pass or take back first")
        kept = self._keep() if isinstance(action, (Play, PlayTokens, Bid)) else None
        self._snapshot()
        before = (self.game.round, self.game.phase)
        events = self.game.events
        self.session.apply(action)
        self._note(action, bot=False)
        self._after(before, events)
        if kept is not None and self.session.undo_refusal() is None:
            # the seat's last pick: it reviews its cards before anything this pick led to is shown
            i = self.game.index[action.rider]
            self.review = Review(self.game.riders[i].seat, i, action, kept)
        self._draw_alone()

    # ------------------------------------------------------------- review

    def pass_review(self) -> None:
        """The seat is happy with its cards: the race goes on (the next
        player's curtain, a bot, or the reveal)."""
        self.review = None
        self._draw_alone()

    def take_back(self) -> Action:
        """Undo the pick under review (UndoRefused when none is: never after a
        pass, a curtain or a reveal, never a bot's action, never the first
        rider's card once the second drew): the game rebuilt without it, an
        `undo` in the log, and this flow as it was just before the pick, so
        the seat is at that pick again with the same cards.  The log says in
        public words that the seat changed its last card, never which."""
        review = self.review
        if review is None:
            raise UndoRefused("no card under review: only the last card of a turn, before passing, can change")
        action = self.session.undo()
        self._restore(review.before)
        self.review = None
        self.notes.append(Changed(review.seat))
        return action

    def took_hint(self, seat: int) -> None:
        """A hint was shown to `seat`: kept in the save (Session.took_hint) and
        said in the log, where the whole table reads it."""
        self.session.took_hint(seat)
        self.notes.append(HintTaken(seat))

    def _keep(self) -> tuple:
        """This flow's own state, to put back if the action about to be played is taken back."""
        return (len(self.notes), self.passed, self.replay, list(self.stats.catchup), self._start_round,
                list(self._start_pos), list(self._start_crashed), self._start_tally, list(self._reasons),
                list(self._bot_played), self.bids)

    def _restore(self, kept: tuple) -> None:
        (lines, self.passed, self.replay, catchup, self._start_round, self._start_pos, self._start_crashed,
         self._start_tally, self._reasons, self._bot_played, self.bids) = kept
        del self.notes[lines:]
        self.stats.catchup = catchup

    # --------------------------------------------------------------- bots

    def bot_move(self) -> BotMove:
        """The bot that is due, asked for its next action (`current()` is "bot").
        Its `think()` may run in a worker thread: it reads only the view in
        the move; hand its answer to `play_bot_move`, on this flow's thread."""
        return self.session.bot_move()

    def play_bot_move(self, move: BotMove, action: Action, reason: str = "") -> None:
        """Commit a bot's answer to `move` (RuntimeError if the game moved on meanwhile)."""
        if self.review is not None:  # bots wait for a seat's review (it may take its card back)
            raise RuntimeError(f"{self.team_name(self.review.seat)} reviews its cards: no bot plays meanwhile")
        self._snapshot()
        before = (self.game.round, self.game.phase)
        events = self.game.events
        seat = move.seat
        self.session.play(move, action)
        self._bot_played.append(action)
        if isinstance(action, Place):
            self._note(action, bot=True)
        elif reason and self.show_reasons and not isinstance(action, Draw):
            # a reason may name the card: it waits for the reveal
            rider = getattr(action, "rider", None)
            self._reasons.append(Reason(seat, move.policy, reason, self.game.index.get(rider) if rider else None))
        if (self.game.round, self.game.phase) != before or self.session.due() != seat or self.bids_revealed(events):
            self._bot_done(seat)  # the seat has done all it had to do now
        self._after(before, events)
        self._draw_alone()

    def play_bots(self) -> Turn:
        """Play every bot that is due, here and now (tests, scripts); then what happens."""
        while (turn := self.current()).kind == "bot":
            move = self.bot_move()
            decision = move.think()
            self.play_bot_move(move, decision.action, decision.public)
        return turn

    def _bot_done(self, seat: int) -> None:
        """The public side of a bot's choices in this round, in words."""
        played, self._bot_played = self._bot_played, []
        drew = [a for a in played if isinstance(a, Draw)]
        if any(isinstance(a, Bid) for a in played):
            self.notes.append(BidDown(seat, bot=True))
        elif any(isinstance(a, (Play, PlayTokens)) for a in played):
            self.notes.append(BotChose(seat, self.game.index[drew[0].rider] if drew else None))

    def _note(self, action: Action, bot: bool) -> None:
        """The public side of a human's action (or a bot's placement), in words."""
        game = self.game
        i = game.index[action.rider]
        if isinstance(action, Place):
            self.notes.append(Placed(i, action.square, action.lane, bot))
        elif isinstance(action, Draw) and game.phase == Phase.BREAKAWAY and len(game.riders[i].bids) == 0:
            self.notes.append(Bidder(i, bot))
        elif isinstance(action, Draw) and game.phase != Phase.BREAKAWAY:
            self.notes.append(DrawsFirst(i, bot))
        elif isinstance(action, Bid) and not bot:
            self.notes.append(BidDown(game.riders[i].seat))

    def _snapshot(self) -> None:
        game = self.game
        if game.phase == Phase.ENERGY and self._start_round != game.round:
            self._start_round = game.round
            self._start_pos, self._start_crashed, self._start_tally = round_start(game)
            self.notes.append(RoundStarts(game.round))

    def bids_revealed(self, events_before) -> bool:
        """The last action revealed a bid (the engine's events are new ones)."""
        game = self.game
        return game.events is not events_before and any(e.kind == "bids" for e in game.events)

    def _after(self, before: tuple[int, str], events_before=None) -> None:
        game = self.game
        if before[1] == Phase.GRID and game.phase == Phase.BREAKAWAY:
            self.notes.append(BreakawayStarts())
        if before[1] == Phase.BREAKAWAY and self.bids_revealed(events_before):
            # the bids face up: the table reads them (and the result after the last) before going on
            self.bids = tuple(game.events)
            self.notes.extend(Told(e) for e in game.events if not isinstance(e, Reveal))
            self.passed = None
        if before[1] in (Phase.GRID, Phase.BREAKAWAY) and game.phase == Phase.ENERGY:
            self._snapshot()
            return
        resolved = game.round != before[0] or (game.phase == Phase.OVER and before[1] != Phase.OVER)
        if not resolved:
            return
        done = before[0]
        for e in game.events:
            if e.kind == "catchup":
                self.stats.catchup[e.rider] += e.square - e.start
        revealed = next((e.played for e in game.events if e.kind == "reveal"), ())
        frames = build_frames(game, self._start_pos, self._start_crashed, self._start_tally)
        if self._reasons:
            first = frames[0]
            frames[0] = Frame(**{**{f: getattr(first, f) for f in Frame.__slots__},
                                 "notes": first.notes + tuple(self._reasons)})
            self._reasons = []
        self.replay = Replay(done, frames, revealed)
        self.passed = None

    # ------------------------------------------------------------- replay

    def step(self, delta: int = 1) -> None:
        replay = self.replay
        if replay is None:
            return
        replay.step = max(0, min(len(replay.frames) - 1, replay.step + delta))
        self._log_frames(replay, replay.step + 1)

    def skip(self) -> None:
        replay = self.replay
        if replay is not None:
            replay.step = len(replay.frames) - 1
            self._log_frames(replay, len(replay.frames))

    def _log_frames(self, replay: Replay, upto: int) -> None:
        while replay.logged < upto:
            self.notes.extend(replay.frames[replay.logged].notes)
            replay.logged += 1

    def finish_replay(self) -> None:
        """The players have seen the round: on to the next one."""
        if self.replay is not None:
            self.skip()
            self.replay = None
            self._snapshot()
            self._draw_alone()

    def played_text(self, played) -> str:
        return played_text(self.game, played)


def history(session: Session) -> tuple[list[Note], list[Note]]:
    """The race so far as the log's notes, rebuilt from the session's action
    log (a resumed race), public facts only: the placements and every
    resolved round, then the round in progress as the table saw it so far
    (who drew first, which bots have chosen, the cards changed before
    passing: said, never which)."""
    from .races import new_game
    from .session import effective_length, undone

    game = new_game(session.setup, session.seed)
    notes: list[Note] = []
    if game.phase == Phase.BREAKAWAY:
        notes.append(BreakawayStarts())
    withdrawn = undone(session.entries)
    changed: list[Note] = []
    now: list[Note] = []  # the round in progress: its draws and bots' choices, as the flow logs them
    first: dict[int, int] = {}  # seat -> rider that drew first in this round
    chose: set[int] = set()  # the bots' seats that have chosen in this round (said once each)

    hinted: dict[int, list[Note]] = {}  # effective actions before it -> the hints shown then
    for seat, at in session.hints:
        hinted.setdefault(effective_length(session.entries[:at]), []).append(HintTaken(seat))

    def undos(n: int) -> list[Note]:
        return [Changed(game.riders[game.index[a.rider]].seat) for a in withdrawn.get(n, ())] + hinted.get(n, [])

    for n, action in enumerate(session.game.actions):
        before = (game.round, game.phase)
        events = game.events
        changed += undos(n)
        seat = game.riders[game.index[action.rider]].seat
        bot = seat in session.bots
        # a human's lone rider draws by itself, unsaid (RaceFlow._draw_alone)
        said = isinstance(action, Draw) and (bot or sum(isinstance(a, Draw) for a in game.legal_actions(seat)) > 1)
        game.apply(action)
        if before[1] == Phase.GRID and game.phase == Phase.BREAKAWAY:
            notes.append(BreakawayStarts())
        if before[1] == Phase.BREAKAWAY and game.events is not events:  # bids revealed, and at last the result
            notes.extend(Told(e) for e in game.events if not isinstance(e, Reveal))
        if isinstance(action, Place):
            notes.append(Placed(game.index[action.rider], action.square, action.lane))
        elif game.round != before[0] or (game.phase == Phase.OVER and before[1] != Phase.OVER):
            notes.append(RoundStarts(before[0]))
            notes.extend(changed)
            changed, now, first, chose = [], [], {}, set()
            notes.extend(Told(e) for e in game.events if not isinstance(e, Reveal))
        elif before[1] == Phase.ENERGY and isinstance(action, Draw):
            first.setdefault(seat, game.index[action.rider])
            if said and not bot:
                now.append(DrawsFirst(game.index[action.rider]))
        elif before[1] == Phase.ENERGY and bot and isinstance(action, (Play, PlayTokens)) and seat not in chose:
            chose.add(seat)
            now.append(BotChose(seat, first.get(seat)))
    return notes, now + changed + undos(len(session.game.actions))
