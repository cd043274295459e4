"""The track strip and the BMX lap: glyphs, riders, wrapping, following, clicks."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from textual.app import App

from flamme_tui import config
from flamme_tui.play.narrator import number
from flamme_tui.ui.textshot import screen_text
from flamme_tui.ui.widgets.lap import LapStrip
from flamme_tui.ui.widgets.track import RiderMark, Scene, TrackStrip


class Harness(App):
    def __init__(self, widget, scene: Scene | None = None) -> None:
        super().__init__()
        self.widget = widget
        self.scene = scene

    def compose(self):
        yield self.widget

    def on_mount(self) -> None:
        if self.scene is not None:
            self.widget.show(self.scene)


def riders(*places, crashed=()):
    labels = ["BS", "BR", "OS", "OR"]
    return tuple(RiderMark(k, labels[k], "#0072B2", sq, lane, k in crashed) for k, (sq, lane) in enumerate(places))


async def render(widget, scene=None, size=(80, 24), no_color=False, monkeypatch=None, check=None):
    if no_color:
        monkeypatch.setenv("NO_COLOR", "1")
    app = Harness(widget, scene)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        if check is not None:
            check(widget)
        return screen_text(app).splitlines(), app.no_color


async def test_terrain_and_riders_readable_without_colour(monkeypatch):
    course = config.load_course("la-haut-montagne")
    track = TrackStrip(course)
    track.max_lines = 20
    track.tall = True
    lines, no_color = await render(track, Scene(riders((3, 0), (3, 1), (40, 0), (41, 1), crashed=(2,))),
                                   size=(200, 30), no_color=True, monkeypatch=monkeypatch)
    assert no_color
    kinds = track.row_kinds()
    assert kinds == ("ruler", "labels", "terrain", "marks", "lane1", "lane0")
    row = {kind: lines[k] for k, kind in enumerate(kinds)}
    assert "^^" in row["terrain"] and "vv" in row["terrain"]  # ascents and descents as glyphs
    assert "║" in row["terrain"] and "▓" in row["terrain"]  # start and finish lines
    assert "║" in row["labels"] and "▓" in row["labels"]  # the lines, not letters (see below)
    assert "BS" in row["lane0"] and "BR" in row["lane1"]  # lane 0 below lane 1
    assert "os" in row["lane0"]  # a crashed rider lies down: lower case
    assert "OR" in row["lane1"]
    from flamme_tui.play.narrator import line_square

    assert f" {line_square(course)} " in row["ruler"]  # counted from the start line: the line square named


@pytest.mark.parametrize("size", [(80, 24), (200, 30)])
async def test_the_labels_row_names_tiles_only_the_lines_are_drawn(size, monkeypatch):
    """The start line was labelled "S" beside tile s (and "S" is also tile s's
    other side): the labels row now holds the tiles' letters only, the start
    and finish lines drawn up into it."""
    course = config.load_course("avenue-corso-paseo")  # tiles a to u, s among them
    track = TrackStrip(course)
    track.max_lines = 20
    track.tall = size[0] > 80
    lines, _ = await render(track, Scene(riders((3, 0))), size=size, monkeypatch=monkeypatch)
    kinds = track.row_kinds()
    labels = lines[kinds.index("labels")]
    lane = lines[kinds.index("lane0")]
    letters = "".join(ch for ch in labels if ch.isalpha())
    assert letters and letters in "abcdefghijklmnopqrstu"  # no S, no F: tiles only
    start = lane.index("║")
    assert labels[start] == "║"
    if size[0] > 80:  # the whole stage in view: tile s and the finish
        assert letters == "abcdefghijklmnopqrstu"
        assert labels[lane.index("▓")] == "▓"


async def test_a_compact_strip_numbers_every_fifth_square_where_no_tile_letter_is_near():
    # 80x24 has no ruler row: the labels row says the square numbers (a card says "9 → 14")
    course = config.load_course("avenue-corso-paseo")
    track = TrackStrip(course)
    track.max_lines = 20
    checked = []

    def numbers(widget) -> None:
        kinds = widget.row_kinds()
        assert "ruler" not in kinds
        y = kinds.index("labels")
        text = widget.render_line(y).text
        for m in re.finditer(r"\d+", text):
            square, _lane = widget.square_at(m.start(), y)
            n = int(m.group())
            assert n == number(course, square) and n % 5 == 0, (m.group(), square)
            # a blank after it, and a letter never runs into it
            assert text[m.end()] == " " and not text[m.start() - 1].isalpha(), text
            checked.append(n)
    await render(track, Scene(riders((3, 0))), size=(80, 24), check=numbers)
    assert {5, 10, 15} <= set(checked)


async def test_a_compact_strip_writes_a_three_digit_square_number_in_one_style():
    # a stage of more than 100 squares: "105 " runs on over the next square, in the number's style
    names = ["a", *"bcdefghijklmnopqrst", *"bcdefghijklmnopqrst", "u"]
    course = config.lay_tiles("long", names, config.load_tiles())
    assert course.finish > 110
    track = TrackStrip(course)
    track.max_lines = 20
    numbers: list[str] = []

    def one_style(widget) -> None:
        y = widget.row_kinds().index("labels")
        cells = [(ch, seg.style) for seg in widget.render_line(y) for ch in seg.text]
        text = "".join(ch for ch, _ in cells)
        for m in re.finditer(r"\d+", text):
            assert len({cells[i][1].color for i in range(m.start(), m.end())}) == 1, (m.group(), text)
            numbers.append(m.group())
    await render(track, Scene(riders((100, 0))), size=(80, 24), check=one_style)
    assert any(len(n) == 3 for n in numbers), numbers


async def test_wraps_when_there_is_room_and_follows_the_riders_when_not():
    course = config.load_course("avenue-corso-paseo")
    wide = TrackStrip(course)
    wide.max_lines = 14
    heights = []
    lines, _ = await render(wide, Scene(riders((70, 0))), size=(120, 40),
                            check=lambda w: heights.append(w.size.height))
    assert heights == [9]  # two bands of four lines and a gap
    narrow = TrackStrip(course)
    narrow.max_lines = 4
    lines, _ = await render(narrow, Scene(riders((2, 0), (70, 0), (71, 0)), focus=(70,)), size=(80, 24),
                            check=lambda w: heights.append(w.size.height))
    assert heights == [9, 4]
    assert "OS" in lines[3] and "BR" in lines[3]
    assert lines[0].startswith("<1")  # one rider out of view on the left


async def test_mini_preview_shows_the_whole_stage():
    course = config.load_course("le-col-du-ballon")
    mini = TrackStrip(course, mini=True)
    mini.max_lines = 8
    lines, _ = await render(mini, None, size=(80, 24))
    text = "\n".join(lines[:5])
    assert text.count("^") == course.terrain[: course.length].count("^")
    assert "F" in text


async def test_the_mini_preview_writes_a_peloton_tile_s_dark_side_whole():
    """Review: the stage menu wrote "2 … 7 … 6" for Peloton 9's "_2 _7 _6" (the dark
    sides, not tiles 2, 7 and 6): the name runs on over the tile's next square."""
    course = config.load_course("peloton-9")
    mini = TrackStrip(course, mini=True)
    mini.max_lines = 8
    lines, _ = await render(mini, None, size=(120, 24))
    labels = next(line for line in lines if line.lstrip().startswith("A"))
    assert labels.split()[:5] == ["A", "║", "_2", "3", "p"], labels
    assert "_7" in labels.split() and "_6" in labels.split() and "T" in labels.split()


