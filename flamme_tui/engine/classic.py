"""Classic Flamme Rouge: decks, energy phase, movement and end phase.

A ClassicGame is the whole state of a race (riders, piles, the RNG) plus the
rules as methods.  Meteo subclasses it and overrides a few named hooks:
deal, draw_size, standup_penalty, path_limit, after_move, slip_eligible.

The Peloton expansion's scripted teams (Peloton, Muscle) make no choices:
when an energy phase begins the engine turns up their top cards itself, so
they never appear in the action log and never wait for a key.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, ClassVar, Final, cast

from .actions import Action, Bid, Choice, Draw, Place, Play, draw, play
from .breakaway import bid_order
from .cards import (  # noqa: F401  (card names are re-exported for the rest of the app)
    ATTACK,
    EXHAUSTION,
    EXHAUSTION_VALUE,
    MUSCLE,
    NOWHERE,
    PELOTON,
    ROULEUR,
    SCRIPTED,
    SPRINTEUR,
    card_text,
    card_value,
    scripted_kind,
    starting_deck,
)
from .course import MOVE_TABLE, Course
from .events import BidsRevealed, Breakaway, Crossed, Exhaustion, Finish, Move, Reveal, Slipstream
from .options import MAY, WIND, Option, Preview
from .phase import Phase
from .race import Placed, Race, RuleError, Team
from .rng import Rng
from .ruleset import RuleSet
from .seating import check_seats
from .terrain import ASCENT, COBBLE, DESCENT, terrain_move, terrain_rule
from .tour import fill_from_back
from .track import EMPTY, LANES, close_gaps, free_lane, ranking, settle, square_empty
from .view import Board, RiderView, TeamView, View, board

if TYPE_CHECKING:
    from .bmx import BmxSetup

GRID: Final = Phase.GRID
NOBODY: Final = -1  # ClassicGame.drawn_first of a seat that has not drawn
BREAKAWAY: Final = Phase.BREAKAWAY
ENERGY: Final = Phase.ENERGY
OVER: Final = Phase.OVER


def effective_move(course: Course, start: int, value: int, penalty: int = 0) -> int:
    """Squares a card of `value` moves a rider from `start` (see engine.terrain.terrain_move)."""
    if penalty or value >= MOVE_TABLE:
        return terrain_move(course.terrain, course.next_ascent, start, value, penalty)
    return course.moves[start][value]


def move_reason(course: Course, start: int, value: int, penalty: int = 0) -> int:
    """Why that move (effective_move's) differs from `value`: the bits the rules
    set as they applied (engine.terrain.terrain_rule; engine.events.Move.reason)."""
    if penalty or value >= MOVE_TABLE:
        return terrain_rule(course.terrain, course.next_ascent, start, value, penalty)[1]
    return course.reasons[start][value]


@dataclass(frozen=True, slots=True)
class ClassicSetup:
    """Everything a classic or meteo race is built from, besides the seed.

    Each field is written here once: its metadata's `save` names the kind of
    value it is, from which setupdata.py derives the save format's bounds and
    codec (`before`: what a save written before the field existed means).
    A new set-up option is a field here, with its kind."""

    course: Course = field(metadata={"save": "course"})
    teams: tuple[Team, ...] = field(metadata={"save": "teams"})
    # the defaults are the rulebook's numbers, for tests; races are built from stages/variants/*.yaml
    decks: dict[str, tuple[int, ...]] = field(
        default_factory=lambda: {SPRINTEUR: (2, 3, 4, 5, 9) * 3, ROULEUR: (3, 4, 5, 6, 7) * 3},
        metadata={"save": "decks"})
    hand_size: int = field(default=4, metadata={"save": "draw"})
    exhaustion_value: int = field(default=EXHAUSTION_VALUE, metadata={"save": "card"})
    # "random" or "choose" (players place their riders)
    grid: str = field(default="random", metadata={"save": "grid"})
    # extra exhaustion cards in each rider deck, per team
    handicap: tuple[int, ...] = field(default=(), metadata={"save": "handicaps"})
    variant: str = field(default="classic", metadata={"save": "classic variant"})
    # meteo: the token pool (one entry per token, FAIR = ""), draws under wind, stand-up cost
    weather_tokens: tuple[str, ...] = field(default=(), metadata={"save": "weather tokens"})
    tailwind_draw: int = field(default=5, metadata={"save": "draw"})
    headwind_draw: int = field(default=3, metadata={"save": "draw"})
    standup_penalty: int = field(default=2, metadata={"save": "penalty"})
    # (the fields below came later: `before` is what a save written without one was played with)
    # the Peloton expansion's scripted teams, per seat: "" (a player), PELOTON or MUSCLE
    scripted: tuple[str, ...] = field(default=(), metadata={"save": "scripted", "before": ()})
    # added to the Muscle team's Sprinteur deck
    muscle_extra: tuple[int, ...] = field(default=(5,), metadata={"save": "cards", "before": (5,)})
    # Attack cards in the Peloton team's one deck (a Rouleur deck)
    peloton_attacks: int = field(default=2, metadata={"save": "deck count", "before": 2})
    # what an Attack card moves the Peloton's front and rear rider
    attack: tuple[int, int] = field(default=(2, 9), metadata={"save": "card pair", "before": (2, 9)})
    # whether scripted teams take exhaustion cards (the rules: never)
    scripted_exhaustion: bool = field(default=False, metadata={"save": "flag", "before": False})
    # what a scripted rider with no cards left moves by, each round
    out_of_cards: int = field(default=2, metadata={"save": "card", "before": 2})
    # exhaustion cards of a lone team of players (S, R) vs Peloton + Muscle
    solo_handicap: tuple[int, int] = field(default=(1, 2), metadata={"save": "count pair", "before": (1, 2)})
    # 2: the Peloton expansion's pinned readings (grid squares, a card from nowhere, the solo handicap);
    # 1: how flamme-tui 0.1.0 read them (races saved by it replay as they were played)
    scripted_readings: int = field(default=2, metadata={"save": "version", "before": 1})
    # the Peloton breakaway, before round 1 on a course with a breakaway square
    breakaway: bool = field(default=False, metadata={"save": "flag", "before": False})
    # bids per rider: draw hand_size, keep 1, revealed before the next
    breakaway_bids: int = field(default=2, metadata={"save": "bids", "before": 2})
    breakaway_exhaustion: int = field(default=2, metadata={"save": "count", "before": 2})  # each winner takes
    # with this many teams (scripted ones too) the best two break away, else one
    breakaway_pair_from: int = field(default=5, metadata={"save": "team count", "before": 5})
    # a stage of a tour: the race goes on until every rider has crossed the line
    tour: bool = field(default=False, metadata={"save": "flag", "before": False})
    # tour: exhaustion cards carried into this stage, per rider (seat by seat, S then R)
    carried: tuple[int, ...] = field(default=(), metadata={"save": "carried", "before": ()})
    # tour: the order teams take the grid in (seats), from the second stage
    grid_order: tuple[int, ...] = field(default=(), metadata={"save": "seat order", "before": ()})
    # tour: the standing before this stage, public (what bots weigh, engine.tour.stage_value):
    # each rider's GC time in seconds (seat by seat, S then R) and each seat's Tour Points
    tour_times: tuple[int, ...] = field(default=(), metadata={"save": "times", "before": ()})
    tour_points: tuple[int, ...] = field(default=(), metadata={"save": "points", "before": ()})
    # 2: the rulings added 2026-12-04 (a random grid takes the front-most places; a tour deals its
    # handicaps once, at its first stage); 1: as flamme-tui read them before (races saved then replay as played)
    rulings: int = field(default=2, metadata={"save": "version", "before": 1})

    @property
    def breakaway_winners(self) -> int:
        """Riders the breakaway's best bids send ahead (PELOTON.md): two with
        breakaway_pair_from teams or more, scripted ones counted, else one."""
        return 2 if len(self.teams) >= self.breakaway_pair_from else 1


class Rider:
    """One rider's piles and history.  Position lives in the game's `pos`."""

    __slots__ = (
        "id", "seat", "kind", "deck", "recycled", "hand", "played", "crashed",
        "exhaustion", "supply_played", "slipstream", "crashes", "history",
        "shown_recycled", "shown_deck", "shown_supply", "bids", "pile_mate",
    )

    def __init__(self, rid: str, seat: int, kind: str) -> None:
        self.id = rid
        self.seat = seat
        self.kind = kind
        self.deck: list[int] = []  # face down; the top is the end of the list
        # face up, public: a tuple, replaced when it changes, so that every view and
        # board shows it as it is without a copy (a copy per view was a tenth of a race)
        self.recycled: tuple[int, ...] = ()
        # drawn, not yet chosen from (private): a tuple, made once a draw, which every
        # view of the seat shows without a copy (a copy per view was 1.3% of a race)
        self.hand: tuple[int, ...] = ()
        self.played: int | None = None  # chosen face down this round (private)
        self.crashed = False
        self.exhaustion = 0  # exhaustion cards received (end phase)
        self.supply_played = 0  # exhaustion cards played from the supply (no cards left)
        self.slipstream = 0  # squares gained by slipstream
        self.crashes = 0
        self.history: list[int] = []  # cards played, in order (public once revealed)
        # the piles as the other players saw them before this round's draw
        self.shown_recycled: tuple[int, ...] | None = None
        self.shown_deck: int | None = None
        self.shown_supply = 0
        # breakaway: its revealed bid cards not back in its piles (during the bids, and a winner's, which left the game)
        self.bids: list[int] = []
        # the Peloton team's other rider, whose piles are this rider's (share_piles), else None
        self.pile_mate: Rider | None = None

    def set_recycled(self, pile: tuple[int, ...]) -> None:
        """Its face-up recycled cards are now `pile` (the Peloton team's other rider's too)."""
        self.recycled = pile
        mate = self.pile_mate
        if mate is not None:
            mate.recycled = pile

    def keep(self, card: int) -> None:
        """It keeps `card` (one of its hand) face down; the rest of its hand goes face up
        to its recycled cards, in the order drawn."""
        self.played = card
        hand = self.hand
        n = len(hand)
        k = 0
        while k < n and hand[k] != card:  # its first copy
            k += 1
        self.set_recycled(self.recycled + (rest(hand, k) if k < n else hand))
        self.hand = ()

    def copy(self) -> Rider:
        twin = Rider(self.id, self.seat, self.kind)
        twin.deck, twin.recycled, twin.hand = self.deck[:], self.recycled, self.hand
        twin.played, twin.crashed, twin.exhaustion = self.played, self.crashed, self.exhaustion
        twin.supply_played, twin.slipstream, twin.crashes = self.supply_played, self.slipstream, self.crashes
        twin.history = self.history[:]
        twin.shown_recycled, twin.shown_deck, twin.shown_supply = self.shown_recycled, self.shown_deck, self.shown_supply
        twin.bids = self.bids[:]
        return twin


class Cast:
    """What the set-up alone says of a race's riders (ids, seats, starting
    decks, scripted seats), worked out once per set-up: every race of a
    bench or tournament and every game a bot simulates starts from it."""

    def __init__(self, setup: ClassicSetup) -> None:
        teams = setup.teams
        self.script: tuple[str, ...] = tuple(scripted_kind(setup, seat) for seat in range(len(teams)))
        self.players_riders: int = sum(len(team.riders) for team, s in zip(teams, self.script) if not s)
        # (id, seat, kind, starting deck) of each rider, in rider order
        self.riders: list[tuple[str, int, str, tuple[int, ...]]] = []
        self.seats: list[list[int]] = []
        for seat, team in enumerate(teams):
            mine: list[int] = []
            for kind in team.riders:
                mine.append(len(self.riders))
                self.riders.append((f"{team.colour}.{kind}", seat, kind, starting_deck(setup, seat, kind)))
            self.seats.append(mine)
        self.index: dict[str, int] = {rider[0]: i for i, rider in enumerate(self.riders)}


# set-up id -> (the set-up, its cast); the set-up is kept so that its id is not reused
_CASTS: Final[dict[int, tuple[ClassicSetup, Cast]]] = {}
MAX_CASTS: Final = 64  # set-ups kept (a tournament races a few; a tour builds one per stage)


def cast_of(setup: ClassicSetup) -> Cast:
    """The set-up's cast, made once (set-ups are frozen)."""
    entry = _CASTS.get(id(setup))
    if entry is not None and entry[0] is setup:
        return entry[1]
    if len(_CASTS) >= MAX_CASTS:
        _CASTS.clear()
    cast = Cast(setup)
    _CASTS[id(setup)] = (setup, cast)
    return cast


