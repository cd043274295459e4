"""Boxes, stage kinds, random stages and one-line stage codes.

The tile catalogue (stages/tiles.yaml, `config.TileCatalog`) holds every
physical tile once, by its two sides: a base tile's lower and upper case
letter (a-u), a Peloton tile's digit and underscore-digit (1-9).  A box's
inventory is the set of physical tiles it holds: the base box has the 21
lettered tiles, the Peloton box the 9 numbered ones.  A stage may use a
physical tile once, with one of its sides up (StageSpec checks that).

A random stage is built from a seed and three choices (length, kind,
boxes) and nothing else, so the same seed gives the same stage on every
machine (`random.Random` seeded with text is stable across runs).  Its code
is one line: `fr1:` and the tile names in race order, the same text as a
stage file's `tiles`; a pasted code is read with the same checks as a file.

This module must not import Textual.
"""

from __future__ import annotations

import random
from typing import Final

from . import config, pydantic_words, words
from . import limits as lim
from .config import ConfigError, StageSpec, TileCatalog, physical_tile, tile_box
from .i18n import _, pgettext

BOXES: Final = ("base", "peloton")
LENGTHS: Final = ("short", "medium", "long")
CLIMB_KINDS: Final = ("flat", "hilly", "mountain")
KINDS: Final = (*CLIMB_KINDS, "cobbles")  # the stage menu's kinds

# Squares from the start line to the finish line.  The base box laid end to
# end is 68 to 70 squares, so "long" with the base box alone uses every tile.
LENGTH_RANGES: Final = {"short": (40, 52), "medium": (53, 64), "long": (65, 90)}
# Ascent squares of a kind: the base game's stages have 0 (Avenue Corso
# Paseo) to 19 (La Haut Montagne); La Classicissima, a hilly classic, has 18.
HILLY_MAX: Final = 18  # more ascent squares than this: a mountain stage

CODE_PREFIX: Final = "fr1:"
MAX_CODE = len(CODE_PREFIX) + 2 * lim.MAX_STAGE_TILES  # a "_2" tile name is two characters


def inventory(boxes: tuple[str, ...] | list[str], catalog: TileCatalog) -> list[str]:
    """The physical tiles of those boxes (one name each, sorted)."""
    return [t for t in catalog.physical_tiles() if tile_box(t) in boxes]


def boxes_needed(names: list[str]) -> tuple[str, ...]:
    """The boxes a stage's tiles come from, in BOXES order."""
    used = {tile_box(n) for n in names}
    return tuple(b for b in BOXES if b in used)


def climb_kind(ascent: int) -> str:
    """flat (no ascent square), hilly (up to HILLY_MAX) or mountain."""
    if ascent == 0:
        return "flat"
    return "hilly" if ascent <= HILLY_MAX else "mountain"


def stage_kind(summary: config.StageSummary) -> str:
    """The stage menu's kind: cobbles for a stage with cobbled squares, else its climb kind."""
    return "cobbles" if summary.cobbles else climb_kind(summary.ascent)


# ---------------------------------------------------------------------------
# Random stages


def _length(names: list[str], catalog: TileCatalog) -> int:
    """Squares from the start line to the finish line (as StageSpec counts them)."""
    sides = [catalog.side(n) for n in names]
    finish = sum(len(s.squares) for s in sides[:-1]) + (sides[-1].line or 0)
    return finish - (sides[0].line or 0)


def _ascent(names: list[str], catalog: TileCatalog) -> int:
    return sum(catalog.side(n).squares.count("^") for n in names)


def cobbled(squares: str) -> bool:
    """Whether a side has cobbled squares ("c", "i": the Peloton box's)."""
    return bool(set(squares) & {"c", "i"})


