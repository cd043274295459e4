"""The race log: the race in words, newest at the bottom.

A Line-API widget in a place of fixed size: adding lines only repaints it
(a RichLog grows its virtual size, which means a new layout and a second
frame to scroll to the end), and until the log fills its place only the new
lines are repainted.  The mouse wheel scrolls back; while scrolled back, the
last line says how many lines are below.
"""

from __future__ import annotations

import re
import textwrap

from rich.segment import Segment
from rich.style import Style
from textual.events import MouseScrollDown, MouseScrollUp
from textual.strip import Strip

from ...usertext import clean
from .lines import LineWidget

BLANK = Style()
PLAIN = Style()
HEAD = Style(bold=True)
INDENT = Style(color="#a8a8a8")
MORE = Style(color="#000000", bgcolor="#bbbbbb", bold=True)
NBSP = "\xa0"
# keep "6 → 7" on one line
GLUE = re.compile(r"(\S+) (→) (\S+)")


class RaceLog(LineWidget):
    DEFAULT_CSS = """
    RaceLog { width: 1fr; height: 1fr; }
    """

    def __init__(self, *, max_lines: int = 2000, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.lines: list[str] = []
        self.max_lines = max_lines
        self.back = 0  # wrapped lines scrolled back from the end
        self._wrapped: list[Strip] = []
        self._wrapped_width = -1
        self._wrapped_count = 0

    def write(self, line: str) -> None:
        self.write_lines([line])

    def write_lines(self, lines) -> None:
        lines = list(lines)
        if not lines:
            return
        self.lines.extend(clean(line, multiline=False) for line in lines)  # drawn as raw segments
        if len(self.lines) > self.max_lines:
            del self.lines[: len(self.lines) - self.max_lines]
            self._wrapped_width = -1  # rewrap everything
        self.redraw()

    def clear(self) -> None:
        self.lines.clear()
        self.back = 0
        self._wrapped_width = -1
        self.redraw()

    # ----------------------------------------------------------- rendering

    @staticmethod
    def _style(line: str) -> Style:
        if line.startswith("──"):
            return HEAD
        if line.startswith(" "):
            return INDENT
        return PLAIN

    def _wrap(self, width: int) -> list[Strip]:
        if width != self._wrapped_width:
            self._wrapped, self._wrapped_count, self._wrapped_width = [], 0, width
        for line in self.lines[self._wrapped_count:]:
            style = self._style(line)
            indent = "  " if line.startswith(" ") else ""
            glued = GLUE.sub(lambda m: NBSP.join(m.groups()), line)
            parts = textwrap.wrap(glued, width=max(4, width), subsequent_indent=indent + "  ",
                                  drop_whitespace=True, break_on_hyphens=False) or [""]
            if line.startswith(" ") and parts:
                parts[0] = indent + parts[0].lstrip()
            for part in parts:
                part = part.replace(NBSP, " ")
                # cut and padded by cells, not characters: a wide name (emoji, CJK) never spills over
                self._wrapped.append(Strip([Segment(part, style)]).adjust_cell_length(width, BLANK))
        self._wrapped_count = len(self.lines)
        return self._wrapped

    def draw(self, width: int, height: int) -> list[Strip]:
        if width <= 0:
            return []
        wrapped = self._wrap(width)
        self.back = max(0, min(self.back, len(wrapped) - height))
        start = max(0, len(wrapped) - height - self.back)
        lines = wrapped[start:start + height]
        lines += [Strip.blank(width, BLANK)] * (height - len(lines))
        if self.back and height:
            text = f" ↓ {self.back} more "[:width]
            lines[-1] = Strip([Segment(text, MORE), Segment(" " * (width - len(text)), BLANK)], width)
        return lines

    # ---------------------------------------------------------------- mouse

    def scroll_lines(self, delta: int) -> None:
        """Scroll back (positive) or forward (negative)."""
        back = max(0, min(self.back + delta, len(self._wrap(self.size.width)) - self.size.height))
        if back != self.back:
            self.back = back
            self.redraw()

    def on_mouse_scroll_up(self, event: MouseScrollUp) -> None:
        event.stop()
        self.scroll_lines(3)

    def on_mouse_scroll_down(self, event: MouseScrollDown) -> None:
        event.stop()
        self.scroll_lines(-3)

    def text(self) -> str:
        """All lines as plain text (tests)."""
        return "\n".join(self.lines)
