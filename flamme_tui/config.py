"""Game data: YAML files under stages/ -> validated pydantic models -> Course.

Everything the rules need (tiles, stages, variant numbers) lives in YAML so a
player can add a stage without touching code.  Files are read with PyYAML's
safe loader only and validated by frozen pydantic models that forbid unknown
keys.  Any problem becomes a `ConfigError` whose text is one line,
`FILE:LINE: FIELD: message`, so a typo in a user's stage is easy to find.

The rules never see these models: `compile_stage` and `compile_bmx_circuit`
turn them into a plain `Course`.  This module must not import Textual.
"""

from __future__ import annotations

import functools
import math
import os
import re
import reprlib
import stat
import threading
import types
import typing
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Literal, NamedTuple, TypeVar

import yaml
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from . import files, usertext
from . import limits as lim
from .engine.course import (
    BMX_TERRAIN,
    CROSSWIND,
    FAIR,
    HEADWIND,
    TAILWIND,
    TILE_SQUARES,
    WET,
    Course,
    TilePlace,
)
from .engine.terrain import ASCENT, COBBLE, DESCENT, SUPPLY
from .i18n import _
from .pathtext import show_path

__all__ = [
    "BmxRules",
    "ClassicRules",
    "ConfigError",
    "MeteoRules",
    "StageSpec",
    "StageSummary",
    "TileCatalog",
    "TileSide",
    "compile_bmx_circuit",
    "check_stage_file",
    "compile_stage",
    "data_dir",
    "load_bmx_rules",
    "load_classic_rules",
    "load_course",
    "load_meteo_rules",
    "load_stage",
    "id_problem",
    "load_tiles",
    "slugify",
    "stage_entries",
    "stage_ids",
    "stage_notices",
    "stage_status",
    "stage_statuses",
    "stage_summary",
    "user_data_dir",
    "user_stage_files",
    "user_stages_dir",
    "user_stages_problem",
]

# The built-in stages: the base game's in the rulebook's order (the first-race stage first), then the Peloton expansion's.
STAGE_ORDER = (
    "avenue-corso-paseo",
    "firenze-milano",
    "la-classicissima",
    "la-haut-montagne",
    "le-col-du-ballon",
    "ronde-van-wevelgem",
    "plateaux-de-wallonie",
    # the Peloton expansion's stages 7 to 12, each in its 2-4 and 5-6 team versions
    *(f"peloton-{n}{version}" for n in range(7, 13) for version in ("", "-5-6")),
)

# A stage shorter than this (start line to finish line) is not a race.
MIN_STAGE_LENGTH = 10

BMX_TILES = "ABCD"


# ---------------------------------------------------------------------------
# Errors


class ConfigError(Exception):
    """A bad data file: str() is one line, `FILE:LINE: FIELD: message`.

    Parts that are unknown are left out (no line for a missing key at the top
    level, no file for a bad argument).
    """

    def __init__(
        self,
        message: str,
        *,
        file: str | Path | None = None,
        line: int | None = None,
        field: str | None = None,
        shown_file: str | None = None,
    ) -> None:
        # one line, always, and safe to show anywhere: a file name or a value
        # from a file may hold control characters (written out, usertext)
        self.message = usertext.clean(" ".join(str(message).split()), multiline=False)
        if shown_file is not None:  # the file as another error of it showed it: not resolved again
            self.file: str | None = shown_file
        else:
            self.file = None if file is None else usertext.clean(show_path(file), multiline=False)  # never fails
        self.line = line
        self.field = field
        super().__init__(str(self))

    def __str__(self) -> str:
        where = ":".join(str(p) for p in (self.file, self.line) if p is not None)
        parts = [p for p in (where, self.field, self.message) if p]
        return ": ".join(parts)


# ---------------------------------------------------------------------------
# Models

_MODEL = ConfigDict(extra="forbid", frozen=True)

# "short": Peloton tile 9, three squares, which takes no weather token (PELOTON.md, Tiles)
TileKind = Literal["start", "finish", "straight", "sharp", "soft", "short"]

# A tile's name: a base tile's letter ("b", "B"), or a Peloton tile's number,
# light side "2" and dark side "_2" (PELOTON.md).  In a stage's tiles, "_"
# belongs to the digit after it: "a_23g" is a, _2, 3, g.
TILE_NAME = re.compile(r"[A-Za-z]|_?[1-9]")


def other_side(name: str) -> str:
    """The name of the other side of the same physical tile."""
    if name.isalpha():
        return name.swapcase()
    return name[1:] if name.startswith("_") else "_" + name


def physical_tile(name: str) -> str:
    """One name per physical tile: the lower-case letter or the digit."""
    return name.lower() if name.isalpha() else name.lstrip("_")


def tile_box(name: str) -> str:
    """The box a tile (either side) comes in: the base box's tiles are
    lettered, the Peloton box's numbered (stages/tiles.yaml)."""
    return "base" if name.isalpha() else "peloton"


def split_tiles(text: str) -> list[str]:
    """The tile names of a stage's tiles string, in race order (ValueError
    naming the first character that is no tile name)."""
    names, at = [], 0
    while at < len(text):
        found = TILE_NAME.match(text, at)
        if found is None:
            raise ValueError(f"{text[at]!r} at position {at + 1} is not a tile name "
                             "(a letter, a digit 1-9, or _ and a digit)")
        names.append(found.group())
        at = found.end()
    return names


def _known_terrain(squares: str, known: frozenset[str], legend: str) -> str:
    """`squares` if every letter is a terrain code of `known`; else the
    letters that are not, and the ones to use (`legend`)."""
    bad = sorted(set(squares) - known)
    if bad:
        raise ValueError(_("unknown terrain {letters} (use {legend})").format(letters=repr("".join(bad)), legend=legend))
    return squares


