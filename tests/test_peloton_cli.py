"""The Peloton expansion on the command line: races of six teams, the
breakaway, one-rider players, the 19 stages, tournaments and the bench."""

from __future__ import annotations

import re

import pytest

from flamme_tui.cli import main


def out_of(capsys, *args: str) -> str:
    assert main(list(args)) == 0
    return capsys.readouterr().out


def test_a_six_team_race_on_a_peloton_stage_prints_the_same_race_twice(capsys):
    args = ("race", "--stage", "peloton-9", "--teams", "6", "--seed", "1")
    first = out_of(capsys, *args)
    assert out_of(capsys, *args) == first
    lines = first.splitlines()
    assert lines[0].startswith("Peloton 9 (5-6 teams) · classic, seed 1, 6 teams: Red (easy)")
    assert "Pink (easy)" in lines[0] and "White (easy)" in lines[0]
    ranking = lines[lines.index("Final ranking") + 1:]
    assert len(ranking) == 12
    assert out_of(capsys, "race", "--stage", "peloton-9", "--teams", "6", "--seed", "2") != first


def test_the_breakaway_on_the_command_line(capsys):
    out = out_of(capsys, "race", "--stage", "peloton-8", "--teams", "5", "--seed", "3", "--breakaway",
                 "--bots", "medium")
    assert re.search(r"^breakaway, bid 1: ", out, re.M) and re.search(r"^breakaway, bid 2: ", out, re.M)
    (result,) = [line for line in out.splitlines() if line.startswith("breakaway: ")]
    assert result.count(" = ") == 5 and " break away to 5" in result  # five teams: two winners (on square 5)
    assert out.index("breakaway: ") < out.index("Round 1")


def test_nine_players_race_one_rider_each(capsys):
    out = out_of(capsys, "race", "--stage", "peloton-8", "--players", "9", "--seed", "4", "--breakaway")
    lines = out.splitlines()
    assert lines[0].startswith("Peloton 8 (5-6 teams) · classic, seed 4, 9 players: Player 1 (easy)")
    ranking = lines[lines.index("Final ranking") + 1:]
    assert len(ranking) == 9 and any("Player 9 (White Sprinteur)" in line for line in ranking)


@pytest.mark.parametrize("args, words", [
    (["race", "--teams", "7"], "2 to 6"),
    (["race", "--variant", "bmx", "--teams", "5"], "bmx races 2 to 4"),
    (["race", "--variant", "bmx", "--breakaway"], "not an option of bmx"),
    (["race", "--breakaway"], "no breakaway square"),  # the default stage has no tile 2
    (["race", "--players", "13"], "2 to 12"),
    (["race", "--players", "9", "--teams", "3"], "not both"),
    (["race", "--players", "9", "--bots", "peloton,easy,easy,easy,easy,easy,easy,easy,easy"], "no scripted teams"),
    (["tournament", "easy", "easy", "easy", "easy", "easy", "easy", "easy"], "2 to 6"),
    (["tournament", "easy", "peloton", "peloton"], "at most one Peloton"),
])
def test_bad_peloton_options_are_one_line(args, words, capsys):
    try:
        code = main(args)
    except SystemExit as exc:  # argparse's own refusals
        code = exc.code
    assert code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err and "Traceback" not in err


def test_stages_list_shows_the_nineteen_stage_cards_first_with_their_lengths(capsys):
    from flamme_tui import config

    out = out_of(capsys, "stages", "list")
    rows = [line.split() for line in out.splitlines()[1:] if line and not line.startswith("user stages")]
    ids = [row[0] for row in rows]
    # the base game's and the expansion's stage cards first, then the rest of the library
    assert ids[7] == "peloton-7" and ids[18] == "peloton-12-5-6" and ids == config.stage_ids()
    lengths = {row[0]: int(row[-6]) for row in rows}  # (then climb, descent, kind, boxes, source)
    assert lengths["peloton-7"] == 68 and lengths["peloton-7-5-6"] == 71 and lengths["peloton-12-5-6"] == 76


def test_tournament_and_bench_take_peloton_stages_and_six_teams(capsys):
    out = out_of(capsys, "tournament", "easy", "medium", "easy", "medium", "easy", "peloton",
                 "-n", "3", "-j", "1", "--stage", "peloton-11", "--breakaway")
    assert "6 seats" in out and "| Peloton |" in out  # the scripted team by its box name
    out = out_of(capsys, "bench", "-n", "5", "--teams", "6", "--stage", "peloton-7-5-6")
    assert "5 classic races of 6 teams on Peloton 7 (5-6 teams)" in out
    out = out_of(capsys, "bench", "-n", "3", "--teams", "5", "--variant", "meteo", "--stage", "peloton-12")
    assert "of 5 teams on Peloton 12 (5-6 teams)" in out


def test_race_from_a_save_made_during_the_breakaway(tmp_path, monkeypatch, capsys):
    """`race --from` finishes a race saved in the middle of its bids: who broke
    away is said, the bids chosen face down before the save are not."""
    monkeypatch.setenv("FLAMME_TUI_DATA_DIR", str(tmp_path))
    from flamme_tui import saves
    from flamme_tui.bots import POLICIES
    from flamme_tui.engine.race import Team
    from flamme_tui.play.races import COLOURS, RaceSpec
    from flamme_tui.play.session import Session

    spec = RaceSpec(stage="peloton-7", teams=tuple(Team(c.capitalize(), c) for c in COLOURS[:5]), breakaway=True)
    session = Session.new(spec, 4, bots={})
    game = session.game
    for _ in range(4):
        session.apply(POLICIES["easy"](game.view(session.due())))
    assert game.phase == "breakaway"
    path = saves.save(session, tmp_path / "mid.json")
    assert main(["race", "--from", str(path), "--bots-for-humans"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    (said,) = [line for line in lines if line.startswith("breakaway")]
    assert "4 choices face down" in said and said.endswith(" away") and " = " not in said
    assert lines.index(said) < lines.index("Round 1") and "Final ranking" in out
