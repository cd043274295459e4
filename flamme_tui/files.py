"""Reading the files a user can hand us: bounded, regular files only.

Every reader of the program (stages, tiles, variants, saves, conformance
case files) goes through here, so a hostile or broken file costs at most a
few milliseconds and becomes one `ReadError`: never a hang (a FIFO, a
terminal, /dev/zero), never a memory blow-up (a huge file, an alias bomb),
never a RecursionError (deep nesting).

- `read_bytes` stats the path first and opens it non-blocking, refuses
  anything but a regular file, and reads at most `cap + 1` bytes;
- `load_yaml` parses with PyYAML's safe loader, refusing anchors and aliases
  (no data file needs them, and they are what alias bombs are made of),
  explicit tags, nesting deeper than the kind allows and duplicate keys,
  each with the line where it is;
- `check_json_depth` measures a JSON text's nesting without recursion, before
  `json.loads` could overflow the stack.

Readers turn a ReadError into their own one-line error naming the file.
This module must not import Textual.
"""

from __future__ import annotations

import contextlib
import errno
import gc
import os
import re
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

import yaml

from .i18n import N_, _, decimal, ngettext

__all__ = [
    "CASE_FILE",
    "DATA_FILE",
    "SAVE_FILE",
    "STAGE_FILE",
    "FileKind",
    "ReadError",
    "check_json_depth",
    "load_yaml",
    "make_folder",
    "paused_gc",
    "read_bytes",
    "read_text",
]


class FileKind(NamedTuple):
    """The bounds of one kind of file."""

    name: str
    max_bytes: int
    max_depth: int  # nesting of mappings and lists


KIB = 1024
# A built-in stage is ~150 bytes, tiles.yaml 2 KB, a variant 2 KB, the
# largest conformance file 42 KB, a long race's save 150 KB.
STAGE_FILE = FileKind(N_("stage file"), 64 * KIB, 8)  # names marked: translated when shown
DATA_FILE = FileKind(N_("data file"), 64 * KIB, 8)  # tiles.yaml, variants/*.yaml
CASE_FILE = FileKind(N_("case file"), 512 * KIB, 12)
SAVE_FILE = FileKind(N_("save file"), 4 * KIB * KIB, 12)


class ReadError(Exception):
    """A file that cannot be used: `reason` is one line, in the player's
    language; `line` (1-based) and `field` say where when known; `code` what
    the program may test (MISSING, UNREADABLE, TOO_BIG, or "")."""

    def __init__(self, reason: str, *, line: int | None = None, field: str | None = None, code: str = "") -> None:
        self.reason = " ".join(str(reason).split())
        self.line = line
        self.field = field
        self.code = code
        super().__init__(self.reason)


# ReadError.code: what a reader may act on, whatever the language of the reason
MISSING, UNREADABLE, TOO_BIG = "missing", "unreadable", "too-big"


def _size(n: int) -> str:
    """A file's size in the player's language: 1.5 MB, 1,5 Mo, 1,5 MB."""
    if n >= KIB * KIB:
        return _("{n} MB").format(n=decimal(n / KIB / KIB, 1))
    if n >= KIB:
        return _("{n} KB").format(n=f"{n / KIB:.0f}")
    return ngettext("{n} byte", "{n} bytes", n).format(n=n)


_KINDS = (
    (stat.S_ISDIR, N_("a directory")),
    (stat.S_ISFIFO, N_("a FIFO")),
    (stat.S_ISSOCK, N_("a socket")),
    (stat.S_ISCHR, N_("a character device")),
    (stat.S_ISBLK, N_("a block device")),
)


def _not_regular(mode: int) -> str | None:
    if stat.S_ISREG(mode):
        return None
    what = next((name for test, name in _KINDS if test(mode)), None)
    return _("not a regular file ({what})").format(what=_(what)) if what else _("not a regular file")


def _os_error(exc: OSError) -> ReadError:
    if exc.errno == errno.ENOENT:
        return ReadError(_("file not found"), code=MISSING)
    if exc.errno == errno.ELOOP:
        return ReadError(_("cannot read file: too many levels of symbolic links (a symlink loop?)"), code=UNREADABLE)
    if exc.errno in (errno.EACCES, errno.EPERM):
        return ReadError(_("cannot read file: permission denied"), code=UNREADABLE)
    if exc.errno == errno.EISDIR:
        return ReadError(_("not a regular file ({what})").format(what=_("a directory")))
    return ReadError(_("cannot read file: {why}").format(why=exc.strerror or type(exc).__name__), code=UNREADABLE)


