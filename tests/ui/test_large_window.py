"""A large window used (issue 24, item 12): at 200x60 the overview takes two
cells a square (the riders' labels in full) and the stage profile the whole
width of its column; at 80x24 nothing changes and everything still fits."""

from __future__ import annotations

import pytest

from flamme_tui.ui.app import FlammeApp
from flamme_tui.ui.scenarios import SCENARIOS, SEED
from flamme_tui.ui.widgets.profile import StageProfile
from flamme_tui.ui.widgets.track import StageOverview

pytestmark = pytest.mark.usefixtures("fast_pilot")


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("FLAMME_TUI_DATA_DIR", str(tmp_path))


def used(line) -> int:
    """Cells of a drawn line up to its last non-blank one."""
    return len(line.text.rstrip())


async def test_at_200x60_the_overview_and_the_profile_take_the_width():
    async with FlammeApp(seed=SEED, autoplay=False).run_test(size=(200, 60)) as pilot:
        await SCENARIOS["card-pick"](pilot)
        screen = pilot.app.screen
        overview = screen.query_one("#overview", StageOverview)
        lines = overview.drawn_lines()
        squares = overview.course.length
        assert used(lines[0]) >= 2 * (squares - 2)  # two cells a square
        assert "BSBR" in lines[0].text  # the riders' labels in full, as on the strip
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
