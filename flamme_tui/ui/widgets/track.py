"""The track strip: the whole stage drawn by ONE widget with the Line API.

Each square is two cells wide with its two lanes one above the other (lane 1,
the left-hand lane, on top), tile boundaries are thin lines, the start and
finish lines are marked S and F.  Four rows per band:

    labels   tile letters, weather (meteo), trails and marks
    lane 1   riders as team letter + S/R ("BS"), lower case when crashed
    lane 0
    terrain  ^ ascent, v descent, s supply zone, · flat

When the terminal is wide and tall enough the stage wraps onto several bands;
otherwise one band follows the riders (and scrolls with the mouse wheel or
the [ ] keys of the race screen).  `mini=True` draws one cell per square
without lanes: a preview of a stage's terrain.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rich.segment import Segment
from rich.style import Style
from textual.events import Click, MouseScrollDown, MouseScrollUp
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget

from ..palette import (
    FINISH_GLYPH,
    NO_LANE,
    START_GLYPH,
    TILE_GLYPH,
    WEATHER,
    rider_style,
    terrain,
)


@dataclass(frozen=True, slots=True)
class RiderMark:
    index: int
    label: str  # "BS"
    hex: str  # team colour
    square: int
    lane: int
    crashed: bool = False
    active: bool = False


@dataclass(frozen=True, slots=True)
class Scene:
    """What the track shows besides the course."""

    riders: tuple[RiderMark, ...] = ()
    trail: tuple[int, int] | None = None  # a move from square to square
    marks: tuple[int, ...] = ()  # squares marked with mark_glyph
    mark_glyph: str = "+E"
    preview: int | None = None  # where the selected card would take the rider
    cursor: tuple[int, int] | None = None  # (square, lane) chosen on the grid
    focus: tuple[int, ...] = field(default=())  # squares to keep in view, most important first


class TrackClicked(Message):
    def __init__(self, square: int, lane: int | None) -> None:
        super().__init__()
        self.square = square
        self.lane = lane


# styles -----------------------------------------------------------------
BLANK = Style()
DIM = Style(color="#6c6c6c")
LABEL = Style(color="#bbbbbb")
LINE_START = Style(color="#ffffff", bold=True)
LINE_FINISH = Style(color="#ffffff", bgcolor="#7a1f1f", bold=True)
TILE = Style(color="#5a5a5a")
TRAIL = Style(color="#f0e442", bold=True)
PREVIEW = Style(color="#000000", bgcolor="#f0e442", bold=True)
CURSOR = Style(color="#000000", bgcolor="#ffffff", bold=True, blink=False)
MARK = Style(color="#ffffff", bgcolor="#a0301f", bold=True)
PAST_END = Style(bgcolor="#161616")
INDICATOR = Style(color="#000000", bgcolor="#bbbbbb", bold=True)


def _lane_bg(code: str) -> Style:
    return Style(bgcolor=terrain(code).bg)


def _terrain_style(code: str) -> Style:
    t = terrain(code)
    return Style(color=t.fg, bgcolor=t.bg)


NO_LANE_STYLE = Style(color=NO_LANE.fg, bgcolor=NO_LANE.bg)


@dataclass(frozen=True, slots=True)
class Col:
    kind: str  # "sq", "tile", "start", "finish"
    square: int  # the square (sq) or the square just after the line
    width: int


class TrackStrip(Widget):
    """A classic or meteo stage, with riders."""

    DEFAULT_CSS = """
    TrackStrip { height: auto; width: 1fr; }
    """

    max_lines: reactive[int] = reactive(4, layout=True)

    def __init__(self, course=None, *, mini: bool = False, name=None, id=None, classes=None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.course = course
        self.mini = mini
        self.scene = Scene()
        self.pan = 0  # manual scroll in window mode, cells
        self._full_cache: tuple | None = None
        self._plan_cache: tuple | None = None

    # --------------------------------------------------------------- input

    def set_course(self, course) -> None:
        self.course = course
        self.pan = 0
        self._full_cache = self._plan_cache = None
        self.refresh(layout=True)

    def show(self, scene: Scene) -> None:
        if scene == self.scene:
            return
        if scene.focus != self.scene.focus:
            self.pan = 0
        old_extent = self._extent()
        width = self.size.width
        old_height = self.get_content_height(None, None, width)
        self.scene = scene
        self._full_cache = None
        if self._extent() != old_extent:
            # a rider past the finish line makes the strip longer: a new layout
            # only if that changes the height (more bands when wrapped)
            self._plan_cache = None
            if self.get_content_height(None, None, width) != old_height:
                self.refresh(layout=True)
                return
        self.refresh()

    def scroll_by_cells(self, cells: int) -> None:
        self.pan += cells
        self.refresh()

    def watch_max_lines(self) -> None:
        self._plan_cache = None

    # -------------------------------------------------------------- layout

    @property
    def rows(self) -> int:
        return 2 if self.mini else 4

    def _extent(self) -> int:
        if self.course is None:
            return 0
        furthest = max((r.square for r in self.scene.riders), default=0)
        return max(self.course.length, furthest + 2)

    def _columns(self) -> list[Col]:
        course = self.course
        starts = {t.first for t in course.tiles}
        sq_w = 1 if self.mini else 2
        cols: list[Col] = []
        for sq in range(self._extent()):
            if sq == course.grid and sq > 0:
                cols.append(Col("start", sq, 1))
            elif sq == course.finish:
                cols.append(Col("finish", sq, 1))
            elif sq in starts and sq > 0:
                cols.append(Col("tile", sq, 1))
            cols.append(Col("sq", sq, sq_w))
        if course.finish >= self._extent():
            cols.append(Col("finish", course.finish, 1))
        return cols

    def _full(self) -> tuple[list[Strip], list[Col], list[int]]:
        """The whole stage as one long strip per row, with each column's x."""
        if self._full_cache is not None:
            return self._full_cache
        cols = self._columns()
        xs, x = [], 0
        for c in cols:
            xs.append(x)
            x += c.width
        rows = [self._row(r, cols) for r in range(self.rows)]
        strips = [Strip(segs, x) for segs in rows]
        self._full_cache = (strips, cols, xs)
        return self._full_cache

    def _plan(self, width: int) -> tuple[str, list[tuple[int, int]]]:
        """("wrap", bands as (x0, x1)) or ("window", [])."""
        key = (width, self.max_lines, self._extent(), self.mini)
        if self._plan_cache is not None and self._plan_cache[0] == key:
            return self._plan_cache[1]
        if self.course is None or width <= 0:
            plan = ("window", [])
        else:
            cols = self._columns()
            bands: list[tuple[int, int]] = []
            x0 = x = 0
            for c in cols:
                if x + c.width - x0 > width:
                    bands.append((x0, x))
                    x0 = x
                x += c.width
            bands.append((x0, x))
            height = len(bands) * self.rows + len(bands) - 1
            plan = ("wrap", bands) if len(bands) == 1 or height <= self.max_lines else ("window", [])
        self._plan_cache = (key, plan)
        return plan

    def get_content_height(self, container, viewport, width: int) -> int:
        mode, bands = self._plan(width)
        if mode == "wrap":
            return len(bands) * self.rows + len(bands) - 1
        return self.rows

    def get_content_width(self, container, viewport) -> int:
        if self.course is None:
            return 0
        strips, _, _ = self._full()
        return strips[0].cell_length if strips else 0

    # ----------------------------------------------------------- rendering

    def _row(self, row: int, cols: list[Col]) -> list[Segment]:
        course = self.course
        scene = self.scene
        segs: list[Segment] = []
        add = segs.append
        if self.mini:
            kinds = ("labels", "terrain")
        else:
            kinds = ("labels", "lane1", "lane0", "terrain")
        what = kinds[row]
        tile_first = {t.first: t for t in course.tiles}
        weather = course.weather
        riders = {(r.square, r.lane): r for r in scene.riders}
        trail = scene.trail
        marks = set(scene.marks)
        for c in cols:
            if c.kind != "sq":
                if what == "labels":
                    text = {"start": "S", "finish": "F"}.get(c.kind, " ")
                    add(Segment(text, LINE_START if c.kind != "tile" else BLANK))
                elif c.kind == "start":
                    add(Segment(START_GLYPH, LINE_START))
                elif c.kind == "finish":
                    add(Segment(FINISH_GLYPH, LINE_FINISH))
                else:
                    add(Segment(TILE_GLYPH, TILE))
                continue
            sq, w = c.square, c.width
            code = course.terrain[sq]
            past = sq >= course.length
            if what == "labels":
                tile = tile_first.get(sq)
                kind = weather[sq] if weather and sq < len(weather) else ""
                if sq == scene.preview:
                    add(Segment("▼" * w, PREVIEW))
                elif sq in marks:
                    add(Segment(scene.mark_glyph[:w].ljust(w), MARK))
                elif trail and trail[0] < sq <= trail[1]:
                    add(Segment(("->" if sq == trail[1] else "--")[-w:], TRAIL))
                elif kind and kind in WEATHER:
                    wx = WEATHER[kind]
                    style = Style(color=wx.fg, bgcolor=wx.bg, bold=True)
                    text = (tile.letter if tile and not self.mini else wx.glyph) + wx.glyph
                    add(Segment(text[-w:] if w == 1 else text, style))
                elif tile is not None:
                    add(Segment((tile.letter + " ")[:w], LABEL))
                else:
                    add(Segment(" " * w, BLANK))
            elif what == "terrain":
                t = terrain(code)
                style = PAST_END if past else _terrain_style(code)
                add(Segment((" " if past else t.glyph) * w, style))
            else:
                lane = 1 if what == "lane1" else 0
                r = riders.get((sq, lane))
                if r is not None:
                    label = r.label.lower() if r.crashed else r.label
                    add(Segment(label[:w], rider_style(r.hex, r.crashed, r.active)))
                elif lane >= course.lanes[sq]:
                    add(Segment(NO_LANE.glyph * w, NO_LANE_STYLE))
                elif scene.cursor == (sq, lane):
                    add(Segment("[]"[:w], CURSOR))
                else:
                    add(Segment(" " * w, PAST_END if past else _lane_bg(code)))
        return segs

    def _window_x0(self, width: int, total: int, cols: list[Col], xs: list[int]) -> int:
        focus = self.scene.focus or tuple(r.square for r in self.scene.riders)
        xmap = {c.square: xs[k] for k, c in enumerate(cols) if c.kind == "sq"}
        pts = [xmap[s] for s in focus if s in xmap]
        if pts:
            lo, hi = min(pts), max(pts) + 2
            if hi - lo + 8 <= width:
                x0 = (lo + hi) // 2 - width // 2
            else:  # keep the most important square in view, a little left of centre
                x0 = pts[0] - width // 2
        else:
            x0 = 0
        x0 += self.pan
        return max(0, min(x0, max(0, total - width)))

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        if self.course is None or width <= 0:
            return Strip.blank(width, BLANK)
        strips, cols, xs = self._full()
        mode, bands = self._plan(width)
        rows = self.rows
        if mode == "wrap":
            band, row = divmod(y, rows + 1)
            if band >= len(bands) or row >= rows:
                return Strip.blank(width, BLANK)
            x0, x1 = bands[band]
            return strips[row].crop(x0, x1).extend_cell_length(width, BLANK)
        if y >= rows:
            return Strip.blank(width, BLANK)
        total = strips[0].cell_length
        x0 = self._window_x0(width, total, cols, xs)
        strip = strips[y].crop(x0, x0 + width).extend_cell_length(width, BLANK)
        if y == 0 and not self.mini:
            strip = self._indicators(strip, x0, width, cols, xs)
        return strip

    def _indicators(self, strip: Strip, x0: int, width: int, cols, xs) -> Strip:
        """'<3' and '2>': riders out of view on either side."""
        xmap = {c.square: xs[k] for k, c in enumerate(cols) if c.kind == "sq"}
        left = sum(1 for r in self.scene.riders if xmap.get(r.square, 0) < x0)
        right = sum(1 for r in self.scene.riders if xmap.get(r.square, 0) + 2 > x0 + width)
        segs = list(strip)
        if left:
            text = f"<{left}"
            segs = [Segment(text, INDICATOR)] + list(Strip(segs).crop(len(text), width))
        if right:
            text = f"{right}>"
            segs = list(Strip(segs).crop(0, width - len(text))) + [Segment(text, INDICATOR)]
        return Strip(segs, width)

    # ---------------------------------------------------------------- mouse

    def on_mouse_scroll_down(self, event: MouseScrollDown) -> None:
        if self._plan(self.size.width)[0] == "window":
            self.scroll_by_cells(8)
            event.stop()

    def on_mouse_scroll_up(self, event: MouseScrollUp) -> None:
        if self._plan(self.size.width)[0] == "window":
            self.scroll_by_cells(-8)
            event.stop()

    def on_click(self, event: Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None or self.course is None:
            return
        hit = self.square_at(offset.x, offset.y)
        if hit is not None:
            self.post_message(TrackClicked(*hit))

    def square_at(self, x: int, y: int) -> tuple[int, int | None] | None:
        width = self.size.width
        strips, cols, xs = self._full()
        mode, bands = self._plan(width)
        rows = self.rows
        if mode == "wrap":
            band, row = divmod(y, rows + 1)
            if band >= len(bands) or row >= rows:
                return None
            fx = bands[band][0] + x
        else:
            row = y
            fx = self._window_x0(width, strips[0].cell_length, cols, xs) + x
        for k, c in enumerate(cols):
            if c.kind == "sq" and xs[k] <= fx < xs[k] + c.width:
                lane = None
                if not self.mini and row in (1, 2):
                    lane = 2 - row
                return c.square, lane
        return None
