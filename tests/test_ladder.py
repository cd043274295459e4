"""`flamme-tui ladder`: the Elo maths on known results, the stage kinds,
resuming from the results file, and the same table whatever the processes."""

from __future__ import annotations

import json
import math

import pytest

from flamme_tui.cli import main
from flamme_tui.play import ladder as lad


def ratings(results, **kw) -> dict[str, lad.Rating]:
    return {r.name: r for r in lad.fit_elo(results, **kw)}


def test_two_players_closed_form():
    # 3 wins in 4, plus the virtual draw: 3.5 of 5, so P = 0.7 and the gap is 400 log10(0.7 / 0.3)
    got = ratings([("easy", "hard", 0.0)] * 3 + [("easy", "hard", 1.0)])
    assert got["easy"].elo == 1000 and got["easy"].half == 0
    assert got["hard"].elo == pytest.approx(1000 + 400 * math.log10(0.7 / 0.3), abs=1e-6)
    # the interval: 1.96 / sqrt(n p (1 - p)) natural units, n = 5 games counted
    assert got["hard"].half == pytest.approx(1.96 / math.sqrt(5 * 0.7 * 0.3) * 400 / math.log(10), abs=1e-6)
    assert (got["hard"].games, got["hard"].score) == (4, 3.0)


def test_no_prior_gives_the_plain_maximum_likelihood():
    got = ratings([("easy", "b", 1.0)] * 3 + [("easy", "b", 0.0)], prior_draws=0.0)
    assert got["b"].elo == pytest.approx(1000 - 400 * math.log10(3), abs=1e-6)


def test_a_perfect_score_stays_finite_and_order_does_not_matter():
    results = [("easy", "hard", 0.0)] * 6 + [("medium", "hard", 0.0)] * 6 + [("easy", "medium", 0.5)] * 2
    got = ratings(results)
    assert got["hard"].elo > got["medium"].elo and math.isfinite(got["hard"].elo)
    again = ratings(list(reversed(results)))
    assert all(again[n].elo == pytest.approx(got[n].elo, abs=1e-9) for n in got)


def test_expected_scores_match_the_results_at_the_maximum():
    # the likelihood equations: each player's expected score (virtual draws included) is its score
    results = [("easy", "medium", 0.0), ("easy", "medium", 1.0), ("easy", "medium", 0.0), ("easy", "hard", 0.0),
               ("easy", "hard", 0.0), ("medium", "hard", 1.0), ("medium", "hard", 0.0), ("medium", "hard", 0.0)]
    got = ratings(results)
    for name in got:
        expected = actual = 0.0
        for a, b in {(a, b) for a, b, _ in results}:
            games = sum(1 for x, y, _ in results if (x, y) == (a, b)) + 1
            scored = sum(s for x, y, s in results if (x, y) == (a, b)) + 0.5
            p = 1 / (1 + 10 ** ((got[b].elo - got[a].elo) / 400))
            if name == a:
                expected, actual = expected + games * p, actual + scored
            elif name == b:
                expected, actual = expected + games * (1 - p), actual + games - scored
        assert expected == pytest.approx(actual, abs=1e-7), name


def test_stage_kinds():
    assert lad.stage_kind("avenue-corso-paseo") == "flat"
    assert lad.stage_kind("la-haut-montagne") == "mountain"
    assert lad.stage_kind("ronde-van-wevelgem") == "hilly"
    assert lad.stage_kind("peloton-11") == "cobbles"
    names = [c.name for c in lad.categories()]
    assert names == ["flat", "hilly", "mountain", "cobbles", "meteo", "bmx"]


def test_the_schedule_keeps_scripted_teams_where_they_race():
    cats = {c.name: c for c in lad.categories()}
    bots = ["easy", "medium", "peloton", "muscle"]
    assert lad.pairs(lad.entrants(cats["flat"], bots)) == [
        ("easy", "medium"), ("easy", "peloton"), ("easy", "muscle"), ("medium", "peloton"), ("medium", "muscle")]
    assert lad.pairs(lad.entrants(cats["bmx"], bots)) == [("easy", "medium")]


def lines(path) -> list[dict]:
    return [json.loads(x) for x in path.read_text().splitlines()]


def run(capsys, path, *more: str) -> list[str]:
    assert main(["ladder", "--bots", "easy,medium,muscle", "--only", "flat,bmx", "--file", str(path), *more]) == 0
    return capsys.readouterr().out.splitlines()


