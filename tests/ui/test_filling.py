"""Menus of many user files (issue 23, item 4): the stage menus and the New
tour menu read the user's stage and tour files in a worker thread, so the app
answers keys while they are read, and the menu fills as they come; files are
cached by identity, so a menu opened again does not parse them again.

The reader is held (a threading.Event) after its first batch, so "while
reading" is a state the test makes, not a race against the clock."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from flamme_tui import config
from flamme_tui.play import tours
from flamme_tui.ui import filling
from flamme_tui.ui.app import FlammeApp
from flamme_tui.ui.textshot import screen_text

from .driver import screen_name

pytestmark = pytest.mark.usefixtures("fast_pilot")

STAGES = 300
TOURS = 200
HOLD = 300  # seconds the held reader waits at most: only a failing test waits that long (a time-out, not a timing)


def many_stages(data_dir, n: int = STAGES) -> None:
    folder = data_dir / "stages"
    folder.mkdir(parents=True)
    for k in range(n):
        (folder / f"hills-{k:04d}.yaml").write_text(f"name: Hills {k:04d}\ntiles: abcdefghijklmnopqrsTu\n")


def many_tours(data_dir, n: int = TOURS) -> None:
    folder = data_dir / "tours"
    folder.mkdir(parents=True)
    for k in range(n):
        (folder / f"t-{k:04d}.yaml").write_text(f"name: Tour {k:04d}\nstages:\n  - stage: avenue-corso-paseo\n"
                                               "  - {stage: firenze-milano, variant: meteo}\n")


class Held:
    """Wraps a reader: once `after` user files are read, the next read waits
    until `go` is set (at most HOLD seconds)."""

    def __init__(self, read, data_dir, after: int) -> None:
        self.read, self.data_dir, self.after = read, str(data_dir), after
        self.count = 0
        self.waiting = threading.Event()
        self.go = threading.Event()

    def __call__(self, path, *args, **kwargs):
        if str(path).startswith(self.data_dir):
            if self.count == self.after:
                self.waiting.set()
                self.go.wait(HOLD)
            self.count += 1
        return self.read(path, *args, **kwargs)


async def until(predicate, timeout: float = 120.0) -> None:
    """Wait for a state (the timeout only stops a test that would hang)."""
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.01)


def read_all(app) -> bool:
    """The screen is built and has read every user file."""
    return bool(app.screen.query("OptionList")) and not app.screen.reading_files


def options(menu) -> list[str | None]:
    return [menu.get_option_at_index(k).id for k in range(menu.option_count)]


async def test_the_stage_menu_answers_keys_while_it_reads_many_user_stages(data_dir, monkeypatch):
    many_stages(data_dir)
    held = Held(config.check_stage_file, data_dir, after=filling.BATCH + 10)
    monkeypatch.setattr(config.loading, "check_stage_file", held)
    app = FlammeApp(seed=1, autoplay=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("enter", "enter")  # New race, Classic
        await until(held.waiting.is_set)  # the reader is held in the middle of its second batch
        assert screen_name(app) == "StageScreen"
        screen = app.screen
        menu = screen.query_one("#stage-menu")
        assert screen.reading_files
        # the keys work while the files are read
        first = menu.highlighted
        await pilot.press("down", "down", "down")
        at = menu.highlighted_option.id
        assert menu.highlighted > first and at and screen.reading_files

        def user_stages() -> list[str | None]:
            return [sid for sid in options(menu) if sid and sid.startswith("hills-")]

        # the menu shows the first batch, and says it is reading the rest
        assert len(user_stages()) == filling.BATCH
        assert f"Reading your stage files… {filling.BATCH} of {STAGES}" in screen_text(app)
        held.go.set()
        await until(lambda: not screen.reading_files)
        assert user_stages() == [f"hills-{k:04d}" for k in range(STAGES)]
        assert menu.highlighted_option.id == at  # where the player went
        assert "Reading" not in screen_text(app) and not screen.query_one("#stage-notice").display
        await pilot.press("enter")
        await pilot.pause()
        assert screen_name(app) == "TeamsScreen"


async def test_the_tour_menu_answers_keys_while_it_reads_many_user_tours(data_dir, monkeypatch):
    many_tours(data_dir)
    held = Held(tours.check_tour_file, data_dir, after=filling.BATCH + 10)
    monkeypatch.setattr(tours, "check_tour_file", held)
    app = FlammeApp(seed=1, autoplay=False)
    async with app.run_test(size=(100, 30)) as pilot:
        app.new_tour()
        await until(held.waiting.is_set)
        assert screen_name(app) == "TourScreen"
        screen = app.screen
        menu = screen.query_one("#tour-menu")
        shipped = len(options(menu)) - 1 - filling.BATCH  # before the user's: the shipped tours; last: Pick
        assert shipped > 0 and options(menu)[-1] == "pick" and screen.reading_files
        await pilot.press("down", "down")
        assert menu.highlighted == 2 and screen.reading_files
        assert f"Reading your tour files… {filling.BATCH} of {TOURS}" in screen_text(app)
        held.go.set()
        await until(lambda: not screen.reading_files)
        assert options(menu)[shipped:] == [f"t-{k:04d}" for k in range(TOURS)] + ["pick"]
        assert menu.highlighted == 2
        # and "Pick the stages" (last) fills its stage menu the same way
        await pilot.press("end", "enter")
        await until(lambda: screen_name(app) == "TourStagesScreen")


async def test_the_stage_picker_of_a_tour_fills_with_many_user_stages(data_dir):
    many_stages(data_dir)
    app = FlammeApp(seed=1, autoplay=False)
    async with app.run_test(size=(100, 30)) as pilot:
        app.pick_tour_stages()
        await until(lambda: screen_name(app) == "TourStagesScreen" and read_all(app))
        screen = app.screen
        ids = options(screen.query_one("#pick-menu"))
        assert ids[-STAGES:] == [f"hills-{k:04d}" for k in range(STAGES)]
        await pilot.press("end", "m")
        assert screen.legs == [(f"hills-{STAGES - 1:04d}", "meteo")]


async def test_a_menu_opened_again_does_not_parse_its_files_again(data_dir, monkeypatch):
    many_stages(data_dir, 100)
    many_tours(data_dir, 100)
    parsed: dict[str, int] = {}
    problems = config._problems

    def counting(model, path, *args, **kwargs):
        if str(path).startswith(str(data_dir)):
            parsed[model.__name__] = parsed.get(model.__name__, 0) + 1
        return problems(model, path, *args, **kwargs)

    monkeypatch.setattr(config.loading, "_problems", counting)  # the stages' reader
    monkeypatch.setattr(config, "_problems", counting)  # the tours' (play/tours.py)
    app = FlammeApp(seed=1, autoplay=False)
    async with app.run_test(size=(100, 30)) as pilot:

        async def open_menu(open_it, name: str) -> None:
            open_it()
            await until(lambda: screen_name(app) == name and read_all(app))
            await pilot.press("escape")
            await until(lambda: screen_name(app) != name)

        await open_menu(app.new_tour, "TourScreen")
        await open_menu(app.pick_tour_stages, "TourStagesScreen")
        assert parsed == {"TourSpec": 100, "StageSpec": 100}
        parsed.clear()
        await open_menu(app.new_tour, "TourScreen")
        await open_menu(app.pick_tour_stages, "TourStagesScreen")
        assert parsed == {}  # every file unchanged: read from the cache
        # a file changed is read again (its identity: path, inode, mtime and size)
        (data_dir / "tours" / "t-0007.yaml").write_text("name: Tour seven, longer\nstages:\n  - stage: hills-0003\n")
        (data_dir / "stages" / "hills-0003.yaml").write_text("name: Hills three, again\ntiles: abcdefghijklmnopqrsTu\n")
        await open_menu(app.new_tour, "TourScreen")
        assert parsed == {"TourSpec": 1, "StageSpec": 1}
