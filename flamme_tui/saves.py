"""Save files: every race can be resumed and replayed, and nothing is lost.

A save holds what rebuilds the race exactly: the setup (course and rules
numbers embedded, so a later edit of a stage file cannot change an old
race), the seed, the bot seats and the action log in text form.  Two kinds
of checksum guard it:

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
import hashlib
import json
import os
import re
from collections.abc import Callable
from dataclasses import fields
from pathlib import Path
from typing import Annotated, Any, Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, ValidationError

from . import __version__
from .course import Course, TilePlace
from .engine.actions import Action, ActionError
from .engine.bmx import BmxSetup
from .engine.classic import OVER, ClassicSetup, RuleError, Team
from .engine.rules import find
from .session import Session

__all__ = [
    "FORMAT",
    "VERSION",
    "Autosave",
    "SaveError",
    "SaveInfo",
    "attach_autosave",
    "latest_in_progress",
    "list_saves",
    "load",
    "load_record",
    "new_save_path",
    "Record",
    "peek",
    "save",
    "saves_dir",
    "state_digest",
]

FORMAT = "flamme-tui-save"
VERSION = 1  # the newest save format this version reads and the one it writes
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
        text = f"{_show(self.path)} {self.reason}"
        if self.backups:
            text += "; backups: " + ", ".join(f"{p.name} ({what})" for p, what in self.backups)
        return text


def _show(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, OSError):
        return str(path)


# ---------------------------------------------------------------- the format

_MODEL = ConfigDict(extra="forbid", frozen=True, strict=True)
Hex = Annotated[StrictStr, Field(pattern=r"^[0-9a-f]{64}$")]


class TeamData(BaseModel):
    model_config = _MODEL
    name: StrictStr
    colour: StrictStr


class TileData(BaseModel):
    model_config = _MODEL
    letter: StrictStr
    kind: StrictStr
    first: StrictInt
    length: StrictInt


class CourseData(BaseModel):
    """A Course without its padding and lookup tables (Course.build redoes them)."""

    model_config = _MODEL
    name: StrictStr
    terrain: StrictStr = Field(min_length=1)  # the real squares only
    lanes: tuple[Literal[1, 2], ...]
    finish: StrictInt = Field(ge=1)
    grid: StrictInt = Field(ge=1)
    tiles: tuple[TileData, ...]
    weather: tuple[StrictStr, ...]
    ramp: tuple[StrictInt, StrictInt] | None
    tail: tuple[StrictStr, tuple[Literal[1, 2], ...]] | None


class ClassicSetupData(BaseModel):
    model_config = _MODEL
    variant: Literal["classic", "meteo"]
    course: CourseData
    teams: tuple[TeamData, ...] = Field(min_length=1, max_length=4)
    decks: dict[Literal["S", "R"], tuple[StrictInt, ...]]
    hand_size: StrictInt = Field(ge=1)
    exhaustion_value: StrictInt = Field(ge=1)
    grid: Literal["random", "choose"]
    handicap: tuple[StrictInt, ...]
    weather_tokens: tuple[StrictStr, ...]
    tailwind_draw: StrictInt
    headwind_draw: StrictInt
    standup_penalty: StrictInt
    # the scripted teams came later: saves written before them have none
    scripted: tuple[Literal["", "peloton", "muscle"], ...] = ()
    muscle_extra: tuple[Annotated[StrictInt, Field(ge=1)], ...] = (5,)
    peloton_attacks: StrictInt = Field(default=2, ge=0)
    attack: tuple[Annotated[StrictInt, Field(ge=1)], Annotated[StrictInt, Field(ge=1)]] = (2, 9)
    scripted_exhaustion: StrictBool = False
    # a stage of a tour (engine.tour); races saved before tours are none
    tour: StrictBool = False
    carried: tuple[Annotated[StrictInt, Field(ge=0, le=100)], ...] = Field(default=(), max_length=8)
    grid_order: tuple[Annotated[StrictInt, Field(ge=0, le=3)], ...] = Field(default=(), max_length=4)


class BmxSetupData(BaseModel):
    model_config = _MODEL
    variant: Literal["bmx"]
    course: CourseData
    teams: tuple[TeamData, ...] = Field(min_length=1, max_length=4)
    bag: tuple[StrictInt, ...]
    fatigue_supply: StrictInt
    die_faces: tuple[StrictInt, ...] = Field(min_length=1)
    draw: StrictInt
    descent_draw: StrictInt
    descent_keep: StrictInt
    fatigue: StrictInt = Field(ge=0)
    bumpy_fatigue: StrictInt
    young: tuple[StrictInt, ...]
    forecast: StrictBool


class RoundCheck(BaseModel):
    model_config = _MODEL
    round: StrictInt = Field(ge=1)
    actions: StrictInt = Field(ge=1)  # length of the log when the round ended
    state: Hex


class Summary(BaseModel):
    """What a menu shows without replaying (checked against the replay on load)."""

    model_config = _MODEL
    title: StrictStr
    variant: StrictStr
    teams: tuple[StrictStr, ...]
    round: StrictInt
    phase: StrictStr
    over: StrictBool
    winner: StrictStr | None


class SaveData(BaseModel):
    model_config = _MODEL
    format: Literal["flamme-tui-save"]
    version: Literal[1]
    app: StrictStr
    race: StrictStr  # race id, shared by every save of one race
    created: StrictStr
    saved: StrictStr
    summary: Summary
    setup: Annotated[ClassicSetupData | BmxSetupData, Field(discriminator="variant")]
    seed: StrictInt
    bots: dict[StrictStr, StrictStr]  # seat number -> policy name
    actions: tuple[StrictStr, ...]
    rounds: tuple[RoundCheck, ...]
    state: Hex  # the game after the last action
    checksum: Hex


# ------------------------------------------------------- setup <-> plain data


def _course_data(course: Course) -> dict:
    n = course.length
    return {
        "name": course.name,
        "terrain": course.terrain[:n],
        "lanes": list(course.lanes[:n]),
        "finish": course.finish,
        "grid": course.grid,
        "tiles": [{"letter": t.letter, "kind": t.kind, "first": t.first, "length": t.length} for t in course.tiles],
        "weather": list(course.weather[:n]) if course.weather else [],
        "ramp": list(course.ramp) if course.ramp is not None else None,
        "tail": [course.tail[0], list(course.tail[1])] if course.tail is not None else None,
    }


def _course(data: CourseData) -> Course:
    if len(data.lanes) != len(data.terrain):
        raise ValueError("course: lanes and terrain differ in length")
    if not data.grid < data.finish <= len(data.terrain):
        raise ValueError("course: grid and finish out of order")
    if data.tail is not None and (not data.tail[0] or len(data.tail[0]) != len(data.tail[1])):
        raise ValueError("course: bad tail")
    return Course.build(
        data.name,
        data.terrain,
        data.finish,
        data.grid,
        lanes=tuple(data.lanes),
        tiles=tuple(TilePlace(t.letter, t.kind, t.first, t.length) for t in data.tiles),
        weather=tuple(data.weather),
        ramp=tuple(data.ramp) if data.ramp is not None else None,
        tail=(data.tail[0], tuple(data.tail[1])) if data.tail is not None else None,
    )


def _plain(value: Any) -> Any:
    if isinstance(value, Course):
        return _course_data(value)
    if isinstance(value, Team):
        return {"name": value.name, "colour": value.colour}
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def setup_data(setup) -> dict:
    """A ClassicSetup or BmxSetup as plain JSON data, every field of it."""
    data = {f.name: _plain(getattr(setup, f.name)) for f in fields(setup)}
    model = BmxSetupData if isinstance(setup, BmxSetup) else ClassicSetupData
    missing = set(data) - set(model.model_fields)
    if missing:  # a new setup field that the save format does not know yet
        raise TypeError(f"save format lacks setup fields {sorted(missing)}")
    return data


def setup_from_data(data: ClassicSetupData | BmxSetupData):
    course = _course(data.course)
    teams = tuple(Team(t.name, t.colour) for t in data.teams)
    if isinstance(data, BmxSetupData):
        return BmxSetup(
            course=course, teams=teams, bag=data.bag, fatigue_supply=data.fatigue_supply,
            die_faces=data.die_faces, draw=data.draw, descent_draw=data.descent_draw,
            descent_keep=data.descent_keep, fatigue=data.fatigue, bumpy_fatigue=data.bumpy_fatigue,
            young=data.young, forecast=data.forecast, variant="bmx",
        )
    if set(data.decks) != {"S", "R"}:
        raise ValueError("setup.decks: need the S and R decks")
    if data.scripted and (not find(data.variant).scripted_teams or len(data.scripted) != len(teams) or all(data.scripted)):
        raise ValueError("setup.scripted: one entry per team, classic only, and not every team")
    return ClassicSetup(
        course=course, teams=teams, decks={k: tuple(v) for k, v in data.decks.items()},
        hand_size=data.hand_size, exhaustion_value=data.exhaustion_value, grid=data.grid,
        handicap=data.handicap, variant=data.variant,
        weather_tokens=data.weather_tokens, tailwind_draw=data.tailwind_draw,
        headwind_draw=data.headwind_draw, standup_penalty=data.standup_penalty,
        scripted=data.scripted, muscle_extra=data.muscle_extra,
        peloton_attacks=data.peloton_attacks, attack=data.attack, scripted_exhaustion=data.scripted_exhaustion,
        tour=data.tour, carried=data.carried, grid_order=data.grid_order,
    )


# ------------------------------------------------------------- state digest


def state_digest(game) -> str:
    """sha256 of the game as the rules know it (engine: Race.state_key, an
    explicit key of plain values whose layout is versioned, so renaming an
    attribute of the engine cannot change the digest of an old save)."""
    return hashlib.sha256(repr(game.state_key()).encode()).hexdigest()


def _completed(game) -> int:
    """Rounds resolved so far."""
    return game.round if game.phase == OVER else game.round - 1


def _round_checks(setup, seed: int, actions) -> list[dict]:
    """Replay the log; the digest after each resolved round."""
    from .races import new_game

    game = new_game(setup, seed)
    checks = []
    for n, action in enumerate(actions, 1):
        game.apply(action)
        if _completed(game) > len(checks):
            checks.append({"round": _completed(game), "actions": n, "state": state_digest(game)})
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
    game = session.game
    if rounds is None:
        rounds = _round_checks(session.setup, session.seed, game.actions)
    now = _now()
    body = {
        "format": FORMAT,
        "version": VERSION,
        "app": f"flamme-tui {__version__}",
        "race": race or _race_id(session),
        "created": created or now,
        "saved": now,
        "summary": _summary(game),
        "setup": setup_data(session.setup),
        "seed": session.seed,
        "bots": {str(seat): name for seat, name in sorted(session.bots.items())},
        "actions": [str(a) for a in game.actions],
        "rounds": rounds,
        "state": state_digest(game),
    }
    body["checksum"] = _checksum(body)
    return body


def _summary(game) -> dict:
    from .races import rider_name

    return {
        "title": game.setup.course.name,
        "variant": game.variant,
        "teams": [t.name for t in game.setup.teams],
        "round": game.round,
        "phase": game.phase,
        "over": game.phase == OVER,
        "winner": None if game.winner is None else rider_name(game, game.winner),
    }


def _race_id(session: Session) -> str:
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    return f"{stamp}-{session.game.variant}-{os.getpid()}"


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


def write_atomic(path: Path, data: bytes, keep: int = KEEP) -> None:
    """Write `data` to `path` so that a crash at any moment leaves either the
    old or the new file complete, keeping `keep - 1` previous versions
    (NAME.1 the newest).  At every moment NAME exists once it was written."""
    folder = path.parent
    folder.mkdir(parents=True, exist_ok=True)
    tmp = folder / f"{_tmp_prefix(path)}{os.getpid()}.tmp"
    with open(tmp, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
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
    _fsync_dir(folder)


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

    def describe(self) -> str:
        state = f"won by {self.winner}" if self.over else f"round {self.round}"
        return f"{self.title} ({self.variant}), {len(self.teams)} teams, {state}, saved {self.saved}"


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict:
    out: dict = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"duplicate key {key!r}")
        out[key] = value
    return out


def _read_checked(path: Path) -> tuple[SaveData, str]:
    """Parse and verify the file's checksum and version; SaveError (without
    backups) if anything is wrong.  Returns the data and its raw text."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise SaveError(path, "does not exist") from None
    except OSError as exc:
        raise SaveError(path, f"cannot be read ({exc.strerror or exc})") from None
    if not raw.strip():
        raise SaveError(path, "is damaged (empty file)")
    try:
        text = raw.decode("utf-8")
        doc = json.loads(text, object_pairs_hook=_no_duplicates)
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
        raise SaveError(path, f"is damaged ({where}: {err['msg']})") from None
    return data, text


