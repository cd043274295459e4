"""The rules, short: classic, meteo and BMX."""

from __future__ import annotations

from textual.binding import Binding
from textual.widgets import Static

from ...i18n import N_, _
from ..texts import rules_legend, rules_text
from ..widgets.keybar import KeyBar
from ..widgets.scrolling import OneThumbScroll
from .base import BaseScreen
from .dialogs import help_layout


class RulesScreen(BaseScreen):
    HELP_TOPIC = "menus"
    REDRAW_ON_LANGUAGE = True
    BINDINGS = [Binding("escape,q", "app.pop_screen", N_("Back"))]

    def compose(self):
        yield from self.compose_notice()
        with OneThumbScroll(id="rules-scroll"):
            text = rules_text() + "\n\n" + rules_legend()
            yield Static(help_layout(text), id="rules-text")  # laid out as the help is
        yield KeyBar([("↑↓", _("scroll")), ("esc", _("back"))])

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#rules-scroll").focus()
