"""The stage editor's model (play/stagebuild.py, issue 28 item 3), without
Textual: the inventory checked as tiles are laid, the stage saved as a user
stage file (never over another file), its code read back."""

from __future__ import annotations

import os

import pytest

from flamme_tui import config, stagegen
from flamme_tui.config import ConfigError
from flamme_tui.play.stagebuild import StageBuild


@pytest.fixture
def build() -> StageBuild:
    return StageBuild(config.load_tiles())


def lay(build: StageBuild, tiles: str) -> None:
    for name in config.split_tiles(tiles):
        tile = config.physical_tile(name)
        if build.side_up(tile) != name:
            build.turn(tile)
        assert build.lay(tile) == name


def test_the_inventory_holds_every_tile_of_both_boxes_base_first(build):
    rows = build.inventory()
    assert [r.tile for r in rows] == [*"abcdefghijklmnopqrstu", *"123456789"]
    b = rows[1]
    assert b.sides == ("b", "B") and b.kind == "straight" and b.squares == ("......", "vvvv..") and b.box == "base"
    assert rows[-8].sides == ("2", "_2") and rows[-8].box == "peloton"


def test_the_check_names_what_is_wrong_as_tiles_are_laid(build):
    assert build.problem() == "lay a start tile first"
    lay(build, "b")
    assert build.problem() == "tiles: a stage needs at least a start tile and a finish tile"
    lay(build, "c")
    assert build.problem() == "tiles: the first tile must be a start tile, not 'b'"
    build.take_back()
    build.take_back()
    lay(build, "abc")
    assert build.problem() == "tiles: the last tile must be a finish tile, not 'c'"
    lay(build, "B")  # b's other side: the same physical tile
    assert build.problem() == ("tiles: tile 'B' used twice (as 'b' and 'B'; a tile has only one of its two sides up)")
    assert build.used()["b"] == 2
    build.take_back()
    lay(build, "_2")  # the Peloton box, which the builder does not own yet: which key adds it
    assert build.problem() == "tiles: tile '_2' is in the Peloton box, which you have not said you own (x adds it)"
    assert build.next_boxes() == ("base", "peloton")
    assert build.problem() == "tiles: the last tile must be a finish tile, not '_2'"
    lay(build, "u")
    assert build.problem() is None
    # a finished stage lists only the boxes it needs
    lay_peloton_free = StageBuild(build.catalog, boxes=("base", "peloton"))
    lay(lay_peloton_free, "abcdu")
    assert lay_peloton_free.stage().boxes == ("base",)
    assert build.stage().boxes == ("base", "peloton")


def test_a_start_tile_after_the_first_is_said_at_once(build):
    """Review: a, b, then Peloton tile 1 said only that 1 is in a box not owned; it is a
    start tile laid in the middle of the stage too (the check said so only once a finish
    tile was laid, and never named the box in the player's words)."""
    lay(build, "ab1")
    assert build.problem() == ("tiles: tile '1' is a start tile laid in the middle of the stage, and it is in "
                               "the Peloton box, which you have not said you own (x adds it)")
    build.next_boxes()
    assert build.problem() == "tiles: start tile '1' in the middle of the stage"
    build.take_back()
    lay(build, "A")  # the other side of the first tile: used twice, a start in the middle
    assert build.problem() == "tiles: start tile 'A' in the middle of the stage"
    build.take_back()
    assert build.problem() == "tiles: the last tile must be a finish tile, not 'b'"


def test_a_start_and_a_finish_too_close_are_no_stage(build):
    lay(build, "au")
    assert build.problem() == ("tiles: too short: 2 squares from start line to finish line, at least 10 needed")


def test_length_climbs_and_the_course_grow_with_the_stage(build):
    assert build.course() is None and build.length() == 0 and build.climbs() == []
    lay(build, "aC")
    course = build.course()
    assert course is not None and course.grid == 5 and course.finish == 12  # no finish tile: the end of the last
    assert build.length() == 7 and build.climbs() == [3]
    lay(build, "DEU")  # C's ^^^ runs on into D's ^^^^^v; then E's ^^ and the finish's ^^ (before its line)
    assert build.climbs() == [8, 4] and build.descent() == 1
    stage = build.stage()
    # the same numbers as the stage menu's, from the same compiler
    summary = config.stage_summary(stage)
    assert build.length() == summary.length and sum(build.climbs()) == summary.ascent
    assert build.course() == config.compile_stage(stage)
    assert build.kind() == "hilly"


def test_flip_last_and_turn(build):
    lay(build, "ab")
    assert build.flip_last() == "B" and build.names == ["a", "B"] and build.side_up("b") == "B"
    assert build.turn("c") == "C" and build.lay("c") == "C"
    assert build.take_back() == "C" and build.take_back() == "B" and build.names == ["a"]


def test_a_name_is_checked_with_the_stage(build):
    lay(build, "abcdu")
    assert build.rename("\x1b[2J") is None
    assert build.problem() == "name: control character U+001B is not allowed"
    # nothing to see: refused at once (it read "at least 1 character" after three were typed)
    for blank in ("", "   ", "\u200b "):
        assert build.rename(blank) == ("a name needs a visible character, not only spaces: the name is still "
                                       "'\\x1b[2J'")
        assert build.name == "\x1b[2J"
    assert build.rename("  Col  ") is None and build.name == "Col" and build.problem() is None
    build.rename("x" * 61)
    assert build.problem().startswith("name: string should have at most 60 characters")


