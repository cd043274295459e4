"""Loading the data: tiles, rules, the built-in and the user's stages (listed, checked and cached by file identity)."""

from __future__ import annotations

import functools
import os
import re
import stat
import threading
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

from .. import files
from .. import limits as lim
from ..i18n import _, language
from .errors import ConfigError
from .models import STAGE_ORDER, BmxRules, ClassicRules, MeteoRules, StageSpec, TileCatalog
from .reading import _first, _problems, _validate, data_dir

# ---------------------------------------------------------------------------
# Loading


@functools.cache
def load_tiles() -> TileCatalog:
    return _validate(TileCatalog, data_dir() / "tiles.yaml")


@functools.cache
def load_classic_rules() -> ClassicRules:
    return _validate(ClassicRules, data_dir() / "variants" / "classic.yaml")


@functools.cache
def load_meteo_rules() -> MeteoRules:
    return _validate(MeteoRules, data_dir() / "variants" / "meteo.yaml")


@functools.cache
def load_bmx_rules() -> BmxRules:
    return _validate(BmxRules, data_dir() / "variants" / "bmx.yaml")


def slugify(name: str) -> str:
    """A stage id from its name: 'Firenze - Milano' -> 'firenze-milano'."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")


def user_data_dir() -> Path:
    """Where the user's data lives (saves, custom stages): $FLAMME_TUI_DATA_DIR
    if set, else the platform's user data directory for flamme-tui."""
    override = os.environ.get("FLAMME_TUI_DATA_DIR")
    if override:
        return Path(override).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir("flamme-tui", appauthor=False))


def user_stages_dir() -> Path:
    """Custom stages: one YAML file per stage, the file name (without .yaml) is its id."""
    return user_data_dir() / "stages"


def _builtin_stage_ids() -> list[str]:
    ids = [p.stem for p in (data_dir() / "courses").glob("*.yaml")]
    rank = {sid: i for i, sid in enumerate(STAGE_ORDER)}
    return sorted(ids, key=lambda sid: (rank.get(sid, len(rank)), sid))


def _user_stage_files(every: bool = False) -> dict[str, Path]:
    """User stage files by id, sorted by id: the first MAX_USER_STAGES of
    them (`every`: all).  A missing directory has none.

    Every entry named *.yaml or *.yml that is not a directory counts, so a
    FIFO, a dangling symlink or a symlink loop shows up as a broken stage
    instead of vanishing without a word."""
    try:
        names = stage_files_in(user_stages_dir())
    except OSError:  # no folder, or not one we may read: no user stages
        return {}
    found: dict[str, Path] = {}
    for path in names:
        found.setdefault(path.stem, path)  # x.yaml before x.yml
    return dict(sorted(found.items())[:None if every else lim.MAX_USER_STAGES])


def stage_files_in(folder: Path) -> list[Path]:
    """The *.yaml and *.yml entries of a folder that are not folders, sorted
    (OSError if the folder cannot be listed)."""
    out = []
    for path in sorted(p for p in folder.iterdir() if p.suffix in (".yaml", ".yml")):
        try:
            if path.is_dir():
                continue
        except OSError:
            pass  # cannot even stat it: reading it will say why
        out.append(path)
    return out


class StageEntry(NamedTuple):
    id: str
    path: Path
    source: str  # "built-in" or "user"
    shadowed: bool = False  # a user stage whose id a built-in stage already has


def stage_entries() -> list[StageEntry]:
    """Every stage file: the built-in ones (STAGE_ORDER), then the user's
    (by id).  A user stage with the id of a built-in one is listed as
    shadowed: the id loads the built-in stage."""
    builtin = _builtin_stage_ids()
    entries = [StageEntry(sid, data_dir() / "courses" / f"{sid}.yaml", "built-in") for sid in builtin]
    for sid, path in _user_stage_files().items():
        entries.append(StageEntry(sid, path, "user", sid in builtin))
    return entries


class StageStatus(NamedTuple):
    """A stage file and what reading it gave: the stage, or the first problem."""

    entry: StageEntry
    stage: StageSpec | None
    problem: ConfigError | None


def id_problem(entry: StageEntry) -> ConfigError | None:
    """Why a user stage's file name cannot be its id (None if it can).  An id
    is text: typed in a command, written in a tour file, validated as a string;
    a file name whose bytes are not UTF-8 cannot be one (Python reads those
    bytes as lone surrogates, which pydantic refuses: the app crashed on a tour
    of such a stage)."""
    if entry.source != "user" or not _NOT_UTF8.search(entry.id):
        return None
    return ConfigError(_("the file name is not UTF-8 text: it cannot be a stage id (rename the file)"), file=entry.path)


_NOT_UTF8 = re.compile("[\ud800-\udfff]")  # the bytes of a name that were not UTF-8 (surrogateescape)


def stage_statuses() -> list[StageStatus]:
    """Every stage that an id can name (shadowed user stages left out),
    read and validated (files are cached by their identity: path, inode,
    mtime and size)."""
    return [status for entry in stage_entries() if (status := stage_status(entry)) is not None]


def stage_status(entry: StageEntry) -> StageStatus | None:
    """One stage file read and validated (None for a shadowed user stage:
    no id names it).  Safe in a worker thread (the app's stage menus read
    the user's stages in one)."""
    if entry.shadowed:
        return None
    bad_id = id_problem(entry)
    if bad_id is not None:
        return StageStatus(entry, None, bad_id)
    stage, problems = check_stage_file(entry.path)
    return StageStatus(entry, stage, _first(entry.path, problems) if problems else None)


def stage_ids() -> list[str]:
    """Ids of the stages a race can use: the built-in ones in STAGE_ORDER,
    then the user's stages (files in user_stages_dir()) by id.  A broken
    stage file is left out (stage_notices says why)."""
    return [s.entry.id for s in stage_statuses() if s.stage is not None]


