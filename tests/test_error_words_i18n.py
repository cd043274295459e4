"""pydantic's messages, the models' own checks and the saves' reasons in the
player's language (issue 26): a wrong data file, case file, save or
settings file is one line in French or Spanish, never pydantic's English;
English lines read as they did (pydantic's own words)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Annotated, Literal

import pytest
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, ValidationError

from flamme_tui import conformance, i18n, pydantic_words, saves, settings
from flamme_tui.config import ConfigError, check_stage_file
from flamme_tui.play.races import COLOURS, RaceSpec, Team
from flamme_tui.play.session import Session

# English words of pydantic's messages (and of our checks) a French or Spanish line must not hold
ENGLISH = {"input", "should", "valid", "integer", "string", "field", "required", "least", "most", "item", "items",
           "character", "characters", "greater", "less", "than", "equal", "got", "not", "after", "validation", "is",
           "the", "of", "and", "or", "be", "damaged", "tile", "stage", "unknown", "needs", "must", "start",
           "finish", "truncated", "checksum", "mismatch", "file", "save", "list", "tuple", "dictionary", "str",
           "int", "value", "invalid", "expected", "pattern", "match", "with", "this", "made", "newer"}


@pytest.fixture(autouse=True)
def english_after():
    yield
    i18n.forget_flag()  # (`--lang fr` given to main() is kept for the run: not for the next test)
    i18n.set_language("en")


class Sample(BaseModel):
    model_config = ConfigDict(extra="forbid")

    count: StrictInt = Field(0, ge=1, le=9)
    big: StrictInt = Field(0, gt=0, lt=100_000)
    name: Annotated[StrictStr, Field(min_length=1, max_length=3)] = "x"
    code: Annotated[StrictStr, Field(pattern="^[a-z]+$")] = "a"
    kind: Literal["red", "blue", "green"] = "red"
    flag: StrictBool = False
    items: tuple[StrictInt, ...] = Field((), min_length=1, max_length=2)
    table: dict[str, StrictInt] = Field(default_factory=dict)
    ratio: float = 0.0


BAD = [  # each a mistake a data file can hold, with pydantic's type for it
    ({"count": 0}, "greater_than_equal"), ({"count": 12}, "less_than_equal"), ({"big": 0}, "greater_than"),
    ({"big": 10**6}, "less_than"), ({"count": "3"}, "int_type"), ({"count": 2.5}, "int_type"),
    ({"name": ""}, "string_too_short"), ({"name": "abcd"}, "string_too_long"), ({"name": 3}, "string_type"),
    ({"code": "A1"}, "string_pattern_mismatch"), ({"kind": "pink"}, "literal_error"), ({"flag": "yes"}, "bool_type"),
    ({"items": []}, "too_short"), ({"items": [1, 2, 3]}, "too_long"), ({"items": 5}, "tuple_type"),
    ({"table": [1]}, "dict_type"), ({"ratio": "x"}, "float_parsing"), ({"ratio": [1]}, "float_type"),
    ({"other": 1}, "extra_forbidden"),
]


def errors_of(data: dict) -> list[dict]:
    with pytest.raises(ValidationError) as caught:
        Sample.model_validate({"items": [1], **data})
    return caught.value.errors()


@pytest.mark.parametrize("data, kind", BAD)
def test_english_is_pydantic_s_own_words(data, kind):
    """The catalogs' English sentences are pydantic's: an English line reads as it always did."""
    (error,) = errors_of(data)
    assert error["type"] == kind
    msg = error["msg"]
    assert pydantic_words.message(error) == msg[:1].lower() + msg[1:]


@pytest.mark.parametrize("lang", ["fr", "es"])
@pytest.mark.parametrize("data, kind", BAD)
def test_each_mistake_is_said_in_the_language(lang, data, kind):
    (error,) = errors_of(data)
    i18n.set_language(lang)
    said = pydantic_words.message(error)
    words = {w.lower() for w in re.findall(r"[^\W\d_]+", re.sub(r"'[^']*'", " ", said))}
    assert said and not words & ENGLISH, (kind, said)
    for value in (error.get("ctx") or {}).values():  # the bounds and choices are in the line
        if isinstance(value, int) and value < 1000:
            assert str(value) in said, (kind, said)


@pytest.mark.parametrize("lang, invalid", [("fr", "valeur invalide"), ("es", "valor no válido")])
def test_an_unknown_kind_of_mistake_is_a_generic_phrase_never_english(lang, invalid):
    i18n.set_language(lang)
    assert pydantic_words.message({"type": "uuid_parsing", "msg": "Input should be a valid UUID", "ctx": {}}) == invalid
    assert pydantic_words.message({"type": "too_short", "ctx": {"min_length": object()}}).startswith(
        pydantic_words.message({"type": "too_short", "ctx": {}})[:2])  # odd ctx values: still a line, never a failure
    assert pydantic_words.message({}) == invalid


STAGE = 'name: Col\ntiles: "{tiles}"\nboxes: [base]\n{extra}'


@pytest.mark.parametrize("lang, extra, tiles, said", [
    # (the field and its line, as the file names them: "col.yaml:4: colours: ...")
    ("fr", "colours: [1, 9]\n", "abcdefghijklmnopqrstu", "col.yaml:4: colours: de 2 à 6, le plus petit nombre d’abord"),
    ("es", "colours: [1, 9]\n", "abcdefghijklmnopqrstu", "col.yaml:4: colours: de 2 a 6, el número menor primero"),
    ("fr", "", "au", "trop courte\u00a0: 2 cases de la ligne de départ à la ligne d’arrivée, il en faut au moins 10"),
    ("es", "", "xbcu", "letra de tramo desconocida 'x'"),
    ("fr", "colours: abc\n", "abcdefghijklmnopqrstu", "(reçu texte 'abc')"),
    ("es", "description: 12\n", "abcdefghijklmnopqrstu", "se esperaba un texto (se recibió entero 12)"),
])
def test_a_bad_stage_file_is_one_line_in_the_language(tmp_path, lang, extra, tiles, said):
    path = tmp_path / "col.yaml"
    path.write_text(STAGE.format(tiles=tiles, extra=extra), encoding="utf-8")
    i18n.set_language(lang)
    stage, problems = check_stage_file(path)
    assert stage is None and problems
    line = str(problems[0])
    assert "col.yaml" in line and said in line and "\n" not in line, line
    words = {w.lower() for w in re.findall(r"[^\W\d_]+", re.sub(r"'[^']*'|\S*/\S*|col\.yaml", " ", line))}
    assert not words & (ENGLISH - {"colours", "description", "tiles"}), line


def test_a_file_s_problem_is_said_again_in_the_new_language(tmp_path):
    """Problems are kept per file and per language: a language chosen in the app is spoken at once."""
    path = tmp_path / "col.yaml"
    path.write_text(STAGE.format(tiles="au", extra=""), encoding="utf-8")
    i18n.set_language("es")
    assert "demasiado corta" in str(check_stage_file(path)[1][0])
    i18n.set_language("fr")
    assert "trop courte" in str(check_stage_file(path)[1][0])


def test_a_lesson_file_with_a_mistake_is_said_in_spanish(tmp_path):
    from flamme_tui.play.lessons import load

    path = tmp_path / "l.yaml"
    path.write_text("title: T\norder: 1\nstage: avenue-corso-paseo\nseed: 1\nopponents: []\nintro: i\n"
                    "steps: [{round: 1, idea: x, text: y}]\noutro: o\n", encoding="utf-8")
    i18n.set_language("es")
    with pytest.raises(ConfigError) as caught:
        load(path)
    assert str(caught.value).endswith("opponents: lista: se esperaba al menos 1 elemento, se recibieron 0")


def test_a_conformance_case_with_a_mistake_is_said_in_french(tmp_path):
    path = tmp_path / "cases.yaml"
    path.write_text("""cases:
  - name: deux
    variant: classic
    track: {squares: "..........", finish: 9}
    riders: [{id: red.S, square: 0, lane: 0}, {id: red.S, square: 1, lane: 0}]
    expect: {final: {red.S: [0, 0]}}
