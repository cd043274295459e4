"""No-break spaces never break a line, in every widget of the app.

French puts a no-break space (U+00A0) before ":" ";" "!" "?" and inside
« », and the French catalog does so: the colon must stay on the line of its
word.  But Rich and Textual find the words of a line to wrap with `\\s`, and
in Python `\\s` matches the no-break spaces (they are Unicode spaces), so a
wrapped French line could begin with ":" or "»".

Every wrap of text the app draws goes through one function, Rich's
`rich._wrap.divide_line`: Rich's `Text.wrap` (the help's layout, tables) and
Textual's `Content` (Static, Label, every widget that draws a string or
markup) both call it, and it finds its words with the module's `re_word`,
looked up at each call.  So `re_word` is replaced here by the same pattern
with the no-break spaces counted as part of a word, never as a place to
break: one change, at the one place where lines are broken, for every
widget.  Only where the lines break changes: the text (what a copy or a
NO_COLOR terminal shows) and its cell widths stay as they were.

`re_word` is a private name of Rich: tests/ui/test_nobreak.py wraps texts
through each path and fails if an upgrade of Rich or Textual stops this
from working (a renamed pattern, a new wrapping function).

Python's `textwrap` (the race log, the panel's "since your last look")
breaks at ASCII whitespace only, so it keeps no-break spaces already.  Left
as it is: Textual's soft wrap of a TextArea (`textual._wrap`; the app has no
TextArea), so that importing `flamme_tui.ui` (the host's `ui.serve`) still
imports nothing of Textual: rich._wrap is a small module.

Run at the import of `flamme_tui.ui` (its `__init__`), before anything is
drawn.
"""

from __future__ import annotations

import re

import rich._wrap

# the no-break spaces: U+00A0 (French before : ; ! ? and inside « »), U+2007
# FIGURE SPACE, U+202F NARROW NO-BREAK SPACE (French numbers, "12 345")
NO_BREAK = "\u00a0\u2007\u202f"
_SPACE = rf"[^\S{NO_BREAK}]"  # whitespace where a line may break (`\s` but the no-break spaces)
_WORD = rf"[\S{NO_BREAK}]"  # a word's character (`\S`, or a no-break space)

# rich._wrap.re_word is r"\s*\S+\s*": a word and the spaces around it
WORD = re.compile(rf"{_SPACE}*{_WORD}+{_SPACE}*")


def keep_no_break_spaces() -> None:
    """Make Rich's and Textual's word wrapping keep no-break spaces within words."""
    rich._wrap.re_word = WORD


keep_no_break_spaces()
