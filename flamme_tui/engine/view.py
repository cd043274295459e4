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

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Final

from mypy_extensions import mypyc_attr

from .actions import Action, Choice, draw, play
from .course import Course
from .events import Exhaustion, Fatigue
from .options import CLEAR, MAY, Option, choice_of
from .phase import Phase
from .rng import Replay, Rng
from .ruleset import RuleSet

if TYPE_CHECKING:
    from typing import Self

    from .bmx import BmxSetup
    from .classic import ClassicSetup
    from .options import Preview
    from .race import Race


# sampled rounds a card's chance of the wind is counted over (View.wind_odds): about
# 3 ms for a hand of four cards in a pack (once a turn: play.table keeps the options),
# a standard error of 7 points at most, which the screen's tens ("+E 60%") round off
WIND_WORLDS: Final = 48


@mypyc_attr(acyclic=True)
class Shown:
    """A read-only value that a seat is shown (RiderView, Board, View): plain
    compiled classes with Final attributes, which mypyc builds and reads
    directly (a NamedTuple is built and its methods called through Python).
    Equality, repr and `replace` come from each class's `fields`.

    Acyclic (mypyc): a rider's or a seat's view refers to nothing that refers
    back to it, so the cycle collector need not track it; one is made and freed
    at every decision of every simulated race, and tracking it cost a twentieth
    of a race.  A board is not: its position game refers back to it."""

    fields: ClassVar[tuple[str, ...]] = ()

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and all(getattr(self, f) == getattr(other, f) for f in self.fields)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(" + ", ".join(f"{f}={getattr(self, f)!r}" for f in self.fields) + ")"

    def replace(self, **changes: object) -> Self:
        """A copy with some fields changed (as NamedTuple._replace; public, so the UI may ask it)."""
        values = {f: getattr(self, f) for f in self.fields}
        values.update(changes)
        return type(self)(**values)


@mypyc_attr(acyclic=True)
class RiderView(Shown):
    fields: ClassVar[tuple[str, ...]] = ("index", "id", "seat", "kind", "square", "lane", "crashed", "deck", "recycled",
                                         "exhaustion", "history", "from_supply", "bids")

    def __init__(self, index: int, id: str, seat: int, kind: str, square: int, lane: int, crashed: bool,
                 deck: int, recycled: tuple[int, ...], exhaustion: int, history: Sequence[Choice],
                 from_supply: int, bids: tuple[int, ...] = ()) -> None:
        self.index: Final = index
        self.id: Final = id
        self.seat: Final = seat
        self.kind: Final = kind  # "S", "R" (classic, meteo) or "" (bmx)
        self.square: Final = square
        self.lane: Final = lane
        self.crashed: Final = crashed
        self.deck: Final = deck  # face-down cards (bmx: tokens in the bag, drawn ones included), as shown
        self.recycled: Final = recycled  # face-up recycled cards, as shown (bmx: empty)
        self.exhaustion: Final = exhaustion  # exhaustion cards (bmx: fatigue tokens) received
        # cards (bmx: token tuples) played and revealed (`history`): a tuple, or the rider's own
        # list of them, which only grows: the view then shows the entries it holds now, copied
        # into a tuple when first read (a board is built every round, and bots seldom read it)
        self._history: Sequence[Choice] = history
        self._played: Final = len(history)
        self.from_supply: Final = from_supply  # exhaustion cards played straight from the supply (classic)
        # the breakaway (classic, meteo): revealed bid cards out of the rider's piles (a winner's left the game)
        self.bids: Final = bids

    @property
    def history(self) -> tuple[Choice, ...]:
        history = self._history
        if isinstance(history, tuple):
            return history
        shown = self._history = tuple(history[:self._played])
        return shown

    def __hash__(self) -> int:
        return hash(tuple(getattr(self, f) for f in self.fields))


