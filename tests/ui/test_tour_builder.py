"""Tours built in the app (issue 28 item 4): stages from the library and
random ones picked in order, the tour saved under a name, found in the tour
menu afterwards, and raced."""

from __future__ import annotations

import pytest

from flamme_tui import config, stagegen
from flamme_tui.play import tours
from flamme_tui.ui.app import FlammeApp
from flamme_tui.ui.scenarios import SCENARIOS
from flamme_tui.ui.textshot import screen_text

from .driver import screen_name

pytestmark = pytest.mark.usefixtures("fast_pilot")


async def test_build_a_tour_save_it_and_race_it(data_dir):
    app = FlammeApp(seed=1, autoplay=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await SCENARIOS["tour-menu"](pilot)
        await pilot.press("end", "enter")  # Pick the stages…
        await pilot.pause()
        assert screen_name(app) == "TourStagesScreen"
        await pilot.press("enter", "r")  # Avenue Corso Paseo, then a new random stage
        legs = app.screen.legs
        assert legs[0] == ("avenue-corso-paseo", "classic") and stagegen.is_code(legs[1][0])
        assert config.stage_summary(config.load_stage(legs[1][0])).length >= 53  # a medium stage
        # (the code is random, so its length is: the line may wrap anywhere in it)
        # The list grows a line, drawn after a layout that the keys do not wait for (a loaded CI machine
        # read the screen between the two once): wait for it, bounded.
        line = f"2.Randomstage{legs[1][0]}"
        for _ in range(100):
            if line in "".join(screen_text(app).split()):
                break
            await pilot.pause(0.05)
        assert line in "".join(screen_text(app).split())
        await pilot.press("w")
        await pilot.pause()
        await pilot.press(*"Le Weekend", "enter")  # typed over "Your tour"
        await pilot.pause()
        assert "Saved as le-weekend" in screen_text(app) and "Le Weekend: 2 stages" in screen_text(app)
        saved = tours.load_tour("le-weekend")
        assert [(leg.stage, leg.variant) for leg in saved.stages] == legs
        await pilot.press("w")  # again, the same name: refused, the file kept
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert any("a tour file 'le-weekend.yaml' is already there" in n.message for n in app._notifications)
        assert [p.name for p in (data_dir / "tours").iterdir()] == ["le-weekend.yaml"]
        await pilot.press("escape")  # back to the tour menu, which lists it now
        await pilot.pause()
        assert screen_name(app) == "TourScreen" and "Le Weekend (2 stages)" in screen_text(app)
        menu = app.screen.query_one("#tour-menu")
        menu.highlighted = next(k for k in range(menu.option_count) if menu.get_option_at_index(k).id == "le-weekend")
        await pilot.press("enter")
        await pilot.pause()
        assert screen_name(app) == "TeamsScreen" and app.choices.tour == saved
        await pilot.press("ctrl+f", "ctrl+s")
        await pilot.pause()
        assert screen_name(app) == "RaceScreen"
        # the first stage's tiles (the start side may change to give every rider a place: PELOTON.md)
        assert [t.letter for t in app.screen.flow.game.course.tiles][1:] == list("bcdefghijklmnopqrstu")
