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

This module must not import Textual.
"""

from __future__ import annotations

import datetime as _dt
import errno
import hashlib
import json
import os
import re
import secrets
import socket
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal, NamedTuple

from pydantic import (
    BaseModel,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    ValidationError,
    field_validator,
    model_validator,
)

from . import __version__, files, usertext
from . import limits as lim
from .engine.actions import Action, ActionError
from .engine.phase import Phase
from .engine.race import Race, RuleError
from .engine.rules import find
from .files import make_folder
from .pathtext import served, show_path
from .play.session import UNDO, Session, UndoRefused, parse_entry
from .setupdata import (
    MODEL,
    ClassicSetupData,
    Label,
    SetupData,
    TeamName,
    a_name,
    no_control,
    setup_data,
    setup_from_data,
    stage_from_data,
)
from .words import plural

__all__ = [
    "FORMAT",
    "VERSION",
    "RACE_VERSION",
    "TOUR_VERSION",
    "UNDO_VERSION",
    "Autosave",
    "Backup",
    "DAMAGED",
    "FINISHED",
    "IN_PROGRESS",
    "NEWER",
    "RaceLock",
    "SaveLocked",
    "SavedRace",
    "branch_path",
    "folder_problem",
    "is_backup",
    "make_folder",
    "save_problem",
    "SaveError",
    "SaveInfo",
    "attach_autosave",
    "latest_in_progress",
    "list_saves",
    "load",
    "load_record",
    "load_replay",
    "new_save_path",
    "Record",
    "peek",
    "save",
    "saves_dir",
    "state_digest",
]

FORMAT = "flamme-tui-save"
VERSION = 3  # the newest save format this version reads
RACE_VERSION = 1  # the format a race is written in (any flamme-tui since saves reads it)
TOUR_VERSION = 2  # the format a tour is written in: a race save plus the tour (`TourData`)
# the format of a race or tour whose log (a stage's log) holds an undo: older
# releases read no `undo`, so they say "newer version" and never write over it
UNDO_VERSION = 3
KEEP = 3  # the save and its two previous versions: NAME, NAME.1, NAME.2
SUFFIX = ".json"


class SaveError(Exception):
    """A save that cannot be used; str() is one line naming the file, what is
    wrong and the backups that can be used instead."""

    def __init__(self, path: Path | str, reason: str, *, backups: list[tuple[Path, str]] | None = None) -> None:
        self.path = Path(path)
        self.reason = reason
        self.backups = list(backups or [])  # (path, "round 7" / "finished")
        super().__init__(str(self))

    def __str__(self) -> str:
        try:
            shown = _show(self.path)
        except RuntimeError:  # Path.resolve() on a symlink loop (Python < 3.13)
            shown = str(self.path)
        text = f"{shown} {self.reason}"
        if self.backups:
            text += "; backups: " + ", ".join(f"{p.name} ({what})" for p, what in self.backups)
        return usertext.clean(text, multiline=False)  # file names may hold control characters: written out


def _show(path: Path) -> str:
    return show_path(path)  # never fails: error messages use it


# ---------------------------------------------------------------- the format

# the set-up's part of the format (its models and codec) is setupdata.py, which
# play/ uses too (the bots' thinker): saves.py is above play/, setupdata.py below
Hex = Annotated[StrictStr, Field(pattern=r"^[0-9a-f]{64}$")]


class RoundCheck(BaseModel):
    model_config = MODEL
    round: StrictInt = Field(ge=1, le=lim.MAX_ROUNDS)
    actions: StrictInt = Field(ge=1, le=lim.MAX_ACTIONS)  # length of the log when the round ended
    state: Hex


class HintTaken(BaseModel):
    """A hint a seat was shown (play.session.Session.hints): not an action, so
    replays and the round checks do not see it; the podium says "with hints"."""

    model_config = MODEL
    seat: StrictInt = Field(ge=0, lt=lim.MAX_TEAMS)
    at: StrictInt = Field(ge=0, le=lim.MAX_ACTIONS)  # entries in the log when it was shown


class TourSummary(BaseModel):
    """A tour's line in the menus: its name, the stage being raced (1 = the
    first) of how many, and once it is over the winning team."""

    model_config = MODEL
    name: Annotated[StrictStr, Field(min_length=1, max_length=lim.MAX_TOUR_NAME)]
    stage: StrictInt = Field(ge=1, le=lim.MAX_TOUR_STAGES)
    stages: StrictInt = Field(ge=1, le=lim.MAX_TOUR_STAGES)
    winner: TeamName | None

    @field_validator("name", "winner")
    @classmethod
    def _no_control(cls, value: Any) -> Any:
        return a_name(value)


class Summary(BaseModel):
    """What a menu shows without replaying (checked against the replay on load).
    For a tour the race is the stage being raced, and `over` says the tour is."""

    model_config = MODEL
    title: Annotated[StrictStr, Field(max_length=lim.MAX_STAGE_NAME)]
    variant: Literal["classic", "meteo", "bmx"]
    teams: tuple[TeamName, ...] = Field(max_length=lim.MAX_TEAMS)
    round: StrictInt = Field(ge=0, le=lim.MAX_ROUNDS + 1)
    phase: Label
    over: StrictBool
    winner: Annotated[StrictStr, Field(max_length=lim.MAX_LABEL)] | None
    tour: TourSummary | None = None

    @field_validator("title", "winner")
    @classmethod
    def _no_control(cls, value: Any) -> Any:
        return no_control(value)

    @field_validator("teams")
    @classmethod
    def _names(cls, value: Any) -> Any:
        return a_name(value)


class StageLog(BaseModel):
    """A finished stage of a tour: its action log and a digest of its end."""

    model_config = MODEL
    actions: tuple[Annotated[StrictStr, Field(max_length=lim.MAX_ACTION_TEXT)], ...] = Field(max_length=lim.MAX_ACTIONS)
    state: Hex


class TourData(BaseModel):
    """A tour (format 2): its name, seed and every stage's set-up as it was
    built when the tour began, and the stages finished before the one the
    save's race is.  With the stage logs this is the whole tour (play.tours.Tour)."""

    model_config = MODEL
    name: Annotated[StrictStr, Field(min_length=1, max_length=lim.MAX_TOUR_NAME)]
    seed: StrictInt = Field(ge=-lim.MAX_SEED, le=lim.MAX_SEED)
    legs: tuple[ClassicSetupData, ...] = Field(min_length=1, max_length=lim.MAX_TOUR_STAGES)
    done: tuple[StageLog, ...] = Field(max_length=lim.MAX_TOUR_STAGES - 1)

    @field_validator("name")
    @classmethod
    def _no_control(cls, value: Any) -> Any:
        return a_name(value)

    @model_validator(mode="after")
    def _consistent(self) -> TourData:
        if len(self.done) >= len(self.legs):
            raise ValueError("done: a stage is raced after the last one")
        first = self.legs[0]
        for leg in self.legs:
            if leg.teams != first.teams or leg.scripted != first.scripted:
                raise ValueError("legs: every stage has the same teams")
            if leg.tour or leg.carried or leg.grid_order or leg.tour_times or leg.tour_points:
                raise ValueError("legs: a stage's set-up before the tour's carry-over")
        return self


