"""Small dialogs over a screen: help, "leave this race?", and a damaged save."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, OptionList, Static
from textual.widgets.option_list import Option

from ...i18n import N_, _, ngettext
from ...usertext import clean
from ...words import stage_name
from ..widgets.scrolling import OneThumbScroll

if TYPE_CHECKING:
    from ...saves import SavedRace


# a row of keys in the help's markup: two spaces, the key, two spaces or more, what it does
KEY_ROW = re.compile(r"^  (\S(?:.*?\S)?) {2,}(\S.*)$")
KEY_COLUMN = 18  # the widest key column: a longer key wraps within it


def key_width(*markups: str) -> int:
    """The key column that holds every key of these help texts (at most KEY_COLUMN)."""
    keys = [Text.from_markup(m.group(1), emoji=False).cell_len for text in markups for line in text.split("\n")
            if (m := KEY_ROW.match(line))]
    return min(KEY_COLUMN, max(keys, default=0))


def help_layout(markup: str, keys: int = 0) -> Group:
    """A help text (texts.py's markup) laid out for the width it is drawn in:
    a paragraph wraps as the width allows (each line of the markup is one
    paragraph), and a row of keys keeps what the key does in a column of its
    own, so that its wrapped lines start under it, never under the key.
    `keys`: the key column's width (key_width; 0: this text's own)."""
    keys = keys or key_width(markup)
    parts: list[Text | Table] = []
    table: Table | None = None
    for line in markup.split("\n"):
        row = KEY_ROW.match(line)
        if row is None:
            table = None
            parts.append(Text.from_markup(line, emoji=False))
            continue
        if table is None:
            table = Table.grid(padding=(0, 2, 0, 0))
            table.add_column(width=keys + 2, overflow="fold")  # two spaces in, then the key
            table.add_column(overflow="fold")
            parts.append(table)
        table.add_row(Text.from_markup("  " + row.group(1), emoji=False), Text.from_markup(row.group(2), emoji=False))
    return Group(*parts)


class HelpScreen(Screen[None]):
    """Keys and a short rules reference, over the screen of the player who
    asked for it (never over a curtain's hidden hand).  A screen of its own,
    not a modal one over the race: drawing the race dimmed underneath took
    a third of the time of the key."""

    BINDINGS = [
        Binding("escape", "close", N_("Close")),
        Binding("question_mark,f1", "close", N_("Close"), show=False),
        Binding("q", "close", show=False),
    ]

    def __init__(self, text: str, keys: str = "") -> None:
        super().__init__(classes="dialog-screen")
        self.text = text
        self.keys = keys  # the screen's bindings as they are now (base.screen_keys)
        self._styled_for: tuple | None = None  # the theme its styles were last worked out for

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        """Shown again (the app keeps it built: FlammeApp.open_help): from the top.
        Its styles are worked out again only when the theme changed since it
        was last shown: applying the whole stylesheet to it again was a third
        of the time of the key (this handler runs before Screen's own)."""
        theme = (self.app.theme, self.app.ansi_color)
        if self._styled_for == theme:
            event.refresh_styles = False
        self._styled_for = theme
        self.query_one("#help-scroll").scroll_home(animate=False, immediate=True)

    def compose(self):
        with Vertical(id="help-box", classes="dialog"):
            # the scroll area takes what the box leaves (not height: auto, or
            # a long help is cut off at the box's edge instead of scrolling)
            with OneThumbScroll(id="help-scroll"):
                keys = key_width(self.text, self.keys)  # one key column for both
                yield Static(help_layout(self.text, keys), id="help-text")
                if self.keys:
                    yield Static(help_layout(self.keys, keys), id="help-keys")
            yield Static(_("[b]↑ ↓ PgUp PgDn[/b] scroll · [b]Esc[/b] close"), classes="dialog-hint")

    def on_mount(self) -> None:
        self.query_one("#help-scroll").focus()

    def action_close(self) -> None:
        self.dismiss(None)


def close_hint(app, binding_id: str, default: str) -> str:
    """A popup's last line: Esc or the key that opened it (as bound now) closes it (markup: `[` escaped)."""
    key_of = getattr(app, "key_of", None)
    key = key_of(binding_id, default) if key_of is not None else default
    return _("[b]Esc[/b] or [b]{key}[/b] close").format(key=key.replace("[", "\\["))


class ProfileScreen(ModalScreen[None]):
    """The stage profile, on request during a race (`s`): climbs and descents
    as heights, and where every rider is on them.  Public: the track only."""

    BINDINGS = [
        Binding("escape,q", "close", N_("Close")),
        # the key that opened it closes it, as the player binds it: the same id, so the keymap moves it too
        Binding("s", "close", show=False, id="race.profile"),
    ]

    def __init__(self, course, riders) -> None:
        super().__init__(classes="dialog-screen")
        self.course = course
        self.riders = riders  # the track's RiderMarks now

    def compose(self) -> ComposeResult:
        from ..widgets.profile import StageProfile

        with Vertical(id="profile-box", classes="dialog"):
            stage = clean(stage_name(self.course.name), multiline=False)
            yield Static(Content(_("{stage}: the stage profile").format(stage=stage)), id="profile-title")
            yield StageProfile(self.course, bars=8, riders=True, id="profile-chart")
            # without colour the bars' terrain colours are not seen: the legend says what is
            legend = _("bars: how high the road is, up on climbs · ║ start · ▓ finish\n"
                       "under it, the riders: team letter, or how many share a spot") if self.app.no_color else _(
                "climbs red, descents blue, supply zones yellow · ║ start · ▓ finish\n"
                "under it, the riders: team letter, or how many share a spot")
            if len(self.riders) >= 10:  # ten riders may share a spot (the grid of 5 or 6 teams): drawn "+"
                legend += " " + _("(+: ten or more)")
            yield Static(legend, id="profile-legend")
            yield Static(close_hint(self.app, "race.profile", "s"), classes="dialog-hint")

    def on_mount(self) -> None:
        from ..widgets.profile import StageProfile

        self.query_one(StageProfile).show_riders(self.riders)

    def action_close(self) -> None:
        self.dismiss(None)


class ConfirmQuit(ModalScreen[str]):
    """Leaving a race in progress: "app", "title" or "" (stay).  In a tour
    (`stage`: the stage being raced and how many, 1-based) it says so: what
    is left is the whole tour, which Resume brings back at that stage."""

    HEADING = N_("Leave this race?")
    STAY = N_("Keep racing ({key})")

    def __init__(self, saved: bool = False, problem: str = "", stage: tuple[int, int] | None = None,
                 why: str = "", go: str = "") -> None:
        super().__init__()
        self.saved = saved  # everything played is on disk: the title menu offers to resume it
        self.problem = problem  # else why not (saving failed), in words
        self.stage = stage
        self.why = why  # what asks to leave the race, in words ("Hosting a table leaves this race.")
        self.go = go  # where `t` leads then, in words (else the title menu)

    def heading(self) -> str:
        return _("Leave this tour?") if self.stage is not None else _(self.HEADING)

    BINDINGS = [
        Binding("escape,n", "choose('')", N_("Stay")),
        Binding("y,q", "choose('app')", N_("Quit")),
        Binding("t", "choose('title')", N_("Title menu")),
    ]

    def message(self) -> Content:
        """What leaving keeps or loses, under the heading."""
        if self.stage is not None:
            k, n = self.stage
            if self.saved:
                return Content.from_markup(_("The tour is saved: [b]Resume[/b] on the title menu brings it back, "
                                             "at stage {k}/{n} where you left it.").format(k=k, n=n))
            return Content(self.problem or _("The tour in progress will be lost."))
        if self.saved:
            return Content.from_markup(_("It is saved: [b]Resume[/b] on the title menu brings it back."))
        return Content(self.problem or _("The race in progress will be lost."))  # plain text: it may hold a file name

    def compose(self):
        # (a key that goes on somewhere, "Host a table (t)", is longer than "Title menu (t)")
        with Vertical(id="confirm-box", classes="dialog -wide" if self.go else "dialog"):
            heading = Content.from_markup("[b]$heading[/b]", heading=self.heading())
            message = self.message()
            if self.why:
                message = Content(self.why) + (Content(" ") + message if message else Content(""))
            yield Static(heading + "\n" + message if message else heading, id="confirm-text")
            with Horizontal(id="confirm-buttons"):
                # q, the app's quit key (bound here too): a yes key would be another letter in each language
                yield Button(_("Quit ({key})").format(key="q"), id="quit-app", variant="error", compact=True)
                yield Button(_("{go} ({key})").format(go=self.go, key="t") if self.go else
                             _("Title menu ({key})").format(key="t"), id="quit-title", compact=True)
                yield Button(_(self.STAY).format(key="n"), id="stay", variant="primary", compact=True)

    def on_mount(self) -> None:
        self.query_one("#stay", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss({"quit-app": "app", "quit-title": "title"}.get(event.button.id or "", ""))

    def action_choose(self, what: str) -> None:
        self.dismiss(what)


class QuitResults(ConfirmQuit):
    """`q` on a results screen (a race's podium, a tour's results): the same
    dialog and keys as leaving a race, "app", "title" or "" (stay)."""

    HEADING = N_("Quit flamme-tui?")
    STAY = N_("Stay ({key})")

    def __init__(self, note: str = "") -> None:
        super().__init__()
        self.note = note  # what is saved, in words (plain text)

    def message(self) -> Content:
        return Content(self.note)


class DamagedSave(ModalScreen[str]):
    """A race whose newest file cannot be used (a saves.SavedRace): what was
    lost, and the backups it can go on from.  Dismissed with the path of
    the backup chosen (the app goes on from it as a new race file, a
    branch), or "" to go back.  Every text here is plain: file names and
    reasons come from the disk."""

    DEFAULT_CSS = """
    DamagedSave { align: center middle; }
    #damaged-box { width: 76; }
    #damaged-menu { height: auto; max-height: 8; margin: 1 0 0 0; }
    """
    BINDINGS = [Binding("escape", "back", N_("Back"))]
    HEADING = N_("Damaged save")

    def __init__(self, race: SavedRace) -> None:
        super().__init__(classes="dialog-screen")
        self.race = race

    def text(self) -> str:
        race = self.race
        # (the reason is the saves module's, in English: saves.py is not translated yet)
        lines = [_("This race's newest save, {file}, {reason}.").format(file=race.path.name, reason=race.reason),
                 _("The file is kept as it is.")]
        if race.backups:
            newest = race.backups[0].info
            if newest.over:
                held = ngettext("Its newest usable backup holds its finish after {n} action: at least what was "
                                "played after that is lost.",
                                "Its newest usable backup holds its finish after {n} actions: at least what was "
                                "played after that is lost.", newest.actions)
            else:
                held = ngettext("Its newest usable backup holds round {round} after {n} action: at least what was "
                                "played after that is lost.",
                                "Its newest usable backup holds round {round} after {n} actions: at least what was "
                                "played after that is lost.", newest.actions)
            lines.append(held.format(round=newest.round, n=newest.actions))
            lines.append(_("Going on from a backup starts a new race file (a branch); "
                           "the damaged file and the backups stay as they are."))
        else:
            lines.append(_("No backup of it can be used: this race cannot be resumed."))
        return clean("\n".join(lines))  # a file name may hold control characters

    def compose(self) -> ComposeResult:
        with Vertical(id="damaged-box", classes="dialog"):
            yield Static(Content.assemble((f"{_(self.HEADING)}\n", "bold"), self.text()), id="damaged-text")
            options = [Option(Content(clean(_("Go on from {backup}").format(backup=b.describe()), multiline=False)),
                              id=str(b.path)) for b in self.race.backups]
            options.append(Option(_("Back"), id="back"))
            yield OptionList(*options, id="damaged-menu")

    def on_mount(self) -> None:
        self.query_one("#damaged-menu", OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss("" if event.option.id == "back" else event.option.id or "")

    def action_back(self) -> None:
        self.dismiss("")


class BranchFromBackup(DamagedSave):
    """Going on from an earlier point of a race (saved races, `b`): its
    backups, the race file one and two actions back.  Dismissed with the
    backup chosen (the app goes on from it as a new race file, a branch)."""

    HEADING = N_("Go on from an earlier point (a branch)")

    def text(self) -> str:
        words = _("{file} keeps every action played.  Its backups hold the race one and two actions earlier; going on "
                  "from one starts a new race file, and {file} and its backups stay as they are.").format(
            file=self.race.path.name)
        info = self.race.info
        if info is not None and info.players > 1 and not info.over:
            # a hot-seat table: a backup reopens turns already played, cards chosen face down included
            words += "\n" + _("Several people race here: a backup reopens turns already played, and whoever lifts "
                               "a player's curtain sees that player's cards of the round.  Branch with the whole "
                               "table, never alone.")
        return clean(words)  # a file name may hold control characters


class ConfirmDelete(ModalScreen[bool]):
    """Deleting a saved race: True to delete, False to keep it (the default)."""

    BINDINGS = [
        Binding("escape,n", "choose(False)", N_("Keep")),
        Binding("y", "choose(True)", N_("Delete")),
    ]
    YES = N_("Delete ({key})")
    NO = N_("Keep it ({key})")

    def __init__(self, label: str) -> None:
        super().__init__()
        self.label = label  # the race, in words (plain text: names come from files)

    def message(self) -> Content:
        return Content.from_markup(_("[b]Delete this saved race?[/b]\n$label\nIts backups go too; "
                                     "this cannot be undone."), label=self.label)

    def compose(self):
        with Vertical(id="confirm-box", classes="dialog"):
            yield Static(self.message(), id="confirm-text")
            with Horizontal(id="confirm-buttons"):
                yield Button(_(self.YES).format(key="y"), id="delete", variant="error", compact=True)
                yield Button(_(self.NO).format(key="n"), id="keep", variant="primary", compact=True)

    def on_mount(self) -> None:
        self.query_one("#keep", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "delete")

    def action_choose(self, yes: bool) -> None:
        self.dismiss(yes)


class ConfirmDiscard(ConfirmDelete):
    """Leaving the stage editor with changes not saved: True to throw them
    away, False to go on editing.  The delete dialog's keys and its safe
    default (Esc and n keep), so that an Esc pressed once too often never
    loses a stage being built."""

    BINDINGS = [
        Binding("escape,n", "choose(False)", N_("Keep editing")),
        Binding("y", "choose(True)", N_("Discard")),
    ]
    YES = N_("Discard ({key})")
    NO = N_("Keep editing ({key})")

    def message(self) -> Content:
        return Content.from_markup(_("[b]Discard this stage?[/b]\n$label\nIts changes are not saved.  To keep "
                                     "them: n goes back to editing, where s saves the stage and races it."),
                                   label=self.label)


class ConfirmSkipLesson(ConfirmDelete):
    """`x` in a lesson under way: True to skip it (what was played is
    forgotten), False to go on with it (the default: Esc and n)."""

    BINDINGS = [
        Binding("escape,n", "choose(False)", N_("Go on with the lesson")),
        Binding("y", "choose(True)", N_("Skip the lesson")),
    ]
    YES = N_("Skip it ({key})")
    NO = N_("Go on ({key})")

    def message(self) -> Content:
        return Content.from_markup(_("[b]Skip this lesson?[/b]\n$label\nWhat you played in it is forgotten: "
                                     "Learn to play starts it again from the beginning."), label=self.label)


class ConfirmStopHosting(ConfirmDelete):
    """Esc on the host's screen with a race under way: True to close the table,
    False to go on hosting (the default, so that an Esc pressed by mistake
    never turns the devices away)."""

    BINDINGS = [
        Binding("escape,n", "choose(False)", N_("Go on hosting")),
        Binding("y", "choose(True)", N_("Stop hosting")),
    ]
    YES = N_("Stop hosting ({key})")
    NO = N_("Go on hosting ({key})")

    def message(self) -> Content:
        return Content.from_markup(_("[b]Stop hosting this table?[/b]\nEvery device is told that the table closes.  "
                                     "The race is saved: Resume on the title menu (or $command) hosts it again, "
                                     "and the devices come back with their codes."), command=self.label)



class PickSeat(ModalScreen[int | None]):
    """Which seat? (the host's screen: `b` or `d` with several seats it could mean).
    The seat chosen (its number key, or the arrows and Enter), or None (Esc)."""

    DEFAULT_CSS = """
    PickSeat { align: center middle; }
    PickSeat #pick-seat-box { width: 50; }
    PickSeat #pick-seat-text { margin: 0 0 1 0; }
    PickSeat OptionList, PickSeat OptionList:focus { height: auto; max-height: 14; border: none; padding: 0; }
    PickSeat #pick-seat-hint { color: $text-muted; margin: 1 0 0 0; }
    """
    BINDINGS = [Binding("escape", "dismiss_none", N_("None"))]

    def __init__(self, question: str, seats: list[tuple[int, str]]) -> None:
        super().__init__()
        self.question = question
        self.seats = seats  # (seat, its words): the seats it may be, first the likeliest

    def compose(self):
        with Vertical(id="pick-seat-box", classes="dialog"):
            yield Static(Text(self.question), id="pick-seat-text")
            yield OptionList(*(Option(Text(f"{seat + 1:>2}  {words}"), id=str(seat)) for seat, words in self.seats))
            yield Static(Text(_("a seat's number, or ↑ ↓ and Enter · Esc: none")), id="pick-seat-hint")

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        options.highlighted = 0  # the likeliest first
        options.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(int(event.option.id or 0))

    def on_key(self, event: events.Key) -> None:
        if event.character and event.character.isdigit():
            number = int(event.character) or 10  # (0: seat 10, as a number row reads)
            if any(seat + 1 == number for seat, _words in self.seats):
                event.stop()
                self.dismiss(number - 1)

    def action_dismiss_none(self) -> None:
        self.dismiss(None)