def read_bytes(path: Path, kind: FileKind) -> tuple[bytes, os.stat_result]:
    """The whole file and its stat (of the file actually read), or ReadError.

    Stat first, so a FIFO or a device is refused without being opened; open
    with O_NONBLOCK and check again with fstat, in case the path was swapped
    in between; then read at most max_bytes + 1 bytes, whatever st_size says.
    """
    try:
        before = os.stat(path)
        problem = _not_regular(before.st_mode)
        if problem:
            raise ReadError(problem)
        if before.st_size > kind.max_bytes:
            raise ReadError(_("too big for a {kind} ({size}; at most {most})").format(
                kind=_(kind.name), size=_size(before.st_size), most=_size(kind.max_bytes)), code=TOO_BIG)
        flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
        fd = os.open(path, flags)
    except OSError as exc:
        raise _os_error(exc) from None
    except ValueError:  # a NUL byte in the path
        raise ReadError(_("not a valid file name")) from None
    try:
        st = os.fstat(fd)
        problem = _not_regular(st.st_mode)
        if problem:
            raise ReadError(problem)
        chunks: list[bytes] = []
        left = kind.max_bytes + 1
        while left > 0:
            chunk = os.read(fd, min(left, 256 * KIB))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    except OSError as exc:
        raise _os_error(exc) from None
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > kind.max_bytes:
        raise ReadError(_("too big for a {kind} (more than {most})").format(kind=_(kind.name), most=_size(kind.max_bytes)),
                        code=TOO_BIG)
    return data, st


def read_text(path: Path, kind: FileKind) -> tuple[str, os.stat_result]:
    """read_bytes, decoded as UTF-8 (a BOM is dropped)."""
    data, st = read_bytes(path, kind)
    try:
        return data.decode("utf-8-sig"), st
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise ReadError(_("not UTF-8 text (byte {n})").format(n=exc.start + 1), line=line) from None


@contextlib.contextmanager
def paused_gc() -> Iterator[None]:
    """The cyclic garbage collector paused while one file's data is built.

    A parse makes up to hundreds of thousands of objects without a cycle
    among them; the collector's passes over them, more frequent as they pile
    up, made the time per KB of a 512 KB case file twice that of a 32 KB one.
    Turned back on after only if it was on before.
    """
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


# ----------------------------------------------------------------- YAML


class _Refused(yaml.MarkedYAMLError):  # type: ignore[misc]  # (PyYAML has no type hints)
    pass


class _Checks:
    """Anchors, aliases and tags refused, and a depth cap, in the composer.

    The checks run while composing, before anything is constructed, and
    the depth is counted before each nested node is entered, so the
    recursive composer never goes deeper than max_depth.
    """

    max_depth: int
    depth: int

    def _refuse(self, event: Any, problem: str) -> None:
        raise _Refused(problem=problem, problem_mark=event.start_mark)

    def compose_node(self, parent: Any, index: Any) -> Any:
        event = self.peek_event()  # type: ignore[attr-defined]
        if isinstance(event, yaml.AliasEvent):
            self._refuse(event, _("aliases (*{name}) are not allowed").format(name=event.anchor))
        if getattr(event, "anchor", None) is not None:
            self._refuse(event, _("anchors (&{name}) are not allowed").format(name=event.anchor))
        if getattr(event, "tag", None) is not None:
            shown = event.tag.replace("tag:yaml.org,2002:", "!!", 1)
            self._refuse(event, _("tags ({tag}) are not allowed").format(tag=shown[:40]))
        nested = isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent))
        if nested:
            self.depth += 1
            if self.depth > self.max_depth:
                self._refuse(event, _("nested too deeply (more than {n} levels)").format(n=self.max_depth))
        try:
            return super().compose_node(parent, index)  # type: ignore[misc]
        finally:
            if nested:
                self.depth -= 1

    def construct_object(self, node: Any, deep: bool = False) -> Any:
        # a scalar the resolver took for a number or a date can still fail to
        # convert (a 5000-digit int, 2001-13-45): say where, as YAML errors do
        try:
            return super().construct_object(node, deep)  # type: ignore[misc]
        except (ValueError, OverflowError, TypeError) as exc:
            why = str(exc).split(":")[0][:80]
            raise _Refused(problem=f"bad value {str(node.value)[:20]!r} ({why})", problem_mark=node.start_mark) from None


class _Loader(_Checks, yaml.SafeLoader):  # type: ignore[misc]
    """The safe loader, minus anchors, aliases and tags, with a depth cap."""

    def __init__(self, text: str, max_depth: int) -> None:
        super().__init__(text)
        self.max_depth = max_depth
        self.depth = 0


if yaml.__with_libyaml__:
    from yaml._yaml import CParser

    class _CLoader(_Checks, yaml.composer.Composer, CParser, yaml.constructor.SafeConstructor,  # type: ignore[misc]
                   yaml.resolver.Resolver):
        """_Loader, its tokens and events made by libyaml (C): three to five
        times faster on large files.  The nodes are still composed here, in
        Python (libyaml's own composer recurses without a depth cap)."""

        def __init__(self, text: str, max_depth: int) -> None:
            CParser.__init__(self, text)
            yaml.constructor.SafeConstructor.__init__(self)
            yaml.resolver.Resolver.__init__(self)
            yaml.composer.Composer.__init__(self)
            self.max_depth = max_depth
            self.depth = 0

    LOADER: type = _CLoader
