"""The title menu: New race, Rules, Quit (entries are easy to add: see `entries`)."""

from __future__ import annotations

import os

from textual.binding import Binding
from textual.containers import Center, Vertical
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from .base import BaseScreen

LOGO = r"""
 ___ _                          ___
| __| |__ _ _ __  _ __  ___    | _ \___ _  _ __ _ ___
| _|| / _` | '  \| '  \/ -_)   |   / _ \ || / _` / -_)
|_| |_\__,_|_|_|_|_|_|_\___|   |_|_\___/\_,_\__, \___|
                                            |___/
""".strip("\n")


class TitleScreen(BaseScreen):
    HELP_TOPIC = "menus"
    BINDINGS = [Binding("q", "app.request_quit", "Quit")]

    def entries(self) -> list[tuple[str, str]]:
        """(id, label) of the menu, top first.  A feature adds its entry here
        (e.g. ("resume", "Resume")) and handles it in `choose`."""
        return [("new", "New race"), ("rules", "Rules"), ("quit", "Quit")]

    def compose(self):
        yield from self.compose_notice()
        with Vertical(id="title-body"):
            yield Static(LOGO, id="logo")
            yield Static("Cycling for 2 to 4 players sharing one terminal: Classic, Meteo and BMX",
                         id="tagline")
            with Center():
                yield OptionList(*(Option(label, id=key) for key, label in self.entries()), id="title-menu")
        yield Footer()

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#title-menu", OptionList).focus()
        if os.environ.get("FLAMME_TUI_EXIT_AFTER_TITLE"):
            # start-up benchmark: leave as soon as the title menu is on screen
            self.call_after_refresh(self.app.exit, 0)
        else:
            self.app.preload()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.choose(event.option.id)

    def choose(self, key: str | None) -> None:
        if key == "new":
            self.app.new_race()
        elif key == "rules":
            from .rules import RulesScreen

            self.app.push_screen(RulesScreen())
        elif key == "quit":
            self.app.exit(0)