class TileSide(BaseModel):
    """One side of a classic tile."""

    model_config = _MODEL

    kind: TileKind
    squares: StrictStr = Field(min_length=1, max_length=lim.MAX_TILE_SQUARES)
    # start: squares behind the start line; finish: squares before the line
    line: StrictInt | None = None
    # the breakaway square of Peloton tile 2 (0 = the side's first square)
    breakaway: StrictInt | None = None

    @field_validator("squares")
    @classmethod
    def _terrain(cls, squares: str) -> str:
        return _known_terrain(squares, frozenset(TILE_SQUARES), _(
            "'.' flat, '^' ascent, 'v' descent; Peloton: 'w' wide, 's' supply zone, 'c' cobbles, 'i' single-file cobbles"))

    @model_validator(mode="after")
    def _line(self) -> TileSide:
        n = len(self.squares)
        if self.kind == "start":
            # the grid needs at least one square behind the line
            if self.line is None or not 1 <= self.line <= n:
                raise ValueError(f"a start side needs 'line' between 1 and {n}")
        elif self.kind == "finish":
            if self.line is None or not 0 <= self.line <= n:
                raise ValueError(f"a finish side needs 'line' between 0 and {n}")
        elif self.line is not None:
            raise ValueError(f"'line' only belongs to start and finish sides, not {self.kind}")
        if self.breakaway is not None and not 0 <= self.breakaway < n:
            raise ValueError(f"'breakaway' must be a square of the side, 0 to {n - 1}")
        return self

    def terrain(self) -> str:
        """The side's squares as course terrain codes."""
        return "".join(TILE_SQUARES[code][0] for code in self.squares)

    def lanes(self) -> tuple[int, ...]:
        """Lanes of each square (1, 2 or 3)."""
        return tuple(TILE_SQUARES[code][1] for code in self.squares)

    def grid_places(self) -> int:
        """Places behind the start line (a start side), lanes of every grid square."""
        return sum(self.lanes()[: self.line or 0])


class TileCatalog(BaseModel):
    """All tile sides by name; a tile's two sides are its lower and upper case
    letter, or its digit and underscore-digit (Peloton)."""

    model_config = _MODEL

    tiles: dict[StrictStr, TileSide]

    @field_validator("tiles")
    @classmethod
    def _pairs(cls, tiles: dict[str, TileSide]) -> dict[str, TileSide]:
        for name, side in tiles.items():
            if not name.isascii() or TILE_NAME.fullmatch(name) is None:
                raise ValueError(f"tile name {name!r} is not a letter a-z or A-Z, a digit 1-9 or _ and a digit")
            other = tiles.get(other_side(name))
            if other is None:
                raise ValueError(f"tile {name!r} has no other side {other_side(name)!r}")
            # both sides of one physical tile have the same shape
            if (other.kind, len(other.squares)) != (side.kind, len(side.squares)):
                raise ValueError(
                    f"sides {name!r} and {other_side(name)!r} differ in kind or length"
                )
        return tiles

    def side(self, name: str) -> TileSide:
        return self.tiles[name]

    def physical_tiles(self) -> list[str]:
        """One name per physical tile (its lower-case letter or digit), sorted."""
        return sorted({physical_tile(name) for name in self.tiles})


class StageSpec(BaseModel):
    """A classic stage: tile names in race order.

    Validated against the tile catalog passed as validation context
    (`context={"catalog": ...}`), by default `load_tiles()`.
    """

    model_config = _MODEL

    name: StrictStr = Field(min_length=1, max_length=lim.MAX_STAGE_NAME)
    # the boxes whose tiles the stage needs; when given, every tile must be in
    # one of them (before `tiles`, whose check reads it: a tile from another box
    # is named first, as the stage editor lays tiles one by one)
    boxes: tuple[Literal["base", "peloton"], ...] = Field((), max_length=2)
    tiles: StrictStr = Field(max_length=lim.MAX_STAGE_TILES)
    description: StrictStr = Field("", max_length=lim.MAX_DESCRIPTION)
    # a stage card with a version per number of teams (Peloton stages 7-12): the
    # numbers of colours racing this version is for, and the id of the other version
    colours: tuple[StrictInt, StrictInt] | None = None
    other_version: StrictStr = Field("", max_length=lim.MAX_STAGE_NAME, pattern=r"^[a-z0-9-]*$")
    # where the tile sequence comes from (a stage card, a public stage list)
    source: StrictStr = Field("", max_length=lim.MAX_DESCRIPTION)

    @field_validator("name", "description", "source")
    @classmethod
    def _no_control(cls, text: str, info: ValidationInfo) -> str:
        # shown in the app and printed by commands: nothing may reach the terminal as a control
        if info.field_name == "name":
            return usertext.check_name(text)  # nor be a blank of invisible characters
        return usertext.check(text, multiline=True)

    @field_validator("tiles")
    @classmethod
    def _layout(cls, tiles: str, info: ValidationInfo) -> str:
        catalog: TileCatalog = (info.context or {}).get("catalog") or load_tiles()
        known = catalog.tiles
        names = split_tiles(tiles)
        for name in names:
            if name not in known:
                raise ValueError(f"unknown tile letter {name!r}")
        boxes = info.data.get("boxes") or ()
        outside = [n for n in names if tile_box(n) not in boxes]
        if boxes and outside:
            raise ValueError(f"tile {outside[0]!r} is in the {tile_box(outside[0])} box, "
                             f"which the stage does not list in boxes ({', '.join(boxes)})")
        seen: dict[str, str] = {}
        for name in names:
            # 'b' and 'B' (or '2' and '_2') are two sides of the same tile: one of them at most
            tile = physical_tile(name)
            if tile in seen:
                raise ValueError(
                    f"tile {name!r} used twice (as {seen[tile]!r} "
                    f"and {name!r}; a tile has only one of its two sides up)"
                )
            seen[tile] = name
        if len(names) < 2:
            raise ValueError("a stage needs at least a start tile and a finish tile")
        kinds = [known[name].kind for name in names]
        if kinds[0] != "start":
            raise ValueError(f"the first tile must be a start tile, not {names[0]!r}")
        if kinds[-1] != "finish":
            raise ValueError(f"the last tile must be a finish tile, not {names[-1]!r}")
        for name, kind in zip(names[1:-1], kinds[1:-1]):
            if kind in ("start", "finish"):
                raise ValueError(f"{kind} tile {name!r} in the middle of the stage")
        first, last = known[names[0]], known[names[-1]]
        finish = sum(len(known[t].squares) for t in names[:-1]) + (last.line or 0)
        length = finish - (first.line or 0)
        if length < MIN_STAGE_LENGTH:
            raise ValueError(
                f"too short: {length} squares from start line to finish line, "
                f"at least {MIN_STAGE_LENGTH} needed"
            )
        return tiles

    @model_validator(mode="after")
    def _versions(self) -> StageSpec:
        if self.colours is not None and not 2 <= self.colours[0] <= self.colours[1] <= lim.MAX_COLOURS:
            raise ValueError(f"colours: from 2 to {lim.MAX_COLOURS}, the lower number first")
        if self.other_version and self.colours is None:
            raise ValueError("other_version: say which numbers of colours this version is for (colours)")
        return self

    def tile_names(self) -> list[str]:
        """The stage's tiles, one name each, in race order."""
        return split_tiles(self.tiles)


