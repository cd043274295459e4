"""User text as Textual Content (the one part of usertext that needs Textual:
only ui/ imports Textual, tests/test_imports.py)."""

from __future__ import annotations

from textual.content import Content

from ..usertext import clean


def plain(text: object) -> Content:
    """`text` (cleaned) as Textual Content: no markup, shown as it is."""
    return Content(clean(text))
