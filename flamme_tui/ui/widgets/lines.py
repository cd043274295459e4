"""Widgets that repaint only the lines that changed.

Textual keeps every widget's rendered lines (its styles cache) and a
`refresh()` throws all of them away: the track, the profile, the card row,
the race log, the boards and the panel's hints would be drawn again whole,
and filtered, cut and composed again by the compositor, when a key moves one
rider or selects one card.  A `LineWidget` draws all its lines at once
(`draw`), keeps them, and when what it shows changes (`redraw`) compares the
new lines with those on screen and refreshes only the lines that differ.  At
200x60 that was most of the time between a key and its frame (see bench.py).
`TextLines` is a Static drawn that way: text, markup or a Rich renderable.

A widget under an opaque screen (the race under its curtain) only notes that
it changed: its screen repaints it when it comes back (`BaseScreen`), once,
however many times it changed meanwhile.
"""

from __future__ import annotations

from typing import Any

from rich.cells import cell_len
from rich.segment import Segment
from textual.content import Content
from textual.geometry import Region
from textual.strip import Strip
from textual.types import NoActiveAppError
from textual.visual import Visual, VisualType, visualize
from textual.widget import Widget


def colourless(widget: Any) -> bool:
    """Whether the app is drawn without colour (NO_COLOR)."""
    try:
        return bool(widget.app.no_color)
    except NoActiveAppError:  # (drawn outside an app: a test's widget)
        return False


class LineWidget(Widget):
    """Subclasses draw their lines in `draw(width, height)` and call `redraw()`
    after a change of what they show (`relayout()` when their height may change)."""

    _kept: tuple[Any, list[Strip]] | None = None  # (draw_key(), the lines) as last drawn
    _shown: tuple[Any, list[Strip]] | None = None  # the lines on screen, while a change waits to be shown
    _waiting = False  # a change waits for the screen to come back

    def draw(self, width: int, height: int) -> list[Strip]:
        """Every line of the widget at this size."""
        raise NotImplementedError

    def draw_key(self) -> Any:
        """What the drawn lines depend on besides the widget's own state: its size."""
        return tuple(self.size)

    def drawn_lines(self) -> list[Strip]:
        """The lines as they are now (drawn once per change)."""
        key = self.draw_key()
        kept = self._kept
        if kept is None or kept[0] != key:
            width, height = self.size
            kept = self._kept = (key, self.draw(width, height))
        return kept[1]

    def render_line(self, y: int) -> Strip:
        lines = self.drawn_lines()
        return lines[y] if 0 <= y < len(lines) else Strip.blank(self.size.width)

    def redraw(self) -> None:
        """What the widget shows changed: repaint the lines that differ from the
        ones on screen (all of them when none were drawn as things stand)."""
        if not self._waiting:
            self._shown = self._kept
        self._kept = None
        if self.is_mounted and self.covered():
            self._waiting = True  # nobody sees it: drawn when its screen comes back (show_changes)
            return
        self._waiting = False
        self._repaint()

    def covered(self) -> bool:
        """Under an opaque screen (the race under its curtain): nobody sees the widget.
        (Textual counts the screen under the top one as visible, whatever the top one.)"""
        top = self.app.screen
        return top is not self.screen and top.styles.background.a == 1

    def show_changes(self) -> None:
        """The screen is back: what changed while it was covered is drawn in its
        first frame.  Textual repaints the whole screen that comes back, so the
        widget's lines are only marked stale here: a refresh() of each widget
        also drew them all again in a second frame, the same lines (2-3 ms of
        CPU after a curtain at 80x24, 5 at 200x60)."""
        if self._waiting:
            self._waiting = False
            self._shown = None
            self._layout_cache.clear()
            self._set_dirty()  # (Textual's styles cache of the lines: drawn again at the next paint)

    def _repaint(self) -> None:
        shown, self._shown = self._shown, None
        width, height = self.size
        if shown is None or not width or not height or shown[0] != self.draw_key():
            self.refresh()
            return
        new = self.drawn_lines()
        changed = [Region(0, y, width, 1) for y, (old, line) in enumerate(zip(shown[1], new)) if old != line]
        if changed:
            self.refresh(*changed)

    def relayout(self) -> None:
        """Draw again from scratch after a new layout (the height may change)."""
        self._kept = self._shown = None
        self._waiting = False
        self.refresh(layout=True)