class ClassicGame(Race):
    variant: ClassVar[str] = "classic"
    max_gap: ClassVar[int] = 1  # slipstream closes one-square gaps

    @property
    def rules(self) -> RuleSet:
        return CLASSIC

    def view(self, seat: int) -> View:
        return classic_view(self, seat)

    def public_board(self) -> Board:
        # (MeteoGame's builds a MeteoBoard alike: each a compiled constructor call, not a class called through Python)
        setup = self.setup
        return ClassicBoard(self.variant, self.round, self.phase, self.course, board_riders(self), setup.decks,
                            setup.handicap, None, None, setup, self.rules, dict(self.crossed))

    def __init__(self, setup: ClassicSetup, seed: int, *, _blank: bool = False) -> None:
        super().__init__(setup, seed, _blank=_blank)
        self.setup: ClassicSetup = setup
        self.riders: list[Rider] = []
        self.phase = GRID
        # by seat: the rider index drawn first this round (in the breakaway: the rider it bids with),
        # NOBODY before its seat draws (a list: read and set at every draw and view, where a dict
        # keyed by seat boxed the seat and hashed it; `first_drawn` gives it as a dict)
        self.drawn_first: list[int] = [NOBODY] * len(setup.teams)
        # tour mode: rider index -> (round, square, lane) where it crossed the line; it has left the track
        self.crossed: dict[int, tuple[int, int, int]] = {}
        # play the scripted riders left alone in a tour stage to its end (play_scripted_out); off only to
        # check a save written by a flamme-tui that stopped there (saves: such a stage then goes on)
        self.scripted_out = True
        # the set-up's lengths first: its cast reads `carried` by rider
        riders = sum(len(team.riders) for team in setup.teams)  # 7 to 12 players race one rider each
        if setup.carried and len(setup.carried) != riders:
            raise ValueError("carried: one entry per rider")
        if setup.grid_order and sorted(setup.grid_order) != list(range(len(setup.teams))):
            raise ValueError("grid_order: every seat once")
        if setup.tour_times and len(setup.tour_times) != riders:
            raise ValueError("tour_times: one entry per rider")
        if setup.tour_points and len(setup.tour_points) != len(setup.teams):
            raise ValueError("tour_points: one entry per team")
        cast = cast_of(setup)
        self.script = cast.script
        # riders still to choose a card this round (scripted teams never choose)
        self.players_riders = cast.players_riders
        self.waiting = self.players_riders
        self.bid_round = 0  # the breakaway: the bid being made (1, 2), 0 when none
        if _blank:
            return
        check_seats(setup)
        if sum(self.course.lanes[: self.course.grid]) < sum(len(team.riders) for team in setup.teams):
            raise ValueError("the starting grid has too few places for the riders")
        if setup.breakaway and self.course.breakaway < 0:
            raise ValueError("this stage has no breakaway square (its second tile is not tile 2)")
        for rid, seat, kind, deck in cast.riders:
            rider = Rider(rid, seat, kind)
            rider.deck = list(deck)
            self.riders.append(rider)
            self.pos.append([-1, -1])
        self.index = cast.index.copy()
        self.seats = cast.seats.copy()
        self.deal()
        for rider in self.riders:
            self.rng.shuffle(rider.deck)
        self.share_piles()
        self.line_up_scripted()
        if setup.grid == "random":
            self.random_grid()
            self.begin_race()

    @property
    def first_drawn(self) -> dict[int, int]:
        """Seat -> the rider index it drew first this round, for the seats that have drawn."""
        return {seat: i for seat, i in enumerate(self.drawn_first) if i != NOBODY}

    def forget_draws(self) -> None:
        """No seat has drawn yet (a new round, the end of the breakaway)."""
        drawn = self.drawn_first
        for seat in range(len(drawn)):
            drawn[seat] = NOBODY

    def deal(self) -> None:
        """Hook: set-up that uses the RNG before the decks are shuffled (meteo weather)."""

    # ----------------------------------------------------------------- grid

    def grid_places(self) -> list[tuple[int, int]]:
        """Free (square, lane) places behind the start line, front first."""
        return [
            (sq, lane)
            for sq in range(self.course.grid - 1, -1, -1)
            for lane in range(self.course.lanes[sq])
            if self.cells[sq * LANES + lane] == EMPTY
        ]

    def random_grid(self) -> None:
        places = self.grid_places()
        if self.setup.grid_order:
            self.ordered_grid(places)
            return
        unplaced = [i for i in range(len(self.riders)) if self.pos[i][0] < 0]
        if self.setup.rulings >= 2:  # the front-most places that hold every rider: no empty place ahead of one
            places = places[:len(unplaced)]
        self.rng.shuffle(places)
        for i, (square, lane) in zip(unplaced, places):  # unpacked: a starred call goes through Python
            self._put(i, square, lane)

    def ordered_grid(self, places: list[tuple[int, int]]) -> None:
        """A random grid in a tour: the grid order fills the grid from the
        back (engine.tour.fill_from_back), each team's riders shuffled over its places."""
        order = [seat for seat in self.setup.grid_order if not self.script[seat]]
        sizes = {seat: len(self.seats[seat]) for seat in order}
        for seat, mine in fill_from_back(order, places, sizes).items():
            self.rng.shuffle(mine)
            for i, (square, lane) in zip(self.seats[seat], mine):
                self._put(i, square, lane)

    def to_place(self) -> int | None:
        """The rider index to place next: seats in turn (in a tour, in the
        grid order), both riders of a seat."""
        for seat in self.setup.grid_order or range(len(self.seats)):
            for i in self.seats[seat]:
                if self.pos[i][0] < 0:
                    return i
        return None

    # --------------------------------------------------------------- energy

    def draw_size(self, i: int) -> int:
        size: int = self.setup.hand_size
        return size

    def draw_hand(self, i: int, n: int = 0) -> None:
        """Draw the rider's hand: n cards, or by default its draw size."""
        rider = self.riders[i]
        deck = rider.deck
        rider.shown_recycled = rider.recycled
        rider.shown_deck = len(deck)
        rider.shown_supply = rider.supply_played
        n = n or self.draw_size(i)
        top = len(deck)
        if top >= n:  # the usual case: the top n cards
            rider.hand = take_top(deck, n)
            return
        # the whole deck, then its recycled cards shuffled into a new deck, and the rest from its top
        # (nothing is recycled while drawing: one reshuffle at most)
        hand: list[int] = []
        pop_into(deck, hand, top)
        if rider.recycled:
            deck.extend(rider.recycled)
            rider.set_recycled(())
            self.rng.shuffle(deck)
            pop_into(deck, hand, min(n - top, len(deck)))
        if not hand:
            if self.script[rider.seat] and self.setup.scripted_readings >= 2:
                hand.append(NOWHERE)  # a scripted rider: a value-2 card from nowhere (PELOTON.md)
            else:  # no cards at all: play an exhaustion card from the supply
                hand.append(EXHAUSTION)
                rider.supply_played += 1
        rider.hand = tuple(hand)

    def seat_riders(self, seat: int) -> list[int]:
        """The seat's riders still on the track (in a tour, those across the line have left)."""
        if self.crossed:
            return [i for i in self.seats[seat] if i not in self.crossed]
        return self.seats[seat]

    def to_move(self) -> list[int]:
        """Seats that still have something to do in this phase."""
        if self.phase == GRID:
            nxt = self.to_place()
            return [] if nxt is None else [self.riders[nxt].seat]
        out: list[int] = []
        if self.phase == ENERGY:  # asked after every action: a plain loop, seat order by construction
            riders, crossed = self.riders, self.crossed
            for seat, mine in enumerate(self.seats):
                for i in mine:
                    if riders[i].played is None and not (crossed and i in crossed):
                        out.append(seat)
                        break
            return out
        if self.phase == BREAKAWAY:
            return [seat for seat in range(len(self.seats)) if self.legal_actions(seat)]
        return out

    def needs(self, seat: int) -> bool:
        """Whether the seat has anything to do now."""
        if self.phase == ENERGY:  # asked after every action: no list built
            riders, crossed = self.riders, self.crossed
            for i in self.seats[seat]:
                if riders[i].played is None and not (crossed and i in crossed):
                    return True
            return False
        return seat in self.to_move()

    def legal_actions(self, seat: int) -> list[Action]:
        """What the seat may do now (the actions of `options`, from the game itself)."""
        if self.phase == GRID:
            nxt = self.to_place()
            if nxt is None or self.riders[nxt].seat != seat:
                return []
            rid = self.riders[nxt].id
            return [Place(rid, sq, lane) for sq, lane in self.grid_places()]
        if self.phase == BREAKAWAY:
            return self.bid_actions(seat)
        if self.phase != ENERGY:
            return []
        mine = self.seat_riders(seat)
        for i in mine:
            hand = self.riders[i].hand
            if hand:
                rid = self.riders[i].id
                return [play(rid, c) for c in distinct(hand)]
        if self.drawn_first[seat] != NOBODY or all(self.riders[i].played is not None for i in mine):
            return []
        return [draw(self.riders[i].id) for i in mine]

    def apply(self, action: Action | str) -> None:
        """Apply one action; raise RuleError (and change nothing) if illegal."""
        action, i = self._actor(action)
        rider = self.riders[i]
        if type(action) is Play:
            if self.phase != ENERGY or not holds(rider.hand, action.card):
                raise RuleError(f"{action} is not allowed now")
            self.actions.append(action)
            self._play(i, action.card)
        elif type(action) is Draw:
            if self.phase == BREAKAWAY:
                if action not in self.bid_actions(rider.seat):
                    raise RuleError(f"{action} is not allowed now")
                self.actions.append(action)
                self.drawn_first[rider.seat] = i
                self.draw_hand(i)
                return
            if (self.phase != ENERGY or self.drawn_first[rider.seat] != NOBODY or rider.played is not None
                    or i in self.crossed):
                raise RuleError(f"{action} is not allowed now")
            self.actions.append(action)
            self.drawn_first[rider.seat] = i
            self.draw_hand(i)
        elif type(action) is Bid:
            if self.phase != BREAKAWAY or action not in self.bid_actions(rider.seat):
                raise RuleError(f"{action} is not allowed now")
            self.actions.append(action)
            self.keep_bid(i, action.card)
        elif type(action) is Place:
            if self.phase != GRID or self.to_place() != i or (action.square, action.lane) not in self.grid_places():
                raise RuleError(f"{action} is not allowed now")
            self.actions.append(action)
            self._put(i, action.square, action.lane)
            if self.to_place() is None:
                self.begin_race()
        else:
            raise RuleError(f"{action} is not an action of this game")

    def _play(self, i: int, card: int) -> None:
        rider = self.riders[i]
        rider.keep(card)
        self.waiting -= 1
        # the other rider of the seat draws only now
        for j in self.seat_riders(rider.seat):
            if self.riders[j].played is None and not self.riders[j].hand:
                self.draw_hand(j)
                return
        if not self.waiting:
            self.resolve_round()

    # ------------------------------------------------------ scripted teams

    def line_up_scripted(self) -> None:
        """Scripted teams start at the front of the grid, before anybody else
        is placed: the Peloton team first, then the Muscle teams in seat
        order (PELOTON.md, Grid).  A team's front rider, its Sprinteur, takes
        the lowest free lane of the front-most grid square that has one; its
        Rouleur the lowest free lane of the nearest square behind that one
        with a free lane."""
        course, cells = self.course, self.cells
        for kind in SCRIPTED:
            for seat, script in enumerate(self.script):
                if script != kind:
                    continue
                if self.setup.scripted_readings < 2:  # flamme-tui 0.1.0: the front-most places, one after the other
                    for i in self.seats[seat]:
                        self._put(i, *self.grid_places()[0])
                    continue
                front, rear = self.seats[seat]
                square, lane = self.grid_places()[0]
                self._put(front, square, lane)
                behind = square - 1
                while behind >= 0 and free_lane(cells, course.lanes, behind) < 0:
                    behind -= 1
                if behind < 0:
                    raise ValueError("the starting grid has no room behind the scripted team's front rider")
                self._put(rear, behind, free_lane(cells, course.lanes, behind))

    def share_piles(self) -> None:
        """The Peloton team's Rouleur uses its Sprinteur's piles (the same
        lists), so its exhaustion cards go to the one team deck."""
        for seat, script in enumerate(self.script):
            if script == PELOTON:
                owner, mate = (self.riders[i] for i in self.seats[seat])
                mate.deck, mate.recycled = owner.deck, owner.recycled
                owner.pile_mate, mate.pile_mate = mate, owner

    def begin_race(self) -> None:
        """The grid is placed: the breakaway if the race has one, then round 1."""
        if self.setup.breakaway:
            self.begin_breakaway()
        else:
            self.begin_energy()

    def begin_energy(self) -> None:
        """A new energy phase: the scripted teams turn up their top cards, and a
        player racing one rider draws for it (that is its whole choice of who draws)."""
        self.phase = ENERGY
        for seat, script in enumerate(self.script):
            if not script:
                self.draw_lone(seat)
                continue
            a, b = self.seats[seat]
            if script == PELOTON:  # one card for both riders (in a tour, for the one left on the track)
                owner, mate = self.riders[a], self.riders[b]
                if a in self.crossed and b in self.crossed:
                    continue
                self.draw_hand(a, 1)
                card = owner.hand[-1]
                owner.hand = ()
                if a not in self.crossed:
                    owner.played = card
                if b not in self.crossed:
                    mate.played = card
                mate.shown_recycled, mate.shown_deck = owner.shown_recycled, owner.shown_deck
            else:
                for i in self.seat_riders(seat):
                    self.draw_hand(i, 1)
                    rider = self.riders[i]
                    rider.played = rider.hand[-1]
                    rider.hand = ()

    def draw_lone(self, seat: int) -> None:
        """A player racing one rider (7 to 12 players) has no choice of who
        draws first: its rider draws now (the energy phase, each bid)."""
        if len(self.setup.teams[seat].riders) == 1 and not self.script[seat]:
            i = self.seats[seat][0]
            self.drawn_first[seat] = i
            self.draw_hand(i)

    def attack_value(self, i: int, order: list[int]) -> int:
        """An Attack card moves the Peloton's front rider a little, its rear rider a lot."""
        a, b = self.seats[self.riders[i].seat]
        mate = b if i == a else a
        attack: tuple[int, int] = self.setup.attack
        if mate not in order:  # a tour: its mate has crossed the line, further on than it
            return attack[1]
        return attack[0] if order.index(i) < order.index(mate) else attack[1]

    # ------------------------------------------------------------ breakaway

    def begin_breakaway(self) -> None:
        """The breakaway (PELOTON.md): every team of players picks a rider to
        bid with (`draw`), which draws hand_size cards and keeps one face down
        (`bid`); the bids are revealed together, then the next bid is drawn."""
        self.phase = BREAKAWAY
        self.bid_round = 1
        for seat in range(len(self.seats)):
            self.draw_lone(seat)

    def bid_actions(self, seat: int) -> list[Action]:
        """What the seat may do in the breakaway: choose its bidder, then its bid card."""
        if self.script[seat]:
            return []
        i = self.drawn_first[seat]
        if i == NOBODY:
            return [draw(self.riders[j].id) for j in self.seats[seat]]
        hand = self.riders[i].hand
        return [Bid(self.riders[i].id, c) for c in sorted(set(hand))]

    def keep_bid(self, i: int, card: int) -> None:
        """The rider keeps `card` face down; the rest of its draw goes face up to its recycled cards."""
        self.riders[i].keep(card)
        bidders = self.bidders()
        if len(bidders) == sum(1 for s in self.script if not s) and all(
                self.riders[j].played is not None for j in bidders):
            self.reveal_bids(bidders)

    def bidders(self) -> list[int]:
        """The riders bidding, seat by seat."""
        return [i for i in self.drawn_first if i != NOBODY]

    def reveal_bids(self, bidders: list[int]) -> None:
        """Every bid of this turn face up together; then the next bid, or the result."""
        cards = []
        for i in bidders:
            rider = self.riders[i]
            assert rider.played is not None
            rider.bids.append(rider.played)
            cards.append((i, rider.played))
            rider.played = None
            rider.shown_recycled = rider.shown_deck = None  # everything public again
        self.public_cache = None
        self.events = [BidsRevealed(self.bid_round, tuple(cards))]
        if self.bid_round < self.setup.breakaway_bids:
            self.bid_round += 1
            for i in bidders:
                self.draw_hand(i)
            return
        self.resolve_breakaway(bidders)

    def resolve_breakaway(self, bidders: list[int]) -> None:
        """The best bid breaks away (the best two with breakaway_pair_from teams
        or more) to the breakaway square, lanes 0 and 1; their grid places stay
        empty.  A winner's bid cards leave the game and it takes exhaustion
        cards; every other bidder takes its bids back.  Then every bidder
        shuffles all its cards into a new face-down deck."""
        setup = self.setup
        totals = {i: sum(self.card_worth(i, c) for c in self.riders[i].bids) for i in bidders}
        order = bid_order(totals, self.pos)
        result = tuple((i, tuple(self.riders[i].bids), totals[i]) for i in order)
        winners = order[: setup.breakaway_winners]
        square = self.course.breakaway
        for lane, i in enumerate(winners):
            start, old = self.pos[i]
            self.cells[start * LANES + old] = EMPTY
            self._put(i, square, lane)
        for i in bidders:
            rider = self.riders[i]
            if i in winners:
                rider.exhaustion += setup.breakaway_exhaustion
                rider.deck.extend([EXHAUSTION] * setup.breakaway_exhaustion)
            else:
                rider.deck.extend(rider.bids)
                rider.bids.clear()
            rider.deck.extend(rider.recycled)
            rider.set_recycled(())
            self.rng.shuffle(rider.deck)
        self.events.append(Breakaway(result, tuple(winners), square))
        self.forget_draws()
        self.bid_round = 0
        self.public_cache = None
        self.begin_energy()

    # ------------------------------------------------------------- movement

    def standup_penalty(self, i: int) -> int:
        """Hook: what standing up costs rider i this move (meteo)."""
        return 0

    def path_limit(self, start: int, target: int) -> int:
        """Hook: the furthest square a move may reach (meteo: before a blocked square)."""
        return target

    def after_move(self, i: int, lost: int) -> None:
        """Hook: called after rider i was placed, having lost `lost` squares to blocking."""

    def landing(self, i: int, value: int) -> tuple[int, int, int]:
        """(moves, square, lane): the squares a card of `value` is worth to rider i
        here and where it lands, every other rider where it stands.  The one
        movement rule of the round and of the previews; rider i's own cell
        counts as free (it has left it)."""
        start, lane = self.pos[i]
        cells = self.cells
        k = start * LANES + lane
        me = cells[k]
        cells[k] = EMPTY
        found = self.lifted_landing(i, start, value)
        cells[k] = me
        return found

    def lifted_landing(self, i: int, start: int, value: int) -> tuple[int, int, int]:
        """`landing` of rider i, on `start`, already lifted off the track (its cell free)."""
        moves = self.moves_for(i, value)
        target = self.path_limit(start, start + moves)
        square, lane = settle(self.cells, self.course.lanes, target)
        return moves, square, lane

    def move_rider(self, i: int, value: int, card: int | None = None) -> None:
        """Move rider i with a card of `value` (`card`: the card played), as the round does."""
        pos = self.pos[i]
        start = pos[0]
        self.cells[start * LANES + pos[1]] = EMPTY
        # lifted here: `landing` would lift it and put it back again (every move of every round)
        moves, square, lane = self.lifted_landing(i, start, value)
        self.cells[square * LANES + lane] = i
        pos[0] = square
        pos[1] = lane
        if self.narrated:  # (before after_move: a crashed rider stands up there)
            reason = move_reason(self.course, start, value, self.standup_penalty(i))
            self.events.append(Move(i, start, square, lane, value, moves, value if card is None else card, (),
                                    reason))
        self.after_move(i, start + moves - square)

    def moves_for(self, i: int, value: int) -> int:
        """Squares a card of `value` is worth to rider i here, before blocking:
        the terrain (engine.terrain.terrain_move) and the stand-up penalty."""
        return effective_move(self.course, self.pos[i][0], value, self.standup_penalty(i))

    def reach(self, i: int, choice: Choice) -> int:
        """Squares card `choice` moves rider i before blocking (View.reach)."""
        return self.moves_for(i, self.card_worth(i, as_card(choice)))

    def card_worth(self, i: int, card: int) -> int:
        """The value card `card` moves rider i by: an exhaustion card its set-up
        value, a scripted rider's card from nowhere the set-up's out_of_cards."""
        if card > 0:
            return card
        if card == ATTACK:
            return self.attack_value(i, self.movement_order())
        return fixed_worth(self.setup, card)

    def preview(self, i: int, choice: Choice) -> Preview:
        """Where card `choice` would take rider i, every other rider standing still
        (engine.options.Preview), by the movement code of the round."""
        card = as_card(choice)
        start = self.pos[i][0]
        value = self.card_worth(i, card)
        moves, square, lane = self.landing(i, value)
        plays_as = effective_move(self.course, start, value)
        terrain = ""
        if plays_as < value:
            terrain = "climb"
        elif plays_as > value:
            terrain = "descent" if self.course.terrain[start] == DESCENT else "supply"
        standup = self.standup_penalty(i)
        lost = start + moves - square
        finish = square >= self.course.finish
        return Preview(i, start, value, moves, plays_as, square, lane, lost > 0, terrain,
                       standup, 0, self.crashes(i, square, lost), not finish and self.in_front(i, square), finish)

    def preview_counting(self, i: int, choice: Choice, own: list[tuple[int, Choice]]) -> Preview:
        """Rider i's preview of `card` counting the seat's own riders whose
        cards are down (`own`: rider, card): they move too, in the round's
        order (furthest first), every other rider still.  A rider of the seat
        that moves before rider i may take its square or open the road; one
        that moves after may land just ahead of it (then it is not in front)."""
        card = as_card(choice)
        if not own:
            return self.preview(i, card)
        twin: ClassicGame = self.clone()
        rank = {k: n for n, k in enumerate(twin.movement_order())}
        mine = rank.get(i, -1)
        down = [(j, as_card(c)) for j, c in own]
        for j, c in sorted(down, key=lambda jc: rank.get(jc[0], -1)):
            if rank.get(j, -1) < mine:  # ahead: it moves first
                twin.move_rider(j, twin.card_worth(j, c), c)
        shown = twin.preview(i, card)
        behind = [(j, c) for j, c in down if rank.get(j, -1) > mine]
        if not behind or shown.finish:
            return shown
        twin.move_rider(i, twin.card_worth(i, card), card)
        for j, c in sorted(behind, key=lambda jc: rank.get(jc[0], -1)):
            twin.move_rider(j, twin.card_worth(j, c), c)
        front = twin.in_front(i, twin.pos[i][0])
        return Preview(shown.rider, shown.start, shown.value, shown.moves, shown.plays_as, shown.square, shown.lane,
                       shown.blocked, shown.terrain, shown.standup, shown.ramp, shown.crash, front, shown.finish)

    def cleared(self, view: View, shown: Preview, choice: Choice) -> Preview:
        """Race.cleared: rider i's preview with the riders that move before it
        lifted from the square its card aims at (they leave it: Preview.crowd CLEAR)."""
        i = shown.rider
        target = shown.start + shown.moves
        twin: ClassicGame = self.clone()
        order = twin.movement_order()
        for k in order[:order.index(i)] if i in order else []:
            square, lane = twin.pos[k]
            if square == target:
                twin.cells[square * LANES + lane] = EMPTY
                twin.pos[k] = [-1, 0]
        own = [(j, c) for j, c in view.chosen.items() if j != i and c is not None]
        moved = twin.preview_counting(i, choice, own)
        if moved.square != target:
            return shown
        return shown.landing_on(moved.square, moved.lane, moved.front, moved.finish)

    def holds_back(self, square: int) -> bool:
        """Hook: riders on the square may be unable to receive slipstream at the
        end of this round (a climb, cobbles; meteo also a crosswind, a crash)."""
        return not ClassicGame.slip_eligible(self, square)

    def may_pull(self, square: int) -> bool:
        """Hook: riders on the square may receive slipstream at the end of this round."""
        return ClassicGame.slip_eligible(self, square)

    def sure_shelter(self, view: View, i: int, card: int, ends: dict[int, int]) -> bool:
        """Whether rider i's `card` leaves it sheltered whatever the others play:
        it certainly ends its move on a square s (Race.sure_landing), a rider
        of its seat whose card is down (`ends`: rider -> where it ends, the
        others still) certainly on s + 1, short of the line, and slipstream
        cannot part them: no square from s to the furthest any rider may reach
        where riders may be held back while the riders just ahead may be
        carried on."""
        s = self.sure_landing(view, i, card)
        if s is None:
            return False
        chosen = view.chosen
        mate = False
        for j, c in chosen.items():
            if j != i and c is not None and ends.get(j) == s + 1 and self.sure_landing(view, j, c) == s + 1:
                mate = True
        if not mate or s + 1 >= self.course.finish:
            return False
        top = s + 1
        for k in range(len(self.riders)):
            square = self.pos[k][0]
            if square >= 0:
                down = chosen.get(k)
                top = max(top, square + (self.reach(k, down) if down is not None else self.furthest(view, k)))
        top = min(top, len(self.course.lanes) - 2)
        for t in range(s, top + 1):
            if self.holds_back(t) and self.may_pull(t + 1):
                return False
        return True

    def wind(self, view: View, i: int, choice: Choice) -> str:
        """Preview.wind of rider i's `card`, from the seat's view: WIND, MAY or "".

        The seat's own riders whose cards are down move with it, in the round's
        order, and the round's own end phase runs on that (slipstream, the
        exhaustion rule, the race's end).  Every other rider's card is hidden:
        such a rider could end anywhere from its square to the furthest its
        possible cards take it (View.unseen, its face-up recycled cards, an
        exhaustion card).  If none of them could stand, before or after moving,
        on a square from the rearmost start of the riders moved to 3 squares
        past the furthest they reach, nothing they play changes this answer: it
        is exact.  Otherwise, or when one of them could end the race (no
        exhaustion then), the others' cards decide: MAY."""
        card = as_card(choice)
        own = [(j, as_card(c)) for j, c in view.chosen.items() if j != i and c is not None]
        moved = own + [(i, card)]
        twin: ClassicGame = self.clone()
        rank = {k: n for n, k in enumerate(twin.movement_order())}
        lo = hi = twin.pos[i][0]
        for j, c in sorted(moved, key=lambda jc: rank.get(jc[0], -1)):
            start = twin.pos[j][0]
            lo = min(lo, start)
            hi = max(hi, start + twin.reach(j, c))
            twin.move_rider(j, twin.card_worth(j, c), c)
        finish = self.course.finish
        if twin.pos[i][0] >= finish:
            return ""  # over the line: the preview says "finish"
        ends = {j: twin.pos[j][0] for j, _ in moved}  # before the end phase
        for j, _ in moved:
            hi = max(hi, twin.pos[j][0])
        hi += 3
        twin.events = []
        twin.narrated = True  # the answer is read from the end phase's events
        twin.end_phase()
        tired = False
        for e in twin.events:
            if isinstance(e, Exhaustion) and e.rider == i:
                tired = True
        movers = {j for j, _ in moved}
        if not tired and own and self.sure_shelter(view, i, card, ends):
            return ""  # a rider of its seat certainly just ahead of it
        for j in range(len(self.riders)):
            square = self.pos[j][0]
            if j in movers or square < 0:
                continue
            top = square + self.furthest(view, j)
            if top >= lo and square <= hi:
                return MAY
            if tired and top >= finish and not self.setup.tour:
                return MAY  # it may end the race: nobody takes exhaustion then
        return WIND if tired else ""

    def possible_moves(self, view: View, j: int) -> set[int]:
        """The squares rider j's card may move it this round (before blocking),
        as the seat may know it: any card it may hold (View.unseen, its hand
        for the seat's own rider, its recycled cards, which come back when its
        deck runs out), an exhaustion card, a card from nowhere; a scripted
        team any card of its decks (and Attack)."""
        rider = self.riders[j]
        cards = set(view.unseen(j))
        cards.update(view.hands.get(j, ()))  # a rider of the seat whose card is not down yet
        cards.update(view.board.riders[j].recycled)
        cards.add(EXHAUSTION)
        cards.add(NOWHERE)
        script = self.script[rider.seat]
        if script:
            cards.update(starting_deck(self.setup, rider.seat, SPRINTEUR))
            cards.update(starting_deck(self.setup, rider.seat, ROULEUR))
            if script == PELOTON:
                cards.add(ATTACK)
        return {self.reach(j, c) for c in cards}

    def in_front(self, i: int, square: int) -> bool:
        """Nobody but rider i on the square just ahead of `square`."""
        return square_empty(self.cells, square + 1, i)

    def options(self, view: View) -> list[Option]:
        """The seat's choices now, from its view, each card with its preview
        (this game is the board's position: View.options calls this)."""
        seat = view.seat
        if self.phase == GRID:
            return [Option(a) for a in self.legal_actions(seat)]
        if self.phase == BREAKAWAY:  # the rider to bid with, then its bid card (a bid moves nobody)
            if self.script[seat]:
                return []
            for i, hand in view.hands.items():
                return [Option(Bid(self.riders[i].id, c)) for c in sorted(set(hand))]
            if view.first_drawn is not None:
                return []
            return [Option(draw(self.riders[i].id)) for i in self.seats[seat]]
        if self.phase != ENERGY:
            return []
        for i, hand in view.hands.items():
            rid = self.riders[i].id
            own: list[tuple[int, Choice]] = [(j, c) for j, c in view.chosen.items() if j != i and c is not None]
            return [Option(play(rid, c), self.preview_counting(i, c, own)) for c in sorted(set(hand))]
        if view.first_drawn is not None:
            return []
        return [Option(draw(self.riders[i].id)) for i in self.seat_riders(seat) if i not in view.chosen]

    def move_phase(self) -> None:
        """Reveal and move every rider, in order.  Played cards leave the game."""
        self.events = ([Reveal(tuple((i, r.played) for i, r in enumerate(self.riders) if i not in self.crossed))]
                       if self.narrated else [])
        riders = self.riders
        order = self.movement_order()
        for i in order:
            rider = riders[i]
            card = rider.played
            assert card is not None
            rider.history.append(card)
            rider.played = None
            if card == ATTACK:
                self.move_rider(i, self.attack_value(i, order), card)
            else:
                self.move_rider(i, self.card_worth(i, card), card)

    # ------------------------------------------------------------ end phase

    def slip_eligible(self, square: int) -> bool:
        """Riders on the square may give and receive slipstream: not on a climb,
        not on cobbles (PELOTON.md); in a tour, not across the finish line."""
        if self.setup.tour and not 0 <= square < self.course.finish:
            return False
        terrain = self.course.terrain[square]
        return terrain != ASCENT and terrain != COBBLE

    def slip_gap(self, square: int) -> bool:
        """Slipstream may cross the empty square: any but a cobble square
        (PELOTON.md's ruling; an empty ascent square lets it through)."""
        return self.course.terrain[square] != COBBLE

    def gap_closed(self, i: int, frm: int, frm_lane: int, to: int, lane: int) -> None:
        self.riders[i].slipstream += to - frm
        if self.narrated:
            self.events.append(Slipstream(i, frm, frm_lane, to, lane))

    def end_phase(self) -> None:
        """Finish check, then slipstream and exhaustion if the race goes on."""
        if self.setup.tour:
            self.tour_end_phase()
            return
        finish = self.course.finish
        for p in self.pos:
            if p[0] >= finish:
                self.finish_race()
                return
        cells = self.cells
        close_gaps(self, self.max_gap)
        spare_scripted = not self.setup.scripted_exhaustion
        for i, p in enumerate(self.pos):  # every rider is on the track: the cells show who is just ahead
            if square_empty(cells, p[0] + 1) and not (spare_scripted and self.script[self.riders[i].seat]):
                self.tire(i)

    def tour_end_phase(self) -> None:
        """A stage of a tour: riders across the line have
        finished; they give and receive no slipstream and take no exhaustion,
        and leave the track at the end of the round.  The others play the end
        phase as usual; the stage ends when nobody is left on the track."""
        finish = self.course.finish
        pos = self.pos
        across = [i for i in self.movement_order() if pos[i][0] >= finish]
        for i in across:
            self.crossed[i] = (self.round, pos[i][0], pos[i][1])
            if self.narrated:
                self.events.append(Crossed(i, pos[i][0] - finish + 1))
        if len(self.crossed) == len(self.riders):
            self.lift(across)
            self.finish_race()
            return
        close_gaps(self, self.max_gap)  # slip_eligible: only riders before the line
        # riders across the line this round still stand there: they shelter the rider behind
        occupied = {p[0] for p in pos if p[0] >= 0}
        spare_scripted = not self.setup.scripted_exhaustion
        for i, p in enumerate(pos):
            if i in self.crossed or p[0] + 1 in occupied or (spare_scripted and self.script[self.riders[i].seat]):
                continue
            self.tire(i)
        self.lift(across)

    def lift(self, riders: list[int]) -> None:
        """Take riders off the track (they finished a tour stage): their square is free."""
        for i in riders:
            square, lane = self.pos[i]
            self.cells[square * LANES + lane] = EMPTY
            self.pos[i] = [-1, -1]
            if not self.script[self.riders[i].seat]:
                self.players_riders -= 1

    def ranking(self) -> list[int]:
        """Rider indices, furthest first; on one square lane 0 first.  In a
        tour, riders that crossed the line come first, in their stage placing."""
        order = ranking(self.pos)
        if not self.crossed:
            return order
        crossed = self.crossed
        done = sorted(crossed, key=lambda i: (crossed[i][0], -crossed[i][1], crossed[i][2]))
        return done + [i for i in order if i not in crossed]

    def tire(self, i: int) -> None:
        rider = self.riders[i]
        rider.set_recycled(rider.recycled + (EXHAUSTION,))
        rider.exhaustion += 1
        if self.narrated:
            self.events.append(Exhaustion(i))

    def finish_race(self) -> None:
        self.phase = OVER
        self.winner = self.ranking()[0]
        if self.narrated:
            self.events.append(Finish(self.winner, stage=bool(self.setup.tour)))  # a tour's stage, not a race

    def resolve_round(self) -> None:
        self.next_round()
        if self.scripted_out:
            self.play_scripted_out()

    def check_choice(self, choice: Choice) -> None:
        as_card(choice)

    def lay_down(self, i: int, choice: Choice) -> None:
        rider = self.riders[i]
        rider.set_recycled(rider.recycled + rider.hand)  # what a play does with the cards not kept
        rider.hand = ()
        rider.played = as_card(choice)

    def play_scripted_out(self) -> None:
        """A tour stage with only scripted riders left on the track: nobody is
        asked anything, they play their top cards by themselves until every
        rider has finished (GRAND-TOUR.md).  The events of every round so
        resolved are kept, in order."""
        while self.phase == ENERGY and self.setup.tour and not self.players_riders:
            events = self.events
            self.next_round()
            self.events = events + self.events

    def next_round(self) -> None:
        """Move, end phase, and the next round's energy phase."""
        self.move_phase()
        self.end_phase()
        self.forget_draws()
        self.waiting = self.players_riders
        for rider in self.riders:
            rider.shown_recycled = rider.shown_deck = None
        if self.phase != OVER:
            self.round += 1
            self.begin_energy()

    def clone(self, rng: Rng | None = None) -> ClassicGame:
        twin = cast(ClassicGame, super().clone(rng))  # blank() made it
        if PELOTON in self.script:
            twin.share_piles()
        return twin

    # -------------------------------------------------------------- helpers

    def blank(self) -> ClassicGame:
        return type(self)(self.setup, self.seed, _blank=True)

    def _clone_into(self, race: Race) -> None:
        twin = cast(ClassicGame, race)  # blank() made it
        twin.riders = [r.copy() for r in self.riders]
        twin.phase = self.phase
        twin.drawn_first = self.drawn_first.copy()
        twin.waiting = self.waiting
        twin.players_riders = self.players_riders
        twin.crossed = self.crossed.copy()
        twin.bid_round = self.bid_round
        twin.scripted_out = self.scripted_out
        twin.index = self.index.copy()
        twin.seats = self.seats.copy()

    def seat_riders_of(self, seat: int) -> list[int]:
        return [i for i, r in enumerate(self.riders) if r.seat == seat]

    # ------------------------------------------------- positions from data

    @classmethod
    def from_position(cls, course: Course, riders: Sequence[Placed], seed: int = 0,
                      rules: ClassicSetup | BmxSetup | None = None) -> ClassicGame:
        """A game in its energy phase with riders where the caller says
        (conformance cases, tests), each with a full deck of its type,
        shuffled.  `rules` gives the decks and numbers (the data files'
        set-up); by default the rulebook's."""
        colours: list[str] = []
        for r in riders:
            colour = r.id.split(".")[0]
            if colour not in colours:
                colours.append(colour)
        teams = tuple(Team(c, c) for c in colours)
        if rules is None:
            setup = ClassicSetup(course=course, teams=teams, variant=cls.variant)
        elif isinstance(rules, ClassicSetup):
            setup = replace(rules, course=course, teams=teams, variant=cls.variant, handicap=(), grid="random")
        else:
            raise ValueError(f"{cls.variant}: not a {rules.variant} set-up")
        game = cls(setup, seed, _blank=True)
        game.rng = Rng(seed)
        for r in riders:
            colour, kind = r.id.split(".")
            rider = Rider(r.id, colours.index(colour), kind)
            rider.deck = list(setup.decks[kind])
            game.rng.shuffle(rider.deck)
            rider.crashed = r.crashed
            game.riders.append(rider)
            game.pos.append([-1, -1])
            game._put(len(game.riders) - 1, r.square, r.lane)
        game.index = {r.id: i for i, r in enumerate(game.riders)}
        game.seats = [game.seat_riders_of(seat) for seat in range(len(colours))]
        game.phase = ENERGY
        game.players_riders = game.waiting = len(game.riders)
        return game

    @classmethod
    def from_board(cls, shown: Board) -> ClassicGame:
        """A game at the board's position: riders where the board shows them,
        crashed as shown, the public piles (no hands, no face-down cards).
        What previews move riders on; `sample` fills in the hidden cards."""
        game = cls(classic_setup(shown), 0, _blank=True)
        game.course = shown.course  # meteo: with this race's weather
        game.round = shown.round
        game.phase = shown.phase
        for r in shown.riders:
            rider = Rider(r.id, r.seat, r.kind)
            rider.crashed = r.crashed
            rider.exhaustion = r.exhaustion
            rider.supply_played = r.from_supply
            rider.history = cards_of(r.history)
            rider.recycled = r.recycled
            rider.bids = list(r.bids)
            game.riders.append(rider)
            game.pos.append([r.square, r.lane])
            if r.square >= 0:
                game.cells[r.square * LANES + r.lane] = r.index
            elif r.index in shown.crossed:
                game.crossed[r.index] = shown.crossed[r.index]  # it finished the stage and left the track
        game.index = {r.id: i for i, r in enumerate(game.riders)}
        game.seats = [game.seat_riders_of(seat) for seat in range(len(shown.setup.teams))]
        game.players_riders -= sum(1 for i in game.crossed if not game.script[game.riders[i].seat])
        game.public_cache = shown
        return game

    @classmethod
    def sample(cls, view: View, rng: Rng, unseen: Sequence[tuple[int, ...]] | None = None) -> ClassicGame:
        """A whole game consistent with the seat's view (View.sample): every
        face-down deck dealt at random from the cards the seat cannot place,
        other seats' hands drawn again from them; the seat's own hand and
        chosen card as it knows them.  The game draws from `rng` from then on."""
        game = cls.from_board(view.board)
        game.rng = rng
        game.phase = ENERGY
        game.public_cache = None
        for rider in game.riders:
            i = game.index[rider.id]
            rider.deck = list(view.unseen(i) if unseen is None else unseen[i])
            rng.shuffle(rider.deck)
            if i in view.own:
                rider.recycled = view.own[i][1]
                rider.hand = view.hands.get(i, ())
                chosen = view.chosen.get(i)
                rider.played = None if chosen is None else as_card(chosen)
            # another seat's rider: its recycled pile as before this round's draw, and it draws again here
        if view.first_drawn is not None:
            game.drawn_first[view.seat] = view.first_drawn
        scripted = [i for i, r in enumerate(game.riders) if game.script[r.seat]]
        game.waiting = sum(1 for i, rider in enumerate(game.riders)
                           if rider.played is None and i not in scripted and i not in game.crossed)
        if scripted:  # their face-down cards of this round, drawn again from the sampled decks
            game.share_piles()
            game.begin_energy()
        for seat in range(len(game.seats)):  # other players racing one rider draw again too
            i = game.seats[seat][0]
            if seat != view.seat and game.riders[i].played is None:
                game.draw_lone(seat)
        return game

    def state_key(self) -> tuple[object, ...]:
        """The game as the rules know it, as plain values in a fixed order
        (version 1 of the key, see Race.state_key): round, phase, winner,
        positions, every rider's piles in order (hidden ones included),
        crashes, meteo weather, who drew first; with the breakaway, its bids
        at the end (a race without one has the key it always had)."""
        riders = tuple(
            (r.id, tuple(r.deck), r.recycled, r.hand, r.played, r.crashed,
             r.exhaustion, r.supply_played, r.slipstream, r.crashes, tuple(r.history))
            for r in self.riders
        )
        key: tuple[object, ...] = (self.variant, self.round, self.phase.value, self.winner, tuple(tuple(p) for p in self.pos),
               riders, tuple(self.course.weather), tuple(self.first_drawn.items()), None,
               tuple(sorted(self.crossed.items())) if self.setup.tour else None)
        if self.setup.breakaway:
            key += (self.bid_round, tuple(tuple(r.bids) for r in self.riders))
        return key

    def team_piles(self, seat: int) -> tuple[int, int, int, int]:
        """(exhaustion taken, slipstream squares, crashes, cards left) of a seat's team."""
        riders = [self.riders[i] for i in self.seats[seat]]
        # each pile once: the Peloton team's two riders share theirs
        held = riders[:1] if self.script[seat] == PELOTON else riders
        return (sum(r.exhaustion for r in riders), sum(r.slipstream for r in riders),
                sum(r.crashes for r in riders), sum(len(r.deck) + len(r.recycled) for r in held))


