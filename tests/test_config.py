"""Game data: the YAML under stages/, its validation and the compiled courses."""

from __future__ import annotations

import itertools
import subprocess
import sys
from pathlib import Path

import pytest

from flamme_tui import config
from flamme_tui.config import (
    ConfigError,
    compile_bmx_circuit,
    compile_stage,
    data_dir,
    load_bmx_rules,
    load_classic_rules,
    load_meteo_rules,
    load_stage,
    load_tiles,
    slugify,
    stage_ids,
    stage_summary,
)
from flamme_tui.engine.course import CROSSWIND, FAIR, HEADWIND, TAILWIND, WET
from flamme_tui.pathtext import show_path

RULES_STAGES = {  # RULES.md, "Components", in its order
    "avenue-corso-paseo": "abcdefghijklmnopqrstu",
    "firenze-milano": "abcgiDHqntmKOLrepJsfu",
    "la-classicissima": "AebQRNHPcgikDFsLojmtu",
    "la-haut-montagne": "abcfimetKGLHJsdopRQNU",
    "le-col-du-ballon": "AnLHgceqtrMBoipjDFkSu",
    "ronde-van-wevelgem": "abcmgfteqonLPjkIDHrSu",
    "plateaux-de-wallonie": "AbJiLcGHtdfpkmnrqEoSu",
}


# --- the data as shipped ----------------------------------------------------


def test_data_dir_holds_the_data():
    root = data_dir()
    assert (root / "tiles.yaml").is_file()
    assert (root / "variants" / "classic.yaml").is_file()


def test_catalog_has_21_tiles_with_two_sides():
    every = load_tiles().tiles
    tiles = {name: side for name, side in every.items() if name.isalpha()}  # the Peloton tiles: test_peloton_stages
    assert len(tiles) == 42
    assert len(every) == 42 + 18
    assert len([t for t in load_tiles().physical_tiles() if t.isalpha()]) == 21
    for letter in tiles:
        assert letter.swapcase() in tiles
    assert tiles["a"].line == 5 and tiles["A"].line == 4
    assert tiles["u"].line == 1 and tiles["U"].line == 2
    assert tiles["U"].squares == "^^...."
    assert tiles["N"].squares == "^^^^^^"
    assert all(side.squares == "." * len(side.squares) for k, side in tiles.items() if k.islower())
    kinds = {k: s.kind for k, s in tiles.items() if k.islower()}
    assert sorted(k for k, v in kinds.items() if v == "straight") == list("bcdflmn")
    assert sorted(k for k, v in kinds.items() if v == "sharp") == list("egijop")
    assert sorted(k for k, v in kinds.items() if v == "soft") == list("hkqrst")


def test_stage_ids_in_rules_order():
    assert stage_ids()[:7] == list(RULES_STAGES)


@pytest.mark.parametrize("sid", list(RULES_STAGES))
def test_every_stage_loads_and_compiles(sid):
    stage = load_stage(sid)
    assert stage.tiles == RULES_STAGES[sid]
    assert slugify(stage.name) == sid
    course = compile_stage(stage)
    assert course.length == 78
    assert course.name == stage.name
    assert len(course.tiles) == 21
    assert course.tiles[-1].first + course.tiles[-1].length == 78
    assert course.grid < course.finish < course.length
    assert all(lanes == 2 for lanes in course.lanes)
    # squares past the last tile are flat (Course pads them)
    assert set(course.terrain[course.length :]) == {"."}


def test_avenue_corso_paseo_grid_and_finish():
    course = compile_stage(load_stage("avenue-corso-paseo"))
    assert course.grid == 5  # tile a: 5 squares behind the line
    assert course.finish == 73  # tile u starts at 72, line after 1 square
    assert course.terrain[:78] == "." * 78
    assert course.tiles[0] == config.TilePlace("a", "start", 0, 6)
    assert course.tiles[4] == config.TilePlace("e", "sharp", 24, 2)
    assert course.tile_at(73).letter == "u"


def test_la_haut_montagne_ends_uphill():
    course = compile_stage(load_stage("la-haut-montagne"))
    assert course.grid == 5
    assert course.finish == 74  # tile U starts at 72, line after its 2 ascent squares
    assert course.terrain[62:74] == "^" * 12  # the summit is the line
    assert course.terrain[74:78] == "...."


def test_start_side_A_has_a_4_square_grid():
    course = compile_stage(load_stage("la-classicissima"))
    assert course.grid == 4
    assert course.finish == 73


