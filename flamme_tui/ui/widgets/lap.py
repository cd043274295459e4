"""The BMX circuit drawn as a lap, by ONE widget with the Line API.

Tiles A and B run left to right along the top, C and D come back right to
left along the bottom; the start/finish line is at the start of tile A, the
starting grid just behind it.  The inner lane (lane 0) is on the side of the
centre.  Single-lane squares show their missing lane as ░░; the jump ramp is
"/N" on the terrain row of its square.

    row 0  tile letters              row 6  terrain (bottom)
    row 1  outer lane (top)          row 7  inner lane (bottom)
    row 2  inner lane (top)          row 8  outer lane (bottom)
    row 3  terrain (top)             row 9  tile letters
    rows 4-5  the middle of the circuit: a legend of its terrain
"""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style
from textual.events import Click
from textual.strip import Strip
from textual.widget import Widget

from ...i18n import pgettext
from ..palette import NO_LANE, START_GLYPH, TILE_GLYPH, rider_style, terrain
from .track import (
    BLANK,
    CURSOR,
    LABEL,
    LINE_START,
    MARK,
    NO_LANE_STYLE,
    PREVIEW,
    TILE,
    TRAIL,
    Scene,
    TrackClicked,
    _lane_bg,
    _terrain_style,
)

RAMP = Style(color="#000000", bgcolor="#F0E442", bold=True)
HEIGHT = 10


