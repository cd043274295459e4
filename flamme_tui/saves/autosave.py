"""Autosave: the race written after every committed action, off the UI thread."""

from __future__ import annotations

import datetime as _dt
import os
import threading
from collections.abc import Callable
from pathlib import Path

from ..engine.actions import Action
from ..engine.race import Race
from ..files import make_folder
from ..i18n import _
from ..play.session import UNDO, Session
from .locks import RaceLock
from .model import DAMAGED, KEEP, SaveError, SaveLocked, _round_checks, state_digest
from .reading import _free_name, branch_path, is_backup, peek
from .writing import _Encoder, _kind, _now, _Snapshot, _snapshot, _tmp_prefix, write_atomic

# ----------------------------------------------------------------- autosave


def saves_dir() -> Path:
    """Where autosaves go: the user data directory's saves/ folder
    ($FLAMME_TUI_DATA_DIR/saves when that variable is set)."""
    from ..config import user_data_dir

    return user_data_dir() / "saves"


def new_save_path(session: Session, directory: str | Path | None = None) -> Path:
    """A race file name nobody uses yet in `directory` (default saves_dir()):
    DATE-TIME-VARIANT.json, with -2, -3, ... when taken."""
    folder = Path(directory) if directory is not None else saves_dir()
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    return _free_name(folder, f"{stamp}-{_kind(session)}")


class Autosave:
    """A Session listener writing the save after every committed action.

    Build with `attach_autosave`, which takes the race file's lock.  A failed
    write never stops the game and never touches the last good save: the
    error is kept in `error` (None once a write succeeds again), and
    `on_error(exc)` is called once for each run of failures, on its first
    one, from the thread that wrote, so the player is told once;
    `save_problem(exc)` says why in words.  `saved_actions` is the length of
    the action log on disk (None before a first good write).  When the race
    is over and saved, the lock is let go.

    A write is two steps: `encode` takes the save as it stands, on the thread
    that changes the game; `store` writes the newest state taken, fsync'ed,
    on any thread (`defer`: the app runs it in a worker).  Stores run one at a
    time and only ever write a state newer than the one on disk, so an older
    state never replaces a newer one whatever order the workers run in;
    `flush` writes whatever is still pending (before quitting).
    """

    def __init__(self, session: Session, path: Path, on_error: Callable[[Exception], None] | None = None) -> None:
        self.session = session
        self.path = path
        self.on_error = on_error
        self.error: Exception | None = None
        self.saved_actions: int | None = None
        self.lock: RaceLock | None = None
        self.stopped = False  # another Autosave of this process took the race file over
        self._told = False  # on_error has heard of the current run of failures
        self.race = getattr(session, "race_id", None) or path.stem
        self.created = getattr(session, "created", None) or _now()
        self._game: Race | None = None  # the game object the round checks were computed on
        self._count = 0  # the number of log entries then
        self._rounds: list[dict] = []
        # where `store` runs after each action: None writes at once; else a
        # function that runs the callable it is given (in a worker thread)
        self.defer: Callable[[Callable[[], bool]], object] | None = None
        self._pending: tuple[int, _Snapshot | None, int, bool] = (0, None, 0, False)  # the newest state taken, numbered
        self._encoder = _Encoder()  # used under _store_lock only
        self._written = 0  # the number of the newest state stored (or failed)
        self._store_lock = threading.Lock()

    @property
    def saved(self) -> bool:
        """Everything played so far is on disk."""
        return self.error is None and self.saved_actions == len(self.session.entries)

    @property
    def writing(self) -> bool:
        """Everything played so far is taken and waits only for its write (in a
        worker): `flush` puts it on disk, or sets `error`."""
        number, _snap, actions, _over = self._pending
        return (self.error is None and not self.stopped and number > self._written
                and actions == len(self.session.entries))

    def _checks(self) -> list[dict]:
        game: Race = self.session.game
        count = len(self.session.entries)
        if game is self._game and count == self._count:
            return self._rounds
        if game is self._game and count == self._count + 1:
            if game.rounds_done > (self._rounds[-1]["round"] if self._rounds else 0):  # as _round_checks
                self._rounds.append({"round": game.rounds_done, "actions": count, "state": state_digest(game)})
        elif self._game is not None and count == self._count + 1 and self.session.entries[-1] == UNDO:
            # an undo (the game rebuilt without the last action): the rounds it left stand as they were
            self._rounds = [c for c in self._rounds if c["round"] <= game.rounds_done]
            self._game = game
        else:  # first write, or another game object (rebuilt from the actions): replay once
            self._rounds = _round_checks(self.session.setup, self.session.seed, self.session.entries)
            self._game = game
        self._count = count
        return self._rounds

    def write(self) -> bool:
        """Save now: encode and store; False (and `error` set) if that failed."""
        self.encode()
        return self.store()

    def encode(self) -> None:
        """Take the save as it stands (reads the game: on the thread that
        changes it).  Only a snapshot is taken here; `store` builds and
        encodes the document, in order, off this thread when deferred."""
        snap = _snapshot(self.session, race=self.race, created=self.created, rounds=list(self._checks()))
        # one assignment, read whole by `store`: (number, snapshot, actions in it, race over)
        self._pending = (self._pending[0] + 1, snap, len(snap.actions), snap.summary["over"])

    def store(self) -> bool:
        """Write the newest state encoded, unless a newer or the same one is
        on disk already; any thread.  False if the write failed."""
        with self._store_lock:
            if self.stopped:
                return False
            number, snap, actions, over = self._pending
            if snap is None or number <= self._written:
                return self.error is None
            self._written = number
            first = False
            data = self._encoder.encode(snap)
            try:
                if self.lock is None or self.lock.fd is None:
                    make_folder(self.path.parent)  # the lock goes in it: say why it cannot be made
                    self.lock = RaceLock.take(self.path)
                    self.lock.owner = self
                write_atomic(self.path, data, KEEP)
            except (OSError, SaveLocked) as exc:  # SaveLocked: another process has the file now
                first = self.error is None
                self.error = exc
            else:
                self.error = None
                self.saved_actions = actions
                if over:
                    self.close()
            error = self.error
        if error is not None:
            if first:
                self._told = self.on_error is not None
                if self.on_error is not None:
                    self.on_error(error)
            return False
        return True

    def flush(self) -> bool:
        """Write what is still pending, waiting for a write in progress; after
        a failed write, the newest state is tried once more (leaving the race:
        the last chance to have it on disk; a failure again is not told again)."""
        if self.error is not None:
            with self._store_lock:
                self._written = min(self._written, self._pending[0] - 1)
        return self.store()

    def __call__(self, session: Session, action: Action | str) -> None:
        self.encode()
        if self.defer is None:
            self.store()
        else:
            self.defer(self.store)

    def stop(self) -> None:
        """Write no more (the race file was taken over in this process)."""
        self.stopped = True
        self.lock = None
        self.detach()

    def close(self) -> None:
        """Let the race file go: its lock is released (the next write takes it again)."""
        if self.lock is not None and self.lock.owner is self:
            self.lock.release()
        self.lock = None

    def detach(self) -> None:
        """Stop saving this session, and let the race file go."""
        if self in self.session.listeners:
            self.session.listeners.remove(self)
        self.close()


