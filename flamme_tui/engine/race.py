"""What every rule set's game shares: riders on the track, the RNG, the log.

The engine is typed for mypyc, which compiles it for the installed package
(see pyproject.toml): the types are what make the compiled code fast.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from .actions import Action, Choice
from .course import Course
from .events import Event
from .options import BLOCKED, CLEAR, CRASH, MAY, Option, Preview
from .phase import Phase
from .rng import Rng
from .ruleset import RuleSet
from .track import EMPTY, LANES, on_track, ranking
from .view import Board, View

if TYPE_CHECKING:  # the rule sets' modules import this one
    from .bmx import BmxSetup
    from .classic import ClassicSetup

# The version of `Race.state_key`: save files keep the digest of each round's
# key, so the key of a version never changes.  A change to the rules' state
# makes a version 2 beside it (and old saves are checked with version 1).
STATE_KEY_VERSION = 1
BLANK_RNG = Rng(0)  # the RNG of a game built blank until its builder gives it one


class RuleError(ValueError):
    """An action that the rules do not allow now."""


@dataclass(frozen=True, slots=True)
class Team:
    """A seat: a player (or bot, or scripted team) and the riders it races."""

    name: str
    colour: str  # the id prefix of its riders, e.g. "red"
    # classic and meteo: the rider kinds the seat races, a team's Sprinteur and Rouleur
    # ("SR"), or one of them alone (7 to 12 players, PELOTON.md); bmx: one rider whatever this says
    riders: str = "SR"


@dataclass(frozen=True, slots=True)
class Placed:
    """A rider where a made-up position puts it (Race.from_position: conformance
    cases, tests): its id (classic `red.S`, bmx `red`), square and lane."""

    id: str
    square: int
    lane: int
    crashed: bool = False  # meteo: it lies crashed


@dataclass(frozen=True, slots=True)
class TeamResult:
    """How one seat's team did: its place (1 = its best rider ahead of every
    other team's) and its statistics."""

    seat: int
    place: int
    exhaustion: int  # exhaustion cards (bmx: fatigue tokens) taken
    slipstream: int  # squares gained by slipstream (bmx: by catch-up)
    crashes: int  # meteo
    left: int  # cards (bmx: tokens) left in its piles (bag)


@dataclass(frozen=True, slots=True)
class Outcome:
    """Where a race stands or how it ended: the podium, the tournament and the
    bots' utility all read this one value."""

    finished: bool
    winner: int | None  # rider index, once finished
    ranking: tuple[int, ...]  # rider indices, furthest first
    teams: tuple[TeamResult, ...]  # per seat

    def place_of(self, seat: int) -> int:
        return self.teams[seat].place

    @property
    def places(self) -> tuple[int, ...]:
        """The place of each seat's team, by seat."""
        return tuple(t.place for t in self.teams)


def settles(square: int, aim: int, full: list[bool], closed: list[bool]) -> tuple[set[int], set[int]]:
    """Where a rider on `square` moving to `aim` may end, and of those where it
    would end blocked (short of its aim), given the squares that may be full
    as it moves and those that may be closed (Race.crowding): it lands on its
    aim, or is stopped behind a full aim or a closed square on its way, on the
    nearest square with a free lane, so on any square behind it while those
    may be full too (back to its own at most)."""
    ends = {aim}
    short: set[int] = set()
    stops = [aim] if aim > square and full[aim] else []
    stops += [s for s in range(square + 1, aim) if closed[s]]
    for stop in stops:
        t = stop - 1
        short.add(t)
        while t > square and full[t]:
            t -= 1
            short.add(t)
    return ends | short, short


