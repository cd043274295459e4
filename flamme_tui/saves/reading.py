"""Reading a save: checked, replayed and compared round by round before anything is used."""

from __future__ import annotations

import datetime
import json
import re
from pathlib import Path
from typing import Any, NamedTuple

from pydantic import (
    ValidationError,
)

from .. import files, pydantic_words
from ..engine.actions import Action, ActionError
from ..engine.phase import Phase
from ..engine.race import RuleError
from ..i18n import _, day_and_time, ngettext
from ..play.session import UNDO, Session, UndoRefused, parse_entry
from ..setupdata import (
    setup_from_data,
    stage_from_data,
)
from ..words import stage_name, team_name, variant_word
from .locks import _lock_path
from .model import DAMAGED, FORMAT, KEEP, NEWER, SUFFIX, VERSION, SaveData, SaveError, TourData, damaged, state_digest
from .writing import _backup, _checksum, _summary

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
    players: int = 0  # the seats people play (neither a bot nor a scripted team): 2 or more share the screen
    stage_over: bool = False  # a tour saved between two stages: `stage` is over, not the tour (Resume shows its result)

    def describe(self) -> str:
        teams = ngettext("{n} team", "{n} teams", len(self.teams)).format(n=len(self.teams))
        if self.tour:
            if self.stage_over:
                at = _("stage {stage}/{stages} ({title}) finished").format(
                    stage=self.stage, stages=self.stages, title=self.title)
            else:
                at = _("stage {stage}/{stages} ({title}), round {round}").format(
                    stage=self.stage, stages=self.stages, title=self.title, round=self.round)
            state = _("won by {winner}").format(winner=self.winner) if self.over else at
            return _("{tour} (tour), {teams}, {state}, saved {saved}").format(
                tour=self.tour, teams=teams, state=state, saved=_when(self.saved))
        state = _("won by {winner}").format(winner=self.winner) if self.over else _("round {round}").format(round=self.round)
        return _("{title} · {variant}, {teams}, {state}, saved {saved}").format(
            title=self.title, variant=variant_word(self.variant), teams=teams, state=state, saved=_when(self.saved))


def _when(stamp: str) -> str:
    """When a save was written, as the language writes a date: "04 déc. 17:15"."""
    try:
        return day_and_time(datetime.datetime.fromisoformat(stamp).astimezone())
    except ValueError:
        return stamp[:16]


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
        return _("does not exist")
    if exc.code == files.UNREADABLE:  # why, without "cannot read file"
        return _("cannot be read ({why})").format(why=exc.reason.split(": ", 1)[-1])
    if exc.code == files.TOO_BIG:
        return _("is {problem}").format(problem=exc.reason)
    return _("cannot be used ({problem})").format(problem=exc.reason)


def _read_checked(path: Path) -> tuple[SaveData, str]:
    """Parse and verify the file's checksum and version; SaveError (without
    backups) if anything is wrong.  Returns the data and its raw text."""
    try:
        raw, _stat = files.read_bytes(path, files.SAVE_FILE)  # a regular file, bounded in size
    except files.ReadError as exc:
        raise SaveError(path, _unreadable(exc)) from None
    if not raw.strip():
        raise damaged(path, _("empty file"))
    try:
        text = raw.decode("utf-8")
        files.check_json_depth(text, files.SAVE_FILE)
        with files.paused_gc():  # up to 4 MB of objects without a cycle (files.paused_gc)
            doc = json.loads(text, object_pairs_hook=_no_duplicates)
    except files.ReadError as exc:
        raise damaged(path, exc.reason) from None
    except (UnicodeDecodeError, ValueError, RecursionError):
        if not raw.lstrip().startswith(b"{"):  # a save is one JSON object: this is some other file (a stage, a
            # text), or one overwritten from its start: still set aside, never written over (autosave)
            raise SaveError(path, _("is not a flamme-tui save file"), kind=DAMAGED) from None
        # a save always ends with its closing brace: without it, the end is missing
        reason = _("not valid JSON") if raw.rstrip().endswith(b"}") else _("truncated")
        raise damaged(path, reason) from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        if isinstance(doc, dict) and isinstance(doc.get("format"), str) and "checksum" in doc:
            raise damaged(path, _("checksum mismatch"))
        raise SaveError(path, _("is not a flamme-tui save file"), kind=DAMAGED)  # set aside all the same
    try:
        good = doc.get("checksum") == _checksum(doc)
    except (TypeError, ValueError, RecursionError):
        good = False
    if not good:
        raise damaged(path, _("checksum mismatch"))
    version = doc.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise damaged(path, _("no format version"))
    if version > VERSION:
        raise SaveError(
            path,
            _("was made by a newer flamme-tui (save format {version}; this version reads "
              "format {known} and older): update flamme-tui to open it").format(version=version, known=VERSION),
            kind=NEWER,
        )
    try:
        data = SaveData.model_validate_json(text)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"])
        message = pydantic_words.message(err)  # in the player's language
        raise damaged(path, f"{where}: {message}" if where else message) from None
    return data, text