""")
    i18n.set_language("fr")
    lines: list[str] = []
    assert conformance.main([str(path)], out=lines.append) == 2
    assert "cases.yaml\u00a0: cas «\u00a0deux\u00a0»" in lines[0]
    assert "un identifiant de coureur apparaît deux fois" in lines[0], lines


def test_a_settings_value_out_of_range_is_said_in_spanish(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"bot_seconds": -4}), encoding="utf-8")
    i18n.set_language("es")
    loaded, line = settings.load(path)
    assert line is not None and "bot_seconds: se esperaba un valor mayor o igual que" in line, line
    assert "should" not in line


# ------------------------------------------------------------------ saves


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    folder = tmp_path / "data"
    monkeypatch.setenv("FLAMME_TUI_DATA_DIR", str(folder))
    return folder


def a_save(tmp_path: Path) -> Path:
    teams = tuple(Team(c.capitalize(), c) for c in COLOURS[:2])
    session = Session.new(RaceSpec(variant="classic", teams=teams), 3, {0: "easy", 1: "easy"})
    autosave = saves.attach_autosave(session, tmp_path / "race.json")
    session.play_bots()
    autosave.detach()
    return autosave.path


@pytest.mark.parametrize("lang, said", [("fr", "race.json est endommagé (tronqué)"),
                                        ("es", "race.json está dañado (truncado)")])
def test_a_damaged_save_is_said_in_the_language(tmp_path, data_dir, lang, said):
    path = a_save(tmp_path)
    path.write_bytes(path.read_bytes()[:200])
    i18n.set_language(lang)
    with pytest.raises(saves.SaveError) as caught:
        saves.load(path)
    assert said in str(caught.value) and caught.value.kind == saves.model.DAMAGED


def test_a_save_whose_data_is_wrong_says_the_field_in_french(tmp_path, data_dir):
    path = a_save(tmp_path)
    doc = json.loads(path.read_text())
    doc["seed"] = "x"
    doc["checksum"] = saves._checksum(doc)
    path.write_text(json.dumps(doc))
    i18n.set_language("fr")
    with pytest.raises(saves.SaveError, match="race.json est endommagé \\(seed\u00a0?: nombre entier attendu\\)"):
        saves.load(path)


def test_a_damaged_save_is_set_aside_in_any_language(tmp_path, data_dir):
    """The race file is set aside as NAME.damaged before it is written again: known by the
    error's kind, not its words (in French, the words are French)."""
    path = a_save(tmp_path)
    path.write_bytes(b'{"format": "flamme-tui-save", "checksum": "0"}')
    i18n.set_language("fr")
    teams = tuple(Team(c.capitalize(), c) for c in COLOURS[:2])
    session = Session.new(RaceSpec(variant="classic", teams=teams), 5, {0: "easy", 1: "easy"})
    saves.attach_autosave(session, path).detach()
    assert (tmp_path / "race.json.damaged").read_bytes() == b'{"format": "flamme-tui-save", "checksum": "0"}'


