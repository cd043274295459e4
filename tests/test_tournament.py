"""`flamme-tui tournament`: head-to-head and 4-seat fields, markdown tables a
person can paste, per-stage shares with 95% intervals, decision times."""

from __future__ import annotations

from flamme_tui.bots import Budget
from flamme_tui.cli import main
from flamme_tui.play.tournament import run_one, tournament, wilson


def rows(text: str, head: str) -> list[list[str]]:
    """The cells of the markdown table under the header line starting with `head`."""
    lines = text.splitlines()
    start = next(k for k, line in enumerate(lines) if line.startswith(head))
    assert set(lines[start + 1].replace("|", "").split()) <= {"---", "---:"}  # the separator line
    out = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        assert line.endswith("|")
        out.append([cell.strip() for cell in line.strip("|").split("|")])
    return out


def test_a_head_to_head_table_with_per_stage_shares_and_decision_times(capsys):
    assert main(["tournament", "medium", "easy", "-n", "14", "-j", "1"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].startswith("14 classic races, 2 seats (medium, easy), 7 stages")
    overall = rows(out, "| seat | bot |")
    assert [r[1] for r in overall] == ["medium", "easy"]
    assert sum(int(r[2]) for r in overall) == 14  # one winner a race
    for r in overall:
        assert r[4].startswith("[") and r[4].endswith("%]")
        assert r[6].endswith(" ms") and float(r[6].split()[0]) > 0
    stages = rows(out, "| stage | races |")
    assert len(stages) == 7 and sum(int(r[1]) for r in stages) == 14
    for r in stages:  # the shares of a stage add up to all its races
        wins = [float(cell.split("%")[0]) for cell in r[2:]]
        assert abs(sum(wins) - 100) < 0.2


def test_a_four_seat_field_on_one_stage(capsys):
    result = tournament(["medium", "easy", "medium", "easy"], 8, stages=["avenue-corso-paseo"], workers=1,
                        out=lambda line: print(line))
    out = capsys.readouterr().out
    overall = rows(out, "| seat | bot |")
    assert [r[1] for r in overall] == ["medium", "easy", "medium", "easy"]
    assert sum(r["wins"] for r in result["table"]) == 8
    assert "| stage |" not in out  # one stage: the overall table says it all
    assert all(set(r["by_stage"]) == {"avenue-corso-paseo"} for r in result["table"])


def test_each_bot_keeps_its_places_and_times_as_it_rotates():
    res = run_one(("classic", ["avenue-corso-paseo"], ["expert", "easy", "peloton"], 4, False, Budget(rollouts=20)))
    assert sorted(res.places) == [1, 2, 3]
    assert res.decisions[0] > 0 and res.seconds[0] > 0 and res.decisions[2] == 0  # a scripted team takes none
    again = run_one(("classic", ["avenue-corso-paseo"], ["expert", "easy", "peloton"], 4, False, Budget(rollouts=20)))
    assert again.places == res.places  # a rollout budget: the same race


def test_the_expert_and_the_reference_race_in_a_tournament(capsys):
    assert main(["tournament", "expert", "hard-before", "-n", "2", "-j", "1", "--rollouts", "16",
                 "--stage", "avenue-corso-paseo"]) == 0
    out = capsys.readouterr().out
    assert "expert budget 16 rollouts" in out.splitlines()[0]
    assert [r[1] for r in rows(out, "| seat | bot |")] == ["expert", "hard-before"]


def test_the_reference_is_no_menu_bot(capsys):
    assert main(["race", "--bots", "hard-before,easy", "--teams", "2"]) == 2
    said = capsys.readouterr().err
    assert "no bot is named 'hard-before'" in said and "hard-before" not in said.split("name 2 from")[1]


def test_wilson_intervals():
    assert wilson(0, 0) == (0.0, 0.0)
    lo, hi = wilson(60, 100)
    assert 0.50 < lo < 0.51 and 0.69 < hi < 0.70