def test_a_rerun_plays_only_the_missing_games(tmp_path, capsys):
    path = tmp_path / "ladder.jsonl"
    out = run(capsys, path, "-n", "2", "-j", "1")
    assert out[0] == f"0 games in {path}; 8 to play on 1 process"  # flat: 3 pairs, bmx: 1 pair; 2 games each
    first = path.read_text()
    assert len(lines(path)) == 8
    # the same again: nothing to play, the same table
    again = run(capsys, path, "-n", "2", "-j", "1")
    assert again[0] == f"8 games in {path}; 0 to play" and again[1:] == out[1:]
    # more games per pair: only the new ones are played, appended after the old ones
    run(capsys, path, "-n", "3", "-j", "1")
    assert path.read_text().startswith(first) and len(lines(path)) == 12
    assert sorted((e["category"], e["a"], e["b"], e["k"]) for e in lines(path)) == sorted(
        (c, a, b, k) for c, pairs in (("flat", [("easy", "medium"), ("easy", "muscle"), ("medium", "muscle")]),
                                      ("bmx", [("easy", "medium")]))
        for a, b in pairs for k in range(3))


def test_an_interrupted_write_is_cut_off_and_the_game_played_again(tmp_path, capsys):
    path = tmp_path / "ladder.jsonl"
    whole = run(capsys, path, "-n", "2", "-j", "1")
    complete = path.read_bytes()
    path.write_bytes(complete[: complete.rfind(b"\n", 0, len(complete) - 1) + 1] + b'{"a": "easy", "b": "me')
    out = run(capsys, path, "-n", "2", "-j", "1")
    assert out[0] == f"7 games in {path}; 1 to play on 1 process"
    assert path.read_bytes() == complete and out[1:] == whole[1:]  # the same game, the same table


def test_the_table_is_the_same_over_processes(tmp_path, capsys):
    one = run(capsys, tmp_path / "one.jsonl", "-n", "2", "-j", "1")
    two = run(capsys, tmp_path / "two.jsonl", "-n", "2", "-j", "2")
    assert one[1:] == two[1:]
    key = lambda e: (e["category"], e["a"], e["b"], e["k"])  # noqa: E731
    assert sorted(lines(tmp_path / "one.jsonl"), key=key) == sorted(lines(tmp_path / "two.jsonl"), key=key)


def test_the_expert_budget_is_part_of_a_result(tmp_path, capsys):
    path = tmp_path / "ladder.jsonl"
    assert main(["ladder", "--bots", "easy,expert", "--only", "bmx", "-n", "1", "-j", "1", "--rollouts", "2",
                 "--file", str(path)]) == 0
    capsys.readouterr()
    assert main(["ladder", "--bots", "easy,expert", "--only", "bmx", "-n", "1", "-j", "1", "--rollouts", "3",
                 "--file", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("(1 game in") and "another expert budget" in out[0]
    assert [e["budget"] for e in lines(path)] == ["2 rollouts", "3 rollouts"]


@pytest.mark.parametrize("args, message", [
    (["--bots", "medium,hard"], "--bots: give easy"),
    (["--bots", "easy,banana"], "--bots: give easy"),
    (["--bots", "easy,easy"], "--bots: give easy"),
    (["--only", "alps"], "--only: columns are flat, hilly, mountain, cobbles, meteo, bmx"),
])
def test_bad_options_say_so_in_one_line(tmp_path, capsys, args, message):
    assert main(["ladder", "--file", str(tmp_path / "x.jsonl"), *args]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_a_file_that_is_no_ladder_is_refused(tmp_path, capsys):
    path = tmp_path / "x.jsonl"
    path.write_text('{"a": 1}\n')
    assert main(["ladder", "--bots", "easy,medium", "--only", "bmx", "--file", str(path)]) == 2
    assert capsys.readouterr().err == f"flamme-tui: ladder: {path}:1: not a ladder result\n"
    assert path.read_text() == '{"a": 1}\n'  # left as it was


@pytest.mark.parametrize("text", ['{"precious": "data", "important": [1,2,3]}', '{"a": 1', '[1, 2'])
def test_a_short_unfinished_line_that_is_no_result_is_refused_not_cut(tmp_path, capsys, text):
    # only the start of a result line (a write cut short) is cut off; a last line of
    # anything else, even JSON, is somebody's data
    path = tmp_path / "x.json"
    path.write_text(text)
    assert main(["ladder", "--bots", "easy,medium", "--only", "bmx", "--file", str(path)]) == 2
    assert capsys.readouterr().err == f"flamme-tui: ladder: {path}:1: not a ladder result\n"
    assert path.read_text() == text


def test_a_file_with_a_long_unfinished_line_is_refused_not_cut(tmp_path, capsys):
    path = tmp_path / "x.jsonl"
    path.write_bytes(b"\0" * 10_000)
    assert main(["ladder", "--bots", "easy,medium", "--only", "bmx", "--file", str(path)]) == 2
    assert capsys.readouterr().err == f"flamme-tui: ladder: {path}:1: not a ladder result\n"
    assert path.read_bytes() == b"\0" * 10_000
