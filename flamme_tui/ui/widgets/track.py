"""The track: the whole stage at a glance (`StageOverview`) and the detailed
strip around the action (`TrackStrip`), each ONE widget drawn with the Line API.

The overview gives every square one cell, so a rulebook stage (78 squares)
fits in 80 columns: one row per lane (lane 1, the left-hand lane, on top)
where a rider is its team letter on its colour and an empty square shows its
terrain (^ climb, v descent, s supply, · flat), the start line ║ and the
finish line ▓; above it, on meteo stages, a row of weather.

The detailed strip gives every square two cells, and draws ONE thing per row,
so no mark ever overwrites another:

    ruler    square numbers from the start line (taller windows)
    tiles    tile letters, S and F at the lines (and, in a compact window on
             a meteo stage, the tile's weather after its letter; in a compact
             window, the ruler's numbers where no letter is near)
    weather  the weather of each square (meteo, taller windows)
    terrain  ^ ascent, v descent, s supply zone, # cobbles, flat left blank
             (taller windows: the terrain under the riders too).  Among the
             header rows and without flat dots or tile lines, so that it can
             never be read as one more lane, with or without colour.
    marks    the phase: ▼▼ where the card takes the rider, XX a full square
             it cannot enter, +E exhaustion, +1 slipstream, --> a move
    lane 2   (stages with three-lane squares: the Peloton's wide, supply squares;
             blank on the squares of two lanes or one)
    lane 1   riders as team letter + S/R ("BS"), lower case when crashed;
    lane 0   an empty lane shows its terrain, dim; a lane the square lacks ░

When the terminal is wide and tall enough the stage wraps onto several bands;
otherwise one band follows the riders (and scrolls with the mouse wheel or
the [ ] keys of the race screen).  `mini=True` draws one cell per square
without lanes: a preview of a stage's terrain.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any

from rich.segment import Segment
from rich.style import Style
from textual.events import Click, MouseScrollDown, MouseScrollUp
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip

from ...play.narrator import number
from ..palette import (
    FINISH_GLYPH,
    NO_LANE,
    START_GLYPH,
    TILE_GLYPH,
    WEATHER,
    rider_style,
    terrain,
)
from .lines import LineWidget, colourless


@dataclass(frozen=True, slots=True)
class RiderMark:
    index: int
    label: str  # "BS"
    hex: str  # team colour
    square: int
    lane: int
    crashed: bool = False
    active: bool = False
    jersey: bool = False  # a tour: the yellow jersey (◆◆ over its square when nothing else is marked there)


@dataclass(frozen=True, slots=True)
class Scene:
    """What the track shows besides the course."""

    riders: tuple[RiderMark, ...] = ()
    trail: tuple[int, int] | None = None  # a move from square to square
    marks: tuple[int, ...] = ()  # squares marked with mark_glyph
    mark_glyph: str = "+E"
    slips: tuple[int, ...] = ()  # squares riders reached by slipstream (or catch-up)
    previews: tuple[int, ...] = ()  # where the picked cards would take the riders
    blocked: tuple[int, ...] = ()  # full squares a previewed move cannot enter
    cursor: tuple[int, int] | None = None  # (square, lane) chosen on the grid
    focus: tuple[int, ...] = field(default=())  # squares to keep in view, most important first


class TrackClicked(Message):
    def __init__(self, square: int, lane: int | None) -> None:
        super().__init__()
        self.square = square
        self.lane = lane


# styles -----------------------------------------------------------------
BLANK = Style()
LABEL = Style(color="#bbbbbb")
RULER = Style(color="#8a8a8a")
LINE_START = Style(color="#ffffff", bold=True)
LINE_FINISH = Style(color="#ffffff", bgcolor="#7a1f1f", bold=True)
TILE = Style(color="#5a5a5a")
TRAIL = Style(color="#f0e442", bold=True)
PREVIEW = Style(color="#000000", bgcolor="#f0e442", bold=True)
BLOCKED = Style(color="#ffffff", bgcolor="#7a1f1f", bold=True)
SLIP = Style(color="#000000", bgcolor="#56B4E9", bold=True)
CURSOR = Style(color="#000000", bgcolor="#ffffff", bold=True, blink=False)
MARK = Style(color="#ffffff", bgcolor="#a0301f", bold=True)
PAST_END = Style(bgcolor="#161616")
INDICATOR = Style(color="#000000", bgcolor="#bbbbbb", bold=True)
JERSEY = Style(color="#F0E442", bold=True)


def _lane_bg(code: str) -> Style:
    return Style(bgcolor=terrain(code).bg)


def _terrain_style(code: str) -> Style:
    t = terrain(code)
    return Style(color=t.fg, bgcolor=t.bg)


@cache
def _lane_style(code: str, in_view: bool = False) -> Style:
    """An empty lane: its terrain's colours, the glyph dimmed."""
    t = terrain(code)
    return Style(color=t.fg, bgcolor=t.bg, dim=code == ".", underline=in_view)


