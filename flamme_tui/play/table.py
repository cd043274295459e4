"""The table: what happens now at a race, and what may be done, as data.

`Table.turn()` says what the table shows now, as one of a closed set of
frozen values (the turn model): a seat placing a rider, choosing who draws
first, picking a card (with the engine's previews), reviewing its last pick,
the curtain before a seat's turn (with the public table only), a round being
revealed frame by frame (frames built from the engine's typed events), the
breakaway's bids, a bot thinking, the outcome.  Each turn lists its
`options`; `Table.choose(option)` is the only way to act, and it takes only
an option the turn offered (as python-chess's `legal_moves`): the engine's
own options (`View.options()`) for a seat's decisions, and the table's
(lift the curtain, pass the review, take the card back, step through a
reveal, read the bids) for the rest.

A renderer (the Textual race screen, another device) reads the turn and
maps its keys and clicks to options; no rule and no hidden card reaches it
but the seat's own, in the turn addressed to that seat.  No Textual here
(tests/test_imports.py): the table is tested on its own (tests/test_table.py).
The race in words is the narrator's (play/narrator.py): a turn holds data.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..engine.actions import Action, Bid, Draw, Place
from ..engine.events import Event
from ..engine.options import Option, dominated
from ..engine.phase import Phase
from ..engine.view import View
from .flow import Frame, RaceFlow
from .session import UNDO, BotMove, Session
from .standings import Standings, standings

# ------------------------------------------------------- the table's options


@dataclass(frozen=True, slots=True)
class LiftCurtain:
    """The seat behind the curtain is at the screen: show it its cards."""

    seat: int


@dataclass(frozen=True, slots=True)
class PassReview:
    """The seat keeps its cards: the race goes on."""


@dataclass(frozen=True, slots=True)
class TakeBack:
    """The seat takes back the last card of its turn, before passing."""


@dataclass(frozen=True, slots=True)
class Step:
    """Show the next (+1) or previous (-1) frame of the round being revealed."""

    delta: int


@dataclass(frozen=True, slots=True)
class SkipReveal:
    """Show the round's last frame at once."""


@dataclass(frozen=True, slots=True)
class EndReveal:
    """The table has seen the round: on to the next one."""


@dataclass(frozen=True, slots=True)
class ReadBids:
    """The table has read the revealed bids: the breakaway (or the race) goes on."""


TableOption = LiftCurtain | PassReview | TakeBack | Step | SkipReveal | EndReveal | ReadBids
Choice = Option | TableOption


# ------------------------------------------------------------ the turn model


@dataclass(frozen=True, slots=True)
class Placing:
    """A seat places a rider on the grid: `options` are the free places."""

    kind: ClassVar[str] = "place"  # its name on the wire (and in tests)
    seat: int
    rider: int
    options: tuple[Option, ...]
    view: Any = field(default=None, compare=False, repr=False)  # the seat's own view (engine.view.View)


@dataclass(frozen=True, slots=True)
class ChoosingFirst:
    """A seat chooses which of its riders draws (and plays) first this round."""

    kind: ClassVar[str] = "draw"  # its name on the wire (and in tests)
    seat: int
    options: tuple[Option, ...]
    view: Any = field(default=None, compare=False, repr=False)  # the seat's own view (engine.view.View)


@dataclass(frozen=True, slots=True)
class Picking:
    """A seat picks the card (BMX: tokens) of `rider`: `hand` is that rider's
    hand, the seat's own; each option carries its preview (with who will be
    in the wind: `wind`), and `dominated` marks a play another one beats for less."""

    kind: ClassVar[str] = "pick"  # its name on the wire (and in tests)
    seat: int
    rider: int
    hand: tuple[int, ...]
    options: tuple[Option, ...]
    dominated: tuple[bool, ...]
    view: Any = field(default=None, compare=False, repr=False)  # the seat's own view (engine.view.View)

    @property
    def wind(self) -> tuple[str, ...]:
        """For each option, who will be in the wind (engine.options.Preview.wind:
        WIND for sure, MAY if the others' cards decide, "" for none)."""
        return tuple(o.preview.wind if o.preview is not None else "" for o in self.options)


@dataclass(frozen=True, slots=True)
class Reviewing:
    """A seat's last pick of the round is down: it passes or takes it back."""

    kind: ClassVar[str] = "review"  # its name on the wire (and in tests)
    seat: int
    rider: int
    action: Action
    options: tuple[TableOption, ...] = (PassReview(), TakeBack())
    view: Any = field(default=None, compare=False, repr=False)  # the seat's own view (engine.view.View)


