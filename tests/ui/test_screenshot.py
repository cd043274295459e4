"""The palette's Screenshot: saved where the player can find it (Downloads,
else the data folder when there is no Downloads folder), and said where in
plain words (no markup shown as text)."""

from __future__ import annotations

import asyncio

import pytest

from flamme_tui.ui.app import FlammeApp

pytestmark = pytest.mark.usefixtures("fast_pilot")


@pytest.fixture
def home(tmp_path, monkeypatch):
    """A home folder of the test's own, with no XDG user-dirs file (Downloads is ~/Downloads)."""
    folder = tmp_path / "home"
    folder.mkdir()
    monkeypatch.setenv("HOME", str(folder))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("XDG_DOWNLOAD_DIR", raising=False)
    return folder


async def screenshot(app, pilot) -> str:
    """The palette's Screenshot, typed; the message it gives."""
    await pilot.press("ctrl+p")
    await pilot.pause()
    await pilot.press(*"screenshot", "enter")
    for _ in range(100):  # the file is written in a thread
        await asyncio.sleep(0.05)
        await pilot.pause()
        said = [str(n.message) for n in app._notifications if n.title == "Screenshot"]
        if said:
            return said[-1]
    raise AssertionError("the screenshot said nothing")


async def test_without_a_downloads_folder_it_goes_to_the_data_folder_and_says_so(home, data_dir):
    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        said = await screenshot(app, pilot)
    shots = list(data_dir.glob("*.svg"))
    assert len(shots) == 1 and "<svg" in shots[0].read_text()[:500]
    assert not (home / "Downloads").exists()
    assert said == f"Screenshot saved as {shots[0].name} in the flamme-tui data folder ({data_dir})"


async def test_with_a_downloads_folder_it_goes_there_and_says_so_without_markup(home, data_dir):
    (home / "Downloads").mkdir()
    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        said = await screenshot(app, pilot)
    shots = list((home / "Downloads").glob("*.svg"))
    assert len(shots) == 1
    assert said == f"Screenshot saved as {shots[0].name} in your Downloads folder ({home / 'Downloads'})"
    assert "[" not in said and "$" not in said


async def test_a_folder_that_cannot_be_made_is_said(home, tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("FLAMME_TUI_DATA_DIR", str(blocker / "data"))
    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        said = await screenshot(app, pilot)
    assert said.startswith("The screenshot was not saved: cannot make the flamme-tui data folder")
    assert said.endswith("Not a directory")
