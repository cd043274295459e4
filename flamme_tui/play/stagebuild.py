"""The stage editor's model: a stage built tile by tile, checked as it grows,
saved as a user stage file or shared as a one-line code.  No Textual here:
the editor screen (ui/screens/stagebuild.py) only draws what this holds.

Every rule a stage must keep (each physical tile once, a start tile first
and a finish tile last, tiles from the boxes the stage lists, its length) is
StageSpec's, checked through config.stage_from_data as a stage file's are;
this module only asks and shows the first problem in one line.
"""

from __future__ import annotations

import errno
import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

import yaml

from .. import config, stagegen
from .. import limits as lim
from ..config import ConfigError, StageSpec, TileCatalog
from ..engine.course import Course
from ..engine.terrain import ASCENT, DESCENT
from ..i18n import N_, _, pgettext

BOX_CHOICES: Final = (("base",), ("base", "peloton"))  # the boxes a player says they own
DEFAULT_NAME: Final = N_("My stage")  # in the builder's language when a build starts
SOURCE: Final = N_("built in the flamme-tui stage editor")


@dataclass(frozen=True, slots=True)
class InventoryRow:
    """One physical tile of the inventory, both its sides."""

    tile: str  # its physical name (lower-case letter or digit)
    sides: tuple[str, str]  # the two side names: lower/upper case, digit/_digit
    kind: str  # start, finish, straight, sharp, soft, short
    squares: tuple[str, str]  # each side's squares (stages/tiles.yaml notation)
    box: str  # base or peloton


