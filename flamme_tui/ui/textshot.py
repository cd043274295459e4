"""The screen as plain text (for tests, the bench and debugging)."""

from __future__ import annotations

import html
import io
import re


def screen_text(app) -> str:
    """What the terminal shows once the frame now due is drawn, as text lines (no
    colour). The frame is drawn first: Textual lays out and paints on a timer
    after the keys are handled, and a test reading between the two (a loaded
    machine) would see a line that grew cut at its old height."""
    from rich.console import Console

    app.screen._on_timer_update()

    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), force_terminal=True,
                      color_system="truecolor", record=True, legacy_windows=False, safe_box=False)
    update = app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    console.print(update)
    return console.export_text()


def rendered_text(renderable, width: int = 200) -> str:
    """A Rich renderable (a help's layout, a ranking) drawn `width` cells wide, as text."""
    from rich.console import Console

    console = Console(width=width, file=io.StringIO(), record=True, legacy_windows=False)
    console.print(renderable)
    return console.export_text()


_TEXT = re.compile(r"<text[^>]*>(.*?)</text>", re.S)


def svg_text(svg: str) -> str:
    """The characters of an SVG screenshot (app.export_screenshot()), in order."""
    return "".join(html.unescape(t) for t in _TEXT.findall(svg)).replace("\xa0", " ")
