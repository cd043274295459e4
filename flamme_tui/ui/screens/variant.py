"""Choosing the rule set: every variant the engine knows (races.VARIANTS)."""

from __future__ import annotations

from rich.console import Group
from rich.padding import Padding
from rich.text import Text
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ... import words
from ...i18n import N_, _
from ..widgets.keybar import KeyBar
from .base import BaseScreen

ABOUT = {
    "classic": (N_("Classic"), N_("Two riders per team, energy cards, slipstream and exhaustion. "
                                  "The rulebooks' stages and the players' own.")),
    "meteo": (N_("Meteo"), N_("Classic plus weather on the straights: tailwind, headwind, "
                              "crosswind and wet roads where blocked riders crash.")),
    "bmx": (N_("BMX"), N_("One rider each on a 28-square lap. Speed tokens from a bag, a catch-up die, "
                          "bumps, canyon, marsh and an optional jump ramp.")),
}  # N_: translated when shown


def variant_word(variant: str) -> str:
    """A rule set as a word in a sentence or a list: "classic", "meteo" (French "classique", "météo")."""
    return words.variant_word(variant)  # (the command line's words too)


def variant_title(variant: str) -> str:
    return _(ABOUT[variant][0]) if variant in ABOUT else variant.capitalize()


def about(variant: str) -> Group:
    """A rule set's entry: its name, and under it what it is, indented (its
    wrapped lines too, never back at the name's column)."""
    return Group(Text(variant_title(variant), style="bold"),
                 Padding(Text(_(ABOUT[variant][1]) if variant in ABOUT else ""), (0, 0, 0, 2)))


class VariantScreen(BaseScreen):
    HELP_TOPIC = "menus"
    REDRAW_ON_LANGUAGE = True
    BINDINGS = [Binding("escape", "app.pop_screen", N_("Back"))]

    def compose(self):
        from ...play.races import VARIANTS

        yield from self.compose_notice()
        with Vertical(classes="menu-body"):
            yield Static(_("[b]Host a table[/b] · choose the rule set") if getattr(self.app, "hosting", False)
                         else _("[b]New race[/b] · choose the rule set"), classes="screen-title")
            yield OptionList(*(Option(about(v), id=v) for v in VARIANTS), id="variant-menu")
        yield KeyBar([("↑↓", _("move")), ("⏎", _("choose")), (self.help_key, _("help")), ("esc", _("back"))])

    def on_mount(self) -> None:
        super().on_mount()
        menu = self.query_one("#variant-menu", OptionList)
        menu.highlighted = 0
        menu.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id is not None:  # every option has one: the variant's name
            self.app.choose_variant(event.option.id)
