"""The stage profile: climbs and descents as a height profile, like a real
race's profile, drawn with block characters by ONE widget (Line API).

Every ascent square (^) climbs one step and every descent square (v) drops
one, from the start line to the finish line; one column per square (two
squares share some columns when the window is narrower than the stage).  A column is
coloured like its terrain (climbs red, descents blue, supply zones yellow),
and its shape reads without colour too.  Under the bars: the start line,
the finish line and square numbers from the start line; with `riders`, a
row with every rider's team letter on its square (a count where several
stand in one column, one cell: "+" for ten or more), and with `caption`
a line under it that says so (a lone "12" under the profile read as nothing).
"""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip

from ...i18n import _
from ...play.narrator import number
from ...usertext import cells, cut
from ..palette import FINISH_GLYPH, START_GLYPH, rider_style, terrain
from .lines import LineWidget
from .track import BLANK, LINE_FINISH, LINE_START, RULER, RiderMark, unfinished

EIGHTHS = " ▁▂▃▄▅▆▇█"
AXIS = Style(color="#8a8a8a")
CAPTION = Style(color="#8a8a8a")


def heights(course) -> list[int]:
    """The height of every square of the stage, from the start line to the
    last square before the finish line: +1 for each ascent square, -1 for
    each descent square, counted from 0 at the start line."""
    out, h = [], 0
    for sq in range(course.grid, course.finish):
        code = course.terrain[sq]
        h += 1 if code == "^" else -1 if code == "v" else 0
        out.append(h)
    return out


