"""Saves written by an earlier release keep loading: their per-round digests
are checked against the state key this version computes."""

from __future__ import annotations

from pathlib import Path

import pytest

from flamme_tui import saves
from flamme_tui.bots import POLICIES

OLD = sorted((Path(__file__).parent / "data" / "saves").glob("*.json"))


def test_there_are_old_saves():
    assert len(OLD) >= 6


@pytest.mark.parametrize("path", OLD, ids=[p.stem for p in OLD])
def test_old_save_loads_and_plays_on(path, tmp_path):
    session = saves.load(path)
    record = saves.load_record(path)
    assert len(session.game.actions) == len(record.actions)
    assert saves.state_digest(session.game) == record.data.state
    # the race goes on from where it was saved, and saves again
    game = session.game
    for _ in range(3):
        if session.over:
            break
        for seat in range(len(game.setup.teams)):
            while not session.over and game.needs(seat):
                session.apply(POLICIES["easy"](game.view(seat)))
    again = saves.load(saves.save(session, tmp_path / "again.json"))
    assert [str(a) for a in again.game.actions] == [str(a) for a in game.actions]


@pytest.mark.parametrize("path", OLD, ids=[p.stem for p in OLD])
def test_the_state_key_holds_plain_values_only(path):
    """The digest hashes the key's repr: plain values (no engine object, no enum)
    keep it the same whatever the engine's classes are called."""
    import ast

    key = saves.load(path).game.state_key()
    assert ast.literal_eval(repr(key)) == key


FRENCH_NAMES = Path(__file__).parent / "data" / "saves" / "classic-french-names-over.json"


@pytest.mark.parametrize("lang", ["en", "fr", "es"])
def test_a_race_set_up_in_french_reads_its_default_names_in_the_language_now(lang):
    """A save of an earlier release (tests/data/saves/README.md): teams named by default in French,
    its summary written after the player chose English.  It loads in every language (the summary
    is checked as written: the names as the set-up holds them), and the narrator, the replay's
    heading and the podium's words name a default team in the language now; a typed name stays."""
    from flamme_tui import i18n
    from flamme_tui.play import narrator
    from flamme_tui.play.replay import replay_of

    expected = {"en": ["Blue", "Les Rapides", "Green", "Purple Peloton"],
                "fr": ["Bleu", "Les Rapides", "Vert", "Violet Peloton"],
                "es": ["Azul", "Les Rapides", "Verde", "Morado Peloton"]}[lang]
    i18n.set_language(lang)
    try:
        record = saves.load_record(FRENCH_NAMES)  # (a summary that did not match would say the save is damaged)
        assert [t.name for t in record.setup.teams] == ["Bleu", "Les Rapides", "Vert", "Violet Peloton"]  # as saved
        game = saves.load(FRENCH_NAMES).game
        assert [narrator.team_name(game, seat) for seat in range(4)] == expected
        ranking = "\n".join(narrator.ranking_lines(game))
        assert all(name in ranking for name in expected)
        assert expected[3] in narrator.rider_name(game, game.winner)  # the Peloton team won
        assert all(name in replay_of(record).heading for name in expected)
        others = {"Bleu", "Blue", "Azul", "Vert", "Green", "Verde"} - set(expected)
        assert not any(name in ranking.split() for name in others)
    finally:
        i18n.set_language("en")