def _info(path: Path, data: SaveData) -> SaveInfo:
    s = data.summary
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
        if other == path or not other.exists():
            continue
        try:
            info = peek(other)
        except SaveError:
            continue
        out.append((other, "finished" if info.over else f"round {info.round}"))
    return out


def _fail(path: Path, reason: str) -> SaveError:
    return SaveError(path, reason, backups=usable_backups(path))


class Record(NamedTuple):
    """A verified save: the data to rebuild the race and its header."""

    setup: Any
    seed: int
    bots: dict[int, str]
    actions: tuple[Action, ...]
    data: SaveData
    info: SaveInfo


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
        actions = tuple(Action.parse(a) for a in data.actions)
    except ActionError as exc:
        raise _fail(path, f"is damaged (actions: {exc})") from None
    return _verify_replay(path, setup, data, bots, actions)


def _verify_replay(path: Path, setup, data: SaveData, bots, actions) -> Record:
    from .races import new_game

    # The file passed its checksum, so it is what some flamme-tui wrote; still,
    # whatever goes wrong while replaying it becomes a clean SaveError.
    try:
        game = new_game(setup, data.seed)
    except Exception as exc:  # noqa: BLE001
        raise _fail(path, f"is damaged (setup: {exc or type(exc).__name__})") from None
    rounds = list(data.rounds)
    done = 0
    for n, action in enumerate(actions, 1):
        try:
            game.apply(action)
        except RuleError:
            raise _fail(path, f"does not replay with this flamme-tui (action {n}, {action}, is not allowed)") from None
        except Exception as exc:  # noqa: BLE001
            raise _fail(path, f"does not replay with this flamme-tui (action {n}, {action}: {type(exc).__name__})") from None
        if _completed(game) > done:
            done = _completed(game)
            if done > len(rounds) or rounds[done - 1].actions != n or rounds[done - 1].state != state_digest(game):
                raise _fail(path, f"does not replay with this flamme-tui (round {done} differs)")
    if done != len(rounds) or state_digest(game) != data.state:
        raise _fail(path, "does not replay with this flamme-tui (the last position differs)")
    if json.loads(data.summary.model_dump_json()) != _summary(game):
        raise _fail(path, "is damaged (its summary does not match the race)")
    return Record(setup, data.seed, bots, actions, data, _info(path, data))