def test_stage_summary():
    flat = stage_summary(load_stage("avenue-corso-paseo"))
    assert (flat.length, flat.ascent, flat.descent) == (68, 0, 0)
    hills = stage_summary(load_stage("firenze-milano"))
    assert (hills.ascent, hills.descent) == (12, 6)


def test_a_stage_and_a_tour_tell_their_description_in_the_players_language(tmp_path):
    """A data file's `fr:` and `es:` blocks give its description in French and
    Spanish; a language it leaves out, or English, gets the English."""
    from flamme_tui import i18n
    from flamme_tui.play.tours import load_tour

    path = tmp_path / "mine.yaml"
    path.write_text('name: Mine\ntiles: abcdu\ndescription: "Flat."\nfr: {description: "Plate."}\n',
                    encoding="utf-8")
    stage = load_stage(str(path))
    tour = load_tour("3-petit-tour")
    try:
        said = {}
        for lang in ("en", "fr", "es"):
            i18n.set_language(lang)
            said[lang] = (stage.description_said, tour.description_said)
    finally:
        i18n.set_language("en")
    assert [s for s, _ in said.values()] == ["Flat.", "Plate.", "Flat."]
    assert said["en"][1].startswith("Three days") and said["fr"][1].startswith("Trois jours\u00a0:")
    assert said["es"][1].startswith("Tres días:")


def test_every_shipped_description_is_in_french_and_spanish():
    """A shipped stage, lesson stage or tour that describes itself does so in
    every language the game speaks (a new one without them fails here)."""
    import yaml

    from flamme_tui.play.tours import TourSpec

    missing = []
    for path in sorted(data_dir().rglob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict) or not data.get("description") or "tiles" not in data and "stages" not in data:
            continue
        for lang in ("fr", "es"):
            words = (data.get(lang) or {}).get("description")
            if not words or words == data["description"]:
                missing.append(f"{path.name} {lang}")
        if "stages" in data and "tiles" not in data:
            TourSpec.model_validate(data)  # the blocks are what a tour file may hold
    assert missing == []


def test_load_stage_by_path():
    stage = load_stage(str(data_dir() / "courses" / "firenze-milano.yaml"))
    assert stage.name == "Firenze - Milano"


def test_unknown_stage_id():
    with pytest.raises(ConfigError) as err:
        load_stage("tour-de-nowhere")
    assert "tour-de-nowhere" in str(err.value)


def test_classic_and_meteo_rules():
    classic = load_classic_rules()
    assert sorted(classic.deck("S")) == sorted([2, 3, 4, 5, 9] * 3)
    assert sorted(classic.deck("rouleur")) == sorted([3, 4, 5, 6, 7] * 3)
    assert classic.deck("R") == classic.deck("rouleur")
    assert (classic.hand_size, classic.exhaustion_value) == (4, 2)
    meteo = load_meteo_rules()
    bag = meteo.token_bag()
    assert len(bag) == 13
    assert {k: bag.count(k) for k in (CROSSWIND, TAILWIND, HEADWIND, WET, FAIR)} == {
        CROSSWIND: 1, TAILWIND: 1, HEADWIND: 1, WET: 1, FAIR: 9,
    }
    assert (meteo.draw.tailwind, meteo.draw.headwind, meteo.stand_up_penalty) == (5, 3, 2)


def test_bmx_rules():
    bmx = load_bmx_rules()
    assert sorted(bmx.bag) == [1, 1, 2, 2, 3, 3, 4, 4, 5, 5]
    assert bmx.fatigue_supply == 15
    assert sorted(bmx.die, key=str) == [1, 1, 2, 2, None, None]
    assert bmx.ramp_numbers == (1, 2, 3, 4, 5)
    assert (bmx.draw.normal.draw, bmx.draw.normal.keep) == (3, 1)
    assert (bmx.draw.descent.draw, bmx.draw.descent.keep) == (4, 2)


# --- bmx circuits -------------------------------------------------------------


@pytest.mark.parametrize(
    "sides", ["".join(c) for c in itertools.product("Aa", "Bb", "Cc", "Dd")]
)
def test_every_bmx_circuit_compiles(sides):
    course = compile_bmx_circuit(sides)
    lap = course.length - course.grid
    assert lap == 28
    assert course.grid == 2 and course.finish == 30
    assert course.terrain[:2] == ".." and course.lanes[:2] == (2, 2)
    assert [t.letter for t in course.tiles] == list(sides)
    assert all(t.kind == "bmx" and t.length == 7 for t in course.tiles)
    # past the finish the lap starts again
    assert course.terrain[30:58] == course.terrain[2:30]
    assert course.lanes[30:58] == course.lanes[2:30]