class SaveData(BaseModel):
    model_config = MODEL
    format: Literal["flamme-tui-save"]
    version: Literal[1, 2, 3]
    app: Label
    race: Label  # race id, shared by every save of one race
    created: Label
    saved: Label
    summary: Summary
    setup: SetupData
    seed: StrictInt = Field(ge=-lim.MAX_SEED, le=lim.MAX_SEED)
    # seat number -> policy name
    bots: dict[Annotated[StrictStr, Field(pattern=r"^(1[01]|[0-9])$")],
               Annotated[StrictStr, Field(max_length=lim.MAX_BOT_NAME)]]
    actions: tuple[Annotated[StrictStr, Field(max_length=lim.MAX_ACTION_TEXT)], ...] = Field(max_length=lim.MAX_ACTIONS)
    rounds: tuple[RoundCheck, ...] = Field(max_length=lim.MAX_ROUNDS)
    state: Hex  # the game after the last action
    tour: TourData | None = None  # format 2: the race is a stage of this tour
    hints: tuple[HintTaken, ...] = Field(default=(), max_length=lim.MAX_ACTIONS)  # written only when there are some
    checksum: Hex

    @model_validator(mode="after")
    def _consistent(self) -> SaveData:
        if (self.tour is None) != (self.summary.tour is None):
            raise ValueError("tour: a tour's summary without its tour, or the other way round")
        undo = UNDO in self.actions or (self.tour is not None and any(UNDO in d.actions for d in self.tour.done))
        if self.version != _version(self.tour is not None, undo):
            raise ValueError("version: a tour is saved in format 2, a race in format 1, either with an undo in 3")
        if self.tour is not None and not isinstance(self.setup, ClassicSetupData):
            raise ValueError("tour: its stages are classic or meteo races")
        if any(int(seat) >= len(self.setup.teams) for seat in self.bots):
            raise ValueError("bots: a seat number past the last team")
        if any(h.seat >= len(self.setup.teams) or h.at > len(self.actions) for h in self.hints):
            raise ValueError("hints: a seat past the last team, or past the end of the log")
        if find(self.summary.variant) is not find(self.setup.variant):
            raise ValueError("summary: another variant than the setup's")
        last = (0, 0)
        for check in self.rounds:
            if check.round <= last[0] or check.actions <= last[1] or check.actions > len(self.actions):
                raise ValueError("rounds: not in order, or past the end of the log")
            last = (check.round, check.actions)
        return self


