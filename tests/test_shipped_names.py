"""The shipped tours and stages named in English words ("Three Weeks", "Peloton 7 (2-4
teams)") are said in the player's language wherever they are named (words.tour_name,
words.stage_name); the data files and saves keep the names as written."""

from __future__ import annotations

import pytest

from flamme_tui import i18n
from flamme_tui.cli import main
from flamme_tui.play.narrator import Heading, note_line
from flamme_tui.play.races import RaceSpec, make_setup, new_game
from flamme_tui.words import tour_name

SAID = {"fr": ("Trois semaines", "Une semaine de classiques"), "es": ("Tres semanas", "Una semana de clásicas"),
        "en": ("Three Weeks", "A Week of Classics")}


@pytest.fixture
def lang():
    def speak(code: str) -> None:
        i18n.set_language(code)

    yield speak
    i18n.forget_flag()
    i18n.set_language("en")


@pytest.mark.parametrize("code", ["fr", "es", "en"])
def test_a_shipped_tours_english_name_is_said_in_the_language(lang, code):
    lang(code)
    assert (tour_name("Three Weeks"), tour_name("A Week of Classics")) == SAID[code]
    assert tour_name("Petit Tour") == "Petit Tour"  # a name in no language: as written
    assert tour_name("Mon tour à moi") == "Mon tour à moi"  # a player's own tour: as written


@pytest.mark.parametrize("code", ["fr", "es"])
def test_the_tours_list_names_them_in_the_language(capsys, lang, code):
    try:
        assert main(["--lang", code, "tours", "list"]) == 0
    finally:
        i18n.forget_flag()
    out = capsys.readouterr().out
    assert all(name in out for name in SAID[code]), out
    assert "Three Weeks" not in out and "A Week of Classics" not in out


@pytest.mark.parametrize("code", ["fr", "es"])
def test_a_tour_stages_heading_names_the_tour_in_the_language(lang, code):
    lang(code)
    game = new_game(make_setup(RaceSpec()), 1)
    line = note_line(Heading("Three Weeks", 2, 21), game)
    assert SAID[code][0] in line and "Three Weeks" not in line, line


@pytest.mark.parametrize(("code", "said"), [("fr", "Peloton 7 (2-4 équipes)"), ("es", "Peloton 7 (2-4 equipos)")])
def test_the_stages_list_names_them_in_the_language(capsys, lang, code, said):
    try:
        assert main(["--lang", code, "stages", "list"]) == 0
    finally:
        i18n.forget_flag()
    out = capsys.readouterr().out
    assert said in out and "(2-4 teams)" not in out, out
