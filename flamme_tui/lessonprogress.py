"""A lesson's progress between visits (the tutorial, play/tutorial.py): the
player's actions so far, in a small JSON file in the data folder
(`lessons/ID.json`), written atomically after every choice; a lesson
finished or skipped forgets it.  A file that cannot be read or does not
replay starts the lesson again rather than fail.  A lesson played to its end
leaves `lessons/ID.done` instead, for the menu's "done" (a skipped one does
not; starting it again keeps it: it was done once)."""

from __future__ import annotations

import json
from pathlib import Path

from .play.lessons import Entry
from .play.tutorial import Tutorial

MAX_PROGRESS = 64 * 1024  # bytes of a progress file


def progress_path(entry: Entry) -> Path:
    from .config import user_data_dir

    return user_data_dir() / "lessons" / f"{entry.id}.json"


def done_path(progress: Path) -> Path:
    """Where a lesson played to its end is said done: beside its progress file."""
    return progress.with_suffix(".done")


def save_progress(tutorial: Tutorial, path: Path | None = None) -> None:
    """The player's actions so far, written atomically (a lesson over or not begun: the file goes;
    over: the lesson is marked done)."""
    from .saves import write_atomic

    path = progress_path(tutorial.entry) if path is None else path
    if tutorial.over:  # played to its end: done, and nothing to go on from
        write_atomic(done_path(path), json.dumps({"lesson": tutorial.entry.id}).encode("ascii"), keep=1)
    if tutorial.over or not tutorial.actions_text():  # over, or not begun: nothing to go on from
        path.unlink(missing_ok=True)
        return
    data = {"lesson": tutorial.entry.id, "actions": tutorial.actions_text()}
    write_atomic(path, json.dumps(data).encode("ascii"), keep=1)


def load_progress(entry: Entry, path: Path | None = None) -> Tutorial | None:
    """The lesson as it was left (None: not started, or a file that does not replay:
    the lesson starts again rather than fail)."""
    from . import files

    path = progress_path(entry) if path is None else path
    try:
        text, _ = files.read_text(path, files.FileKind("lesson progress file", MAX_PROGRESS, 4))
        data = json.loads(text)
        actions = data["actions"]
        if data.get("lesson") != entry.id or not isinstance(actions, list) or not all(
                isinstance(a, str) for a in actions):
            return None
        return Tutorial(entry, actions)
    except Exception:  # noqa: BLE001 - whatever is wrong with it (unreadable, not JSON, not legal): start again
        return None


def has_progress(entry: Entry) -> bool:
    try:
        return progress_path(entry).is_file()
    except OSError:
        return False


def is_done(entry: Entry, path: Path | None = None) -> bool:
    """The lesson was played to its end once (the menu says "done")."""
    try:
        return done_path(progress_path(entry) if path is None else path).is_file()
    except OSError:
        return False


def forget_progress(entry: Entry) -> None:
    try:
        progress_path(entry).unlink(missing_ok=True)
    except OSError:
        pass