# ------------------------------------------------------------- state digest


def state_digest(game) -> str:
    """sha256 of the game as the rules know it (engine: Race.state_key, an
    explicit key of plain values whose layout is versioned, so renaming an
    attribute of the engine cannot change the digest of an old save)."""
    return hashlib.sha256(repr(game.state_key()).encode()).hexdigest()


def _version(tour: bool, undo: bool) -> int:
    """The format a save is written in: a race's or a tour's, unless a log holds an undo."""
    return UNDO_VERSION if undo else TOUR_VERSION if tour else RACE_VERSION


def _round_checks(setup, seed: int, entries) -> list[dict]:
    """Replay the log (undos included); the digest after each resolved round
    still in force, with the length of the log when it was resolved."""
    from .play.races import new_game

    game = new_game(setup, seed)
    checks: list[dict] = []
    done: list = []  # the effective actions
    for n, entry in enumerate(entries, 1):
        if entry == UNDO:  # the last action withdrawn: the game without it (and its round, if it resolved one)
            done.pop()
            game = new_game(setup, seed)
            for action in done:
                game.apply(action)
            checks = [c for c in checks if c["round"] <= game.rounds_done]
            continue
        game.apply(entry)
        done.append(entry)
        # one check per action that resolved rounds (scripted riders left alone in a
        # tour stage resolve several at once): the last round it resolved
        if game.rounds_done > (checks[-1]["round"] if checks else 0):
            checks.append({"round": game.rounds_done, "actions": n, "state": state_digest(game)})
    return checks


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
    from .play.narrator import rider_name

    summary = {
        "title": game.setup.course.name,
        "variant": game.variant,
        "teams": [t.name for t in game.setup.teams],
        "round": game.round,
        "phase": game.phase,
        "over": game.phase == Phase.OVER,
        "winner": None if game.winner is None else rider_name(game, game.winner),
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
        _, _, canonical, laid_out = self._tour
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
            return f"the saves folder is a symlink loop ({_show(Path(where))})" if where else "a symlink loop"
        if code == errno.ENOENT and where and os.path.islink(where):
            return f"the saves folder is a symbolic link to nothing ({_show(Path(where))})"
        if code in (errno.ENOSPC, getattr(errno, "EDQUOT", -1)):
            return f"the disk is full{folder}"
        if code == errno.EROFS:
            return f"the disk is read-only{folder}"
        if code in (errno.EACCES, errno.EPERM):
            return f"no permission to write there{folder}"
        if code in (errno.ENOTDIR, errno.EEXIST) or isinstance(exc, (NotADirectoryError, FileExistsError)):
            blocker = _file_in_the_way(Path(where)) if where else None
            return f"the saves folder is not a folder ({_show(blocker)} is a file)" if blocker else \
                f"the saves folder is not a folder{folder}"
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


# ------------------------------------------------------------------ reading


class SaveInfo(NamedTuple):
    """A save file's header, read without replaying the race."""

    path: Path
    race: str
    title: str
    variant: str
    teams: tuple[str, ...]
    round: int
    over: bool
    winner: str | None
    saved: str
    actions: int
    tour: str = ""  # a tour's name ("" for a race); then the stage being raced of how many
    stage: int = 0
    stages: int = 0

    def describe(self) -> str:
        if self.tour:
            at = f"stage {self.stage}/{self.stages} ({self.title}), round {self.round}"
            state = f"won by {self.winner}" if self.over else at
            return f"{self.tour} (tour), {len(self.teams)} teams, {state}, saved {self.saved}"
        state = f"won by {self.winner}" if self.over else f"round {self.round}"
        return f"{self.title} ({self.variant}), {len(self.teams)} teams, {state}, saved {self.saved}"


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict:
    out: dict = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"duplicate key {key!r}")
        out[key] = value
    return out


