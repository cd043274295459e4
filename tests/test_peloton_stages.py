"""The Peloton expansion's tiles and stages (rules/PELOTON.md): every stage's
squares against the table of the rules of record, square by square; the
validation of tile names, tiles used once, and a start with room for every
rider of the race."""

from __future__ import annotations

import pytest

from flamme_tui import config
from flamme_tui.config import ConfigError, StageSpec, compile_stage, load_stage, load_tiles, split_tiles

# PELOTON.md, "Stages 7 to 12": tiles, squares, grid places, and the squares in
# the codes of its table (". flat, ^ ascent, v descent, w wide, s supply, c cobbles, i single file)
STAGES = {
    "peloton-7": ("a_23gMRPkeqos4cDHjTniu", 78, 10,
                  "............sssss.....^^^^^^vv..........sssss.......^^^^^vvv.................."),
    "peloton-7-5-6": ("_123gMRPkeqos4cDHjT_9niu", 81, 15,
                      "wwwwwwwwwww.sssss.....^^^^^^vv..........sssss.......^^^^^vvv....ww..............."),
    "peloton-8": ("a_2h4oIcQDF3prsejLktgu", 78, 10,
                  "..............sssss...........^^^^^^^vvvv...sssss...........^^^vvv............"),
    "peloton-8-5-6": ("_12h4oIcQDF3prsejLktg_9u", 81, 15,
                      "wwwwwwwwwww...sssss...........^^^^^^^vvvv...sssss...........^^^vvv......ww......."),
    "peloton-9": ("A_23p5_7okjq4e8_6hgirsTu", 78, 8,
                  "............sssss...iciciiici...........sssss......iciiiici..................."),
    "peloton-9-5-6": ("12_93p5_7okjq4e8_6hgirsTu", 81, 12,
                      "wwwwwwwwwww.ww.sssss...iciciiici...........sssss......iciiiici..................."),
    "peloton-10": ("a_2h4Lopc5_6r3gqJksteIU", 78, 10,
                   "..............sssss.^^^vvv..........iciciiiiici...sssss.................^^...."),
    "peloton-10-5-6": ("_12h4_9Lopc5_6r3gqJksteIU", 81, 15,
                       "wwwwwwwwwww...sssss.ww.^^^vvv..........iciciiiiici...sssss.................^^...."),
    "peloton-11": ("a_28_5qgir_3_4sopthk7_6eJu", 78, 10,
                   "...............iciii..............iiciicii................iiciiiici..........."),
    "peloton-11-5-6": ("_128_5qgir9_3_4sopthk7_6eJu", 81, 15,
                       "wwwwwwwwwww....iciii............ss...iiciicii................iiciiiici..........."),
    "peloton-12": ("A_24qMOKRFsd3plnhgeTju", 82, 8,
                   "............sssss.....^^^^^^^^^^vvv...........sssss..............................."),
    "peloton-12-5-6": ("124qMOKRFsd3pln_9hgeTju", 85, 12,
                       "wwwwwwwwwww.sssss.....^^^^^^^^^^vvv...........sssss...............ww................."),
}
CODE = {(".", 2): ".", ("^", 2): "^", ("v", 2): "v", (".", 3): "w", ("s", 3): "s", ("c", 2): "c", ("c", 1): "i"}


def codes(course) -> str:
    return "".join(CODE[(course.terrain[sq], course.lanes[sq])] for sq in range(course.length))


@pytest.mark.parametrize("sid", STAGES)
def test_stage_squares_match_the_rules(sid):
    tiles, length, places, squares = STAGES[sid]
    stage = load_stage(sid)
    assert stage.tiles == tiles
    course = compile_stage(stage)
    assert course.length == length == len(squares)
    assert codes(course) == squares
    assert sum(course.lanes[: course.grid]) == places
    # the breakaway square: the 4th square of tile 2, the second tile (square 9)
    assert course.tiles[1].letter in ("2", "_2")
    assert course.breakaway == course.tiles[1].first + 3 == 9


def test_every_5_6_version_is_its_2_4_version_with_tile_1_2_and_a_tile_9():
    for n in range(7, 13):
        small = split_tiles(load_stage(f"peloton-{n}").tiles)
        big = split_tiles(load_stage(f"peloton-{n}-5-6").tiles)
        swap = {"a": "_1", "A": "1", "_2": "2"}
        assert [t for t in big if t not in ("9", "_9")] == [swap.get(t, t) for t in small]
        assert len(big) == len(small) + 1 == 22