async def test_click_maps_to_square_and_lane():
    course = config.load_course("avenue-corso-paseo")
    track = TrackStrip(course)
    track.max_lines = 4
    found = {}

    def check(w):
        found["hits"] = {w.square_at(x, 3) for x in range(80)}
        found["one"] = w.square_at(4, 2)

    await render(track, Scene(riders((2, 0))), size=(80, 24), check=check)
    assert (2, 0) in found["hits"] and (3, 0) in found["hits"]
    assert found["one"] == (2, 1)


async def test_bmx_lap_ramp_single_lanes_and_riders():
    course = config.compile_bmx_circuit("aBcd", 4, (10, 3))
    lap = LapStrip(course)
    lines, _ = await render(lap, Scene(riders((0, 0), (course.grid + 3, 1), (course.grid + 20, 0))), size=(80, 24))
    text = "\n".join(lines[:10])
    assert "/3" in text  # the jump ramp and its number
    assert "░░" in text  # marsh: single-lane squares
    assert "~~" in text and "vv" in text and '""' in text
    assert "BS" in text and "BR" in text and "OS" in text
    assert "/3 ramp" in text  # the legend, beside the lap


async def test_bmx_riders_point_the_way_they_race_on_each_side_of_the_lap():
    """The top of the lap is raced left to right ("B>"), the bottom right to left ("<B")."""
    course = config.compile_bmx_circuit("aBcd", 4, None)
    lap = LapStrip(course)
    half = (course.finish - course.grid) // 2
    top, bottom = course.grid + 2, course.grid + half + 3
    marks = (RiderMark(0, "B>", "#0072B2", top, 0, False), RiderMark(1, "O>", "#E69F00", bottom, 0, False))
    lines, _ = await render(lap, Scene(marks), size=(80, 24))
    middle = lap.row_of("infield", "top")  # the top side's rows above it, the bottom's below
    assert "B>" in "\n".join(lines[:middle]) and "<B" not in "\n".join(lines)
    assert "<O" in "\n".join(lines[middle + 1:10]) and "O>" not in "\n".join(lines)


