"""A stage's summary, for `flamme-tui stages list`."""

from __future__ import annotations

import functools
from typing import NamedTuple

from ..engine.terrain import ASCENT, COBBLE, DESCENT, SUPPLY
from .compiling import compile_stage
from .models import StageSpec, TileCatalog

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
    if catalog is None:  # the built-in tiles: the stage (frozen, hashable) names its summary
        return _summary_of(stage)
    return _summary(stage, catalog)


@functools.lru_cache(maxsize=1024)
def _summary_of(stage: StageSpec) -> StageSummary:
    """A stage's summary, kept: the stage menu and `stages list` sum up every stage
    each time, and laying a stage's tiles builds its whole course."""
    return _summary(stage, None)


def _summary(stage: StageSpec, catalog: TileCatalog | None) -> StageSummary:
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
