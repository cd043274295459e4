"""A Line-API widget that repaints only the lines that changed.

Textual keeps every widget's rendered lines (its styles cache) and a
`refresh()` throws all of them away: the track, the profile, the card row
and the race log would be drawn again whole, and filtered, cut and composed
again by the compositor, when a key moves one rider or selects one card.
A `LineWidget` draws all its lines at once (`draw`), keeps them, and when its
state changes (`redraw`) compares the new lines with those on screen and
refreshes only the lines that differ.  At 200x60 that is most of the time
between a key and its frame (see bench.py).
"""

from __future__ import annotations

from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget


class LineWidget(Widget):
    """Subclasses draw their lines in `draw(width, height)` and call `redraw()`
    after a change of what they show (`relayout()` when their height may change)."""

    _kept: tuple[tuple[int, int], list[Strip]] | None = None  # (size, lines) as last drawn

    def draw(self, width: int, height: int) -> list[Strip]:
        """Every line of the widget at this size."""
        raise NotImplementedError

    def drawn_lines(self) -> list[Strip]:
        """The lines at the widget's size (drawn once per change)."""
        width, height = self.size
        kept = self._kept
        if kept is None or kept[0] != (width, height):
            kept = self._kept = ((width, height), self.draw(width, height))
        return kept[1]

    def render_line(self, y: int) -> Strip:
        lines = self.drawn_lines()
        return lines[y] if 0 <= y < len(lines) else Strip.blank(self.size.width)

    def redraw(self) -> None:
        """What the widget shows changed: repaint the lines that differ from the
        ones drawn (all of them when none were drawn at this size)."""
        kept, self._kept = self._kept, None
        width, height = self.size
        if kept is None or kept[0] != (width, height) or not width or not height:
            self.refresh()
            return
        new = self.drawn_lines()
        changed = [Region(0, y, width, 1) for y, (old, line) in enumerate(zip(kept[1], new)) if old != line]
        if changed:
            self.refresh(*changed)

    def relayout(self) -> None:
        """Draw again from scratch after a new layout (the height may change)."""
        self._kept = None
        self.refresh(layout=True)