CardValue = Annotated[StrictInt, Field(ge=1, le=lim.MAX_CARD)]
Count = Annotated[StrictInt, Field(ge=0, le=lim.MAX_TOKENS)]


class Decks(BaseModel):
    model_config = _MODEL

    sprinteur: tuple[CardValue, ...] = Field(min_length=1, max_length=lim.MAX_DECK)
    rouleur: tuple[CardValue, ...] = Field(min_length=1, max_length=lim.MAX_DECK)


class MuscleTeam(BaseModel):
    model_config = _MODEL

    sprinteur_extra: tuple[CardValue, ...] = Field(max_length=lim.MAX_DECK)  # cards added to its Sprinteur's deck


class PelotonTeam(BaseModel):
    model_config = _MODEL

    attack_cards: StrictInt = Field(ge=0, le=lim.MAX_DECK)  # added to its one deck, a Rouleur deck
    attack_front: CardValue  # squares an Attack card moves its front rider
    attack_rear: CardValue  # and its rear rider


class SoloHandicap(BaseModel):
    model_config = _MODEL

    sprinteur: StrictInt = Field(ge=0, le=lim.MAX_HANDICAP)
    rouleur: StrictInt = Field(ge=0, le=lim.MAX_HANDICAP)


class ScriptedTeams(BaseModel):
    model_config = _MODEL

    exhaustion: StrictBool  # whether they take exhaustion cards
    out_of_cards: CardValue  # what a rider with no cards left moves by
    solo_handicap: SoloHandicap  # a lone team of players against a Peloton and a Muscle team
    muscle: MuscleTeam
    peloton: PelotonTeam


class BreakawayRules(BaseModel):
    model_config = _MODEL

    bids: StrictInt = Field(ge=1, le=lim.MAX_BIDS)
    exhaustion: StrictInt = Field(ge=0, le=lim.MAX_HANDICAP)
    pair_from: StrictInt = Field(ge=1, le=lim.MAX_TEAMS + 1)


class ClassicRules(BaseModel):
    model_config = _MODEL

    decks: Decks
    hand_size: StrictInt = Field(ge=1, le=lim.MAX_HAND)
    exhaustion_value: CardValue
    scripted_teams: ScriptedTeams
    breakaway: BreakawayRules

    def deck(self, rider: str) -> tuple[int, ...]:
        """The starting deck of a rider type: 'R'/'rouleur' or 'S'/'sprinteur'."""
        key = {"r": "rouleur", "s": "sprinteur"}.get(rider.lower(), rider.lower())
        return getattr(self.decks, key)


class WeatherTokens(BaseModel):
    model_config = _MODEL

    crosswind: Count
    tailwind: Count
    headwind: Count
    wet: Count
    fair: Count


class WindDraw(BaseModel):
    model_config = _MODEL

    tailwind: StrictInt = Field(ge=1, le=lim.MAX_HAND)
    headwind: StrictInt = Field(ge=1, le=lim.MAX_HAND)


class MeteoRules(BaseModel):
    model_config = _MODEL

    tokens: WeatherTokens
    draw: WindDraw
    stand_up_penalty: StrictInt = Field(ge=0, le=lim.MAX_CARD)

    def token_bag(self) -> tuple[str, ...]:
        """Every token as a course weather code (fair is FAIR, the empty string)."""
        t = self.tokens
        return (
            (CROSSWIND,) * t.crosswind
            + (TAILWIND,) * t.tailwind
            + (HEADWIND,) * t.headwind
            + (WET,) * t.wet
            + (FAIR,) * t.fair
        )