def test_bmx_back_sides_and_lanes():
    course = compile_bmx_circuit("abcd", n_riders=3, ramp=(10, 3))
    g = course.grid
    assert g == 2
    assert course.terrain[g : g + 28] == "b" * 7 + "k" * 7 + "v" * 7 + "m" * 7
    assert course.lanes[g + 7 : g + 14] == (2, 2, 1, 1, 1, 2, 2)  # canyon
    assert course.lanes[g + 21 : g + 28] == (1,) * 7  # marsh
    assert course.ramp == (g + 10, 3)
    assert compile_bmx_circuit("ABCD", n_riders=2).grid == 1
    assert compile_bmx_circuit("ABCD", n_riders=4).grid == 2
    assert compile_bmx_circuit("ABCD").terrain[:30] == "." * 30


@pytest.mark.parametrize(
    "args, field",
    [(("ABDC",), "sides"), (("ABC",), "sides"), (("ABCD", 4, (28, 1)), "ramp"), (("ABCD", 4, (0, 6)), "ramp")],
)
def test_bad_bmx_circuit(args, field):
    with pytest.raises(ConfigError) as err:
        compile_bmx_circuit(*args)
    assert str(err.value).startswith(field + ":")


# --- broken files ---------------------------------------------------------------


BROKEN_STAGES = [
    # (name, file text, field named, words in the message, line)
    ("unknown-letter", "name: X\ntiles: abcz\n", "tiles", "unknown tile letter 'z'", 2),
    ("used-twice", "name: X\ntiles: abcBu\n", "tiles", "twice", 2),
    ("missing-key", "name: X\n", "tiles", "required", None),
    ("wrong-type", "name: X\ntiles: 123\n", "tiles", "string", 2),
    ("wrong-type-name", "name: [1, 2]\ntiles: abcdu\n", "name", "string", 1),
    ("unknown-key", "name: X\ntiles: abcdu\ncolour: red\n", "colour", "unknown key", 3),
    ("too-short", "name: X\ntiles: aeu\n", "tiles", "too short", 2),
    ("no-start-first", "name: X\ntiles: bacdu\n", "tiles", "start", 2),
    ("no-finish-last", "name: X\ntiles: abcdue\n", "tiles", "finish", 2),
    ("start-in-middle", "name: X\ntiles: bcdAu\n", "tiles", "start", 2),
    ("duplicate-key", "name: X\ntiles: abcdu\ntiles: abcdu\n", "tiles", "duplicate", 3),
    ("words-unknown-key", "name: X\ntiles: abcdu\nfr: {name: Y}\n", "fr.name", "unknown key", 3),
    ("words-not-text", "name: X\ntiles: abcdu\nes: {description: 7}\n", "es.description", "string", 3),
    ("words-control", 'name: X\ntiles: abcdu\nfr: {description: "a\\x1b[2Jb"}\n', "fr.description", "control", 3),
    ("words-unknown-language", "name: X\ntiles: abcdu\nde: {description: Flach}\n", "de", "unknown key", 3),
]


def _one_line_naming(err: ConfigError, path: Path, field: str | None) -> str:
    text = str(err)
    assert "\n" not in text
    assert path.name in text
    if field:
        assert f": {field}: " in text
    return text


@pytest.mark.parametrize("name, text, field, words, line", BROKEN_STAGES, ids=[b[0] for b in BROKEN_STAGES])
def test_broken_stage_is_one_clear_line(tmp_path, name, text, field, words, line):
    path = tmp_path / f"{name}.yaml"
    path.write_text(text)
    with pytest.raises(ConfigError) as err:
        load_stage(str(path))
    message = _one_line_naming(err.value, path, field)
    assert words in message
    assert err.value.field == field
    assert err.value.line == line
    if line is not None:
        assert f"{path.name}:{line}: " in message


@pytest.mark.parametrize(
    "text", ["name: X\ntiles: [abc\n", "name: X\n  tiles: abc\n", "name: 'X\n", "\tname: X\n"]
)
def test_malformed_yaml_is_one_line_with_position(tmp_path, text):
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    with pytest.raises(ConfigError) as err:
        load_stage(str(path))
    message = _one_line_naming(err.value, path, None)
    assert "YAML" in message
    assert err.value.line is not None and f"bad.yaml:{err.value.line}: " in message


