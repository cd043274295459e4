"""pydantic's error messages in the player's language (issue 26).

pydantic writes its messages in English only.  A data file (stage, tour,
variant, lesson, conformance case), a save or the settings that is wrong is
said in one line naming the file and the field; its message comes from here:
each error `type` a file can meet has its sentence in the catalogs, filled
with the error's `ctx` values, and any other type says a generic "invalid
value" in the language, never pydantic's English.  Our own checks inside the
models (`raise ValueError(_(...))`) are translated where they are raised:
their words are taken as they are.

The English sentences are pydantic's own, first letter lowercased, so that
English lines read as they always did (tests/test_pydantic_words.py checks
them against pydantic's).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .i18n import N_, _, integer, language, ngettext

# pydantic's `field_type` of a too short or too long value (a YAML list is a tuple or a list to the models)
_FIELD_TYPES = {
    "List": N_("list"), "Tuple": N_("tuple"), "Set": N_("set"), "Frozenset": N_("set"),
    "Dictionary": N_("dictionary"), "Value": N_("value"), "Data": N_("data"),
}
# Python's names of the values a file holds, as the " (got str 'x')" of a message says them
TYPE_NAMES = {
    "str": N_("str"), "int": N_("int"), "float": N_("float"), "bool": N_("bool"), "dict": N_("dict"),
    "list": N_("list"), "tuple": N_("tuple"), "NoneType": N_("NoneType"), "bytes": N_("bytes"),
}
# messages with no value in them, by error type
_PLAIN = {
    "missing": N_("field required"),
    "extra_forbidden": N_("extra inputs are not permitted"),
    "invalid_key": N_("keys should be strings"),
    "frozen_field": N_("field is frozen"),
    "frozen_instance": N_("instance is frozen"),
    "recursion_loop": N_("recursion error - cyclic reference detected"),
    "recursion_depth_exceeded": N_("recursion error - maximum validation depth exceeded"),
    "model_attributes_type": N_("input should be a valid dictionary or object to extract fields from"),
    "none_required": N_("input should be None"),
    "finite_number": N_("input should be a finite number"),
    "iterable_type": N_("input should be iterable"),
    "string_type": N_("input should be a valid string"),
    "string_unicode": N_("input should be a valid string, unable to parse raw data as a unicode string"),
    "string_not_ascii": N_("string should contain only ASCII characters"),
    "dict_type": N_("input should be a valid dictionary"),
    "list_type": N_("input should be a valid list"),
    "tuple_type": N_("input should be a valid tuple"),
    "set_type": N_("input should be a valid set"),
    "frozen_set_type": N_("input should be a valid frozenset"),
    "bool_type": N_("input should be a valid boolean"),
    "bool_parsing": N_("input should be a valid boolean, unable to interpret input"),
    "int_type": N_("input should be a valid integer"),
    "int_parsing": N_("input should be a valid integer, unable to parse string as an integer"),
    "int_parsing_size": N_("unable to parse input string as an integer, exceeded maximum size"),
    "int_from_float": N_("input should be a valid integer, got a number with a fractional part"),
    "float_type": N_("input should be a valid number"),
    "float_parsing": N_("input should be a valid number, unable to parse string as a number"),
    "bytes_type": N_("input should be a valid bytes"),
    "json_type": N_("JSON input should be string, bytes or bytearray"),
}
_INVALID = N_("invalid value")  # any other type: never pydantic's English


def _number(value: Any) -> str:
    """A bound of the ctx as the language writes it (12 345 in French); anything else as it is."""
    if language() == "en" or isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)  # (English: as pydantic writes it, 100000, 0.01)
    return integer(value) if isinstance(value, int) else str(value).replace(".", ",")


def _alternatives(expected: str) -> str:
    """pydantic's "'a', 'b' or 'c'" with the language's "or"."""
    some, sep, last = str(expected).rpartition(" or ")
    return _("{some} or {last}").format(some=some, last=last) if sep else str(expected)


def _what(ctx: Mapping[str, Any]) -> str:
    kind = str(ctx.get("field_type", "Value"))
    return _(_FIELD_TYPES[kind]) if kind in _FIELD_TYPES else kind.lower()


def _too_short(ctx: Mapping[str, Any]) -> str:
    n = ctx.get("min_length", 0)
    return ngettext("{what} should have at least {n} item after validation, not {got}",
                    "{what} should have at least {n} items after validation, not {got}", n if isinstance(n, int) else 2
                    ).format(what=_what(ctx), n=_number(n), got=_number(ctx.get("actual_length", "?")))


def _too_long(ctx: Mapping[str, Any]) -> str:
    n = ctx.get("max_length", 0)
    return ngettext("{what} should have at most {n} item after validation, not {got}",
                    "{what} should have at most {n} items after validation, not {got}", n if isinstance(n, int) else 2
                    ).format(what=_what(ctx), n=_number(n), got=_number(ctx.get("actual_length", "?")))


def _characters(ctx: Mapping[str, Any], least: bool) -> str:
    n = ctx.get("min_length" if least else "max_length", 0)
    count = n if isinstance(n, int) else 2
    if least:
        text = ngettext("string should have at least {n} character", "string should have at least {n} characters", count)
    else:
        text = ngettext("string should have at most {n} character", "string should have at most {n} characters", count)
    return text.format(n=_number(n))


def _bytes(ctx: Mapping[str, Any], least: bool) -> str:
    n = ctx.get("min_length" if least else "max_length", 0)
    count = n if isinstance(n, int) else 2
    if least:
        text = ngettext("data should have at least {n} byte", "data should have at least {n} bytes", count)
    else:
        text = ngettext("data should have at most {n} byte", "data should have at most {n} bytes", count)
    return text.format(n=_number(n))


_WITH_CTX: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "greater_than": lambda c: _("input should be greater than {n}").format(n=_number(c.get("gt"))),
    "greater_than_equal": lambda c: _("input should be greater than or equal to {n}").format(n=_number(c.get("ge"))),
    "less_than": lambda c: _("input should be less than {n}").format(n=_number(c.get("lt"))),
    "less_than_equal": lambda c: _("input should be less than or equal to {n}").format(n=_number(c.get("le"))),
    "multiple_of": lambda c: _("input should be a multiple of {n}").format(n=_number(c.get("multiple_of"))),
    "too_short": _too_short,
    "too_long": _too_long,
    "string_too_short": lambda c: _characters(c, True),
    "string_too_long": lambda c: _characters(c, False),
    "bytes_too_short": lambda c: _bytes(c, True),
    "bytes_too_long": lambda c: _bytes(c, False),
    "string_pattern_mismatch": lambda c: _("string should match pattern '{pattern}'").format(pattern=c.get("pattern")),
    "literal_error": lambda c: _("input should be {expected}").format(expected=_alternatives(c.get("expected", ""))),
    "enum": lambda c: _("input should be {expected}").format(expected=_alternatives(c.get("expected", ""))),
    "union_tag_invalid": lambda c: _(
        "input tag '{tag}' found using {discriminator} does not match any of the expected tags: {expected}"
    ).format(tag=c.get("tag"), discriminator=c.get("discriminator"), expected=c.get("expected_tags")),
    "union_tag_not_found": lambda c: _("unable to extract tag using discriminator {discriminator}").format(
        discriminator=c.get("discriminator")),
    # (data read from a file is never an instance of a model: its class name would mean nothing to a player)
    "model_type": lambda c: _("input should be a valid dictionary"),
    "dataclass_type": lambda c: _("input should be a dictionary or an instance of {name}").format(
        name=c.get("class_name")),
    "is_instance_of": lambda c: _("input should be an instance of {name}").format(name=c.get("class")),
    "json_invalid": lambda c: _("invalid JSON: {error}").format(error=c.get("error")),
}


def where(error: Mapping[str, Any]) -> str:
    """The field an error is about, as the file writes it: `keys.ctrl+x`
    (pydantic adds a '[key]' step to the place of a bad dict key: left out)."""
    return ".".join(str(p) for p in error["loc"] if p != "[key]")


def message(error: Mapping[str, Any]) -> str:
    """The message of one of pydantic's errors (an item of ValidationError.errors())
    in the player's language, first letter lowercased as it follows a field's name.
    Never fails: a type or a ctx it does not know is said as "invalid value"."""
    try:
        kind, ctx = str(error.get("type", "")), error.get("ctx") or {}
        if kind in ("value_error", "assertion_error") and "error" in ctx:
            text = str(ctx["error"])  # our own check's words, translated where raised
        elif kind in _PLAIN:
            text = _(_PLAIN[kind])
        elif kind in _WITH_CTX:
            text = _WITH_CTX[kind](ctx)
        else:
            text = _(_INVALID)
    except Exception:  # noqa: BLE001 - an error message never fails
        text = _(_INVALID)
    return text[:1].lower() + text[1:]


def type_name(value: Any) -> str:
    """The kind of a value a file holds, as a message says it ("str" in English)."""
    name = type(value).__name__
    return _(TYPE_NAMES[name]) if name in TYPE_NAMES else name