@dataclass
class StageBuild:
    """A stage being built: its tile sides in race order, its name, the boxes
    its builder owns, and which side of each tile comes up when it is laid."""

    catalog: TileCatalog
    names: list[str] = field(default_factory=list)
    name: str = field(default_factory=lambda: _(DEFAULT_NAME))
    boxes: tuple[str, ...] = ("base",)
    up: dict[str, str] = field(default_factory=dict)  # tile -> the side laid next (default: its first)

    # ------------------------------------------------------------ starting

    @classmethod
    def from_stage(cls, stage: StageSpec, catalog: TileCatalog, *, name: str | None = None) -> StageBuild:
        """A build that starts from a stage (a copy of it: saving writes a new file)."""
        names = stage.tile_names()
        needed = stagegen.boxes_needed(names)
        boxes = BOX_CHOICES[1] if "peloton" in (*stage.boxes, *needed) else BOX_CHOICES[0]
        build = cls(catalog, names, (name or _("{name} (copy)").format(name=stage.name))[: lim.MAX_STAGE_NAME], boxes)
        for n in names:
            build.up[config.physical_tile(n)] = n
        return build

    @classmethod
    def from_code(cls, text: str, catalog: TileCatalog) -> StageBuild:
        """A build from a pasted code, checked as a file is (ConfigError if it is no stage)."""
        return cls.from_stage(stagegen.stage_from_code(text, catalog=catalog), catalog, name=_("Shared stage"))

    # ------------------------------------------------------------ the inventory

    def inventory(self) -> list[InventoryRow]:
        """Every physical tile of both boxes: the base box's letters, then the Peloton box's digits."""
        tiles = sorted(self.catalog.physical_tiles(), key=lambda t: (config.tile_box(t) != "base", t))
        rows = []
        for tile in tiles:
            sides = (tile, config.other_side(tile))
            first = self.catalog.side(tile)
            rows.append(InventoryRow(tile, sides, first.kind, (first.squares, self.catalog.side(sides[1]).squares),
                                     config.tile_box(tile)))
        return rows

    def side_up(self, tile: str) -> str:
        """The side of a tile that the next lay puts up."""
        return self.up.get(tile, tile)

    def turn(self, tile: str) -> str:
        """Turn the tile over in the inventory: the other side comes up next."""
        self.up[tile] = config.other_side(self.side_up(tile))
        return self.up[tile]

    def used(self) -> dict[str, int]:
        """How many times each physical tile is on the stage (more than once is a problem StageSpec names)."""
        counts: dict[str, int] = {}
        for n in self.names:
            counts[config.physical_tile(n)] = counts.get(config.physical_tile(n), 0) + 1
        return counts

    # ------------------------------------------------------------ building

    def lay(self, tile: str) -> str | None:
        """Lay the tile, its chosen side up, at the end of the stage; None if
        the stage holds as many tiles as a stage may (a tile used twice is
        laid: the problem line says so, and Backspace takes it back)."""
        if len(self.names) >= lim.MAX_STAGE_TILES:
            return None
        side = self.side_up(tile)
        self.names.append(side)
        return side

    def take_back(self) -> str | None:
        """Remove the last tile (None if there is none)."""
        return self.names.pop() if self.names else None

    def flip_last(self) -> str | None:
        """Turn the last tile laid over, in place."""
        if not self.names:
            return None
        self.names[-1] = config.other_side(self.names[-1])
        self.up[config.physical_tile(self.names[-1])] = self.names[-1]
        return self.names[-1]

    def next_boxes(self) -> tuple[str, ...]:
        self.boxes = BOX_CHOICES[(BOX_CHOICES.index(self.boxes) + 1) % len(BOX_CHOICES)] \
            if self.boxes in BOX_CHOICES else BOX_CHOICES[0]
        return self.boxes

    def rename(self, name: str) -> str | None:
        """A new name, its spaces at both ends left out; a name that shows
        nothing (only spaces or invisible characters) is refused, and this
        says why (None: renamed).  Anything else wrong with it is the stage
        check's (problem())."""
        from ..usertext import visible

        if not visible(name):
            return _("a name needs a visible character, not only spaces: the name is still {name}").format(
                name=repr(self.name))
        self.name = name.strip()
        return None

    # ------------------------------------------------------------ the check

    @property
    def tiles(self) -> str:
        return "".join(self.names)

    def _data(self, boxes: tuple[str, ...]) -> dict:
        return {"name": self.name, "tiles": self.tiles, "boxes": list(boxes), "source": _(SOURCE)}

    def stage(self) -> StageSpec:
        """The stage as a file would hold it: checked by StageSpec with the
        boxes its builder owns (a tile from another box is named), then with
        the boxes it needs, which a saved file lists.  ConfigError if it is
        not a stage yet (its one line says why)."""
        config.stage_from_data(self._data(self.boxes), catalog=self.catalog)
        return config.stage_from_data(self._data(stagegen.boxes_needed(self.names)), catalog=self.catalog)

    def problem(self) -> str | None:
        """What keeps the build from being a stage, in one line (None: it is one).

        Two problems are the editor's to say, in its own words: a tile from a
        box the builder has not said they own (which key adds it, not the
        file's `boxes`), and a start tile laid after the first (said at once:
        the stage check names it only once a finish tile is laid)."""
        if not self.names:
            return _("lay a start tile first")
        kinds = [self.catalog.side(n).kind for n in self.names]
        # (after a first tile that is no start tile, that is the problem to say first)
        middle = next((n for n, kind in zip(self.names[1:], kinds[1:]) if kind == "start"), None) \
            if kinds[0] == "start" else None
        outside = next((n for n in self.names if config.tile_box(n) not in self.boxes), None)
        if outside is not None:
            text = (_("tile {name} is a start tile laid in the middle of the stage, and it is in the Peloton box, "
                      "which you have not said you own (x adds it)") if outside == middle else
                    _("tile {name} is in the Peloton box, which you have not said you own (x adds it)"))
            return said(ConfigError(text.format(name=repr(outside)), field="tiles"))
        if middle is not None:
            return said(ConfigError(_("start tile {name} in the middle of the stage").format(name=repr(middle)),
                                    field="tiles"))
        try:
            self.stage()
        except ConfigError as exc:
            return said(exc)
        return None

    # ------------------------------------------------------------ what it is so far

    def course(self) -> Course | None:
        """The course laid so far (None: no tile yet), for the track and the profile."""
        return config.lay_tiles(self.name, self.names, self.catalog) if self.names else None

    def length(self) -> int:
        """Squares from the start line (square 0 before a start tile) to the
        finish line (the end of the last tile before a finish tile)."""
        course = self.course()
        return 0 if course is None else course.finish - course.grid

    def climbs(self) -> list[int]:
        """The length of every climb (a run of ascent squares) before the finish line."""
        course = self.course()
        if course is None:
            return []
        runs, run = [], 0
        for code in course.terrain[course.grid:course.finish]:
            if code == ASCENT:
                run += 1
            elif run:
                runs.append(run)
                run = 0
        return runs + ([run] if run else [])

    def descent(self) -> int:
        course = self.course()
        return 0 if course is None else course.terrain[course.grid:course.finish].count(DESCENT)

    def kind(self) -> str:
        """flat, hilly or mountain (stagegen.climb_kind), by the ascent squares."""
        return stagegen.climb_kind(sum(self.climbs()))

    def code(self) -> str:
        """The stage's one-line code (ConfigError if it is not a stage yet)."""
        return stagegen.stage_code(self.stage())

    # ------------------------------------------------------------ saving

    def stage_id(self) -> str:
        """The id (file name) the stage is saved as: its name as a slug;
        ConfigError if the name gives none or is a shipped stage's id."""
        sid = config.slugify(self.name)
        if not sid:
            raise ConfigError(_("the name needs a letter or a digit (the file is named after it)"))
        if (config.data_dir() / "courses" / f"{sid}.yaml").exists():
            raise ConfigError(_("{id} is a shipped stage's id: choose another name").format(id=repr(sid)))
        return sid

    def yaml_text(self) -> str:
        """The stage file's text: the stage as StageSpec checked it (its name
        and tiles quoted by the YAML writer, whatever they hold)."""
        stage = self.stage()
        data = {"name": stage.name, "tiles": stage.tiles, "boxes": list(stage.boxes), "source": stage.source}
        head = "# " + _("A stage built in the flamme-tui stage editor (tile sides in race order: see stages/tiles.yaml).") + "\n"
        return head + yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=1000)

    def save(self, folder: Path | None = None) -> tuple[str, Path]:
        """Write the stage to the user stages folder as `ID.yaml`; (id, path).
        The file appears whole or not at all (written aside, then linked in
        place), and never replaces a file already there: ConfigError then, as
        for a stage that is not complete or a name that makes no id.  OSError
        if the folder cannot be written."""
        folder = folder or config.user_stages_dir()
        text = self.yaml_text()
        sid = self.stage_id()
        path = folder / f"{sid}.yaml"
        if os.path.lexists(path) or os.path.lexists(folder / f"{sid}.yml"):
            raise ConfigError(_("a stage file {name} is already there: choose another name").format(name=repr(path.name)))
        try:
            write_new(path, text.encode())
        except ConfigError as exc:  # made a moment ago: its words name the name (no file field)
            raise ConfigError(exc.message) from None
        return sid, path