def load(path: str | Path) -> Session:
    """The session saved in `path`, at the exact point it was saved (SaveError).

    The session remembers where it came from: `attach_autosave(session)` goes
    on writing to the same race file (to NAME when `path` is a backup NAME.1).
    """
    path = Path(path)
    record = load_record(path)
    session = Session(record.setup, record.seed, record.bots, record.actions)
    session.save_path = _base_of(path)
    session.race_id = record.data.race
    session.created = record.data.created
    return session


# ----------------------------------------------------------------- autosave


def saves_dir() -> Path:
    """Where autosaves go: the user data directory's saves/ folder
    ($FLAMME_TUI_DATA_DIR/saves when that variable is set)."""
    from .config import user_data_dir

    return user_data_dir() / "saves"


def new_save_path(session: Session, directory: str | Path | None = None) -> Path:
    folder = Path(directory) if directory is not None else saves_dir()
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    base = f"{stamp}-{session.game.variant}"
    path = folder / f"{base}{SUFFIX}"
    n = 2
    while path.exists() or _backup(path, 1).exists():
        path = folder / f"{base}-{n}{SUFFIX}"
        n += 1
    return path


class Autosave:
    """A Session listener writing the save after every committed action.

    Build with `attach_autosave`.  A failed write never stops the game: the
    error is kept in `error` and passed to `on_error` if given.
    """

    def __init__(self, session: Session, path: Path, on_error: Callable[[OSError], None] | None = None) -> None:
        self.session = session
        self.path = path
        self.on_error = on_error
        self.error: OSError | None = None
        self.race = getattr(session, "race_id", None) or path.stem
        self.created = getattr(session, "created", None) or _now()
        self._game = None  # the game object the round checks were computed on
        self._count = 0  # its number of actions then
        self._rounds: list[dict] = []

    def _checks(self) -> list[dict]:
        game = self.session.game
        count = len(game.actions)
        if game is self._game and count == self._count:
            return self._rounds
        if game is self._game and count == self._count + 1:
            if _completed(game) > len(self._rounds):
                self._rounds.append({"round": _completed(game), "actions": count, "state": state_digest(game)})
        else:  # first write, or the game was rebuilt (undo): replay once
            self._rounds = _round_checks(self.session.setup, self.session.seed, game.actions)
            self._game = game
        self._count = count
        return self._rounds

    def write(self) -> bool:
        try:
            doc = save_document(self.session, race=self.race, created=self.created, rounds=list(self._checks()))
            write_atomic(self.path, _serialise(doc), KEEP)
        except OSError as exc:
            self.error = exc
            if self.on_error is not None:
                self.on_error(exc)
            return False
        self.error = None
        return True

    def __call__(self, session: Session, action: Action) -> None:
        self.write()

    def detach(self) -> None:
        if self in self.session.listeners:
            self.session.listeners.remove(self)


