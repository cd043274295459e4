"""A key repaints every line that changed, and only those (widgets/lines.py):
after every key of a race, the screen as it was painted, line by line and
style by style, is the screen drawn again from nothing."""

from __future__ import annotations

import pytest

from flamme_tui.ui.app import FlammeApp
from flamme_tui.ui.scenarios import settle
from flamme_tui.ui.widgets.lines import LineWidget

from .driver import new_race_menus

pytestmark = pytest.mark.usefixtures("fast_pilot")


def painted(app) -> list[list]:
    """The screen as it is painted now: every line's segments (text and style)."""
    return [list(strip) for strip in app.screen._compositor.render_strips()]


def repainted(app) -> list[list]:
    """The screen drawn again from nothing: no widget keeps a line it drew."""
    for widget in app.screen.walk_children(with_self=True):
        if isinstance(widget, LineWidget):
            widget._kept = None
        widget.refresh()
    return painted(app)


async def press_and_compare(pilot, key: str, seen: list[str]) -> None:
    app = pilot.app
    await pilot.press(key)
    await settle(pilot)
    before = painted(app)
    after = repainted(app)
    where = f"{type(app.screen).__name__}, after {' '.join(seen[-6:] + [key])}"
    for y, (line, fresh) in enumerate(zip(before, after, strict=True)):
        assert line == fresh, f"{where}: line {y} was not repainted:\n{''.join(s.text for s in line)}\n" \
                              f"{''.join(s.text for s in fresh)}"
    seen.append(key)


@pytest.mark.parametrize(("variant", "size"), [("classic", (80, 24)), ("classic", (200, 60)),
                                               ("meteo", (120, 40)), ("bmx", (80, 24))],
                         ids=["classic-80x24", "classic-200x60", "meteo-120x40", "bmx-80x24"])
async def test_every_key_repaints_every_line_that_changed(variant, size):
    app = FlammeApp(seed=11, autoplay=False, autosave=False)
    seen: list[str] = []
    async with app.run_test(size=size) as pilot:
        await new_race_menus(pilot, variant)
        await pilot.press("ctrl+s")
        await settle(pilot)
        rounds = 0
        while rounds < 4:
            screen = app.screen
            name = type(screen).__name__
            if name == "CurtainScreen":
                await press_and_compare(pilot, "enter", seen)
                continue
            assert name == "RaceScreen", name
            turn = screen.turn
            if turn.kind in ("draw", "bidder"):
                keys = ["enter", "right", "left", "right", "enter"]  # Enter first: what to press, said
            elif turn.kind == "pick" and screen.pending is not None:
                keys = ["u", "enter", "enter"] if rounds % 2 else ["enter"]  # change the card, then pass
            elif turn.kind == "pick":
                # (a number plays one card at once; a descent's two tokens wait for Enter)
                keys = ["right", "right", "left", "1"] if screen.keep_size() == 1 else ["1", "2", "enter"]
            elif turn.kind == "reveal":
                keys = ["space", "space", "left", "right_square_bracket", "space", "enter", "enter"]
                rounds += 1
            elif turn.kind == "place":
                keys = ["left", "enter"]
            else:
                keys = ["enter"]
            for key in keys:
                await press_and_compare(pilot, key, seen)
                if app.screen is not screen:
                    break


class Terminal:
    """The characters a terminal shows after the updates the app sent it: each
    frame's renderable (Textual's LayoutUpdate or ChopsUpdate) played on a grid."""

    def __init__(self, width: int, height: int) -> None:
        from rich.console import Console

        self.console = Console(width=width, height=height, color_system=None, legacy_windows=False,
                               force_terminal=False)
        self.grid = [[" "] * width for _ in range(height)]

    def play(self, renderable) -> None:
        from rich.cells import cell_len
        from rich.segment import ControlType

        x = y = 0
        for segment in self.console.render(renderable):
            if segment.control:
                for code in segment.control:
                    if code[0] == ControlType.CURSOR_MOVE_TO:
                        x, y = code[1], code[2]
                continue
            for char in segment.text:
                if char == "\n":
                    x, y = 0, y + 1
                    continue
                if 0 <= y < len(self.grid) and 0 <= x < len(self.grid[y]):
                    self.grid[y][x] = char
                x += cell_len(char)

    def text(self) -> list[str]:
        return ["".join(line).rstrip() for line in self.grid]


async def test_the_terminal_shows_the_screen_after_every_race_key():
    """What the terminal was sent, frame after frame, is the screen drawn from
    nothing after every key: a widget changed under the curtain is drawn in the
    first frame after it lifts (lines.show_changes marks its lines stale, no
    second frame), never left as it was before the curtain."""
    frames: list = []
    size = (80, 24)
    app = FlammeApp(seed=11, autoplay=False, autosave=False)
    display = app._display

    def keep_frame(screen, renderable) -> None:  # every frame handed to the terminal driver
        if renderable is not None:
            frames.append(renderable)
        display(screen, renderable)

    app._display = keep_frame  # type: ignore[method-assign]
    terminal = Terminal(*size)
    seen: list[str] = []
    curtains = 0
    async with app.run_test(size=size) as pilot:
        await new_race_menus(pilot, "classic")
        await pilot.press("ctrl+s")
        await settle(pilot)
        for _ in range(200):  # (bounded: 6 curtains take about 40 keys)
            if curtains == 6:
                break
            screen = app.screen
            name = type(screen).__name__
            turn = getattr(screen, "turn", None)
            if name == "CurtainScreen":
                key, curtains = "enter", curtains + 1
            elif turn is not None and (turn.kind == "draw" or turn.kind == "pick" and screen.pending is None):
                key = "1"  # (a rider, a card chosen at once)
            else:
                key = "enter"
            await pilot.press(key)
            await settle(pilot)
            seen.append(key)
            for frame in frames:
                terminal.play(frame)
            frames.clear()
            fresh = ["".join(s.text for s in line).rstrip() for line in repainted(app)]
            assert terminal.text() == fresh, f"{type(app.screen).__name__} after {' '.join(seen[-6:])}"
        assert curtains == 6
