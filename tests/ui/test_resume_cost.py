"""What a return to the race costs (issue 24, item 14: keys within a frame):
the race screen is sized once per return from a dialog, not twice, and not
again at all when the window kept its size; the help, kept built, does not
have the whole stylesheet applied to it again unless the theme changed."""

from __future__ import annotations

import pytest

from flamme_tui.ui.app import FlammeApp
from flamme_tui.ui.scenarios import SCENARIOS, SEED
from flamme_tui.ui.textshot import screen_text

pytestmark = pytest.mark.usefixtures("fast_pilot")


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("FLAMME_TUI_DATA_DIR", str(tmp_path))


async def test_a_return_from_the_help_sizes_the_race_once_and_restyles_nothing():
    async with FlammeApp(seed=SEED, autoplay=False).run_test(size=(200, 60)) as pilot:
        await SCENARIOS["card-pick"](pilot)
        race = pilot.app.screen
        calls = {"apply_size": 0, "sized": 0, "styles": 0}
        apply_size, size_changed = race.apply_size, race.size_changed

        def counted_apply(width, height):
            calls["apply_size"] += 1
            apply_size(width, height)

        race.apply_size = counted_apply
        real_query = race.query

        def counted_query(selector=None):
            if selector == "#track":
                calls["sized"] += 1  # size_changed's first look, past its same-size check
            return real_query(selector)

        race.query = counted_query
        first = ""
        for _ in range(2):
            await pilot.press("question_mark")
            await pilot.pause()
            help_screen = pilot.app.screen
            assert type(help_screen).__name__ == "HelpScreen"
            first = first if _ else screen_text(pilot.app)
            await pilot.press("escape")
            await pilot.pause()
            assert pilot.app.screen is race
        assert calls["apply_size"] == 2  # once per return (it was twice)
        assert calls["sized"] == 0  # the same size: nothing laid out again
        # the help shown a third time: its styles kept (the theme is the same), and it looks the same
        update = help_screen.update_node_styles

        def counted_update(*args, **kwargs):
            calls["styles"] += 1
            return update(*args, **kwargs)

        help_screen.update_node_styles = counted_update
        await pilot.press("question_mark")
        await pilot.pause()
        assert pilot.app.screen is help_screen and calls["styles"] == 0
        assert screen_text(pilot.app) == first and "▀▀▀" in first  # its box drawn as styled, as the first time
        await pilot.press("escape")
        await pilot.pause()
        pilot.app.theme = "textual-light" if pilot.app.theme != "textual-light" else "textual-dark"
        await pilot.pause()
        await pilot.press("question_mark")
        await pilot.pause()
        assert calls["styles"] == 1  # a new theme: styled again
        race.size_changed = size_changed
