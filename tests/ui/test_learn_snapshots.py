"""Snapshots of the learning screens at 80x24: the coach, a hint, a tutorial step."""

from __future__ import annotations

from flamme_tui.ui.app import FlammeApp
from flamme_tui.ui.scenarios import SCENARIOS, SEED


def app() -> FlammeApp:
    return FlammeApp(seed=SEED, autoplay=False, autosave=False)


def test_the_coach_at_80x24(snap_compare):
    assert snap_compare(app(), run_before=SCENARIOS["coach"], terminal_size=(80, 24))


def test_a_hint_at_80x24(snap_compare):
    assert snap_compare(app(), run_before=SCENARIOS["hint"], terminal_size=(80, 24))


def test_a_tutorial_step_at_80x24(snap_compare, data_dir):
    assert snap_compare(app(), run_before=SCENARIOS["tutorial"], terminal_size=(80, 24))
