"""`flamme-tui conformance PATH...`: run rules cases (YAML, the `Case` model below;
tests/conformance/ holds the project's).

Each case becomes a real game position (Race.from_position); the round is
resolved by the engine's entry point for one made-up round (Race.resolve),
which runs the same move and end phases as a game.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from . import files, pydantic_words
from .engine.actions import Choice
from .engine.bmx import FATIGUE, BmxSetup
from .engine.cards import EXHAUSTION, card_value
from .engine.classic import ClassicSetup
from .engine.course import WEATHER_KINDS, Course
from .engine.events import Exhaustion, Fatigue, Move
from .engine.race import Placed
from .engine.rules import find
from .i18n import _, ngettext
from .limits import MAX_CASE_SQUARES, MAX_COLOURS, MAX_RIDERS
from .play.races import COLOURS, RaceSpec, make_setup
from .usertext import clean

# The colours a rider id may have (FORMAT.md, riders).  BMX also knows yellow:
# the shared BMX cases race a yellow rider.
CLASSIC_COLOURS = COLOURS
BMX_COLOURS = (*COLOURS, "yellow")


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# Every square a case names is a square of the course built for it (build_course), so
# each is bounded: nothing larger than MAX_CASE_SQUARES (limits.py) is built from a file.
Square = Annotated[int, Field(ge=0, lt=MAX_CASE_SQUARES)]


class WeatherRange(_Model):
    kind: Literal["crosswind", "tailwind", "headwind", "wet"]
    from_: Square = Field(alias="from")
    to: Square

    @model_validator(mode="after")
    def _order(self) -> WeatherRange:
        if self.to < self.from_:
            raise ValueError(_("to {to} comes before from {first}").format(to=self.to, first=self.from_))
        return self


class Ramp(_Model):
    square: Square
    number: int = Field(ge=1, le=5)


class TrackSpec(_Model):
    squares: str = Field(min_length=1, max_length=MAX_CASE_SQUARES)
    finish: int = Field(ge=1, lt=MAX_CASE_SQUARES)
    single_lane: list[Square] = Field([], max_length=MAX_CASE_SQUARES)
    # lanes of each square, one digit 1-3 per square (Peloton: 3-lane, 1-lane cobbles)
    lanes: str | None = Field(None, pattern=r"^[123]+$")
    weather: list[WeatherRange] = Field([], max_length=100)  # each up to MAX_CASE_SQUARES squares long
    ramp: Ramp | None = None

    @model_validator(mode="after")
    def _lanes(self) -> TrackSpec:
        if self.lanes is not None:
            if len(self.lanes) != len(self.squares):
                raise ValueError(_("track.lanes: one digit per square ({n}), got {got}").format(
                    n=len(self.squares), got=len(self.lanes)))
            if self.single_lane:
                raise ValueError(_("track: give lanes or single_lane, not both"))
        return self


class RiderSpec(_Model):
    id: str
    square: Square
    lane: Literal[0, 1, 2]
    crashed: bool = False


Token = int | Literal["F"]


class Expect(_Model):
    draw: dict[str, int] | None = None
    order: list[str] | None = None
    moved: dict[str, tuple[int, int]] | None = None
    final: dict[str, tuple[int, int]] | None = None
    exhausted: dict[str, int] | None = None
    crashed: list[str] | None = None
    winner: str | None = None


class Case(_Model):
    name: str
    variant: Literal["classic", "meteo", "bmx"]
    track: TrackSpec
    riders: list[RiderSpec] = Field(min_length=1, max_length=MAX_RIDERS)
    play: dict[str, Token | list[Token]] | None = None
    die: Literal[1, 2, "none"] | None = None
    expect: Expect

    @model_validator(mode="after")
    def _check(self) -> Case:
        tokens = find(self.variant).uses_tokens
        terrain = ".bkmv" if tokens else ".^vsc"
        if tokens and self.track.lanes is not None:
            raise ValueError(_("track.lanes: classic and meteo only (bmx: single_lane)"))
        unknown = sorted(set(self.track.squares) - set(terrain))
        if unknown:
            raise ValueError(_("track.squares: unknown terrain {letter} for {variant} (use {terrain})").format(
                letter=repr(unknown[0]), variant=self.variant, terrain=" ".join(terrain)))
        ids = [r.id for r in self.riders]
        if len(set(ids)) != len(ids):
            raise ValueError(_("riders: a rider id appears twice"))
        places = [(r.square, r.lane) for r in self.riders]
        if len(set(places)) != len(places):
            raise ValueError(_("riders: two riders in one lane"))
        for r in self.riders:
            if tokens:
                if "." in r.id:
                    raise ValueError(_("riders: bmx rider ids are colours, not {id}").format(id=repr(r.id)))
            elif not (r.id.count(".") == 1 and r.id.split(".")[1] in ("S", "R")):
                raise ValueError(_("riders: {id} is not colour.S or colour.R").format(id=repr(r.id)))
            colours = BMX_COLOURS if tokens else CLASSIC_COLOURS
            if r.id.split(".")[0] not in colours:
                raise ValueError(_("riders: {id}: unknown colour (use {colours})").format(
                    id=repr(r.id), colours=", ".join(colours)))
        for r in self.riders:
            lanes = lanes_of(self.track, r.square)
            if r.lane >= lanes:
                raise ValueError(ngettext("riders: {id} stands in lane {lane} of square {square}, which has {n} lane",
                                          "riders: {id} stands in lane {lane} of square {square}, which has {n} lanes",
                                          lanes).format(id=r.id, lane=r.lane, square=r.square, n=lanes))
        teams = {r.id.split(".")[0] for r in self.riders}
        most = 4 if tokens else MAX_COLOURS
        if len(teams) > most:
            raise ValueError((_("riders: at most {most} riders in {variant}") if tokens else
                              _("riders: at most {most} colours in {variant}")).format(most=most, variant=self.variant))
        if self.play is not None:
            missing = set(ids) - set(self.play)
            extra = set(self.play) - set(ids)
            if missing or extra:
                raise ValueError(_("play: must name every rider once (missing {missing}, unknown {extra})").format(
                    missing=sorted(missing), extra=sorted(extra)))
            for rid, value in self.play.items():
                values = value if isinstance(value, list) else [value]
                for v in values:
                    if tokens:
                        if v != "F" and not 1 <= v <= 5:
                            raise ValueError(_("play: {id}: a token is 1 to 5 or F").format(id=rid))
                    elif v == "F" or not 2 <= v <= 9 or isinstance(value, list):
                        raise ValueError(_("play: {id}: a card is 2 to 9").format(id=rid))
            if tokens and self.die is None:
                raise ValueError(_("die: bmx cases with a play need the die's result"))
        return self


def lanes_of(track: TrackSpec, square: int) -> int:
    """Lanes of a case's square: `lanes` or `single_lane` say, a marsh square
    has one, any other two (squares past the end of `squares` too)."""
    if square < len(track.squares):
        if track.lanes is not None:
            return int(track.lanes[square])
        if track.squares[square] == "m":
            return 1
    return 1 if square in track.single_lane else 2


class CaseFile(_Model):
    cases: list[Case]


class CaseFileError(Exception):
    pass


def _field_path(loc: tuple, raw: dict) -> str:
    """'case "name": field.path' from a pydantic error location."""
    parts = list(loc)
    where = ""
    if len(parts) >= 2 and parts[0] == "cases" and isinstance(parts[1], int):
        try:
            where = _('case "{name}"').format(name=raw["cases"][parts[1]]["name"])
        except (KeyError, IndexError, TypeError):
            where = _("case #{n}").format(n=parts[1] + 1)
        parts = parts[2:]
    # drop pydantic's union-branch labels, keep real keys
    field = ".".join(str(p) for p in parts if not str(p).startswith(("function-", "literal[", "int", "list[")))
    return _("{case}: {field}").format(case=where, field=field) if where and field else where or field


def load_cases(path: Path) -> list[Case]:
    try:
        raw, _node, _stat = files.load_yaml(path, files.CASE_FILE)
    except files.ReadError as exc:  # bounded: size, nesting, no aliases or tags, regular files only
        line = f":{exc.line}" if exc.line else ""
        field = f" {exc.field}:" if exc.field else ""
        raise CaseFileError(f"{path}{line}:{field} {exc.reason}") from None
    if not isinstance(raw, dict):  # an empty file, a list, a number: no mapping to validate
        raise CaseFileError(_("{file}: cases: expected a mapping with a list of cases").format(file=path))
    try:
        names = [c.get("name") for c in raw.get("cases", [])]
        seen: set[object] = set()
        dupes: set[object] = set()
        for n in names:  # one pass (names.count per name took the square of the cases)
            if n is not None and not isinstance(n, (dict, list)):
                (dupes if n in seen else seen).add(n)
        if dupes:
            raise CaseFileError(_('{file}: case "{name}": name: not unique in its file').format(
                file=path, name=sorted(dupes, key=str)[0]))
        return CaseFile.model_validate(raw).cases
    except ValidationError as exc:
        err = exc.errors()[0]
        where = _field_path(err["loc"], raw if isinstance(raw, dict) else {})
        message = pydantic_words.message(err)  # in the player's language
        raise CaseFileError(_("{file}: {where}: {problem}").format(file=path, where=where, problem=message) if where
                            else _("{file}: {problem}").format(file=path, problem=message)) from None
    except (AttributeError, TypeError):
        raise CaseFileError(_("{file}: cases: expected a mapping with a list of cases").format(file=path)) from None


def build_course(case: Case) -> Course:
    track = case.track
    # squares past the end of the string are flat two-lane squares, however far
    furthest = max(r.square for r in case.riders) + 1
    terrain = track.squares + "." * max(0, furthest - len(track.squares))
    weather: tuple[str, ...] = ()
    if track.weather:
        w = [""] * len(terrain)
        for rng in track.weather:
            assert rng.kind in WEATHER_KINDS
            for sq in range(rng.from_, rng.to + 1):
                if sq >= len(w):
                    w.extend([""] * (sq + 1 - len(w)))
                w[sq] = rng.kind
        weather = tuple(w)
        terrain = terrain + "." * (len(w) - len(terrain))
    furthest = max([len(terrain) - 1, *track.single_lane])
    terrain += "." * (furthest + 1 - len(terrain))
    lanes = [lanes_of(track, sq) for sq in range(len(terrain))]
    ramp = (track.ramp.square, track.ramp.number) if track.ramp else None
    return Course.build(case.name, terrain, track.finish, 0, lanes=tuple(lanes), weather=weather, ramp=ramp)


@functools.cache
def _rules(variant: str) -> ClassicSetup | BmxSetup:
    """The variant's decks and numbers from the data files (stages/variants/*.yaml)."""
    return make_setup(RaceSpec(variant=variant))


