"""Tours: YAML files naming stages, and the driver that races them in turn.

A tour file (stages/tours/*.yaml shipped, `tours/` in the user data folder
beside the user's `stages/`) is a name and a list of stages, each a stage id
(built-in or user) raced as classic or meteo.  Files go through config's
reader and validator like stage files: one line per problem, naming the
file and the field.

`Tour` is a whole tour as setup + seed + the action log of each stage: the
carry-over of exhaustion and the grid order of each stage come from the
stages before it (engine.tour), so replaying the logs rebuilds the tour.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, StrictStr, ValidationInfo, field_validator

from .. import config, usertext
from ..engine import tour as rules
from ..engine.cards import EXHAUSTION
from ..engine.classic import ClassicGame, ClassicSetup, Rider
from ..engine.phase import Phase
from ..engine.race import Team
from ..i18n import _
from ..limits import MAX_TOUR_NAME, MAX_TOUR_STAGES
from .races import RaceSpec, make_setup, new_game
from .session import UNDO, Entry, Session, effective

MAX_STAGES = MAX_TOUR_STAGES
LegVariant = Literal["classic", "meteo"]  # the rule sets a tour stage can race
# what may follow a stage id in --stages: nothing (classic) or a leg's variant
LEG_VARIANTS: dict[str, LegVariant] = {"": "classic", "classic": "classic", "meteo": "meteo"}


class TourStage(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    stage: StrictStr = Field(min_length=1, max_length=100)  # a stage id, built-in or user
    variant: LegVariant = "classic"


class TourSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: StrictStr = Field(min_length=1, max_length=MAX_TOUR_NAME)
    stages: tuple[TourStage, ...] = Field(min_length=1, max_length=MAX_STAGES)
    description: StrictStr = Field(default="", max_length=400)
    fr: config.Words | None = None  # its description in French, Spanish (English where left out)
    es: config.Words | None = None

    @property
    def description_said(self) -> str:
        """Its description in the player's language (config.Words)."""
        return config.said(self.description, "description", self.fr, self.es)

    @field_validator("name", "description")
    @classmethod
    def _no_control(cls, text: str, info: ValidationInfo) -> str:
        # printed by `tours list`, `tour` and shown by the app: nothing may reach the terminal as a control
        if info.field_name == "name":
            return usertext.check_name(text)  # nor be a blank of invisible characters
        return usertext.check(text, multiline=True)


# ----------------------------------------------------------------- files


def builtin_tours_dir() -> Path:
    return config.data_dir() / "tours"


def user_tours_dir() -> Path:
    """User tours: one YAML file per tour, beside the user's stages/."""
    return config.user_data_dir() / "tours"


def _yaml_files(folder: Path) -> dict[str, Path]:
    """Tour files by id.  As with stages, every *.yaml entry that is not a
    folder counts: a FIFO or a symlink loop is listed as a broken tour,
    never hidden (user_tours_problem says when the folder cannot be read)."""
    try:
        files = config.stage_files_in(folder)
    except OSError:
        return {}
    found: dict[str, Path] = {}
    for path in files:
        found.setdefault(path.stem, path)
    return found


@dataclass(frozen=True, slots=True)
class TourEntry:
    id: str
    path: Path
    source: str  # "built-in" or "user"
    shadowed: bool = False  # a user tour with a built-in tour's id


def tour_entries() -> list[TourEntry]:
    builtin = _yaml_files(builtin_tours_dir())
    entries = [TourEntry(tid, path, "built-in") for tid, path in sorted(builtin.items(), key=_by_length)]
    entries += [TourEntry(tid, path, "user", tid in builtin) for tid, path in _yaml_files(user_tours_dir()).items()]
    return entries


def user_tours_problem() -> config.ConfigError | None:
    """Why the user tours folder cannot be listed, if it exists and cannot."""
    folder = user_tours_dir()
    try:
        next(folder.iterdir(), None)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return config.ConfigError(_("cannot list folder: {problem}").format(problem=exc.strerror or exc), file=folder)
    return None


