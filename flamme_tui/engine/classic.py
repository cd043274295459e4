"""Classic Flamme Rouge: decks, energy phase, movement and end phase.

A ClassicGame is the whole state of a race (riders, piles, the RNG) plus the
rules as methods.  Meteo subclasses it and overrides a few named hooks:
deal, draw_size, standup_penalty, path_limit, after_move, slip_eligible.

The Peloton expansion's scripted teams (Peloton, Muscle) make no choices:
when an energy phase begins the engine turns up their top cards itself, so
they never appear in the action log and never wait for a key.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import ClassVar

from ..course import ASCENT, MOVE_TABLE, Course, terrain_move
from .actions import Action, Draw, Place, Play
from .cards import (  # noqa: F401  (card names are re-exported for the rest of the app)
    ATTACK,
    EXHAUSTION,
    EXHAUSTION_VALUE,
    MUSCLE,
    PELOTON,
    ROULEUR,
    SCRIPTED,
    SPRINTEUR,
    card_text,
    card_value,
    scripted_kind,
    starting_deck,
)
from .race import Race, RuleError
from .track import EMPTY, close_gaps, ranking, settle
from .view import View, classic_view

GRID, ENERGY, OVER = "grid", "energy", "over"


def effective_move(course: Course, start: int, value: int, penalty: int = 0) -> int:
    """Squares a card of `value` moves a rider from `start` (see course.terrain_move)."""
    if penalty or value >= MOVE_TABLE:
        return terrain_move(course.terrain, course.next_ascent, start, value, penalty)
    return course.moves[start][value]


@dataclass(frozen=True, slots=True)
class Team:
    name: str
    colour: str  # the id prefix of its riders, e.g. "red"


@dataclass(frozen=True, slots=True)
class ClassicSetup:
    """Everything a classic or meteo race is built from, besides the seed."""

    course: Course
    teams: tuple[Team, ...]
    # the defaults are the rulebook's numbers, for tests; races are built from stages/variants/*.yaml
    decks: dict = field(default_factory=lambda: {SPRINTEUR: (2, 3, 4, 5, 9) * 3, ROULEUR: (3, 4, 5, 6, 7) * 3})
    hand_size: int = 4
    exhaustion_value: int = EXHAUSTION_VALUE
    grid: str = "random"  # "random" or "choose" (players place their riders)
    handicap: tuple[int, ...] = ()  # extra exhaustion cards in each rider deck, per team
    variant: str = "classic"
    # meteo: the token pool (one entry per token, FAIR = ""), draws under wind, stand-up cost
    weather_tokens: tuple[str, ...] = ()
    tailwind_draw: int = 5
    headwind_draw: int = 3
    standup_penalty: int = 2
    # the Peloton expansion's scripted teams (classic only), per seat: "" (a player), PELOTON or MUSCLE
    scripted: tuple[str, ...] = ()
    muscle_extra: tuple[int, ...] = (5,)  # added to the Muscle team's Sprinteur deck
    peloton_attacks: int = 2  # Attack cards in the Peloton team's one deck (a Rouleur deck)
    attack: tuple[int, int] = (2, 9)  # what an Attack card moves the Peloton's front and rear rider
    scripted_exhaustion: bool = False  # whether scripted teams take exhaustion cards (the rules: never)


class Rider:
    """One rider's piles and history.  Position lives in the game's `pos`."""

    __slots__ = (
        "id", "seat", "kind", "deck", "recycled", "hand", "played", "crashed",
        "exhaustion", "supply_played", "slipstream", "crashes", "history",
        "shown_recycled", "shown_deck", "shown_supply",
    )

    def __init__(self, rid: str, seat: int, kind: str) -> None:
        self.id = rid
        self.seat = seat
        self.kind = kind
        self.deck: list[int] = []  # face down; the top is the end of the list
        self.recycled: list[int] = []  # face up, public
        self.hand: list[int] = []  # drawn, not yet chosen from (private)
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

    def copy(self) -> Rider:
        twin = Rider(self.id, self.seat, self.kind)
        twin.deck, twin.recycled, twin.hand = self.deck[:], self.recycled[:], self.hand[:]
        twin.played, twin.crashed, twin.exhaustion = self.played, self.crashed, self.exhaustion
        twin.supply_played, twin.slipstream, twin.crashes = self.supply_played, self.slipstream, self.crashes
        twin.history = self.history[:]
        twin.shown_recycled, twin.shown_deck, twin.shown_supply = self.shown_recycled, self.shown_deck, self.shown_supply
        return twin


class ClassicGame(Race[Rider, ClassicSetup]):
    variant: ClassVar[str] = "classic"
    max_gap: ClassVar[int] = 1  # slipstream closes one-square gaps

    def view(self, seat: int) -> View:
        return classic_view(self, seat)

    def __init__(self, setup: ClassicSetup, seed: int, *, _blank: bool = False) -> None:
        super().__init__(setup, seed)
        self.phase = GRID
        self.first_drawn: dict[int, int] = {}  # seat -> rider index drawn first this round
        self.script = tuple(scripted_kind(setup, seat) for seat in range(len(setup.teams)))
        if any(self.script):
            if len(setup.scripted) != len(setup.teams):
                raise ValueError("scripted: one entry per team")
            if setup.variant != "classic":
                raise ValueError("the Peloton and Muscle teams race in classic only")
            if all(self.script):
                raise ValueError("a race with scripted teams needs at least one other team")
        # riders still to choose a card this round (scripted teams never choose)
        self.players_riders = 2 * sum(1 for s in self.script if not s)
        self.waiting = self.players_riders
        if _blank:
            return
        for seat, team in enumerate(setup.teams):
            for kind in (SPRINTEUR, ROULEUR):
                rider = Rider(f"{team.colour}.{kind}", seat, kind)
                rider.deck = list(starting_deck(setup, seat, kind))
                self.riders.append(rider)
                self.pos.append([-1, -1])
        self.index = {r.id: i for i, r in enumerate(self.riders)}
        self.seats = [self.seat_riders_of(seat) for seat in range(len(setup.teams))]
        self.deal()
        for rider in self.riders:
            self.rng.shuffle(rider.deck)
        self.share_piles()
        self.line_up_scripted()
        if setup.grid == "random":
            self.random_grid()
            self.begin_energy()

    def deal(self) -> None:
        """Hook: set-up that uses the RNG before the decks are shuffled (meteo weather)."""

    # ----------------------------------------------------------------- grid

    def grid_places(self) -> list[tuple[int, int]]:
        """Free (square, lane) places behind the start line, front first."""
        return [
            (sq, lane)
            for sq in range(self.course.grid - 1, -1, -1)
            for lane in range(self.course.lanes[sq])
            if self.cells[2 * sq + lane] == EMPTY
        ]

    def random_grid(self) -> None:
        places = self.grid_places()
        self.rng.shuffle(places)
        unplaced = [i for i in range(len(self.riders)) if self.pos[i][0] < 0]
        for i, place in zip(unplaced, places):
            self._put(i, *place)

    def to_place(self) -> int | None:
        """The rider index to place next: seats in turn, both riders of a seat."""
        for i in range(len(self.riders)):
            if self.pos[i][0] < 0:
                return i
        return None

    # --------------------------------------------------------------- energy

    def draw_size(self, i: int) -> int:
        return self.setup.hand_size

    def _draw(self, i: int, n: int = 0) -> None:
        """Draw the rider's hand: n cards, or by default its draw size."""
        rider = self.riders[i]
        deck, hand = rider.deck, rider.hand
        rider.shown_recycled = tuple(rider.recycled)
        rider.shown_deck = len(deck)
        rider.shown_supply = rider.supply_played
        n = n or self.draw_size(i)
        if len(deck) >= n:  # the usual case, in one step: the top n cards, top first
            hand.extend(deck[: -n - 1 : -1])
            del deck[-n:]
            return
        for _ in range(n):
            if not deck:
                if not rider.recycled:
                    break
                deck.extend(rider.recycled)
                rider.recycled.clear()
                self.rng.shuffle(deck)
            hand.append(deck.pop())
        if not hand:
            # no cards at all: play an exhaustion card from the supply
            hand.append(EXHAUSTION)
            rider.supply_played += 1

    def seat_riders(self, seat: int) -> list[int]:
        return self.seats[seat]

    def to_move(self) -> list[int]:
        """Seats that still have something to do in this phase."""
        if self.phase == GRID:
            nxt = self.to_place()
            return [] if nxt is None else [self.riders[nxt].seat]
        if self.phase == ENERGY:
            return sorted({r.seat for r in self.riders if r.played is None})
        return []

    def needs(self, seat: int) -> bool:
        """Whether the seat has anything to do now."""
        if self.phase == ENERGY:
            for i in self.seats[seat]:
                if self.riders[i].played is None:
                    return True
            return False
        return seat in self.to_move()

    def legal_actions(self, seat: int) -> list[Action]:
        if self.phase == GRID:
            nxt = self.to_place()
            if nxt is None or self.riders[nxt].seat != seat:
                return []
            rid = self.riders[nxt].id
            return [Place(rid, sq, lane) for sq, lane in self.grid_places()]
        if self.phase != ENERGY:
            return []
        mine = self.seat_riders(seat)
        for i in mine:
            if self.riders[i].hand:
                return [Play(self.riders[i].id, c) for c in sorted(set(self.riders[i].hand))]
        if seat in self.first_drawn or all(self.riders[i].played is not None for i in mine):
            return []
        return [Draw(self.riders[i].id) for i in mine]

    def apply(self, action: Action | str) -> None:
        """Apply one action; raise RuleError (and change nothing) if illegal."""
        action, i = self._actor(action)
        rider = self.riders[i]
        if type(action) is Play:
            if self.phase != ENERGY or action.card not in rider.hand:
                raise RuleError(f"{action} is not allowed now")
            self.actions.append(action)
            self._play(i, action.card)
        elif type(action) is Draw:
            if self.phase != ENERGY or rider.seat in self.first_drawn or rider.played is not None:
                raise RuleError(f"{action} is not allowed now")
            self.actions.append(action)
            self.first_drawn[rider.seat] = i
            self._draw(i)
        elif type(action) is Place:
            if self.phase != GRID or self.to_place() != i or (action.square, action.lane) not in self.grid_places():
                raise RuleError(f"{action} is not allowed now")
            self.actions.append(action)
            self._put(i, action.square, action.lane)
            if self.to_place() is None:
                self.begin_energy()
        else:
            raise RuleError(f"{action} is not an action of this game")

    def _play(self, i: int, card: int) -> None:
        rider = self.riders[i]
        rider.hand.remove(card)
        rider.played = card
        self.waiting -= 1
        rider.recycled.extend(rider.hand)
        rider.hand.clear()
        # the other rider of the seat draws only now
        for j in self.seats[rider.seat]:
            if self.riders[j].played is None and not self.riders[j].hand:
                self._draw(j)
                return
        if not self.waiting:
            self.resolve_round()

    # ------------------------------------------------------ scripted teams

    def line_up_scripted(self) -> None:
        """Scripted teams start at the front of the grid, before anybody else
        is placed: the Peloton teams first, then the Muscle teams, each
        Sprinteur ahead of its Rouleur."""
        for kind in SCRIPTED:
            for seat, script in enumerate(self.script):
                if script == kind:
                    for i in self.seats[seat]:
                        self._put(i, *self.grid_places()[0])

    def share_piles(self) -> None:
        """The Peloton team's Rouleur uses its Sprinteur's piles (the same
        lists), so its exhaustion cards go to the one team deck."""
        for seat, script in enumerate(self.script):
            if script == PELOTON:
                owner, mate = (self.riders[i] for i in self.seats[seat])
                mate.deck, mate.recycled = owner.deck, owner.recycled

    def begin_energy(self) -> None:
        """A new energy phase: the scripted teams turn up their top cards."""
        self.phase = ENERGY
        for seat, script in enumerate(self.script):
            if not script:
                continue
            a, b = self.seats[seat]
            if script == PELOTON:  # one card for both riders
                owner, mate = self.riders[a], self.riders[b]
                self._draw(a, 1)
                owner.played = mate.played = owner.hand.pop()
                mate.shown_recycled, mate.shown_deck = owner.shown_recycled, owner.shown_deck
            else:
                for i in (a, b):
                    self._draw(i, 1)
                    self.riders[i].played = self.riders[i].hand.pop()

    def attack_value(self, i: int, order: list[int]) -> int:
        """An Attack card moves the Peloton's front rider a little, its rear rider a lot."""
        a, b = self.seats[self.riders[i].seat]
        mate = b if i == a else a
        front, rear = self.setup.attack
        return front if order.index(i) < order.index(mate) else rear

    # ------------------------------------------------------------- movement

    def movement_order(self) -> list[int]:
        return ranking(self.pos)

    def standup_penalty(self, i: int) -> int:
        """Hook: what standing up costs rider i this move (meteo)."""
        return 0

    def path_limit(self, start: int, target: int) -> int:
        """Hook: the furthest square a move may reach (meteo: before a blocked square)."""
        return target

    def after_move(self, i: int, lost: int) -> None:
        """Hook: called after rider i was placed, having lost `lost` squares to blocking."""

    def move_rider(self, i: int, value: int) -> None:
        pos = self.pos[i]
        start, lane = pos
        cells, course = self.cells, self.course
        cells[start + start + lane] = EMPTY
        moves = effective_move(course, start, value, self.standup_penalty(i))
        target = self.path_limit(start, start + moves)
        square, lane = settle(cells, course.lanes, target)
        cells[square + square + lane] = i
        pos[0] = square
        pos[1] = lane
        self.events.append(("move", i, start, square, lane, value, moves))
        self.after_move(i, start + moves - square)

    def move_phase(self) -> None:
        """Reveal and move every rider, in order.  Played cards leave the game."""
        self.events = [("reveal", tuple((i, r.played) for i, r in enumerate(self.riders)))]
        riders = self.riders
        order = self.movement_order()
        for i in order:
            rider = riders[i]
            card = rider.played
            assert card is not None
            rider.history.append(card)
            rider.played = None
            if card == ATTACK:
                self.move_rider(i, self.attack_value(i, order))
            else:
                self.move_rider(i, card or self.setup.exhaustion_value)

    # ------------------------------------------------------------ end phase

    def slip_eligible(self, square: int) -> bool:
        return self.course.terrain[square] != ASCENT

    def _slipped(self, i: int, frm: int, to: int) -> None:
        self.riders[i].slipstream += to - frm
        self.events.append(("slip", i, frm, to))

    def end_phase(self) -> None:
        """Finish check, then slipstream and exhaustion if the race goes on."""
        finish = self.course.finish
        for p in self.pos:
            if p[0] >= finish:
                self.finish_race()
                return
        close_gaps(self.cells, self.course.lanes, self.pos, self.max_gap, self.slip_eligible, self._slipped)
        occupied = {p[0] for p in self.pos}
        spare_scripted = not self.setup.scripted_exhaustion
        for i, p in enumerate(self.pos):
            if p[0] + 1 not in occupied and not (spare_scripted and self.script[self.riders[i].seat]):
                self.tire(i)

    def tire(self, i: int) -> None:
        rider = self.riders[i]
        rider.recycled.append(EXHAUSTION)
        rider.exhaustion += 1
        self.events.append(("exhaust", i))

    def finish_race(self) -> None:
        self.phase = OVER
        self.winner = ranking(self.pos)[0]
        self.events.append(("finish", self.winner))

    def resolve_round(self) -> None:
        self.move_phase()
        self.end_phase()
        self.first_drawn.clear()
        self.waiting = self.players_riders
        for rider in self.riders:
            rider.shown_recycled = rider.shown_deck = None
        if self.phase != OVER:
            self.round += 1
            self.begin_energy()

    def clone(self, rng=None):
        twin = super().clone(rng)
        if PELOTON in self.script:
            twin.share_piles()
        return twin

    # -------------------------------------------------------------- helpers

    def _clone_into(self, twin) -> None:
        twin.phase = self.phase
        twin.first_drawn = self.first_drawn.copy()
        twin.waiting = self.waiting
        twin.index = self.index.copy()
        twin.seats = self.seats.copy()

    def seat_riders_of(self, seat: int) -> list[int]:
        return [i for i, r in enumerate(self.riders) if r.seat == seat]

    # ------------------------------------------------- positions from data

    @classmethod
    def from_position(cls, course: Course, riders: list[dict], seed: int = 0,
                      rules: ClassicSetup | None = None) -> ClassicGame:
        """A game in its energy phase with riders where the caller says
        (conformance cases, tests): riders are {id, square, lane, crashed?},
        each with a full deck of its type, shuffled.  `rules` gives the decks
        and numbers (the data files' set-up); by default the rulebook's."""
        colours: list[str] = []
        for r in riders:
            colour = r["id"].split(".")[0]
            if colour not in colours:
                colours.append(colour)
        teams = tuple(Team(c, c) for c in colours)
        if rules is None:
            setup = ClassicSetup(course=course, teams=teams, variant=cls.variant)
        else:
            setup = replace(rules, course=course, teams=teams, variant=cls.variant, handicap=(), grid="random")
        game = cls(setup, seed, _blank=True)
        for r in riders:
            colour, kind = r["id"].split(".")
            rider = Rider(r["id"], colours.index(colour), kind)
            rider.deck = list(setup.decks[kind])
            game.rng.shuffle(rider.deck)
            rider.crashed = bool(r.get("crashed", False))
            game.riders.append(rider)
            game.pos.append([-1, -1])
            game._put(len(game.riders) - 1, r["square"], r["lane"])
        game.index = {r.id: i for i, r in enumerate(game.riders)}
        game.seats = [game.seat_riders_of(seat) for seat in range(len(colours))]
        game.phase = ENERGY
        game.players_riders = game.waiting = len(game.riders)
        return game