@dataclass(frozen=True, slots=True)
class Curtain:
    """Between two players at one screen: the next seat comes to the screen.
    Only the public table is shown (`board`: the positions and public piles)."""

    kind: ClassVar[str] = "curtain"  # its name on the wire (and in tests)
    seat: int
    board: Any  # engine.view.Board: public to every seat
    options: tuple[TableOption, ...]
    bid: int = 0  # the breakaway's bid to come (1, 2), 0 outside it
    view: Any = field(default=None, compare=False, repr=False)  # the public view: no hand, no card down


@dataclass(frozen=True, slots=True)
class ChoosingBidder:
    """The breakaway: a seat chooses which rider bids (or passes, by the engine's options)."""

    kind: ClassVar[str] = "bidder"  # its name on the wire (and in tests)
    seat: int
    options: tuple[Option, ...]
    view: Any = field(default=None, compare=False, repr=False)  # the seat's own view (engine.view.View)


@dataclass(frozen=True, slots=True)
class Bidding:
    """The breakaway: the chosen rider's bid card, from its hand (the seat's own)."""

    kind: ClassVar[str] = "bid"  # its name on the wire (and in tests)
    seat: int
    rider: int
    hand: tuple[int, ...]
    options: tuple[Option, ...]
    bid: int = 1  # which of the breakaway's bids (1, 2)
    view: Any = field(default=None, compare=False, repr=False)  # the seat's own view (engine.view.View)


@dataclass(frozen=True, slots=True)
class BidsShown:
    """Bids face up together (and after the last one, who broke away)."""

    kind: ClassVar[str] = "bids"  # its name on the wire (and in tests)
    seat: ClassVar[None] = None  # the whole table's turn, no seat's
    events: tuple[Event, ...]
    options: tuple[TableOption, ...] = (ReadBids(),)
    view: Any = field(default=None, compare=False, repr=False)  # the public view: no hand, no card down


@dataclass(frozen=True, slots=True)
class Revealing:
    """A resolved round, frame by frame (each frame from the engine's events)."""

    kind: ClassVar[str] = "reveal"  # its name on the wire (and in tests)
    seat: ClassVar[None] = None  # the whole table's turn, no seat's
    round: int
    frames: tuple[Frame, ...]
    step: int
    options: tuple[TableOption, ...]
    revealed: tuple[tuple[int, Any], ...] = ()  # (rider, card or tokens played) for every rider
    view: Any = field(default=None, compare=False, repr=False)  # the public view: no hand, no card down


@dataclass(frozen=True, slots=True)
class BotThinking:
    """A bot seat is to act: the renderer lets it think (Table.bot_move)."""

    kind: ClassVar[str] = "bot"  # its name on the wire (and in tests)
    seat: int
    policy: str
    options: tuple[TableOption, ...] = ()
    view: Any = field(default=None, compare=False, repr=False)  # the public view: no hand, no card down


@dataclass(frozen=True, slots=True)
class Outcome:
    """The race is over: the ranking, best first, and the winner (rider indexes)."""

    kind: ClassVar[str] = "over"  # its name on the wire (and in tests)
    seat: ClassVar[None] = None  # the whole table's turn, no seat's
    ranking: tuple[int, ...]
    winner: int | None
    options: tuple[TableOption, ...] = ()


Turn = (Placing | ChoosingFirst | Picking | Reviewing | Curtain | ChoosingBidder | Bidding | BidsShown | Revealing
        | BotThinking | Outcome)


class NotOffered(ValueError):
    """`Table.choose` was given something the turn did not offer."""


@dataclass(frozen=True, slots=True)
class RoundSeen:
    """A round the table saw revealed (for "since your last look"): what each
    rider played, where each stood before and after, the round's events."""

    round: int
    revealed: tuple[tuple[int, Any], ...]
    start: tuple[tuple[int, int], ...]
    end: tuple[tuple[int, int], ...]
    events: tuple[Event, ...]


@dataclass(frozen=True, slots=True)
class CardChanged:
    """A seat took back its last card before passing (never which card)."""

    seat: int


Seen = RoundSeen | CardChanged


