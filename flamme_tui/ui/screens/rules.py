"""The rules, short: classic, meteo and BMX."""

from __future__ import annotations

from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Static

from ..texts import RULES, track_legend
from ..widgets.keybar import KeyBar
from .base import BaseScreen
from .dialogs import help_layout


class RulesScreen(BaseScreen):
    HELP_TOPIC = "menus"
    BINDINGS = [Binding("escape,q", "app.pop_screen", "Back")]

    def compose(self):
        yield from self.compose_notice()
        with VerticalScroll(id="rules-scroll"):
            text = (RULES + "\n\n" + track_legend("classic") + "\n" + track_legend("meteo").split("\n")[1]
                    + "\n" + track_legend("bmx").split("\n")[1])
            yield Static(help_layout(text), id="rules-text")  # laid out as the help is
        yield KeyBar([("↑↓", "scroll"), ("esc", "back")])

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#rules-scroll").focus()
