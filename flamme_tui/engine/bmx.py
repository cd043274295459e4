"""Flamme Rouge BMX: one rider each, speed tokens from a bag, a weather die.

Same public interface as ClassicGame (apply, legal_actions, to_move, view,
clone, ranking, events), same track functions (settle, close_gaps).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

from ..course import BUMPY, DESCENT, Course
from .actions import Action, PlayTokens
from .classic import ENERGY, OVER, RuleError, Team
from .race import Race
from .track import EMPTY, close_gaps, ranking, settle
from .view import View, bmx_view

FATIGUE = 0  # token code; a fatigue token moves 1
FATIGUE_VALUE = 1
NO_CATCH_UP = 0  # the die's "none" face


def token_value(token: int) -> int:
    return token or FATIGUE_VALUE


def token_text(token: int) -> str:
    return "F" if token == FATIGUE else str(token)


@dataclass(frozen=True, slots=True)
class BmxSetup:
    # the defaults are the rulebook's numbers, for tests; races are built from stages/variants/bmx.yaml
    course: Course
    teams: tuple[Team, ...]
    bag: tuple[int, ...] = (1, 1, 2, 2, 3, 3, 4, 4, 5, 5)
    fatigue_supply: int = 15
    die_faces: tuple[int, ...] = (1, 1, 2, 2, NO_CATCH_UP, NO_CATCH_UP)
    draw: int = 3  # draw 3 keep 1
    descent_draw: int = 4  # on a descent draw 4 keep 2
    descent_keep: int = 2
    fatigue: int = 1  # fatigue tokens a tired rider takes
    bumpy_fatigue: int = 2  # ... on a bumpy passage
    young: tuple[int, ...] = ()  # young-children variant: fatigue tokens added to each seat's bag
    forecast: bool = False  # weather-forecast variant: roll the die before drawing
    variant: str = "bmx"


class BmxRider:
    __slots__ = ("id", "seat", "bag", "hand", "played", "phantom", "box", "fatigue", "history")

    def __init__(self, rid: str, seat: int, bag: list[int]) -> None:
        self.id = rid
        self.seat = seat
        self.bag = bag  # private contents, public count
        self.hand: list[int] = []  # drawn this turn, private
        self.played: tuple[int, ...] | None = None  # kept this turn, private until revealed
        self.phantom = False  # empty bag and empty supply: this turn's fatigue token is not a real one
        self.box: list[int] = []  # speed tokens played, out of the game
        self.fatigue = 0  # fatigue tokens received
        self.history: list[tuple[int, ...]] = []

    def copy(self) -> BmxRider:
        twin = BmxRider(self.id, self.seat, self.bag[:])
        twin.phantom, twin.fatigue = self.phantom, self.fatigue
        twin.hand, twin.box, twin.history = self.hand[:], self.box[:], self.history[:]
        twin.played = self.played
        return twin


class BmxGame(Race[BmxRider, BmxSetup]):
    variant: ClassVar[str] = "bmx"

    def view(self, seat: int) -> View:
        return bmx_view(self, seat)

    def __init__(self, setup: BmxSetup, seed: int, *, _blank: bool = False) -> None:
        super().__init__(setup, seed)
        self.supply = setup.fatigue_supply
        self.phase = ENERGY
        self.die: int | None = None  # this turn's roll, once rolled
        if _blank:
            return
        for seat, team in enumerate(setup.teams):
            bag = list(setup.bag)
            extra = min(setup.young[seat] if seat < len(setup.young) else 0, self.supply)
            bag.extend([FATIGUE] * extra)
            self.supply -= extra
            self.riders.append(BmxRider(team.colour, seat, bag))
            self.pos.append([-1, -1])
        self.index = {r.id: i for i, r in enumerate(self.riders)}
        self.seats = [[i] for i in range(len(self.riders))]
        places = [(sq, lane) for sq in range(self.course.grid - 1, -1, -1) for lane in (0, 1)]
        self.rng.shuffle(places)
        for i in range(len(self.riders)):
            self._put(i, *places[i])
        self.start_turn()

    # ------------------------------------------------------------- step 1

    def roll(self) -> int:
        faces = self.setup.die_faces
        return faces[self.rng.below(len(faces))]

    def draw_size(self, i: int) -> int:
        if self.course.terrain[self.pos[i][0]] == DESCENT:
            return self.setup.descent_draw
        return self.setup.draw

    def keep_size(self, i: int) -> int:
        keep = self.setup.descent_keep if self.course.terrain[self.pos[i][0]] == DESCENT else 1
        return min(keep, len(self.riders[i].hand))

    def start_turn(self) -> None:
        self.die = self.roll() if self.setup.forecast else None
        for i in range(len(self.riders)):
            self._draw(i)

    def _draw(self, i: int) -> None:
        rider = self.riders[i]
        bag, hand = rider.bag, rider.hand
        for _ in range(min(self.draw_size(i), len(bag))):
            j = self.rng.below(len(bag))
            bag[j], bag[-1] = bag[-1], bag[j]
            hand.append(bag.pop())
        if not hand:
            # empty bag: a fatigue token from the supply; if the supply has none
            # either, the rider still moves 1 as if it had one (a phantom token)
            hand.append(FATIGUE)
            rider.phantom = self.supply == 0
            self.supply -= not rider.phantom

    def to_move(self) -> list[int]:
        if self.phase != ENERGY:
            return []
        return [r.seat for r in self.riders if r.played is None]

    def needs(self, seat: int) -> bool:
        return self.phase == ENERGY and self.riders[seat].played is None

    def legal_actions(self, seat: int) -> list[Action]:
        if self.phase != ENERGY:
            return []
        out: list[Action] = []
        for i, rider in enumerate(self.riders):
            if rider.seat != seat or rider.played is not None:
                continue
            hand = sorted(rider.hand)
            picks: set[tuple[int, ...]]
            if self.keep_size(i) == 1:
                picks = {(t,) for t in hand}
            else:
                picks = {
                    tuple(sorted((hand[a], hand[b]), reverse=True))
                    for a in range(len(hand))
                    for b in range(a + 1, len(hand))
                }
            out.extend(PlayTokens(rider.id, p) for p in sorted(picks, reverse=True))
        return out

    def apply(self, action: Action | str) -> None:
        action, i = self._actor(action)
        rider = self.riders[i]
        if not isinstance(action, PlayTokens) or self.phase != ENERGY or rider.played is not None:
            raise RuleError(f"{action} is not allowed now")
        hand = rider.hand.copy()
        try:
            for t in action.tokens:
                hand.remove(t)
        except ValueError:
            raise RuleError(f"{action}: those tokens were not drawn") from None
        if len(action.tokens) != self.keep_size(i):
            raise RuleError(f"{action}: keep exactly {self.keep_size(i)}")
        self.actions.append(action)
        rider.played = tuple(action.tokens)
        rider.bag.extend(hand)
        rider.hand.clear()
        if all(r.played is not None for r in self.riders):
            self.resolve_round()

    # ------------------------------------------------------------- step 2

    def move_phase(self) -> None:
        self.events = [("reveal", tuple((i, r.played) for i, r in enumerate(self.riders)))]
        ramp = self.course.ramp
        for i in ranking(self.pos):
            rider = self.riders[i]
            tokens = rider.played
            assert tokens is not None
            rider.played = None
            rider.history.append(tokens)
            start, lane = self.pos[i]
            value = sum(token_value(t) for t in tokens)
            bonus = 0
            if ramp is not None and start < ramp[0] <= start + value and ramp[1] in tokens:
                bonus = ramp[1]
            self.cells[start + start + lane] = EMPTY
            square, lane = settle(self.cells, self.course.lanes, start + value + bonus)
            self._put(i, square, lane)
            self.events.append(("move", i, start, square, lane, tokens, value + bonus))
            if bonus:
                self.events.append(("ramp", i, bonus))
            for t in tokens:
                if t != FATIGUE:
                    rider.box.append(t)
                elif not rider.phantom:
                    self.supply += 1

    # ------------------------------------------------------------- step 3

    def end_phase(self) -> None:
        crossed = any(p[0] >= self.course.finish for p in self.pos)
        die = self.die if self.die is not None else self.roll()
        self.die = die
        self.events.append(("die", die))
        if die:
            close_gaps(self.cells, self.course.lanes, self.pos, die, None, self._caught_up)
        occupied = {p[0] for p in self.pos}
        for i in ranking(self.pos):
            square = self.pos[i][0]
            if square + 1 in occupied:
                continue
            want = self.setup.bumpy_fatigue if self.course.terrain[square] == BUMPY else self.setup.fatigue
            got = min(want, self.supply)
            if got:
                self.supply -= got
                self.riders[i].bag.extend([FATIGUE] * got)
                self.riders[i].fatigue += got
                self.events.append(("fatigue", i, got))
        if crossed:
            self.phase = OVER
            self.winner = ranking(self.pos)[0]
            self.events.append(("finish", self.winner))

    def _caught_up(self, i: int, frm: int, to: int) -> None:
        self.events.append(("catchup", i, frm, to))

    def resolve_round(self) -> None:
        self.move_phase()
        self.end_phase()
        for r in self.riders:
            r.phantom = False
        if self.phase != OVER:
            self.round += 1
            self.start_turn()

    # ------------------------------------------------------------ helpers

    def _clone_into(self, twin) -> None:
        twin.supply = self.supply
        twin.phase = self.phase
        twin.die = self.die
        twin.index = self.index.copy()
        twin.seats = self.seats.copy()

    @classmethod
    def from_position(cls, course: Course, riders: list[dict], seed: int = 0,
                      rules: BmxSetup | None = None) -> BmxGame:
        """A turn about to be played with riders where the caller says, full bags,
        no hands.  `rules` gives the bag and numbers (the data files' set-up);
        by default the rulebook's."""
        teams = tuple(Team(r["id"], r["id"]) for r in riders)
        if rules is None:
            setup = BmxSetup(course=course, teams=teams)
        else:
            setup = replace(rules, course=course, teams=teams, young=(), forecast=False)
        game = cls(setup, seed, _blank=True)
        for seat, r in enumerate(riders):
            game.riders.append(BmxRider(r["id"], seat, list(setup.bag)))
            game.pos.append([-1, -1])
            game._put(seat, r["square"], r["lane"])
        game.index = {r.id: i for i, r in enumerate(game.riders)}
        game.seats = [[i] for i in range(len(game.riders))]
        return game