async def test_one_thing_per_row_marks_never_overwrite_tiles_or_weather():
    course = config.load_course("avenue-corso-paseo")
    from dataclasses import replace

    course = replace(course, weather=("wet",) * len(course.terrain))  # a meteo stage: every square wet
    track = TrackStrip(course)
    track.max_lines = 20
    track.tall = True
    scene = Scene(riders((6, 0), (8, 0)), marks=(6,), slips=(8,), previews=(12,), blocked=(10,), trail=(6, 8))
    lines, _ = await render(track, scene, size=(200, 30))
    kinds = track.row_kinds()
    assert "weather" in kinds
    row = {kind: lines[k] for k, kind in enumerate(kinds)}
    assert "~~" in row["weather"] and "~" not in row["labels"]
    assert "+E" in row["marks"] and "+1" in row["marks"] and "▼▼" in row["marks"] and "XX" in row["marks"]
    assert "b" in row["labels"] and "c" in row["labels"]  # the tile letters are all still there
    for kind in ("labels", "lane1", "lane0", "terrain"):
        assert "+E" not in row[kind] and "▼" not in row[kind] and "XX" not in row[kind]


async def test_overview_shows_every_rider_and_the_finish_at_80_columns():
    from flamme_tui.ui.widgets.track import StageOverview

    course = config.load_course("la-haut-montagne")
    overview = StageOverview(course)
    places = ((0, 0), (20, 1), (50, 0), (72, 1))
    lines, _ = await render(overview, Scene(riders(*places)), size=(80, 24))
    top, bottom = lines[0], lines[1]
    assert len(top.rstrip()) <= 80
    assert top.count("B") + bottom.count("B") == 2 and top.count("O") + bottom.count("O") == 2
    assert "▓" in top and "║" in top  # the finish and start lines
    assert "^" in top + bottom and "v" in top + bottom  # the terrain of the whole stage
    # the cells keep the order of the squares
    assert bottom.index("B") < top.index("B") < bottom.index("O") < top.index("O")