class StageProfile(LineWidget):
    """The profile of a classic or meteo stage (`bars` rows tall), a row of
    square numbers under it, and optionally a row of riders."""

    DEFAULT_CSS = """
    StageProfile { height: auto; width: 1fr; }
    """

    def __init__(self, course=None, *, bars: int = 4, riders: bool = False, caption: bool = False, id=None,
                 classes=None) -> None:
        super().__init__(id=id, classes=classes)
        self.course = course
        self.bars = bars
        self.with_riders = riders
        self.caption = caption and riders  # the riders' row in words, under it (no legend near by)
        self.stretch = False
        self.riders: tuple[RiderMark, ...] = ()
        self._profile: tuple | None = None  # ((width, bars), the bars and the axis): the course alone

    def set_course(self, course) -> None:
        self.course = course
        self._profile = None
        self.relayout()

    def set_bars(self, bars: int) -> None:
        if bars != self.bars:
            self.bars = bars
            self._profile = None
            self.relayout()

    def show_riders(self, riders: tuple[RiderMark, ...]) -> None:
        if riders != self.riders:
            self.riders = riders
            self.redraw()  # the riders' row only: the bars stay as they are

    def row_count(self) -> int:
        return self.bars + 1 + (1 if self.with_riders else 0) + self.caption

    def get_content_height(self, container, viewport, width: int) -> int:
        return self.row_count() if self.course is not None else 0

    # ------------------------------------------------------------- drawing

    def columns(self, width: int) -> list[tuple[int, ...]]:
        """The stage's squares (start line to finish line) per column, fitting `width`
        (two cells go to the start and finish lines)."""
        course = self.course
        squares = list(range(course.grid, course.finish))
        n = len(squares)
        if self.stretch and width - 2 > n:  # a large window: the chart at its full width, a square a column or two
            cols = width - 2
            return [(squares[c * n // cols],) for c in range(cols)]
        cols = max(1, min(n, width - 2))  # as many columns as there is room for: a square or two each
        return [tuple(squares[c * n // cols:(c + 1) * n // cols]) for c in range(cols)]

    def set_stretch(self, stretch: bool) -> None:
        """Draw the chart at the widget's full width (a square over several columns)."""
        if stretch != self.stretch:
            self.stretch = stretch
            self._profile = None
            self.redraw()

    def draw(self, width: int, height: int) -> list[Strip]:
        if self.course is None or width <= 0:
            return []
        key = (width, self.bars, self.stretch)
        if self._profile is None or self._profile[0] != key:
            self._profile = (key, self._bars(width))
        lines = list(self._profile[1])
        if self.with_riders:
            riders = self._riders(self.columns(width), width)
            lines.append(riders)
            if self.caption:
                lines.append(self._caption(riders.text, width))
        return lines

    @staticmethod
    def _caption(row: str, width: int) -> Strip:
        """What the riders' row above shows, in words (its "+" said only when drawn)."""
        text = _("↑ riders: team letter, or how many share a spot")
        # the longest that fits: a French caption ran on under the log pane, cut mid-word
        said = [text + " " + _("(+: ten or more)")] if "+" in row else []
        said += [text, _("↑ team letter, or how many riders")]
        fitting = next((words for words in said if cells(words) <= width), cut(said[-1], width))
        return Strip([Segment(fitting, CAPTION)]).extend_cell_length(width, BLANK)

    def _bars(self, width: int) -> list[Strip]:
        """The bars and the axis under them."""
        course = self.course
        cols = self.columns(width)
        h = heights(course)
        low, high = min(h + [0]), max(h + [0])
        span = high - low
        eighths = self.bars * 8
        # one step of height is at most one cell: a gentle stage stays gentle
        scale = min(8.0, (eighths - 1) / span) if span else 0.0
        first = course.grid

        def level(sq: int) -> int:  # eighths of a cell filled in the column, at least one
            return 1 + round((h[sq - first] - low) * scale)

        def code_of(chunk: tuple[int, ...]) -> str:
            codes = [course.terrain[s] for s in chunk]
            return "^" if "^" in codes else "v" if "v" in codes else "s" if "s" in codes else "."

        rows: list[list[Segment]] = [[] for _ in range(self.bars)]
        for row in rows:  # the start line
            row.append(Segment(" ", BLANK))
        for chunk in cols:
            filled = max(level(s) for s in chunk)
            t = terrain(code_of(chunk))
            style = Style(color=t.fg if code_of(chunk) != "." else "#9a9a9a")
            for r in range(self.bars):
                base = (self.bars - 1 - r) * 8  # eighths below this row
                part = max(0, min(8, filled - base))
                rows[r].append(Segment(EIGHTHS[part], style if part else BLANK))
        for row in rows:  # the finish line
            row.append(Segment(" ", BLANK))
        lines = [Strip(row).crop(0, width).extend_cell_length(width, BLANK) for row in rows]
        lines.append(self._axis(cols, width))
        return lines

    def _axis(self, cols: list[tuple[int, ...]], width: int) -> Strip:
        """║ the start line, ▓ the finish line, square numbers every 10 and the
        last square before the line (numbered from the start line)."""
        course = self.course
        cells = [" "] * len(cols)
        labels = [(k, next((n for n in (number(course, s) for s in chunk) if n % 10 == 0), None))
                  for k, chunk in enumerate(cols) if k == 0 or cols[k - 1] != chunk]  # (a square's first column)
        last = str(number(course, cols[-1][-1]))
        end = len(cols) - len(last)  # the last square's number ends at the finish line
        for k, n in labels:
            if n is not None and k + len(str(n)) < end:
                cells[k:k + len(str(n))] = list(str(n))
        cells[max(0, end):] = list(last)[-len(cells[max(0, end):]):] if cells[max(0, end):] else []
        # a stage still being built (the editor) has no finish line yet: its end is left open
        end_mark = Segment("…", RULER) if unfinished(course) else Segment(FINISH_GLYPH, LINE_FINISH)
        segs = [Segment(START_GLYPH, LINE_START), Segment("".join(cells), RULER), end_mark]
        return Strip(segs).crop(0, width).extend_cell_length(width, BLANK)

    def _riders(self, cols: list[tuple[int, ...]], width: int) -> Strip:
        """Every rider's team letter under its square (a count when several share a column)."""
        course = self.course
        at: dict[int, list[RiderMark]] = {}
        column: dict[int, int] = {}
        for k, chunk in enumerate(cols):
            for sq in chunk:
                column.setdefault(sq, k)  # (a square over several columns: its first)
        for r in self.riders:
            if r.square < 0:
                continue
            k = -1 if r.square < course.grid else column.get(r.square, len(cols))
            at.setdefault(k, []).append(r)
        segs: list[Segment] = []
        for k in range(-1, len(cols) + 1):  # the grid, the columns, past the line
            here = at.get(k, [])
            if not here:
                segs.append(Segment(" ", BLANK))
                continue
            r = here[0]
            # one cell, whatever the count: a "12" on the grid pushed every rider after it one square on
            text = r.label[0] if len(here) == 1 else str(len(here)) if len(here) <= 9 else "+"
            segs.append(Segment(text, rider_style(r.hex, r.crashed, r.active)))
        return Strip(segs).crop(0, width).extend_cell_length(width, BLANK)