class BmxSide(BaseModel):
    model_config = _MODEL

    name: StrictStr = Field(min_length=1, max_length=lim.MAX_STAGE_NAME)
    squares: StrictStr = Field(min_length=1, max_length=lim.MAX_TILE_SQUARES)
    single_lane: tuple[StrictInt, ...] = ()  # indices into squares

    @field_validator("squares")
    @classmethod
    def _terrain(cls, squares: str) -> str:
        return _known_terrain(squares, BMX_TERRAIN, _("'.' track, 'b' bumpy, 'k' canyon, 'v' descent, 'm' marsh"))

    @model_validator(mode="after")
    def _lanes(self) -> BmxSide:
        n = len(self.squares)
        if any(not 0 <= i < n for i in self.single_lane):
            raise ValueError(f"single_lane indices must be between 0 and {n - 1}")
        if len(set(self.single_lane)) != len(self.single_lane):
            raise ValueError("single_lane lists a square twice")
        return self

    def lanes(self) -> tuple[int, ...]:
        return tuple(1 if i in self.single_lane else 2 for i in range(len(self.squares)))


class BmxTile(BaseModel):
    model_config = _MODEL

    front: BmxSide
    back: BmxSide


class DrawKeep(BaseModel):
    model_config = _MODEL

    draw: StrictInt = Field(ge=1, le=lim.MAX_HAND)
    keep: StrictInt = Field(ge=1, le=lim.MAX_HAND)

    @model_validator(mode="after")
    def _keep(self) -> DrawKeep:
        if self.keep > self.draw:
            raise ValueError("cannot keep more tokens than drawn")
        return self


class BmxDraw(BaseModel):
    model_config = _MODEL

    normal: DrawKeep
    descent: DrawKeep


class FatigueTaken(BaseModel):
    model_config = _MODEL

    normal: Count
    bumpy: Count


class BmxRules(BaseModel):
    model_config = _MODEL

    tiles: dict[StrictStr, BmxTile]
    bag: tuple[CardValue, ...] = Field(min_length=1, max_length=lim.MAX_TOKENS)
    fatigue_supply: Count
    die: tuple[CardValue | None, ...] = Field(min_length=1, max_length=lim.MAX_DIE_FACES)  # None: no catch-up
    ramp_numbers: tuple[CardValue, ...] = Field(min_length=1, max_length=lim.MAX_DIE_FACES)
    draw: BmxDraw
    fatigue_taken: FatigueTaken

    @field_validator("tiles")
    @classmethod
    def _four_tiles(cls, tiles: dict[str, BmxTile]) -> dict[str, BmxTile]:
        if sorted(tiles) != list(BMX_TILES):
            raise ValueError(f"need exactly the tiles {', '.join(BMX_TILES)}, got {', '.join(tiles)}")
        return tiles


# ---------------------------------------------------------------------------
# Reading YAML


def data_dir() -> Path:
    """The stages/ data: inside the package when installed, else the repo's."""
    here = Path(__file__).resolve().parent
    packaged = here / "stages"
    if (packaged / "tiles.yaml").is_file():
        return packaged
    return here.parent / "stages"


def _read(path: Path, kind: files.FileKind) -> tuple[Any, yaml.Node | None, os.stat_result]:
    """The data of a YAML file and its nodes (for line numbers), bounded by
    `kind` (files.load_yaml); ConfigError naming the file if anything is wrong."""
    try:
        return files.load_yaml(path, kind)
    except files.ReadError as exc:
        raise ConfigError(exc.reason, file=path, line=exc.line, field=exc.field) from None


class _Keys:
    """The keys of each YAML mapping node, indexed when first asked: a file
    with thousands of problems looks each one up at once (a scan of the
    mapping per problem made time grow with the square of the file)."""

    def __init__(self) -> None:
        self._index: dict[int, dict[str, tuple[yaml.Node, yaml.Node]]] = {}

    def get(self, node: yaml.MappingNode, name: str) -> tuple[yaml.Node, yaml.Node] | None:
        index = self._index.get(id(node))
        if index is None:
            index = {}
            for key, value in node.value:
                index.setdefault(str(key.value), (key, value))  # the first, as the scan found
            self._index[id(node)] = index
        return index.get(name)


def _line_of(node: yaml.Node | None, loc: tuple[Any, ...], keys: _Keys | None = None) -> tuple[int | None, bool]:
    """Line (1-based) of the deepest key of `loc` found in the YAML nodes.

    Also says whether the whole path was found (a missing key is not).
    """
    keys = _Keys() if keys is None else keys
    line = None
    for part in loc:
        if isinstance(node, yaml.MappingNode):
            found = keys.get(node, str(part))
            if found is None:
                return line, False
            key, node = found
            line = key.start_mark.line + 1
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) and part < len(node.value):
            node = node.value[part]
            line = node.start_mark.line + 1
        else:
            return line, False
    return line, True


def _field_name(loc: tuple[Any, ...]) -> str:
    name = ""
    for part in loc:
        name += f"[{part}]" if isinstance(part, int) else (f".{part}" if name else str(part))
    return name


def _allowed_keys(model: type[BaseModel], loc: tuple[Any, ...]) -> list[str]:
    """The keys the schema allows at `loc` (a path to a mapping), for messages."""
    tp: Any = model
    for part in loc:
        if isinstance(tp, type) and issubclass(tp, BaseModel):
            field = tp.model_fields.get(str(part))
            if field is None:
                return []
            tp = field.annotation
        elif typing.get_origin(tp) is dict:
            tp = typing.get_args(tp)[1]  # any key: the value type
        else:
            return []
        # unwrap `X | None`
        if isinstance(tp, types.UnionType) or typing.get_origin(tp) is typing.Union:
            args = [a for a in typing.get_args(tp) if a is not type(None)]
            tp = args[0] if len(args) == 1 else tp
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return list(tp.model_fields)
    return []