else:  # pragma: no cover - PyYAML built without libyaml: the pure-Python parser
    LOADER = _Loader


def _yaml_error(exc: yaml.YAMLError) -> ReadError:
    mark = getattr(exc, "problem_mark", None)
    problem = getattr(exc, "problem", None) or str(exc)
    # (PyYAML's own problem is in English, as it says it)
    said = problem if isinstance(exc, _Refused) else _("invalid YAML: {problem}").format(problem=problem)
    if mark is None:
        return ReadError(said)
    return ReadError(_("{problem} (column {n})").format(problem=said, n=mark.column + 1), line=mark.line + 1)


MERGE = "tag:yaml.org,2002:merge"  # the resolver's tag of a plain `<<` key


def _check_duplicate_keys(node: yaml.Node, where: str = "") -> None:
    # safe_load silently keeps the last of two equal keys; a typo'd copy of a
    # stage line would then win without a word.  Without aliases the nodes
    # form a tree: each is visited once, and the depth is capped.
    if isinstance(node, yaml.MappingNode):
        seen: set[str] = set()
        for key, value in node.value:
            name = str(key.value)
            field = f"{where}.{name}" if where else name
            if key.tag == MERGE:  # `<<: {...}` would bring in keys that neither check above sees
                raise ReadError(_("merge keys are not allowed"), line=key.start_mark.line + 1, field=field)
            if name in seen:
                raise ReadError(_("duplicate key"), line=key.start_mark.line + 1, field=field)
            seen.add(name)
            _check_duplicate_keys(value, field)
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            _check_duplicate_keys(item, f"{where}[{i}]")


def load_yaml(path: Path, kind: FileKind) -> tuple[Any, yaml.Node | None, os.stat_result]:
    """The data of a YAML file, its node tree (for line numbers) and its
    stat, or ReadError.  One document only."""
    text, st = read_text(path, kind)
    loader = None
    with paused_gc():
        try:
            loader = LOADER(text, kind.max_depth)
            node = loader.get_single_node()
            if node is not None:
                _check_duplicate_keys(node)
            data = None if node is None else loader.construct_document(node)
        except yaml.YAMLError as exc:
            if "maximum nesting depth" in str(getattr(exc, "problem", "")):  # libyaml's own cap (1000), met first
                raise ReadError(f"nested too deeply (more than {kind.max_depth} levels)", line=_yaml_error(exc).line) from None
            raise _yaml_error(exc) from None
        except RecursionError:  # cannot happen below max_depth; never a traceback though
            raise ReadError(f"nested too deeply (more than {kind.max_depth} levels)") from None
        finally:
            if loader is not None:
                loader.dispose()
        return data, node, st


# ----------------------------------------------------------------- JSON

# A string (its escapes skipped) or a bracket.  The string may be unterminated:
# it then runs to the end of the text, so each character is looked at once.
# (A pattern that insisted on the closing quote failed after scanning to the
# end from every quote of `"\"\"\"...`: time grew with the square of the
# size, seconds for a 32 KB save.)  Possessive repeats: a failed match never backtracks.
_JSON_TOKEN = re.compile(r'"[^"\\]*+(?:\\.[^"\\]*+)*+"?|[\[\]{}]', re.S)


def check_json_depth(text: str, kind: FileKind) -> None:
    """ReadError if the JSON text nests deeper than the kind allows.

    Brackets inside strings are skipped.  An unterminated string hides the
    brackets after it, which is safe: json.loads stops with an error at that
    string, never going deeper than the brackets before it.  Linear, no
    recursion: json.loads may follow safely.
    """
    depth = 0
    for m in _JSON_TOKEN.finditer(text):
        c = text[m.start()]
        if c == '"':
            continue
        if c in "[{":
            depth += 1
            if depth > kind.max_depth:
                raise ReadError(f"nested too deeply (more than {kind.max_depth} levels)")
        else:
            depth -= 1


def make_folder(folder: Path) -> None:
    """The folder a race file goes in, made if missing; OSError saying why it
    cannot be (a file in its way, a read-only disk, no permission)."""
    try:
        st = os.stat(folder)  # through symlinks: a loop raises ELOOP, naming the folder
    except FileNotFoundError:
        if os.path.islink(folder):  # mkdir would say "exists", and the problem be told as a file in the way
            raise FileNotFoundError(errno.ENOENT, "a symbolic link to nothing", str(folder)) from None
        folder.mkdir(parents=True, exist_ok=True)
        return
    if not stat.S_ISDIR(st.st_mode):
        raise NotADirectoryError(errno.ENOTDIR, "not a folder", str(folder))
