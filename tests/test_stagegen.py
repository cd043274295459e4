"""Random stages (`stages random`, stagegen): valid, each physical tile at
most once, a start first and a finish last, the length and kind asked for,
the same stage from the same seed; and one-line codes, read as files are."""

from __future__ import annotations

import pytest

from flamme_tui import config, stagegen
from flamme_tui.bots import POLICIES
from flamme_tui.cli import main
from flamme_tui.config import ConfigError, physical_tile, split_tiles
from flamme_tui.play.races import RaceSpec, make_setup, new_game, play_out

CATALOG = config.load_tiles()
CHOICES = [(length, kind, boxes) for length in stagegen.LENGTHS for kind in stagegen.CLIMB_KINDS
           for boxes in (("base",), ("base", "peloton"))]


def check_random_stages(count: int) -> None:
    """`count` random stages over every choice: each one as the generator promises."""
    for n in range(count):
        length, kind, boxes = CHOICES[n % len(CHOICES)]
        seed = n * 7919 % 1_000_003
        stage = stagegen.random_stage(seed, length, kind, boxes, catalog=CATALOG)
        names = split_tiles(stage.tiles)
        # each physical tile once, from the boxes asked for, start first and finish last
        assert len({physical_tile(t) for t in names}) == len(names), stage.tiles
        assert {config.tile_box(t) for t in names} <= set(boxes), stage.tiles
        assert CATALOG.side(names[0]).kind == "start" and CATALOG.side(names[-1]).kind == "finish"
        assert all(CATALOG.side(t).kind not in ("start", "finish") for t in names[1:-1])
        summary = config.stage_summary(stage, catalog=CATALOG)
        low, high = stagegen.LENGTH_RANGES[length]
        assert low <= summary.length <= high, (stage.tiles, length, summary.length)
        assert stagegen.climb_kind(summary.ascent) == kind, (stage.tiles, kind, summary.ascent)
        # the same seed, the same stage; its code reads back to the same tiles
        assert stagegen.random_tiles(seed, length, kind, boxes, catalog=CATALOG) == stage.tiles
        assert stagegen.stage_from_code(stagegen.stage_code(stage), catalog=CATALOG).tiles == stage.tiles


def test_random_stages_are_valid_and_reproducible():
    check_random_stages(540)  # every choice 30 times; the 10,000 of the issue run behind the slow marker


@pytest.mark.slow
def test_ten_thousand_random_stages_are_valid_and_reproducible():
    check_random_stages(10_000)


