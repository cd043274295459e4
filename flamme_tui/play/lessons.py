"""Lessons of the tutorial, as data: `stages/lessons/*.yaml`.

A lesson is a short race on a fixed stage and seed: the player's team
against scripted opponents (for each round, the cards each of their riders
plays if it holds one), and for the rounds it teaches, one step each: the
idea, what to look at, and a check of what the player did (`check`: one of
CHECKS, said after the reveal as `passed` or `missed`).  What the reveal did is
explained from the engine's events (play/tutorial.py), not written here.
A lesson is added by adding a file: no code.

Its words are data too: each text (a lesson's title, intro and outro, a
step's idea, text, passed and missed, a team's name) may come in French and
Spanish beside the English, in a block `fr:` or `es:` with the same field
names (validated as the English is: lengths, no control character).  The
lesson speaks the player's language (i18n) where its file does, and English
where it does not (`said`).  The words the tutorial adds around them (the
reveal explained, the keys) go through the gettext catalogs as every other
text of the game.

A text may name a key the player can rebind as `{key:ID}` (`{key:race.hint}`,
an id of the Settings screen's keys): the lesson shows the key as the player
has it bound (`with_keys`), since a key written out goes stale when rebound.

A file with a mistake gives one line naming the file, the line and the
field (config.ConfigError), as stage files do.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, field_validator

from .. import files, usertext
from ..config import ConfigError, data_dir
from ..i18n import N_, _, language

MODEL = ConfigDict(extra="forbid", frozen=True)  # Strict* fields: no number from a string
MAX_TEXT = 1200  # characters of a step's text: it must fit beside the track at 80x24
# what a step can check of the round the player just played (see play/tutorial.py, `checked`)
Check = Literal["draw_rouleur_first", "no_exhaustion", "slipstream", "not_blocked", "no_card_wasted_on_climb",
                "descent_gained", "finish", "no_crash", "supply_gained", "catch_up", "broke_away"]
CHECKS = get_args(Check)
Kind = Literal["S", "R"]
Colour = Literal["red", "blue", "green", "black", "white", "pink"]
Text = Annotated[StrictStr, Field(min_length=1, max_length=MAX_TEXT)]
Card = Annotated[StrictInt, Field(ge=0, le=9)]  # 0: an exhaustion card


class _Texts(BaseModel):
    model_config = MODEL

    @field_validator("*", mode="after")
    @classmethod
    def _printable(cls, value: object) -> object:
        # shown in the app: nothing may reach the terminal as a control character
        if isinstance(value, str):
            return usertext.check(value, multiline=True)
        return value

    def said(self, field: str) -> str:
        """The text `field` in the player's language: its `fr:`/`es:` block's, else the English."""
        words = getattr(self, language(), None) if language() in LANGUAGES else None
        text = getattr(words, field, None) if words is not None else None
        return text or str(getattr(self, field))


KEY_MARK = re.compile(r"\{key:([a-z_]+(?:\.[a-z_]+)*)\}")  # a rebindable key in a lesson's text


def with_keys(text: str, key_of: Callable[[str], str | None]) -> str:
    """`text` with each `{key:ID}` replaced by the key `key_of(ID)` (the key
    as bound; None: no such binding, the mark is left as written)."""
    return KEY_MARK.sub(lambda m: key_of(m.group(1)) or m.group(0), text)


LANGUAGES = ("fr", "es")  # the languages a lesson file may speak besides English
Name = Annotated[StrictStr, Field(min_length=1, max_length=20)]
Idea = Annotated[StrictStr, Field(min_length=1, max_length=40)]
Said = Annotated[StrictStr, Field(max_length=MAX_TEXT)]


class StepWords(_Texts):
    """A step's words in another language (every field may be left to the English)."""

    idea: Idea | None = None
    text: Text | None = None
    passed: Said | None = None
    missed: Said | None = None


class NameWords(_Texts):
    name: Name | None = None


class LessonWords(_Texts):
    title: Annotated[StrictStr, Field(min_length=1, max_length=60)] | None = None
    intro: Text | None = None
    outro: Text | None = None


class Step(_Texts):
    """What one round teaches: the round given (`round`), or the first round
    in which the player's riders reach a kind of place (`at`: "climb": a climb
    within 9 squares ahead of one of them; "descent": one within 6;
    "finish": the line within 9 squares; "wet": a wet square within 9 (meteo);
    "wind": one of them under a tailwind or headwind (meteo); "supply",
    "cobbles": a supply zone, cobblestones within 9 (Peloton tiles);
    "breakaway": the Peloton breakaway's bids, before round 1, in a lesson
    with `breakaway: true`, and then only).  The step of round 1 comes first
    in round 1, then a step of a place (it will not wait), then a step of a
    round (it may come a round or two late)."""

    round: StrictInt | None = Field(None, ge=1, le=30)
    at: Literal["climb", "descent", "finish", "wet", "wind", "supply", "cobbles", "breakaway"] | None = None
    recycled: bool = False  # after the reveal, also say which cards went back under each deck
    idea: Idea  # "The energy draw"
    text: Text  # before the player chooses: what to look at on the track and in the hand
    check: Check | None = None  # what the player is asked to do, checked after the reveal
    passed: Said = ""  # said when the check passed
    missed: Said = ""  # ... when it did not
    fr: StepWords | None = None  # the same words in French, Spanish
    es: StepWords | None = None


