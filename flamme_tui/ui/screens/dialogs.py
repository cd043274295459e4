"""Small dialogs over a screen: help, and "leave this race?"."""

from __future__ import annotations

from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Static


class HelpScreen(ModalScreen[None]):
    """Keys and a short rules reference.  Modal: only ever over the screen of
    the player who asked for it (never over a curtain's hidden hand)."""

    BINDINGS = [
        Binding("escape", "close", "Close"),
        Binding("question_mark,f1", "close", "Close", show=False),
        Binding("q", "close", show=False),
    ]

    def __init__(self, text: str, keys: str = "") -> None:
        super().__init__(classes="dialog-screen")
        self.text = text
        self.keys = keys  # the screen's bindings as they are now (base.screen_keys)

    def compose(self):
        with Vertical(id="help-box", classes="dialog"):
            # the scroll area takes what the box leaves (not height: auto, or
            # a long help is cut off at the box's edge instead of scrolling)
            with VerticalScroll(id="help-scroll"):
                yield Static(self.text, id="help-text")
                if self.keys:
                    yield Static(self.keys, id="help-keys")
            yield Static("[b]↑ ↓ PgUp PgDn[/b] scroll · [b]Esc[/b] close", classes="dialog-hint")

    def on_mount(self) -> None:
        self.query_one("#help-scroll").focus()

    def action_close(self) -> None:
        self.dismiss(None)


class ConfirmQuit(ModalScreen[str]):
    """Leaving a race in progress: "app", "title" or "" (stay)."""

    def __init__(self, saved: bool = False) -> None:
        super().__init__()
        self.saved = saved  # the race is autosaved: the title menu offers to resume it

    BINDINGS = [
        Binding("escape,n", "choose('')", "Stay"),
        Binding("y,q", "choose('app')", "Quit"),
        Binding("t", "choose('title')", "Title menu"),
    ]

    def compose(self):
        with Vertical(id="confirm-box", classes="dialog"):
            after = ("It is saved: [b]Resume[/b] on the title menu brings it back." if self.saved
                     else "The race in progress will be lost.")
            yield Static(f"[b]Leave this race?[/b]\n{after}", id="confirm-text")
            with Horizontal(id="confirm-buttons"):
                yield Button("Quit (y)", id="quit-app", variant="error", compact=True)
                yield Button("Title menu (t)", id="quit-title", compact=True)
                yield Button("Keep racing (n)", id="stay", variant="primary", compact=True)

    def on_mount(self) -> None:
        self.query_one("#stay", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss({"quit-app": "app", "quit-title": "title"}.get(event.button.id, ""))

    def action_choose(self, what: str) -> None:
        self.dismiss(what)


class ConfirmDelete(ModalScreen[bool]):
    """Deleting a saved race: True to delete, False to keep it (the default)."""

    BINDINGS = [
        Binding("escape,n", "choose(False)", "Keep"),
        Binding("y", "choose(True)", "Delete"),
    ]

    def __init__(self, label: str) -> None:
        super().__init__()
        self.label = label  # the race, in words (plain text: names come from files)

    def compose(self):
        with Vertical(id="confirm-box", classes="dialog"):
            yield Static(Content.from_markup("[b]Delete this saved race?[/b]\n$label\nIts backups go too; "
                                             "this cannot be undone.", label=self.label), id="confirm-text")
            with Horizontal(id="confirm-buttons"):
                yield Button("Delete (y)", id="delete", variant="error", compact=True)
                yield Button("Keep it (n)", id="keep", variant="primary", compact=True)

    def on_mount(self) -> None:
        self.query_one("#keep", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "delete")

    def action_choose(self, yes: bool) -> None:
        self.dismiss(yes)