def user_stages_problem() -> ConfigError | None:
    """Why the user stages folder cannot be listed, if it exists and cannot,
    or that it holds more stage files than are read."""
    folder = user_stages_dir()
    try:
        next(folder.iterdir(), None)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return ConfigError(_("cannot list folder: {why}").format(why=exc.strerror or exc), file=folder)
    found = len(_user_stage_files(every=True))
    if found > lim.MAX_USER_STAGES:
        return ConfigError(_("{n} stage files: only the first {most} by name are read").format(
            n=found, most=lim.MAX_USER_STAGES), file=folder)
    return None


def stage_notices(statuses: list[StageStatus] | None = None) -> list[str]:
    """One line per stage file left out of stage_ids (`file:line: reason`),
    and one if the user stages folder cannot be read.  `statuses`: those of
    stage_statuses(), if the caller has them already."""
    problem = user_stages_problem()
    notes = [] if problem is None else [str(problem)]
    return notes + [str(s.problem) for s in (statuses or stage_statuses()) if s.problem is not None]


KNOWN_SHOWN = 20  # stage ids an "unknown stage" error names (one line, however many user stages)


def user_stage_files() -> dict[str, Path]:
    """The user stage files an id can name, by id (the first MAX_USER_STAGES
    by name): list them once to load many stages (load_stage's `user_stages`)."""
    return _user_stage_files()


def _stage_path(ref: str, user_stages: dict[str, Path] | None = None) -> Path:
    path = data_dir() / "courses" / f"{ref}.yaml"
    try:
        built_in = path.is_file()
    except OSError:  # no such stage, whatever the system says about the name (too long...)
        built_in = False
    if built_in:
        return path
    user = (_user_stage_files() if user_stages is None else user_stages).get(ref)
    if user is not None:
        bad_id = id_problem(StageEntry(ref, user, "user"))
        if bad_id is not None:
            raise bad_id
        return user
    # the user's own stages first: with a large library they would not be among those named
    ids = sorted(stage_ids(), key=lambda sid: sid in _builtin_stage_ids())
    known = ", ".join(ids[:KNOWN_SHOWN]) + (_(" and {n} more: see `flamme-tui stages list`").format(
        n=len(ids) - KNOWN_SHOWN) if len(ids) > KNOWN_SHOWN else "")
    raise ConfigError(_("unknown stage {stage} (known: {known})").format(stage=repr(ref), known=known), field="stage")


def load_stage(ref: str | Path, *, catalog: TileCatalog | None = None,
               user_stages: dict[str, Path] | None = None) -> StageSpec:
    """A stage by id (built-in, else a user stage), by path to a .yaml file,
    or by its one-line code (`fr1:...`, stagegen.stage_from_code).
    `user_stages`: user_stage_files() if the caller has it (listing a folder of
    thousands of files for each of thousands of tours' stages took minutes)."""
    ref_text = str(ref)
    if not isinstance(ref, Path):
        from .. import stagegen  # it builds on this module

        if stagegen.is_code(ref_text):
            return stagegen.stage_from_code(ref_text, catalog=catalog)
    if isinstance(ref, Path) or ref_text.endswith((".yaml", ".yml")) or "/" in ref_text or os.sep in ref_text:
        path = Path(ref)
    else:
        path = _stage_path(ref_text, user_stages)
    stage, problems = check_stage_file(path, catalog=catalog)
    if problems or stage is None:
        raise _first(path, problems)
    return stage


# Stage files read with the default tile catalog, by file identity: a stage
# list (the app's, `stages list`) stats each file instead of reading it again.
_STAGE_CACHE: dict[tuple[Any, ...], tuple[StageSpec | None, list[ConfigError]]] = {}
_STAGE_CACHE_SIZE = 2 * lim.MAX_USER_STAGES  # every stage listed, and room for files named by path
# the app reads stage and tour files in a worker thread while its UI thread may read one too
_CACHE_LOCK = threading.Lock()
T = TypeVar("T")


def cached_read(cache: dict[tuple[Any, ...], T], size: int, path: Path, read: Callable[[], T]) -> T:
    """read() for the file at `path`, kept in `cache` by the file's identity
    (path, device, inode, mtime, size) so that an unchanged file is not read
    again; at most `size` entries (the oldest goes first).  Thread-safe."""
    key = _file_key(path)
    if key is not None:
        with _CACHE_LOCK:
            if key in cache:
                return cache[key]
    value = read()  # outside the lock: two threads may read the same new file, never wait on each other
    if key is not None:
        with _CACHE_LOCK:
            while len(cache) >= size:
                del cache[next(iter(cache))]
            cache[key] = value
    return value


def _file_key(path: Path) -> tuple[Any, ...] | None:
    try:
        st = os.stat(path)
        where = str(path.absolute())
    except (OSError, ValueError):
        return None
    if not stat.S_ISREG(st.st_mode):
        return None  # never cache what is not a regular file
    # the language too: a file's problems are kept in the words they were said in
    return (where, st.st_dev, st.st_ino, st.st_mtime_ns, st.st_size, language())


def check_stage_file(path: str | Path, *, catalog: TileCatalog | None = None) -> tuple[StageSpec | None, list[ConfigError]]:
    """Validate one stage file: (the stage if good, every problem found)."""
    path = Path(path)
    if catalog is not None:
        return _problems(StageSpec, path, {"catalog": catalog}, files.STAGE_FILE)
    stage, problems = cached_read(_STAGE_CACHE, _STAGE_CACHE_SIZE, path,
                                  lambda: _problems(StageSpec, path, {"catalog": load_tiles()}, files.STAGE_FILE))
    return stage, list(problems)