# ------------------------------------------------------------------- views


class ClassicBoard(Board):
    """The public board of a classic race."""

    def reach(self, i: int, choice: Choice) -> int:
        """View.reach for classic: the terrain's effect on the card (a classic rider
        never lies down; meteo.MeteoBoard adds the stand-up penalty)."""
        card = as_card(choice)
        if card == ATTACK:  # the Peloton's Attack card depends on the order of its riders
            reach: int = self.position().reach(i, card)
            return reach
        square = self.riders[i].square
        if 0 < card < MOVE_TABLE:
            # a card moving by its value: the course's table, what effective_move reads for it
            # (written out here: bots ask this for every card of every hand they hold)
            return self.course.moves[square][card]
        setup = cast(ClassicSetup, self.setup)  # a direct field read, compiled
        return effective_move(self.course, square, fixed_worth(setup, card))


def board_riders(game: ClassicGame) -> tuple[RiderView, ...]:
    """The riders of the public board of a classic or meteo game (each shows the rider's
    own history list as long as it is now: RiderView.history)."""
    riders = []
    pos = game.pos
    for i, r in enumerate(game.riders):
        deck, recycled = r.shown_deck, r.shown_recycled
        shown = deck is not None and recycled is not None
        p = pos[i]
        riders.append(RiderView(
            i, r.id, r.seat, r.kind, p[0], p[1], r.crashed,
            deck if deck is not None else len(r.deck),
            recycled if recycled is not None else r.recycled,
            r.exhaustion, r.history, r.shown_supply if shown else r.supply_played,
            tuple(r.bids) if r.bids else (),  # (bids only in a breakaway: the empty tuple shared, not built)
        ))
    return tuple(riders)


