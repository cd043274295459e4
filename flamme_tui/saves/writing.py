"""Writing a save: the document, its checksum, atomic writes that keep the previous versions."""

from __future__ import annotations

import datetime as _dt
import errno
import hashlib
import json
import os
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import __version__, usertext
from ..engine.phase import Phase
from ..files import make_folder
from ..i18n import _
from ..play.session import UNDO, Session
from ..setupdata import (
    setup_data,
)
from .model import FORMAT, KEEP, SaveLocked, _round_checks, _show, _version, state_digest

# ------------------------------------------------------------------ writing


def _now() -> str:
    return _dt.datetime.now(_dt.UTC).astimezone().isoformat(timespec="milliseconds")


def _canonical(body: dict) -> bytes:
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode("ascii")


def _checksum(body: dict) -> str:
    return hashlib.sha256(_canonical({k: v for k, v in body.items() if k != "checksum"})).hexdigest()


def save_document(session: Session, *, race: str = "", created: str = "", rounds: list[dict] | None = None) -> dict:
    """The save of a session as a JSON-ready dict (checksum included)."""
    snap = _snapshot(session, race=race, created=created, rounds=rounds)
    body = _body(snap, setup_data(snap.setup))
    if snap.tour is not None:
        body["tour"] = _tour_data(snap.tour)
    body["checksum"] = _checksum(body)
    return body


@dataclass(frozen=True, slots=True)
class _Snapshot:
    """What a save needs from a session at one moment, taken on the thread
    that changes the game (cheap: the log as text, the digest, the summary);
    the set-up and the tour's finished stages are values that no action
    changes, so the document is built and encoded from this on any thread."""

    race: str
    created: str
    saved: str
    summary: dict
    setup: Any
    seed: int
    bots: dict[str, str]
    actions: list[str]
    rounds: list[dict]
    state: str
    undo: bool
    tour: Any  # play.tours.Tour (the stages before this one), or None
    done: tuple  # the tour's finished stages, as they were at the snapshot
    hints: tuple[tuple[int, int], ...] = ()  # (seat, log entries then) of each hint shown


def _snapshot(session: Session, *, race: str = "", created: str = "", rounds: list[dict] | None = None) -> _Snapshot:
    game = session.game
    if rounds is None:
        rounds = _round_checks(session.setup, session.seed, session.entries)
    now = _now()
    tour = getattr(session, "tour", None)
    done = tuple(tour.done) if tour is not None else ()
    undo = session.has_undo or any(UNDO in d.entries for d in done)
    return _Snapshot(race or _race_id(session), created or now, now, _summary(game, tour), session.setup,
                     session.seed, {str(seat): name for seat, name in sorted(session.bots.items())},
                     session.actions_text(), rounds, state_digest(game), undo, tour, done,
                     tuple(getattr(session, "hints", ())))


def _body(snap: _Snapshot, setup: dict) -> dict:
    """The save's fields but the tour and the checksum."""
    return {
        "format": FORMAT,
        "version": _version(snap.tour is not None, snap.undo),
        "app": f"flamme-tui {__version__}",
        "race": snap.race,
        "created": snap.created,
        "saved": snap.saved,
        "summary": snap.summary,
        "setup": setup,
        "seed": snap.seed,
        "bots": snap.bots,
        "actions": snap.actions,
        "rounds": snap.rounds,
        "state": snap.state,
        # only when a hint was shown: a save without hints reads in a flamme-tui without them
        **({"hints": [{"seat": seat, "at": at} for seat, at in snap.hints]} if snap.hints else {}),
    }


def _summary(game, tour=None) -> dict:
    """The menus' line; for a tour's stage (`tour`: the stages before it) the
    race is over only once the tour is."""
    from ..play.narrator import rider_name

    summary = {
        "title": game.setup.course.name,
        "variant": game.variant,
        # the names as the set-up holds them, the winner too (not as shown now: a race set up in
        # French keeps "Bleu" in its set-up, its summary and its check when it is read, in any language)
        "teams": [t.name for t in game.setup.teams],
        "round": game.round,
        "phase": game.phase,
        "over": game.phase == Phase.OVER,
        "winner": None if game.winner is None else rider_name(game, game.winner, as_saved=True),
    }
    if tour is not None:
        last = game.phase == Phase.OVER and len(tour.done) + 1 == tour.stages
        winner = None
        if last:
            after = tour.with_stage(game)  # (for its ranking: the stage's log plays no part)
            winner = after.teams[after.ranking()[0].team].name
        summary["over"] = last
        summary["tour"] = {"name": tour.name, "stage": len(tour.done) + 1, "stages": tour.stages, "winner": winner}
    return summary


