"""Cards as cards: a player's hand, the rider choice and the revealed cards.

Hand cards carry the CSS class `hand-card` (tests find every card on screen
with `.hand-card`); a selected card gets `-selected` and a heavy border, so
the choice shows without colour too.
"""

from __future__ import annotations

from textual.events import Click
from textual.message import Message
from textual.widgets import Static


class Picked(Message):
    """A card or rider choice was clicked."""

    def __init__(self, kind: str, index: int) -> None:
        super().__init__()
        self.kind = kind
        self.index = index


class HandCard(Static):
    """One drawn card (or BMX token) of the player whose turn it is."""

    def __init__(self, index: int, value: str, note: str, *, seat: int, rider: int, card: int) -> None:
        super().__init__(f"[b]{value}[/b]\n{note}", classes="hand-card")
        self.index = index
        self.seat = seat
        self.rider = rider
        self.card = card
        self.border_title = str(index + 1)

    def on_click(self, event: Click) -> None:
        event.stop()
        self.post_message(Picked("card", self.index))


class RiderChoice(Static):
    """One of the seat's riders, to choose which draws first."""

    def __init__(self, index: int, title: str, body: str, *, rider: int) -> None:
        super().__init__(body, classes="rider-choice")
        self.index = index
        self.rider = rider
        self.border_title = f"{index + 1} {title}"

    def on_click(self, event: Click) -> None:
        event.stop()
        self.post_message(Picked("rider", self.index))


class RevealedCard(Static):
    """A card played this round, face up for everybody."""

    def __init__(self, label: str, value: str, note: str, *, rider: int) -> None:
        super().__init__(f"[b]{value}[/b]\n{note}", classes="revealed-card")
        self.rider = rider
        self.border_title = label
