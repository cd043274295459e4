"""The BMX lap read at a glance: each square's terrain in the riders' own rows,
one thing per row (no mark over a tile's label), the symbols no label names
said beside the loop (outside it), the ramp always in sight, and a large
window used: three cells a square and the squares' numbers."""

from __future__ import annotations

import re

import pytest
from textual.app import App

from flamme_tui import config
from flamme_tui.ui.app import FlammeApp
from flamme_tui.ui.palette import terrain
from flamme_tui.ui.scenarios import settle
from flamme_tui.ui.textshot import screen_text
from flamme_tui.ui.widgets.lap import LapStrip
from flamme_tui.ui.widgets.track import RiderMark, Scene, TrackClicked

from .driver import new_race_menus, screen_name, set_players


class Harness(App):
    def __init__(self, widget, scene: Scene | None = None) -> None:
        super().__init__()
        self.widget = widget
        self.scene = scene
        self.clicks: list[tuple[int, int | None]] = []

    def compose(self):
        yield self.widget

    def on_mount(self) -> None:
        if self.scene is not None:
            self.widget.show(self.scene)

    def on_track_clicked(self, event: TrackClicked) -> None:
        self.clicks.append((event.square, event.lane))


async def draw(lap: LapStrip, scene: Scene | None = None, size=(80, 24), no_color=False, monkeypatch=None):
    if no_color:
        monkeypatch.setenv("NO_COLOR", "1")
    app = Harness(lap, scene)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        return screen_text(app).splitlines()


def rider(k: int, label: str, square: int, lane: int) -> RiderMark:
    return RiderMark(k, label, "#0072B2", square, lane, False)


def lap_squares(course) -> range:
    return range(course.grid, course.finish)


def loop_columns(lines: list[str], lap: LapStrip) -> tuple[int, int]:
    """x of the start line and of the turn on the right, as drawn."""
    top = lines[lap.row_of("lane1", "top")]
    return top.index("║"), top.index("╮")


@pytest.mark.parametrize("large", [False, True], ids=["80x24", "large"])
async def test_each_square_s_terrain_is_in_the_riders_own_rows_in_its_columns(large, monkeypatch):
    """A new player could not tell which square of the riders' rows was bumpy,
    canyon or ramp: the terrain was a strip of its own. Every lane of every
    square now shows its square's terrain in the square's own columns (a rider
    there: its label; large, the terrain beside it), without colour too."""
    course = config.compile_bmx_circuit("abcd", 4, (10, 3))
    g = course.grid
    on = {(g + 3, 1): "B>", (g + 9, 0): "O>", (g + 17, 0): "G>", (g + 25, 0): "R>"}
    scene = Scene(tuple(rider(k, label, sq, lane) for k, ((sq, lane), label) in enumerate(on.items())))
    lap = LapStrip(course)
    lap.set_large(large)
    lines = await draw(lap, scene, size=(120, 40), no_color=True, monkeypatch=monkeypatch)
    c = lap.cell
    ramp_square, number = course.ramp
    for sq in lap_squares(course):
        x, side = lap.place(sq)
        glyph = terrain(course.terrain[sq]).glyph
        for lane in (0, 1):
            cell = lines[lap.row_of(f"lane{lane}", side)][x: x + c]
            label = on.get((sq, lane))
            if label is not None:
                shown = "<" + label[0] if side == "bottom" else label
                assert cell.startswith(shown), (sq, lane, cell)
                if large:  # the terrain beside the rider, in its own row
                    assert cell[2] == ("/" if sq == ramp_square else glyph), (sq, lane, cell)
            elif lane >= course.lanes[sq]:
                assert cell == "░" * c, (sq, lane, cell)
            elif sq == ramp_square:
                assert cell.startswith(f"/{number}"), (sq, lane, cell)
            else:
                assert cell == glyph * c, (sq, lane, cell)


async def test_marks_have_a_row_of_their_own_and_never_cover_a_tile_s_label():
    """`S a+F    +F      b`: fatigue marks overwrote the tile letters. Marks,
    previews and a move now have their own row on each side; the labels row
    keeps the line's S and every tile's letter with its terrain in words, over
    (or under) the tile's own squares."""
    course = config.compile_bmx_circuit("abcd", 4, (10, 3))
    firsts = [t.first for t in course.tiles]
    scene = Scene((rider(0, "B>", firsts[1], 0),), marks=(firsts[0], firsts[2], 0), mark_glyph="+F",
                  previews=(firsts[1], firsts[3]), trail=(firsts[0] - 1, firsts[1]))
    lap = LapStrip(course)
    lines = await draw(lap, scene)
    labels = {side: lines[lap.row_of("labels", side)] for side in ("top", "bottom")}
    marks = {side: lines[lap.row_of("marks", side)] for side in ("top", "bottom")}
    assert labels["top"].split()[0] == "S"
    words = {"a": "a ~ bumpy", "b": "b # canyon", "c": "c v descent", "d": 'd " marsh'}
    for t in course.tiles:
        xs = [lap.place(sq)[0] for sq in range(t.first, t.first + t.length)]
        side = lap.place(t.first)[1]
        at = labels[side].index(words[t.letter])
        assert min(xs) <= at and at + len(words[t.letter]) <= max(xs) + lap.cell, t.letter  # over its own squares
    assert "+F" in marks["top"] and "+F" in marks["bottom"]
    assert "▼▼" in marks["top"] and "▲▲" in marks["bottom"]
    assert "->" in marks["top"]
    x0, _side = lap.place(0)
    assert marks["top"][x0: x0 + 2] == "+F"  # a grid square's mark is shown too
    for kind in ("labels", "lane1", "lane0", "infield"):
        for side in ("top", "bottom"):
            row = lines[lap.row_of(kind, side)]
            assert "+F" not in row and "▼" not in row and "▲" not in row and "->" not in row, (kind, side)