def _info(path: Path, data: SaveData) -> SaveInfo:
    s = data.summary
    scripted = getattr(data.setup, "scripted", ())
    players = sum(1 for seat in range(len(data.setup.teams))
                  if str(seat) not in data.bots and not (scripted and scripted[seat]))
    teams = shown_teams(data)
    title = stage_name(s.title)  # (as the race screen names the stage: "Peloton 9 (5-6 équipes)")
    if s.tour is not None:  # a tour: its winner is a team
        t = s.tour
        winner = teams[s.teams.index(t.winner)] if t.winner in s.teams else t.winner
        return SaveInfo(path, data.race, title, s.variant, teams, s.round, s.over, winner, data.saved,
                        len(data.actions), t.name, t.stage, t.stages, players=players,
                        stage_over=s.phase == Phase.OVER and not s.over)
    return SaveInfo(path, data.race, title, s.variant, teams, s.round, s.over, winner_words(s.winner, s.teams, teams),
                    data.saved, len(data.actions), players=players)


def shown_teams(data: SaveData) -> tuple[str, ...]:
    """The summary's teams as the race screen names them (words.team_name): a team named by
    default in the language now ("Bleu" saved in French is "Blue" in English), a typed name as
    typed.  The summary keeps the names as set up; a summary whose teams are not the set-up's
    (it is checked against the replay only when the race is opened) is shown as it is."""
    s = data.summary
    if tuple(t.name for t in data.setup.teams) != tuple(s.teams):
        return tuple(s.teams)
    return tuple(team_name(data.setup, seat) for seat in range(len(s.teams)))


def winner_words(winner: str | None, teams: tuple[str, ...], shown: tuple[str, ...] | None = None) -> str | None:
    """The winner a race's summary names, in the player's language.  The summary
    is written in the words of whoever saved the race ("Blue Rouleur", French
    "Rouleur Blue"): each language's words are matched against the teams as set
    up and said again in the player's, with the team as `shown` (the same
    order as `teams`; default: as set up).  A name not matched is shown as it is."""
    if not winner:
        return winner
    from .. import i18n
    from ..words import COLOUR_NAMES

    shown = teams if shown is None or len(shown) != len(teams) else shown
    if winner in teams:  # a BMX rider: its team's name
        return shown[teams.index(winner)]
    for code in i18n.LANGUAGES:
        words = i18n._catalog(code)
        two, one = words.gettext("{seat} {kind}"), words.gettext("{seat} ({colour} {kind})")
        for seat, now in zip(teams, shown):
            for kind in ("Sprinteur", "Rouleur"):
                if winner == two.format(seat=seat, kind=words.gettext(kind)):
                    return _("{seat} {kind}").format(seat=now, kind=_(kind))
                for colour in COLOUR_NAMES.values():
                    if winner == one.format(seat=seat, colour=words.gettext(colour), kind=words.gettext(kind)):
                        return _("{seat} ({colour} {kind})").format(seat=now, colour=_(colour), kind=_(kind))
    return winner