class Opponent(_Texts):
    """A scripted team: per round, for each rider, the cards it plays if it holds
    one (the first it holds); else (or after the last round listed) its lowest card."""

    name: Name
    colour: Colour
    fr: NameWords | None = None  # its name in French, Spanish ("Rouge", "Rojo")
    es: NameWords | None = None
    rounds: tuple[dict[Kind, tuple[Card, ...]], ...] = Field((), max_length=30)
    # the breakaway (a lesson with `breakaway: true`): its Rouleur bids, keeping at
    # each bid the first of these cards it holds, else its lowest
    bids: tuple[Card, ...] = Field((), max_length=10)


class Player(_Texts):
    name: Name = N_("You")  # (a file that names no player: "You" in the player's language, `team_name`)
    colour: Colour = "blue"
    fr: NameWords | None = None
    es: NameWords | None = None


def team_name(player: Player) -> str:
    """The player's team's name: the file's (in the player's language where it gives one), else "You"."""
    return player.said("name") if "name" in player.model_fields_set else _(player.name)


class Lesson(_Texts):
    """One lesson file."""

    title: Annotated[StrictStr, Field(min_length=1, max_length=60)]
    order: StrictInt = Field(ge=0, le=999)  # place in the menu
    rules: Literal["classic", "meteo", "bmx"] = "classic"  # (a Peloton lesson: classic rules on a Peloton stage)
    # classic, meteo: a stage id, or a stage file beside the lesson; bmx: the circuit's sides ("ABCD", "aBcD")
    stage: Annotated[StrictStr, Field(min_length=1, max_length=200)]
    seed: StrictInt = Field(ge=0, le=999_999)
    # the Peloton breakaway before round 1 (classic rules, a stage whose second tile is tile 2)
    breakaway: bool = False
    player: Player = Player()
    opponents: tuple[Opponent, ...] = Field(min_length=1, max_length=3)
    intro: Text
    steps: tuple[Step, ...] = Field(min_length=1, max_length=30)
    outro: Text
    fr: LessonWords | None = None  # its title, intro and outro in French, Spanish
    es: LessonWords | None = None


class Entry:
    """A lesson as the menu lists it: its id (the file's name), and the lesson
    or the one line that says what is wrong with its file."""

    def __init__(self, id: str, path: Path, lesson: Lesson | None, problem: str | None) -> None:
        self.id = id
        self.path = path
        self.lesson = lesson
        self.problem = problem


def lessons_dir() -> Path:
    return data_dir() / "lessons"


def load(path: Path) -> Lesson:
    """The lesson in `path` (ConfigError: one line, file, line and field)."""
    from ..config import _first, _problems  # the stage files' reader: the same lines for the same mistakes

    lesson, problems = _problems(Lesson, path, None, files.DATA_FILE)
    if problems or lesson is None:
        raise _first(path, problems)
    for k, step in enumerate(lesson.steps):
        if (step.round is None) == (step.at is None):
            raise ConfigError(_("give a step either a round or an `at` (climb, descent, finish)"), file=path,
                              field=f"steps.{k}")
        if step.check is not None and (step.check == "broke_away") != (step.at == "breakaway"):
            raise ConfigError(_("the check broke_away belongs to a step `at: breakaway`"), file=path,
                              field=f"steps.{k}.check")
        if step.at == "breakaway" and not lesson.breakaway:
            raise ConfigError(_("a step `at: breakaway` needs `breakaway: true` (the race has none)"), file=path,
                              field=f"steps.{k}.at")
    if lesson.breakaway:
        _check_breakaway(path, lesson)
    colours = [lesson.player.colour, *(o.colour for o in lesson.opponents)]
    if len(set(colours)) != len(colours):
        raise ConfigError(_("opponents: each team a colour of its own"), file=path, field="opponents")
    return lesson


def _check_breakaway(path: Path, lesson: Lesson) -> None:
    """A lesson with a breakaway races classic or meteo rules on a stage that has the breakaway square."""
    from ..engine.rules import find

    if find(lesson.rules).uses_tokens:  # BMX: one rider a seat on a circuit
        raise ConfigError(_("BMX has no breakaway"), file=path, field="breakaway")
    from ..engine.race import Team
    from .races import RaceSpec, make_setup

    teams = (Team(lesson.player.name, lesson.player.colour), *(Team(o.name, o.colour) for o in lesson.opponents))
    try:
        setup = make_setup(RaceSpec(variant=lesson.rules, stage=stage_ref(path, lesson.stage), teams=teams))
    except (ConfigError, ValueError):
        return  # the stage's own problem is told when the lesson is started, as for any stage
    if setup.course.breakaway < 0:
        raise ConfigError(_("this stage has no breakaway square (its second tile must be Peloton tile 2)"),
                          file=path, field="breakaway")


def stage_ref(entry_path: Path, stage: str) -> str:
    """The stage a lesson names: a file beside the lesson, else a stage id."""
    beside = entry_path.parent / stage
    return str(beside) if stage.endswith((".yaml", ".yml")) else stage


def catalogue(folder: Path | None = None) -> list[Entry]:
    """Every lesson file, in the lessons' order (bad files last, with their line)."""
    folder = lessons_dir() if folder is None else folder
    out: list[Entry] = []
    for path in sorted(folder.glob("*.yaml")):
        try:
            out.append(Entry(path.stem, path, load(path), None))
        except ConfigError as exc:
            out.append(Entry(path.stem, path, None, str(exc)))
    return sorted(out, key=lambda e: (e.lesson is None, e.lesson.order if e.lesson else 0, e.id))


__all__ = ["CHECKS", "KEY_MARK", "LANGUAGES", "Entry", "Lesson", "Opponent", "Step",
           "catalogue", "load", "lessons_dir", "stage_ref", "with_keys"]