@pytest.mark.parametrize("circuit, ramp, said", [
    ("abcd", (10, 3), ["░░ no lane", "/3 ramp"]),
    ("ABCd", None, ["░░ no lane"]),
    ("ABCD", (4, 2), ["/2 ramp"]),
    ("ABCD", None, []),
])
async def test_the_symbols_no_label_names_are_said_beside_the_loop_never_inside_it(circuit, ramp, said):
    """The legend sat inside the loop (`│ ~ bumpy  # canyon  /3 ramp  │`) and the
    canyon's ░ was said nowhere near it. The loop's middle now holds only the
    way round; ░ (a lane the square lacks) and the ramp are said to its right,
    only when the circuit has them."""
    course = config.compile_bmx_circuit(circuit, 4, ramp)
    lap = LapStrip(course)
    lines = await draw(lap)
    text = "\n".join(lines)
    x_line, x_right = loop_columns(lines, lap)
    for words in said:
        row = next(line for line in lines if words in line)
        assert row.index(words) > x_right, words
    assert ("no lane" in text) == ("░░ no lane" in said)
    assert ("ramp" in text) == any("ramp" in w for w in said)
    for side in ("top", "bottom"):
        infield = lines[lap.row_of("infield", side)]
        assert infield[x_line] == "↑" and infield[x_right] == "↓"  # the way round, back to the line
        assert infield[x_line + 1: x_right].strip() == ""


async def test_the_builder_says_its_symbols_below_the_lap_not_beside_it():
    course = config.compile_bmx_circuit("abcd", 4, (10, 3))
    lines = await draw(LapStrip(course, legend=False))
    assert "no lane" not in "\n".join(lines) and "ramp" not in "\n".join(lines)


@pytest.mark.parametrize("ramp_square", [10, 12], ids=["single-lane", "two-lane"])
async def test_the_ramp_stays_in_sight_when_riders_fill_its_square(ramp_square):
    course = config.compile_bmx_circuit("abcd", 4, (ramp_square, 3))
    sq = course.ramp[0]
    lanes = course.lanes[sq]
    assert lanes == (1 if ramp_square == 10 else 2)
    scene = Scene(tuple(rider(k, "BO"[k] + ">", sq, k) for k in range(lanes)))
    lap = LapStrip(course)
    lines = await draw(lap, scene)
    x, side = lap.place(sq)
    assert lines[lap.row_of("infield", side)][x: x + 2] == "/3"  # beside its square, in the infield
    lines = await draw(lap, Scene())
    assert "/3" not in lines[lap.row_of("infield", side)]  # a free lane shows it: not twice


async def test_large_lap_numbers_its_squares_as_the_boards_do():
    course = config.compile_bmx_circuit("abcd", 4, (10, 3))
    lap = LapStrip(course)
    lap.set_large(True)
    lines = await draw(lap, size=(120, 40))
    assert len(lap.row_kinds()) == 12
    g = course.grid
    for sq, number in ((g, "1"), (g + 13, "14"), (g + 14, "15"), (g + 27, "28"), (g - 1, "G1"), (0, "G2")):
        x, side = lap.place(sq)
        assert lines[lap.row_of("ruler", side)][x: x + 3].strip() == number, (sq, number)


async def test_a_click_on_a_lane_is_its_square_and_lane():
    course = config.compile_bmx_circuit("abcd", 4, (10, 3))
    lap = LapStrip(course)
    app = Harness(lap)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for sq, lane in ((course.grid + 2, 1), (course.grid + 20, 0), (0, 1)):
            x, side = lap.place(sq)
            await pilot.click(lap, offset=(x + 1, lap.row_of(f"lane{lane}", side)))
        x, side = lap.place(course.grid + 16)
        await pilot.click(lap, offset=(x, lap.row_of("infield", side)))  # the infield: no square
        await pilot.pause()
    assert app.clicks == [(course.grid + 2, 1), (course.grid + 20, 0), (0, 1)]


@pytest.mark.parametrize("size, large", [((80, 24), False), ((120, 40), True)])
async def test_a_four_player_bmx_race_shows_the_whole_lap_and_the_table(size, large):
    """At 80x24 the lap, its legend, the tokens, the four boards and the keys
    all fit without scrolling; a large window draws the large lap."""
    app = FlammeApp(seed=5, autoplay=False, autosave=False)
    async with app.run_test(size=size) as pilot:
        await new_race_menus(pilot, "bmx", builder_keys=("a", "b", "c", "d", "r"))
        await set_players(pilot, 4)
        await pilot.press("ctrl+s")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert screen_name(app) == "RaceScreen"
        lap = app.screen.query_one("#track", LapStrip)
        assert lap.large == large
        lines = screen_text(app).splitlines()
        rows = len(lap.row_kinds())
        assert lap.region.height == rows and lap.region.y == 1
        drawn = lines[1: 1 + rows]
        assert "a ~ bumpy" in drawn[0] and 'd " marsh' in drawn[-1]
        assert any("░░ no lane" in line for line in drawn) and any("ramp" in line for line in drawn)
        if large:
            assert any("28" in line for line in drawn)
        assert sum(1 for line in lines if re.match(r"\s*▸?[A-Z]> [A-Z][a-z]+ +G[12] ", line)) == 4  # the boards
        assert "help" in lines[-1]