def peek(path: str | Path) -> SaveInfo:
    """The header of a save, checksum verified, without replaying (SaveError)."""
    path = Path(path)
    data, _text = _read_checked(path)
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
        out.append((other, _("finished") if info.over else _where(info)))
    return out


def _where(info: SaveInfo) -> str:
    """How far a race (a tour: its stage) had gone: "round 7", "stage 2, round 7"."""
    if info.tour:
        return _("stage {stage}, round {round}").format(stage=info.stage, round=info.round)
    return _("round {round}").format(round=info.round)


def _fail(path: Path, reason: str, kind: str = "") -> SaveError:
    return SaveError(path, reason, backups=usable_backups(path), kind=kind)


def _damaged(path: Path, reason: str) -> SaveError:
    """The file is damaged, its usable backups named."""
    return damaged(path, reason, backups=usable_backups(path))


# a fault of this flamme-tui (a broken install, a bug), never the file's: a good
# file is not called damaged for it
PROGRAM_FAULTS = (ImportError, NameError, AttributeError, AssertionError, NotImplementedError)


def _unusable(path: Path, part: str, exc: Exception) -> SaveError:
    """A checked save whose set-up or tour could not be built: damaged, unless
    the failure is this program's own fault (PROGRAM_FAULTS). `part` names
    where, with a {problem} field."""
    if isinstance(exc, PROGRAM_FAULTS):
        where = part.format(problem=type(exc).__name__)
        return _fail(path, _("cannot be read by this flamme-tui: a fault in the program, not in the file ({where})").format(
            where=where))
    return _damaged(path, part.format(problem=exc or type(exc).__name__))


def _replays_not(path: Path, reason: str) -> SaveError:
    """A good file this flamme-tui cannot replay (written by another version's rules)."""
    return _fail(path, _("does not replay with this flamme-tui ({reason})").format(reason=reason))


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
    from ..bots import POLICIES

    path = Path(path)
    try:
        data, _text = _read_checked(path)
    except SaveError as exc:
        raise _fail(path, exc.reason, exc.kind) from None
    try:
        setup = setup_from_data(data.setup)
    except Exception as exc:  # noqa: BLE001 - any failure here means the file cannot be used
        raise _unusable(path, _("setup: {problem}"), exc) from None
    bots: dict[int, str] = {}
    for seat, name in data.bots.items():
        if not seat.isdigit() or int(seat) >= len(setup.teams):
            raise _damaged(path, _("bots: no seat {seat}").format(seat=repr(seat)))
        if name not in POLICIES:
            raise _fail(path, _("needs the bot {name}, which this flamme-tui does not have").format(name=repr(name)))
        bots[int(seat)] = name
    try:
        actions = tuple(parse_entry(a) for a in data.actions)
    except ActionError as exc:
        raise _damaged(path, _("actions: {problem}").format(problem=exc)) from None
    tour = None if data.tour is None else _verify_tour(path, data.tour, setup, data.seed)
    return _verify_replay(path, setup, data, bots, actions, tour)


def load_replay(path: str | Path):
    """Load and verify a save (SaveError) and build its replay (play.replay.Replay)."""
    from ..play.replay import replay_of

    return replay_of(load_record(path))