def test_nineteen_stages_and_the_base_stages_have_no_breakaway():
    builtin = [e.id for e in config.stage_entries() if e.source == "built-in"]
    assert builtin[:19] == list(config.STAGE_ORDER)  # the published cards first, then the library by id
    assert builtin[7:19] == list(STAGES)
    assert compile_stage(load_stage("avenue-corso-paseo")).breakaway == -1


def test_tile_catalog_holds_nine_peloton_tiles_both_sides():
    catalog = load_tiles()
    digits = [t for t in catalog.physical_tiles() if t.isdigit()]
    assert digits == [str(n) for n in range(1, 10)]
    assert len(catalog.physical_tiles()) == 21 + 9
    for n in range(1, 10):
        light, dark = catalog.side(str(n)), catalog.side(f"_{n}")
        assert (light.kind, len(light.squares)) == (dark.kind, len(dark.squares))
    # meteo: tiles 2 to 8 are straights, tile 9 is not (PELOTON.md, Tiles)
    assert all(catalog.side(str(n)).kind == "straight" for n in range(2, 9))
    assert catalog.side("9").kind == "short"
    assert (catalog.side("1").line, catalog.side("_1").line) == (4, 5)


def stage(tiles: str) -> StageSpec:
    return StageSpec.model_validate({"name": "x", "tiles": tiles}, context={"catalog": load_tiles()})


@pytest.mark.parametrize("tiles, problem", [
    ("a_22bcu", "used twice"),  # both sides of tile 2
    ("a2_2bcu", "used twice"),
    ("a_2b5d_5u", "used twice"),
    ("a_2bcdu1", "last tile must be a finish"),
    ("a_bcdu", "not a tile name"),  # an underscore and no digit
    ("a0bcdu", "not a tile name"),
    ("abc1defu", "start tile '1' in the middle"),
])
def test_stage_validation(tiles, problem):
    with pytest.raises(ValueError, match=problem):
        stage(tiles)


def test_split_tiles_reads_the_underscore_with_its_digit():
    assert split_tiles("a_23g") == ["a", "_2", "3", "g"]


def test_a_start_without_room_for_every_rider_becomes_tile_1():
    # La Classicissima (A, 8 places) raced by 5 teams starts on tile 1 (12 places) and keeps its length
    base = load_stage("la-classicissima")
    course = compile_stage(base, riders=10)
    plain = compile_stage(base)
    assert course.tiles[0].letter == "1"
    assert sum(course.lanes[: course.grid]) == 12
    assert (course.length, course.finish, course.grid) == (plain.length, plain.finish, plain.grid) == (78, 73, 4)
    # `a` (10 places) becomes `_1` (15)
    assert compile_stage(load_stage("avenue-corso-paseo"), riders=12).tiles[0].letter == "_1"
    # with room, the start stays
    assert compile_stage(base, riders=8).tiles[0].letter == "A"
    # more riders than tile 1 holds: a clear error
    with pytest.raises(ConfigError, match="room for them all"):
        compile_stage(base, riders=13)


def test_the_version_goes_by_the_colours_racing():
    seven = load_stage("peloton-7")
    assert config.stage_for_colours(seven, 4) is seven
    assert config.stage_for_colours(seven, 5).name == "Peloton 7 (5-6 teams)"
    big = load_stage("peloton-7-5-6")
    assert config.stage_for_colours(big, 3).name == "Peloton 7 (2-4 teams)"
    assert config.stage_for_colours(big, 6) is big
    # a stage with one version is raced as it is
    base = load_stage("avenue-corso-paseo")
    assert config.stage_for_colours(base, 6) is base


def test_a_bad_version_field_is_one_clear_line(tmp_path):
    path = tmp_path / "x.yaml"
    path.write_text("name: X\ntiles: abcdefghijklmnopqrstu\nother_version: peloton-7\n")
    _, problems = config.check_stage_file(path)
    assert problems and "colours" in str(problems[0])
    path.write_text("name: X\ntiles: abcdefghijklmnopqrstu\ncolours: [5, 9]\n")
    _, problems = config.check_stage_file(path)
    assert problems and "colours" in str(problems[0])