def _unreadable(exc: files.ReadError) -> str:
    """A files.ReadError, said of a save file."""
    if exc.code == files.MISSING:
        return "does not exist"
    if exc.code == files.UNREADABLE:
        return f"cannot be read ({exc.reason.split(': ', 1)[-1]})"  # why, without "cannot read file"
    if exc.code == files.TOO_BIG:
        return f"is {exc.reason}"
    return f"cannot be used ({exc.reason})"


def _read_checked(path: Path) -> tuple[SaveData, str]:
    """Parse and verify the file's checksum and version; SaveError (without
    backups) if anything is wrong.  Returns the data and its raw text."""
    try:
        raw, _ = files.read_bytes(path, files.SAVE_FILE)  # a regular file, bounded in size
    except files.ReadError as exc:
        raise SaveError(path, _unreadable(exc)) from None
    if not raw.strip():
        raise SaveError(path, "is damaged (empty file)")
    try:
        text = raw.decode("utf-8")
        files.check_json_depth(text, files.SAVE_FILE)
        with files.paused_gc():  # up to 4 MB of objects without a cycle (files.paused_gc)
            doc = json.loads(text, object_pairs_hook=_no_duplicates)
    except files.ReadError as exc:
        raise SaveError(path, f"is damaged ({exc.reason})") from None
    except (UnicodeDecodeError, ValueError, RecursionError):
        # a save always ends with its closing brace: without it, the end is missing
        reason = "not valid JSON" if raw.rstrip().endswith(b"}") else "truncated"
        raise SaveError(path, f"is damaged ({reason})") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        if isinstance(doc, dict) and isinstance(doc.get("format"), str) and "checksum" in doc:
            raise SaveError(path, "is damaged (checksum mismatch)")
        raise SaveError(path, "is not a flamme-tui save file")
    try:
        good = doc.get("checksum") == _checksum(doc)
    except (TypeError, ValueError, RecursionError):
        good = False
    if not good:
        raise SaveError(path, "is damaged (checksum mismatch)")
    version = doc.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise SaveError(path, "is damaged (no format version)")
    if version > VERSION:
        raise SaveError(
            path,
            f"was made by a newer flamme-tui (save format {version}; this version reads "
            f"format {VERSION} and older): update flamme-tui to open it",
        )
    try:
        data = SaveData.model_validate_json(text)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"])
        message = err["msg"].removeprefix("Value error, ")
        raise SaveError(path, f"is damaged ({where}: {message})") from None
    return data, text


def _info(path: Path, data: SaveData) -> SaveInfo:
    s = data.summary
    if s.tour is not None:  # a tour: its winner is a team
        t = s.tour
        return SaveInfo(path, data.race, s.title, s.variant, s.teams, s.round, s.over, t.winner, data.saved,
                        len(data.actions), t.name, t.stage, t.stages)
    return SaveInfo(path, data.race, s.title, s.variant, s.teams, s.round, s.over, s.winner, data.saved, len(data.actions))


def peek(path: str | Path) -> SaveInfo:
    """The header of a save, checksum verified, without replaying (SaveError)."""
    path = Path(path)
    data, _ = _read_checked(path)
    return _info(path, data)


_BACKUP = re.compile(r"^(?P<base>.+)\.(?P<n>[12])$")