def _stage_problem(exc: config.ConfigError) -> str:
    """A stage's problem, said from a tour: with the stage file and line
    when the problem is in the file."""
    return str(exc) if exc.file is not None else exc.message


def _by_length(item: tuple[str, Path]) -> tuple[int, str]:
    """Shipped tours shortest first: their ids start with the stage count ('3-...')."""
    head = item[0].split("-", 1)[0]
    return (int(head) if head.isdigit() else 99, item[0])


# Tour files read, by file identity (path, inode, mtime, size): a tour menu
# stats each file instead of parsing it again.  Only the file is kept: the
# stages it names are checked at every read (their files have a cache of their own).
_TOUR_CACHE: dict[tuple, tuple[TourSpec | None, list[config.ConfigError]]] = {}
_TOUR_CACHE_SIZE = 4096


@functools.lru_cache(maxsize=1024)
def _compiles(stage: config.StageSpec) -> None:
    """That a stage compiles (ConfigError if not), once per stage: thousands of
    tours name the same few stages, each compiled again took a menu minutes."""
    config.stage_summary(stage)


def check_tour_file(path: Path, user_stages: dict[str, Path] | None = None) -> tuple[TourSpec | None, list[config.ConfigError]]:
    """Validate one tour file, its stages included: (the tour if good, every problem).
    `user_stages`: config.user_stage_files(), listed once by a caller checking many tours."""
    spec, parsed = config.cached_read(_TOUR_CACHE, _TOUR_CACHE_SIZE, path, lambda: config._problems(TourSpec, path))
    problems = list(parsed)
    if spec is None:
        return None, problems
    for k, leg in enumerate(spec.stages):
        try:
            _compiles(config.load_stage(_stage_ref(leg.stage), user_stages=user_stages))
        except config.ConfigError as exc:
            problems.append(config.ConfigError(_stage_problem(exc), file=path, field=f"stages[{k}].stage"))
    return (spec if not problems else None), problems


def _stage_ref(stage: str) -> str:
    """A tour names stages by id only (never a path): ids are file names."""
    if "/" in stage or "\\" in stage or stage.endswith((".yaml", ".yml")) or stage.startswith("."):
        raise config.ConfigError(_("a stage id, not a path: {stage}").format(stage=repr(stage)))
    return stage


def load_tour(ref: str) -> TourSpec:
    """A tour by id (built-in, else user) or by path to a .yaml file."""
    if ref.endswith((".yaml", ".yml")) or "/" in ref:
        path = Path(ref)
    else:
        found = {e.id: e.path for e in reversed(tour_entries())}  # built-in wins over a user tour's id
        if ref not in found:
            known = ", ".join(e.id for e in tour_entries() if not e.shadowed)
            raise config.ConfigError(_("unknown tour {tour} (known: {known})").format(tour=repr(ref), known=known),
                                     field="--tour")
        path = found[ref]
    spec, problems = check_tour_file(path)
    if spec is None:
        first = problems[0]
        more = _(" (and {n} more)").format(n=len(problems) - 1) if len(problems) > 1 else ""
        raise config.ConfigError(first.message + more, file=path, line=first.line, field=first.field)
    return spec


def seat_rules(spec: TourSpec) -> str:
    """The rule set the seats of a tour are checked against: they race every
    stage, so a stage whose rule set allows no scripted team decides."""
    from ..engine.rules import find

    return next((leg.variant for leg in spec.stages if not find(leg.variant).scripted_teams), spec.stages[0].variant)


