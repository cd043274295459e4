"""Listing the saves folder: each race file, its backups and how it stands."""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import NamedTuple

from .. import usertext
from ..i18n import N_, _, ngettext
from .autosave import saves_dir
from .model import FORMAT, SUFFIX, SaveError, _show
from .model import NEWER as NEWER_KIND
from .reading import _BACKUP, SaveInfo, _base_of, _family, _where, peek
from .writing import _file_in_the_way, _printable, save_problem

# ---------------------------------------------------------------- listing

# a saved race's status (marked: the words are shown, translated, where it is listed)
IN_PROGRESS = N_("in progress")
FINISHED = N_("finished")
DAMAGED = N_("damaged")
NEWER = N_("newer version")


class Backup(NamedTuple):
    """A usable older version of a race file (going on from it makes a branch)."""

    path: Path
    info: SaveInfo

    def describe(self) -> str:
        state = _("finished") if self.info.over else _where(self.info)
        n = self.info.actions
        actions = ngettext("{n} action", "{n} actions", n).format(n=n)
        return _("{file} ({state}, {actions}, saved {when})").format(
            file=self.path.name, state=state, actions=actions, when=_clock(self.info.saved))


class SavedRace(NamedTuple):
    """One race file of the saves folder, as `list_saves` finds it.

    - `path`: the race file NAME.json (it may be missing when only backups are left);
    - `status`: IN_PROGRESS, FINISHED, DAMAGED (NAME.json cannot be used:
      `reason` says why) or NEWER (made by a newer flamme-tui: `reason`);
    - `info`: the header of NAME.json (None unless in progress or finished);
    - `backups`: its usable backups, newest first (NAME.json.1, NAME.json.2);
    - `changed`: the time its newest file was written (seconds since the epoch).
    """

    path: Path
    status: str
    reason: str
    info: SaveInfo | None
    backups: tuple[Backup, ...]
    changed: float

    @property
    def over(self) -> bool:
        return self.status == FINISHED

    def describe(self) -> str:
        """One line: the race and its state, or what is wrong and what is left."""
        if self.info is not None:
            return self.info.describe()
        left = _("; backups: {backups}").format(backups=", ".join(b.describe() for b in self.backups)) if self.backups \
            else _("; no usable backup")
        return f"{self.path.name} {self.reason}{left}"


def _clock(stamp: str) -> str:
    """"2026-12-01T21:03:11.123+00:00" -> "2026-12-01 21:03"."""
    return stamp.replace("T", " ")[:16]


def _race_file(base: Path) -> SavedRace | None:
    """What one race file and its backups hold (None: not a save at all)."""
    backups = []
    for other in _family(base)[1:]:
        try:
            if other.is_file():
                backups.append(Backup(other, peek(other)))
        except (SaveError, OSError):
            continue
    try:
        changed = max(p.stat().st_mtime for p in _family(base) if p.is_file())
    except (ValueError, OSError):
        return None  # nothing left of it
    if not base.is_file():
        if base.exists() or base.is_symlink():
            return None  # a folder or some other thing named like a save
        return SavedRace(base, DAMAGED, _("is missing"), None, tuple(backups), changed)
    try:
        info = peek(base)
    except SaveError as exc:
        if not backups and not _looks_like_save(base):
            return None  # some other file that happens to end in .json
        status = NEWER if exc.kind == NEWER_KIND else DAMAGED
        return SavedRace(base, status, exc.reason, None, tuple(backups), changed)
    except OSError as exc:
        return SavedRace(base, DAMAGED, _("cannot be read ({why})").format(why=save_problem(exc)), None, tuple(backups),
                         changed)
    return SavedRace(base, FINISHED if info.over else IN_PROGRESS, "", info, tuple(backups), changed)


def _looks_like_save(path: Path) -> bool:
    """An empty file (a save the system lost the content of), or one that
    starts like a save: the format name is among its first bytes."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(256)
    except OSError:
        return True
    return not head.strip() or FORMAT.encode() in head


def folder_problem(directory: str | Path | None = None) -> str | None:
    """Why the saves folder (default saves_dir()) cannot be listed, in one
    line; None if it can be, or does not exist yet (no race was saved).
    `list_saves` finds nothing in such a folder: this says it is not empty."""
    folder = Path(directory) if directory is not None else saves_dir()
    try:
        with os.scandir(folder) as entries:
            next(entries, None)
    except FileNotFoundError:
        return None
    except OSError as exc:
        why = {errno.EACCES: _("permission denied"), errno.EPERM: _("permission denied"),
               errno.ELOOP: _("too many levels of symbolic links (a symlink loop?)")}.get(exc.errno or 0)
        if exc.errno == errno.ENOTDIR:
            why = _("not a folder ({file} is a file)").format(file=_show(_file_in_the_way(folder) or folder))
        return usertext.clean(_("cannot list the saves folder {folder}: {why}").format(
            folder=_show(folder), why=why or _printable(exc.strerror or str(exc))), multiline=False)
    except Exception as exc:  # noqa: BLE001 - a name the system refuses: said, never raised
        return usertext.clean(_("cannot list the saves folder {folder}: {why}").format(
            folder=_show(folder), why=type(exc).__name__), multiline=False)
    return None


def list_saves(directory: str | Path | None = None) -> list[SavedRace]:
    """Every race file in the saves folder (default saves_dir()), the most
    recently written first, each with its status and usable backups (see
    SavedRace).  Nothing is hidden: a damaged race file, one whose newest
    file is missing, or one made by a newer flamme-tui is listed with the
    reason; only files that are not flamme-tui saves are left out.  Reads
    each file's header, never replays a race."""
    folder = Path(directory) if directory is not None else saves_dir()
    try:
        names = {_base_of(p) for p in folder.iterdir() if p.name.endswith(SUFFIX) or _BACKUP.match(p.name)}
    except OSError:
        return []
    out = []
    for base in names:
        if not base.name.endswith(SUFFIX) or base.name.startswith("."):
            continue
        race = _race_file(base)
        if race is not None:
            out.append(race)
    out.sort(key=lambda r: (r.changed, r.path.name), reverse=True)
    return out


def latest_in_progress(directory: str | Path | None = None) -> Path | None:
    """The race file to offer for Resume: the most recently written one that
    is not finished, or None.  It may be damaged or from a newer flamme-tui:
    `load` then says so and names the backups; a damaged race is never
    passed over for an older one.  A race only bots play (`race --from
    --bots-for-humans` stopped half-way) is offered only when no race that
    people play is in progress: it is not where a player left off."""
    unfinished = [race for race in list_saves(directory) if not race.over]
    played = (race for race in unfinished if race.info is None or race.info.players > 0)
    first = next(played, None) or (unfinished[0] if unfinished else None)
    return first.path if first is not None else None