def _base_of(path: Path) -> Path:
    m = _BACKUP.match(path.name)
    return path.with_name(m["base"]) if m else path


def _family(path: Path) -> list[Path]:
    """The save and its backups, newest first."""
    base = _base_of(path)
    return [base] + [_backup(base, n) for n in range(1, KEEP)]


def usable_backups(path: Path) -> list[tuple[Path, str]]:
    out = []
    for other in _family(path):
        try:
            if other == path or not other.exists():
                continue
        except OSError:  # a name too long, no permission: not a backup one can open
            continue
        try:
            info = peek(other)
        except SaveError:
            continue
        out.append((other, "finished" if info.over else _where(info)))
    return out


def _where(info: SaveInfo) -> str:
    """How far a race (a tour: its stage) had gone: "round 7", "stage 2, round 7"."""
    return f"stage {info.stage}, round {info.round}" if info.tour else f"round {info.round}"


def _fail(path: Path, reason: str) -> SaveError:
    return SaveError(path, reason, backups=usable_backups(path))


class Record(NamedTuple):
    """A verified save: the data to rebuild the race and its header."""

    setup: Any
    seed: int
    bots: dict[int, str]
    actions: tuple[Action | str, ...]  # the log: actions and undos (play.session.UNDO)
    data: SaveData
    info: SaveInfo
    tour: Any = None  # a tour's stage: the play.tours.Tour of the stages before it


def load_record(path: str | Path) -> Record:
    """Read and fully verify a save: checksum, format, setup, and a replay of
    the log that must reach the recorded state after every round.  Raises
    SaveError (naming usable backups) if anything is wrong."""
    from .bots import POLICIES

    path = Path(path)
    try:
        data, _ = _read_checked(path)
    except SaveError as exc:
        raise _fail(path, exc.reason) from None
    try:
        setup = setup_from_data(data.setup)
    except Exception as exc:  # noqa: BLE001 - any failure here means the file cannot be used
        raise _fail(path, f"is damaged (setup: {exc or type(exc).__name__})") from None
    bots: dict[int, str] = {}
    for seat, name in data.bots.items():
        if not seat.isdigit() or int(seat) >= len(setup.teams):
            raise _fail(path, f"is damaged (bots: no seat {seat!r})")
        if name not in POLICIES:
            raise _fail(path, f"needs the bot {name!r}, which this flamme-tui does not have")
        bots[int(seat)] = name
    try:
        actions = tuple(parse_entry(a) for a in data.actions)
    except ActionError as exc:
        raise _fail(path, f"is damaged (actions: {exc})") from None
    tour = None if data.tour is None else _verify_tour(path, data.tour, setup, data.seed)
    return _verify_replay(path, setup, data, bots, actions, tour)


def load_replay(path: str | Path):
    """Load and verify a save (SaveError) and build its replay (play.replay.Replay)."""
    from .play.replay import replay_of

    return replay_of(load_record(path))


def _verify_tour(path: Path, data: TourData, setup, seed: int):
    """The tour of a format 2 save, its finished stages replayed: each must
    end as its digest says, and the save's race must be the tour's next
    stage (its set-up: carry-over, grid order, standing; its seed)."""
    from .play.tours import Tour, stage_seed

    try:
        tour = Tour(data.name, tuple(stage_from_data(leg) for leg in data.legs), data.seed)
    except Exception as exc:  # noqa: BLE001 - any failure here means the file cannot be used
        raise _fail(path, f"is damaged (tour: {exc or type(exc).__name__})") from None
    for k, stage in enumerate(data.done, 1):
        try:
            log = tuple(parse_entry(text) for text in stage.actions)
            # replayed as a session: its undos too must keep the table's rule
            game = Session(tour.next_setup(), stage_seed(tour.seed, len(tour.done)), None, log).game
        except (RuleError, ActionError, UndoRefused):
            raise _fail(path, f"does not replay with this flamme-tui (stage {k} of the tour)") from None
        except Exception as exc:  # noqa: BLE001
            raise _fail(path, f"does not replay with this flamme-tui (stage {k}: {type(exc).__name__})") from None
        if game.phase != Phase.OVER or state_digest(game) != stage.state:
            raise _fail(path, f"does not replay with this flamme-tui (stage {k} of the tour differs)")
        tour.finish_stage(game, log if UNDO in log else ())
    try:
        following = tour.next_setup()
    except Exception as exc:  # noqa: BLE001
        raise _fail(path, f"is damaged (tour: {exc or type(exc).__name__})") from None
    if following != setup or seed != stage_seed(tour.seed, len(tour.done)):
        raise _fail(path, f"is damaged (its race is not stage {len(tour.done) + 1} of its tour)")
    return tour