def test_save_writes_a_stage_file_the_menu_reads(build, tmp_path, monkeypatch):
    monkeypatch.setenv("FLAMME_TUI_DATA_DIR", str(tmp_path))
    lay(build, "aBcdEfu")
    build.rename('Col: "du" #1 — été')  # YAML's special characters, quoted by its writer
    sid, path = build.save()
    assert sid == "col-du-1-ete" and path == tmp_path / "stages" / "col-du-1-ete.yaml"
    stage = config.load_stage(sid)  # read as every stage file is
    assert (stage.name, stage.tiles, stage.boxes) == ('Col: "du" #1 — été', "aBcdEfu", ("base",))
    assert sid in config.stage_ids()
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # no temporary file left behind


def test_save_never_overwrites_a_file(build, tmp_path, monkeypatch):
    monkeypatch.setenv("FLAMME_TUI_DATA_DIR", str(tmp_path))
    folder = tmp_path / "stages"
    folder.mkdir()
    (folder / "my-stage.yaml").write_text("mine")
    lay(build, "abcdu")
    with pytest.raises(ConfigError, match="a stage file 'my-stage.yaml' is already there"):
        build.save()
    assert (folder / "my-stage.yaml").read_text() == "mine"
    os.symlink(tmp_path / "elsewhere", folder / "other.yaml")  # a dangling link is a name taken too
    build.rename("Other")
    with pytest.raises(ConfigError, match="already there"):
        build.save()
    assert not (tmp_path / "elsewhere").exists()
    build.rename("Avenue Corso Paseo")  # a user stage with a shipped stage's id would never be raced
    with pytest.raises(ConfigError, match="'avenue-corso-paseo' is a shipped stage's id") as caught:
        build.save()
    # its words name the name: no field name of the file before them, in any language
    assert str(caught.value) == "'avenue-corso-paseo' is a shipped stage's id: choose another name"
    build.rename("!!!")
    with pytest.raises(ConfigError, match="needs a letter or a digit"):
        build.save()
    assert sorted(p.name for p in folder.iterdir()) == ["my-stage.yaml", "other.yaml"]


def test_an_unfinished_stage_is_not_saved(build, tmp_path, monkeypatch):
    monkeypatch.setenv("FLAMME_TUI_DATA_DIR", str(tmp_path))
    lay(build, "abc")
    with pytest.raises(ConfigError, match="the last tile must be a finish tile"):
        build.save()
    assert not (tmp_path / "stages").exists()


def test_the_code_round_trips(build):
    lay(build, "aBcD_2u")
    build.next_boxes()
    code = build.code()
    assert code == "fr1:aBcD_2u"
    back = StageBuild.from_code(code, build.catalog)
    assert back.names == build.names and back.boxes == ("base", "peloton") and back.problem() is None
    # a random stage's code, and a shipped stage opened as a copy
    random = stagegen.random_stage(5, "long", "mountain", ("base", "peloton"))
    again = StageBuild.from_code(stagegen.stage_code(random), build.catalog)
    assert again.tiles == random.tiles and again.stage().tiles == random.tiles
    copy = StageBuild.from_stage(config.load_stage("la-haut-montagne"), build.catalog)
    assert copy.name == "La Haut Montagne (copy)" and copy.problem() is None
    assert copy.side_up(copy.names[1].lower()) == copy.names[1]  # the copy's sides are the ones laid next


@pytest.mark.parametrize("code, message", [
    ("fr1:abcb", r"tile 'b' used twice \(a stage has each tile once\)"),
    ("fr1:abcBu", r"tile 'B' used twice \(as 'b' and 'B'; a tile has only one of its two sides up\)"),
    ("fr1:abc", "the last tile must be a finish tile"),
    ("fr1:a?u", "'?' at position 2 is not a tile name"),
    ("abu", "a stage code starts with 'fr1:'"),
    ("fr1:" + "b" * 200, "a stage code has at most"),
])
def test_a_pasted_code_is_checked_as_a_file(build, code, message):
    with pytest.raises(ConfigError, match=message):
        StageBuild.from_code(code, build.catalog)


def test_no_more_tiles_than_a_stage_may_hold(build):
    from flamme_tui import limits as lim

    for _ in range(lim.MAX_STAGE_TILES):
        assert build.lay("b") == "b"
    assert build.lay("b") is None and len(build.names) == lim.MAX_STAGE_TILES


def test_the_editor_s_lines_speak_the_player_s_language(build):
    """Review (in Spanish): "tramos: el tramo '1' está en la caja peloton, que la etapa
    no cita en boxes (base)" showed the file's field and box names; a name taken read
    "name: ..." in a Spanish line; a pasted stage was named "Shared stage"."""
    from flamme_tui import i18n

    i18n.set_language("es")
    try:
        lay(build, "ab1")
        problem = build.problem()
        assert problem == ("tramos: el tramo '1' es un tramo de salida puesto en mitad de la etapa, y está en la "
                           "caja Peloton, que no has dicho que tienes (x la añade)")
        shared = StageBuild.from_code("fr1:abcu", build.catalog)
        assert shared.name == "Etapa compartida"
        shared.rename("Avenue Corso Paseo")
        with pytest.raises(ConfigError) as caught:
            shared.stage_id()
        assert str(caught.value) == "'avenue-corso-paseo' es el identificador de una etapa incluida: elige otro nombre"
        assert shared.rename("   ") == ("un nombre necesita un carácter visible, no solo espacios: el nombre sigue "
                                       "siendo 'Avenue Corso Paseo'")
    finally:
        i18n.set_language("en")