@pytest.mark.parametrize("text", ["", "- a\n- b\n", "just a string\n"])
def test_not_a_mapping(tmp_path, text):
    path = tmp_path / "odd.yaml"
    path.write_text(text)
    with pytest.raises(ConfigError) as err:
        load_stage(str(path))
    assert "mapping" in _one_line_naming(err.value, path, None)


def test_missing_file(tmp_path):
    with pytest.raises(ConfigError) as err:
        load_stage(str(tmp_path / "nowhere.yaml"))
    assert "nowhere.yaml" in str(err.value) and "not found" in str(err.value)


def test_yaml_is_loaded_safely(tmp_path):
    path = tmp_path / "evil.yaml"
    path.write_text("name: !!python/object/apply:os.system ['true']\ntiles: abcdu\n")
    with pytest.raises(ConfigError) as err:
        load_stage(str(path))
    _one_line_naming(err.value, path, None)


def test_broken_nested_variant_names_the_nested_field(tmp_path):
    path = tmp_path / "classic.yaml"
    path.write_text(
        "decks:\n"
        "  sprinteur: [2, 3]\n"
        "  rouleur: [3, four]\n"
        "hand_size: 4\n"
        "exhaustion_value: 2\n"
    )
    with pytest.raises(ConfigError) as err:
        config._validate(config.ClassicRules, path)
    assert _one_line_naming(err.value, path, "decks.rouleur[1]").startswith(f"{show_path(path)}:3: ")

    path.write_text("decks: {sprinteur: [2], rouleur: [3], joker: [1]}\nhand_size: 4\nexhaustion_value: 2\n")
    with pytest.raises(ConfigError) as err:
        config._validate(config.ClassicRules, path)
    assert "allowed: sprinteur, rouleur" in _one_line_naming(err.value, path, "decks.joker")


def test_broken_catalog_names_the_tile(tmp_path):
    path = tmp_path / "tiles.yaml"
    path.write_text(
        "tiles:\n"
        "  a: {kind: start, squares: '......', line: 5}\n"
        "  A: {kind: start, squares: '......'}\n"
    )
    with pytest.raises(ConfigError) as err:
        config._validate(config.TileCatalog, path)
    assert _one_line_naming(err.value, path, "tiles.A")
    assert err.value.line == 3

    path.write_text("tiles:\n  b: {kind: straight, squares: '..x...'}\n  B: {kind: straight, squares: '......'}\n")
    with pytest.raises(ConfigError) as err:
        config._validate(config.TileCatalog, path)
    assert "terrain" in _one_line_naming(err.value, path, "tiles.b.squares")


def test_stage_against_a_custom_catalog(tmp_path):
    tiles = tmp_path / "tiles.yaml"
    tiles.write_text(
        "tiles:\n"
        "  a: {kind: start, squares: '..', line: 1}\n"
        "  A: {kind: start, squares: '..', line: 1}\n"
        "  z: {kind: straight, squares: '............'}\n"
        "  Z: {kind: straight, squares: 'ssssss^^^^^^'}\n"
        "  u: {kind: finish, squares: '...', line: 1}\n"
        "  U: {kind: finish, squares: '...', line: 1}\n"
    )
    catalog = config._validate(config.TileCatalog, tiles)
    stage_file = tmp_path / "s.yaml"
    stage_file.write_text("name: Tiny\ntiles: aZu\n")
    stage = load_stage(str(stage_file), catalog=catalog)
    course = compile_stage(stage, catalog=catalog)
    assert (course.grid, course.finish, course.length) == (1, 15, 17)
    assert course.terrain[:17] == "..ssssss^^^^^^..."


# --- layering -------------------------------------------------------------------


def test_config_and_course_import_no_textual():
    code = (
        "import sys, flamme_tui.config, flamme_tui.engine.course\n"
        "bad = [m for m in sys.modules if m == 'textual' or m.startswith('textual.')]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_broken_scripted_team_names_its_field(tmp_path):
    good = (config.data_dir() / "variants" / "classic.yaml").read_text()
    assert config._validate(config.ClassicRules, config.data_dir() / "variants" / "classic.yaml")
    path = tmp_path / "classic.yaml"
    path.write_text(good.replace("attack_rear: 9", "attack_rear: nine"))
    with pytest.raises(ConfigError) as err:
        config._validate(config.ClassicRules, path)
    _one_line_naming(err.value, path, "scripted_teams.peloton.attack_rear")
    path.write_text(good.replace("sprinteur_extra: [5]", "sprinteur_extra: [0]"))
    with pytest.raises(ConfigError) as err:
        config._validate(config.ClassicRules, path)
    _one_line_naming(err.value, path, "scripted_teams.muscle.sprinteur_extra[0]")