def stages_option(text: str) -> TourSpec:
    """--stages a,b:meteo,c: a tour of those stages (each `id` or `id:variant`)."""
    legs = []
    for k, part in enumerate(p.strip() for p in text.split(",")):
        stage, _sep, name = part.partition(":")
        variant = LEG_VARIANTS.get(name)
        if variant is None:
            raise config.ConfigError(_("variant of stage {k} must be classic or meteo, got {name}").format(
                k=k + 1, name=repr(name)), field="--stages")
        try:
            config.load_stage(_stage_ref(stage))
        except config.ConfigError as exc:
            raise config.ConfigError(_stage_problem(exc), field="--stages") from None
        legs.append(TourStage(stage=stage, variant=variant))
    if not 1 <= len(legs) <= MAX_STAGES:
        raise config.ConfigError(_("1 to {most} stages, got {n}").format(most=MAX_STAGES, n=len(legs)), field="--stages")
    return TourSpec(name=_("Custom tour"), stages=tuple(legs))


# ---------------------------------------------------------------- driver


def stage_seed(seed: int, k: int) -> int:
    """Stage k's seed (0-based), from the tour's."""
    return seed * 100 + k


@dataclass(slots=True)
class StageDone:
    """A stage raced: its game, its result lines (engine.tour.StageLine) and
    its log as played, undos included (session.entries; the game's actions
    when it was raced without a session)."""

    game: ClassicGame
    result: list[rules.StageLine]
    log: tuple[Entry, ...] = ()

    @property
    def entries(self) -> tuple[Entry, ...]:
        return self.log or tuple(self.game.actions)


@dataclass(slots=True)
class Tour:
    """A tour: its name, each stage's set-up as built when the tour began
    (course and rules data: a later edit of a stage file cannot change a tour
    in progress), its seed and the stages raced.  The next stage's set-up
    (carried exhaustion, grid order, the standing) follows from the stages
    already raced, so the set-up, the seed and each stage's action log are
    the whole tour.  Build with `Tour.new`."""

    name: str
    legs: tuple[ClassicSetup, ...]
    seed: int
    done: list[StageDone] = field(default_factory=list)

    @classmethod
    def new(cls, spec: TourSpec, teams: tuple[Team, ...], seed: int, scripted: tuple[str, ...] = (), *,
            grid: str = "random", handicap: tuple[int, ...] = (), breakaway: bool = False) -> Tour:
        """A tour of `spec`'s stages (read now) for these teams; with `breakaway`,
        the Peloton breakaway opens every stage that has the breakaway square."""
        legs = []
        for leg in spec.stages:
            setup = make_setup(RaceSpec(variant=leg.variant, stage=leg.stage, teams=teams, scripted=scripted,
                                        grid=grid, handicap=handicap))
            legs.append(replace(setup, breakaway=breakaway and setup.course.breakaway >= 0))
        return cls(spec.name, tuple(legs), seed)

    @property
    def teams(self) -> tuple[Team, ...]:
        teams: tuple[Team, ...] = self.legs[0].teams
        return teams

    @property
    def stages(self) -> int:
        return len(self.legs)

    @property
    def over(self) -> bool:
        return len(self.done) == len(self.legs)

    def results(self) -> list[list[rules.StageLine]]:
        return [d.result for d in self.done]

    def gc(self) -> list[rules.GcLine]:
        return rules.general(self.results())

    def points(self) -> dict[int, int]:
        """Each team's Tour Points (every team, none left out), the final GC's once the tour is over."""
        points = {seat: 0 for seat in range(len(self.teams))}
        points.update(rules.tour_points(self.results(), final=self.over))
        return points

    def ranking(self) -> list[rules.TeamLine]:
        """Teams by Tour Points (the first is the tour's winner once it is over)."""
        return rules.tp_ranking(self.points(), self.gc())

    def leader(self) -> str | None:
        """The rider id in the yellow jersey (the GC leader), None before the first stage."""
        gc = self.gc()
        return gc[0].rider if gc else None

    def next_setup(self) -> ClassicSetup:
        """The set-up of the next stage: a tour stage, carried exhaustion and,
        from the second stage, the grid order and the standing."""
        setup: ClassicSetup = replace(self.legs[len(self.done)], tour=True)
        if self.done:
            last = self.done[-1].game
            carried = tuple(0 if last.script[r.seat] else rules.carried(_exhaustion_cards(r)) for r in last.riders)
            points = self.points()
            order = tuple(rules.grid_order(points, self.gc()))
            totals = {g.rider: g.time for g in self.gc()}
            times = tuple(totals[r.id] for r in last.riders)
            setup = replace(setup, carried=carried, grid_order=order, tour_times=times,
                            tour_points=tuple(points[seat] for seat in range(len(self.teams))))
            if setup.rulings >= 2:  # handicaps are dealt once, at the first stage (GRAND-TOUR.md)
                setup = replace(setup, handicap=(), solo_handicap=(0, 0))
        return setup

    def new_stage(self) -> ClassicGame:
        game: ClassicGame = new_game(self.next_setup(), stage_seed(self.seed, len(self.done)))
        return game

    def finish_stage(self, game: ClassicGame, log: tuple[Entry, ...] = ()) -> StageDone:
        """The stage `game` is over (`log`: its log as played, when it held undos)."""
        if game.phase != Phase.OVER:
            raise ValueError("the stage is not over")
        done = StageDone(game, rules.stage_of(game), tuple(log))
        self.done.append(done)
        return done

    def with_stage(self, game: ClassicGame, log: tuple[Entry, ...] = ()) -> Tour:
        """This tour with `game`, its next stage, finished (a new Tour; this one is left as it is)."""
        after = Tour(self.name, self.legs, self.seed, list(self.done))
        after.finish_stage(game, log)
        return after

    def replay(self, logs: list[list[Entry]]) -> None:
        """Rebuild the stages from their logs (actions, and undos: see
        Session.undo); a stage left unfinished is not kept."""
        for log in logs:
            game = self.new_stage()
            for action in effective(log):
                game.apply(action)
            if game.phase != Phase.OVER:
                break
            self.finish_stage(game, tuple(log) if UNDO in log else ())