class Board(Shown):
    fields: ClassVar[tuple[str, ...]] = ("variant", "round", "phase", "course", "riders", "decks", "handicap", "supply",
                                         "die", "setup", "rules", "crossed")

    def __init__(self, variant: str, round: int, phase: Phase, course: Course, riders: tuple[RiderView, ...],
                 decks: dict[str, tuple[int, ...]], handicap: tuple[int, ...], supply: int | None, die: int | None,
                 setup: ClassicSetup | BmxSetup, rules: RuleSet, crossed: dict[int, tuple[int, int, int]]) -> None:
        self.variant: Final = variant
        self.round: Final = round
        self.phase: Final = phase
        self.course: Final = course
        self.riders: Final = riders
        self.decks: Final = decks  # classic: the initial deck of each rider kind; bmx: {"": bag}
        self.handicap: Final = handicap  # classic: extra exhaustion cards per seat
        self.supply: Final = supply  # bmx fatigue supply
        self.die: Final = die  # bmx: the die, when rolled before drawing (forecast)
        self.setup: Final = setup  # the race's public set-up: teams, course, rules numbers (never the seed)
        self.rules: Final = rules  # the rule set: its flags and classes
        # a tour stage (classic, meteo): rider index -> (round, square, lane) where it crossed the line (public)
        self.crossed: Final = crossed
        # worked out from this board once, not part of what it shows: the position game of previews
        self._position: Race | None = None

    def position(self) -> Race:
        """A game of this rule set at this board's position (no hidden piles),
        built once per board: what previews move riders on."""
        position = self._position
        if position is None:
            position = self._position = self.rules.game.from_board(self)
        return position

    def reach(self, i: int, choice: Choice) -> int:
        """View.reach: each rule set's board (classic.ClassicBoard, meteo.MeteoBoard,
        bmx.BmxBoard) computes it with its own rule, a compiled method call."""
        raise NotImplementedError


@mypyc_attr(acyclic=True)
class SeatDicts:
    """A view's own riders as dicts (View.hands, chosen, own, keep), all four built
    together the first time one is read: a view then sets and frees one attribute for
    them, not four (a view is made at every decision, and the easy bot reads none)."""

    def __init__(self, hands: dict[int, tuple[int, ...]], chosen: dict[int, Choice],
                 own: dict[int, tuple[int, tuple[int, ...]]], keep: dict[int, int]) -> None:
        self.hands: Final = hands
        self.chosen: Final = chosen
        self.own: Final = own
        self.keep: Final = keep