def _tour_data(tour, done: tuple | None = None) -> dict:
    return {
        "name": tour.name,
        "seed": tour.seed,
        "legs": [setup_data(leg) for leg in tour.legs],
        "done": [{"actions": [str(e) for e in d.entries], "state": state_digest(d.game)}
                 for d in (tour.done if done is None else done)],
    }


_SPLICE = "\x00tour\x00"  # stands for the tour in a document while it is encoded (no saved text holds a NUL)


class _Encoder:
    """Encodes an autosave's snapshots into file bytes, keeping what does not
    change from one action to the next: the set-up's data, and the tour's
    legs and finished stages as data, canonical JSON (for the checksum) and
    laid-out text.  A tour of 21 stages then costs what its current stage
    does.  The bytes are exactly `_serialise(save_document(...))`'s."""

    def __init__(self) -> None:
        self._setup: tuple[Any, dict] | None = None
        self._tour: tuple[Any, int, str, str] | None = None  # (tour, stages done, canonical, laid out)

    def encode(self, snap: _Snapshot) -> bytes:
        if self._setup is None or self._setup[0] is not snap.setup:
            self._setup = (snap.setup, setup_data(snap.setup))
        body = _body(snap, self._setup[1])
        if snap.tour is None:
            body["checksum"] = _checksum(body)
            return _serialise(body)
        if self._tour is None or self._tour[0] is not snap.tour or self._tour[1] != len(snap.done):
            data = _tour_data(snap.tour, snap.done)
            self._tour = (snap.tour, len(snap.done), _canonical(data).decode("ascii"), _json_text(data, " "))
        _made, _done, canonical, laid_out = self._tour
        body["tour"] = _SPLICE
        spliced = json.dumps(_SPLICE)
        body["checksum"] = hashlib.sha256(_canonical(body).decode("ascii").replace(spliced, canonical, 1)
                                          .encode("ascii")).hexdigest()
        return (_json_text(body).replace(spliced, laid_out, 1) + "\n").encode("ascii")


def _kind(session: Session) -> str:
    """A race file's name says its rule set, or that it is a tour."""
    return "tour" if getattr(session, "tour", None) is not None else session.game.variant


def _race_id(session: Session) -> str:
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    return f"{stamp}-{_kind(session)}-{os.getpid()}"


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return  # Windows cannot open a directory: its renames are durable enough
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _backup(path: Path, n: int) -> Path:
    return path.with_name(f"{path.name}.{n}")


def _tmp_prefix(path: Path) -> str:
    return f".{path.name}."


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def write_atomic(path: Path, data: bytes, keep: int = KEEP) -> None:
    """Write `data` to `path` so that a crash at any moment leaves either the
    old or the new file complete, keeping `keep - 1` previous versions
    (NAME.1 the newest).  At every moment NAME exists once it was written.

    The temporary file gets a random name and is created exclusively
    (O_CREAT | O_EXCL, never following a symlink), so nothing planted at its
    name is ever written through.  A failed write (a full disk, a read-only
    folder) removes it and leaves NAME and its backups as they were."""
    folder = path.parent
    make_folder(folder)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0) | getattr(os, "O_NOFOLLOW", 0)
    while True:
        tmp = folder / f"{_tmp_prefix(path)}{os.getpid()}-{secrets.token_hex(6)}.tmp"
        try:
            fd = os.open(tmp, flags, 0o600)
            break
        except FileExistsError:  # someone's file at that random name: draw another
            continue
    try:
        try:
            _write_all(fd, data)
            os.fsync(fd)
        except OSError as exc:  # name the file: the message says where the disk is full
            raise OSError(exc.errno, exc.strerror or str(exc), str(tmp)) from exc
        finally:
            os.close(fd)
        if keep > 1 and path.exists():
            for n in range(keep - 1, 1, -1):  # NAME.1 -> NAME.2 ...
                older = _backup(path, n - 1)
                if older.exists():
                    os.replace(older, _backup(path, n))
            first = _backup(path, 1)
            try:
                first.unlink(missing_ok=True)
                os.link(path, first)  # NAME stays in place while NAME.1 appears
            except OSError:
                import shutil

                shutil.copy2(path, first)
        os.replace(tmp, path)
    except OSError:
        try:
            tmp.unlink()
        except OSError:
            pass
        raise
    _fsync_dir(folder)


