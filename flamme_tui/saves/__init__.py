"""Save files: every race can be resumed and replayed, and nothing is lost.

A save holds what rebuilds the race exactly: the setup (course and rules
numbers embedded, so a later edit of a stage file cannot change an old
race), the seed, the bot seats and the log in text form: the actions, and
the `undo` entries of players who took back the last card of their turn
(play.session; such a save is format 3, which older releases refuse as
newer rather than read as damaged).  Two kinds of checksum guard it:

- `checksum`: sha256 over the canonical JSON of every other field, so a
  flipped byte or a truncated file is caught before anything is used;
- `rounds` / `state`: a digest of the game (positions, every rider's piles,
  crashes, round) after each round and after the last action.  `load`
  replays the log and compares them, so a save never comes back as a
  different race (a corrupted log, or rules that changed since).

The seed and the log determine every hidden card: a save file belongs to
the table, not to a player in the middle of a race.

Autosave: `attach_autosave(session)` writes the save after every committed
action, atomically (temporary file, fsync, rename, fsync of the directory),
keeping the two previous saves as `NAME.1` and `NAME.2`.

The package by concern: model (the format), writing, reading, locks,
autosave, listing; this module is its surface.  This package must not
import Textual.
"""

from __future__ import annotations

from ..files import make_folder
from ..setupdata import setup_data  # (the set-up as a save holds it)
from .autosave import Autosave, attach_autosave, new_save_path, saves_dir
from .listing import DAMAGED, FINISHED, IN_PROGRESS, NEWER, Backup, SavedRace, folder_problem, latest_in_progress, list_saves
from .locks import RaceLock
from .model import (
    FORMAT,
    KEEP,
    RACE_VERSION,
    SUFFIX,
    TOUR_VERSION,
    UNDO_VERSION,
    VERSION,
    SaveData,
    SaveError,
    SaveLocked,
    state_digest,
)
from .reading import (
    Record,
    SaveInfo,
    _base_of,
    _free_name,
    branch_path,
    is_backup,
    load,
    load_record,
    load_replay,
    peek,
    race_file,
)
from .writing import _canonical, _checksum, _json_text, _serialise, save, save_document, save_problem, write_atomic

# the package's surface: what the rest of flamme-tui (and its tests) use
__all__ = [
    "setup_data",
    "Autosave",
    "Backup",
    "DAMAGED",
    "FINISHED",
    "FORMAT",
    "IN_PROGRESS",
    "KEEP",
    "NEWER",
    "RACE_VERSION",
    "RaceLock",
    "Record",
    "SUFFIX",
    "SaveData",
    "SaveError",
    "SaveInfo",
    "SaveLocked",
    "SavedRace",
    "TOUR_VERSION",
    "UNDO_VERSION",
    "VERSION",
    "_base_of",
    "race_file",
    "_canonical",
    "_checksum",
    "_free_name",
    "_json_text",
    "_serialise",
    "attach_autosave",
    "branch_path",
    "folder_problem",
    "is_backup",
    "latest_in_progress",
    "list_saves",
    "load",
    "load_record",
    "load_replay",
    "make_folder",
    "new_save_path",
    "peek",
    "save",
    "save_document",
    "save_problem",
    "saves_dir",
    "state_digest",
    "write_atomic",
]