async def test_the_overview_draws_its_weather_above_its_lanes():
    """On a meteo stage the overview's weather row comes first: under the lanes
    it sat on the detailed strip's tile row, whose weather is at another scale."""
    from flamme_tui.ui.widgets.track import StageOverview

    course = config.load_course("avenue-corso-paseo")
    course = replace(course, weather=tuple("headwind" if 20 <= sq < 26 else "" for sq in range(len(course.terrain))))
    overview = StageOverview(course)
    assert overview.row_kinds()[0] == "weather" and overview.row_kinds()[1:] == ("lane1", "lane0")
    lines, _ = await render(overview, Scene(riders((0, 0), (30, 1))), size=(80, 24))
    assert "«" in lines[0] and "║" not in lines[0]  # the weather alone on the top row
    assert "║" in lines[1] and "║" in lines[2] and "«" not in lines[1] + lines[2]


async def test_stage_profile_climbs_and_falls_with_the_terrain():
    """One column per square from the start line to the finish line; a column's
    bar is as high as the climbs minus the descents so far; the riders' row
    shows every rider under its square."""
    from flamme_tui.play.narrator import line_square
    from flamme_tui.ui.widgets.profile import EIGHTHS, StageProfile, heights

    course = config.load_course("la-haut-montagne")
    h = heights(course)
    terrain = course.terrain[course.grid:course.finish]
    assert h[-1] == terrain.count("^") - terrain.count("v") and len(h) == line_square(course)
    profile = StageProfile(course, bars=4, riders=True)
    scene_riders = riders((course.grid + 9, 0), (course.grid + 9, 1), (course.finish - 2, 0), (0, 0))
    app = Harness(profile)
    async with app.run_test(size=(80, 24)) as pilot:
        profile.show_riders(scene_riders)
        await pilot.pause()
        lines = screen_text(app).splitlines()[:6]
    bars, axis, row = lines[:4], lines[4], lines[5]

    def filled(col: int) -> int:  # eighths of height drawn in the column
        return sum(EIGHTHS.index(line[col]) if line[col] in EIGHTHS else 0 for line in bars)

    assert axis.startswith("║") and axis.rstrip().endswith(f"{line_square(course)}▓")
    cols = [filled(1 + k) for k in range(len(h))]
    for k in range(1, len(h)):  # higher where the road has climbed, lower where it fell
        if h[k] > h[k - 1]:
            assert cols[k] >= cols[k - 1]
        if h[k] < h[k - 1]:
            assert cols[k] <= cols[k - 1]
    assert max(cols) > 3 * min(cols) and cols[h.index(max(h))] == max(cols)
    assert row[10] == "2" and row[len(h) - 1] == "O" and row[0] == "O"  # square 10, the one before last, the grid


async def test_stage_profile_on_the_stage_list_and_during_the_race():
    from flamme_tui.ui.app import FlammeApp
    from flamme_tui.ui.scenarios import settle

    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter", "enter", "down", "down", "down")  # La Haut Montagne
        await pilot.pause()
        text = screen_text(app)
        assert "█" in text and "69▓" in text  # the summit finish, the line after square 69
        await pilot.press("enter", "ctrl+s")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        screen = app.screen
        assert not screen.has_class("-profile")  # no room for it at 80x24: on request
        await pilot.press("s")
        await pilot.pause()
        assert type(app.screen).__name__ == "ProfileScreen"
        assert "the stage profile" in screen_text(app) and "69▓" in screen_text(app)
        await pilot.press("s")
        await pilot.pause()
        assert app.screen is screen
        await pilot.resize_terminal(120, 40)
        for _ in range(20):  # the resize reaches the screen within a few frames
            await pilot.pause(0.01)
            if screen.has_class("-profile"):
                break
        assert screen.has_class("-profile") and screen.profile.riders == screen.track.scene.riders


