"""The privacy curtain between two players: a plain (opaque) Screen that shows
no card at all.  Never a ModalScreen: a modal's background shows through."""

from __future__ import annotations

from textual.binding import Binding
from textual.containers import Center, Vertical
from textual.widgets import Button, Static

from ..palette import team_colour, team_markup
from ..widgets.keybar import KeyBar
from .base import BaseScreen


class CurtainScreen(BaseScreen):
    HELP_TOPIC = "curtain"
    BINDINGS = [
        Binding("enter", "lift", "Show my cards"),
        Binding("q", "app.request_quit", "Quit"),
    ]

    def __init__(self, seat: int, name: str, colour: str, round_no: int, note: str = "", on_lift=None) -> None:
        super().__init__(classes="curtain")
        self.on_lift = on_lift  # called with the seat when the player lifts the curtain
        self.seat = seat
        self.player = name
        self.colour = colour
        self.round_no = round_no
        self.note = note
        self._lifted = False

    def compose(self):
        c = team_colour(self.colour)
        who = self.player if self.player == c.name else f"{self.player} ({c.name})"
        yield from self.compose_notice()
        with Vertical(id="curtain-body"):
            yield Static(f"Round {self.round_no}", id="curtain-round")
            yield Static(f"[b]Pass to {who}[/b]", id="curtain-title")
            yield Static(team_markup(self.colour, f"  {c.letter}S  {c.letter}R  ") if self.note != "bmx"
                         else team_markup(self.colour, f"  {c.letter}>  "), id="curtain-team")
            yield Static(f"{self.player}, press [b]Enter[/b] when only you can see the screen.",
                         id="curtain-text")
            with Center():
                yield Button(f"Show my {self.hand}", id="lift", variant="primary", compact=True)
        yield KeyBar([("⏎", f"show my {self.hand}"), ("?", "help"), ("q", "quit")])

    @property
    def hand(self) -> str:
        return "tokens" if self.note == "bmx" else "cards"  # BMX players hold tokens from a bag

    def help_text(self) -> str:
        from ..texts import help_for

        return help_for(self.HELP_TOPIC, "bmx" if self.note == "bmx" else None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_lift()

    def action_lift(self) -> None:
        if not self._lifted:
            self._lifted = True
            if self.on_lift is not None:
                self.on_lift(self.seat)
            self.dismiss(self.seat)
