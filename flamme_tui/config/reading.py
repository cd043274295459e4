"""Reading YAML data files: bounded reads, validation, and each problem as one line naming file, line and field."""

from __future__ import annotations

import functools
import os
import reprlib
import types
import typing
from pathlib import Path
from typing import Any

import yaml
from pydantic import (
    BaseModel,
    ValidationError,
)

from .. import files, pydantic_words
from ..i18n import _
from .errors import ConfigError
from .models import StageSpec, TileCatalog

# ---------------------------------------------------------------------------
# Reading YAML


@functools.cache  # the same folder for the whole run: listing the stages asked it once a file, with a realpath each
def data_dir() -> Path:
    """The stages/ data: inside the package when installed, else the repo's."""
    here = Path(__file__).resolve().parent.parent  # (this module is in config/)
    packaged = here / "stages"
    if (packaged / "tiles.yaml").is_file():
        return packaged
    return here.parent / "stages"


def _read(path: Path, kind: files.FileKind) -> tuple[Any, yaml.Node | None, os.stat_result]:
    """The data of a YAML file and its nodes (for line numbers), bounded by
    `kind` (files.load_yaml); ConfigError naming the file if anything is wrong."""
    try:
        return files.load_yaml(path, kind)
    except files.ReadError as exc:
        raise ConfigError(exc.reason, file=path, line=exc.line, field=exc.field) from None


class _Keys:
    """The keys of each YAML mapping node, indexed when first asked: a file
    with thousands of problems looks each one up at once (a scan of the
    mapping per problem made time grow with the square of the file)."""

    def __init__(self) -> None:
        self._index: dict[int, dict[str, tuple[yaml.Node, yaml.Node]]] = {}

    def get(self, node: yaml.MappingNode, name: str) -> tuple[yaml.Node, yaml.Node] | None:
        index = self._index.get(id(node))
        if index is None:
            index = {}
            for key, value in node.value:
                index.setdefault(str(key.value), (key, value))  # the first, as the scan found
            self._index[id(node)] = index
        return index.get(name)


def _line_of(node: yaml.Node | None, loc: tuple[Any, ...], keys: _Keys | None = None) -> tuple[int | None, bool]:
    """Line (1-based) of the deepest key of `loc` found in the YAML nodes.

    Also says whether the whole path was found (a missing key is not).
    """
    keys = _Keys() if keys is None else keys
    line = None
    for part in loc:
        if isinstance(node, yaml.MappingNode):
            found = keys.get(node, str(part))
            if found is None:
                return line, False
            key, node = found
            line = key.start_mark.line + 1
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) and part < len(node.value):
            node = node.value[part]
            line = node.start_mark.line + 1
        else:
            return line, False
    return line, True


def _field_name(loc: tuple[Any, ...]) -> str:
    name = ""
    for part in loc:
        name += f"[{part}]" if isinstance(part, int) else (f".{part}" if name else str(part))
    return name


def _allowed_keys(model: type[BaseModel], loc: tuple[Any, ...]) -> list[str]:
    """The keys the schema allows at `loc` (a path to a mapping), for messages."""
    tp: Any = model
    for part in loc:
        if isinstance(tp, type) and issubclass(tp, BaseModel):
            field = tp.model_fields.get(str(part))
            if field is None:
                return []
            tp = field.annotation
        elif typing.get_origin(tp) is dict:
            tp = typing.get_args(tp)[1]  # any key: the value type
        else:
            return []
        # unwrap `X | None`
        if isinstance(tp, types.UnionType) or typing.get_origin(tp) is typing.Union:
            args = [a for a in typing.get_args(tp) if a is not type(None)]
            tp = args[0] if len(args) == 1 else tp
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return list(tp.model_fields)
    return []


_SHORT = reprlib.Repr()  # (keyword arguments only from Python 3.12)
_SHORT.maxlevel, _SHORT.maxstring, _SHORT.maxother, _SHORT.maxlong = 2, 40, 40, 40


