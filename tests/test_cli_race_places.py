"""`flamme-tui race` says where riders are as the app does:
squares counted from the start line ("G1", "12"), "57 to go" or "2 past the
line" (narrator.where, label, ranking_line: the boards' and the log's words),
never the engine's index ("12/0", "square 78, lane 0")."""

from __future__ import annotations

import re

import pytest

from flamme_tui import i18n
from flamme_tui.cli import main
from flamme_tui.play import narrator
from flamme_tui.play.races import RaceSpec
from flamme_tui.play.session import Session

ENGINE_PLACE = re.compile(r"\b\d+/\d\b|lane \d|carril \d|file \d")


def race_output(capsys, *args: str) -> str:
    try:
        assert main(["race", *args]) == 0
    finally:
        i18n.forget_flag()
        i18n.set_language("en")
    return capsys.readouterr().out


def finished(stage: str, seed: int) -> Session:
    """The race `race --stage STAGE --seed SEED` plays (easy bots, 4 teams), played out."""
    session = Session.new(RaceSpec(stage=stage), seed, bots={seat: "easy" for seat in range(4)})
    while not session.over:
        session.play_bots()
    return session


def test_race_says_places_as_the_app_counts_them(capsys):
    out = race_output(capsys, "--stage", "la-haut-montagne", "--seed", "7")
    assert not ENGINE_PLACE.search(out), ENGINE_PLACE.search(out)
    game = finished("la-haut-montagne", 7).game
    lines = out.splitlines()
    # the final ranking: the replay's and the app's words, ranked as the race ended
    ranking = lines[lines.index("Final ranking") + 1:]
    assert ranking == narrator.ranking_lines(game)
    assert ranking[0].startswith(" 1. ") and "past the line" in ranking[0]
    # the last positions line: every rider where the boards say it is
    last = [line for line in lines if line.startswith("         ")][-1]
    for i in game.ranking():
        place = narrator.where(game.course, game.pos[i][0])
        assert f"{narrator.rider_colour(game, i)}: {place}" in last
    # the start: on the grid, counted back from the start line
    assert re.match(rf"\w+ \w+: grid 1 · {game.course.finish - game.course.grid + 1} to go  ", lines[2].lstrip())
    # moves from grid squares to squares past the line, as the race log says them
    assert re.search(r"plays \S+, G1 → \d+$", out, re.M)


@pytest.mark.parametrize("lang, to_go, grid", [("fr", "reste", "grille"), ("es", "faltan", "parrilla")])
def test_race_says_places_in_every_language(capsys, lang, to_go, grid):
    out = race_output(capsys, "--stage", "la-haut-montagne", "--seed", "7", "--lang", lang)
    assert not ENGINE_PLACE.search(out), ENGINE_PLACE.search(out)
    assert to_go in out and f"{grid} 1" in out


def test_a_bot_placing_a_rider_is_said_as_the_boards_say_it():
    session = Session.new(RaceSpec(stage="avenue-corso-paseo", grid="choose"), 1, bots={0: "easy", 1: "easy"})
    game = session.game
    move = session.bot_move()
    action = move.think().action
    said = narrator.action_words(game, action)
    square, lane = (int(v) for v in str(action).split()[-2:])
    assert said == f"{narrator.rider_name(game, game.index[action.rider])} takes " \
                   f"{narrator.place_words(game, square, lane)}"
    assert "lane 0" not in said and "lane 1" not in said
