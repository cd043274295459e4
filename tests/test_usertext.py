"""Text from users and files: control characters refused at the door (stage
files, saves), cleaned for the terminal, escaped for Textual markup."""

from __future__ import annotations

import json
import os

import fuzzing
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from flamme_tui import config, saves, usertext
from flamme_tui.engine.classic import Team
from flamme_tui.play.races import RaceSpec
from flamme_tui.play.session import Session

pytestmark = pytest.mark.fuzz
ESC_TITLE = "\x1b]0;pwned\x07"
HOSTILE = ["[/]", "[Dad] Tom", "[@click=app.quit]x", ESC_TITLE, "[bold red]x", "x" * 300,
           "Zoe\u0301 e\u0301\u0301\u0301", "🚴‍♀️ Ana 👨‍👩‍👧", "李小龙", "end\\", "[$x] [ b] [[b]]", "\u202eevil"]
# names drawn at random: brackets, backslashes, dollars and every kind of control character
NAMES = st.text(st.one_of(
    st.sampled_from("[]/\\$@=# bB"),
    st.characters(max_codepoint=0x2070),
    st.characters(),
    st.characters(min_codepoint=0xDC80, max_codepoint=0xDCFF),  # a file name's bytes that are not UTF-8
), max_size=40)


def no_control(text: str, newlines: bool = True) -> bool:
    return all(ch in "\n\t" and newlines or not usertext.CONTROL.match(ch) for ch in text)


# ------------------------------------------------------------- the functions

@pytest.mark.parametrize("char", ["\x1b", "\x07", "\x00", "\x7f", "\x9b", "\x85", "\u202e", "\u2066", "\n", "\t"])
def test_every_control_character_is_refused_in_a_name(char):
    assert usertext.control_problem(f"a{char}b") == f"control character U+{ord(char):04X} is not allowed"
    with pytest.raises(ValueError):
        usertext.check(f"a{char}b")


@pytest.mark.parametrize("name", ["[/]", "[Dad] Tom", "🚴‍♀️ Ana 👨‍👩‍👧", "Zoe\u0301", "李小龙", "x" * 300])
def test_names_without_control_characters_pass(name):
    assert usertext.check(name) == name
    assert usertext.clean(name) == name


def test_descriptions_may_have_lines():
    assert usertext.check("one\n\ttwo", multiline=True) == "one\n\ttwo"
    with pytest.raises(ValueError):
        usertext.check("one\x1btwo", multiline=True)


def test_clean_writes_control_characters_out_visibly():
    assert usertext.clean(ESC_TITLE) == "\\x1b]0;pwned\\x07"
    assert usertext.clean("a\u202eb\x9bc") == "a\\u202eb\\x9bc"
    assert usertext.clean("a\nb") == "a\nb"
    assert usertext.clean("a\nb", multiline=False) == "a\\x0ab"


@settings(max_examples=400, deadline=None)
@given(NAMES)
def test_clean_never_lets_a_control_character_through(text):
    fuzzing.count("user text")
    assert no_control(usertext.clean(text))
    assert no_control(usertext.clean(text, multiline=False), newlines=False)
    usertext.clean(text).encode("utf-8")  # printable on a UTF-8 terminal
    if usertext.control_problem(text) is None:
        assert usertext.clean(text, multiline=False) == text  # nothing else is touched


@settings(max_examples=400, deadline=None)
@given(NAMES, NAMES)
def test_escaped_text_shows_literally_in_textual_markup(a, b):
    from textual.content import Content

    fuzzing.count("user text")

    # user text between our own tags, even with a backslash at its end: never read as markup
    content = Content.from_markup(f"[b]{usertext.escape_markup(a)}[/b] · [i]{usertext.escape_markup(b)}[/i]")
    assert content.plain.replace("\u200b", "") == f"{usertext.clean(a)} · {usertext.clean(b)}".replace("\u200b", "")
    assert {span.style for span in content.spans} <= {"b", "i"}
    assert no_control(content.plain)


@pytest.mark.parametrize("name", HOSTILE)
def test_plain_content_is_the_text(name):
    from flamme_tui.ui.content import plain

    content = plain(name)
    assert content.plain == usertext.clean(name) and not content.spans


# ---------------------------------------------------------- stage files

def write_stage(folder, name, description="", file="hostile.yaml"):
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / file
    path.write_text(json.dumps({"name": name, "tiles": "abcdefghijklmnopqrstu", "description": description}))
    return path


@pytest.mark.parametrize("field", ["name", "description"])
@pytest.mark.parametrize("char", ["\x1b", "\x07", "\x9d", "\u202e"])
def test_stage_file_with_a_control_character_is_refused_in_one_line(tmp_path, field, char):
    values = {"name": "Col", "description": ""}
    values[field] = f"Col{char}]0;pwned\x07"
    path = write_stage(tmp_path, **values)
    with pytest.raises(config.ConfigError) as err:
        config.load_stage(path)
    message = str(err.value)
    assert f"{field}: control character U+" in message and "hostile.yaml" in message
    assert no_control(message, newlines=False)


def test_stage_file_with_markup_in_its_name_loads_as_it_is(tmp_path):
    path = write_stage(tmp_path, "[@click=app.quit]x [/]", "[Dad] line one\nline two")
    stage = config.load_stage(path)
    assert stage.name == "[@click=app.quit]x [/]"
    assert stage.description == "[Dad] line one\nline two"


