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

from dataclasses import dataclass
from typing import Any

from ..engine.actions import Action, Bid, Draw, Place
from ..engine.events import Event
from ..engine.options import Option, dominated
from .flow import Frame, RaceFlow
from .session import BotMove, Session

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

    seat: int
    rider: int
    options: tuple[Option, ...]


@dataclass(frozen=True, slots=True)
class ChoosingFirst:
    """A seat chooses which of its riders draws (and plays) first this round."""

    seat: int
    options: tuple[Option, ...]


@dataclass(frozen=True, slots=True)
class Picking:
    """A seat picks the card (BMX: tokens) of `rider`: `hand` is that rider's
    hand, the seat's own; each option carries its preview, and `dominated`
    marks a play another one beats for less."""

    seat: int
    rider: int
    hand: tuple[int, ...]
    options: tuple[Option, ...]
    dominated: tuple[bool, ...]


@dataclass(frozen=True, slots=True)
class Reviewing:
    """A seat's last pick of the round is down: it passes or takes it back."""

    seat: int
    rider: int
    action: Action
    options: tuple[TableOption, ...] = (PassReview(), TakeBack())


@dataclass(frozen=True, slots=True)
class Curtain:
    """Between two players at one screen: the next seat comes to the screen.
    Only the public table is shown (`board`: the positions and public piles)."""

    seat: int
    board: Any  # engine.view.Board: public to every seat
    options: tuple[TableOption, ...]


@dataclass(frozen=True, slots=True)
class ChoosingBidder:
    """The breakaway: a seat chooses which rider bids (or passes, by the engine's options)."""

    seat: int
    options: tuple[Option, ...]


@dataclass(frozen=True, slots=True)
class Bidding:
    """The breakaway: the chosen rider's bid card, from its hand (the seat's own)."""

    seat: int
    rider: int
    hand: tuple[int, ...]
    options: tuple[Option, ...]


@dataclass(frozen=True, slots=True)
class BidsShown:
    """Bids face up together (and after the last one, who broke away)."""

    events: tuple[Event, ...]
    options: tuple[TableOption, ...] = (ReadBids(),)


@dataclass(frozen=True, slots=True)
class Revealing:
    """A resolved round, frame by frame (each frame from the engine's events)."""

    round: int
    frames: tuple[Frame, ...]
    step: int
    options: tuple[TableOption, ...]


@dataclass(frozen=True, slots=True)
class BotThinking:
    """A bot seat is to act: the renderer lets it think (Table.bot_move)."""

    seat: int
    policy: str
    options: tuple[TableOption, ...] = ()


@dataclass(frozen=True, slots=True)
class Outcome:
    """The race is over: the ranking, best first, and the winner (rider indexes)."""

    ranking: tuple[int, ...]
    winner: int | None
    options: tuple[TableOption, ...] = ()


Turn = (Placing | ChoosingFirst | Picking | Reviewing | Curtain | ChoosingBidder | Bidding | BidsShown | Revealing
        | BotThinking | Outcome)


class NotOffered(ValueError):
    """`Table.choose` was given something the turn did not offer."""


class Table:
    """A race at the table, over a RaceFlow (itself over a Session)."""

    def __init__(self, session: Session | RaceFlow) -> None:
        self.flow = session if isinstance(session, RaceFlow) else RaceFlow(session)

    @property
    def session(self) -> Session:
        return self.flow.session

    @property
    def game(self) -> Any:
        return self.flow.game

    # ------------------------------------------------------------ the turn

    def turn(self) -> Turn:
        """What the table shows now, with what may be done."""
        flow = self.flow
        now = flow.current()
        game = self.game
        kind = now.kind
        if kind == "review" and flow.review is not None:
            return Reviewing(flow.review.seat, flow.review.rider, flow.review.action)
        if kind == "reveal" and flow.replay is not None:
            replay = flow.replay
            options: tuple[TableOption, ...] = ()
            if replay.step > 0:
                options += (Step(-1),)
            if not replay.at_end:
                options += (Step(1), SkipReveal())
            options += (EndReveal(),)
            return Revealing(replay.round, tuple(replay.frames), replay.step, options)
        if kind == "bids" and flow.bids is not None:
            return BidsShown(flow.bids)
        if kind == "over":
            return Outcome(tuple(game.ranking()), game.winner)
        seat = now.seat
        assert seat is not None
        if kind == "bot":
            return BotThinking(seat, self.session.bots[seat])
        if kind == "curtain":
            return Curtain(seat, game.view(seat).board, (LiftCurtain(seat),))
        view = game.view(seat)
        offered = tuple(view.options())
        if kind == "place":
            assert now.rider is not None
            return Placing(seat, now.rider, offered)
        if kind == "draw":
            return ChoosingFirst(seat, offered)
        if kind == "bidder":
            return ChoosingBidder(seat, offered)
        rider = now.rider
        assert rider is not None
        hand = tuple(view.hands.get(rider, ()))
        if kind == "bid":
            return Bidding(seat, rider, hand, offered)
        return Picking(seat, rider, hand, offered, tuple(dominated(list(offered))))

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
        elif isinstance(choice, PassReview):
            flow.pass_review()
        elif isinstance(choice, TakeBack):
            flow.take_back()
        elif isinstance(choice, Step):
            flow.step(choice.delta)
        elif isinstance(choice, SkipReveal):
            flow.skip()
        elif isinstance(choice, EndReveal):
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
    "Bid", "Bidding", "BidsShown", "BotThinking", "ChoosingBidder", "ChoosingFirst", "Choice", "Curtain", "Draw",
    "EndReveal", "LiftCurtain", "NotOffered", "Outcome", "PassReview", "Picking", "Place", "Placing", "ReadBids",
    "Revealing", "Reviewing", "SkipReveal", "Step", "Table", "TableOption", "TakeBack", "Turn",
]
