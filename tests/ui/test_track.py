"""The track strip and the BMX lap: glyphs, riders, wrapping, following, clicks."""

from __future__ import annotations

from textual.app import App

from flamme_tui import config
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
    lines, no_color = await render(track, Scene(riders((3, 0), (3, 1), (40, 0), (41, 1), crashed=(2,))),
                                   size=(200, 30), no_color=True, monkeypatch=monkeypatch)
    assert no_color
    text = "\n".join(lines[:4])
    assert "^^" in text and "vv" in text  # ascents and descents as glyphs
    assert "║" in text and "▓" in text  # start and finish lines
    assert "S" in lines[0] and "F" in lines[0]
    assert "BS" in lines[2] and "BR" in lines[1]  # lane 0 below lane 1
    assert "os" in lines[2]  # a crashed rider lies down: lower case
    assert "OR" in lines[1]


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
    assert "OS" in lines[2] and "BR" in lines[2]
    assert lines[0].startswith("<1")  # one rider out of view on the left


async def test_mini_preview_shows_the_whole_stage():
    course = config.load_course("le-col-du-ballon")
    mini = TrackStrip(course, mini=True)
    mini.max_lines = 8
    lines, _ = await render(mini, None, size=(80, 24))
    text = "\n".join(lines[:5])
    assert text.count("^") == course.terrain[: course.length].count("^")
    assert "F" in text


async def test_click_maps_to_square_and_lane():
    course = config.load_course("avenue-corso-paseo")
    track = TrackStrip(course)
    track.max_lines = 4
    found = {}

    def check(w):
        found["hits"] = {w.square_at(x, 2) for x in range(80)}
        found["one"] = w.square_at(4, 1)

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
    assert "3 ramp" in text  # the legend in the middle of the lap
