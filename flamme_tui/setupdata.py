"""A race's set-up as plain data and back: the set-up's part of the save
format (pydantic models, every number and text bounded) and its codec.

saves.py writes and reads it inside a save; the bots' thinker process gets a
set-up in this form (play/thinker.py).  It is kept out of saves.py because
saves is above play/ (it rebuilds sessions and tours) while play/ needs the
codec: tests/test_imports.py keeps the layers apart.

This module must not import Textual.
"""

from __future__ import annotations

import json
import re
from dataclasses import fields
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    TypeAdapter,
    field_validator,
    model_validator,
)

from . import limits as lim
from . import usertext
from .engine.bmx import BmxSetup
from .engine.classic import ClassicSetup
from .engine.course import BMX_TERRAIN, CLASSIC_TERRAIN, Course, TilePlace
from .engine.race import Team
from .engine.rules import find

__all__ = [
    "MODEL", "BmxSetupData", "ClassicSetupData", "CourseData", "Label", "SetupData", "TeamData", "TeamName",
    "a_name", "no_control", "setup_data", "setup_from_data", "setup_from_json", "setup_json",
]

MODEL = ConfigDict(extra="forbid", frozen=True, strict=True)


def no_control(value: Any) -> Any:
    """Names, titles and letters of a save are shown and printed: no control
    character in them (usertext), in a str or in a tuple of them."""
    for text in value if isinstance(value, tuple) else (value,):
        if isinstance(text, str):
            usertext.check(text)
    return value


def a_name(value: Any) -> Any:
    """no_control for a team's or a tour's name: nor only invisible characters
    (it would show as a blank everywhere, as an empty name, refused too)."""
    for text in value if isinstance(value, tuple) else (value,):
        if isinstance(text, str):
            usertext.check_name(text)
    return value


# Every number and text of a save is bounded (limits.py, shared with the data
# files' models) and checked here, before anything is built from it: a
# crafted save with a recomputed checksum is refused in milliseconds.
_TERRAIN = "^[" + re.escape("".join(sorted(CLASSIC_TERRAIN | BMX_TERRAIN))) + "]+$"
Card = Annotated[StrictInt, Field(ge=1, le=lim.MAX_CARD)]
Count = Annotated[StrictInt, Field(ge=0, le=lim.MAX_TOKENS)]
Draw = Annotated[StrictInt, Field(ge=1, le=lim.MAX_HAND)]
Label = Annotated[StrictStr, Field(max_length=lim.MAX_LABEL)]
Square = Annotated[StrictInt, Field(ge=0, le=lim.MAX_COURSE)]
Lanes = Annotated[tuple[Literal[1, 2, 3], ...], Field(max_length=lim.MAX_COURSE)]
Terrain = Annotated[StrictStr, Field(min_length=1, max_length=lim.MAX_COURSE, pattern=_TERRAIN)]
Weather = Literal["", "crosswind", "tailwind", "headwind", "wet"]  # course.FAIR and course.WEATHER_KINDS
TeamName = Annotated[StrictStr, Field(min_length=1, max_length=lim.MAX_TEAM_NAME)]
Deck = Annotated[tuple[Card, ...], Field(min_length=1, max_length=lim.MAX_DECK)]


class TeamData(BaseModel):
    model_config = MODEL
    name: TeamName
    colour: Annotated[StrictStr, Field(pattern=lim.TEAM_COLOUR)]
    # the riders the seat races: its team, or one rider (7 to 12 players); saves before the expansion: "SR"
    riders: Literal["SR", "S", "R"] = "SR"

    @field_validator("colour")
    @classmethod
    def _no_control(cls, value: Any) -> Any:
        return no_control(value)

    @field_validator("name")
    @classmethod
    def _names(cls, value: Any) -> Any:
        return a_name(value)


