"""Compiling stages and bmx circuits into the engine's Course."""

from __future__ import annotations

import math
from pathlib import Path

from ..engine.course import (
    Course,
    TilePlace,
)
from ..i18n import _
from .errors import ConfigError
from .loading import load_bmx_rules, load_stage, load_tiles
from .models import BMX_TILES, BmxRules, StageSpec, TileCatalog, physical_tile

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
            _("expected one letter per tile in the order {tiles} (upper case front, lower case back), got {sides}").format(
                tiles=BMX_TILES, sides=repr(sides)),
            field="sides",
        )
    if n_riders < 1:
        raise ConfigError(_("need at least one rider, got {n}").format(n=n_riders), field="n_riders")
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
            raise ConfigError(_("ramp square must be a lap square 0..{last}, got {square}").format(last=lap - 1, square=square),
                              field="ramp")
        if number not in rules.ramp_numbers:
            raise ConfigError(
                _("ramp number must be one of {numbers}, got {number}").format(
                    numbers=list(rules.ramp_numbers), number=number),
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


