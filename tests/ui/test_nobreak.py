"""No-break spaces never break a line (flamme_tui/ui/nobreak.py): French puts one
before ":" ";" "!" "?" and inside « », and a wrapped line must never begin with
the sign.  Each way the app wraps text is checked at a width that broke at the
no-break space before the fix: Textual's Content (Static, Label, the app's
TextLines) and Rich's Text (the help's layout); then a French screen at 80x24
where a help line began with ":".  Python's textwrap (the race log, the
panel's "since your last look") kept them before the fix too: checked so
that it stays so.
"""

from __future__ import annotations

import io
import textwrap

import pytest
from rich.console import Console
from rich.text import Text
from textual.app import App, ComposeResult
from textual.content import Content
from textual.widgets import Label, Static

import flamme_tui.ui  # noqa: F401  (its import keeps the no-break spaces: before Rich wraps anything below)
from flamme_tui import i18n
from flamme_tui.ui.app import FlammeApp
from flamme_tui.ui.scenarios import SCENARIOS, SEED, settle
from flamme_tui.ui.textshot import rendered_text, screen_text
from flamme_tui.ui.widgets.lines import TextLines
from flamme_tui.ui.widgets.racelog import RaceLog

NBSP, NNBSP = "\u00a0", "\u202f"
# at WIDTH cells, "Choisir le nombre" fits and "Choisir le nombre :" does not: a
# break at the no-break space would start the next line with the sign
WIDTH = 18
FRENCH = [
    f"Choisir le nombre{NBSP}: Joueurs",
    f"Choisir le nombre{NBSP}; Joueurs",
    f"Choisir le nombre{NBSP}! Joueurs",
    f"Choisir le nombre{NBSP}? Joueurs",
    f"Choisir le «{NBSP}nombre{NBSP}» ici",  # « nombre » in one piece
    f"Choisir les 1{NNBSP}234{NNBSP}567",  # a French number (Babel's): its groups stay together
]
SIGNS = (":", ";", "!", "?", "»", "567")


def broken_at_no_break_space(lines: list[str]) -> list[str]:
    """The lines that start or end where a no-break space was: a line that starts
    with a sign or a number's group, or that ends with "«"."""
    return [line for line in lines if line.strip().startswith(SIGNS) or line.strip().endswith("«")]


def test_the_check_sees_a_line_broken_at_a_no_break_space():
    """The check itself: an ordinary space before ":" at the same width does start a line with it."""
    lines = Text("Choisir le nombre : Joueurs").wrap(Console(width=80), WIDTH)
    assert broken_at_no_break_space([line.plain for line in lines]) == [": Joueurs"]


@pytest.mark.parametrize("text", FRENCH)
def test_rich_text_keeps_no_break_spaces(text):
    """Rich's Text (the help's layout, tables): the sign stays with its word, and
    the text is as written (a copy, NO_COLOR: the no-break space is still there)."""
    lines = [line.plain for line in Text(text).wrap(Console(width=80), WIDTH)]
    assert len(lines) == 2 and broken_at_no_break_space(lines) == [], lines
    assert " ".join(line.rstrip(" ") for line in lines) == text
    drawn = rendered_text(Text(text), WIDTH).splitlines()
    assert broken_at_no_break_space(drawn) == [], drawn


@pytest.mark.parametrize("text", FRENCH)
def test_textual_content_keeps_no_break_spaces(text):
    lines = [line.plain for line in Content(text).wrap(WIDTH)]
    assert len(lines) == 2 and broken_at_no_break_space(lines) == [], lines
    assert " ".join(line.rstrip(" ") for line in lines) == text


class Widgets(App[None]):
    """The widgets that wrap a string, each WIDTH cells wide, with the French lines."""

    CSS = f"Static, Label, TextLines {{ width: {WIDTH}; height: auto; }}"

    def compose(self) -> ComposeResult:
        for text in FRENCH:
            yield Static(text)
            yield Label(text)
            yield TextLines(text)
            yield Static(Text(text))  # a Rich renderable in a Static


async def test_widgets_keep_no_break_spaces_and_their_widths():
    """Static, Label and TextLines as drawn: no line starts with the sign, and every
    line is as wide as the widget in cells (the no-break space takes one cell)."""
    app = Widgets()
    async with app.run_test(size=(40, 60)) as pilot:
        await pilot.pause()
        widgets = list(app.query("Static, Label, TextLines"))
        assert len(widgets) == 4 * len(FRENCH)
        for widget in widgets:
            strips = widget.render_lines(widget.region.reset_offset)
            lines = ["".join(segment.text for segment in strip) for strip in strips]
            assert all(strip.cell_length == WIDTH for strip in strips), lines
            assert len(lines) == 2 and broken_at_no_break_space(lines) == [], (widget, lines)
            assert NBSP in "".join(lines) or NNBSP in "".join(lines)  # as written: copied as written


def test_textwrap_keeps_no_break_spaces():
    """Python's textwrap breaks at ASCII spaces only (the race log, the panel's "since
    your last look" and its measure): it kept the no-break spaces before the fix too."""
    for text in FRENCH:
        assert broken_at_no_break_space(textwrap.wrap(text, WIDTH)) == [], text


def test_the_race_log_keeps_no_break_spaces():
    log = RaceLog()
    log.lines = list(FRENCH)
    lines = [strip.text for strip in log._wrap(WIDTH)]
    assert len(lines) == 2 * len(FRENCH) and broken_at_no_break_space(lines) == [], lines


@pytest.fixture
def french():
    i18n.choose(flag="fr")
    yield
    i18n.forget_flag()
    i18n.set_language("en")


async def test_french_teams_help_at_80x24(french):
    """The teams screen's help in French at 80x24: its paragraph on Fill ended
    "pour moins" / ": Joueurs, avec ← →." (a line of the help box began with ":")."""
    app = FlammeApp(seed=SEED, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await SCENARIOS["help-teams"](pilot)
        await settle(pilot)
        box = [line.strip(" █") for line in screen_text(app).splitlines() if line.startswith("  █ ")]
        await pilot.press("pagedown")  # (the paragraph's end below the first page: a cell is kept before the bar)
        await settle(pilot)
        box += [line.strip(" █") for line in screen_text(app).splitlines() if line.startswith("  █ ")]
        assert any("moins\u00a0: Joueurs" in line or "moins : Joueurs" in line for line in box), box
        assert broken_at_no_break_space(box) == [], box


def test_rendered_text_keeps_the_no_break_space():
    """What Rich writes out (a copy, a NO_COLOR terminal): the no-break space itself."""
    console = Console(width=WIDTH, file=io.StringIO(), no_color=True, color_system=None)
    console.print(Text(FRENCH[0]))
    lines = [line.rstrip(" ") for line in console.file.getvalue().splitlines()]
    assert lines == ["Choisir le", f"nombre{NBSP}: Joueurs"]
