"""Locks: one process at a time holds a race file."""

from __future__ import annotations

import datetime as _dt
import errno
import json
import os
import re
import socket
from pathlib import Path
from typing import TYPE_CHECKING

from ..i18n import _
from ..pathtext import served
from .model import SaveLocked

if TYPE_CHECKING:  # (autosave imports this module)
    from .autosave import Autosave

# ------------------------------------------------------------------- locks


def _lock_path(path: Path) -> Path:
    return path.with_name(f"{path.name}.lock")


_HELD: dict[str, RaceLock] = {}  # the race files this process holds, by absolute path


class RaceLock:
    """The lock on one race file: `NAME.json.lock`, holding the pid, host
    and start time of the process that writes the race.

    The lock is the operating system's (flock; on Windows msvcrt.locking)
    on that file, so it goes with the process: a killed flamme-tui never
    leaves a lock that blocks resuming.  The file's text is only there to
    say who holds it.  Inside one process, taking a race file again hands
    the lock over (the earlier Autosave stops writing)."""

    def __init__(self, race: Path, fd: int) -> None:
        self.race = race
        self.path = _lock_path(race)
        self.fd: int | None = fd
        self.owner: Autosave | None = None

    @classmethod
    def take(cls, race: Path) -> RaceLock:
        """Lock `race` (SaveLocked if another process has it, OSError if the
        lock file cannot be made)."""
        race = Path(race)
        key = str(race.absolute())
        held = _HELD.get(key)
        if held is not None and held.fd is not None:
            if held.owner is not None:
                held.owner.stop()
            return held
        lock_file = _lock_path(race)
        flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
        for _attempt in range(20):
            fd = os.open(lock_file, flags, 0o644)
            try:
                if not _os_lock(fd):
                    # a browser player (served) is told no pid or host name of the server
                    holder = "" if served() else f" ({_read_holder(fd)})"
                    raise SaveLocked(race, _("is open in another flamme-tui{holder}: close it there first").format(holder=holder))
                try:
                    same = os.stat(lock_file, follow_symlinks=False).st_ino == os.fstat(fd).st_ino
                except FileNotFoundError:
                    same = False
                if not same:  # its holder let it go and removed it meanwhile: take the new one
                    os.close(fd)
                    continue
                os.ftruncate(fd, 0)
                stamp = _dt.datetime.now().astimezone().isoformat(timespec="seconds")
                me = {"pid": os.getpid(), "host": socket.gethostname(), "started": stamp}
                os.write(fd, (json.dumps(me) + "\n").encode("ascii", "replace"))
            except BaseException:
                os.close(fd)
                raise
            lock = cls(race, fd)
            _HELD[key] = lock
            return lock
        raise OSError(errno.EAGAIN, "the lock file keeps changing", str(lock_file))

    def release(self) -> None:
        if self.fd is None:
            return
        if _HELD.get(str(self.race.absolute())) is self:
            del _HELD[str(self.race.absolute())]
        try:
            self.path.unlink()  # while still held: nobody can take the old file meanwhile
        except OSError:
            pass
        os.close(self.fd)  # closing lets the lock go
        self.fd = None


def _os_lock(fd: int) -> bool:
    """Take the operating system's lock on the open file; False if another
    process holds it."""
    try:
        import fcntl
    except ImportError:  # Windows
        import msvcrt

        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)  # type: ignore[attr-defined]
        except OSError:
            return False
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _read_holder(fd: int) -> str:
    """Who holds a lock, from its file: "pid 123 on host, since 21:03"; only
    a number and plain name characters are taken from it."""
    try:
        os.lseek(fd, 0, os.SEEK_SET)
        doc = json.loads(os.read(fd, 1024).decode("ascii", "replace"))
        pid = int(doc["pid"])
        host = re.sub(r"[^A-Za-z0-9._-]", "", str(doc.get("host", "")))[:64] or "?"
        since = re.sub(r"[^0-9T:+-]", "", str(doc.get("started", "")))[:25]
        when = _(", since {when}").format(when=since.replace("T", " ")[:16]) if since else ""
        return _("pid {pid} on {host}{when}").format(pid=pid, host=host, when=when)
    except Exception:  # noqa: BLE001 - being written this very moment, or not ours
        return _("another process")