def _set_aside_if_damaged(path: Path) -> None:
    """Before writing to NAME again, keep a damaged NAME as NAME.damaged."""
    if not path.exists():
        return
    try:
        peek(path)
    except SaveError as exc:
        if exc.reason.startswith("is damaged"):
            os.replace(path, path.with_name(path.name + ".damaged"))


def _clean_tmp(path: Path) -> None:
    for stale in path.parent.glob(f"{_tmp_prefix(path)}*.tmp"):
        try:
            stale.unlink()
        except OSError:
            pass


def attach_autosave(
    session: Session,
    path: str | Path | None = None,
    *,
    directory: str | Path | None = None,
    on_error: Callable[[OSError], None] | None = None,
) -> Autosave:
    """Save the session now and after every committed action.

    The file is `path`, else the file the session was loaded from, else a new
    file in `directory` (default saves_dir()).  Attaching twice returns the
    autosave already attached.
    """
    for listener in session.listeners:
        if isinstance(listener, Autosave):
            return listener
    if path is None:
        path = getattr(session, "save_path", None) or new_save_path(session, directory)
    path = _base_of(Path(path))
    autosave = Autosave(session, path, on_error)
    session.save_path = path
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        _clean_tmp(path)
        _set_aside_if_damaged(path)
    except OSError as exc:  # the write below reports it too
        autosave.error = exc
    autosave.write()
    session.listeners.append(autosave)
    return autosave


# ---------------------------------------------------------------- listing


def list_saves(directory: str | Path | None = None) -> list[SaveInfo]:
    """One entry per race in the directory, newest first: the header of its
    newest readable file (NAME, else NAME.1, else NAME.2).  Races whose files
    are all damaged are left out."""
    folder = Path(directory) if directory is not None else saves_dir()
    try:
        names = {_base_of(p) for p in folder.iterdir() if p.name.endswith(SUFFIX) or _BACKUP.match(p.name)}
    except OSError:
        return []
    out = []
    for base in names:
        if not base.name.endswith(SUFFIX):
            continue
        for candidate in _family(base):
            if not candidate.exists():
                continue
            try:
                out.append(peek(candidate))
                break
            except SaveError:
                continue
    out.sort(key=lambda info: (info.saved, info.path.name), reverse=True)
    return out


def latest_in_progress(directory: str | Path | None = None) -> Path | None:
    """The save to offer for Resume: the most recently saved race that is not
    over (its current file, or its newest good backup if that one is
    damaged), or None."""
    for info in list_saves(directory):
        if not info.over:
            return info.path
    return None