@pytest.mark.parametrize("cobbles", [True, False])
@pytest.mark.parametrize("peloton", [True, False])
def test_the_menu_s_choices_cobbles_and_a_peloton_tile_are_kept(cobbles, peloton):
    """The stage menu's filter asks for cobbles (or none: the stage's kind is then its
    climb kind) and a Peloton tile; every stage drawn has them, and is a stage as before."""
    for n in range(90):
        length, kind = stagegen.LENGTHS[n % 3], stagegen.CLIMB_KINDS[n // 3 % 3]
        stage = stagegen.random_stage(n, length, kind, ("base", "peloton"), catalog=CATALOG,
                                      cobbles=cobbles, peloton=peloton)
        summary = config.stage_summary(stage, catalog=CATALOG)
        low, high = stagegen.LENGTH_RANGES[length]
        assert low <= summary.length <= high and stagegen.climb_kind(summary.ascent) == kind, stage.tiles
        assert stagegen.stage_kind(summary) == ("cobbles" if cobbles else kind), stage.tiles
        assert (summary.cobbles > 0) == cobbles
        if peloton:
            assert "peloton" in stage.boxes, stage.tiles
        assert stagegen.random_tiles(n, length, kind, ("base", "peloton"), catalog=CATALOG,
                                     cobbles=cobbles, peloton=peloton) == stage.tiles


def test_the_menu_s_choices_leave_the_command_s_stages_as_they_were():
    """Without them a seed gives the stage it always gave (codes shared before stay the same)."""
    assert stagegen.random_tiles(11, "short", "hilly", ("base", "peloton"), catalog=CATALOG) == \
        stagegen.random_tiles(11, "short", "hilly", ("base", "peloton"), catalog=CATALOG, cobbles=None, peloton=False)
    with pytest.raises(ConfigError, match="need the Peloton box"):
        stagegen.random_tiles(1, cobbles=True, catalog=CATALOG)


def test_seeds_give_different_stages_and_the_boxes_order_plays_no_part():
    tiles = {stagegen.random_tiles(seed, catalog=CATALOG) for seed in range(50)}
    assert len(tiles) == 50
    assert (stagegen.random_tiles(3, "long", "mountain", ("peloton", "base"), catalog=CATALOG)
            == stagegen.random_tiles(3, "long", "mountain", ("base", "peloton"), catalog=CATALOG))


def test_the_base_box_laid_end_to_end_is_a_long_stage():
    """Long with the base box alone takes every tile: there is room for no more."""
    stage = stagegen.random_stage(5, "long", "flat", ("base",), catalog=CATALOG)
    assert sorted(physical_tile(t) for t in split_tiles(stage.tiles)) == stagegen.inventory(("base",), CATALOG)


@pytest.mark.parametrize("args, problem", [
    ((1, "huge", "flat", ("base",)), "length must be one of short, medium, long"),
    ((1, "short", "cobbled", ("base",)), "kind must be one of flat, hilly, mountain"),
    ((1, "short", "flat", ("peloton",)), "needs the base box"),
    ((1, "short", "flat", ("base", "meteo")), "boxes are base, peloton"),
    ((2**64, "short", "flat", ("base",)), "seed must be between"),
])
def test_impossible_choices_are_one_clear_line(args, problem):
    with pytest.raises(ConfigError, match=problem):
        stagegen.random_tiles(*args, catalog=CATALOG)


@pytest.mark.parametrize("code, problem", [
    ("fr1:abcb", "tile 'b' used twice"),
    ("fr1:abcdefghijklmnopqrstU" + "z", "unknown tile letter 'z'"),
    ("fr1:bcdu", "first tile must be a start tile"),
    ("fr1:ab\x1b[2Ju", "is not a tile name"),
    ("fr1:" + "b" * 500, "at most 124 characters"),
    ("abc", "starts with 'fr1:'"),
])
def test_a_bad_code_is_refused_as_a_bad_file_is(code, problem):
    with pytest.raises(ConfigError, match=problem) as caught:
        stagegen.stage_from_code(code, catalog=CATALOG)
    assert "\n" not in str(caught.value) and "\x1b" not in str(caught.value)


def test_a_code_races_like_a_stage_id():
    """`race --stage CODE` goes through load_stage: the course is the code's tiles."""
    stage = stagegen.random_stage(11, "short", "hilly", ("base", "peloton"), catalog=CATALOG)
    spec = RaceSpec(stage=stagegen.stage_code(stage))
    game = new_game(make_setup(spec), 4)
    assert "".join(t.letter for t in game.course.tiles) == stage.tiles
    play_out(game, {seat: POLICIES["easy"] for seat in range(4)})
    assert game.phase == "over"


def test_the_commands(capsys):
    assert main(["stages", "random", "--seed", "42", "--length", "short", "--kind", "mountain"]) == 0
    out = capsys.readouterr().out
    code = out.splitlines()[0].removeprefix("code: ")
    assert code == stagegen.stage_code(stagegen.random_stage(42, "short", "mountain", ("base",)))
    assert "tiles: " + code.removeprefix("fr1:") in out and "source: flamme-tui stages random --seed 42" in out
    assert main(["stages", "check", code]) == 0
    assert "code: ok: " in capsys.readouterr().out
    assert main(["stages", "check", "fr1:abcb"]) == 2
    assert "used twice" in capsys.readouterr().out
    assert main(["stages", "random", "--boxes", "peloton"]) == 2
    said = capsys.readouterr()
    assert "needs the base box" in said.err and not said.out  # an error, on stderr as every command's