def said(exc: ConfigError) -> str:
    """A stage check's problem in the editor's words, in one line: a field of
    the stage file (tiles, name) in their language, never a field's own
    name (a pasted code's, `code`, goes without saying); a problem of the
    editor's own (a save, a name taken) has no field: its words say what it
    is about."""
    field = {"tiles": pgettext("stage field", "tiles"), "name": pgettext("stage field", "name")}.get(exc.field or "")
    return exc.message if field is None else _("{field}: {problem}").format(field=field, problem=exc.message)


def write_new(path: Path, data: bytes) -> None:
    """Write a file that must not exist yet (a user stage, a user tour): a
    temporary file beside it, flushed to disk, then hard-linked to its name
    (which fails if anything is there, even a file made a moment ago) and
    removed.  A crash leaves the name absent or complete.  ConfigError if the
    name is taken."""
    from ..files import make_folder

    folder = path.parent
    make_folder(folder)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0) | getattr(os, "O_NOFOLLOW", 0)
    tmp = folder / f".{path.name}.{os.getpid()}-{secrets.token_hex(6)}.tmp"
    fd = os.open(tmp, flags, 0o644)
    try:
        try:
            _write_all(fd, data)
        finally:
            os.close(fd)
        try:
            os.link(tmp, path)
        except FileExistsError:
            raise ConfigError(_("a file {name} is already there: choose another name").format(name=repr(path.name)),
                              field="name") from None
        except OSError as exc:
            if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.EXDEV, errno.EMLINK):
                raise
            # a file system without hard links: O_EXCL on the name itself, then the bytes
            fd2 = os.open(path, flags, 0o644)
            try:
                _write_all(fd2, data)
            finally:
                os.close(fd2)
    finally:
        try:
            tmp.unlink()
        except OSError:
            pass


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]
    os.fsync(fd)
