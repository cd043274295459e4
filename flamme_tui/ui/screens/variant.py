"""Choosing the rule set: every variant the engine knows (races.VARIANTS)."""

from __future__ import annotations

from rich.console import Group
from rich.padding import Padding
from rich.text import Text
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ..widgets.keybar import KeyBar
from .base import BaseScreen

ABOUT = {
    "classic": ("Classic", "Two riders per team, energy cards, slipstream and exhaustion. "
                          "7 stages from the rulebook."),
    "meteo": ("Meteo", "Classic plus weather on the straights: tailwind, headwind, "
                      "crosswind and wet roads where blocked riders crash."),
    "bmx": ("BMX", "One rider each on a 28-square lap. Speed tokens from a bag, a catch-up die, "
                  "bumps, canyon, marsh and an optional jump ramp."),
}


def variant_title(variant: str) -> str:
    return ABOUT.get(variant, (variant.capitalize(), ""))[0]


def about(variant: str) -> Group:
    """A rule set's entry: its name, and under it what it is, indented (its
    wrapped lines too, never back at the name's column)."""
    return Group(Text(variant_title(variant), style="bold"),
                 Padding(Text(ABOUT.get(variant, ("", ""))[1]), (0, 0, 0, 2)))


class VariantScreen(BaseScreen):
    HELP_TOPIC = "menus"
    BINDINGS = [Binding("escape", "app.pop_screen", "Back")]

    def compose(self):
        from ...play.races import VARIANTS

        yield from self.compose_notice()
        with Vertical(classes="menu-body"):
            yield Static("[b]New race[/b] · choose the rule set", classes="screen-title")
            yield OptionList(*(Option(about(v), id=v) for v in VARIANTS), id="variant-menu")
        yield KeyBar([("↑↓", "move"), ("⏎", "choose"), (self.help_key, "help"), ("esc", "back")])

    def on_mount(self) -> None:
        super().on_mount()
        menu = self.query_one("#variant-menu", OptionList)
        menu.highlighted = 0
        menu.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id is not None:  # every option has one: the variant's name
            self.app.choose_variant(event.option.id)
