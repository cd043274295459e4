"""A scrolling area whose scroll bar's thumb is whole cells of one glyph.

Textual's thumb is blank cells in the thumb's colour between two eighth-cell
glyphs (its ends): read as text, or without colour (where its grey is about
the track's), only the two ends show, as two small thumbs (▇▇ on one row and
▅▅ further down).  The help, the rules reference, the settings and a lesson's
text use this one.
"""

from __future__ import annotations

from rich.color import Color
from rich.segment import Segment, Segments
from rich.style import Style
from textual.containers import VerticalScroll
from textual.scrollbar import ScrollBarRender

TRACK, GRIP = Color.parse("#555555"), Color.parse("bright_magenta")  # (Textual's defaults, never used here)


class WholeThumb(ScrollBarRender):
    """A vertical scroll bar whose thumb is whole cells of one glyph (█)."""

    @classmethod
    def render_bar(cls, size: int = 25, virtual_size: float = 50, window_size: float = 20, position: float = 0,
                   thickness: int = 1, vertical: bool = True, back_color: Color = TRACK,
                   bar_color: Color = GRIP) -> Segments:
        if not vertical or not (window_size and size and virtual_size and size != virtual_size):
            return super().render_bar(size, virtual_size, window_size, position, thickness, vertical, back_color,
                                      bar_color)
        thumb = min(size, max(1, round(size * window_size / virtual_size)))
        travel = virtual_size - window_size
        top = max(0, min(size - thumb, round((size - thumb) * position / travel))) if travel > 0 else 0
        track = " " * thickness
        up = Segment(track, Style(bgcolor=back_color, meta={"@mouse.down": "scroll_up"}))
        down = Segment(track, Style(bgcolor=back_color, meta={"@mouse.down": "scroll_down"}))
        grip = Segment("█" * thickness, Style(color=bar_color, bgcolor=back_color, meta={"@mouse.down": "grab"}))
        return Segments([up] * top + [grip] * thumb + [down] * (size - top - thumb), new_lines=True)


class OneThumbScroll(VerticalScroll):
    """A VerticalScroll (styled and queried as one) whose vertical bar is drawn by WholeThumb."""

    def on_mount(self) -> None:
        # this bar only: Textual reads the class per bar, and documents setting it on one
        self.vertical_scrollbar.renderer = WholeThumb  # type: ignore[misc]
