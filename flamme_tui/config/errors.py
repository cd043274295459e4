"""A bad data file's one line: ConfigError."""

from __future__ import annotations

import re
from pathlib import Path

from .. import usertext
from ..pathtext import show_path

_SPACES = re.compile(r"[^\S\u00a0\u202f]+")  # whitespace but the no-break spaces

# ---------------------------------------------------------------------------
# Errors


class ConfigError(Exception):
    """A bad data file: str() is one line, `FILE:LINE: FIELD: message`.

    Parts that are unknown are left out (no line for a missing key at the top
    level, no file for a bad argument).
    """

    def __init__(
        self,
        message: str,
        *,
        file: str | Path | None = None,
        line: int | None = None,
        field: str | None = None,
        shown_file: str | None = None,
    ) -> None:
        # one line, always, and safe to show anywhere: a file name or a value
        # from a file may hold control characters (written out, usertext)
        # (spaces and line breaks made one space; a no-break space stays: French puts one before ":")
        self.message = usertext.clean(" ".join(_SPACES.split(str(message).strip())), multiline=False)
        if shown_file is not None:  # the file as another error of it showed it: not resolved again
            self.file: str | None = shown_file
        else:
            self.file = None if file is None else usertext.clean(show_path(file), multiline=False)  # never fails
        self.line = line
        self.field = field
        super().__init__(str(self))

    def __str__(self) -> str:
        where = ":".join(str(p) for p in (self.file, self.line) if p is not None)
        parts = [p for p in (where, self.field, self.message) if p]
        return ": ".join(parts)