class TileData(BaseModel):
    model_config = MODEL
    letter: Annotated[StrictStr, Field(min_length=1, max_length=2)]  # a tile name: "b", "2", "_2"
    kind: Annotated[StrictStr, Field(max_length=10)]
    first: Square
    length: Annotated[StrictInt, Field(ge=1, le=lim.MAX_TILE_SQUARES)]

    @field_validator("letter")
    @classmethod
    def _no_control(cls, value: Any) -> Any:
        return no_control(value)


class CourseData(BaseModel):
    """A Course without its padding and lookup tables (Course.build redoes them)."""

    model_config = MODEL
    name: Annotated[StrictStr, Field(max_length=lim.MAX_STAGE_NAME)]
    terrain: Terrain  # the real squares only
    lanes: Lanes
    finish: StrictInt = Field(ge=1, le=lim.MAX_COURSE)
    grid: StrictInt = Field(ge=1, le=lim.MAX_COURSE)
    tiles: tuple[TileData, ...] = Field(max_length=lim.MAX_STAGE_TILES)
    weather: tuple[Weather, ...] = Field(max_length=lim.MAX_COURSE)
    ramp: tuple[Square, Card] | None
    tail: tuple[Terrain, Lanes] | None
    # the breakaway square (Peloton); races saved before the expansion have none
    breakaway: StrictInt = Field(default=-1, ge=-1, le=lim.MAX_COURSE)

    @model_validator(mode="after")
    def _consistent(self) -> CourseData:
        n = len(self.terrain)
        if len(self.lanes) != n:
            raise ValueError("lanes and terrain differ in length")
        if not self.grid < self.finish <= n:
            raise ValueError("grid and finish out of order")
        if len(self.weather) > n:
            raise ValueError("weather longer than the course")
        if any(t.first + t.length > n for t in self.tiles):
            raise ValueError("a tile runs past the end of the course")
        if self.ramp is not None and self.ramp[0] >= n:
            raise ValueError("the ramp is past the end of the course")
        if self.tail is not None and len(self.tail[0]) != len(self.tail[1]):
            raise ValueError("bad tail")
        if not -1 <= self.breakaway < self.finish:
            raise ValueError("the breakaway square is past the finish")
        return self

    def grid_places(self) -> int:
        return sum(self.lanes[: self.grid])

    @field_validator("name")
    @classmethod
    def _no_control(cls, value: Any) -> Any:
        return no_control(value)


def _teams_ok(teams: tuple[TeamData, ...], riders_per_team: int, course: CourseData) -> None:
    """Every rider once (two one-rider seats may share a colour), at most six
    colours, and a place on the grid for every rider."""
    riders = [f"{t.colour}.{kind}" for t in teams for kind in (t.riders if riders_per_team == 2 else "B")]
    if len(set(riders)) != len(riders):
        raise ValueError("two teams have the same colour and race the same rider")
    if len({t.colour for t in teams}) > lim.MAX_COLOURS:
        raise ValueError(f"teams: more than {lim.MAX_COLOURS} colours")
    if course.grid_places() < len(riders):
        raise ValueError("the starting grid has too few places for the riders")


Teams = Annotated[tuple[TeamData, ...], Field(min_length=lim.MIN_TEAMS, max_length=lim.MAX_TEAMS)]


