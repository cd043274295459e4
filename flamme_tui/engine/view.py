"""What one seat may see: everything public plus its own hand, nothing else.

Bots and the UI receive views, never the game.  The public `Board` is built
once per round and shared by all seats; a `View` adds one seat's hands.
Other riders' piles are shown as they stood before this round's draws: in a
hot-seat game the next player must not learn from the board what the
previous one just drew.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any, NamedTuple

from ..course import Course
from .cards import PELOTON, scripted_kind, starting_deck

if TYPE_CHECKING:
    from .bmx import BmxGame
    from .classic import ClassicGame


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
    history: tuple  # cards (bmx: token tuples) played and revealed
    from_supply: int  # exhaustion cards played straight from the supply (classic)


class Board(NamedTuple):
    variant: str
    round: int
    phase: str
    course: Course
    riders: tuple[RiderView, ...]
    decks: dict  # classic: the initial deck of each rider kind; bmx: {"": bag}
    handicap: tuple[int, ...]  # classic: extra exhaustion cards per seat
    supply: int | None  # bmx fatigue supply
    die: int | None  # bmx: the die, when rolled before drawing (forecast)
    setup: Any  # the race's public set-up: teams, course, rules numbers (never the seed)


class View(NamedTuple):
    board: Board
    seat: int
    hands: dict  # own riders: rider index -> tuple of drawn cards (tokens)
    chosen: dict  # own riders: rider index -> card (token tuple) chosen this round
    own: dict  # own riders: rider index -> (face-down count, recycled tuple) now
    first_drawn: int | None  # own rider drawn first this round (classic)
    keep: dict  # bmx: own rider index -> tokens to keep

    @property
    def riders(self) -> tuple[RiderView, ...]:
        return self.board.riders

    @property
    def course(self) -> Course:
        return self.board.course

    @property
    def variant(self) -> str:
        return self.board.variant

    def mine(self) -> list[RiderView]:
        return [r for r in self.board.riders if r.seat == self.seat]

    def unseen(self, i: int) -> tuple[int, ...]:
        """The cards of rider i whose place this seat cannot know, sorted: its
        face-down deck plus (for another seat's rider) what it drew this round."""
        r = self.board.riders[i]
        if self.board.variant == "bmx":
            tokens = Counter(self._bmx_unseen(r))
            tokens.subtract(self.hands.get(i, ()))
            tokens.subtract(self.chosen.get(i, ()))
            return tuple(sorted(tokens.elements()))
        setup = self.board.setup
        cards = Counter(starting_deck(setup, r.seat, r.kind))
        if not cards:  # the Peloton's Rouleur: its cards are counted with its Sprinteur's
            return ()
        cards[0] += r.exhaustion + r.from_supply
        if scripted_kind(setup, r.seat) == PELOTON:  # one deck for both riders, one card played for both
            cards[0] += sum(m.exhaustion for m in self.board.riders if m.seat == r.seat and m.index != i)
        cards.subtract(r.history)
        if i in self.own:
            cards.subtract(self.own[i][1])
            cards.subtract(self.hands.get(i, ()))
            if i in self.chosen:
                cards.subtract([self.chosen[i]])
        else:
            cards.subtract(r.recycled)
        return tuple(sorted(cards.elements()))

    def _bmx_unseen(self, r: RiderView) -> tuple[int, ...]:
        tokens = Counter(self.board.decks[""])
        tokens[0] += r.exhaustion + (self.board.handicap[r.seat] if r.seat < len(self.board.handicap) else 0)
        for played in r.history:
            tokens.subtract(t for t in played if t)  # fatigue tokens played go back to the supply
        tokens[0] -= sum(1 for played in r.history for t in played if t == 0)
        return tuple(sorted(tokens.elements()))


_new = tuple.__new__  # builds views without NamedTuple's Python-level __new__: views are made per decision


def _classic_board(game: ClassicGame) -> Board:
    riders = []
    for i, r in enumerate(game.riders):
        deck, recycled = r.shown_deck, r.shown_recycled
        shown = deck is not None and recycled is not None
        riders.append(_new(RiderView, (
            i, r.id, r.seat, r.kind, game.pos[i][0], game.pos[i][1], r.crashed,
            deck if deck is not None else len(r.deck),
            recycled if recycled is not None else tuple(r.recycled),
            r.exhaustion, tuple(r.history), r.shown_supply if shown else r.supply_played,
        )))
    return _new(Board, (game.variant, game.round, game.phase, game.course, tuple(riders),
                        game.setup.decks, game.setup.handicap, None, None, game.setup))


def _bmx_board(game: BmxGame) -> Board:
    riders = tuple(
        RiderView(i, r.id, r.seat, "", game.pos[i][0], game.pos[i][1], False,
                  len(r.bag) + len(r.hand) + len(r.played or ()), (), r.fatigue, tuple(r.history), 0)
        for i, r in enumerate(game.riders)
    )
    return Board(game.variant, game.round, game.phase, game.course, riders,
                 {"": game.setup.bag}, game.setup.young, game.supply,
                 game.die if game.setup.forecast else None, game.setup)


def board(game) -> Board:
    """The public board, rebuilt only when it changes (a new round, a placement)."""
    cached = game.public_cache
    if cached is not None and cached.round == game.round and cached.phase == game.phase and game.phase != "grid":
        return cached
    build = _bmx_board if game.variant == "bmx" else _classic_board
    game.public_cache = build(game)
    return game.public_cache


def classic_view(game: ClassicGame, seat: int) -> View:
    """Seat `seat`'s view of a classic or meteo game now."""
    riders = game.riders
    hands, chosen, own = {}, {}, {}
    for i in game.seats[seat]:
        r = riders[i]
        if r.hand:
            hands[i] = tuple(r.hand)
        if r.played is not None:
            chosen[i] = r.played
        own[i] = (len(r.deck), tuple(r.recycled))
    return _new(View, (board(game), seat, hands, chosen, own, game.first_drawn.get(seat), {}))


def bmx_view(game: BmxGame, seat: int) -> View:
    """Seat `seat`'s view of a bmx game now."""
    riders = game.riders
    hands, chosen, own = {}, {}, {}
    for i in game.seats[seat]:
        r = riders[i]
        if r.hand:
            hands[i] = tuple(r.hand)
        if r.played is not None:
            chosen[i] = r.played
        own[i] = (len(r.bag), ())
    return _new(View, (board(game), seat, hands, chosen, own, None, {i: game.keep_size(i) for i in hands}))