NO_LANE_STYLE = Style(color=NO_LANE.fg, bgcolor=NO_LANE.bg)


@cache
def _weather_style(kind: str) -> Style:
    wx = WEATHER[kind]
    return Style(color=wx.fg, bgcolor=wx.bg, bold=True)


# rows drawn from the course alone (not from the scene)
STATIC_ROWS = frozenset({"ruler", "labels", "weather", "terrain"})


@dataclass(frozen=True, slots=True)
class Col:
    kind: str  # "sq", "tile", "start", "finish"
    square: int  # the square (sq) or the square just after the line
    width: int


def lane_rows(course) -> tuple[str, ...]:
    """One row per lane, the left-hand (highest) lane on top: three rows on a
    course with three-lane squares, else two."""
    if course is not None and max(course.lanes[: course.length], default=2) >= 3:
        return ("lane2", "lane1", "lane0")
    return ("lane1", "lane0")


REVERSED = Style(reverse=True)


def rider_look(rider: Any, plain: bool) -> Style:
    """A rider's style on the track: its team's colour; without colour (NO_COLOR)
    in reverse video too, else a Vermillon rider's V read as one more of a
    descent's v marks around it (and a crashed one's v as one of them)."""
    style = rider_style(rider.hex, rider.crashed, rider.active)
    return style + REVERSED if plain else style


def road_edge(lane: int, lanes: int) -> bool:
    """Whether `lane`, missing from a square of `lanes` lanes, is beyond the
    road's edge and left blank (a third lane), rather than a lane closed (░).
    A base stage raced by five or six teams starts on the Peloton's three-lane
    tile 1 (rules/PELOTON.md): a third row of ░ the whole stage long read as a
    lane closed everywhere; the third lane is drawn only where a square has it."""
    return lane >= 2 and lanes <= 2


def no_lane(lane: int, lanes: int, width: int) -> Segment:
    """A lane the square lacks: ░ where the road narrows from two lanes (a
    single-file cobble), the road's edge left blank above two lanes (road_edge)."""
    if road_edge(lane, lanes):
        return Segment(" " * width, BLANK)
    return Segment(NO_LANE.glyph * width, NO_LANE_STYLE)


def lane_of(kind: str) -> int:
    """The lane a lane row draws ("lane2" -> 2)."""
    return int(kind[-1])


def unfinished(course) -> bool:
    """A stage still being built (the stage editor): its last tile is no
    finish tile, so no finish line is drawn at its end."""
    return bool(course.tiles) and course.tiles[-1].kind != "finish"


def extent(course, scene: Scene) -> int:
    """Squares to draw: the course, and any rider past its end."""
    furthest = max((r.square for r in scene.riders), default=0)
    return max(course.length, furthest + 2)


