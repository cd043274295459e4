"""A large window used (issue 24, item 12): at 200x60 the overview takes two
cells a square (the riders' labels in full) and the stage profile the whole
width of its column; at 80x24 nothing changes and everything still fits."""

from __future__ import annotations

import pytest

from flamme_tui.ui.app import FlammeApp
from flamme_tui.ui.scenarios import SCENARIOS, SEED
from flamme_tui.ui.widgets.profile import StageProfile
from flamme_tui.ui.widgets.track import StageOverview, TrackStrip

pytestmark = pytest.mark.usefixtures("fast_pilot")


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("FLAMME_TUI_DATA_DIR", str(tmp_path))


def used(line) -> int:
    """Cells of a drawn line up to its last non-blank one."""
    return len(line.text.rstrip())


async def test_at_200x60_the_strip_shows_the_whole_stage_once_and_the_profile_takes_the_width():
    async with FlammeApp(seed=SEED, autoplay=False).run_test(size=(200, 60)) as pilot:
        await SCENARIOS["card-pick"](pilot)
        screen = pilot.app.screen
        # the detailed strip holds the whole stage in one band: no overview above it saying it again
        strip = screen.query_one("#track", TrackStrip)
        assert strip.one_band(200) and not screen.query_one("#overview", StageOverview).display
        lines = strip.drawn_lines()
        assert "BSBR" in "".join(line.text for line in lines) and any("▓" in line.text for line in lines)
        profile = screen.query_one("#profile", StageProfile)
        assert screen.has_class("-profile") and profile.stretch
        width = profile.size.width
        assert width >= 95 and len(profile.columns(width)) == width - 2
        axis = profile.drawn_lines()[profile.bars]
        assert used(axis) >= width - 1  # the axis from the start line to the finish line
        assert profile.bars > 12  # as tall as the room allows


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_smaller_windows_keep_their_overview_and_profile(size):
    async with FlammeApp(seed=SEED, autoplay=False).run_test(size=size) as pilot:
        await SCENARIOS["card-pick"](pilot)
        screen = pilot.app.screen
        overview = screen.query_one("#overview", StageOverview)
        assert not overview.wide and "BSBR" not in overview.drawn_lines()[0].text
        assert not screen.query_one("#profile", StageProfile).stretch
        # nothing scrolls: the screen's parts fit the window
        assert all(w.region.bottom <= size[1] for w in screen.query("#status, #overview, #track, #main, #boards, #keys"))