_SHORT = reprlib.Repr()  # (keyword arguments only from Python 3.12)
_SHORT.maxlevel, _SHORT.maxstring, _SHORT.maxother, _SHORT.maxlong = 2, 40, 40, 40


def _message(error: Any, model: type[BaseModel]) -> str:
    kind, loc = error["type"], tuple(error["loc"])
    if kind == "missing":
        return _("field required")
    if kind == "extra_forbidden":
        allowed = _allowed_keys(model, loc[:-1])
        return _("unknown key (allowed: {keys})").format(keys=", ".join(allowed)) if allowed else _("unknown key")
    msg = error["msg"]
    msg = msg.removeprefix("Value error, ").removeprefix("Assertion failed, ")
    msg = msg[:1].lower() + msg[1:]
    if kind.endswith("_type") or kind.endswith("_parsing") or kind == "literal_error":
        got = error.get("input")
        shown = _SHORT.repr(got)  # never the whole of a large value, for each of many errors
        shown = shown if len(shown) <= 40 else shown[:37] + "..."
        msg += _(" (got {type} {value})").format(type=type(got).__name__, value=shown)
    return msg


def _problems(
    model: type[BaseModel], path: Path, context: dict | None = None, kind: files.FileKind = files.DATA_FILE
) -> tuple[Any, list[ConfigError]]:
    """Validate a file: (the model or None, every problem found as a ConfigError).

    A file that cannot be read or parsed has exactly one problem.
    """
    try:
        data, node, _stat = _read(path, kind)
    except ConfigError as exc:
        return None, [exc]
    if not isinstance(data, dict):
        got = _("an empty file") if data is None else _("a {type}").format(type=type(data).__name__)
        return None, [ConfigError(
            _("expected a mapping of keys ({keys}), got {got}").format(keys=", ".join(model.model_fields), got=got),
            file=path,
            line=None if node is None else node.start_mark.line + 1,
        )]
    try:
        return model.model_validate(data, context=context), []
    except ValidationError as exc:
        problems: list[ConfigError] = []
        keys = _Keys()  # the nodes stay alive meanwhile: their ids stay theirs
        for error in exc.errors():
            loc = tuple(error["loc"])
            line, found = _line_of(node, loc, keys)
            # pydantic puts '[key]' on the loc of a bad dict key: drop it
            loc = tuple(p for p in loc if p != "[key]")
            if error["type"] == "missing" and not found and len(loc) == 1:
                line = None  # a missing top-level key has no line
            # the file's path is resolved once, not once per problem (thousands of bad keys)
            shown = problems[0].file if problems else None
            problems.append(ConfigError(_message(error, model), file=path, line=line,
                                        field=_field_name(loc) or None, shown_file=shown))
        return None, problems


def from_data(model: type[BaseModel], data: dict[str, Any], context: dict | None = None) -> Any:
    """A model from data held in memory (the stage editor's, a tour built in
    the app), checked as a file's data is, its first problem said as a file's
    is: ConfigError in one line naming the field."""
    try:
        return model.model_validate(data, context=context)
    except ValidationError as exc:
        error = exc.errors()[0]
        loc = tuple(p for p in error["loc"] if p != "[key]")
        raise ConfigError(_message(error, model), field=_field_name(loc) or None) from None


def stage_from_data(data: dict[str, Any], *, catalog: TileCatalog | None = None) -> StageSpec:
    """A stage from data held in memory, checked by StageSpec as a stage file is."""
    return from_data(StageSpec, data, {"catalog": catalog or load_tiles()})


def _first(path: Path, problems: list[ConfigError]) -> ConfigError:
    """The first problem, saying how many more there are."""
    first = problems[0]
    if len(problems) > 1:
        first = ConfigError(
            _("{problem} (and {n} more)").format(problem=first.message, n=len(problems) - 1),
            file=path, line=first.line, field=first.field,
        )
    return first


def _validate(model: type[BaseModel], path: Path, context: dict | None = None) -> Any:
    value, problems = _problems(model, path, context)
    if problems:
        raise _first(path, problems)
    return value


# ---------------------------------------------------------------------------
# Loading


@functools.cache
def load_tiles() -> TileCatalog:
    return _validate(TileCatalog, data_dir() / "tiles.yaml")


@functools.cache
def load_classic_rules() -> ClassicRules:
    return _validate(ClassicRules, data_dir() / "variants" / "classic.yaml")


@functools.cache
def load_meteo_rules() -> MeteoRules:
    return _validate(MeteoRules, data_dir() / "variants" / "meteo.yaml")


@functools.cache
def load_bmx_rules() -> BmxRules:
    return _validate(BmxRules, data_dir() / "variants" / "bmx.yaml")


def slugify(name: str) -> str:
    """A stage id from its name: 'Firenze - Milano' -> 'firenze-milano'."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")


def user_data_dir() -> Path:
    """Where the user's data lives (saves, custom stages): $FLAMME_TUI_DATA_DIR
    if set, else the platform's user data directory for flamme-tui."""
    override = os.environ.get("FLAMME_TUI_DATA_DIR")
    if override:
        return Path(override).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir("flamme-tui", appauthor=False))


def user_stages_dir() -> Path:
    """Custom stages: one YAML file per stage, the file name (without .yaml) is its id."""
    return user_data_dir() / "stages"


