"""The data files' pydantic models: tiles, stages, the rule sets' numbers; the built-in stages' order."""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    ValidationInfo,
    field_validator,
    model_validator,
)

from .. import limits as lim
from .. import usertext
from ..engine.course import (
    BMX_TERRAIN,
    CROSSWIND,
    FAIR,
    HEADWIND,
    TAILWIND,
    TILE_SQUARES,
    WET,
)
from ..i18n import _, language

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
            raise ValueError(_("{char} at position {at} is not a tile name (a letter, a digit 1-9, or _ and a digit)")
                             .format(char=repr(text[at]), at=at + 1))
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
                raise ValueError(_("a start side needs 'line' between 1 and {n}").format(n=n))
        elif self.kind == "finish":
            if self.line is None or not 0 <= self.line <= n:
                raise ValueError(_("a finish side needs 'line' between 0 and {n}").format(n=n))
        elif self.line is not None:
            raise ValueError(_("'line' only belongs to start and finish sides, not {kind}").format(kind=self.kind))
        if self.breakaway is not None and not 0 <= self.breakaway < n:
            raise ValueError(_("'breakaway' must be a square of the side, 0 to {last}").format(last=n - 1))
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
                raise ValueError(_("tile name {name} is not a letter a-z or A-Z, a digit 1-9 or _ and a digit").format(
                    name=repr(name)))
            other = tiles.get(other_side(name))
            if other is None:
                raise ValueError(_("tile {name} has no other side {other}").format(name=repr(name), other=repr(other_side(name))))
            # both sides of one physical tile have the same shape
            if (other.kind, len(other.squares)) != (side.kind, len(side.squares)):
                raise ValueError(_("sides {name} and {other} differ in kind or length").format(
                    name=repr(name), other=repr(other_side(name))))
        return tiles

    def side(self, name: str) -> TileSide:
        return self.tiles[name]

    def physical_tiles(self) -> list[str]:
        """One name per physical tile (its lower-case letter or digit), sorted."""
        return sorted({physical_tile(name) for name in self.tiles})


class Words(BaseModel):
    """A data file's words in another language: its `fr:` or `es:` block
    (a stage's or a tour's description).  A field left out is said in English."""

    model_config = _MODEL

    description: StrictStr = Field("", max_length=lim.MAX_DESCRIPTION)

    @field_validator("description")
    @classmethod
    def _no_control(cls, text: str) -> str:
        return usertext.check(text, multiline=True)  # shown in the app: nothing may reach the terminal as a control


def said(english: str, field: str, fr: Words | None, es: Words | None) -> str:
    """A data file's text `field` in the player's language: its `fr:`/`es:`
    block's where it gives one, else the English."""
    words = {"fr": fr, "es": es}.get(language())
    text: str = getattr(words, field, "") if words is not None else ""
    return text or english


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
    fr: Words | None = None  # its description in French, Spanish (English where left out)
    es: Words | None = None

    @property
    def description_said(self) -> str:
        """Its description in the player's language (see Words)."""
        return said(self.description, "description", self.fr, self.es)

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
        from .loading import load_tiles  # (loading reads files into these models)

        catalog: TileCatalog = (info.context or {}).get("catalog") or load_tiles()
        known = catalog.tiles
        names = split_tiles(tiles)
        for name in names:
            if name not in known:
                raise ValueError(_("unknown tile letter {name}").format(name=repr(name)))
        boxes = info.data.get("boxes") or ()
        outside = [n for n in names if tile_box(n) not in boxes]
        if boxes and outside:
            raise ValueError(_("tile {name} is in the {box} box, which the stage does not list in boxes ({boxes})").format(
                name=repr(outside[0]), box=tile_box(outside[0]), boxes=", ".join(boxes)))
        seen: dict[str, str] = {}
        for name in names:
            # 'b' and 'B' (or '2' and '_2') are two sides of the same tile: one of them at most
            tile = physical_tile(name)
            if tile in seen and seen[tile] == name:  # the same side laid again
                raise ValueError(_("tile {name} used twice (a stage has each tile once)").format(name=repr(name)))
            if tile in seen:
                raise ValueError(_("tile {name} used twice (as {first} and {name}; a tile has only one of its "
                                   "two sides up)").format(name=repr(name), first=repr(seen[tile])))
            seen[tile] = name
        if len(names) < 2:
            raise ValueError(_("a stage needs at least a start tile and a finish tile"))
        kinds = [known[name].kind for name in names]
        if kinds[0] != "start":
            raise ValueError(_("the first tile must be a start tile, not {name}").format(name=repr(names[0])))
        if kinds[-1] != "finish":
            raise ValueError(_("the last tile must be a finish tile, not {name}").format(name=repr(names[-1])))
        for name, kind in zip(names[1:-1], kinds[1:-1]):
            if kind in ("start", "finish"):
                raise ValueError((_("start tile {name} in the middle of the stage") if kind == "start" else
                                  _("finish tile {name} in the middle of the stage")).format(name=repr(name)))
        first, last = known[names[0]], known[names[-1]]
        finish = sum(len(known[t].squares) for t in names[:-1]) + (last.line or 0)
        length = finish - (first.line or 0)
        if length < MIN_STAGE_LENGTH:
            raise ValueError(_("too short: {length} squares from start line to finish line, at least {least} "
                               "needed").format(length=length, least=MIN_STAGE_LENGTH))
        return tiles

    # field validators, not the model's: an error names its field, and so its line in the file
    @field_validator("colours")
    @classmethod
    def _colours(cls, colours: tuple[int, int] | None) -> tuple[int, int] | None:
        if colours is not None and not 2 <= colours[0] <= colours[1] <= lim.MAX_COLOURS:
            raise ValueError(_("from 2 to {most}, the lower number first").format(most=lim.MAX_COLOURS))
        return colours

    @field_validator("other_version")
    @classmethod
    def _other_version(cls, other: str, info: ValidationInfo) -> str:
        # (colours comes first: a wrong one is said on its own, not here again)
        if other and "colours" in info.data and info.data["colours"] is None:
            raise ValueError(_("say which numbers of colours this version is for (colours)"))
        return other

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
            raise ValueError(_("single_lane indices must be between 0 and {last}").format(last=n - 1))
        if len(set(self.single_lane)) != len(self.single_lane):
            raise ValueError(_("single_lane lists a square twice"))
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
            raise ValueError(_("cannot keep more tokens than drawn"))
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
            raise ValueError(_("need exactly the tiles {tiles}, got {got}").format(
                tiles=", ".join(BMX_TILES), got=", ".join(tiles)))
        return tiles


