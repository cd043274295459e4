"""Meteo: weather on the straights and crashes in the wet, as hooks on Classic."""

from __future__ import annotations

from dataclasses import replace
from typing import ClassVar

from .actions import Choice
from .classic import (
    CLASSIC,
    ClassicBoard,
    ClassicGame,
    ClassicSetup,
    as_card,
    board_riders,
    classic_setup,
    effective_move,
    fixed_worth,
)
from .course import CROSSWIND, FAIR, HEADWIND, TAILWIND, WET
from .events import Crash, StandUp
from .ruleset import RuleSet
from .track import EMPTY, LANES
from .view import Board


def standup_cost(setup: ClassicSetup, crashed: bool) -> int:
    """Squares standing up costs a crashed rider's move: the set-up's stand-up penalty."""
    return setup.standup_penalty if crashed else 0


class MeteoGame(ClassicGame):
    variant: ClassVar[str] = "meteo"

    @property
    def rules(self) -> RuleSet:
        return METEO

    def public_board(self) -> Board:
        setup = self.setup
        return MeteoBoard(self.variant, self.round, self.phase, self.course, board_riders(self), setup.decks,
                          setup.handicap, None, None, setup, self.rules, dict(self.crossed))

    def deal(self) -> None:
        """One token per straight tile except the start and finish tiles, seeded."""
        course = self.course
        tokens = list(self.setup.weather_tokens)
        self.rng.shuffle(tokens)
        weather = [FAIR] * course.length
        straights = [t for t in course.tiles[1:-1] if t.kind == "straight"]
        for tile, token in zip(straights, tokens):
            for sq in range(tile.first, tile.first + tile.length):
                weather[sq] = token
        self.course = course.with_weather(tuple(weather))

    def weather_at(self, square: int) -> str:
        weather = self.course.weather
        return weather[square] if weather else FAIR

    def draw_size(self, i: int) -> int:
        setup: ClassicSetup = self.setup
        kind = self.weather_at(self.pos[i][0])
        if kind == TAILWIND:
            return setup.tailwind_draw
        if kind == HEADWIND:
            return setup.headwind_draw
        return setup.hand_size

    def standup_penalty(self, i: int) -> int:
        return standup_cost(self.setup, self.riders[i].crashed)

    def anyone_down(self) -> bool:
        """Some rider lies crashed (cheaper to ask than every square of a path)."""
        for rider in self.riders:
            if rider.crashed:
                return True
        return False

    def lies_down(self, k: int) -> bool:
        return bool(self.riders[k].crashed)

    def square_blocked(self, square: int) -> bool:
        """Every lane of the square holds a crashed rider."""
        cells, riders = self.cells, self.riders
        base = square * LANES
        for lane in range(self.course.lanes[square]):
            r = cells[base + lane]
            if r == EMPTY or not riders[r].crashed:
                return False
        return True

    def path_limit(self, start: int, target: int) -> int:
        if not self.anyone_down():  # the usual case: no square can be blocked
            return target
        for sq in range(start + 1, target + 1):
            if self.square_blocked(sq):
                return sq - 1
        return target

    def after_move(self, i: int, lost: int) -> None:
        rider = self.riders[i]
        if rider.crashed:
            rider.crashed = False
            if self.narrated:
                self.events.append(StandUp(i))
        if self.crashes(i, self.pos[i][0], lost):
            rider.crashed = True
            rider.crashes += 1
            if self.narrated:
                self.events.append(Crash(i))

    def crashes(self, i: int, square: int, lost: int) -> bool:
        """Blocked (short of its move) on a wet road: the rider falls."""
        return lost > 0 and self.weather_at(square) == WET

    def holds_back(self, square: int) -> bool:
        # a rider may crash on a wet square (or lie there), and a crosswind holds everyone back
        weather = self.weather_at(square)
        return ClassicGame.holds_back(self, square) or weather == CROSSWIND or weather == WET

    def may_pull(self, square: int) -> bool:
        return ClassicGame.may_pull(self, square) and self.weather_at(square) != CROSSWIND

    def slip_eligible(self, square: int) -> bool:
        if not super().slip_eligible(square) or self.weather_at(square) == CROSSWIND:
            return False
        cells, riders = self.cells, self.riders
        base = square * LANES
        for k in range(base, base + LANES):
            r = cells[k]
            if r != EMPTY and riders[r].crashed:
                return False
        return True


class MeteoBoard(ClassicBoard):
    """The public board of a meteo race."""

    def reach(self, i: int, choice: Choice) -> int:
        """View.reach for meteo: the terrain's effect and the stand-up penalty."""
        card = as_card(choice)
        r = self.riders[i]
        setup = classic_setup(self)
        return effective_move(self.course, r.square, fixed_worth(setup, card), standup_cost(setup, r.crashed))


METEO = replace(CLASSIC, name="meteo", title="Meteo", game=MeteoGame, has_weather=True)