# the free list (mypyc): the view a seat was just handed is freed before the next
# one is made, and the next reuses its memory
@mypyc_attr(acyclic=True, free_list_len=1)
class View(Shown):
    fields: ClassVar[tuple[str, ...]] = ("board", "seat", "hands", "chosen", "own", "first_drawn", "keep")

    def __init__(self, board: Board, seat: int, hands: dict[int, tuple[int, ...]] | None,
                 chosen: dict[int, Choice] | None, own: dict[int, tuple[int, tuple[int, ...]]] | None,
                 first_drawn: int | None, keep: dict[int, int] | None, seen: tuple[Any, ...] = ()) -> None:
        self.board: Final = board
        self.seat: Final = seat
        self.first_drawn: Final = first_drawn  # own rider drawn first this round (classic)
        # the seat's own riders, as `seen` lists them (SEEN): each rule set's view
        # builder passes copies of them and None for the dicts, built from them when first read
        # a flat tuple of mixed entries, read by position (SEEN): one tuple built per view is cheaper than a class
        self._seen: tuple[Any, ...] = seen
        self._dicts: SeatDicts | None = None
        if hands is not None or chosen is not None or own is not None or keep is not None:
            built = self.dicts()
            self._dicts = SeatDicts(built.hands if hands is None else hands, built.chosen if chosen is None else chosen,
                                    built.own if own is None else own, built.keep if keep is None else keep)

    # A view is made for every action of every simulated race, and most readers
    # (the easy bot, rollouts) look at none of its dicts: they are built from
    # the seat's riders as copied when the view was made, the first time one is read.

    def __eq__(self, other: object) -> bool:
        # (a TeamView and a View showing the same are equal: how a view holds its riders is not shown)
        return isinstance(other, View) and all(getattr(self, f) == getattr(other, f) for f in self.fields)

    def replace(self, **changes: object) -> View:
        """A copy with some fields changed (a View, whatever class this one is)."""
        values = {f: getattr(self, f) for f in self.fields}
        values.update(changes)
        return View(**values)

    def dicts(self) -> SeatDicts:
        dicts = self._dicts
        if dicts is None:
            seen = self._seen
            hands: dict[int, tuple[int, ...]] = {}
            chosen: dict[int, Choice] = {}
            own: dict[int, tuple[int, tuple[int, ...]]] = {}
            keep: dict[int, int] = {}
            for k in range(0, len(seen), SEEN):
                i = seen[k]
                if seen[k + 1]:
                    hands[i] = seen[k + 1]
                    if seen[k + 5] is not None:
                        keep[i] = seen[k + 5]
                if seen[k + 2] is not None:
                    chosen[i] = seen[k + 2]
                own[i] = (seen[k + 3], seen[k + 4])
            dicts = self._dicts = SeatDicts(hands, chosen, own, keep)
        return dicts

    @property
    def hands(self) -> dict[int, tuple[int, ...]]:
        """Own riders: rider index -> tuple of drawn cards (tokens), for those holding some."""
        return self.dicts().hands

    @property
    def chosen(self) -> dict[int, Choice]:
        """Own riders: rider index -> card (token tuple) chosen this round."""
        return self.dicts().chosen

    @property
    def own(self) -> dict[int, tuple[int, tuple[int, ...]]]:
        """Own riders: rider index -> (face-down count, recycled tuple) now."""
        return self.dicts().own

    @property
    def keep(self) -> dict[int, int]:
        """Bmx: own rider index -> tokens to keep, for riders holding tokens."""
        return self.dicts().keep

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

    def in_hand(self) -> tuple[int, tuple[int, ...], int] | None:
        """The first own rider holding cards (tokens), what it holds and how many
        of them it plays (bmx: `keep`; classic: 1); None when none holds any.
        What `hands` and `keep` say, without building the dicts."""
        i, hand, keep = self.held()
        return None if i < 0 else (i, hand, keep)

    def held(self) -> tuple[int, tuple[int, ...], int]:
        """What `in_hand` says, with rider index -1 (and an empty hand) when no own
        rider holds any: a tuple of fixed types, which the compiled engine returns
        without building a tuple object (the easy bot asks it at every decision)."""
        if self._dicts is not None:  # given (View.replace): they say it
            for i, hand in self._dicts.hands.items():
                return i, hand, self._dicts.keep.get(i, 1)
            return -1, (), 0
        seen = self._seen
        for k in range(0, len(seen), SEEN):
            held: tuple[int, ...] = seen[k + 1]  # typed: its truth is its length, not a call through Python
            if held:
                keep = seen[k + 5]
                return seen[k], held, 1 if keep is None else keep
        return -1, (), 0

    def mine(self) -> list[RiderView]:
        """The seat's riders on the board, in rider order."""
        seen = self._seen
        if seen:  # their indices, as the view's builder listed them (in rider order): no search of the board
            riders = self.board.riders
            out = []
            for k in range(0, len(seen), SEEN):
                i: int = seen[k]  # typed: a compiled tuple read, not a generic one
                out.append(riders[i])
            return out
        return [r for r in self.board.riders if r.seat == self.seat]

    def pair(self) -> tuple[RiderView, RiderView]:
        """The seat's two riders on the board, in rider order (a team of two: classic,
        meteo): `mine` as a tuple of fixed types, which the compiled engine returns
        without building a list (the easy bot asks it at every draw)."""
        seen = self._seen
        if len(seen) == 2 * SEEN:  # their indices, as the view's builder listed them
            riders = self.board.riders
            first: int = seen[0]
            second: int = seen[SEEN]
            return riders[first], riders[second]
        a, b = self.mine()  # (a view made without `seen`: found on the board; not two: ValueError)
        return a, b

    def unseen(self, i: int) -> tuple[int, ...]:
        """The cards (tokens) of rider i whose place this seat cannot know, sorted:
        its face-down deck plus (for another seat's rider) what it drew this round."""
        return self.board.rules.unseen(self, i)

    def every_unseen(self) -> list[tuple[int, ...]]:
        """`unseen(i)` of every rider, for `sample`'s callers that sample many worlds of one view."""
        return [self.board.rules.unseen(self, i) for i in range(len(self.board.riders))]

    def options(self, wind: bool = False) -> list[Option]:
        """What this seat may do now, each choice with its preview (engine.options).
        With `wind`, each preview also says what the others' hidden cards leave
        open: who will be in the wind (Preview.wind, a simulated end of round
        per card, and its chance when the others decide: Preview.wind_odds),
        whether riders in the way will stop it (Preview.crowd) and whether it
        will crash (Preview.fall); the table shows them, bots skip them."""
        position = self.board.position()
        out: list[Option] = position.options(self)
        if not wind:
            return out
        winds = [position.wind(self, o.preview.rider, choice_of(o.action)) if o.preview is not None else ""
                 for o in out]
        open_: dict[int, list[Choice]] = {}  # rider: its cards whose wind the others decide
        for o, in_wind in zip(out, winds):
            if o.preview is not None and in_wind == MAY:
                open_.setdefault(o.preview.rider, []).append(choice_of(o.action))
        odds = {(i, c): p for i, cs in open_.items() for c, p in zip(cs, self.wind_odds(i, cs))}
        told = []
        for o, in_wind in zip(out, winds):
            if o.preview is not None:
                i, choice = o.preview.rider, choice_of(o.action)
                shown = o.preview.with_round(in_wind, *position.road(self, i, choice), odds.get((i, choice), -1))
                if shown.crowd == CLEAR:  # the riders on the square it aims at move first and leave it
                    shown = position.cleared(self, shown, choice)
                o = Option(o.action, shown)
            told.append(o)
        return told

    def wind_odds(self, i: int, choices: Sequence[Choice], worlds: int = WIND_WORLDS) -> list[int]:
        """Preview.wind_odds of each of rider i's cards (token tuples): in how
        many of 100 rounds it takes an exhaustion card (fatigue token), over
        `worlds` sampled rounds.  Each deals what the seat cannot see as it may
        know it (`sample`), rider i plays the card, and every other card not yet
        down is drawn at random from its rider's hand (a hand of cards; tokens,
        and who draws first, at random among the choices offered): what a player
        who cannot read the others' minds may reckon.  The same worlds for every
        card (each seeded by the round, the seat and its number), so the cards'
        chances differ by the cards, and a redraw shows the same numbers.  A
        world is sampled and played up to rider i's card once, then copied for
        each card (nothing before it depends on the card), the copies drawing
        the same numbers (a Replay of the world's)."""
        board = self.board
        unseen = self.every_unseen()
        tired = [0] * len(choices)
        for k in range(worlds):
            rng = Rng((board.round * 64 + self.seat) * 1024 + k)
            world = self.sample(rng, unseen)  # (which draws from rng from then on)
            world.narrated = True  # who took one: the end phase's events say it
            world.events = []
            ended = self._round_to(world, rng, i, None)
            if ended is not None:  # (rider i's card was never asked: the same round for every card)
                tired = [t + ended for t in tired]
                continue
            # the rest of the round draws the same numbers whatever the card: rng's
            drawn: list[float] = []
            for n, choice in enumerate(choices):
                rest = Replay(drawn, rng)
                tired[n] += bool(self._round_to(world.clone(rest), rest, i, choice))
        return [t * 100 // worlds for t in tired]

    def _round_to(self, world: Race, rng: Rng, i: int, choice: Choice | None) -> bool | None:
        """Play the sampled world's round on at random (View.wind_odds): without
        `choice`, up to rider i's card (None there), else on to the round's end
        with `choice` for it; whether rider i took an exhaustion card (fatigue)."""
        board = self.board
        took = False
        while world.round == board.round and world.phase == Phase.ENERGY:
            seat = 0
            while not world.needs(seat):  # (the seat turns.next_seat names: turns imports the game)
                seat += 1
            view = world.view(seat)
            j, hand, keep = view.held()
            if j == i and choice is None:
                return None
            action: Action | None = None
            cards = not board.rules.uses_tokens
            if j >= 0 and keep == 1 and cards:  # a card of a hand (rider i's: the card asked about)
                card = choice if j == i and isinstance(choice, int) else hand[rng.below(len(hand))]
                action = play(view.board.riders[j].id, card)
            elif j < 0 and cards and not view.board.crossed:
                # which rider draws (first), at random among the seat's riders with no card down, as
                # ClassicGame.options offers them (built here: the options would build a position game)
                left = [r for r in view.mine() if r.index not in view.chosen]
                action = draw(left[rng.below(len(left))].id)
            else:
                offered = view.options()
                if j == i:
                    for o in offered:
                        if choice_of(o.action) == choice:
                            action = o.action
                if action is None:
                    action = offered[rng.below(len(offered))].action
            world.apply(action)
            for e in world.events:
                if isinstance(e, (Exhaustion, Fatigue)) and e.rider == i:
                    took = True
        return took

    def wind(self, i: int, choice: Choice) -> str:
        """Preview.wind of rider i's card (token tuple): WIND, MAY or "" (engine.options)."""
        return self.board.position().wind(self, i, choice)

    def road(self, i: int, choice: Choice) -> tuple[str, str]:
        """Preview.crowd and Preview.fall of rider i's card (token tuple) (engine.options)."""
        return self.board.position().road(self, i, choice)

    def preview(self, i: int, choice: Choice, also: tuple[tuple[int, Choice], ...] = ()) -> Preview:
        """Where rider i would end with that card (token tuple), counting the
        seat's own cards already down this round (its other rider moves too,
        in the round's order), and `also` (rider, card): a card of the seat
        not yet down but selected (the screen shows both picks together);
        every other rider standing still (engine.options.Preview)."""
        own = [(j, c) for j, c in self.chosen.items() if j != i and c is not None]
        own += [(j, c) for j, c in also if j != i and j not in self.chosen]
        if own:
            return self.board.position().preview_counting(i, choice, own)
        return self.board.position().preview(i, choice)

    def reach(self, i: int, choice: Choice) -> int:
        """Squares that card (token tuple) moves rider i before any blocking:
        terrain caps, stand-up penalty and ramp bonus included.  Cheap."""
        return self.board.reach(i, choice)

    def sample(self, rng: Rng, unseen: Sequence[tuple[int, ...]] | None = None) -> Race:
        """A whole game consistent with this view: what the seat cannot see
        (deck orders, other seats' hands and chosen cards) drawn with `rng`
        from what it can deduce.  For bots that simulate ahead.  `unseen`:
        `every_unseen()`, for a caller sampling many worlds of one view (worked
        out once: more than half of what a sample costs)."""
        return self.board.rules.game.sample(self, rng, unseen)


@mypyc_attr(acyclic=True, free_list_len=1)  # (as View)
class TeamView(View):
    """The view of a seat racing a team of two (classic, meteo), its two riders'
    piles held as the view's own attributes instead of a `seen` tuple: a view is
    made and freed at every decision of every simulated race, and the tuple was a
    third of that.  It reads as a View (equal to one showing the same)."""

    def __init__(self, board: Board, seat: int, first_drawn: int | None,
                 a: int, a_hand: tuple[int, ...], a_played: int | None, a_deck: int, a_recycled: tuple[int, ...],
                 b: int, b_hand: tuple[int, ...], b_played: int | None, b_deck: int, b_recycled: tuple[int, ...]) -> None:
        super().__init__(board, seat, None, None, None, first_drawn, None)
        # rider a (the seat's first, in rider order) and b: index, hand (empty: none), card
        # chosen (None: none yet), face-down count and recycled cards, as `seen` lists them
        self._a: Final = a
        self._a_hand: Final = a_hand
        self._a_played: Final = a_played
        self._a_deck: Final = a_deck
        self._a_recycled: Final = a_recycled
        self._b: Final = b
        self._b_hand: Final = b_hand
        self._b_played: Final = b_played
        self._b_deck: Final = b_deck
        self._b_recycled: Final = b_recycled

    def dicts(self) -> SeatDicts:
        dicts = self._dicts
        if dicts is None:
            hands: dict[int, tuple[int, ...]] = {}
            chosen: dict[int, Choice] = {}
            if self._a_hand:
                hands[self._a] = self._a_hand
            if self._b_hand:
                hands[self._b] = self._b_hand
            if self._a_played is not None:
                chosen[self._a] = self._a_played
            if self._b_played is not None:
                chosen[self._b] = self._b_played
            own = {self._a: (self._a_deck, self._a_recycled), self._b: (self._b_deck, self._b_recycled)}
            dicts = self._dicts = SeatDicts(hands, chosen, own, {})
        return dicts

    def held(self) -> tuple[int, tuple[int, ...], int]:
        if self._a_hand:
            return self._a, self._a_hand, 1
        if self._b_hand:
            return self._b, self._b_hand, 1
        return -1, (), 0

    def mine(self) -> list[RiderView]:
        riders = self.board.riders
        return [riders[self._a], riders[self._b]]

    def pair(self) -> tuple[RiderView, RiderView]:
        riders = self.board.riders
        return riders[self._a], riders[self._b]


# `seen`: per own rider, SEEN entries in a row: its index, its hand (a tuple, empty
# when it holds none), its chosen card (token tuple) or None, its face-down count,
# its recycled cards (a tuple) and its tokens to keep (bmx; None in classic).
# The rule sets' view builders call View(board, seat, None, None, None, first_drawn,
# None, seen) themselves (a compiled constructor call, no function between); a team
# of two gets a TeamView, which holds the same entries as attributes.
SEEN: Final = 6


def board(game: Race) -> Board:
    """The public board, rebuilt only when it changes (a new round, a placement)."""
    cached = game.public_cache
    if cached is not None and cached.round == game.round and cached.phase == game.phase and game.phase != Phase.GRID:
        return cached
    built = game.public_board()
    game.public_cache = built
    return built