def _exhaustion_cards(rider: Rider) -> int:
    """Exhaustion cards in a rider's deck, hand and recycled cards."""
    return rider.deck.count(EXHAUSTION) + rider.hand.count(EXHAUSTION) + rider.recycled.count(EXHAUSTION)


# -------------------------------------------------------------- sessions


def stage_session(tour: Tour, bots: dict[int, str] | None = None) -> Session:
    """The tour's next stage as a Session (its `tour`: the stages before it)."""
    session = Session(tour.next_setup(), stage_seed(tour.seed, len(tour.done)), bots)
    session.tour = tour
    return session


def session_log(session: Session) -> tuple[Entry, ...]:
    """A stage's log to keep once it is over: its entries when it holds an
    undo (else the game's actions say it all)."""
    return tuple(session.entries) if session.has_undo else ()


def standing(session: Session) -> Tour:
    """The tour as it stands: the session's stage included once it is over."""
    tour = session.tour
    assert tour is not None
    return tour.with_stage(session.game, session_log(session)) if session.over else tour


def tour_over(session: Session) -> bool:
    """The session's stage was the tour's last one and it is over."""
    tour = session.tour
    return tour is not None and session.over and len(tour.done) + 1 == tour.stages


def next_session(session: Session) -> Session:
    """After a finished stage (not the last): the next stage, same bots (and
    the expert's budget) and race file."""
    following = stage_session(standing(session), session.bots)
    following.budget = session.budget
    following.race_id, following.created, following.save_path = session.race_id, session.created, session.save_path
    return following


def race_tour(tour: Tour, play: Callable[[ClassicGame], None],
              on_stage: Callable[[Tour, StageDone], None] | None = None) -> Tour:
    """Race every stage left with `play` (which plays a stage to its end)."""
    while not tour.over:
        game = tour.new_stage()
        play(game)
        done = tour.finish_stage(game)
        if on_stage is not None:
            on_stage(tour, done)
    return tour