class ClassicSetupData(BaseModel):
    model_config = MODEL
    variant: Literal["classic", "meteo"]
    course: CourseData
    teams: Teams
    decks: dict[Literal["S", "R"], Deck]
    hand_size: Draw
    exhaustion_value: Card
    grid: Literal["random", "choose"]
    handicap: tuple[Annotated[StrictInt, Field(ge=0, le=lim.MAX_HANDICAP)], ...] = Field(max_length=lim.MAX_TEAMS)
    weather_tokens: tuple[Weather, ...] = Field(max_length=lim.MAX_TOKENS)
    tailwind_draw: Draw
    headwind_draw: Draw
    standup_penalty: StrictInt = Field(ge=0, le=lim.MAX_CARD)
    # the scripted teams came later: saves written before them have none
    scripted: tuple[Literal["", "peloton", "muscle"], ...] = Field((), max_length=lim.MAX_TEAMS)
    muscle_extra: tuple[Card, ...] = Field((5,), max_length=lim.MAX_DECK)
    peloton_attacks: StrictInt = Field(default=2, ge=0, le=lim.MAX_DECK)
    attack: tuple[Card, Card] = (2, 9)
    scripted_exhaustion: StrictBool = False
    # the Peloton expansion's pinned readings and breakaway came later still: a save
    # without them was played with flamme-tui 0.1.0's readings (1) and no breakaway
    out_of_cards: Card = 2
    solo_handicap: tuple[Count, Count] = (1, 2)
    scripted_readings: Literal[1, 2] = 1
    breakaway: StrictBool = False
    breakaway_bids: StrictInt = Field(default=2, ge=1, le=lim.MAX_BIDS)
    breakaway_exhaustion: Count = 2
    breakaway_pair_from: StrictInt = Field(default=5, ge=1, le=lim.MAX_TEAMS + 1)
    # a stage of a tour (engine.tour); races saved before tours are none
    tour: StrictBool = False
    # per rider (up to six teams of two, or twelve players racing one rider each) and per seat
    carried: tuple[Annotated[StrictInt, Field(ge=0, le=100)], ...] = Field(default=(), max_length=lim.MAX_RIDERS)
    grid_order: tuple[Annotated[StrictInt, Field(ge=0, le=lim.MAX_TEAMS - 1)], ...] = Field(
        default=(), max_length=lim.MAX_TEAMS)
    tour_times: tuple[Annotated[StrictInt, Field(ge=0, le=10**7)], ...] = Field(default=(), max_length=lim.MAX_RIDERS)
    tour_points: tuple[Annotated[StrictInt, Field(ge=0, le=1000)], ...] = Field(default=(), max_length=lim.MAX_TEAMS)
    # the rulings added 2026-12-04 (front-most random grid, a tour's handicaps dealt once):
    # a save without them was played before them
    rulings: Literal[1, 2] = 1

    @model_validator(mode="after")
    def _consistent(self) -> ClassicSetupData:
        _teams_ok(self.teams, 2, self.course)
        if set(self.decks) != {"S", "R"}:
            raise ValueError("decks: need the S and R decks")
        if len(self.handicap) > len(self.teams):
            raise ValueError("handicap: more entries than teams")
        if self.scripted and (
            not find(self.variant).scripted_teams or len(self.scripted) != len(self.teams) or all(self.scripted)
        ):
            raise ValueError("scripted: one entry per team, classic only, and not every team")
        return self


class BmxSetupData(BaseModel):
    model_config = MODEL
    variant: Literal["bmx"]
    course: CourseData
    teams: Teams
    bag: tuple[Card, ...] = Field(min_length=1, max_length=lim.MAX_TOKENS)
    fatigue_supply: Count
    die_faces: tuple[Annotated[StrictInt, Field(ge=0, le=lim.MAX_CARD)], ...] = Field(
        min_length=1, max_length=lim.MAX_DIE_FACES
    )  # 0: no catch-up
    draw: Draw
    descent_draw: Draw
    descent_keep: Draw
    fatigue: Count
    bumpy_fatigue: Count
    young: tuple[Annotated[StrictInt, Field(ge=0, le=lim.MAX_YOUNG)], ...] = Field(max_length=lim.MAX_TEAMS)
    forecast: StrictBool

    @model_validator(mode="after")
    def _consistent(self) -> BmxSetupData:
        _teams_ok(self.teams, 1, self.course)
        if len(self.teams) > lim.MAX_BMX_RIDERS:
            raise ValueError(f"teams: at most {lim.MAX_BMX_RIDERS} riders race bmx")
        if self.course.tail is None:
            raise ValueError("course: a bmx course needs its lap (tail)")
        if self.descent_keep > self.descent_draw:
            raise ValueError("descent_keep: more than descent_draw")
        if len(self.young) > len(self.teams):
            raise ValueError("young: more entries than teams")
        return self


SetupData = Annotated[ClassicSetupData | BmxSetupData, Field(discriminator="variant")]


# ------------------------------------------------------- setup <-> plain data


