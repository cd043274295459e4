"""Text that comes from a user or a file (player, stage and save names, stage
descriptions, file paths): checked where it comes in, made harmless where it
is shown.

Two dangers.  Control characters (ESC, BEL, the other C0 and C1 codes, DEL)
reach the terminal as they are: `ESC ] 0 ; title BEL` retitles it, other
sequences move the cursor or reprogram keys; bidi overrides turn the text
around it.  Neither Rich nor Textual removes ESC.  And Textual reads every
`str` given to a widget as markup: `[/]` raises MarkupError, `[Dad] Tom`
loses `[Dad]`, `[@click=app.quit]` becomes a working link.  Textual's own
`escape` (like Rich's) only escapes tags that start with a lower-case letter,
`#`, `/` or `@`: not `[Dad]`, `[$x]` or `[ b]`.

So: names are refused when they hold a control character (`check`, used by
the pydantic models and the teams screen); every place that shows such text
goes through `clean` (plain output: terminal, Rich `Text`, Line-API
segments), `ui.content.plain` (a Textual Content, never parsed as markup) or
`escape_markup` (inside a markup string of ours).

Nothing here imports Textual (config and saves use it): only ui/ does.
"""

from __future__ import annotations

import re
import unicodedata

from .i18n import _

__all__ = ["CONTROL", "NO_CONTROL", "cells", "check", "check_name", "clean", "control_problem", "cut", "escape_markup",
           "fit", "name_problem", "visible"]

# C0, DEL and C1 controls; the bidi embeddings, overrides, isolates and marks
# (U+061C, U+200E/F, U+202A-E, U+2066-9); the line and paragraph separators;
# lone surrogates, which is how Python reads the bytes of a file name (or an
# argument) that are not UTF-8: printed as they are, they make a UTF-8 stdout
# raise UnicodeEncodeError, or reach the terminal as raw bytes (0x9b is CSI).
# Not the zero-width joiner: emoji sequences need it.
_OTHERS = "\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff"
CONTROL = re.compile(f"[\x00-\x1f{_OTHERS}]")
_LINES = re.compile(f"[\x00-\x08\x0b-\x1f{_OTHERS}]")  # the same but newline and tab
NO_CONTROL = f"[^\x00-\x1f{_OTHERS}]*"  # a whole text without any (a Textual Input's `restrict`)


def _pattern(multiline: bool) -> re.Pattern[str]:
    return _LINES if multiline else CONTROL


def control_problem(text: str, multiline: bool = False) -> str | None:
    """Why `text` is refused (its first control character, by code point), or
    None.  `multiline` allows newlines and tabs (descriptions)."""
    found = _pattern(multiline).search(text)
    if found is None:
        return None
    code = ord(found.group())
    if 0xD800 <= code <= 0xDFFF:
        return _("a byte that is not UTF-8 text (0x{byte}) is not allowed").format(byte=f"{code & 0xFF:02X}")
    return _("control character U+{code} is not allowed").format(code=f"{code:04X}")


def check(text: str, multiline: bool = False) -> str:
    """`text` if it holds no control character, else ValueError (pydantic
    validators turn it into their usual one-line error)."""
    problem = control_problem(text, multiline)
    if problem is not None:
        raise ValueError(problem)
    return text


# What draws nothing: spaces, format characters (zero-width space U+200B, word
# joiner U+2060, U+FEFF, soft hyphen, the joiners), combining marks with
# nothing to sit on, and the letters and symbols drawn as a blank (the Hangul
# fillers, the blank Braille pattern).
_BLANK_CATEGORIES = frozenset({"Zs", "Zl", "Zp", "Cc", "Cf", "Cs", "Mn", "Me"})
_BLANK_CHARACTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")


def visible(text: str) -> bool:
    """Whether `text` shows anything: a name of zero-width spaces would be a
    blank on every screen, as an empty one."""
    return any(
        not ch.isspace() and ch not in _BLANK_CHARACTERS and unicodedata.category(ch) not in _BLANK_CATEGORIES
        for ch in text
    )


def name_problem(text: str) -> str | None:
    """Why `text` is refused as a name (a control character, or nothing
    visible), or None.  An empty name is left to the caller's own rule."""
    problem = control_problem(text)
    if problem is None and text and not visible(text):
        problem = _("no visible character (only spaces or invisible characters)")
    return problem


def check_name(text: str) -> str:
    """`check` for a name: also refused when it shows nothing (ValueError)."""
    problem = name_problem(text)
    if problem is not None:
        raise ValueError(problem)
    return text


def _visible(found: re.Match[str]) -> str:
    code = ord(found.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def clean(text: object, multiline: bool = True) -> str:
    """`str(text)` with every control character written out visibly (ESC as
    the four characters `\\x1b`): safe to print to a terminal.  Newlines and
    tabs stay unless `multiline` is False (one line of a message)."""
    text = str(text)
    return _pattern(multiline).sub(_visible, text)


def cells(text: str) -> int:
    """How many terminal cells `text` takes: a wide character (CJK, most
    emoji) two, a combining accent none.  Columns of names are measured so,
    never by `len`."""
    from rich.cells import cell_len

    return cell_len(text)


def cut(text: str, width: int) -> str:
    """`text` in at most `width` cells: cut with "…" when it is longer.  A
    number at its end is kept when there is room ("Pl… 10"): "Player 10" and
    "Player 11" must not both become "Player…"."""
    from rich.cells import set_cell_size

    if cells(text) <= width:
        return text
    if width <= 0:
        return ""
    number = _NUMBER_AT_END.search(text)
    if number is not None and width >= cells(number.group()) + 3:
        head = width - 1 - cells(number.group())
        return set_cell_size(text[:number.start()], head) + "…" + number.group()
    return set_cell_size(text, width - 1) + "…"


_NUMBER_AT_END = re.compile(r" ?\d+$")


def fit(text: str, width: int) -> str:
    """`text` in exactly `width` cells: cut with "…" when it is longer, padded
    with spaces when shorter (by cells, so a column of names stays a column)."""
    from rich.cells import set_cell_size

    return set_cell_size(cut(text, width), width)


def escape_markup(text: object) -> str:
    """`text` (cleaned) to put inside a Textual markup string of ours: shown
    literally whatever brackets, backslashes or `$` it holds."""
    escaped = clean(text).replace("[", "\\[")
    if escaped.endswith("\\"):
        # a backslash just before our next tag would escape it: a zero-width
        # space between them keeps the tag (and shows nothing)
        escaped += "\u200b"
    return escaped