async def test_the_terrain_row_never_reads_as_one_more_lane(monkeypatch):
    """A tall strip's terrain row was drawn as the lanes are (`····│^^^^│`) just
    under them: without colour a two-lane stage showed three lanes, a Peloton
    stage four.  It now sits among the header rows, above the marks, and shows
    only what is not flat: the rows that look like lanes are the lanes."""
    for stage, lanes in (("la-haut-montagne", 2), ("peloton-9-5-6", 3)):
        course = config.load_course(stage)
        track = TrackStrip(course)
        track.max_lines = 20
        track.tall = True
        lines, _ = await render(track, Scene(riders((3, 0))), size=(200, 30), no_color=True, monkeypatch=monkeypatch)
        kinds = track.row_kinds()
        lane_like = [line for line in lines[:len(kinds)] if "····│" in line]
        assert len(lane_like) == lanes, (stage, lane_like)
        row = {kind: lines[k] for k, kind in enumerate(kinds)}
        assert kinds.index("terrain") < kinds.index("marks") < kinds.index(f"lane{lanes - 1}")
        assert "·" not in row["terrain"] and "│" not in row["terrain"]  # flat is blank, no tile lines
        climbs = course.terrain[course.grid:course.finish]
        assert row["terrain"].count("^") == 2 * climbs.count("^")  # what is not flat is all there


async def test_the_race_profile_says_what_its_riders_row_shows_and_keeps_it_in_step():
    """A review (120x40): a "12" under the profile at the start, "22  2" later,
    unexplained; and the two-cell "12" on the grid pushed every rider after it
    one column on.  A count takes one cell ("+" for ten or more) and the race
    screen's profile says under the row what it shows."""
    from flamme_tui.ui.app import FlammeApp
    from flamme_tui.ui.scenarios import SCENARIOS, SEED
    from flamme_tui.ui.widgets.profile import StageProfile

    async with FlammeApp(seed=SEED, autoplay=False).run_test(size=(120, 40)) as pilot:
        await SCENARIOS["card-pick"](pilot)
        screen = pilot.app.screen
        assert screen.has_class("-profile")
        assert "↑ riders: team letter, or how many share a spot" in screen_text(pilot.app)
        profile = screen.query_one("#profile", StageProfile)
        width = profile.size.width
        course = profile.course
        grid = tuple(RiderMark(k, "BS", "#0072B2", course.grid - 1, 0) for k in range(12))
        ahead = RiderMark(12, "OS", "#E69F00", course.grid + 5, 0)  # the sixth square after the line
        profile.show_riders(grid + (ahead,))
        row = profile._riders(profile.columns(width), width).text
        assert row[0] == "+" and row[6] == "O", row  # (the grid under the start line, then a cell a square)
        assert "(+: ten or more)" in profile._caption(row, width).text


@pytest.mark.parametrize("widget", ["strip", "overview"])
async def test_a_base_stage_raced_by_six_teams_draws_its_third_lane_only_where_it_is(widget, monkeypatch):
    """A review: a base stage raced by six teams (its start on the Peloton's
    three-lane tile 1, rules/PELOTON.md) drew a third row of ░ the whole stage
    long.  The third lane is drawn where a square has it; elsewhere the road's
    edge is blank (░ stays for a lane a square lacks below two)."""
    from flamme_tui.ui.scenarios import choices
    from flamme_tui.ui.widgets.track import StageOverview

    course = choices("meteo", 6).session().game.course
    assert max(course.lanes[: course.length]) == 3 and course.lanes[: course.length].count(3) < 12
    track = TrackStrip(course) if widget == "strip" else StageOverview(course)
    lines, _ = await render(track, Scene(riders((3, 0), (3, 1), (3, 2))), size=(200, 30))
    kinds = track.row_kinds()
    top = lines[kinds.index("lane2")]
    assert "░" not in top, top
    assert "··" in top or "BS" in top or "B" in top, top  # (the start tile's third lane is there)
    assert "░" not in "".join(lines[kinds.index("lane1"):kinds.index("lane0") + 1])