def classic_view(game: ClassicGame, seat: int) -> View:
    """Seat `seat`'s view of a classic or meteo game now."""
    riders = game.riders
    mine = game.seats[seat]
    drawn = game.drawn_first[seat]
    first = None if drawn == NOBODY else drawn
    if len(mine) == 2:  # a team: its two riders held by the view itself (engine.view.TeamView)
        a, b = riders[mine[0]], riders[mine[1]]
        return TeamView(board(game), seat, first, mine[0], a.hand, a.played, len(a.deck), a.recycled,
                        mine[1], b.hand, b.played, len(b.deck), b.recycled)
    seen: list[object] = []
    for i in mine:
        r = riders[i]
        seen.extend((i, r.hand, r.played, len(r.deck), r.recycled, None))
    return View(board(game), seat, None, None, None, first, None, tuple(seen))


def classic_unseen(view: View, i: int) -> tuple[int, ...]:
    """View.unseen for classic and meteo: the cards of rider i the seat cannot place."""
    shown = view.board
    r = shown.riders[i]
    setup = classic_setup(shown)
    deck = starting_deck(setup, r.seat, r.kind)
    if not deck:  # the Peloton's Rouleur: its cards are counted with its Sprinteur's
        return ()
    # card -> copies left unplaced (a typed dict: a Counter is called through Python,
    # and every world a searching bot samples asks this for every rider)
    cards: dict[int, int] = {}
    _count(cards, deck, 1)
    extra = r.exhaustion + r.from_supply
    if scripted_kind(setup, r.seat) == PELOTON:  # one deck for both riders, one card played for both
        for m in shown.riders:
            if m.seat == r.seat and m.index != i:
                extra += m.exhaustion
    cards[EXHAUSTION] = cards.get(EXHAUSTION, 0) + extra
    _count(cards, [c for c in cards_of(r.history) if c != NOWHERE], -1)  # a card from nowhere was in no pile
    _count(cards, r.bids, -1)  # revealed breakaway bids, out of its piles
    if i in view.own:
        _count(cards, view.own[i][1], -1)
        _count(cards, view.hands.get(i, ()), -1)
        if i in view.chosen:
            _count(cards, [as_card(view.chosen[i])], -1)
    else:
        _count(cards, r.recycled, -1)
    out: list[int] = []
    for card in sorted(cards):
        for _ in range(cards[card]):  # none when placed as often or more (as Counter.elements)
            out.append(card)
    return tuple(out)