class TextLines(LineWidget):
    """Like a Static (text with markup, Content or a Rich renderable, wrapped and
    styled by its CSS), in a place whose size the stylesheet fixes: `update`
    repaints the lines that changed."""

    DEFAULT_CSS = """
    TextLines { height: auto; }
    """

    def __init__(self, content: VisualType = "", *, markup: bool = True, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes, markup=markup)
        self._content = content
        self._visual: Visual | None = None
        # the lines of the texts shown lately: a hint comes back when the selection
        # goes back to a card (wrapping and styling a text again took a few ms)
        self._drawn: dict[tuple, list[Strip]] = {}

    @property
    def visual(self) -> Visual:
        """What is drawn (a string becomes Content)."""
        if self._visual is None:
            self._visual = visualize(self, self._content, markup=self._render_markup)
        return self._visual

    @property
    def content(self) -> VisualType:
        return self._content

    def render(self) -> Visual:
        return self.visual  # for Textual's own measures (height: auto)

    def update(self, content: VisualType = "", *, layout: bool = False) -> None:
        """Show `content`; `layout=True` when its height may change (a new layout
        of the screen, only if it does)."""
        self._content = content
        self._visual = None
        width, height = self.size
        if layout and width:
            self.clear_cached_dimensions()
            layout = self.get_content_height(self.app.size, self.app.size, width) != height
        if layout:
            self.relayout()
        else:
            self.redraw()

    def draw_key(self) -> Any:
        # the lines take the colours of the CSS (a new theme) and a mouse selection
        return (tuple(self.size), self.visual_style, self.text_selection)

    def draw(self, width: int, height: int) -> list[Strip]:
        style = self.visual_style
        content = self._content
        styles = self.styles  # (what else the stylesheet says of the text: a class may change it)
        key = (content, width, height, style, styles.text_wrap, styles.text_overflow, styles.text_align) \
            if isinstance(content, str) and self.text_selection is None else None
        if key is not None and key in self._drawn:
            return list(self._drawn[key])
        lines = list(Visual.to_strips(self, self.visual, width, height, style))[:height]
        if height and len(lines) == height and styles.text_wrap == "wrap" and self._cut(width, height, style):
            # more words than lines: the last line shown ends with "…" (a playtest read
            # a cut hint, "sheltered for now: the", as the whole of it)
            last = lines[-1]
            keep = min(cell_len(last.text.rstrip()), width - 1)
            lines[-1] = Strip.join([last.crop(0, keep), Strip([Segment("…", style.rich_style)])]) \
                .extend_cell_length(width, style.rich_style)
        # under the text, as a Static: blank lines in the widget's colours
        lines += [Strip.blank(width, style.rich_style)] * (height - len(lines))
        if key is not None:
            if len(self._drawn) >= 16 or any(k[3] != style for k in self._drawn):  # (a new theme)
                self._drawn.clear()
            self._drawn[key] = list(lines)
        return lines

    def _cut(self, width: int, height: int, style: Any) -> bool:
        """Whether a paragraph of the text, wrapped to `width`, begins in the first `height`
        lines and goes on below them.  (Whole paragraphs left out are not marked: the
        keys under a recap that fills the panel, said again in the footer.)"""
        visual = self.visual
        if not isinstance(visual, Content):
            return False
        shown = 0
        for paragraph in visual.split("\n", allow_blank=True):
            lines = max(1, len(list(Visual.to_strips(self, paragraph, width, None, style))))
            if shown + lines > height:
                return shown < height
            shown += lines
        return False

    def selection_updated(self, selection: Any) -> None:
        self.redraw()
