"""A race's set-up as plain data and back: the set-up's part of the save
format (pydantic models, every number and text bounded) and its codec.

saves/ writes and reads it inside a save; the bots' thinker process gets a
set-up in this form (play/thinker.py).  It is kept out of saves/ because
saves is above play/ (it rebuilds sessions and tours) while play/ needs the
codec: tests/test_imports.py keeps the layers apart.

This module must not import Textual.
"""

from __future__ import annotations

import json
import re
from dataclasses import fields
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    TypeAdapter,
    create_model,
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
from .i18n import _

__all__ = [
    "MODEL", "BmxSetupData", "ClassicSetupData", "CourseData", "Label", "SetupData", "TeamData", "TeamName",
    "a_name", "no_control", "setup_data", "setup_from_data", "setup_from_json", "setup_json", "stage_from_data",
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
            raise ValueError(_("lanes and terrain differ in length"))
        if not self.grid < self.finish <= n:
            raise ValueError(_("grid and finish out of order"))
        if len(self.weather) > n:
            raise ValueError(_("weather longer than the course"))
        if any(t.first + t.length > n for t in self.tiles):
            raise ValueError(_("a tile runs past the end of the course"))
        if self.ramp is not None and self.ramp[0] >= n:
            raise ValueError(_("the ramp is past the end of the course"))
        if self.tail is not None and len(self.tail[0]) != len(self.tail[1]):
            raise ValueError(_("bad tail"))
        if not -1 <= self.breakaway < self.finish:
            raise ValueError(_("the breakaway square is past the finish"))
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
        raise ValueError(_("two teams have the same colour and race the same rider"))
    if len({t.colour for t in teams}) > lim.MAX_COLOURS:
        raise ValueError(_("teams: more than {n} colours").format(n=lim.MAX_COLOURS))
    if course.grid_places() < len(riders):
        raise ValueError(_("the starting grid has too few places for the riders"))


Teams = Annotated[tuple[TeamData, ...], Field(min_length=lim.MIN_TEAMS, max_length=lim.MAX_TEAMS)]


def _many(item: Any, most: int, least: int = 0) -> Any:
    return Annotated[tuple[item, ...], Field(min_length=least, max_length=most)]


def _bounded(least: int, most: int) -> Any:
    return Annotated[StrictInt, Field(ge=least, le=most)]


# The save format of each kind of set-up field (the `save` of the field's
# metadata in engine.classic.ClassicSetup and engine.bmx.BmxSetup): every
# number and text bounded (limits.py).  The set-up models below are derived
# from the engine's fields, so a set-up option is written once, in the engine.
KINDS: dict[str, Any] = {
    "course": CourseData,
    "teams": Teams,
    "classic variant": Literal["classic", "meteo"],
    "bmx variant": Literal["bmx"],
    "decks": dict[Literal["S", "R"], Deck],
    "draw": Draw,
    "card": Card,
    "cards": _many(Card, lim.MAX_DECK),
    "card pair": tuple[Card, Card],
    "count": Count,
    "count pair": tuple[Count, Count],
    "deck count": _bounded(0, lim.MAX_DECK),
    "penalty": _bounded(0, lim.MAX_CARD),
    "flag": StrictBool,
    "version": Literal[1, 2],  # a reading of the rules: 1 before a ruling, 2 after it
    "grid": Literal["random", "choose"],
    "handicaps": _many(_bounded(0, lim.MAX_HANDICAP), lim.MAX_TEAMS),
    "weather tokens": _many(Weather, lim.MAX_TOKENS),
    "scripted": _many(Literal["", "peloton", "muscle"], lim.MAX_TEAMS),
    "bids": _bounded(1, lim.MAX_BIDS),
    "team count": _bounded(1, lim.MAX_TEAMS + 1),
    # per rider (up to six teams of two, or twelve players racing one rider each) and per seat
    "carried": _many(_bounded(0, 100), lim.MAX_RIDERS),
    "seat order": _many(_bounded(0, lim.MAX_TEAMS - 1), lim.MAX_TEAMS),
    "times": _many(_bounded(0, 10**7), lim.MAX_RIDERS),
    "points": _many(_bounded(0, 1000), lim.MAX_TEAMS),
    "bag": _many(Card, lim.MAX_TOKENS, 1),
    "die": _many(_bounded(0, lim.MAX_CARD), lim.MAX_DIE_FACES, 1),  # 0: no catch-up
    "young": _many(_bounded(0, lim.MAX_YOUNG), lim.MAX_TEAMS),
}


def schema_fields(setup_class: type) -> dict[str, Any]:
    """The save model's fields of a set-up dataclass, from its fields' metadata:
    each field's kind (KINDS) and, for a field added after saves were first
    written, what an older save without it means (`before`)."""
    out: dict[str, Any] = {}
    for f in fields(setup_class):
        kind = f.metadata.get("save")
        if kind not in KINDS:
            raise TypeError(f"{setup_class.__name__}.{f.name}: its metadata names no save kind ({sorted(KINDS)})")
        out[f.name] = (KINDS[kind], f.metadata["before"] if "before" in f.metadata else ...)
    return out


class _ClassicChecks(BaseModel):
    """What the fields of a classic set-up must agree on."""

    model_config = MODEL

    @model_validator(mode="after")
    def _consistent(self) -> Any:
        data: Any = self  # the derived model's fields
        _teams_ok(data.teams, 2, data.course)
        if set(data.decks) != {"S", "R"}:
            raise ValueError(_("decks: need the S and R decks"))
        if len(data.handicap) > len(data.teams):
            raise ValueError(_("handicap: more entries than teams"))
        if data.scripted and (
            not find(data.variant).scripted_teams or len(data.scripted) != len(data.teams) or all(data.scripted)
        ):
            raise ValueError(_("scripted: one entry per team, classic only, and not every team"))
        return self


class _BmxChecks(BaseModel):
    """What the fields of a bmx set-up must agree on."""

    model_config = MODEL

    @model_validator(mode="after")
    def _consistent(self) -> Any:
        data: Any = self
        _teams_ok(data.teams, 1, data.course)
        if len(data.teams) > lim.MAX_BMX_RIDERS:
            raise ValueError(_("teams: at most {n} riders race bmx").format(n=lim.MAX_BMX_RIDERS))
        if data.course.tail is None:
            raise ValueError(_("course: a bmx course needs its lap (tail)"))
        if data.descent_keep > data.descent_draw:
            raise ValueError(_("descent_keep: more than descent_draw"))
        if len(data.young) > len(data.teams):
            raise ValueError(_("young: more entries than teams"))
        return self


if TYPE_CHECKING:  # the derived models, as mypy sees them: their fields are the set-up's
    class ClassicSetupData(_ClassicChecks):
        def __getattr__(self, name: str) -> Any: ...

    class BmxSetupData(_BmxChecks):
        def __getattr__(self, name: str) -> Any: ...
else:
    ClassicSetupData = create_model("ClassicSetupData", __base__=_ClassicChecks, **schema_fields(ClassicSetup))
    BmxSetupData = create_model("BmxSetupData", __base__=_BmxChecks, **schema_fields(BmxSetup))


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


def setup_data(setup: ClassicSetup | BmxSetup) -> dict[str, Any]:
    """A ClassicSetup or BmxSetup as plain JSON data, every field of it (the
    save model has the same fields: it is derived from them)."""
    return {f.name: _plain(getattr(setup, f.name)) for f in fields(setup)}


def _from_plain(kind: str, value: Any) -> Any:
    """A saved field's value as the set-up holds it (the inverse of _plain)."""
    if kind == "course":
        return _course(value)
    if kind == "teams":
        return tuple(Team(t.name, t.colour, t.riders) for t in value)
    if kind == "decks":
        return {k: tuple(v) for k, v in value.items()}
    return value


def setup_from_data(data: ClassicSetupData | BmxSetupData) -> ClassicSetup | BmxSetup:
    """The set-up a checked save holds: every field of the set-up class, by its kind."""
    cls = BmxSetup if isinstance(data, BmxSetupData) else ClassicSetup
    return cls(**{f.name: _from_plain(f.metadata["save"], getattr(data, f.name)) for f in fields(cls)})


def stage_from_data(data: ClassicSetupData) -> ClassicSetup:
    """A tour stage's set-up (a tour's legs are classic or meteo)."""
    setup = setup_from_data(data)
    assert isinstance(setup, ClassicSetup)  # ClassicSetupData made it
    return setup


def setup_json(setup) -> str:
    """A set-up as JSON text (as in a save)."""
    return json.dumps(setup_data(setup))


def setup_from_json(text: str):
    """The set-up from `setup_json`'s text, checked as a save's is."""
    return setup_from_data(_SETUP.validate_json(text))


_SETUP: TypeAdapter[ClassicSetupData | BmxSetupData] = TypeAdapter(SetupData)