def _verify_replay(path: Path, setup, data: SaveData, bots, actions, tour=None) -> Record:

    # The file passed its checksum, so it is what some flamme-tui wrote; still,
    # whatever goes wrong while replaying it becomes a clean SaveError.
    try:
        session = Session(setup, data.seed, bots)
    except Exception as exc:  # noqa: BLE001
        raise _fail(path, f"is damaged (setup: {exc or type(exc).__name__})") from None
    rounds = [(r.round, r.actions, r.state) for r in data.rounds]
    checks: list[tuple[int, int, str]] = []  # as _round_checks: a round taken back by an undo is dropped
    undo = UNDO in actions
    # Saved before the rulings of 2026-12-04, a tour stage left to scripted riders alone
    # stopped there (nobody to play): such a save is checked as it was written, and
    # goes on when loaded (the scripted riders play out the stage).
    legacy = getattr(setup, "rulings", 2) < 2 and data.summary.phase != Phase.OVER
    for n, entry in enumerate(actions, 1):
        if legacy:
            session.game.scripted_out = False
        try:
            if entry == UNDO:
                session.undo(replaying=True)  # (a seat played by a person then may be a bot's now)
                checks = [c for c in checks if c[0] <= session.game.rounds_done]
                continue
            assert isinstance(entry, Action)
            session.apply(entry)
        except (RuleError, UndoRefused):
            raise _fail(path, f"does not replay with this flamme-tui (action {n}, {entry}, is not allowed)") from None
        except Exception as exc:  # noqa: BLE001
            raise _fail(path, f"does not replay with this flamme-tui (action {n}, {entry}: {type(exc).__name__})") from None
        game = session.game
        if game.rounds_done > (checks[-1][0] if checks else 0):  # as _round_checks
            done = game.rounds_done
            checks.append((done, n, state_digest(game)))
            if not undo and (len(checks) > len(rounds) or rounds[len(checks) - 1] != checks[-1]):  # (said early)
                raise _fail(path, f"does not replay with this flamme-tui (round {done} differs)")
    for done, (check, want) in enumerate(zip(checks, rounds, strict=False), 1):
        if check != want:
            raise _fail(path, f"does not replay with this flamme-tui (round {done} differs)")
    game = session.game
    if len(checks) != len(rounds) or state_digest(game) != data.state:
        raise _fail(path, "does not replay with this flamme-tui (the last position differs)")
    summary = json.loads(data.summary.model_dump_json())
    if summary.get("tour", 0) is None:  # a race: no tour in its summary
        del summary["tour"]
    if summary != _summary(game, tour):
        raise _fail(path, "is damaged (its summary does not match the race)")
    return Record(setup, data.seed, bots, actions, data, _info(path, data), tour)


def load(path: str | Path) -> Session:
    """The session saved in `path`, at the exact point it was saved (SaveError).

    The session remembers where it goes on: `attach_autosave(session)` writes
    to the same race file.  A backup (NAME.json.1, NAME.json.2) is an older
    version of a race whose newer version must never be lost: going on from
    it writes a new race file, a branch (`NAME-branch-1.json`, see
    `branch_path`); `session.branch_of` is then the backup it came from.
    """
    path = Path(path)
    record = load_record(path)
    session = Session(record.setup, record.seed, record.bots, record.actions)
    session.tour = record.tour
    session.hints = [(h.seat, h.at) for h in record.data.hints]
    session.branch_of = None
    session.race_id = record.data.race
    if is_backup(path):
        session.branch_of = path
        session.race_id = f"{record.data.race}-branch"
        session.save_path = branch_path(path)
    else:
        session.save_path = path
    session.created = record.data.created
    return session


def is_backup(path: Path) -> bool:
    """NAME.json.1 or NAME.json.2: an older version of the race file NAME.json."""
    return _base_of(Path(path)) != Path(path)