class TrackStrip(LineWidget):
    """The detailed strip of a classic or meteo stage, with riders."""

    DEFAULT_CSS = """
    TrackStrip { height: auto; width: 1fr; }
    """

    max_lines: reactive[int] = reactive(4, layout=True)
    tall: reactive[bool] = reactive(False, layout=True)  # ruler, weather and terrain rows too

    def __init__(self, course=None, *, mini: bool = False, end: bool = False, name=None, id=None,
                 classes=None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.course = course
        self.mini = mini
        self.end = end  # with no rider to follow, a window shows the end of the stage (the stage builder's new tiles)
        self.scene = Scene()
        self.pan = 0  # manual scroll in window mode, cells
        self._full_cache: tuple | None = None
        self._static_cache: tuple | None = None
        self._plan_cache: tuple | None = None
        # the whole strips of the scenes shown lately: moving the selection among the
        # cards goes back to scenes already drawn (the course being the same)
        self._scenes: dict[tuple, tuple[list[Strip], list[Col], list[int]]] = {}

    # --------------------------------------------------------------- input

    def set_course(self, course) -> None:
        self.course = course
        self.pan = 0
        self._full_cache = self._plan_cache = self._static_cache = None
        self._scenes.clear()
        self.relayout()

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
                self.relayout()
                return
        self.redraw()  # the rows that changed only (the ruler, tiles and terrain mostly stay)

    def scroll_by_cells(self, cells: int) -> None:
        self.pan += cells
        self.redraw()

    def watch_max_lines(self) -> None:
        self._plan_cache = None
        self._kept = None

    def watch_tall(self) -> None:
        self._plan_cache = self._full_cache = None
        self._scenes.clear()
        self._kept = None

    # -------------------------------------------------------------- layout

    def row_kinds(self) -> tuple[str, ...]:
        if self.mini:
            return ("labels", "terrain")
        meteo = bool(self.course is not None and self.course.weather)
        lanes = lane_rows(self.course)
        if self.tall:
            return ("ruler", "labels") + (("weather",) if meteo else ()) + ("terrain", "marks") + lanes
        return ("labels", "marks") + lanes

    @property
    def rows(self) -> int:
        return len(self.row_kinds())

    def _extent(self) -> int:
        return 0 if self.course is None else extent(self.course, self.scene)

    def _columns(self) -> list[Col]:
        course = self.course
        starts = {t.first for t in course.tiles}
        sq_w = 1 if self.mini else 2
        finish = -1 if unfinished(course) else course.finish
        cols: list[Col] = []
        for sq in range(self._extent()):
            if sq == course.grid and sq > 0:
                cols.append(Col("start", sq, 1))
            elif sq == finish:
                cols.append(Col("finish", sq, 1))
            elif sq in starts and sq > 0:
                cols.append(Col("tile", sq, 1))
            cols.append(Col("sq", sq, sq_w))
        if finish >= self._extent():
            cols.append(Col("finish", course.finish, 1))
        return cols

    def _full(self) -> tuple[list[Strip], list[Col], list[int]]:
        """The whole stage as one long strip per row, with each column's x."""
        if self._full_cache is not None:
            return self._full_cache
        # the rows of the course alone are kept while only the riders and marks change
        key = (self._extent(), self.tall, self.mini)
        drawn = self._scenes.get((key, self.scene))
        if drawn is not None:
            self._full_cache = drawn
            return drawn
        cols = self._columns()
        xs, x = [], 0
        for c in cols:
            xs.append(x)
            x += c.width
        if self._static_cache is None or self._static_cache[0] != key:
            self._static_cache = (key, {})
        static = self._static_cache[1]
        strips = []
        for kind in self.row_kinds():
            if kind in STATIC_ROWS:
                if kind not in static:
                    static[kind] = Strip(self._row(kind, cols), x)
                strips.append(static[kind])
            else:
                strips.append(Strip(self._row(kind, cols), x))
        self._full_cache = (strips, cols, xs)
        if len(self._scenes) >= 16:  # (a turn's cards and the step-through's frames, at most)
            self._scenes.clear()
        self._scenes[(key, self.scene)] = self._full_cache
        return self._full_cache

    def _plan(self, width: int) -> tuple[str, list[tuple[int, int]]]:
        """("wrap", bands as (x0, x1)) or ("window", [])."""
        key = (width, self.max_lines, self._extent(), self.mini, self.tall)
        if self._plan_cache is not None and self._plan_cache[0] == key:
            return self._plan_cache[1]
        plan: tuple[str, list[tuple[int, int]]]
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

    def one_band(self, width: int) -> bool:
        """Whether the whole stage fits in one band `width` cells wide (the overview then
        shows nothing this strip does not: RaceScreen hides it)."""
        mode, bands = self._plan(width)
        return mode == "wrap" and len(bands) == 1

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

    def _line_cell(self, kind: str, col: Col) -> Segment:
        """A start, finish or tile line in a row of `kind`."""
        if kind == "labels":
            # the lines' own glyphs, never "S" and "F": among the tiles' letters they read as
            # tile s or f (upper case: a tile's other side)
            if col.kind == "start":
                return Segment(START_GLYPH, LINE_START)
            if col.kind == "finish":
                return Segment(FINISH_GLYPH, LINE_FINISH)
            return Segment(" ", BLANK)
        if kind in ("ruler", "marks", "weather") or (kind == "terrain" and col.kind == "tile" and not self.mini):
            return Segment(" ", BLANK)
        if kind.startswith("lane") and road_edge(lane_of(kind), max(self._lanes(col.square - 1),
                                                                    self._lanes(col.square))):
            return Segment(" ", BLANK)  # (the lane on neither side: the road's edge)
        if col.kind == "start":
            return Segment(START_GLYPH, LINE_START)
        if col.kind == "finish":
            return Segment(FINISH_GLYPH, LINE_FINISH)
        return Segment(TILE_GLYPH, TILE)

    def _lanes(self, square: int) -> int:
        """The lanes of a square of the course, 0 off its ends."""
        course = self.course
        return course.lanes[square] if 0 <= square < course.length else 0

    def _fifth_number(self, sq: int, w: int, tile_first: dict) -> str:
        """Square sq's number and a blank, where it is a fifth square before the
        finish and the text runs over no tile's first square; "" elsewhere."""
        course = self.course
        n = number(course, sq)
        if n <= 0 or n % 5 or sq >= course.finish:
            return ""
        text = f"{n} "
        over = range(sq + 1, sq + (len(text) + w - 1) // w)  # the squares the text runs on over
        if any(q in tile_first or q >= course.finish for q in over):
            return ""
        return text

    def _row(self, kind: str, cols: list[Col]) -> list[Segment]:
        course = self.course
        scene = self.scene
        plain = colourless(self)
        segs: list[Segment] = []
        add = segs.append
        tile_first = {t.first: t for t in course.tiles}
        weather = course.weather
        riders = {(r.square, r.lane): r for r in scene.riders}
        trail = scene.trail
        marks, slips = set(scene.marks), set(scene.slips)
        previews, blocked = set(scene.previews), set(scene.blocked)
        jerseys = {r.square for r in scene.riders if r.jersey}
        # in a compact window, a meteo tile's weather follows its letter
        merge_weather = not self.tall and not self.mini
        spill = ""  # the end of a tile's name written on over its next squares (labels)
        spill_style = LABEL  # and its style: a tile's name's, or a square number's
        for c in cols:
            if c.kind != "sq":
                add(self._line_cell(kind, c))
                continue
            sq, w = c.square, c.width
            code = course.terrain[sq]
            past = sq >= course.length
            wx = weather[sq] if weather and sq < len(weather) and weather[sq] in WEATHER else ""
            if kind == "ruler":
                n = number(course, sq)
                text = f"{n:<{w}}" if n > 0 and (n % 5 == 0 or n == 1) and sq < course.finish else " " * w
                if sq == course.finish - 1:
                    text = f"{n:<{w}}"
                add(Segment(text[:w], RULER))
            elif kind == "labels":
                tile = tile_first.get(sq)
                if self.mini and wx:
                    add(Segment(WEATHER[wx].glyph * w, _weather_style(wx)))
                elif tile is not None:
                    if wx and merge_weather:
                        # a Peloton tile's dark side "_2" shows its digit where one cell is all there is
                        name = tile.letter if w > 1 else tile.letter[-1]
                        text = name + WEATHER[wx].glyph
                        add(Segment(text[0], LABEL))
                        add(Segment(text[1:w], _weather_style(wx)))
                    else:
                        # a name longer than the cell ("_2" in one cell a square) runs on over the
                        # tile's next squares, as the race screen writes it: "_2" is not tile 2
                        text = f"{tile.letter:<{w}}"
                        add(Segment(text[:w], LABEL))
                        spill, spill_style = text[w:], LABEL
                elif spill and not (wx and merge_weather):
                    add(Segment(f"{spill[:w]:<{w}}", spill_style))
                    spill = spill[w:]
                elif wx and merge_weather:
                    add(Segment(WEATHER[wx].glyph * w, _weather_style(wx)))
                elif merge_weather and (text := self._fifth_number(sq, w, tile_first)):
                    # a compact window has no ruler: every fifth square's number where no
                    # tile's letter is near (a card says "9 → 14"; the player finds 14 by 15)
                    add(Segment(text[:w], RULER))
                    spill, spill_style = text[w:], RULER
                else:
                    add(Segment(" " * w, BLANK))
            elif kind == "weather":
                if wx:
                    add(Segment(WEATHER[wx].glyph * w, _weather_style(wx)))
                else:
                    add(Segment(" " * w, BLANK))
            elif kind == "marks":
                if sq in previews:
                    add(Segment("▼" * w, PREVIEW))
                elif sq in blocked:
                    add(Segment("XX"[:w], BLOCKED))
                elif sq in marks:
                    add(Segment(scene.mark_glyph[:w].ljust(w), MARK))
                elif sq in slips:
                    add(Segment("+1"[:w], SLIP))
                elif trail and trail[0] < sq <= trail[1]:
                    add(Segment(("->" if sq == trail[1] else "--")[-w:], TRAIL))
                elif sq in jerseys:
                    add(Segment("◆◆"[:w], JERSEY))
                else:
                    add(Segment(" " * w, BLANK))
            elif kind == "terrain":
                if past or (code == "." and not self.mini):
                    # flat is blank beside the lanes (a row of dots read as a lane);
                    # the stage preview (mini) has no lanes and keeps its dots
                    add(Segment(" " * w, PAST_END if past else BLANK))
                else:
                    add(Segment(terrain(code).glyph * w, _terrain_style(code)))
            else:
                lane = lane_of(kind)
                r = riders.get((sq, lane))
                if r is not None:
                    label = r.label.lower() if r.crashed else r.label
                    add(Segment(label[:w], rider_look(r, plain)))
                elif lane >= course.lanes[sq]:
                    add(no_lane(lane, course.lanes[sq], w))
                elif scene.cursor == (sq, lane):
                    add(Segment("[]"[:w], CURSOR))
                elif past:
                    add(Segment(" " * w, PAST_END))
                else:
                    add(Segment(terrain(code).glyph * w, _lane_style(code)))
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
            x0 = total - width if self.end else 0
        x0 = max(0, min(x0 + self.pan, max(0, total - width)))
        # from the start of a column: a square cut at the window's left edge cut its ruler number
        # ("0" for 20) and its riders' labels
        return max((x for x in xs if x <= x0), default=x0)

    def in_view(self, width: int | None = None) -> tuple[int, int] | None:
        """The squares (first, last) the strip shows, or None when it shows them all."""
        width = self.size.width if width is None else width
        if self.course is None or width <= 0:
            return None
        mode, _ = self._plan(width)
        if mode == "wrap":
            return None
        strips, cols, xs = self._full()
        x0 = self._window_x0(width, strips[0].cell_length, cols, xs)
        shown = [c.square for k, c in enumerate(cols) if c.kind == "sq" and x0 <= xs[k] and xs[k] + 2 <= x0 + width]
        return (min(shown), max(shown)) if shown else None

    def draw(self, width: int, height: int) -> list[Strip]:
        return [self._line(y, width) for y in range(height)]

    def _line(self, y: int, width: int) -> Strip:
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
        if self.row_kinds()[y] == "labels" and not self.mini:
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
        kind = self.row_kinds()[row] if 0 <= row < rows else ""
        for k, c in enumerate(cols):
            if c.kind == "sq" and xs[k] <= fx < xs[k] + c.width:
                lane = lane_of(kind) if kind.startswith("lane") and not self.mini else None
                return c.square, lane
        return None


class StageOverview(LineWidget):
    """The whole stage in one glance: one cell per square (several squares a
    cell on a stage longer than the window), the weather row on meteo stages,
    then a row per lane.  The squares the detailed strip shows are underlined."""

    DEFAULT_CSS = """
    StageOverview { height: auto; width: 1fr; }
    """

    def __init__(self, course=None, *, id=None, classes=None) -> None:
        super().__init__(id=id, classes=classes)
        self.course = course
        self.scene = Scene()
        self.window: tuple[int, int] | None = None
        self.wide = False  # a large window: two cells a square when they fit (the riders' labels in full)

    def set_wide(self, wide: bool) -> None:
        if wide != self.wide:
            self.wide = wide
            self.redraw()

    def show(self, scene: Scene, window: tuple[int, int] | None = None) -> None:
        # the overview draws the riders only: a new preview or mark repaints nothing here
        scene = Scene(scene.riders)
        if (scene, window) == (self.scene, self.window):
            return
        self.scene, self.window = scene, window
        self.redraw()

    def row_kinds(self) -> tuple[str, ...]:
        # the weather on top: under the lanes it sat on the strip's tile row, whose own weather is at
        # another scale (two cells a square), and the two read as one
        meteo = bool(self.course is not None and self.course.weather)
        return (("weather",) if meteo else ()) + lane_rows(self.course)

    def get_content_height(self, container, viewport, width: int) -> int:
        return len(self.row_kinds())

    def _cells(self, width: int) -> list[tuple[str, tuple[int, ...]]]:
        """("sq", squares in the cell) or ("start"/"finish", ()), fitting `width`."""
        course = self.course
        last = extent(course, self.scene)
        squares = list(range(last))
        free = max(1, width - 2)  # the two lines take a cell each
        # on a narrow screen the squares past the line and the grid squares no
        # rider stands on give way first (a Peloton 5-6 stage has 81 to 85 squares)
        occupied = {r.square for r in self.scene.riders}
        while len(squares) > free and squares[-1] > course.finish and squares[-1] not in occupied:
            squares.pop()
        while len(squares) > free and squares[0] < course.grid and squares[0] not in occupied:
            squares.pop(0)
        per = -(-len(squares) // free)
        if per > 1:  # a long stage: several squares a cell
            chunks = [tuple(squares[k:k + per]) for k in range(0, len(squares), per)]
        else:
            chunks = [(sq,) for sq in squares]
        cells: list[tuple[str, tuple[int, ...]]] = []
        finish = -1 if unfinished(course) else course.finish
        for chunk in chunks:
            if course.grid in chunk and course.grid > 0:
                cells.append(("start", ()))
            if finish in chunk:
                cells.append(("finish", ()))
            cells.append(("sq", chunk))
        if finish >= last:
            cells.append(("finish", ()))
        return cells

    def draw(self, width: int, height: int) -> list[Strip]:
        if self.course is None or width <= 0:
            return []
        cells = self._cells(width)
        squares = sum(1 for what, chunk in cells if what == "sq")
        span = 2 if self.wide and len(cells) + squares <= width and all(len(c) <= 1 for _, c in cells) else 1
        return [self._line(kind, width, cells, span) for kind in self.row_kinds()]

    def _line(self, kind: str, width: int, cells: list[tuple[str, tuple[int, ...]]], span: int = 1) -> Strip:
        """One row of the overview; `span`: cells a square takes (2: a rider's label in full)."""
        course = self.course
        riders: dict[tuple[int, int], list[RiderMark]] = {}
        for r in self.scene.riders:
            riders.setdefault((r.square, r.lane), []).append(r)
        weather = course.weather
        window = self.window
        plain = colourless(self)
        segs: list[Segment] = []
        for what, chunk in cells:
            if what != "sq":
                if kind == "weather":
                    segs.append(Segment(" ", BLANK))
                else:
                    segs.append(Segment(START_GLYPH if what == "start" else FINISH_GLYPH,
                                        LINE_START if what == "start" else LINE_FINISH))
                continue
            sq = chunk[0]
            seen = window is not None and window[0] <= sq <= window[1]
            if kind == "weather":
                kinds = [weather[s] for s in chunk if s < len(weather) and weather[s] in WEATHER]
                segs.append(Segment(WEATHER[kinds[0]].glyph * span, _weather_style(kinds[0])) if kinds
                            else Segment(" " * span, BLANK))
                continue
            lane = lane_of(kind)
            here = [r for s in chunk for r in riders.get((s, lane), ())]
            if here:
                r = here[0]
                letter = str(len(here)) if len(here) > 1 else r.label[:span]
                letter = f"{letter:<{span}}"[:span]
                style = rider_look(r, plain)
                segs.append(Segment(letter.lower() if r.crashed else letter, style))
                continue
            codes = [course.terrain[s] for s in chunk]
            code = next((c for c in "^vcs" if c in codes), codes[0])
            if sq >= course.length:
                segs.append(Segment(" " * span, PAST_END))
            elif lane >= min(course.lanes[s] for s in chunk):
                segs.append(no_lane(lane, min(course.lanes[s] for s in chunk), span))
            else:
                segs.append(Segment(terrain(code).glyph * span, _lane_style(code, seen and lane == 0)))
        return Strip(segs).crop(0, width).extend_cell_length(width, BLANK)