# names made only of invisible characters (issue 23): a blank on every screen
INVISIBLE = ["\u200b", "\u200b\u200c\u200d\u2060\ufeff", " \u00a0\u3000 ", "\u00ad", "\u0301\u0301", "\u3164",
             "\u2800", "\ufe0f"]


@pytest.mark.parametrize("name", INVISIBLE)
def test_a_name_of_invisible_characters_is_refused(name):
    assert not usertext.visible(name)
    assert usertext.name_problem(name) == "no visible character (only spaces or invisible characters)"
    with pytest.raises(ValueError):
        usertext.check_name(name)


@pytest.mark.parametrize("name", ["a\u200b", "\u200bBob", "Zoe\u0301", "🚴\u200d♀️", "李", "·", "_", "0"])
def test_a_name_with_anything_visible_passes(name):
    assert usertext.visible(name) and usertext.check_name(name) == name


@pytest.mark.parametrize("name", ["\u200b\u200b", "   "])
def test_stage_and_tour_files_named_with_invisible_characters_are_refused_in_one_line(tmp_path, name):
    from flamme_tui.play import tours

    path = write_stage(tmp_path, name)
    with pytest.raises(config.ConfigError) as err:
        config.load_stage(path)
    assert "name: no visible character" in str(err.value) and "\n" not in str(err.value)
    tour = tmp_path / "tour.yaml"
    tour.write_text(json.dumps({"name": name, "stages": [{"stage": "avenue-corso-paseo"}]}))
    spec, problems = tours.check_tour_file(tour)
    assert spec is None and len(problems) == 1 and "name: no visible character" in str(problems[0])


# --------------------------------------------------------------------- saves

def saved_with(tmp_path, names) -> object:
    teams = tuple(Team(n, c) for n, c in zip(names, ("red", "blue")))
    session = Session.new(RaceSpec(teams=teams), 5, {0: "easy", 1: "easy"})
    return saves.save(session, tmp_path / "race.json")


@pytest.mark.parametrize("name", [ESC_TITLE, "Tom\u202e", "a\x9bb", "a\nb", "\u200b\u200b"])
def test_save_with_a_control_character_in_a_team_name_is_refused(tmp_path, name):
    path = saved_with(tmp_path, [name, "Bob"])
    for read in (saves.load, saves.peek):
        with pytest.raises(saves.SaveError) as err:
            read(path)
        assert ("control character" if usertext.visible(name) else "no visible character") in str(err.value)
        assert no_control(str(err.value), newlines=False)


@pytest.mark.parametrize("where", ["title", "teams", "course"])
def test_save_with_a_control_character_in_its_summary_or_course_is_refused(tmp_path, where):
    path = saved_with(tmp_path, ["Ann", "Bob"])
    doc = json.loads(path.read_text())
    if where == "title":
        doc["summary"]["title"] += ESC_TITLE
    elif where == "teams":
        doc["summary"]["teams"][0] += ESC_TITLE
    else:
        doc["setup"]["course"]["name"] += ESC_TITLE
    doc["checksum"] = saves._checksum(doc)
    path.write_text(json.dumps(doc))
    with pytest.raises(saves.SaveError, match="control character U\\+001B"):
        saves.load(path)


def test_save_with_markup_names_loads(tmp_path):
    path = saved_with(tmp_path, ["[/]", "[@click=app.quit]x"])
    session = saves.load(path)
    assert [t.name for t in session.setup.teams] == ["[/]", "[@click=app.quit]x"]


def test_bytes_of_a_name_that_are_not_utf8_are_written_out_and_refused():
    """A file name's bytes that are not UTF-8 come as lone surrogates: a UTF-8
    stdout cannot print them (UnicodeEncodeError) and a C1 byte among them is
    a terminal control."""
    name = os.fsdecode(b"r\xff\x9b.json")
    assert usertext.clean(name) == "r\\udcff\\udc9b.json"
    usertext.clean(name).encode("utf-8")
    assert usertext.control_problem(name) == "a byte that is not UTF-8 text (0xFF) is not allowed"
    with pytest.raises(ValueError):
        usertext.check(name)


@settings(max_examples=300, deadline=None)
@given(st.text(st.characters(blacklist_categories=("Cc", "Cs")), max_size=30), st.integers(1, 24))
def test_fit_takes_exactly_its_cells_and_keeps_a_text_that_fits(text, width):
    shown = usertext.fit(text, width)
    assert usertext.cells(shown) == width
    if usertext.cells(text) <= width:
        assert shown.rstrip(" ") == text.rstrip(" ")
    else:
        assert "…" in shown


def test_fit_measures_wide_and_combining_characters_by_cells():
    assert usertext.fit("李小龙", 6) == "李小龙"
    assert usertext.fit("李小龙", 5) == "李小…"
    assert usertext.fit("李小龙", 4) == "李 …"  # half a wide character is a space
    assert usertext.fit("Zoe\u0301", 5) == "Zoe\u0301  "


def test_a_cut_name_keeps_its_number():
    """Twelve one-rider players are "Player 1" to "Player 12": cut to a narrow
    column they must stay apart."""
    assert [usertext.cut(f"Player {n}", 6) for n in (10, 11, 12)] == ["Pl… 10", "Pl… 11", "Pl… 12"]
    assert usertext.cut("Player 12", 4) == "Pla…"  # no room for the number and a letter
    assert usertext.cut("Team 2027", 20) == "Team 2027"