def _builtin_stage_ids() -> list[str]:
    ids = [p.stem for p in (data_dir() / "courses").glob("*.yaml")]
    rank = {sid: i for i, sid in enumerate(STAGE_ORDER)}
    return sorted(ids, key=lambda sid: (rank.get(sid, len(rank)), sid))


def _user_stage_files(every: bool = False) -> dict[str, Path]:
    """User stage files by id, sorted by id: the first MAX_USER_STAGES of
    them (`every`: all).  A missing directory has none.

    Every entry named *.yaml or *.yml that is not a directory counts, so a
    FIFO, a dangling symlink or a symlink loop shows up as a broken stage
    instead of vanishing without a word."""
    try:
        names = stage_files_in(user_stages_dir())
    except OSError:  # no folder, or not one we may read: no user stages
        return {}
    found: dict[str, Path] = {}
    for path in names:
        found.setdefault(path.stem, path)  # x.yaml before x.yml
    return dict(sorted(found.items())[:None if every else lim.MAX_USER_STAGES])


def stage_files_in(folder: Path) -> list[Path]:
    """The *.yaml and *.yml entries of a folder that are not folders, sorted
    (OSError if the folder cannot be listed)."""
    out = []
    for path in sorted(p for p in folder.iterdir() if p.suffix in (".yaml", ".yml")):
        try:
            if path.is_dir():
                continue
        except OSError:
            pass  # cannot even stat it: reading it will say why
        out.append(path)
    return out


class StageEntry(NamedTuple):
    id: str
    path: Path
    source: str  # "built-in" or "user"
    shadowed: bool = False  # a user stage whose id a built-in stage already has


def stage_entries() -> list[StageEntry]:
    """Every stage file: the built-in ones (STAGE_ORDER), then the user's
    (by id).  A user stage with the id of a built-in one is listed as
    shadowed: the id loads the built-in stage."""
    builtin = _builtin_stage_ids()
    entries = [StageEntry(sid, data_dir() / "courses" / f"{sid}.yaml", "built-in") for sid in builtin]
    for sid, path in _user_stage_files().items():
        entries.append(StageEntry(sid, path, "user", sid in builtin))
    return entries


class StageStatus(NamedTuple):
    """A stage file and what reading it gave: the stage, or the first problem."""

    entry: StageEntry
    stage: StageSpec | None
    problem: ConfigError | None


def id_problem(entry: StageEntry) -> ConfigError | None:
    """Why a user stage's file name cannot be its id (None if it can).  An id
    is text: typed in a command, written in a tour file, validated as a string;
    a file name whose bytes are not UTF-8 cannot be one (Python reads those
    bytes as lone surrogates, which pydantic refuses: the app crashed on a tour
    of such a stage)."""
    if entry.source != "user" or not _NOT_UTF8.search(entry.id):
        return None
    return ConfigError(_("the file name is not UTF-8 text: it cannot be a stage id (rename the file)"), file=entry.path)


_NOT_UTF8 = re.compile("[\ud800-\udfff]")  # the bytes of a name that were not UTF-8 (surrogateescape)


def stage_statuses() -> list[StageStatus]:
    """Every stage that an id can name (shadowed user stages left out),
    read and validated (files are cached by their identity: path, inode,
    mtime and size)."""
    return [status for entry in stage_entries() if (status := stage_status(entry)) is not None]


def stage_status(entry: StageEntry) -> StageStatus | None:
    """One stage file read and validated (None for a shadowed user stage:
    no id names it).  Safe in a worker thread (the app's stage menus read
    the user's stages in one)."""
    if entry.shadowed:
        return None
    bad_id = id_problem(entry)
    if bad_id is not None:
        return StageStatus(entry, None, bad_id)
    stage, problems = check_stage_file(entry.path)
    return StageStatus(entry, stage, _first(entry.path, problems) if problems else None)


def stage_ids() -> list[str]:
    """Ids of the stages a race can use: the built-in ones in STAGE_ORDER,
    then the user's stages (files in user_stages_dir()) by id.  A broken
    stage file is left out (stage_notices says why)."""
    return [s.entry.id for s in stage_statuses() if s.stage is not None]


def user_stages_problem() -> ConfigError | None:
    """Why the user stages folder cannot be listed, if it exists and cannot,
    or that it holds more stage files than are read."""
    folder = user_stages_dir()
    try:
        next(folder.iterdir(), None)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return ConfigError(_("cannot list folder: {why}").format(why=exc.strerror or exc), file=folder)
    found = len(_user_stage_files(every=True))
    if found > lim.MAX_USER_STAGES:
        return ConfigError(_("{n} stage files: only the first {most} by name are read").format(
            n=found, most=lim.MAX_USER_STAGES), file=folder)
    return None


def stage_notices(statuses: list[StageStatus] | None = None) -> list[str]:
    """One line per stage file left out of stage_ids (`file:line: reason`),
    and one if the user stages folder cannot be read.  `statuses`: those of
    stage_statuses(), if the caller has them already."""
    problem = user_stages_problem()
    notes = [] if problem is None else [str(problem)]
    return notes + [str(s.problem) for s in (statuses or stage_statuses()) if s.problem is not None]


KNOWN_SHOWN = 20  # stage ids an "unknown stage" error names (one line, however many user stages)


def user_stage_files() -> dict[str, Path]:
    """The user stage files an id can name, by id (the first MAX_USER_STAGES
    by name): list them once to load many stages (load_stage's `user_stages`)."""
    return _user_stage_files()