def random_tiles(seed: int, length: str = "medium", kind: str = "hilly",
                 boxes: tuple[str, ...] = ("base",), *, catalog: TileCatalog | None = None,
                 cobbles: bool | None = None, peloton: bool = False) -> str:
    """The tiles string of a random stage: a start side, middle tiles each used
    once with one side up, a finish side; `length` and `kind` as named.  The
    same arguments give the same string.  ConfigError for a choice that no
    stage can meet (an unknown word, no base box: the finish tile is in it).

    The stage menu's filter asks more (cobbles and boxes are kinds there):
    `cobbles` True lays at least one cobbled side, False none (so the stage's
    kind is its climb kind); `peloton` lays at least one Peloton tile.  Both
    need the Peloton box; left at None and False the stage is the one the
    same seed always gave."""
    if length not in LENGTHS:
        raise ConfigError(_("length must be one of {choices}, not {value}").format(
            choices=", ".join(LENGTHS), value=repr(length)), field="--length")
    if kind not in CLIMB_KINDS:
        raise ConfigError(_("kind must be one of {choices}, not {value}").format(
            choices=", ".join(CLIMB_KINDS), value=repr(kind)), field="--kind")
    unknown = [b for b in boxes if b not in BOXES]
    if unknown or not boxes:
        raise ConfigError(_("boxes are {choices} (comma-separated), not {value}").format(
            choices=", ".join(BOXES), value=repr(",".join(boxes))),
                          field="--boxes")
    if "base" not in boxes:
        raise ConfigError(_("a stage needs the base box: its finish tile is the only one"), field="--boxes")
    if (cobbles or peloton) and "peloton" not in boxes:
        raise ConfigError(_("cobbles and Peloton tiles need the Peloton box"), field="--boxes")
    if not -lim.MAX_SEED <= seed <= lim.MAX_SEED:
        raise ConfigError(_("seed must be between {least} and {most}").format(least=-lim.MAX_SEED, most=lim.MAX_SEED),
                          field="--seed")
    catalog = catalog or config.load_tiles()
    boxes = tuple(b for b in BOXES if b in boxes)  # order and repeats play no part
    asked = ("" if cobbles is None else f" cobbles={cobbles}") + (" peloton" if peloton else "")
    rng = random.Random(f"flamme-tui stage {seed} {length} {kind} {','.join(boxes)}{asked}")

    def allowed(side: str) -> bool:
        return cobbles is not False or not cobbled(catalog.side(side).squares)

    tiles = [t for t in inventory(boxes, catalog) if any(allowed(s) for s in (t, config.other_side(t)))]
    by_kind: dict[str, list[str]] = {}
    for tile in tiles:
        by_kind.setdefault(catalog.side(tile).kind, []).append(tile)

    def sides(tile: str) -> list[str]:
        other = config.other_side(tile)
        return [s for s in ([tile, other] if other in catalog.tiles else [tile]) if allowed(s)]

    def flat_side(tile: str) -> str | None:
        """A side of the tile with neither climb nor descent, if it has one."""
        options = [s for s in sides(tile) if not set(catalog.side(s).squares) & {"^", "v"}]
        return rng.choice(options) if options else None

    start = rng.choice([s for t in by_kind["start"] for s in sides(t)])
    finish_tile = by_kind["finish"][0]
    finish_sides = sides(finish_tile)
    if kind == "flat":
        finish_sides = [s for s in finish_sides if "^" not in catalog.side(s).squares] or finish_sides
    finish = rng.choice(finish_sides)

    # Middle tiles in a random order; a mountain stage takes the tiles with a
    # climbing side first, so even a short one has room for its climbs.
    middle = [t for t in tiles if catalog.side(t).kind not in ("start", "finish")]
    rng.shuffle(middle)
    climbs = [t for t in middle if any("^" in catalog.side(s).squares for s in sides(t))]
    if kind != "flat":  # hilly: two of them first, so there is always a climb to turn up
        first = climbs if kind == "mountain" else climbs[:2]
        middle = first + [t for t in middle if t not in first]
    # the filter's tile first of all, with its side: a cobbled one, or any Peloton one
    must: tuple[str, str] | None = None
    if cobbles or peloton:
        tile = rng.choice([t for t in middle if tile_box(t) == "peloton"
                           and (not cobbles or any(cobbled(catalog.side(s).squares) for s in sides(t)))])
        must = tile, rng.choice([s for s in sides(tile) if not cobbles or cobbled(catalog.side(s).squares)])
        middle = [tile, *(t for t in middle if t != tile)]
    low, high = LENGTH_RANGES[length]
    target = rng.randint(low, high)
    chosen: list[str] = []
    for tile in middle:
        if _length([start, *chosen, finish], catalog) >= target:
            break
        if _length([start, *chosen, tile, finish], catalog) > high:
            continue
        chosen.append(tile)
    if kind != "flat":
        rng.shuffle(chosen)  # the climbs anywhere along the stage, not all first

    # Sides: flat takes a flat side of each tile; hilly and mountain start
    # flat and turn tiles to a climbing side until the ascent is in range.
    placed = [flat_side(t) or rng.choice(sides(t)) for t in chosen]
    if must:
        placed[chosen.index(must[0])] = must[1]
    if kind != "flat":
        # a target inside the kind's range, so hilly stages are not all one short climb
        want_low = rng.randint(2, 8) if kind == "hilly" else rng.randint(HILLY_MAX + 1, 2 * HILLY_MAX)
        want_high = HILLY_MAX if kind == "hilly" else 10**6
        order = list(range(len(placed)))
        rng.shuffle(order)
        for k in order:
            if _ascent([start, *placed, finish], catalog) >= want_low:
                break
            ups = [s for s in sides(chosen[k]) if "^" in catalog.side(s).squares]
            if not ups:
                continue
            up = rng.choice(ups)
            if _ascent([start, *placed[:k], up, *placed[k + 1:], finish], catalog) <= want_high:
                placed[k] = up
    return "".join([start, *placed, finish])