def _message(error: Any, model: type[BaseModel]) -> str:
    kind, loc = error["type"], tuple(error["loc"])
    if kind == "missing":
        return _("field required")
    if kind == "extra_forbidden":
        allowed = _allowed_keys(model, loc[:-1])
        return _("unknown key (allowed: {keys})").format(keys=", ".join(allowed)) if allowed else _("unknown key")
    msg = pydantic_words.message(error)  # in the player's language, never pydantic's English
    if kind.endswith("_type") or kind.endswith("_parsing") or kind == "literal_error":
        got = error.get("input")
        shown = _SHORT.repr(got)  # never the whole of a large value, for each of many errors
        shown = shown if len(shown) <= 40 else shown[:37] + "..."
        msg += _(" (got {type} {value})").format(type=pydantic_words.type_name(got), value=shown)
    return msg


def _problems(
    model: type[BaseModel], path: Path, context: dict | None = None, kind: files.FileKind = files.DATA_FILE
) -> tuple[Any, list[ConfigError]]:
    """Validate a file: (the model or None, every problem found as a ConfigError).

    A file that cannot be read or parsed has exactly one problem.
    """
    try:
        data, node, _stat = _read(path, kind)
    except ConfigError as exc:
        return None, [exc]
    if not isinstance(data, dict):
        got = _("an empty file") if data is None else _("a {type}").format(type=type(data).__name__)
        return None, [ConfigError(
            _("expected a mapping of keys ({keys}), got {got}").format(keys=", ".join(model.model_fields), got=got),
            file=path,
            line=None if node is None else node.start_mark.line + 1,
        )]
    try:
        return model.model_validate(data, context=context), []
    except ValidationError as exc:
        problems: list[ConfigError] = []
        keys = _Keys()  # the nodes stay alive meanwhile: their ids stay theirs
        errors = exc.errors()
        # a list whose every item is wrong is also "too short" (pydantic counts the items that passed): said
        # once, by the items' own problems
        inner = {tuple(e["loc"][:n]) for e in errors for n in range(len(e["loc"]))}
        for error in errors:
            loc = tuple(error["loc"])
            if error["type"] == "too_short" and loc in inner:
                continue
            line, found = _line_of(node, loc, keys)
            # pydantic puts '[key]' on the loc of a bad dict key: drop it
            loc = tuple(p for p in loc if p != "[key]")
            if error["type"] == "missing" and not found and len(loc) == 1:
                line = None  # a missing top-level key has no line
            # the file's path is resolved once, not once per problem (thousands of bad keys)
            shown = problems[0].file if problems else None
            problems.append(ConfigError(_message(error, model), file=path, line=line,
                                        field=_field_name(loc) or None, shown_file=shown))
        return None, problems


def from_data(model: type[BaseModel], data: dict[str, Any], context: dict | None = None) -> Any:
    """A model from data held in memory (the stage editor's, a tour built in
    the app), checked as a file's data is, its first problem said as a file's
    is: ConfigError in one line naming the field."""
    try:
        return model.model_validate(data, context=context)
    except ValidationError as exc:
        error = exc.errors()[0]
        loc = tuple(p for p in error["loc"] if p != "[key]")
        raise ConfigError(_message(error, model), field=_field_name(loc) or None) from None


def stage_from_data(data: dict[str, Any], *, catalog: TileCatalog | None = None) -> StageSpec:
    """A stage from data held in memory, checked by StageSpec as a stage file is."""
    from .loading import load_tiles  # (loading reads its files with this module)

    return from_data(StageSpec, data, {"catalog": catalog or load_tiles()})


def _first(path: Path, problems: list[ConfigError]) -> ConfigError:
    """The first problem, saying how many more there are."""
    first = problems[0]
    if len(problems) > 1:
        first = ConfigError(
            _("{problem} (and {n} more)").format(problem=first.message, n=len(problems) - 1),
            file=path, line=first.line, field=first.field,
        )
    return first


def _validate(model: type[BaseModel], path: Path, context: dict | None = None) -> Any:
    value, problems = _problems(model, path, context)
    if problems:
        raise _first(path, problems)
    return value


