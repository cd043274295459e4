"""The BMX circuit drawn as a lap, by ONE widget with the Line API.

Tiles A and B run left to right along the top, C and D come back right to
left along the bottom; the start/finish line ║ is at the start of tile A,
the starting grid just behind it.  The inner lane (lane 0) is on the side of
the centre.  ONE thing per row, so that no mark ever covers a label:

    labels   S over the line; each tile's letter and, beside it, its terrain
             in words ("b # canyon"), over (top) or under (bottom) its squares
    marks    ▼▼ (▲▲ below) where the token takes the rider, +F fatigue,
             -> (<- below) a move, XX a full square
    lane 1   the outer lane \\  a rider is its team letter and the arrow of
    lane 0   the inner lane /  its way ("B>", "<B" along the bottom); an
             empty lane shows its square's terrain (~ bumpy, # canyon,
             v descent, " marsh, · track), "/N" the jump ramp, and a lane the
             square lacks ░ (the canyon's middle, the marsh: one lane)
    infield  the middle of the loop, empty but for the way round (↓ at the
             turn, ↑ back to the line) and, when riders fill every lane of the
             ramp's square, the ramp beside it

The bottom side has the same rows in mirror (lane 0, lane 1, marks, labels).
The symbols that no tile's label names (░ and the ramp) are said in words
beside the lap, outside the loop (`legend=False`: the screen says them).

`set_large(True)`, for a large window: three cells a square, so a rider's
square shows its terrain beside the rider ("B>~"), and a row of square
numbers outside each label row (1 the first square past the line, G1 the
front place of the grid), as the boards number them.
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from textual.events import Click
from textual.strip import Strip
from textual.widget import Widget

from ...i18n import _, pgettext
from ...play.narrator import label as square_label
from ..palette import NO_LANE, START_GLYPH, TILE_GLYPH, rider_style, terrain
from .track import (
    BLANK,
    BLOCKED,
    CURSOR,
    LABEL,
    LINE_START,
    MARK,
    NO_LANE_STYLE,
    PREVIEW,
    RULER,
    TILE,
    TRAIL,
    Scene,
    TrackClicked,
    _lane_style,
)

RAMP = Style(color="#000000", bgcolor="#F0E442", bold=True)
WAY = Style(color="#8a8a8a", bold=True)  # the arrows of the way round, in the infield
# the rows of each size, top to bottom: (kind, side) with side "top" or "bottom"
def _rows(side: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    return tuple((k, "top") for k in side) + tuple((k, "bottom") for k in reversed(side))


COMPACT_ROWS = _rows(("labels", "marks", "lane1", "lane0", "infield"))
LARGE_ROWS = _rows(("labels", "marks", "lane1", "lane0", "ruler", "infield"))
HEIGHT = len(COMPACT_ROWS)
LEGEND_GAP = 2  # cells between the loop and its legend


def large_for(width: int, height: int) -> bool:
    """A window with room for the large lap (beside the race log, above the tokens and boards)."""
    return width >= 110 and height >= 32


class LapStrip(Widget):
    DEFAULT_CSS = """
    LapStrip { height: auto; width: auto; }
    """

    def __init__(self, course=None, *, legend: bool = True, name=None, id=None, classes=None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.course = course
        self.legend = legend
        self.large = False
        self.scene = Scene()
        self._strips: list[Strip] | None = None
        self._where: dict | None = None

    def set_course(self, course) -> None:
        self.course = course
        self._strips = self._where = None
        self.refresh(layout=True)

    def set_large(self, large: bool) -> None:
        """Three cells a square and the square numbers (a large window), or the compact lap."""
        if large == self.large:
            return
        self.large = large
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

    @property
    def cell(self) -> int:
        """Cells a square."""
        return 3 if self.large else 2

    def row_kinds(self) -> tuple[tuple[str, str], ...]:
        """(kind, side) of each row, top to bottom."""
        return LARGE_ROWS if self.large else COMPACT_ROWS

    def row_of(self, kind: str, side: str) -> int:
        """The row of `kind` on a side ("grid" squares are on the top side's rows)."""
        return self.row_kinds().index((kind, "bottom" if side == "bottom" else "top"))

    def legend_items(self) -> list[tuple[str, str, Style]]:
        """(symbol, words, its style): what the lap draws that no tile's label names."""
        course = self.course
        g, lap = course.grid, self.lap
        items = []
        if any(n < 2 for n in course.lanes[g: g + lap]):
            items.append((NO_LANE.glyph * 2, _(NO_LANE.name), NO_LANE_STYLE))
        if course.ramp is not None:
            items.append((f"/{course.ramp[1]}", pgettext("lap legend", "ramp"), RAMP))
        return items

    def _geometry(self) -> dict:
        """x of each lap square and of the grid squares; the loop's columns."""
        if self._where is not None:
            return self._where
        course, c = self.course, self.cell
        g, lap = course.grid, self.lap
        half = lap // 2
        tile_len = max(1, half // 2) if not course.tiles else course.tiles[0].length
        x_line = 1 + c * g
        xs = {}
        for j in range(half):  # top, left to right
            xs[j] = x_line + 1 + c * j + (1 if j >= tile_len else 0)
        for k in range(lap - half):  # bottom, right to left, under the top squares
            col = half - 1 - k
            xs[half + k] = x_line + 1 + c * col + (1 if col >= tile_len else 0)
        x_right = x_line + 1 + c * half + 1
        width = x_right + 2
        x_legend = None
        if self.legend and self.legend_items():
            x_legend = x_right + 1 + LEGEND_GAP
            width = x_legend + max(cell_len(f"{glyph} {words}") for glyph, words, _s in self.legend_items()) + 1
        self._where = dict(x_line=x_line, xs=xs, half=half, x_right=x_right, width=width,
                           tile_len=tile_len, x_legend=x_legend)
        return self._where

    def get_content_width(self, container, viewport) -> int:
        return self._geometry()["width"] if self.course else 0

    def get_content_height(self, container, viewport, width: int) -> int:
        return len(self.row_kinds())

    def _place(self, square: int):
        """(x, side) of a course square: side 'grid', 'top' or 'bottom'."""
        geo = self._geometry()
        course = self.course
        if square < course.grid:
            return 1 + self.cell * square, "grid"
        j = (square - course.grid) % self.lap
        return geo["xs"][j], "top" if j < geo["half"] else "bottom"

    def place(self, square: int) -> tuple[int, str]:
        """(x of its first cell, side) of a course square, as drawn now."""
        return self._place(square)

    def _on_lap(self, square: int) -> int:
        """A course square as the lap draws it: past the finish, the lap again."""
        g = self.course.grid
        return square if square < g else g + (square - g) % self.lap

    # ----------------------------------------------------------- rendering

    def _tile_label(self, tile, room: int) -> str:
        """A tile's letter and its terrain in words ("b # canyon"), as much as `room` takes."""
        course = self.course
        code = course.terrain[tile.first]
        names = {"b": pgettext("lap legend", "bumpy"), "k": pgettext("lap legend", "canyon"),
                 "v": pgettext("lap legend", "descent"), "m": pgettext("lap legend", "marsh")}
        if code not in names:
            return tile.letter[:room]
        glyph = terrain(code).glyph
        for text in (f"{tile.letter} {glyph} {names[code]}", f"{tile.letter} {glyph}", tile.letter):
            if cell_len(text) <= room:
                return text
        return ""

    def _build(self) -> list[Strip]:
        geo = self._geometry()
        width = geo["width"]
        kinds = self.row_kinds()
        height = len(kinds)
        cells = [[(" ", BLANK)] * width for _ in range(height)]

        def put(x, y, text, style):
            for k, ch in enumerate(text):
                if 0 <= x + k < width:
                    cells[y][x + k] = (ch, style)

        course, scene, c = self.course, self.scene, self.cell
        g, lap = course.grid, self.lap
        x_line, x_right = geo["x_line"], geo["x_right"]
        row = self.row_of
        riders = {(self._on_lap(r.square), r.lane): r for r in scene.riders}
        marks = {self._on_lap(m) for m in scene.marks}
        previews = {self._on_lap(p) for p in scene.previews}
        blocked = {self._on_lap(b) for b in scene.blocked}
        ramp = course.ramp
        # the loop: the line and the way back to it on the left, the turn on the right
        put(x_line, row("labels", "top"), "S", LINE_START)
        for kind in ("lane1", "lane0"):
            put(x_line, row(kind, "top"), START_GLYPH, LINE_START)
        put(x_right, row("lane1", "top"), "╮", TILE)
        put(x_right, row("lane0", "top"), "│", TILE)
        put(x_right, row("lane0", "bottom"), "│", TILE)
        put(x_right, row("lane1", "bottom"), "╯", TILE)
        put(x_line, row("lane0", "bottom"), "│", TILE)
        put(x_line, row("lane1", "bottom"), "╰", TILE)
        for side in ("top", "bottom"):
            put(x_right, row("infield", side), "↓", WAY)  # the turn: from the top side to the bottom
            put(x_line, row("infield", side), "↑", WAY)  # and back up to the line
            if self.large:
                put(x_right, row("ruler", side), "│", TILE)
                put(x_line, row("ruler", side), "│", TILE)
        sep = x_line + 1 + c * geo["tile_len"]
        for side in ("top", "bottom"):
            for kind in ("lane1", "lane0"):
                put(sep, row(kind, side), TILE_GLYPH, TILE)
        # the tiles' letters and terrain, each within its own squares
        for t in course.tiles:
            if t.first < g or t.first >= g + lap:
                continue
            xs = [self._place(sq)[0] for sq in range(t.first, min(t.first + t.length, g + lap))]
            _x, side = self._place(t.first)
            lo, hi = min(xs), max(xs) + c
            text = self._tile_label(t, hi - lo - 1)
            put(lo + 1, row("labels", side), text, LABEL)
        # squares: the grid, then the lap
        for sq in list(range(g)) + [g + j for j in range(lap)]:
            x, side = self._place(sq)
            rows_side = "bottom" if side == "bottom" else "top"
            code = course.terrain[sq]
            t = terrain(code)
            on_ramp = ramp is not None and sq == ramp[0]
            free = 0
            for lane in (1, 0):
                y = row(f"lane{lane}", rows_side)
                here = riders.get((sq, lane))
                if here is not None:
                    label = here.label.lower() if here.crashed else here.label
                    if side == "bottom" and label.endswith(">"):  # raced right to left: "<B", its arrow ahead
                        label = "<" + label[:-1]
                    put(x, y, label[:2], rider_style(here.hex, here.crashed, here.active))
                    if c > 2:  # the square's terrain beside the rider, in the rider's row
                        put(x + 2, y, "/" if on_ramp else t.glyph, RAMP if on_ramp else _lane_style(code))
                elif lane >= course.lanes[sq]:
                    put(x, y, NO_LANE.glyph * c, NO_LANE_STYLE)
                elif scene.cursor == (sq, lane):
                    put(x, y, "[" + " " * (c - 2) + "]", CURSOR)
                    free += 1
                elif on_ramp:
                    put(x, y, f"/{ramp[1]}", RAMP)
                    put(x + 2, y, t.glyph * (c - 2), _lane_style(code))
                    free += 1
                else:
                    put(x, y, t.glyph * c, _lane_style(code))
                    free += 1
            if on_ramp and not free and c == 2:
                # riders on every lane of the ramp: the ramp beside its square, in the infield
                put(x, row("infield", rows_side), f"/{ramp[1]}", RAMP)
            # the marks of the phase, in their own row
            y = row("marks", rows_side)
            if sq in previews:
                put(x, y, ("▲" if side == "bottom" else "▼") * c, PREVIEW)
            elif sq in blocked:
                put(x, y, "X" * c, BLOCKED)
            elif sq in marks:
                put(x, y, scene.mark_glyph[:c].ljust(c), MARK)
            elif scene.trail and self._on_trail(sq, scene.trail):
                put(x, y, ("<" + "-" * (c - 1)) if side == "bottom" else ("-" * (c - 1) + ">"), TRAIL)
            if self.large:
                put(x, row("ruler", rows_side), square_label(course, sq)[:c], RULER)
        # the symbols no label names, outside the loop
        if geo["x_legend"] is not None:
            y = row("lane1", "top")
            for glyph, words, style in self.legend_items():
                put(geo["x_legend"], y, glyph, style)
                put(geo["x_legend"] + cell_len(glyph) + 1, y, words, LABEL)
                y += 1
        return [self._strip(line) for line in cells]

    def _on_trail(self, sq: int, trail: tuple[int, int]) -> bool:
        frm, to = trail
        return any(self._on_lap(s) == sq for s in range(frm + 1, to + 1))

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
        if not 0 <= y < len(self.row_kinds()):
            return
        kind, row_side = self.row_kinds()[y]
        if kind == "infield":
            return
        for sq in list(range(self.course.grid)) + [self.course.grid + j for j in range(self.lap)]:
            sx, side = self._place(sq)
            if sx <= x < sx + self.cell and row_side == ("bottom" if side == "bottom" else "top"):
                if side == "grid" and not kind.startswith("lane"):
                    continue
                lane = int(kind[-1]) if kind.startswith("lane") else None
                self.post_message(TrackClicked(sq, lane))
                return