def random_stage(seed: int, length: str = "medium", kind: str = "hilly",
                 boxes: tuple[str, ...] = ("base",), *, catalog: TileCatalog | None = None,
                 cobbles: bool | None = None, peloton: bool = False) -> StageSpec:
    """The random stage of those choices (random_tiles), validated as a stage file is."""
    catalog = catalog or config.load_tiles()
    tiles = random_tiles(seed, length, kind, boxes, catalog=catalog, cobbles=cobbles, peloton=peloton)
    lengths = {"short": pgettext("stage length", "short"), "medium": pgettext("stage length", "medium"),
               "long": pgettext("stage length", "long")}
    name = _("Random {seed} ({length}, {kind})").format(seed=seed, length=lengths.get(length, length),
                                                        kind=words.stage_kind("cobbles" if cobbles else kind))
    source = (f"flamme-tui stages random --seed {seed} --length {length} --kind {kind} "
              f"--boxes {','.join(b for b in BOXES if b in boxes)}")
    if cobbles is not None or peloton:  # the menu's choices, which the command does not offer
        source = _("the stage menu's Random stage, seed {seed}").format(seed=seed)
    return StageSpec.model_validate(
        {"name": name[: lim.MAX_STAGE_NAME], "tiles": tiles, "boxes": list(boxes_needed(config.split_tiles(tiles))),
         "source": source},
        context={"catalog": catalog})


# ---------------------------------------------------------------------------
# Codes


def stage_code(stage: StageSpec) -> str:
    """The one-line code of a stage: its tiles, which say all the course is."""
    return CODE_PREFIX + stage.tiles


def is_code(text: str) -> bool:
    """Whether a stage reference is a code rather than an id or a path."""
    return text.strip().lower().startswith(CODE_PREFIX)


def stage_from_code(text: str, *, catalog: TileCatalog | None = None) -> StageSpec:
    """The stage a pasted code stands for, checked as a stage file is (its
    length bounded first); ConfigError in one line if it is not a stage."""
    code = text.strip()
    if len(code) > MAX_CODE:
        raise ConfigError(_("a stage code has at most {most} characters, this one {n}").format(most=MAX_CODE, n=len(code)),
                          field="code")
    if not code.lower().startswith(CODE_PREFIX):
        raise ConfigError(_("a stage code starts with {prefix}").format(prefix=repr(CODE_PREFIX)), field="code")
    tiles = code[len(CODE_PREFIX):]
    catalog = catalog or config.load_tiles()
    try:
        names = config.split_tiles(tiles)
        stage = StageSpec.model_validate(
            {"name": _("Stage {code}").format(code=code)[: lim.MAX_STAGE_NAME], "tiles": tiles,
             "boxes": list(boxes_needed(names)), "source": _("a shared stage code")},
            context={"catalog": catalog})
    except ValueError as exc:  # pydantic's ValidationError is one
        errors = getattr(exc, "errors", None)
        message = pydantic_words.message(errors()[0]) if callable(errors) else str(exc)  # in the player's language
        raise ConfigError(message, field="code") from None
    return stage


def used_once(tiles: str) -> bool:
    """Whether every physical tile of a tiles string is used at most once."""
    names = config.split_tiles(tiles)
    return len({physical_tile(n) for n in names}) == len(names)