def branch_path(backup: Path) -> Path:
    """Where a race continued from a backup goes: NAME.json.2 -> NAME-branch-2.json
    (then NAME-branch-2-2.json, ... if that race file is taken)."""
    backup = Path(backup)
    base = _base_of(backup)
    stem = base.name[: -len(SUFFIX)] if base.name.endswith(SUFFIX) else base.name
    n = backup.name.rsplit(".", 1)[-1]
    return _free_name(base.parent, f"{stem}-branch-{n}")


def _free_name(folder: Path, base: str) -> Path:
    """folder/BASE.json, or BASE-2.json, BASE-3.json, ... : the first race
    file name nobody uses (no file, backup or lock of that name)."""
    path = folder / f"{base}{SUFFIX}"
    n = 2
    while any(p.exists() for p in (path, _backup(path, 1), _lock_path(path))):
        path = folder / f"{base}-{n}{SUFFIX}"
        n += 1
    return path


# ------------------------------------------------------------------- locks


class SaveLocked(SaveError):
    """The race file is open in another running flamme-tui."""


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
        for _ in range(20):
            fd = os.open(lock_file, flags, 0o644)
            try:
                if not _os_lock(fd):
                    # a browser player (served) is told no pid or host name of the server
                    holder = "" if served() else f" ({_read_holder(fd)})"
                    raise SaveLocked(race, f"is open in another flamme-tui{holder}: close it there first")
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
        when = f", since {since.replace('T', ' ')[:16]}" if since else ""
        return f"pid {pid} on {host}{when}"
    except Exception:  # noqa: BLE001 - being written this very moment, or not ours
        return "another process"


# ----------------------------------------------------------------- autosave


def saves_dir() -> Path:
    """Where autosaves go: the user data directory's saves/ folder
    ($FLAMME_TUI_DATA_DIR/saves when that variable is set)."""
    from .config import user_data_dir

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
        """Write what is still pending, waiting for a write in progress."""
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
        if exc.reason.startswith("is damaged"):
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
        for _ in range(100):
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
            raise SaveLocked(path.parent, "has no free race file name: every name tried is in use")
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


# ---------------------------------------------------------------- listing

IN_PROGRESS = "in progress"
FINISHED = "finished"
DAMAGED = "damaged"
NEWER = "newer version"


class Backup(NamedTuple):
    """A usable older version of a race file (going on from it makes a branch)."""

    path: Path
    info: SaveInfo

    def describe(self) -> str:
        state = "finished" if self.info.over else _where(self.info)
        return f"{self.path.name} ({state}, {plural(self.info.actions, 'action')}, saved {_clock(self.info.saved)})"


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
        left = ("; backups: " + ", ".join(b.describe() for b in self.backups)) if self.backups else "; no usable backup"
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
        return SavedRace(base, DAMAGED, "is missing", None, tuple(backups), changed)
    try:
        info = peek(base)
    except SaveError as exc:
        if not backups and not _looks_like_save(base):
            return None  # some other file that happens to end in .json
        status = NEWER if "newer flamme-tui" in exc.reason else DAMAGED
        return SavedRace(base, status, exc.reason, None, tuple(backups), changed)
    except OSError as exc:
        return SavedRace(base, DAMAGED, f"cannot be read ({save_problem(exc)})", None, tuple(backups), changed)
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
        why = {errno.EACCES: "permission denied", errno.EPERM: "permission denied",
               errno.ELOOP: "too many levels of symbolic links (a symlink loop?)"}.get(exc.errno or 0)
        if exc.errno == errno.ENOTDIR:
            why = f"not a folder ({_show(_file_in_the_way(folder) or folder)} is a file)"
        return usertext.clean(f"cannot list the saves folder {_show(folder)}: {why or _printable(exc.strerror or str(exc))}",
                              multiline=False)
    except Exception as exc:  # noqa: BLE001 - a name the system refuses: said, never raised
        return usertext.clean(f"cannot list the saves folder {_show(folder)}: {type(exc).__name__}", multiline=False)
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
    passed over for an older one."""
    for race in list_saves(directory):
        if not race.over:
            return race.path
    return None
