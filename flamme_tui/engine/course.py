"""The compiled track: plain tuples per square, built once from stage data.

The rules never see pydantic objects, only a Course.  Squares past the last
tile behave as flat two-lane squares (bmx: the lap goes on from the line), so
the per-square tuples are padded far enough that no rider can run off them.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Final

# Terrain codes, one character per square, and the terrain rule of a move
# (the cap of a climb, the minimum of a descent or supply zone): in the engine.
from .terrain import ASCENT, BUMPY, CANYON, COBBLE, DESCENT, FLAT, MARSH, SUPPLY, terrain_rule

CLASSIC_TERRAIN = frozenset(FLAT + ASCENT + DESCENT + SUPPLY + COBBLE)
# The square codes of tile sides (stages/tiles.yaml) -> (terrain, lanes): the
# base tiles' two-lane squares and the Peloton tiles' wide (w), supply (s) and
# cobble (c, and i in single file) squares (PELOTON.md, Squares).
TILE_SQUARES: dict[str, tuple[str, int]] = {
    ".": (FLAT, 2),
    "^": (ASCENT, 2),
    "v": (DESCENT, 2),
    "w": (FLAT, 3),
    "s": (SUPPLY, 3),
    "c": (COBBLE, 2),
    "i": (COBBLE, 1),
}
BMX_TERRAIN = frozenset(FLAT + BUMPY + CANYON + MARSH + DESCENT)

# Weather kinds (meteo).  FAIR is "no weather".
FAIR: Final = ""
CROSSWIND: Final = "crosswind"
TAILWIND: Final = "tailwind"
HEADWIND: Final = "headwind"
WET: Final = "wet"
WEATHER_KINDS = (CROSSWIND, TAILWIND, HEADWIND, WET)

# Far enough for any move plus slipstream past the last square.
PADDING: Final = 48
MOVE_TABLE: Final = 16  # card values tabulated in Course.moves


@dataclass(frozen=True, slots=True)
class TilePlace:
    """One tile laid on the course: its letter, kind and squares first..first+length-1."""

    letter: str
    kind: str  # start, finish, straight, sharp, soft (bmx: bmx)
    first: int
    length: int


@dataclass(frozen=True, slots=True)
class Course:
    name: str
    terrain: str  # one code per square, padded
    lanes: tuple[int, ...]  # lanes per square (1, 2 or 3: engine.track.LANES at most), padded
    finish: int  # first square past the finish line
    grid: int  # squares 0..grid-1 are the starting grid behind the start line
    length: int  # real squares (before padding)
    tiles: tuple[TilePlace, ...] = ()
    weather: tuple[str, ...] = ()  # per square, FAIR or a kind; empty tuple = no weather
    ramp: tuple[int, int] | None = None  # bmx jump ramp (square, number)
    tail: tuple[str, tuple[int, ...]] | None = None  # what repeats past the end
    breakaway: int = -1  # the square the breakaway's winners start on (Peloton), -1: no breakaway
    # distance from each square to the first ascent square after it (large if none)
    next_ascent: tuple[int, ...] = field(default=(), compare=False)
    # moves[start][value]: squares a card of that value moves from start (classic terrain rules)
    moves: tuple[tuple[int, ...], ...] = field(default=(), compare=False, repr=False)
    # reasons[start][value]: why that move differs from the card (engine.events' BY_ bits)
    reasons: tuple[tuple[int, ...], ...] = field(default=(), compare=False, repr=False)

    @staticmethod
    def build(
        name: str,
        terrain: str,
        finish: int,
        grid: int,
        *,
        lanes: tuple[int, ...] | None = None,
        tiles: tuple[TilePlace, ...] = (),
        weather: tuple[str, ...] = (),
        ramp: tuple[int, int] | None = None,
        tail: tuple[str, tuple[int, ...]] | None = None,
        breakaway: int = -1,
    ) -> Course:
        """Pad the per-square data and precompute what the rules look up often.

        `tail` is (terrain, lanes) repeated past the end: by default flat
        two-lane squares; for bmx, the lap itself.
        """
        length = len(terrain)
        lane_tuple = tuple(lanes) if lanes is not None else tuple(
            1 if t == MARSH else 2 for t in terrain
        )
        tail_terrain, tail_lanes = tail or (FLAT, (2,))
        reps = PADDING // len(tail_terrain) + 1
        full = terrain + (tail_terrain * reps)[:PADDING]
        pad_lanes = (tuple(tail_lanes) * reps)[:PADDING]
        if weather:
            weather = tuple(weather) + (FAIR,) * (len(full) - len(weather))
        nxt = [10**6] * len(full)
        dist = 10**6
        for i in range(len(full) - 1, -1, -1):
            nxt[i] = dist
            dist = 1 if full[i] == ASCENT else dist + 1
        ruled = [[terrain_rule(full, nxt, start, value) for value in range(MOVE_TABLE)] for start in range(len(full))]
        moves = tuple(tuple(r[0] for r in row) for row in ruled)
        reasons = tuple(tuple(r[1] for r in row) for row in ruled)
        return Course(
            name=name,
            terrain=full,
            lanes=lane_tuple + pad_lanes,
            finish=finish,
            grid=grid,
            length=length,
            tiles=tiles,
            weather=weather,
            ramp=ramp,
            tail=tail,
            breakaway=breakaway,
            next_ascent=tuple(nxt),
            moves=moves,
            reasons=reasons,
        )

    def with_weather(self, weather: tuple[str, ...]) -> Course:
        """This course with weather on its squares (meteo: once per race), padded as
        `build` pads it; the terrain's tables are kept, not worked out again."""
        if weather:
            weather = tuple(weather) + (FAIR,) * (len(self.terrain) - len(weather))
        return replace(self, weather=weather)

    def tile_at(self, square: int) -> TilePlace | None:
        for tile in self.tiles:
            if tile.first <= square < tile.first + tile.length:
                return tile
        return None