def _stage_path(ref: str, user_stages: dict[str, Path] | None = None) -> Path:
    path = data_dir() / "courses" / f"{ref}.yaml"
    try:
        built_in = path.is_file()
    except OSError:  # no such stage, whatever the system says about the name (too long...)
        built_in = False
    if built_in:
        return path
    user = (_user_stage_files() if user_stages is None else user_stages).get(ref)
    if user is not None:
        bad_id = id_problem(StageEntry(ref, user, "user"))
        if bad_id is not None:
            raise bad_id
        return user
    # the user's own stages first: with a large library they would not be among those named
    ids = sorted(stage_ids(), key=lambda sid: sid in _builtin_stage_ids())
    known = ", ".join(ids[:KNOWN_SHOWN]) + (_(" and {n} more: see `flamme-tui stages list`").format(
        n=len(ids) - KNOWN_SHOWN) if len(ids) > KNOWN_SHOWN else "")
    raise ConfigError(_("unknown stage {stage} (known: {known})").format(stage=repr(ref), known=known), field="stage")


def load_stage(ref: str | Path, *, catalog: TileCatalog | None = None,
               user_stages: dict[str, Path] | None = None) -> StageSpec:
    """A stage by id (built-in, else a user stage), by path to a .yaml file,
    or by its one-line code (`fr1:...`, stagegen.stage_from_code).
    `user_stages`: user_stage_files() if the caller has it (listing a folder of
    thousands of files for each of thousands of tours' stages took minutes)."""
    ref_text = str(ref)
    if not isinstance(ref, Path):
        from . import stagegen  # it builds on this module

        if stagegen.is_code(ref_text):
            return stagegen.stage_from_code(ref_text, catalog=catalog)
    if isinstance(ref, Path) or ref_text.endswith((".yaml", ".yml")) or "/" in ref_text or os.sep in ref_text:
        path = Path(ref)
    else:
        path = _stage_path(ref_text, user_stages)
    stage, problems = check_stage_file(path, catalog=catalog)
    if problems or stage is None:
        raise _first(path, problems)
    return stage


# Stage files read with the default tile catalog, by file identity: a stage
# list (the app's, `stages list`) stats each file instead of reading it again.
_STAGE_CACHE: dict[tuple[Any, ...], tuple[StageSpec | None, list[ConfigError]]] = {}
_STAGE_CACHE_SIZE = 2 * lim.MAX_USER_STAGES  # every stage listed, and room for files named by path
# the app reads stage and tour files in a worker thread while its UI thread may read one too
_CACHE_LOCK = threading.Lock()
T = TypeVar("T")


def cached_read(cache: dict[tuple[Any, ...], T], size: int, path: Path, read: Callable[[], T]) -> T:
    """read() for the file at `path`, kept in `cache` by the file's identity
    (path, device, inode, mtime, size) so that an unchanged file is not read
    again; at most `size` entries (the oldest goes first).  Thread-safe."""
    key = _file_key(path)
    if key is not None:
        with _CACHE_LOCK:
            if key in cache:
                return cache[key]
    value = read()  # outside the lock: two threads may read the same new file, never wait on each other
    if key is not None:
        with _CACHE_LOCK:
            while len(cache) >= size:
                del cache[next(iter(cache))]
            cache[key] = value
    return value


def _file_key(path: Path) -> tuple[Any, ...] | None:
    try:
        st = os.stat(path)
        where = str(path.absolute())
    except (OSError, ValueError):
        return None
    if not stat.S_ISREG(st.st_mode):
        return None  # never cache what is not a regular file
    return (where, st.st_dev, st.st_ino, st.st_mtime_ns, st.st_size)


def check_stage_file(path: str | Path, *, catalog: TileCatalog | None = None) -> tuple[StageSpec | None, list[ConfigError]]:
    """Validate one stage file: (the stage if good, every problem found)."""
    path = Path(path)
    if catalog is not None:
        return _problems(StageSpec, path, {"catalog": catalog}, files.STAGE_FILE)
    stage, problems = cached_read(_STAGE_CACHE, _STAGE_CACHE_SIZE, path,
                                  lambda: _problems(StageSpec, path, {"catalog": load_tiles()}, files.STAGE_FILE))
    return stage, list(problems)


# ---------------------------------------------------------------------------
# Compiling


def compile_stage(stage: StageSpec, *, catalog: TileCatalog | None = None, riders: int = 0) -> Course:
    """The classic/meteo course of a stage: its tiles' squares end to end.

    grid = squares behind the start line; finish = the first square past the
    finish line.  Tiles are kept (meteo deals weather per straight tile).
    `riders`: how many riders race; a start tile without a place for each of
    them is replaced (start_for; ConfigError when nothing fits).  A second
    tile with a breakaway square (Peloton tile 2) gives the course its
    breakaway square.
    """
    catalog = catalog or load_tiles()
    names = stage.tile_names()
    if riders:
        names[0] = start_for(names, riders, catalog)
    return lay_tiles(stage.name, names, catalog)


def lay_tiles(name: str, names: list[str], catalog: TileCatalog) -> Course:
    """The course of tile sides laid end to end (compile_stage's work, and
    the stage editor's drawing of a stage still being built): the start line
    where the first side has one (else at square 0), the finish line where
    the last side has one (else past the last square).  No rule is checked
    here: StageSpec does that."""
    terrain: list[str] = []
    lanes: list[int] = []
    places: list[TilePlace] = []
    first = 0
    for tile in names:
        side = catalog.side(tile)
        places.append(TilePlace(tile, side.kind, first, len(side.squares)))
        terrain.append(side.terrain())
        lanes.extend(side.lanes())
        first += len(side.squares)
    start, last = catalog.side(names[0]), places[-1]
    end = catalog.side(last.letter)
    finish = last.first + (end.line or 0) if end.kind == "finish" else first
    mark = catalog.side(names[1]).breakaway if len(names) > 1 else None
    return Course.build(
        name,
        "".join(terrain),
        finish=finish,
        grid=(start.line or 0) if start.kind == "start" else 0,
        lanes=tuple(lanes),
        tiles=tuple(places),
        breakaway=-1 if mark is None else places[1].first + mark,
    )