def _verify_tour(path: Path, data: TourData, setup, seed: int):
    """The tour of a format 2 save, its finished stages replayed: each must
    end as its digest says, and the save's race must be the tour's next
    stage (its set-up: carry-over, grid order, standing; its seed)."""
    from ..play.tours import Tour, stage_seed

    try:
        tour = Tour(data.name, tuple(stage_from_data(leg) for leg in data.legs), data.seed)
    except Exception as exc:  # noqa: BLE001 - any failure here means the file cannot be used
        raise _unusable(path, _("tour: {problem}"), exc) from None
    for k, stage in enumerate(data.done, 1):
        try:
            log = tuple(parse_entry(text) for text in stage.actions)
            # replayed as a session: its undos too must keep the table's rule
            game = Session(tour.next_setup(), stage_seed(tour.seed, len(tour.done)), None, log).game
        except (RuleError, ActionError, UndoRefused):
            raise _replays_not(path, _("stage {k} of the tour").format(k=k)) from None
        except Exception as exc:  # noqa: BLE001
            raise _replays_not(path, _("stage {k}: {problem}").format(k=k, problem=type(exc).__name__)) from None
        if game.phase != Phase.OVER or state_digest(game) != stage.state:
            raise _replays_not(path, _("stage {k} of the tour differs").format(k=k))
        try:
            tour.finish_stage(game, log if UNDO in log else ())
        except Exception as exc:  # noqa: BLE001  (a file's set-up the tour cannot score: one clear line)
            raise _replays_not(path, _("stage {k}: {problem}").format(k=k, problem=type(exc).__name__)) from None
    try:
        following = tour.next_setup()
    except Exception as exc:  # noqa: BLE001
        raise _unusable(path, _("tour: {problem}"), exc) from None
    if following != setup or seed != stage_seed(tour.seed, len(tour.done)):
        raise _damaged(path, _("its race is not stage {k} of its tour").format(k=len(tour.done) + 1))
    return tour


def _verify_replay(path: Path, setup, data: SaveData, bots, actions, tour=None) -> Record:

    # The file passed its checksum, so it is what some flamme-tui wrote; still,
    # whatever goes wrong while replaying it becomes a clean SaveError.
    try:
        session = Session(setup, data.seed, bots)
    except Exception as exc:  # noqa: BLE001
        raise _unusable(path, _("setup: {problem}"), exc) from None
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
            raise _replays_not(path, _("action {n}, {entry}, is not allowed").format(n=n, entry=entry)) from None
        except Exception as exc:  # noqa: BLE001
            raise _replays_not(path, _("action {n}, {entry}: {problem}").format(
                n=n, entry=entry, problem=type(exc).__name__)) from None
        game = session.game
        if game.rounds_done > (checks[-1][0] if checks else 0):  # as _round_checks
            done = game.rounds_done
            checks.append((done, n, state_digest(game)))
            if not undo and (len(checks) > len(rounds) or rounds[len(checks) - 1] != checks[-1]):  # (said early)
                raise _replays_not(path, _("round {round} differs").format(round=done))
    for done, (check, want) in enumerate(zip(checks, rounds, strict=False), 1):
        if check != want:
            raise _replays_not(path, _("round {round} differs").format(round=done))
    game = session.game
    if len(checks) != len(rounds) or state_digest(game) != data.state:
        raise _replays_not(path, _("the last position differs"))
    summary = json.loads(data.summary.model_dump_json())
    if summary.get("tour", 0) is None:  # a race: no tour in its summary
        del summary["tour"]
    if not _same_summary(summary, game, tour):
        raise _damaged(path, _("its summary does not match the race"))
    return Record(setup, data.seed, bots, actions, data, _info(path, data), tour)


def _same_summary(saved: dict, game, tour) -> bool:
    """Whether a save's summary is its race's.  The winner is a name in words
    ("Rouleur Rouge"), written in the language of whoever saved the race: a
    race saved in French opens in Spanish, so each language's words are tried."""
    if saved == _summary(game, tour):
        return True
    from .. import i18n

    current = i18n.language()
    for code in i18n.LANGUAGES:
        if code != current:
            with i18n.speaking(code):  # (this thread only: a worker reads saves while the screens draw)
                if saved == _summary(game, tour):
                    return True
    return False


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


def race_file(path: Path) -> Path:
    """The race file a path is or is a backup of: NAME.json for NAME.json, NAME.json.1 and NAME.json.2."""
    return _base_of(Path(path))


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
    file name nobody uses (no file, backup or lock of that name, nor a link, even one
    to nothing: the race would be written over it)."""
    path = folder / f"{base}{SUFFIX}"
    n = 2
    while any(p.exists() or p.is_symlink() for p in (path, _backup(path, 1), _lock_path(path))):
        path = folder / f"{base}-{n}{SUFFIX}"
        n += 1
    return path