def _course_data(course: Course) -> dict:
    n = course.length
    return {
        "name": course.name,
        "terrain": course.terrain[:n],
        "lanes": list(course.lanes[:n]),
        "finish": course.finish,
        "grid": course.grid,
        "tiles": [{"letter": t.letter, "kind": t.kind, "first": t.first, "length": t.length} for t in course.tiles],
        "weather": list(course.weather[:n]) if course.weather else [],
        "ramp": list(course.ramp) if course.ramp is not None else None,
        "tail": [course.tail[0], list(course.tail[1])] if course.tail is not None else None,
        "breakaway": course.breakaway,
    }


def _course(data: CourseData) -> Course:
    # CourseData checked that the parts fit together
    return Course.build(
        data.name,
        data.terrain,
        data.finish,
        data.grid,
        lanes=tuple(data.lanes),
        tiles=tuple(TilePlace(t.letter, t.kind, t.first, t.length) for t in data.tiles),
        weather=tuple(data.weather),
        ramp=data.ramp,
        tail=(data.tail[0], tuple(data.tail[1])) if data.tail is not None else None,
        breakaway=data.breakaway,
    )


def _plain(value: Any) -> Any:
    if isinstance(value, Course):
        return _course_data(value)
    if isinstance(value, Team):
        return {"name": value.name, "colour": value.colour, "riders": value.riders}
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def setup_data(setup) -> dict:
    """A ClassicSetup or BmxSetup as plain JSON data, every field of it."""
    data = {f.name: _plain(getattr(setup, f.name)) for f in fields(setup)}
    model = BmxSetupData if isinstance(setup, BmxSetup) else ClassicSetupData
    missing = set(data) - set(model.model_fields)
    if missing:  # a new setup field that the save format does not know yet
        raise TypeError(f"save format lacks setup fields {sorted(missing)}")
    return data


def setup_from_data(data: ClassicSetupData | BmxSetupData):
    course = _course(data.course)
    teams = tuple(Team(t.name, t.colour, t.riders) for t in data.teams)
    if isinstance(data, BmxSetupData):
        return BmxSetup(
            course=course, teams=teams, bag=data.bag, fatigue_supply=data.fatigue_supply,
            die_faces=data.die_faces, draw=data.draw, descent_draw=data.descent_draw,
            descent_keep=data.descent_keep, fatigue=data.fatigue, bumpy_fatigue=data.bumpy_fatigue,
            young=data.young, forecast=data.forecast, variant="bmx",
        )
    return ClassicSetup(
        course=course, teams=teams, decks={k: tuple(v) for k, v in data.decks.items()},
        hand_size=data.hand_size, exhaustion_value=data.exhaustion_value, grid=data.grid,
        handicap=data.handicap, variant=data.variant,
        weather_tokens=data.weather_tokens, tailwind_draw=data.tailwind_draw,
        headwind_draw=data.headwind_draw, standup_penalty=data.standup_penalty,
        scripted=data.scripted, muscle_extra=data.muscle_extra,
        peloton_attacks=data.peloton_attacks, attack=data.attack, scripted_exhaustion=data.scripted_exhaustion,
        out_of_cards=data.out_of_cards, solo_handicap=data.solo_handicap, scripted_readings=data.scripted_readings,
        breakaway=data.breakaway, breakaway_bids=data.breakaway_bids,
        breakaway_exhaustion=data.breakaway_exhaustion, breakaway_pair_from=data.breakaway_pair_from,
        tour=data.tour, carried=data.carried, grid_order=data.grid_order,
        tour_times=data.tour_times, tour_points=data.tour_points, rulings=data.rulings,
    )


def setup_json(setup) -> str:
    """A set-up as JSON text (as in a save)."""
    return json.dumps(setup_data(setup))


def setup_from_json(text: str):
    """The set-up from `setup_json`'s text, checked as a save's is."""
    return setup_from_data(_SETUP.validate_json(text))


_SETUP: TypeAdapter[ClassicSetupData | BmxSetupData] = TypeAdapter(SetupData)