class Race:
    """Base of ClassicGame and BmxGame: positions, cells, actions and copies.

    Subclasses keep their rule-specific state in more attributes and copy
    them in `_clone_into`, every list and dict copied, so a copy never shares a pile.
    Each rule set declares its own typed `setup` and `riders` (ClassicSetup and
    classic.Rider, BmxSetup and bmx.BmxRider): typed, they compile to direct
    field reads (mypyc rejects a base attribute retyped in a subclass).
    """

    variant: ClassVar[str] = ""

    def __init__(self, setup: ClassicSetup | BmxSetup, seed: int, *, _blank: bool = False) -> None:
        self.course: Course = setup.course
        self.seed = seed
        # a blank game (copies, positions) gets its RNG from whoever builds it:
        # seeding one costs more than the rest of a copy
        self.rng = BLANK_RNG if _blank else Rng(seed)
        self.phase: Phase = Phase.ENERGY  # each rule set starts its own
        self.pos: list[list[int]] = []  # rider index -> [square, lane]
        self.cells: list[int] = [EMPTY] * (LANES * len(self.course.terrain))
        self.round = 1
        self.events: list[Event] = []  # what happened in the last resolved round (engine.events)
        # whether the events are recorded: a simulated race nobody reads (the bots' sampled worlds,
        # the bench and tournament) turns it off and skips making the rounds' events, a tenth of
        # its cost (the breakaway's, once a race, are made all the same)
        self.narrated = True
        self.winner: int | None = None
        self.actions: list[Action] = []
        self.index: dict[str, int] = {}  # rider id -> rider index (set by each rule set)
        self.seats: list[list[int]] = []  # seat -> its rider indices (set by each rule set)
        self.public_cache: Board | None = None  # see view.board
        self.script: tuple[str, ...] = ("",) * len(setup.teams)  # per seat: "" or a scripted team (classic)

    def _put(self, i: int, square: int, lane: int) -> None:
        self.cells[square * LANES + lane] = i
        self.pos[i] = [square, lane]

    def place(self, i: int, square: int, lane: int) -> None:
        """Put rider i on (square, lane), lifting it from where it stood: for
        tests that set up a position.  The place must be free."""
        old = self.pos[i]
        if old[0] >= 0 and self.cells[old[0] * LANES + old[1]] == i:
            self.cells[old[0] * LANES + old[1]] = EMPTY
        if self.cells[square * LANES + lane] != EMPTY:
            raise RuleError(f"square {square} lane {lane} is taken")
        self._put(i, square, lane)
        self.public_cache = None

    def ranking(self) -> list[int]:
        """Rider indices, furthest first; on one square lane 0 first."""
        return ranking(self.pos)

    @property
    def rounds_done(self) -> int:
        """Rounds resolved so far: `round` is the round being played, or the
        last one once the race is over."""
        return self.round if self.phase == Phase.OVER else self.round - 1

    @property
    def rules(self) -> RuleSet:
        """This game's rule set (engine.rules): its flags and classes."""
        raise NotImplementedError

    def view(self, seat: int) -> View:
        """What that seat may see (engine.view); each rule set binds its own builder."""
        raise NotImplementedError

    def public_board(self) -> Board:
        """The public board now, built afresh (engine.view.board caches it)."""
        raise NotImplementedError

    def options(self, view: View) -> list[Option]:
        raise NotImplementedError

    def reach(self, i: int, choice: Choice) -> int:
        """Squares that card (token tuple) moves rider i before blocking (View.reach)."""
        raise NotImplementedError

    def preview(self, i: int, choice: Choice) -> Preview:
        """Where that card (token tuple) would take rider i, every other rider still."""
        raise NotImplementedError

    def preview_counting(self, i: int, choice: Choice, own: list[tuple[int, Choice]]) -> Preview:
        """Hook: `preview` counting the seat's own cards already down (`own`: rider, card); View.preview."""
        return self.preview(i, choice)

    def draw_size(self, i: int) -> int:
        """Hook: how many cards (tokens) rider i draws now."""
        raise NotImplementedError

    def wind(self, view: View, i: int, choice: Choice) -> str:
        """Preview.wind of rider i's card (tokens), from the seat's view (View.wind)."""
        raise NotImplementedError

    def possible_moves(self, view: View, j: int) -> set[int]:
        """The squares rider j may move this round before blocking, as the seat may know its cards (tokens)."""
        raise NotImplementedError

    def furthest(self, view: View, j: int) -> int:
        """The most squares rider j may move this round, as the seat may know its cards (tokens)."""
        return max(self.possible_moves(view, j))

    def movement_order(self) -> list[int]:
        """Riders on the track, furthest first (in a tour, riders across the line have left it)."""
        return on_track(self.cells, self.pos)

    def lies_down(self, k: int) -> bool:
        """Hook: rider k lies crashed (meteo): with others, it may close its square."""
        return False

    def crashes(self, i: int, square: int, lost: int) -> bool:
        """Hook: whether rider i, landing on `square` `lost` squares short, crashes (meteo)."""
        return False

    def road(self, view: View, i: int, choice: Choice) -> tuple[str, str]:
        """Preview.crowd and Preview.fall of rider i's card (tokens), from the
        seat's view: BLOCKED, MAY or "", and CRASH, MAY or "" (engine.options).

        The rider is blocked when the square its move aims at is full as it
        moves, or a square on its way is closed (meteo: every lane of it holds
        a crashed rider).  Only the riders that move before it (the ones ahead,
        and on its square those in a lane to the right) change those squares;
        the seat's own cards already down are known (View.preview moves them).
        If no other such rider stands at or before the furthest square a moved
        rider could reach, the preview is exact.  Otherwise the squares each
        rider moving first may end on are worked out in the round's order
        (`may_end`), and those where it may end blocked on a wet road (it may
        lie there crashed).  A square may be full as a rider moves when as many
        riders as it has lanes may stand there then, closed when as many may
        lie there crashed: one rider can neither fill nor close a square of
        two lanes.  If the square it aims at cannot be full and no square on
        its way can be closed, it is not blocked whatever they play (and does
        not crash): CLEAR if the preview, the others still, is blocked (the
        riders in its way move first and leave the squares), else ""; else
        MAY, and it may crash (MAY) only if a square where it may end blocked
        (`settles`) is wet."""
        shown = view.preview(i, choice)
        exact = (BLOCKED if shown.blocked else "", CRASH if shown.crash else "")
        order = self.movement_order()
        if i not in order or shown.moves <= 0:
            return exact
        n = order.index(i)
        first = order[:n]
        chosen = view.chosen
        start = shown.start
        target = start + shown.moves
        hi = target
        for k in first:
            c = chosen.get(k)
            if c is not None:
                hi = max(hi, self.pos[k][0] + self.reach(k, c))
        hidden = False
        for j in first:
            if chosen.get(j) is None and self.pos[j][0] <= hi:
                hidden = True
        if not hidden:
            return exact
        count, fallen = self.may_end(view, order, first)
        full, closed = self.crowding(order, n, count, fallen)
        short = settles(start, target, full, closed)[1]
        if not short:
            return CLEAR if shown.blocked else "", ""
        return MAY, MAY if any([self.crashes(i, sq, 1) for sq in short]) else ""

    def cleared(self, view: View, shown: Preview, choice: Choice) -> Preview:
        """Hook: the preview `shown` of a card that the riders in its way
        cannot stop (Preview.crowd CLEAR), landing where the card aims: the
        riders that move before it and stand on that square lifted, the
        seat's own cards down moving as in View.preview.  By default `shown`."""
        return shown

    def sure_landing(self, view: View, i: int, choice: Choice) -> int | None:
        """The square rider i's card (tokens) ends its move on whatever the
        others play (`road`: never blocked, or blocked as the others still
        say with nobody hidden in the way), else None."""
        shown = view.preview(i, choice)
        crowd = self.road(view, i, choice)[0]
        if crowd == "" or crowd == CLEAR:
            return shown.start + shown.moves
        return shown.square if crowd == BLOCKED else None

    def crowding(self, order: list[int], n: int, count: list[int], fallen: list[int]) -> tuple[list[bool], list[bool]]:
        """As the round's n-th rider (`order`) moves, whether each square may be
        full (the riders before it that may end there, `count`, and the ones
        after it standing there) and whether it may be closed (those that may
        lie there crashed, `fallen`, and the ones after it lying there); past
        the course's end: full, never closed."""
        lanes = self.course.lanes
        size = len(lanes)
        standing = [0] * size
        lying = [0] * size
        for k in order[n + 1:]:
            square = self.pos[k][0]
            standing[square] += 1
            if self.lies_down(k):
                lying[square] += 1
        full = [count[t] + standing[t] >= lanes[t] for t in range(size)] + [True]
        closed = [fallen[t] + lying[t] >= lanes[t] for t in range(size)] + [False]
        return full, closed

    def may_end(self, view: View, order: list[int], first: list[int]) -> tuple[list[int], list[int]]:
        """For each square, how many of the riders `first` (the first of the
        round's `order`) may end on it, and how many may end on it blocked on
        a wet road (crashed), from the seat's view (see `road`): a rider ends
        where a card it may play aims, or short of it (`settles`) where that
        square may be full or a square on its way closed (`crowding`)."""
        size = len(self.course.lanes)
        count = [0] * (size + 1)  # the last: every square past the end of the course
        fallen = [0] * (size + 1)
        chosen = view.chosen
        for n, j in enumerate(first):
            square = self.pos[j][0]
            full, closed = self.crowding(order, n, count, fallen)
            c = chosen.get(j)
            aims = {square + self.reach(j, c)} if c is not None else {square + m for m in self.possible_moves(view, j)}
            ends: set[int] = set()
            short: set[int] = set()
            for t in aims:
                landed, stopped = settles(square, min(t, size), full, closed)
                ends |= landed
                short |= stopped
            for t in ends:
                count[t] += 1
            for t in short:
                if t < size and self.crashes(j, t, 1):
                    fallen[t] += 1
        return count, fallen

    def state_key(self) -> tuple[object, ...]:
        """Hook: the state as plain values, in the layout of STATE_KEY_VERSION."""
        raise NotImplementedError

    def team_piles(self, seat: int) -> tuple[int, int, int, int]:
        """Hook: (exhaustion, slipstream or catch-up squares, crashes, pieces left) of a seat's team."""
        raise NotImplementedError

    def outcome(self) -> Outcome:
        """The race's result so far (final once `finished`)."""
        order = self.ranking()
        places = self._places(order)
        teams = tuple(TeamResult(seat, places[seat], *self.team_piles(seat)) for seat in range(len(self.seats)))
        return Outcome(self.phase == Phase.OVER, self.winner, tuple(order), teams)

    def place_of(self, seat: int) -> int:
        """The seat's place now, as `outcome` gives it, without the rest of
        the outcome (bots score thousands of simulated races by it)."""
        return self._places(self.ranking())[seat]

    def _places(self, order: list[int]) -> dict[int, int]:
        """Seat -> its place: a team is placed by its best rider in `order`."""
        seat_of = {i: seat for seat, mine in enumerate(self.seats) for i in mine}
        places: dict[int, int] = {}
        for i in order:
            seat = seat_of[i]
            if seat not in places:
                places[seat] = len(places) + 1
        return places

    def needs(self, seat: int) -> bool:
        raise NotImplementedError

    # the end phase's hooks for track.close_gaps (slipstream, bmx catch-up)

    def slip_eligible(self, square: int) -> bool:
        """Hook: riders on the square may give and receive slipstream (catch-up): anywhere by default."""
        return True

    def slip_gap(self, square: int) -> bool:
        """Hook: slipstream (catch-up) may cross the empty square: any by default."""
        return True

    def gap_closed(self, i: int, frm: int, frm_lane: int, to: int, lane: int) -> None:
        """Hook: rider i moved up by slipstream (catch-up) from (frm, frm_lane) to (to, lane)."""

    def to_move(self) -> list[int]:
        """Seats that still have something to do in this phase, in seat order."""
        raise NotImplementedError

    def apply(self, action: Action | str) -> None:
        raise NotImplementedError

    def legal_actions(self, seat: int) -> list[Action]:
        """What the seat may do now (each rule set's own list)."""
        raise NotImplementedError

    def _actor(self, action: Action | str) -> tuple[Action, int]:
        """The action (parsed from its text form if need be) and its rider's index."""
        if isinstance(action, str):
            action = Action.parse(action)
        i = self.index.get(action.rider)
        if i is None:
            raise RuleError(f"no rider {action.rider!r} in this race")
        return action, i

    def clone(self, rng: Rng | None = None) -> Race:
        """An independent copy; with `rng`, the copy draws from that RNG instead
        of a copy of this game's (bots simulating a sampled future)."""
        twin = self.blank()
        twin.course = self.course  # meteo: with this race's weather
        twin.rng = rng or self.rng.clone()
        twin.pos = [p.copy() for p in self.pos]
        twin.cells = self.cells.copy()
        twin.round = self.round
        twin.events = self.events.copy()
        twin.narrated = self.narrated
        twin.winner = self.winner
        twin.actions = self.actions.copy()
        twin.public_cache = self.public_cache
        self._clone_into(twin)
        return twin

    def blank(self) -> Race:
        """Hook: a blank game of this rule set and set-up (compiled (mypyc)
        classes cannot be made by __new__ alone)."""
        raise NotImplementedError

    def _clone_into(self, twin: Race) -> None:
        """Hook: copy the rule set's own attributes, riders included (each list and dict copied)."""

    # ------------------------------------------------ positions and rounds

    @classmethod
    def from_position(cls, course: Course, riders: Sequence[Placed], seed: int = 0,
                      rules: ClassicSetup | BmxSetup | None = None) -> Race:
        """Hook: a game about to play a round with riders where the caller says
        (conformance cases, tests), each with full piles; `rules` gives the decks
        and numbers (the data files' set-up), by default the rulebook's."""
        raise NotImplementedError

    @classmethod
    def from_board(cls, shown: Board) -> Race:
        """Hook: a game at the board's position, no hidden piles (what previews move riders on)."""
        raise NotImplementedError

    @classmethod
    def sample(cls, view: View, rng: Rng, unseen: Sequence[tuple[int, ...]] | None = None) -> Race:
        """Hook: a whole game consistent with the seat's view (View.sample)."""
        raise NotImplementedError

    def resolve(self, plays: Mapping[str, Choice], die: int | None = None) -> tuple[Event, ...]:
        """Resolve the round now with these cards (bmx: token sets) and, in
        bmx, this result of the die: every rider on the track plays the card
        `plays` gives for its id (whatever it holds: the cards come from no
        pile); then the round is resolved as the game does it (move phase,
        end phase, the next round begun) and its events are returned.  The one
        way conformance cases and tests play a made-up round; a game is played
        with `apply`.  RuleError (nothing changed) for a rider left out or
        unknown, a choice of the wrong kind, or a die the rule set has not.
        (A game not `narrated` makes no events: it returns none.)"""
        if self.phase != Phase.ENERGY:
            raise RuleError(f"no round to resolve in the {self.phase} phase")
        racing = {rid for rid, i in self.index.items() if self.pos[i][0] >= 0}
        missing = sorted(racing - set(plays))
        unknown = sorted(set(plays) - racing)
        if missing or unknown:
            raise RuleError(f"every rider on the track plays once (missing {missing}, unknown {unknown})")
        for choice in plays.values():
            self.check_choice(choice)
        self.check_die(die)
        for rid, choice in plays.items():
            self.lay_down(self.index[rid], choice)
        self.roll_as(die)
        self.resolve_round()
        return tuple(self.events)

    def check_choice(self, choice: Choice) -> None:
        """Hook: RuleError unless `choice` is what a rider of this rule set plays."""
        raise NotImplementedError

    def check_die(self, die: int | None) -> None:
        """Hook: RuleError unless `die` may be given (None: the rule set rolls it, or has none)."""
        if die is not None:
            raise RuleError(f"{self.rules.title} has no die")

    def lay_down(self, i: int, choice: Choice) -> None:
        """Hook: rider i's card (tokens) face down for this round, from no pile
        (`resolve`); cards (tokens) it drew go where a play puts those not kept."""
        raise NotImplementedError

    def roll_as(self, die: int | None) -> None:
        """Hook: the die shows `die` this round (bmx; `resolve`)."""

    def resolve_round(self) -> None:
        """Hook: every choice is made: move phase, end phase, then the next round."""
        raise NotImplementedError