def _count(cards: dict[int, int], pile: Sequence[int], step: int) -> None:
    """Add `step` to the count of each card of the pile."""
    for card in pile:
        cards[card] = cards.get(card, 0) + step


def as_card(choice: Choice) -> int:
    """The card a classic (meteo) choice is; RuleError for a set of tokens (bmx)."""
    if isinstance(choice, int):
        return choice
    raise RuleError(f"a card, not tokens {choice!r}")


def cards_of(history: tuple[Choice, ...]) -> list[int]:
    """A classic rider's history (RiderView.history) as the cards it is."""
    return [as_card(c) for c in history]


def classic_setup(shown: Board) -> ClassicSetup:
    """The board's set-up, of a classic or meteo race (RuleError for bmx)."""
    setup = shown.setup
    if isinstance(setup, ClassicSetup):
        return setup
    raise RuleError(f"not a classic set-up: {setup.variant}")


def take_top(deck: list[int], n: int) -> tuple[int, ...]:
    """The deck's top n cards (its end), taken from it, top first (n less than the
    deck's size: the usual draw)."""
    if n == 4:  # the usual draw size: a tuple of four made at once, from a pop each
        cards = cast(list[object], deck)  # (moved as objects: read as ints, each was unboxed and boxed again)
        a = cards.pop()
        b = cards.pop()
        c = cards.pop()
        return cast(tuple[int, ...], (a, b, c, cards.pop()))
    out: list[int] = []
    pop_into(deck, out, n)
    return tuple(out)


