"""SVG snapshots of the main screens (pytest-textual-snapshot).

Plain `def` tests (snap_compare runs its own event loop); fixed seed, no
animations, fixed sizes.  Update after a deliberate change with
`python -m pytest tests/ui/test_snapshots.py --snapshot-update`.
"""

from __future__ import annotations

import pytest

from flamme_tui.ui.app import FlammeApp
from flamme_tui.ui.scenarios import SCENARIOS, SEED

SMALL, LARGE, HUGE = (80, 24), (120, 40), (200, 60)

MAIN = ["title", "variants", "stages", "curtain", "card-pick", "reveal", "podium"]


def app() -> FlammeApp:
    return FlammeApp(seed=SEED, autoplay=False, autosave=False)


@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["80x24", "120x40"])
@pytest.mark.parametrize("scenario", MAIN)
def test_main_screens(snap_compare, scenario, size):
    assert snap_compare(app(), run_before=SCENARIOS[scenario], terminal_size=size)


@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["80x24", "120x40"])
def test_stage_editor(snap_compare, size):
    """The stage editor (issue 28): the tile list, the check line, the facts, the profile and the track so far."""
    assert snap_compare(app(), run_before=SCENARIOS["stage-editor"], terminal_size=size)


@pytest.mark.parametrize("size", [SMALL, LARGE, HUGE], ids=["80x24", "120x40", "200x60"])
@pytest.mark.parametrize("scenario", ["review", "curtain-table", "recap"])
def test_race_screens_redesigned(snap_compare, scenario, size):
    """The stage overview and strip, boards in words, the review, the public curtain and the recap."""
    assert snap_compare(app(), run_before=SCENARIOS[scenario], terminal_size=size)


@pytest.mark.parametrize("scenario", ["card-pick", "reveal"])
def test_race_at_200x60(snap_compare, scenario):
    assert snap_compare(app(), run_before=SCENARIOS[scenario], terminal_size=HUGE)


@pytest.mark.parametrize("scenario", ["reveal", "curtain-table"])
def test_race_without_colour(snap_compare, monkeypatch, scenario):
    monkeypatch.setenv("NO_COLOR", "1")
    assert snap_compare(app(), run_before=SCENARIOS[scenario], terminal_size=SMALL)


def test_wind_marks(snap_compare):
    """Item 9: the second rider's cards, each marked with who will be in the wind (+E, +E?) at 80x24."""
    assert snap_compare(app(), run_before=SCENARIOS["wind"], terminal_size=SMALL)


def test_card_pick_without_colour(snap_compare, monkeypatch):
    """NO_COLOR: terrain, riders and the selected card stay readable (glyphs, letters, borders)."""
    monkeypatch.setenv("NO_COLOR", "1")
    assert snap_compare(app(), run_before=SCENARIOS["card-pick"], terminal_size=SMALL)


def test_meteo_track_with_weather_and_crashed_riders(snap_compare):
    """All four weather kinds on the straights; riders lying on the wet road (lower case)."""
    assert snap_compare(app(), run_before=SCENARIOS["meteo"], terminal_size=LARGE)


@pytest.mark.parametrize("scenario", ["bmx-builder", "bmx-pick", "bmx-die"])
def test_bmx_screens(snap_compare, scenario):
    assert snap_compare(app(), run_before=SCENARIOS[scenario], terminal_size=SMALL)


@pytest.mark.parametrize("scenario", ["teams-focus", "help-bmx", "settings", "light-teams"])
def test_menu_screens(snap_compare, scenario, monkeypatch):
    """The focused field plain to see (teams, light theme), the help scrolled to its top, settings."""
    # the settings screen shows its file's path: one that is the same on every run and cannot be written
    monkeypatch.setenv("FLAMME_TUI_CONFIG_DIR", "/dev/null/flamme-tui-config")
    assert snap_compare(app(), run_before=SCENARIOS[scenario], terminal_size=SMALL)


def test_teams_focus_without_colour(snap_compare, monkeypatch):
    """NO_COLOR: the focused field still stands out (a light bar in greyscale, and the ▶ pointer)."""
    monkeypatch.setenv("NO_COLOR", "1")
    assert snap_compare(app(), run_before=SCENARIOS["teams-focus"], terminal_size=SMALL)


@pytest.mark.parametrize("scenario", ["profile", "replay", "replay-bmx"])
def test_profile_and_replay(snap_compare, scenario):
    """The stage profile on request during a race; a replay drawn as the race is (BMX: the lap and its ramp)."""
    assert snap_compare(app(), run_before=SCENARIOS[scenario], terminal_size=SMALL)


def test_podium_chart_large(snap_compare):
    assert snap_compare(app(), run_before=SCENARIOS["podium"], terminal_size=(120, 50))


@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["80x24", "120x40"])
@pytest.mark.parametrize("scenario", ["tour-stage-result", "tour-gc", "tour-podium"])
def test_tour_screens(snap_compare, scenario, size):
    """A tour: the stage's result, the GC (after the second stage) and the tour's podium."""
    assert snap_compare(app(), run_before=SCENARIOS[scenario], terminal_size=size)


@pytest.mark.parametrize("scenario", ["tour-menu", "tour-stages"])
def test_tour_menus(snap_compare, scenario):
    assert snap_compare(app(), run_before=SCENARIOS[scenario], terminal_size=SMALL)


def test_tour_race_without_colour(snap_compare, monkeypatch):
    """The second stage: the yellow jersey ◆ on the track and the boards, readable without colour."""
    monkeypatch.setenv("NO_COLOR", "1")
    assert snap_compare(app(), run_before=SCENARIOS["tour-race"], terminal_size=SMALL)


def test_tour_standings(snap_compare):
    """A tour's standings mid-stage (`g`): the GC before, who has finished and in what time, the live GC."""
    assert snap_compare(app(), run_before=SCENARIOS["tour-standings"], terminal_size=SMALL)


def test_a_tour_race_at_200x60(snap_compare):
    """A large window used (a tour's second stage on a hilly course): the overview two cells a square,
    the profile and the boards at full width, the log wide."""
    assert snap_compare(app(), run_before=SCENARIOS["tour-race"], terminal_size=HUGE)