def _code(variant: str, rid: str, value: int | str) -> int:
    """A case's card (token) as the engine's code: F (a fatigue token) and a
    rouleur's 2 (it has no 2 in its deck: an exhaustion card) are 0."""
    if value == "F":
        return FATIGUE
    assert isinstance(value, int)  # Case checked it
    if not find(variant).uses_tokens and value == 2 and rid.endswith(".R"):
        return EXHAUSTION
    return value


def _choice(case: Case, rid: str, value: Token | list[Token]) -> Choice:
    """What the rider plays, as the engine takes it: a card, or a set of tokens."""
    if find(case.variant).uses_tokens:
        values = value if isinstance(value, list) else [value]
        return tuple(_code(case.variant, rid, v) for v in values)
    assert not isinstance(value, list)  # Case checked it
    card = _code(case.variant, rid, value)
    assert card_value(card) == value
    return card


def run_case(case: Case) -> list[str]:
    """What differed from the expectation (empty when the case passes).  The
    round is resolved by the engine's own entry point for a made-up round
    (Race.resolve): the same move and end phases as a game's."""
    course = build_course(case)  # every rider stands in a lane of its square (Case checked it)
    rules = find(case.variant)
    placed = [Placed(r.id, r.square, r.lane, r.crashed) for r in case.riders]
    game = rules.game.from_position(course, placed, rules=_rules(case.variant))
    exp = case.expect
    diffs: list[str] = []
    ids = [r.id for r in case.riders]  # rider index -> id (from_position keeps the case's order)
    if exp.draw is not None:
        for rid, n in exp.draw.items():
            if rid not in game.index:
                diffs.append(_("draw: no rider {rider}").format(rider=rid))
                continue
            got = game.draw_size(game.index[rid])  # from a full deck (bag): all it asks for
            if got != n:
                diffs.append(_("draw {rider}: expected {want}, got {got}").format(rider=rid, want=n, got=got))
    if case.play is None:
        return diffs
    die = None if case.die is None else (0 if case.die == "none" else case.die)
    events = game.resolve({rid: _choice(case, rid, value) for rid, value in case.play.items()}, die)
    # every rider moves once, and a move never pushes a rider that moved before it
    moves = [e for e in events if isinstance(e, Move)]
    order = [ids[e.rider] for e in moves]
    moved = {ids[e.rider]: (e.square, e.lane) for e in moves}
    final = {ids[i]: (p[0], p[1]) for i, p in enumerate(game.pos)}
    tired = {rid: 0 for rid in ids}
    for e in events:
        if isinstance(e, Exhaustion):
            tired[ids[e.rider]] += 1
        elif isinstance(e, Fatigue):
            tired[ids[e.rider]] += e.tokens
    if exp.order is not None and exp.order != order:
        diffs.append(_("order: expected {want}, got {got}").format(want=exp.order, got=order))
    for key, want, places in (("moved", exp.moved, moved), ("final", exp.final, final)):
        for rid, place in (want or {}).items():
            if places.get(rid) != tuple(place):
                shown = list(places[rid]) if rid in places else _("no such rider")
                diffs.append(_("{key} {rider}: expected {want}, got {got}").format(
                    key=key, rider=rid, want=list(place), got=shown))
    if exp.exhausted is not None:
        for rid in ids:
            if exp.exhausted.get(rid, 0) != tired[rid]:
                diffs.append(_("exhausted {rider}: expected {want}, got {got}").format(
                    rider=rid, want=exp.exhausted.get(rid, 0), got=tired[rid]))
    if exp.crashed is not None:
        down = sorted(r.id for r in game.public_board().riders if r.crashed)
        if sorted(exp.crashed) != down:
            diffs.append(_("crashed: expected {want}, got {got}").format(want=sorted(exp.crashed), got=down))
    if "winner" in exp.model_fields_set:
        got_winner = ids[game.winner] if game.winner is not None else None
        if got_winner != exp.winner:
            diffs.append(_("winner: expected {want}, got {got}").format(want=exp.winner, got=got_winner))
    return diffs


def case_files(paths: list[str]) -> list[Path]:
    files: list[Path] = []
    for p in map(Path, paths):
        files.extend(sorted(p.rglob("*.yaml")) if p.is_dir() else [p])
    return files


def main(paths: list[str], out=print) -> int:
    passed = failed = 0
    errors = False
    files = case_files(paths)
    if not files:
        out(clean(_("error: no case files in {paths}").format(paths=" ".join(paths)), multiline=False))
        return 2
    for path in files:
        try:
            cases = load_cases(path)
        except CaseFileError as exc:
            out(clean(_("error: {problem}").format(problem=exc), multiline=False))
            errors = True
            continue
        for case in cases:
            diffs = run_case(case)
            if diffs:
                failed += 1
                out(clean(_("FAIL {case}: {diffs}").format(case=case.name, diffs="; ".join(diffs))))
            else:
                passed += 1
                out(clean(_("PASS {case}").format(case=case.name)))
    out(_("{passed} passed, {failed} failed").format(passed=passed, failed=failed))
    return 2 if errors else (1 if failed else 0)