class Table:
    """A race at the table, over a RaceFlow (itself over a Session)."""

    def __init__(self, session: Session | RaceFlow) -> None:
        self.flow = session if isinstance(session, RaceFlow) else RaceFlow(session)
        # what the table saw, in order (public), and per seat where it was at its last look
        self._seen: list[Seen] = []
        self._looked: dict[int, int] = {}
        self._since: dict[int, tuple[Seen, ...]] = {}
        # the last options offered, with the seat's view and whether they say the wind: a screen
        # asks the turn several times a key, and the cards' chances of the wind (View.wind_odds)
        # cost milliseconds (kept here, by the game's owner: the board is every seat's)
        self._offered: tuple[View, bool, tuple[Option, ...]] | None = None
        self._resumed()

    def _resumed(self) -> None:
        """A race opened from its save (or any table over a race under way): what the
        table saw lives in memory only, so it is told again from the log, as the table
        saw it: each revealed round (as its reveal showed it), each card a seat took
        back (never which), and where each seat was at its last curtain, the start of
        its last turn.  So its next curtain says "since your last look" as it would have
        without the resume (a save made in the middle of a turn: that turn's curtain
        again, with nothing new since)."""
        from .flow import build_frames, round_start
        from .races import new_game

        session = self.session
        entries = session.entries
        if not entries:
            return
        game = new_game(session.setup, session.seed)
        start: tuple[list[Any], list[bool], Any] | None = None
        passed: int | None = None  # the seat whose curtain is up (RaceFlow.passed)
        for k, entry in enumerate(entries):
            if not isinstance(entry, Action):  # UNDO: taken with the action before it
                continue
            action = entry
            seat = game.riders[game.index[action.rider]].seat
            human = seat not in session.bots and not game.script[seat]
            if human and game.phase != Phase.GRID and seat != passed:  # its curtain was lifted: a look
                self._looked[seat] = len(self._seen)
                passed = seat
            if k + 1 < len(entries) and entries[k + 1] == UNDO:
                # taken back at its review: the game as before it, the table told that the seat changed a card
                self._seen.append(CardChanged(seat))
                continue
            if game.phase == Phase.ENERGY and start is None:
                start = round_start(game)
            before = game.round, game.phase
            events = game.events
            game.apply(action)
            if before[1] == Phase.ENERGY and (game.round != before[0] or game.phase == Phase.OVER):
                assert start is not None
                frames = build_frames(game, *start)
                revealed = next((e.played for e in game.events if e.kind == "reveal"), ())
                self._seen.append(RoundSeen(before[0], tuple(revealed), frames[0].pos, frames[-1].pos,
                                            tuple(game.events)))
                start, passed = None, None
            elif before[1] == Phase.BREAKAWAY and game.events is not events and any(
                    e.kind == "bids" for e in game.events):
                passed = None  # bids revealed: the next seat lifts its curtain again (RaceFlow._after)

    @property
    def session(self) -> Session:
        return self.flow.session

    @property
    def game(self) -> Any:
        return self.flow.game

    # ------------------------------------------------------- public facts

    def public(self) -> Any:
        """The view anybody at the table may see: the public board, no seat's
        hand, chosen card or own piles (everybody's piles as the table saw them
        before this round's draws)."""
        return self.game.view(0).replace(hands={}, chosen={}, own={}, first_drawn=None, keep={})

    @property
    def in_tour(self) -> bool:
        """A stage of a tour (the standings can be shown)."""
        return self.session.tour is not None

    def standings(self, board: Any = None) -> Standings | None:
        """A tour stage's standings (play.standings: the GC before it, who has
        finished and in what time, the live GC from the gaps on the road) on
        `board` (the public one by default); None outside a tour."""
        tour = self.session.tour
        if tour is None:
            return None
        board = self.public().board if board is None else board
        return standings(board, tour.name, len(tour.done) + 1, tour.stages, self.flow.gc_before, self.round)

    @property
    def round(self) -> int:
        """The round the table shows now, the one every screen names: while a
        round is revealed (and while the pick that resolved it is reviewed),
        that round, though the engine's board already counts the next one;
        else the board's round."""
        replay = self.flow.replay
        return self.game.round if replay is None else replay.round

    @property
    def in_breakaway(self) -> bool:
        """Whether the table is in the breakaway, before round 1: its bids being
        made, or the last ones face up until the table has read them."""
        return self.game.phase == Phase.BREAKAWAY or self.flow.bids is not None

    def ready(self) -> frozenset[int]:
        """Riders whose card (tokens) for this round lie face down: that they do
        is public at the table (what they are is not, and is not read here)."""
        game = self.game
        if game.phase in (Phase.GRID, Phase.OVER) or self.flow.replay is not None:
            return frozenset()
        return frozenset(i for i, r in enumerate(game.riders) if r.played is not None)

    def since(self, seat: int) -> tuple[Seen, ...]:
        """What the table saw since `seat` last looked (at its last curtain):
        the rounds revealed, the cards others changed (the narrator says it)."""
        return self._since.get(seat, ())

    # ------------------------------------------------------------ the turn

    def turn(self) -> Turn:
        """What the table shows now, with what may be done."""
        flow = self.flow
        now = flow.current()
        game = self.game
        kind = now.kind
        if kind == "review" and flow.review is not None:
            review = flow.review
            return Reviewing(review.seat, review.rider, review.action, view=game.view(review.seat))
        if kind == "reveal" and flow.replay is not None:
            replay = flow.replay
            options: tuple[TableOption, ...] = ()
            if replay.step > 0:
                options += (Step(-1),)
            if not replay.at_end:
                options += (Step(1), SkipReveal())
            options += (EndReveal(),)
            return Revealing(replay.round, tuple(replay.frames), replay.step, options, tuple(replay.revealed),
                             view=self.public())
        if kind == "bids" and flow.bids is not None:
            return BidsShown(flow.bids, view=self.public())
        if kind == "over":
            return Outcome(tuple(game.ranking()), game.winner)
        seat = now.seat
        assert seat is not None
        if kind == "bot":
            return BotThinking(seat, self.session.bots[seat], view=self.public())
        if kind == "curtain":
            bid = game.bid_round if game.phase == Phase.BREAKAWAY else 0
            return Curtain(seat, game.view(seat).board, (LiftCurtain(seat),), bid, view=self.public())
        view = game.view(seat)
        # a card's preview says who will be in the wind (Preview.wind: the table shows it, bots skip it)
        wind = kind == "pick"
        kept = self._offered
        if kept is not None and kept[1] == wind and kept[0] == view:  # the same seat's view: the same options
            offered = kept[2]
        else:
            offered = tuple(view.options(wind=wind))
            self._offered = (view, wind, offered)
        if kind == "place":
            assert now.rider is not None
            return Placing(seat, now.rider, offered, view=view)
        if kind == "draw":
            return ChoosingFirst(seat, offered, view=view)
        if kind == "bidder":
            return ChoosingBidder(seat, offered, view=view)
        rider = now.rider
        assert rider is not None
        hand = tuple(view.hands.get(rider, ()))
        if kind == "bid":
            return Bidding(seat, rider, hand, offered, game.bid_round, view=view)
        return Picking(seat, rider, hand, offered, tuple(dominated(list(offered))), view=view)

    # ------------------------------------------------------------ choosing

    def choose(self, choice: Choice) -> None:
        """Do what the turn offered (NotOffered for anything else); `turn()` then
        says what follows (not computed here: a renderer asks when it draws)."""
        turn = self.turn()
        if choice not in turn.options:
            raise NotOffered(f"{choice!r} is not on offer now ({type(turn).__name__})")
        flow = self.flow
        if isinstance(choice, Option):
            flow.act(choice.action)
        elif isinstance(choice, LiftCurtain):
            flow.lift_curtain(choice.seat)
            seat = choice.seat
            start = self._looked.get(seat)
            self._looked[seat] = len(self._seen)
            self._since[seat] = () if start is None else tuple(
                seen for seen in self._seen[start:] if not (isinstance(seen, CardChanged) and seen.seat == seat))
        elif isinstance(choice, PassReview):
            flow.pass_review()
        elif isinstance(choice, TakeBack):
            changed = flow.review.seat if flow.review is not None else None
            flow.take_back()
            if changed is not None:
                self._seen.append(CardChanged(changed))
        elif isinstance(choice, Step):
            flow.step(choice.delta)
        elif isinstance(choice, SkipReveal):
            flow.skip()
        elif isinstance(choice, EndReveal):
            replay = flow.replay
            if replay is not None:
                self._seen.append(RoundSeen(replay.round, tuple(replay.revealed), replay.frames[0].pos,
                                            replay.frames[-1].pos, tuple(self.game.events)))
            flow.finish_replay()
        elif isinstance(choice, ReadBids):
            flow.bids_read()

    def option_for(self, action: Action) -> Option:
        """The offered option that makes `action` (NotOffered if none does):
        a renderer that builds an action from keys asks for its option."""
        for option in self.turn().options:
            if isinstance(option, Option) and option.action == action:
                return option
        raise NotOffered(f"{action} is not on offer now")

    # ---------------------------------------------------------------- bots

    def bot_move(self) -> BotMove:
        """The due bot's question (BotThinking): its think() may run in a worker."""
        return self.flow.bot_move()

    def play_bot_move(self, move: BotMove, action: Action, reason: str = "") -> None:
        self.flow.play_bot_move(move, action, reason)

    def play_bots(self) -> Turn:
        """Play every bot that is due, here and now (tests, scripts); then the turn."""
        self.flow.play_bots()
        return self.turn()


__all__ = [
    "Bid", "Bidding", "CardChanged", "RoundSeen", "Seen",
    "BidsShown", "BotThinking", "ChoosingBidder", "ChoosingFirst", "Choice", "Curtain", "Draw",
    "EndReveal", "LiftCurtain", "NotOffered", "Outcome", "PassReview", "Picking", "Place", "Placing", "ReadBids",
    "Revealing", "Reviewing", "SkipReveal", "Step", "Table", "TableOption", "TakeBack", "Turn",
]