def _set_aside_if_damaged(path: Path) -> None:
    """Before writing to NAME again, keep a damaged NAME as NAME.damaged
    (NAME.damaged-2, ... : never over an earlier one)."""
    if not path.exists():
        return
    try:
        peek(path)
    except SaveError as exc:
        if exc.kind == DAMAGED:
            aside = path.with_name(path.name + ".damaged")
            n = 2
            while aside.exists():
                aside = path.with_name(f"{path.name}.damaged-{n}")
                n += 1
            os.replace(path, aside)


def _clean_tmp(path: Path) -> None:
    """Remove temporary files a killed writer of this race file left (only
    with the race file's lock held: nobody else is writing it)."""
    for stale in path.parent.glob(f"{_tmp_prefix(path)}*.tmp"):
        try:
            if stale.is_file() or stale.is_symlink():
                stale.unlink()
        except OSError:
            pass


def attach_autosave(
    session: Session,
    path: str | Path | None = None,
    *,
    directory: str | Path | None = None,
    on_error: Callable[[Exception], None] | None = None,
) -> Autosave:
    """Lock the race file, save the session now and after every committed action.

    The file is `path`, else the file the session was loaded from (a branch
    for a session loaded from a backup), else a new file in `directory`
    (default saves_dir()).  A backup given as `path` is never written to:
    the race goes on in a branch.  Raises SaveLocked if another running
    flamme-tui has that race file open; any other failure (a full disk, a
    read-only or missing folder) is only kept in `error` and passed to
    `on_error`, and the race goes on.  Attaching twice returns the autosave
    already attached (with `on_error` set if given).
    """
    for listener in session.listeners:
        if isinstance(listener, Autosave) and not listener.stopped:
            if on_error is not None:
                listener.on_error = on_error
                if listener.error is not None and not listener._told:  # failed before anyone listened
                    listener._told = True
                    on_error(listener.error)
            return listener
    fresh = path is None and getattr(session, "save_path", None) is None
    if path is None:
        path = getattr(session, "save_path", None) or new_save_path(session, directory)
    path = Path(path)
    if is_backup(path):
        session.branch_of = path
        path = branch_path(path)
    autosave = Autosave(session, path, on_error)
    try:
        make_folder(path.parent)
        for _attempt in range(100):
            try:
                lock = RaceLock.take(path)
            except SaveLocked:
                if not fresh:
                    raise
                lock = None  # another new race is taking that name this very second
            if lock is not None and not (fresh and path.exists()):
                break
            if lock is not None:
                lock.release()  # another new race took that name this very second
            path = new_save_path(session, path.parent)
            autosave.path = path
        else:
            raise SaveLocked(path.parent, _("has no free race file name: every name tried is in use"))
        autosave.lock = lock
        lock.owner = autosave
        _clean_tmp(path)
        _set_aside_if_damaged(path)
    except SaveLocked:
        raise
    except OSError:  # the write below reports it
        autosave.lock = None
    session.save_path = path
    autosave.write()
    session.listeners.append(autosave)
    return autosave