def save_problem(exc: BaseException) -> str:
    """Why a save could not be written, in a few words for the player
    ("the disk is full", "the saves folder is read-only", ...), one line
    safe to print (file names may hold control characters), never failing."""
    try:
        return usertext.clean(_save_problem(exc), multiline=False)
    except Exception:  # noqa: BLE001 - the message itself must never fail
        return type(exc).__name__


def _save_problem(exc: BaseException) -> str:
    try:
        where = getattr(exc, "filename", None)
        code = getattr(exc, "errno", None)
        if where:  # the folder the save goes to (the file was a temporary file or a lock)
            place = Path(where) if code == errno.ENOTDIR or Path(where).is_dir() else Path(where).parent
            folder = f" ({_show(place)})"
        else:
            folder = ""
        if isinstance(exc, SaveLocked):
            return str(exc)
        if code == errno.ELOOP:
            return _("the saves folder is a symlink loop ({folder})").format(folder=_show(Path(where))) if where \
                else _("a symlink loop")
        if code == errno.ENOENT and where and os.path.islink(where):
            return _("the saves folder is a symbolic link to nothing ({folder})").format(folder=_show(Path(where)))
        if code in (errno.ENOSPC, getattr(errno, "EDQUOT", -1)):
            return _("the disk is full{folder}").format(folder=folder)
        if code == errno.EROFS:
            return _("the disk is read-only{folder}").format(folder=folder)
        if code in (errno.EACCES, errno.EPERM):
            return _("no permission to write there{folder}").format(folder=folder)
        if code in (errno.ENOTDIR, errno.EEXIST) or isinstance(exc, (NotADirectoryError, FileExistsError)):
            blocker = _file_in_the_way(Path(where)) if where else None
            return _("the saves folder is not a folder ({file} is a file)").format(file=_show(blocker)) if blocker \
                else _("the saves folder is not a folder{folder}").format(folder=folder)
        text = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
        return f"{_printable(text)}{folder}"
    except Exception:  # noqa: BLE001 - the message itself must never fail
        return type(exc).__name__


def _file_in_the_way(path: Path) -> Path | None:
    """The first of `path` and its parents that exists and is not a folder
    (None if there is none, or the system will not say)."""
    try:
        return next((p for p in (path, *path.parents) if p.exists() and not p.is_dir()), None)
    except OSError:
        return None


def _printable(text: str) -> str:
    """Text from the system or a file, made safe for a terminal line."""
    return "".join(c if c.isprintable() else "?" for c in str(text))[:200]


def _json_text(value: Any, indent: str = "") -> str:
    """JSON laid out for people: one key per line, short lists of numbers on
    one line, the action log one action per line."""
    inner = indent + " "
    if isinstance(value, dict):
        flat = json.dumps(value, ensure_ascii=True, separators=(", ", ": "))
        if all(not isinstance(v, (dict, list)) for v in value.values()) and len(flat) <= 72:
            return flat
        items = [f"{inner}{json.dumps(k)}: {_json_text(v, inner)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    if isinstance(value, list):
        flat = json.dumps(value, ensure_ascii=True, separators=(", ", ": "))
        scalars = all(not isinstance(v, (dict, list)) for v in value)
        if scalars and (len(flat) <= 100 or not all(isinstance(v, str) for v in value)):
            return flat
        return "[\n" + ",\n".join(inner + _json_text(v, inner) for v in value) + "\n" + indent + "]"
    return json.dumps(value, ensure_ascii=True)


def _serialise(doc: dict) -> bytes:
    return (_json_text(doc) + "\n").encode("ascii")


def save(session: Session, path: str | Path, *, keep: int = 1) -> Path:
    """Write the session's save to `path` atomically (keep=3: with rotation)."""
    path = Path(path)
    doc = save_document(session)
    write_atomic(path, _serialise(doc), keep)
    return path


