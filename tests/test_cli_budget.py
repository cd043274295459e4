"""`race --autosave` and `race --from` think with the --budget and --rollouts
given, as `race` does: a race with the expert can be reproduced."""

from __future__ import annotations

import pytest

from flamme_tui.bots.budget import Budget
from flamme_tui.cli import main
from flamme_tui.play import session as session_module


@pytest.fixture
def budgets(monkeypatch):
    """Every budget a bot decision is made with."""
    seen: list[Budget] = []
    decide = session_module.decide

    def recording(name, view, budget):
        if name == "expert":
            seen.append(budget)
        return decide(name, view, budget)

    monkeypatch.setattr(session_module, "decide", recording)
    return seen


def test_race_autosave_thinks_with_the_rollouts_given(tmp_path, budgets, capsys):
    assert main(["race", "--bots", "expert,easy", "--teams", "2", "--seed", "3", "--rollouts", "5",
                 "--autosave", str(tmp_path)]) == 0
    assert budgets and set(budgets) == {Budget(rollouts=5)}


def test_race_autosave_thinks_with_the_seconds_given(tmp_path, budgets, capsys):
    assert main(["race", "--bots", "expert,easy", "--teams", "2", "--seed", "3", "--budget", "0.05",
                 "--autosave", str(tmp_path)]) == 0
    assert budgets and set(budgets) == {Budget(seconds=0.05)}


def test_race_from_a_save_thinks_with_the_rollouts_given(tmp_path, budgets, capsys):
    from flamme_tui import saves
    from flamme_tui.play.races import RaceSpec, Team
    from flamme_tui.play.session import Session

    teams = (Team("Red", "red"), Team("Blue", "blue"))
    session = Session.new(RaceSpec(teams=teams), 4, {0: "easy", 1: "easy"})
    for _ in range(30):  # a race saved half-way
        session.apply(session.game.view(session.due()).options()[0].action)
    half = saves.save(session, tmp_path / "half.json")
    assert main(["race", "--from", str(half), "--bots", "expert,easy", "--rollouts", "6",
                 "--autosave", str(tmp_path / "finish")]) == 0
    assert budgets and set(budgets) == {Budget(rollouts=6)}
