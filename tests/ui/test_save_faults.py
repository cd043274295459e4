"""Saving in the app when things go wrong: a full disk, a data dir that is a
file, a damaged save, a race open in another process.  The race goes on, the
player is told once and why, the last good save is never damaged, and a
damaged race is shown with its backups instead of being hidden."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from pathlib import Path

import pytest

from flamme_tui import saves
from flamme_tui.bots import POLICIES
from flamme_tui.play.races import RaceSpec
from flamme_tui.play.session import Session
from flamme_tui.ui.app import FlammeApp
from flamme_tui.ui.scenarios import settle
from flamme_tui.ui.textshot import screen_text

from .driver import new_race_menus, screen_name

pytestmark = pytest.mark.usefixtures("fast_pilot")


def told(app, words: str) -> list[str]:
    return [n.message for n in app._notifications if words in n.message]


async def start_race(pilot) -> None:
    await new_race_menus(pilot, "classic")
    await pilot.press("ctrl+s")
    await settle(pilot)


async def pick(pilot, times: int) -> None:
    """`times` more actions: lift each curtain, take the first choice."""
    app = pilot.app
    target = len(app.flow.session.game.actions) + times
    for _ in range(10 * times):
        if len(app.flow.session.game.actions) >= target:
            return
        if screen_name(app) == "RaceScreen" and getattr(app.screen, "pending", None) is not None:
            await pilot.press("enter")  # the review of the seat's last pick: pass
        elif screen_name(app) == "RaceScreen" and app.screen.turn.kind in ("draw", "pick"):
            await pilot.press("1")
        else:  # a curtain, a placement, a reveal
            await pilot.press("enter")
        await settle(pilot)
    raise AssertionError(f"{len(app.flow.session.game.actions)} actions, wanted {target}")


def full_disk(monkeypatch) -> None:
    """Every write into a save's temporary file fails as on a full disk."""
    real_write = os.write

    def write(fd, data):
        if os.readlink(f"/proc/self/fd/{fd}").endswith(".tmp"):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_write(fd, data)

    monkeypatch.setattr(os, "write", write)


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc")
async def test_a_full_disk_mid_race_is_told_once_and_the_race_goes_on(tmp_path, monkeypatch):
    monkeypatch.setenv("FLAMME_TUI_DATA_DIR", str(tmp_path))
    app = FlammeApp(seed=21, autoplay=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await start_race(pilot)
        await pick(pilot, 2)
        path = app.autosaver.path
        for _ in range(3000):  # the autosave's write runs in a worker: a moment on a busy machine (at most a minute)
            if saves.peek(path).actions == 2:
                break
            await pilot.pause(0.02)
        assert saves.peek(path).actions == 2
        kept = {p.name: p.read_bytes() for p in path.parent.iterdir()}
        full_disk(monkeypatch)
        await pick(pilot, 4)
        assert len(app.flow.session.game.actions) == 6  # the race goes on
        (note,) = told(app, "Could not save")  # once, with the reason
        assert "the disk is full" in note and "what is already on disk is kept as it was" in note
        assert {p.name: p.read_bytes() for p in path.parent.iterdir()} == kept
        await pilot.press("q")
        assert screen_name(app) == "ConfirmQuit"
        text = " ".join(screen_text(app).split())
        assert "It is saved" not in text and "The last save (2 actions) is behind the race" in text
        assert app.screen.problem.endswith("what was played since will be lost.")
        assert "the disk is full" in app.screen.problem
        await pilot.press("n")
        monkeypatch.undo()
        await pick(pilot, 1)  # the disk has room again: everything is on disk at once
        assert saves.peek(path).actions == 7 and app.autosaver.saved
        await pilot.press("q")
        assert "It is saved" in screen_text(app)
    assert len(told(app, "Could not save")) == 1


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc")
async def test_leaving_while_the_last_save_is_being_written_counts_it_saved_and_asks_again_if_it_fails(
        tmp_path, monkeypatch):
    """The quit dialog said "what was played since will be lost" for a write still
    in its worker, which leaving writes first: it is saved.  If that write
    fails, the app does not quit on the promise: it asks again, saying why."""
    monkeypatch.setenv("FLAMME_TUI_DATA_DIR", str(tmp_path))
    app = FlammeApp(seed=21, autoplay=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await start_race(pilot)
        await pick(pilot, 2)
        app.flush_saves()
        path, saver = app.autosaver.path, app.autosaver
        jobs: list = []
        saver.defer = jobs.append  # the next writes wait, as in a busy worker
        await pick(pilot, 1)
        assert jobs and saves.peek(path).actions == 2 and saver.writing
        await pilot.press("q")
        assert "It is saved" in screen_text(app)
        await pilot.press("n")
        full_disk(monkeypatch)
        await pilot.press("q")
        assert "It is saved" in screen_text(app)
        await pilot.press("y")  # the write fails: no quitting on "It is saved"
        await settle(pilot)
        assert app.is_running and screen_name(app) == "ConfirmQuit"
        assert "It is saved" not in screen_text(app) and "the disk is full" in app.screen.problem
        assert len(told(app, "Could not save")) == 1
        monkeypatch.undo()
        await pilot.press("t")  # the disk has room again: to the title menu, the race on disk first
        await settle(pilot)
        assert screen_name(app) == "TitleScreen"
    assert saves.peek(path).actions == 3


async def test_a_data_dir_that_is_a_file(tmp_path, monkeypatch):
    blocker = tmp_path / "data"
    blocker.write_text("not a folder")
    monkeypatch.setenv("FLAMME_TUI_DATA_DIR", str(blocker))
    app = FlammeApp(seed=5, autoplay=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await start_race(pilot)
        await pick(pilot, 3)
        assert len(app.flow.session.game.actions) == 3
        (note,) = told(app, "Could not save")
        assert f"the saves folder is not a folder ({blocker} is a file)" in note
        await pilot.press("q")
        assert "It is saved" not in screen_text(app)
        assert app.screen.problem.startswith("It could not be saved (the saves folder is not a folder")
        assert app.screen.problem.endswith("the race in progress will be lost.")
    assert blocker.read_text() == "not a folder"


def saved_race(folder: Path, actions: int = 14) -> Path:
    session = Session.new(RaceSpec(), 12, {})  # people at every seat: nothing plays by itself
    autosave = saves.attach_autosave(session, directory=folder / "saves")
    for _ in range(actions):
        seat = next(s for s in range(4) if session.game.needs(s))
        session.apply(POLICIES["easy"](session.game.view(seat)))
    autosave.detach()
    return autosave.path


async def open_resume(app, pilot) -> None:
    for _ in range(60):  # the saves are read in the background
        await pilot.pause(0.05)
        if app.screen.resume_info is not None:
            break
    menu = app.screen.query_one("#title-menu")
    menu.highlighted = menu.get_option_index("resume")
    await pilot.press("enter")
    await pilot.pause()


async def test_a_damaged_save_says_what_was_lost_and_offers_its_backups(tmp_path, monkeypatch):
    monkeypatch.setenv("FLAMME_TUI_DATA_DIR", str(tmp_path))
    path = saved_race(tmp_path)
    path.write_bytes(path.read_bytes()[:-100])
    before = {p.name: p.read_bytes() for p in path.parent.iterdir() if not p.name.endswith(".lock")}
    app = FlammeApp(autoplay=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_resume(app, pilot)
        assert screen_name(app) == "DamagedSave"
        text = app.screen.text()
        assert f"{path.name}, is damaged (truncated)" in text
        assert "holds round 2 after 13 actions" in text and "a new race file (a branch)" in text
        assert "Damaged save" in screen_text(app) and f"Go on from {path.name}.1 (round 2," in screen_text(app)
        await pilot.press("enter")  # the newest backup
        await settle(pilot)
        assert app.flow is not None and screen_name(app) in ("CurtainScreen", "RaceScreen")
        branch = path.with_name(path.name.replace(".json", "-branch-1.json"))
        assert app.autosaver.path == branch and saves.peek(branch).actions == 13
        # said on the screen, not in a toast over the table
        assert "goes on as the new race file" in " ".join(screen_text(app).split())
        assert not told(app, "goes on as the new race file")
    after = {p.name: p.read_bytes() for p in path.parent.iterdir() if p.name in before}
    assert after == before  # the damaged file and its backups are as they were


async def test_a_damaged_save_without_backups_is_shown_not_hidden(tmp_path, monkeypatch):
    monkeypatch.setenv("FLAMME_TUI_DATA_DIR", str(tmp_path))
    path = saved_race(tmp_path, actions=3)
    for n in (1, 2):
        Path(f"{path}.{n}").unlink()
    path.write_bytes(path.read_bytes()[:200])
    app = FlammeApp(autoplay=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_resume(app, pilot)
        assert screen_name(app) == "DamagedSave"
        assert "this race cannot be resumed" in app.screen.text()
        await pilot.press("enter")  # Back
        await pilot.pause()
        assert screen_name(app) == "TitleScreen"
        assert "damaged save, no backups" in screen_text(app)
    assert path.exists()


HOLDER = """
import sys
from flamme_tui import saves
saves.attach_autosave(saves.load(sys.argv[1]))
print("ready", flush=True)
sys.stdin.readline()
"""


async def test_a_race_open_in_another_process_is_refused(tmp_path, monkeypatch):
    monkeypatch.setenv("FLAMME_TUI_DATA_DIR", str(tmp_path))
    path = saved_race(tmp_path, actions=5)
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(path)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().startswith("ready")
        app = FlammeApp(autoplay=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await open_resume(app, pilot)
            assert screen_name(app) == "TitleScreen" and app.flow is None
            (note,) = told(app, "is open in another flamme-tui")
            assert f"pid {holder.pid}" in note
    finally:
        holder.kill()
        holder.wait(10)
        holder.stdin.close()
        holder.stdout.close()
    assert saves.peek(path).actions == 5


async def test_the_title_menu_answers_keys_while_crafted_saves_at_the_size_bound_are_read(data_dir):
    """Issue 23: a crafted save in the saves folder (a string of escaped quotes
    never closed) froze the app at start-up, keys and ctrl+q doing nothing:
    the check before parsing took time growing with the square of its size,
    holding the interpreter in the worker that looks for a race to resume.
    Two such files at the size bound (4 MB) now: the menu answers a key while
    they are read, and the newest is offered as a damaged race."""
    import faulthandler

    from flamme_tui import bench_readers, files

    folder = data_dir / "saves"
    folder.mkdir(parents=True)
    for name in ("escaped quotes, unterminated", "open strings and brackets"):
        data = b'{"format": "flamme-tui-save", ' + bench_readers.JSON_SHAPES[name](files.SAVE_FILE.max_bytes - 40)
        assert len(data) <= files.SAVE_FILE.max_bytes
        (folder / f"{name.split()[0]}.json").write_bytes(data)
    # a freeze would last hours: end the run with the frozen thread's traceback instead
    faulthandler.dump_traceback_later(300, exit=True)
    try:
        app = FlammeApp(seed=1, autoplay=False)
        async with app.run_test(size=(80, 24)) as pilot:
            menu = app.screen.query_one("#title-menu")

            def under_cursor() -> str:  # by id: Resume may come first meanwhile, the cursor stays
                return menu.get_option_at_index(menu.highlighted).id

            assert under_cursor() in ("new", "resume")  # (the cursor on top: it goes to Resume when it comes)
            await pilot.press("down")
            # answered: the cursor left the top, one entry down (New tour; or New race when Resume came
            # first; with Resume come after the key, the cursor stays on its entry)
            assert menu.highlighted >= 1 and under_cursor() in ("tour", "new")
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert "(damaged save, no backups)" in screen_text(app)
            await pilot.press(*["up"] * menu.highlighted)
            assert under_cursor() == "resume"
    finally:
        faulthandler.cancel_dump_traceback_later()


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc")
async def test_a_tour_not_saved_says_the_tour_and_its_stage_not_the_race(tmp_path, monkeypatch):
    """In a tour the race file holds the whole tour: a failed save spoke of "the race"."""
    from flamme_tui.play.flow import RaceFlow
    from flamme_tui.play.tours import next_session
    from flamme_tui.ui.scenarios import tour_after

    monkeypatch.setenv("FLAMME_TUI_DATA_DIR", str(tmp_path))
    app = FlammeApp(seed=21, autoplay=False)
    async with app.run_test(size=(80, 24)) as pilot:
        app.start_flow(RaceFlow(next_session(tour_after(1))))  # the tour's second stage
        await settle(pilot)
        await pick(pilot, 2)
        app.flush_saves()
        path = app.autosaver.path
        assert saves.peek(path).actions == 2
        full_disk(monkeypatch)
        await pick(pilot, 2)
        (note,) = told(app, "Could not save")
        assert note.startswith("Could not save the tour: the disk is full") and "The stage goes on" in note
        assert [n.title for n in app._notifications if n.message == note] == ["Tour not saved"]
        await pilot.press("q")
        assert screen_name(app) == "ConfirmQuit"
        text = " ".join(screen_text(app).split())
        assert "Leave this tour?" in text and "race" not in app.screen.problem
        assert app.screen.problem.startswith("The tour's last save (2 actions into this stage) is behind (the disk")
        # as if no write of this stage had worked: the stages before are on disk; at the first, nothing of the tour
        monkeypatch.setattr(app.autosaver, "saved_actions", None)
        assert app.save_state().startswith("This stage could not be saved (the disk is full")
        monkeypatch.setattr(app, "_stage_of_tour", lambda: 1)
        assert app.save_state().startswith("The tour could not be saved (the disk is full")
        await pilot.press("n")
