"""What one seat may see: everything public plus its own hand, nothing else.

Bots and the UI receive views, never the game.  The public `Board` is built
once per round and shared by all seats; a `View` adds one seat's hands.
Other riders' piles are shown as they stood before this round's draws: in a
hot-seat game the next player must not learn from the board what the
previous one just drew.

Each rule set builds its own boards and views (classic.py, bmx.py); this
module holds the types and what every rule set shares, and imports no rule
set.  The seat's choices and their previews (`View.options`) are computed by
the rule set's own movement code, on a game rebuilt from the board.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from ..course import Course
from .phase import Phase
from .ruleset import RuleSet

if TYPE_CHECKING:
    from .options import Option, Preview


class RiderView(NamedTuple):
    index: int  # type: ignore[assignment]  # shadows tuple.index, on purpose
    id: str
    seat: int
    kind: str  # "S", "R" (classic, meteo) or "" (bmx)
    square: int
    lane: int
    crashed: bool
    deck: int  # face-down cards (bmx: tokens in the bag, drawn ones included), as shown
    recycled: tuple[int, ...]  # face-up recycled cards, as shown (bmx: empty)
    exhaustion: int  # exhaustion cards (bmx: fatigue tokens) received
    history: tuple[Any, ...]  # cards (bmx: token tuples) played and revealed
    from_supply: int  # exhaustion cards played straight from the supply (classic)
    # the breakaway (classic, meteo): revealed bid cards out of the rider's piles (a winner's left the game)
    bids: tuple[int, ...] = ()


class Memo:
    """What is worked out from a board once (the position game of previews).
    Not part of what the board shows: any two memos are equal."""

    def __init__(self) -> None:
        self.position: Any = None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Memo)

    def __hash__(self) -> int:
        return 0

    def __repr__(self) -> str:
        return "Memo()"


class Board(NamedTuple):
    variant: str
    round: int
    phase: Phase
    course: Course
    riders: tuple[RiderView, ...]
    decks: dict[str, tuple[int, ...]]  # classic: the initial deck of each rider kind; bmx: {"": bag}
    handicap: tuple[int, ...]  # classic: extra exhaustion cards per seat
    supply: int | None  # bmx fatigue supply
    die: int | None  # bmx: the die, when rolled before drawing (forecast)
    setup: Any  # the race's public set-up: teams, course, rules numbers (never the seed)
    rules: RuleSet  # the rule set: its flags and classes
    memo: Memo  # what is worked out from this board once
    # a tour stage (classic, meteo): rider index -> (round, square, lane) where it crossed the line (public)
    crossed: dict[int, tuple[int, int, int]]

    def position(self) -> Any:
        """A game of this rule set at this board's position (no hidden piles),
        built once per board: what previews move riders on."""
        memo = self.memo
        if memo.position is None:
            memo.position = self.rules.game.from_board(self)
        return memo.position


class View(NamedTuple):
    board: Board
    seat: int
    hands: dict[int, tuple[int, ...]]  # own riders: rider index -> tuple of drawn cards (tokens)
    chosen: dict[int, Any]  # own riders: rider index -> card (token tuple) chosen this round
    own: dict[int, tuple[int, tuple[int, ...]]]  # own riders: rider index -> (face-down count, recycled tuple) now
    first_drawn: int | None  # own rider drawn first this round (classic)
    keep: dict[int, int]  # bmx: own rider index -> tokens to keep

    @property
    def riders(self) -> tuple[RiderView, ...]:
        return self.board.riders

    @property
    def course(self) -> Course:
        return self.board.course

    @property
    def variant(self) -> str:
        return self.board.variant

    @property
    def rules(self) -> RuleSet:
        return self.board.rules

    def mine(self) -> list[RiderView]:
        return [r for r in self.board.riders if r.seat == self.seat]

    def unseen(self, i: int) -> tuple[int, ...]:
        """The cards (tokens) of rider i whose place this seat cannot know, sorted:
        its face-down deck plus (for another seat's rider) what it drew this round."""
        return self.board.rules.unseen(self, i)

    def options(self) -> list[Option]:
        """What this seat may do now, each choice with its preview (engine.options)."""
        return self.board.position().options(self)  # type: ignore[no-any-return]

    def preview(self, i: int, choice: Any) -> Preview:
        """Where rider i would end with that card (token tuple), every other rider
        standing still (engine.options.Preview)."""
        return self.board.position().preview(i, choice)  # type: ignore[no-any-return]

    def reach(self, i: int, choice: Any) -> int:
        """Squares that card (token tuple) moves rider i before any blocking:
        terrain caps, stand-up penalty and ramp bonus included.  Cheap."""
        board = self.board
        return board.rules.reach(board, i, choice)

    def sample(self, rng: Any) -> Any:
        """A whole game consistent with this view: what the seat cannot see
        (deck orders, other seats' hands and chosen cards) drawn with `rng`
        from what it can deduce.  For bots that simulate ahead."""
        return self.board.rules.game.sample(self, rng)


new = tuple.__new__  # builds views without NamedTuple's Python-level __new__: views are made per decision


def board(game: Any) -> Board:
    """The public board, rebuilt only when it changes (a new round, a placement)."""
    cached: Board | None = game.public_cache
    if cached is not None and cached.round == game.round and cached.phase == game.phase and game.phase != Phase.GRID:
        return cached
    built: Board = game.public_board()
    game.public_cache = built
    return built
