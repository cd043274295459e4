"""The save format: its versions, the pydantic models of a save, the digest of a game's state."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    field_validator,
    model_validator,
)

from .. import limits as lim
from .. import usertext
from ..engine.rules import find
from ..i18n import _
from ..pathtext import show_path
from ..play.session import UNDO
from ..setupdata import (
    MODEL,
    ClassicSetupData,
    Label,
    SetupData,
    TeamName,
    a_name,
    no_control,
)

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

    def __init__(self, path: Path | str, reason: str, *, backups: list[tuple[Path, str]] | None = None,
                 kind: str = "") -> None:
        self.path = Path(path)
        self.reason = reason  # in the player's language: what it is, `kind` (DAMAGED, NEWER or "")
        self.kind = kind
        self.backups = list(backups or [])  # (path, "round 7" / "finished")
        super().__init__(str(self))

    def __str__(self) -> str:
        try:
            shown = _show(self.path)
        except RuntimeError:  # Path.resolve() on a symlink loop (Python < 3.13)
            shown = str(self.path)
        text = f"{shown} {self.reason}"
        race = self.race_file()
        if race is not None:  # a backup asked for: the race file itself is no backup
            text += _("; the race file: {file} ({what})").format(file=race[0].name, what=race[1])
        older = [(p, what) for p, what in self.backups if (p, what) != race]
        if older:
            text += _("; backups: {backups}").format(backups=", ".join(f"{p.name} ({what})" for p, what in older))
        return usertext.clean(text, multiline=False)  # file names may hold control characters: written out

    def race_file(self) -> tuple[Path, str] | None:
        """The race file among `backups`, when this file is one of its backups (NAME.1, NAME.2)."""
        suffix = self.path.suffix
        if suffix not in (".1", ".2"):
            return None
        return next(((p, what) for p, what in self.backups if p.name + suffix == self.path.name), None)


# what a SaveError is, whatever the language of its words
DAMAGED = "damaged"  # the file is not a good save: set aside before the race file is written again
NEWER = "newer"  # written by a newer flamme-tui


def damaged(path: Path | str, reason: str, *, backups: list[tuple[Path, str]] | None = None) -> SaveError:
    """The file is damaged: "save.json is damaged (truncated)", in the player's language."""
    return SaveError(path, _("is damaged ({reason})").format(reason=reason), backups=backups, kind=DAMAGED)


class SaveLocked(SaveError):
    """The race file is open in another running flamme-tui."""


def _show(path: Path) -> str:
    return show_path(path)  # never fails: error messages use it


# ---------------------------------------------------------------- the format

# the set-up's part of the format (its models and codec) is setupdata.py, which
# play/ uses too (the bots' thinker): saves/ is above play/, setupdata.py below
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
            raise ValueError(_("done: a stage is raced after the last one"))
        first = self.legs[0]
        for leg in self.legs:
            if leg.teams != first.teams or leg.scripted != first.scripted:
                raise ValueError(_("legs: every stage has the same teams"))
            if leg.tour or leg.carried or leg.grid_order or leg.tour_times or leg.tour_points:
                raise ValueError(_("legs: a stage's set-up before the tour's carry-over"))
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
            raise ValueError(_("tour: a tour's summary without its tour, or the other way round"))
        undo = UNDO in self.actions or (self.tour is not None and any(UNDO in d.actions for d in self.tour.done))
        if self.version != _version(self.tour is not None, undo):
            raise ValueError(_("version: a tour is saved in format 2, a race in format 1, either with an undo in 3"))
        if self.tour is not None and not isinstance(self.setup, ClassicSetupData):
            raise ValueError(_("tour: its stages are classic or meteo races"))
        if any(int(seat) >= len(self.setup.teams) for seat in self.bots):
            raise ValueError(_("bots: a seat number past the last team"))
        if any(h.seat >= len(self.setup.teams) or h.at > len(self.actions) for h in self.hints):
            raise ValueError(_("hints: a seat past the last team, or past the end of the log"))
        if find(self.summary.variant) is not find(self.setup.variant):
            raise ValueError(_("summary: another variant than the setup's"))
        last = (0, 0)
        for check in self.rounds:
            if check.round <= last[0] or check.actions <= last[1] or check.actions > len(self.actions):
                raise ValueError(_("rounds: not in order, or past the end of the log"))
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
    from ..play.races import new_game

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