def pop_into(deck: list[int], hand: list[int], n: int) -> None:
    """Move the deck's top n cards (its end) to the hand, top first: a pop each (a compiled
    primitive; cutting a slice off builds a slice object and took half as long again)."""
    # moved as objects (read as ints, each was unboxed and boxed again)
    cards, held = cast(list[object], deck), cast(list[object], hand)
    if n >= len(deck):
        # the whole deck: read, then emptied by clear(), which frees its memory.  (Popped to
        # empty, CPython gave the list a C-library block for no items, and from then on every
        # pop or extend that resized the deck went through the C library's realloc: a tenth of a race.)
        k = len(deck)
        while k > 0:
            k -= 1
            held.append(cards[k])
        deck.clear()
        return
    while n > 0:  # (not `for _ in range(n)`: mypyc boxed `_` at every turn)
        held.append(cards.pop())
        n -= 1


def rest(hand: tuple[int, ...], k: int) -> tuple[int, ...]:
    """The hand without its card k, in order: one tuple made (slices before and after
    it, then their sum, made three)."""
    n = len(hand)
    if k == 0:
        return hand[1:]
    if k == n - 1:
        return hand[:k]
    if n == 4:  # the usual hand
        return (hand[0], hand[2], hand[3]) if k == 1 else (hand[0], hand[1], hand[3])
    return hand[:k] + hand[k + 1:]


