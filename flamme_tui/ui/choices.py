"""What the menus choose, turned into a RaceSpec, a seed and the bot seats.

No Textual here.  The engine modules are imported only when a race is built,
so the title menu does not pay for them.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import Any

from .. import MAX_SEED
from ..usertext import clean
from ..words import SCRIPTED_NAMES, default_named, player_name
from .palette import DEFAULT_COLOURS, team_colour

HUMAN = "human"  # hot-seat: at this keyboard; hosting a table: on the player's own device (flamme-tui join)
HERE = "here"  # hosting a table: a seat played at the host's own keyboard (the others join from their devices)
# the Peloton expansion's scripted teams (classic, words.SCRIPTED_NAMES) play themselves, by the rules


def random_seed() -> int:
    return random.SystemRandom().randint(1, MAX_SEED)


@dataclass(slots=True)
class SeatChoice:
    name: str
    colour: str  # palette id, also the team id in rider ids
    controller: str = HUMAN  # "human", a bot policy name (bots.POLICIES) or a scripted team
    extra: int = 0  # classic/meteo: handicap exhaustion cards; bmx: young-children fatigue tokens
    rider: str = "SR"  # classic/meteo: the seat's team ("SR"), or the one rider it races (7-12 players)

    @property
    def is_bot(self) -> bool:
        return self.controller not in (HUMAN, HERE) and not self.is_scripted

    @property
    def is_scripted(self) -> bool:
        return self.controller in SCRIPTED_NAMES

    def team_name(self) -> str:
        """The name typed, or the colour's; a scripted team says what it is."""
        name = self.name.strip() or team_colour(self.colour).name
        if self.is_scripted and name == team_colour(self.colour).name:
            name = f"{name} {SCRIPTED_NAMES[self.controller]}"
        return name


def default_seats(n: int = 4) -> list[SeatChoice]:
    return [SeatChoice(team_colour(c).name, c) for c in DEFAULT_COLOURS[:n]]


def one_rider_seats(n: int) -> list[SeatChoice]:
    """N players racing one rider each (PELOTON.md, 7 to 12 players): in seat
    order the first colour's Sprinteur, its Rouleur, the next colour's..."""
    return [SeatChoice(player_name(k), DEFAULT_COLOURS[k // 2], rider="SR"[k % 2]) for k in range(n)]


@dataclass(slots=True)
class RaceChoices:
    variant: str = "classic"
    stage: str = "avenue-corso-paseo"
    circuit: str = "ABCD"  # bmx: side of each tile, upper case = front
    ramp: tuple[int, int] | None = None  # bmx: (lap square, number)
    forecast: bool = False  # bmx weather-forecast variant
    seats: list[SeatChoice] = field(default_factory=lambda: default_seats(2))
    grid: str = "random"  # or "choose": players place their riders
    seed: int = field(default_factory=random_seed)
    tour: Any = None  # a tour (play.tours.TourSpec) instead of one race: its stages say the course and rules
    breakaway: bool = False  # classic, meteo: the Peloton breakaway before round 1 (stages that offer it)

    def name_defaults_again(self) -> None:
        """The player changed the language: a seat still named by default (its
        colour, "Player 3", in any language) is named by default in the language
        now; a name the player wrote stays as written (words.default_named)."""
        for k, seat in enumerate(self.seats):
            seat.name = default_named(seat.name, seat.colour, k)

    @property
    def tour_variant(self) -> str:
        """The rules the teams screen offers for a tour: a stage's that allows no scripted team, if any."""
        from ..play.tours import seat_rules

        return "classic" if self.tour is None else seat_rules(self.tour)

    def copy(self) -> RaceChoices:
        return replace(self, seats=[replace(s) for s in self.seats])

    def with_seed(self, seed: int) -> RaceChoices:
        twin = self.copy()
        twin.seed = seed
        return twin

    def spec(self):
        from ..play.races import RaceSpec, Team

        teams = tuple(Team(s.team_name(), s.colour, s.rider) for s in self.seats)
        extras = tuple(s.extra for s in self.seats)
        from ..engine.rules import find

        if find(self.variant).uses_tokens:
            return RaceSpec(
                variant="bmx", teams=teams, circuit=self.circuit, ramp=self.ramp,
                young=extras if any(extras) else (), forecast=self.forecast,
            )
        scripted = tuple(s.controller if s.is_scripted else "" for s in self.seats)
        return RaceSpec(
            variant=self.variant, stage=self.stage, teams=teams, grid=self.grid,
            handicap=extras if any(extras) else (), scripted=scripted if any(scripted) else (),
            breakaway=self.breakaway,
        )

    def problem(self) -> str:
        """Why the engine would not race these choices ("" if it would): its
        reasons (at most one Peloton team, a grid too small...) in the player's language."""
        from ..config import ConfigError
        from ..play.narrator import setup_words
        from ..play.races import make_setup, new_game

        try:
            new_game(make_setup(self.spec()), 0)
        except (ValueError, ConfigError) as exc:  # the engine's words, in the player's language
            return clean(setup_words(str(exc)), multiline=False)
        return ""

    def here(self) -> set[int]:
        """The seats played at the host's keyboard (hosting a table)."""
        return {seat for seat, s in enumerate(self.seats) if s.controller == HERE}

    def bots(self) -> dict[int, str]:
        return {seat: s.controller for seat, s in enumerate(self.seats) if s.is_bot}

    def session(self):
        """The race (a tour: its first stage) as a Session, ready to play."""
        if self.tour is not None:
            from ..play.tours import Tour, stage_session

            spec = self.spec()
            tour = Tour.new(self.tour, spec.teams, self.seed, spec.scripted, grid=spec.grid, handicap=spec.handicap,
                            breakaway=spec.breakaway)
            return stage_session(tour, self.bots())
        from ..play.session import Session

        return Session.new(self.spec(), self.seed, self.bots())
