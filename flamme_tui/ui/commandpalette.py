"""The command palette (ctrl+p) in the player's language: Textual's own
palette speaks English in its search field ("Search for commands…") and
when nothing matches ("No matches found"); this one says both in the
player's language.  Its commands are the app's (FlammeApp.get_system_commands:
Textual's own system commands are not offered).  Its search ignores accents:
"reglages" finds "Réglages" (Textual's matcher tells "e" from "é")."""

from __future__ import annotations

import unicodedata

from rich.align import Align
from rich.text import Text
from textual.command import CommandList, CommandPalette, DiscoveryHit, Hit, Hits
from textual.content import Content
from textual.system_commands import SystemCommandsProvider
from textual.widgets.option_list import Option

from ..i18n import _


class Palette(CommandPalette):
    """Textual's command palette, its own words translated."""

    def _start_no_matches_countdown(self, search_value: str) -> None:
        # as Textual's, but "No matches found" in the player's language
        self._stop_no_matches_countdown()

        def show_no_matches() -> None:
            if search_value:  # (an empty search is the palette's discovery mode: nothing to say)
                self.query_one(CommandList).add_option(
                    Option(Align.center(Text(_("No matches found"), style="not bold")), disabled=True,
                           id=self._NO_MATCHES))
                self._list_visible = True
            else:
                self._list_visible = False

        self._no_matches_timer = self.set_timer(self._NO_MATCHES_COUNTDOWN, show_no_matches)


class AppCommands(SystemCommandsProvider):
    """The app's commands in the order it gives them (FlammeApp.get_system_commands:
    by what they do, new race first, quit last), the same in every language:
    Textual's own provider lists them sorted by their words, so each language had
    its own order ("Nouvelle course" after "Aide", "Nueva carrera" after "Ajustes")."""

    async def discover(self) -> Hits:
        for name, help_text, callback, discover in self.app.get_system_commands(self.screen):
            if discover:
                yield DiscoveryHit(name, callback, help=help_text)

    async def search(self, query: str) -> Hits:
        """The commands whose names match the query, accents aside (Textual's search
        less the accents: the query and each name folded to their bare letters)."""
        matcher = self.matcher(fold(query))
        for name, help_text, callback, *_rest in self.app.get_system_commands(self.screen):
            folded = fold(name)
            score, offsets = matcher.fuzzy_search.match(matcher.query, folded)
            if score > 0:
                shown = Content(name)  # the name as it is written, its matched letters marked
                for offset in offsets:
                    if not name[offset].isspace():
                        shown = shown.stylize(matcher.match_style, offset, offset + 1)
                yield Hit(score, shown, callback, text=name, help=help_text)


def fold(text: str) -> str:
    """The text with each letter's accent dropped, one character for one ("Réglages"
    -> "Reglages", "ñ" -> "n"): the matched positions are then the name's own."""
    return "".join(unicodedata.normalize("NFD", c)[0] for c in text)


def commands_palette() -> Palette:
    """The palette of the app's commands (ctrl+p)."""
    return Palette(providers=[AppCommands], id="--command-palette", placeholder=_("Search for commands…"))


def themes_palette() -> Palette:
    """The palette of the themes (the "Theme" command)."""
    from textual.theme import ThemeProvider

    return Palette(providers=[ThemeProvider], placeholder=_("Search for themes…"))