class LapStrip(Widget):
    DEFAULT_CSS = """
    LapStrip { height: 10; width: auto; }
    """

    def __init__(self, course=None, *, name=None, id=None, classes=None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.course = course
        self.scene = Scene()
        self._strips: list[Strip] | None = None
        self._where: dict | None = None

    def set_course(self, course) -> None:
        self.course = course
        self._strips = self._where = None
        self.refresh(layout=True)

    def show(self, scene: Scene) -> None:
        if scene == self.scene:
            return
        self.scene = scene
        self._strips = None
        self.refresh()

    # ------------------------------------------------------------ geometry

    @property
    def lap(self) -> int:
        return self.course.finish - self.course.grid

    def _geometry(self) -> dict:
        """x of each lap square and of the grid squares; rows of each side."""
        if self._where is not None:
            return self._where
        course = self.course
        g, lap = course.grid, self.lap
        half = lap // 2
        tile_len = max(1, half // 2) if not course.tiles else course.tiles[0].length
        x_line = 1 + 2 * g
        xs = {}
        for j in range(half):  # top, left to right
            xs[j] = x_line + 1 + 2 * j + (1 if j >= tile_len else 0)
        for k in range(lap - half):  # bottom, right to left, under the top squares
            col = half - 1 - k
            xs[half + k] = x_line + 1 + 2 * col + (1 if col >= tile_len else 0)
        x_right = x_line + 1 + 2 * half + 1
        self._where = dict(x_line=x_line, xs=xs, half=half, x_right=x_right, width=x_right + 2,
                           tile_len=tile_len)
        return self._where

    def get_content_width(self, container, viewport) -> int:
        return self._geometry()["width"] if self.course else 0

    def get_content_height(self, container, viewport, width: int) -> int:
        return HEIGHT

    def _place(self, square: int):
        """(x, side) of a course square: side 'grid', 'top' or 'bottom'."""
        geo = self._geometry()
        course = self.course
        if square < course.grid:
            return 1 + 2 * square, "grid"
        j = (square - course.grid) % self.lap
        return geo["xs"][j], "top" if j < geo["half"] else "bottom"

    # ----------------------------------------------------------- rendering

    def _build(self) -> list[Strip]:
        geo = self._geometry()
        width = geo["width"]
        cells = [[(" ", BLANK)] * width for _ in range(HEIGHT)]

        def put(x, y, text, style):
            for k, ch in enumerate(text):
                if 0 <= x + k < width:
                    cells[y][x + k] = (ch, style)

        course, scene = self.course, self.scene
        g, lap, _half = course.grid, self.lap, geo["half"]
        x_line, x_right = geo["x_line"], geo["x_right"]
        riders = {}
        for r in scene.riders:
            riders[(r.square if r.square < g else g + (r.square - g) % lap, r.lane)] = r
        marks = set()
        for m in scene.marks:
            marks.add(m if m < g else g + (m - g) % lap)
        # lines and connectors
        put(x_line, 0, "S", LINE_START)
        for y in (1, 2):
            put(x_line, y, START_GLYPH, LINE_START)
        for y in (3, 4, 5, 6, 7):
            put(x_line, y, "│", TILE)
        put(x_line, 8, "╰", TILE)
        put(x_right, 1, "╮", TILE)
        for y in range(2, 8):
            put(x_right, y, "│", TILE)
        put(x_right, 8, "╯", TILE)
        sep = x_line + 1 + 2 * geo["tile_len"]
        for y in (1, 2, 3, 6, 7, 8):
            put(sep, y, TILE_GLYPH, TILE)
        # the middle: a legend of the terrain on this circuit
        words = []
        shorts = {"b": pgettext("lap legend", "bumpy"), "k": pgettext("lap legend", "canyon"),
                  "v": pgettext("lap legend", "descent"), "m": pgettext("lap legend", "marsh")}
        for code, short in shorts.items():
            if code in course.terrain[g: g + lap]:
                words.append((terrain(code).glyph, short))
        if course.ramp is not None:
            words.append((f"/{course.ramp[1]}", pgettext("lap legend", "ramp")))
        inner = x_right - x_line - 3
        lines, line = [], ""
        for glyph, short in words:
            item = f"{glyph} {short}"
            if line and len(line) + 2 + len(item) > inner:
                lines.append(line)
                line = item
            else:
                line = f"{line}  {item}" if line else item
        if line:
            lines.append(line)
        for k, text in enumerate(lines[:2]):
            put(x_line + 2, 4 + k, text[:inner], LABEL)
        # squares: grid, then the lap
        squares = list(range(g)) + [g + j for j in range(lap)]
        ramp = course.ramp
        trail = scene.trail
        for sq in squares:
            x, side = self._place(sq)
            code = course.terrain[sq]
            lanes = course.lanes[sq]
            if side == "bottom":
                lane_rows, t_row, l_row = {0: 7, 1: 8}, 6, 9
            else:
                lane_rows, t_row, l_row = {1: 1, 0: 2}, 3, 0
            for lane, y in lane_rows.items():
                here = riders.get((sq, lane))
                if here is not None:
                    label = here.label.lower() if here.crashed else here.label
                    if side == "bottom" and label.endswith(">"):  # raced right to left: "<B", its arrow ahead
                        label = "<" + label[:-1]
                    put(x, y, label[:2], rider_style(here.hex, here.crashed, here.active))
                elif lane >= lanes:
                    put(x, y, NO_LANE.glyph * 2, NO_LANE_STYLE)
                elif scene.cursor == (sq, lane):
                    put(x, y, "[]", CURSOR)
                else:
                    put(x, y, "  ", _lane_bg(code))
            if side == "grid":
                put(x, 3, "··", _terrain_style("."))
                continue
            t = terrain(code)
            if ramp is not None and sq == ramp[0]:
                put(x, t_row, f"/{ramp[1]}", RAMP)
            else:
                put(x, t_row, t.glyph * 2, _terrain_style(code))
            j = sq - g
            if any(p == sq or (p >= g and g + (p - g) % lap == sq) for p in scene.previews):
                put(x, l_row, "▼▼" if side == "top" else "▲▲", PREVIEW)
            elif sq in marks:
                put(x, l_row, scene.mark_glyph[:2], MARK)
            elif trail and self._on_trail(sq, trail):
                put(x, l_row, "->" if side == "top" else "<-", TRAIL)
            elif j % geo["tile_len"] == 0 and course.tiles:
                tile = course.tiles[min(j // geo["tile_len"], len(course.tiles) - 1)]
                put(x + 1, l_row, tile.letter, LABEL)
        return [self._strip(row) for row in cells]

    def _on_trail(self, sq: int, trail: tuple[int, int]) -> bool:
        frm, to = trail
        g, lap = self.course.grid, self.lap
        for s in range(frm + 1, to + 1):
            if (s if s < g else g + (s - g) % lap) == sq:
                return True
        return False

    @staticmethod
    def _strip(row) -> Strip:
        segs: list[Segment] = []
        text, style = "", None
        for ch, st in row:
            if st is style:
                text += ch
            else:
                if text:
                    segs.append(Segment(text, style))
                text, style = ch, st
        if text:
            segs.append(Segment(text, style))
        return Strip(segs, len(row))

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        if self.course is None:
            return Strip.blank(width, BLANK)
        if self._strips is None:
            self._strips = self._build()
        if y >= len(self._strips):
            return Strip.blank(width, BLANK)
        return self._strips[y].crop(0, width).extend_cell_length(width, BLANK)

    def on_click(self, event: Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None or self.course is None:
            return
        x, y = offset.x, offset.y
        for sq in list(range(self.course.grid)) + [self.course.grid + j for j in range(self.lap)]:
            sx, side = self._place(sq)
            if sx <= x < sx + 2:
                rows = {"top": (1, 2, 3, 0), "grid": (1, 2), "bottom": (6, 7, 8, 9)}[side]
                if y in rows:
                    lane = {1: 1, 2: 0, 7: 0, 8: 1}.get(y)
                    self.post_message(TrackClicked(sq, lane))
                    return