def start_for(names: list[str], riders: int, catalog: TileCatalog) -> str:
    """The stage's start tile or, when its grid has fewer places than riders,
    the start side of another tile with the same squares behind and after the
    line and room for all of them, not used elsewhere on the stage
    (PELOTON.md: `a` -> `_1`, `A` -> `1`, so the stage keeps its length).
    ConfigError if there is none."""
    start = catalog.side(names[0])
    if start.grid_places() >= riders:
        return names[0]
    used = {physical_tile(n) for n in names[1:]}
    for name, side in catalog.tiles.items():
        if (side.kind == "start" and side.line == start.line and len(side.squares) == len(start.squares)
                and physical_tile(name) not in used and side.grid_places() >= riders):
            return name
    raise ConfigError(
        f"{riders} riders race, the start tile {names[0]!r} has {start.grid_places()} places "
        "and no start tile like it has room for them all",
        field="stage",
    )


def stage_for_colours(stage: StageSpec, colours: int) -> StageSpec:
    """The version of the stage card for that many colours racing: the stage
    itself, or its other version when it says it is for other numbers
    (PELOTON.md: the 2-4 version with up to 4 colours, the 5-6 version with 5 or 6)."""
    if stage.colours is None or not stage.other_version:
        return stage
    low, high = stage.colours
    if low <= colours <= high:
        return stage
    return load_stage(stage.other_version)


def load_course(ref: str | Path, *, colours: int = 0, riders: int = 0) -> Course:
    """load_stage + compile_stage: with `colours`, the stage's version for that
    many colours racing (stage_for_colours); with `riders`, a start with room
    for them all (start_for)."""
    stage = load_stage(ref)
    if colours:
        stage = stage_for_colours(stage, colours)
    return compile_stage(stage, riders=riders)


def compile_bmx_circuit(
    sides: str = BMX_TILES,
    n_riders: int = 4,
    ramp: tuple[int, int] | None = None,
    *,
    rules: BmxRules | None = None,
) -> Course:
    """A BMX course: the starting grid, then one lap of the four tiles.

    `sides` names tiles A, B, C, D in that order; upper case = front side
    (classic track), lower case = back side: "aBCD" flips tile A to the bumpy
    passage.  The grid is ceil(n_riders / 2) flat two-lane squares behind the
    line (squares 0..grid-1); the lap follows, and finish = grid + lap length.
    Past the finish the lap repeats (`tail`).

    `ramp` is (lap square, number) with the lap square counted from the line,
    0..lap length - 1; the Course stores it as (course square, number).
    """
    rules = rules or load_bmx_rules()
    if len(sides) != len(BMX_TILES) or sides.upper() != BMX_TILES:
        raise ConfigError(
            f"expected one letter per tile in the order {BMX_TILES} "
            f"(upper case front, lower case back), got {sides!r}",
            field="sides",
        )
    if n_riders < 1:
        raise ConfigError(f"need at least one rider, got {n_riders}", field="n_riders")
    grid = math.ceil(n_riders / 2)
    lap_terrain = ""
    lap_lanes: tuple[int, ...] = ()
    places: list[TilePlace] = []
    for letter in sides:
        tile = rules.tiles[letter.upper()]
        side = tile.front if letter.isupper() else tile.back
        places.append(TilePlace(letter, "bmx", grid + len(lap_terrain), len(side.squares)))
        lap_terrain += side.squares
        lap_lanes += side.lanes()
    lap = len(lap_terrain)
    course_ramp = None
    if ramp is not None:
        square, number = ramp
        if not 0 <= square < lap:
            raise ConfigError(f"ramp square must be a lap square 0..{lap - 1}, got {square}", field="ramp")
        if number not in rules.ramp_numbers:
            raise ConfigError(
                f"ramp number must be one of {list(rules.ramp_numbers)}, got {number}",
                field="ramp",
            )
        course_ramp = (grid + square, number)
    return Course.build(
        f"BMX {sides}",
        "." * grid + lap_terrain,
        finish=grid + lap,
        grid=grid,
        lanes=(2,) * grid + lap_lanes,
        tiles=tuple(places),
        ramp=course_ramp,
        tail=(lap_terrain, lap_lanes),
    )


# ---------------------------------------------------------------------------
# Summaries (for `stages list`)


class StageSummary(NamedTuple):
    name: str
    tiles: str
    length: int  # squares from the start line to the finish line
    ascent: int  # ascent squares on the course
    descent: int  # descent squares on the course
    supply: int = 0  # supply zone squares (Peloton)
    cobbles: int = 0  # cobble squares (Peloton)
    breakaway: int = -1  # the breakaway square (Peloton tile 2 second), -1: none


def stage_summary(stage: StageSpec, *, catalog: TileCatalog | None = None) -> StageSummary:
    course = compile_stage(stage, catalog=catalog)
    terrain = course.terrain[: course.length]
    return StageSummary(
        name=stage.name,
        tiles=stage.tiles,
        length=course.finish - course.grid,
        ascent=terrain.count(ASCENT),
        descent=terrain.count(DESCENT),
        supply=terrain.count(SUPPLY),
        cobbles=terrain.count(COBBLE),
        breakaway=course.breakaway,
    )
