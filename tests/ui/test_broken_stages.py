"""Broken user stages never crash the app (issue 11, item 2): the stage menu
leaves them out, says which file and why, and everything else works."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from flamme_tui import config
from flamme_tui.ui.app import FlammeApp
from flamme_tui.ui.textshot import screen_text

from .driver import go_to_stage, screen_name

pytestmark = pytest.mark.usefixtures("fast_pilot")

BOMB = "\n".join(["a0: &a0 [x]"] + [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, 9)])

BROKEN = {
    "twice.yaml": "name: Twice\ntiles: abcdefghijklmnopqrsbu\n",
    "letter.yaml": "name: Letter\ntiles: abcdefghijklmnopqrs0u\n",
    "evil.yaml": "name: !!python/object/apply:os.system ['echo pwned']\ntiles: abcdefghijklmnopqrstu\n",
    "deep.yaml": "name: " + "[" * 10000 + "]" * 10000 + "\n",
    "bomb.yaml": BOMB + "\nname: *a8\ntiles: abcdefghijklmnopqrstu\n",
    "huge.yaml": "name: H\ntiles: abcdefghijklmnopqrstu\ndescription: '" + "x" * 200_000 + "'\n",
}
MARKUP = "name: '[/] [@click=app.quit]Trap[/]'\ntiles: abcdefghijklmnopqrstu\ndescription: '[b'\n"


@pytest.fixture
def user_stages(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("FLAMME_TUI_DATA_DIR", str(tmp_path))
    folder = tmp_path / "stages"
    folder.mkdir()
    return folder


@pytest.mark.parametrize("name", sorted(BROKEN))
async def test_one_broken_stage_is_left_out_with_a_notice(user_stages, name):
    (user_stages / name).write_text(BROKEN[name])
    (user_stages / "mine.yaml").write_text("name: My Hills\ntiles: abcdefghijklmnopqrsTu\n")
    app = FlammeApp(seed=1, autoplay=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("enter", "enter")  # New race, Classic
        await pilot.pause()
        assert screen_name(app) == "StageScreen"
        menu = app.screen.query_one("#stage-menu")
        ids = [menu.get_option_at_index(k).id for k in range(menu.option_count)]
        assert name.removesuffix(".yaml") not in ids and "mine" in ids
        notice = str(app.screen.query_one("#stage-notice").render())
        assert f"Left out: {user_stages / name}" in notice.replace("\n", " ") or name in notice
        assert "Left out" in screen_text(app)
        # the user's good stage still races
        await go_to_stage(pilot, "mine")
        await pilot.press("enter")
        await pilot.pause()
        assert screen_name(app) == "TeamsScreen"


async def test_meteo_too(user_stages):
    (user_stages / "twice.yaml").write_text(BROKEN["twice.yaml"])
    app = FlammeApp(seed=1, autoplay=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter", "down", "enter")  # New race, Meteo
        await pilot.pause()
        assert screen_name(app) == "StageScreen"
        assert "twice.yaml" in screen_text(app)
        await pilot.press("enter")
        assert screen_name(app) == "TeamsScreen"


async def test_stage_names_from_files_are_not_markup(user_stages):
    (user_stages / "trap.yaml").write_text(MARKUP)
    app = FlammeApp(seed=1, autoplay=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("enter", "enter")
        await go_to_stage(pilot, "trap")
        await pilot.pause()
        text = screen_text(app)
        assert "[/] [@click=app.quit]Trap[/]" in text  # shown as typed, not run
        assert screen_name(app) == "StageScreen" and app.return_code is None


async def test_stage_broken_after_it_was_chosen(user_stages):
    """The file breaks while the player is on the teams screen: starting the
    race says so in one notification, and the app goes on."""
    path = user_stages / "mine.yaml"
    path.write_text("name: My Hills\ntiles: abcdefghijklmnopqrsTu\n")
    app = FlammeApp(seed=1, autoplay=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("enter", "enter")
        await go_to_stage(pilot, "mine")
        await pilot.press("enter")
        await pilot.pause()
        assert screen_name(app) == "TeamsScreen"
        path.write_text(BROKEN["twice.yaml"])
        os.utime(path, ns=(1, 1))  # another identity for the cache, whatever the clock
        app.start_race(app.choices)
        await pilot.pause()
        assert screen_name(app) == "TeamsScreen"
        assert any("used twice" in n.message for n in app._notifications)
    assert config.stage_notices()