async def test_a_rider_on_a_descent_stands_out_of_its_v_marks_without_colour(monkeypatch):
    """A review: a Vermillon rider's V sat among a descent's v marks on the
    overview (NO_COLOR, one cell a square).  Without colour the riders are drawn
    in reverse video, the terrain not."""
    from flamme_tui.ui.widgets.track import StageOverview

    course = config.load_course("la-haut-montagne")
    descent = course.terrain.index("v")
    vermillon = (RiderMark(0, "VS", "#D55E00", descent, 0, False),)
    seen = {}

    def styles(widget) -> None:
        line = widget.drawn_lines()[widget.row_kinds().index("lane0")]
        seen.update({seg.text: seg.style for seg in line if seg.text.strip() in ("V", "v")})

    _, no_color = await render(StageOverview(course), Scene(vermillon), no_color=True, monkeypatch=monkeypatch,
                               check=styles)
    assert no_color and "V" in seen and "v" in seen, seen
    assert seen["V"].reverse and not seen["v"].reverse, seen


def test_drawn_outside_an_app_the_track_is_in_colour_and_a_real_error_is_not_hidden():
    """A review: `colourless` caught every error to tell a widget drawn outside an
    app (a test's), so a bug in the app's colour setting read as "in colour".
    Only textual's "no active app" says so now."""
    from flamme_tui.ui.widgets.track import StageOverview, colourless

    assert colourless(TrackStrip()) is False and colourless(StageOverview()) is False

    class BrokenApp:
        @property
        def no_color(self) -> bool:
            raise ValueError("a bug in the app")

    class Drawn:
        app = BrokenApp()

    with pytest.raises(ValueError):
        colourless(Drawn())


async def test_a_finish_with_every_rider_off_the_track_shows_the_line_not_the_start():
    """The last step of a tour stage's reveal ("finish!") showed the start, nobody on it:
    its riders had crossed the line and left the track (square -1)."""
    from flamme_tui.play.flow import Frame
    from flamme_tui.ui.widgets.reveal import frame_focus

    course = config.load_course("avenue-corso-paseo")
    finish = Frame("finish", ((-1, -1), (-1, -1), (70, 0)), (False,) * 3, (0, 1))
    assert frame_focus(finish, course) == (course.finish,)
    assert frame_focus(replace(finish, active=(2,)), course) == (70,)  # a rider on the track: its square
    strip = TrackStrip(course)
    strip.max_lines = 4
    shown = []
    await render(strip, Scene((), focus=frame_focus(finish, course)), size=(80, 24),
                 check=lambda w: shown.append(w.in_view()))
    first, last = shown[0]
    assert first > 0 and first < course.finish - 1 < last, shown  # the squares before the line and after


@pytest.mark.parametrize("language", ["en", "fr", "es"])
def test_the_profile_caption_is_never_cut_mid_word(language):
    """At 120x40 in French the riders' caption ran on under the log pane, cut mid-word
    ("partagent un endroit (+ : d"): the longest wording that fits is written whole."""
    from flamme_tui.i18n import speaking
    from flamme_tui.ui.widgets.profile import StageProfile

    with speaking(language):
        shown = {width: StageProfile._caption("12+", width).text.rstrip() for width in range(20, 90)}
    assert len(set(shown.values())) >= 3  # the long caption with its "+", without, the short one
    for width, text in shown.items():
        assert len(text) <= width and not text.endswith(("(", ":", "d")), (width, text)
        assert not text.endswith("…") or width < 40, (width, text)  # cut only where no wording fits


async def test_a_window_on_the_track_starts_at_a_square_never_inside_one():
    """At 120x40 a window that started inside a square showed its ruler number cut ("0" for 20)."""
    course = config.load_course("la-haut-montagne")
    strip = TrackStrip(course)
    strip.max_lines = 6
    starts = []

    def sweep(w):
        strips, cols, xs = w._full()
        assert w._plan(w.size.width)[0] == "window"
        for sq in range(0, course.finish, 3):
            w.scene = Scene(riders((sq, 0)), focus=(sq,))
            for pan in (0, 1, 5):
                w.pan = pan
                starts.append((w._window_x0(w.size.width, strips[0].cell_length, cols, xs), set(xs)))

    await render(strip, Scene(riders((30, 0))), size=(100, 30), check=sweep)
    assert len(starts) > 30 and all(x0 in xs for x0, xs in starts)
