"""The title menu: Resume (when a race is in progress), New race, New tour,
Host a table (each player on their own device), Saved races, Rules reference,
Settings, Learn to play, Quit (entries are easy to add: see `entries`)."""

from __future__ import annotations

import contextlib
import os
from typing import TYPE_CHECKING

from textual.binding import Binding
from textual.containers import Center, Vertical
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option, OptionDoesNotExist

from ...i18n import N_, _, ngettext
from ...words import tour_name
from ..content import plain
from ..widgets.keybar import KeyBar
from .base import BaseScreen

if TYPE_CHECKING:
    from ...saves import SavedRace  # (saves imports pydantic: not at start-up)

LOGO = r"""
 ___ _                          ___
| __| |__ _ _ __  _ __  ___    | _ \___ _  _ __ _ ___
| _|| / _` | '  \| '  \/ -_)   |   / _ \ || / _` / -_)
|_| |_\__,_|_|_|_|_|_|_\___|   |_|_\___/\_,_\__, \___|
                                            |___/
""".strip("\n")


class TitleScreen(BaseScreen):
    HELP_TOPIC = "menus"
    REDRAW_ON_LANGUAGE = True
    BINDINGS = [Binding("q", "app.request_quit", N_("Quit"), id="title.quit")]

    def __init__(self) -> None:
        super().__init__()
        self.resume_info: SavedRace | None = None
        self._shown = False  # shown once already (the first time, preload looks for saves)
        self.cursor_id: str | None = None  # the entry under the cursor while the menu is drawn again (relanguage)
        # back from a race, Resume not offered yet: where the cursor was (Resume goes under it if it stays there)
        self._to_resume: int | None = None

    def entries(self) -> list[tuple[str, str]]:
        """(id, label) of the menu, top first.  A feature adds its entry here
        and handles it in `choose`; Resume comes first once a save is found."""
        return [("new", _("New race")), ("tour", _("New tour")), ("host", _("Host a table")), ("saved", _("Saved races")),
                ("rules", _("Rules reference")), ("settings", _("Settings")), ("learn", _("Learn to play")),
                ("quit", _("Quit"))]

    def offer_resume(self, race: SavedRace | None) -> None:
        """Offer "Resume" for the newest race not finished (a saves.SavedRace,
        found in the background, or left for the title menu), damaged or not:
        a damaged one is never hidden; None takes the entry away."""
        menu = self.query_one("#title-menu", OptionList)
        # back from a race and the cursor not moved since: Resume goes under it
        to_resume = race is not None and self._to_resume is not None and self._to_resume == menu.highlighted
        if race is not None:
            self._to_resume = None
        if race == self.resume_info:
            if to_resume:
                menu.highlighted = menu.get_option_index("resume")
            return
        # the entry under the cursor, by its id (an index moves when Resume comes or goes); a
        # menu not yet moved through (the cursor on top) goes to Resume: what a player coming back wants
        at = menu.highlighted
        current = menu.get_option_at_index(at).id if at is not None and at < menu.option_count else None
        if current is None or (self.resume_info is None and at == 0) or to_resume:
            current = "resume"
        if self.resume_info is not None:
            menu.remove_option("resume")
        self.resume_info = race
        if race is None:
            if current != "resume":  # the entry under the cursor stays under it (its index moved up one)
                menu.highlighted = menu.get_option_index(current)
            return
        info = race.info
        if info is not None:
            teams = _(", ").join(info.teams)
            label = _("Resume: {title}, round {round} ({teams})").format(title=info.title, round=info.round, teams=teams)
            if getattr(info, "tour", "") and getattr(info, "stage_over", False):
                # saved between two stages: not a round of it to play; Resume shows its result, then the next stage
                label = _("Resume: {tour}, stage {stage}/{stages} finished ({teams})").format(
                    tour=tour_name(info.tour), stage=info.stage, stages=info.stages, teams=teams)
            elif getattr(info, "tour", ""):
                label = _("Resume: {tour}, stage {stage}/{stages}, round {round} ({teams})").format(
                    tour=tour_name(info.tour), stage=info.stage, stages=info.stages, round=info.round, teams=teams)
        elif race.status == "damaged":
            n = len(race.backups)
            label = ngettext("Resume: {file} (damaged save, {n} backup)", "Resume: {file} (damaged save, {n} backups)",
                             n) if n else _("Resume: {file} (damaged save, no backups)")
            label = label.format(file=race.path.name, n=n)
        else:
            label = _("Resume: {file} (made by a newer flamme-tui)").format(file=race.path.name)
        # Resume goes first: it is what a player coming back wants
        rest = [menu.get_option_at_index(k) for k in range(menu.option_count)]
        menu.clear_options()
        menu.add_options([Option(plain(label), id="resume"), *rest])
        menu.highlighted = menu.get_option_index(current)  # the entry under the cursor stays under it
        menu.styles.width = "auto"

    def race_left(self) -> None:
        """Back from a race (left, or its results): Resume goes under the cursor,
        now if it is offered, else when it comes (unless the player moves first:
        an entry never moves under a key on its way)."""
        menu = self.query_one("#title-menu", OptionList)
        self._to_resume = menu.highlighted
        if self.resume_info is not None:
            self.offer_resume(self.resume_info)

    def relanguage(self) -> None:
        # the entry under the cursor, kept over the new language's menu (it went to the top: Settings,
        # Escape, then Up and Enter quit the app)
        menu = self.query_one("#title-menu", OptionList)
        at = menu.highlighted
        self.cursor_id = menu.get_option_at_index(at).id if at is not None and at < menu.option_count else None
        super().relanguage()

    def redrawn(self) -> None:
        """Drawn again in another language: Resume comes back, the menu has the focus
        and its cursor on the entry it was on."""
        race, self.resume_info = self.resume_info, None
        self.offer_resume(race)
        menu = self.query_one("#title-menu", OptionList)
        cursor, self.cursor_id = self.cursor_id, None
        if cursor is not None:
            with contextlib.suppress(OptionDoesNotExist):  # an entry the new menu has not: where it is
                menu.highlighted = menu.get_option_index(cursor)
        menu.focus()

    def compose(self):
        yield from self.compose_notice()
        with Vertical(id="title-body"):
            # each in a Center of its own: the body's align centres its children as one block,
            # as wide as the widest (the menu's Center), which left the logo at column 0
            with Center():
                yield Static(LOGO, id="logo")
            # as many as the teams screen offers: six teams, or twelve players with one rider each;
            # the rule sets as the menu lists them, the Peloton expansion within Classic and Meteo
            with Center():
                yield Static(_("Cycling for 2 to 12 players sharing one terminal\n"
                               "Classic, Meteo and BMX, with the Peloton expansion's stages and teams"), id="tagline")
            with Center():
                yield OptionList(*(Option(label, id=key) for key, label in self.entries()), id="title-menu")
        # not Textual's Footer: it recomposes whenever the screen stack changes, and
        # the title menu stays under every race (a curtain each turn)
        yield KeyBar(self.key_list(), id="title-keys")

    def key_list(self) -> list[tuple[str, str]]:
        return [("↑↓", _("move")), ("⏎", _("choose")), (self.help_key, _("help")), (self.key_of("title.quit", "q"), _("quit"))]

    def keys_changed(self) -> None:
        """The settings were read after the menu was drawn: a rebound key shows."""
        for bar in self.query("#title-keys").results(KeyBar):
            bar.show(self.key_list())

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#title-menu", OptionList).focus()
        if os.environ.get("FLAMME_TUI_EXIT_AFTER_TITLE"):
            # start-up benchmark: note the time the title menu is on screen, and leave
            self.call_after_refresh(self._bench_exit, os.environ["FLAMME_TUI_EXIT_AFTER_TITLE"])
        else:
            self.call_after_refresh(self.app.preload)  # once the menu is on screen

    def on_screen_resume(self) -> None:
        super().on_screen_resume()
        if self._shown:
            # a race may have been left, finished or resumed since; the menu is
            # often passed through on the way (race -> podium): only if it stays.
            # The app's timer, not this screen's: a screen under the race that
            # wakes up repaints the whole race screen.
            self.app.set_timer(0.3, self._look_for_resume)
        self._shown = True

    def _look_for_resume(self) -> None:
        app = self.app
        stack = app.screen_stack
        if stack and stack[-1] is self and getattr(app, "flow", None) is None:
            app.look_for_resume()

    def _bench_exit(self, stamp_file: str) -> None:
        if stamp_file not in ("1", ""):
            import time

            with open(stamp_file, "w", encoding="utf-8") as f:  # when, and the CPU time it took
                f.write(f"{time.time()!r} {time.process_time()!r}")
        self.app.exit(0)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.choose(event.option.id)

    def choose(self, key: str | None) -> None:
        if key == "new":
            self.app.new_race()
        elif key == "tour":
            self.app.new_tour()
        elif key == "host":
            self.app.host_a_table()
        elif key == "learn":
            from .tutorial import LessonsScreen

            self.app.push_screen(LessonsScreen())
        elif key == "rules":
            self.app.show_rules()
        elif key == "saved":
            self.app.show_saved_races()
        elif key == "settings":
            self.app.show_settings()
        elif key == "quit":
            self.app.exit(0)
        elif key == "resume" and self.resume_info is not None:
            race = self.resume_info
            if race.status == "damaged":
                self.app.show_damaged(race)
            elif race.info is None:  # from a newer flamme-tui
                self.app.notify(f"{race.path.name} {race.reason}", severity="error", timeout=8, markup=False)
            else:
                self.app.resume_path(race.path)