def test_a_newer_save_is_listed_as_newer_in_spanish(tmp_path, data_dir):
    folder = data_dir / "saves"
    folder.mkdir(parents=True)
    path = a_save(folder)
    doc = json.loads(path.read_text())
    doc["version"] = saves.VERSION + 1
    doc["checksum"] = saves._checksum(doc)
    path.write_text(json.dumps(doc))
    i18n.set_language("es")
    (race,) = saves.list_saves()
    assert race.status == saves.NEWER and "flamme-tui más reciente" in race.reason


def test_resume_with_nothing_to_resume_is_said_in_french(tmp_path, data_dir, capsys):
    from flamme_tui.cli import main

    assert main(["--lang", "fr", "--resume"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("flamme-tui\u00a0: aucune course en cours à reprendre dans "), err


def a_finished_save(tmp_path: Path) -> Path:
    teams = tuple(Team(c.capitalize(), c) for c in COLOURS[:2])
    session = Session.new(RaceSpec(variant="classic", teams=teams), 3, {0: "easy", 1: "easy"})
    autosave = saves.attach_autosave(session, tmp_path / "won.json")
    while not session.over:
        session.play_bots()
    autosave.detach()
    return autosave.path


def test_a_race_won_and_saved_in_french_opens_in_english_and_spanish(tmp_path, data_dir):
    """The summary names the winner in words of the language it was saved in
    ("Rouleur Blue"; English says "Blue Rouleur"): another language's player opens it all the same."""
    i18n.set_language("fr")
    path = a_finished_save(tmp_path)
    winner = json.loads(path.read_text())["summary"]["winner"]
    assert winner.startswith(("Rouleur ", "Sprinteur ")), winner  # French words' order
    for lang in ("en", "es"):
        i18n.set_language(lang)
        assert saves.load(path).over
        assert i18n.language() == lang  # (each language's words were tried, the player's kept)
    # a winner that is no rider of the race, in any language, is still refused
    doc = json.loads(path.read_text())
    doc["summary"]["winner"] = "Rouleur Green"
    doc["checksum"] = saves._checksum(doc)
    path.write_text(json.dumps(doc))
    with pytest.raises(saves.SaveError, match="su resumen no corresponde a la carrera"):
        saves.load(path)


def test_a_worker_opening_a_race_saved_in_another_language_leaves_the_screens_words_alone(tmp_path, data_dir,
                                                                                         monkeypatch):
    """The app reads saves in a worker thread while its screens draw: trying each
    language's words on a summary must not make the UI thread speak them meanwhile."""
    import threading

    i18n.set_language("fr")
    path = a_finished_save(tmp_path)
    i18n.set_language("en")
    heard: list[str] = []
    summary = saves.reading._summary

    def summary_while_a_screen_draws(game, tour):
        ui = threading.Thread(target=lambda: heard.append(i18n._("New race")))  # a screen drawing, meanwhile
        ui.start()
        ui.join()
        return summary(game, tour)

    monkeypatch.setattr(saves.reading, "_summary", summary_while_a_screen_draws)
    worker = threading.Thread(target=lambda: saves.load(path))
    worker.start()
    worker.join()
    assert len(heard) >= 2 and set(heard) == {"New race"}, heard  # French and Spanish were tried, never heard
    assert i18n.language() == "en"


def test_the_winner_of_a_race_saved_in_french_is_listed_in_the_player_s_words(tmp_path, data_dir):
    i18n.set_language("fr")
    path = a_finished_save(tmp_path)
    said = json.loads(path.read_text())["summary"]["winner"]  # "Rouleur Blue": the French words' order
    kind, team = said.split(" ", 1)
    i18n.set_language("en")
    assert saves.peek(path).winner == f"{team} {kind}"
    assert f"won by {team} {kind}" in saves.peek(path).describe()
    i18n.set_language("es")
    assert saves.peek(path).winner == f"{kind} Azul"  # (a team named by default: in the language now)
    assert saves.reading.winner_words("Somebody", ("Blue",)) == "Somebody"  # not a rider's words: as it is