def distinct(hand: tuple[int, ...]) -> list[int]:
    """The hand's cards, each once, lowest first: `sorted(set(hand))` as a
    typed insertion (a hand is a few cards; bots ask it for every play)."""
    out: list[int] = []
    for card in hand:
        k = len(out)
        while k > 0 and out[k - 1] > card:
            k -= 1
        if k == 0 or out[k - 1] != card:
            out.insert(k, card)
    return out


def holds(hand: tuple[int, ...], card: int) -> bool:
    """`card in hand`, as a typed loop (`in` on a tuple is a generic call, compiled)."""
    for c in hand:
        if c == card:
            return True
    return False


def fixed_worth(setup: ClassicSetup, card: int) -> int:
    """What a card other than Attack moves a rider by (ClassicGame.card_worth, from the set-up alone)."""
    if card > 0:
        return card
    return setup.out_of_cards if card == NOWHERE else setup.exhaustion_value


CLASSIC = RuleSet(
    name="classic", title="Classic", game=ClassicGame, setup=ClassicSetup,
    uses_tokens=False, has_weather=False, scripted_teams=True, grid_choice=True, riders_per_seat=2, max_teams=6,
    catch_up_die=False, exhaustion_word="exhaustion card", piece_word="card",
    unseen=classic_unseen,
)
