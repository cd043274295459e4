"""Cards as cards: a player's hand, the rider choice and the revealed cards.

The race screen keeps a few card widgets mounted and fills or clears them
(no mounting while a player waits for a key).  A hand card carries the CSS
class `hand-card` only while it holds a card (tests find every card on screen
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


class Slot(Static):
    """A card place: empty and hidden, or showing one card."""

    KIND = "card"
    FULL_CLASS = ""

    def __init__(self, index: int, *, id: str | None = None) -> None:
        super().__init__("", id=id, classes="card-slot")
        self.index = index
        self.display = False
        self.full = False

    def fill(self, text: str, title: str) -> None:
        self.full = True
        self.update(text)
        self.border_title = title
        self.remove_class("-selected", "-cursor", "-active")
        if self.FULL_CLASS:
            self.add_class(self.FULL_CLASS)
        self.display = True

    def clear(self) -> None:
        if not self.full and not self.display:
            return
        self.full = False
        self.update("")
        self.border_title = ""
        self.remove_class("-selected", "-cursor", "-active")
        if self.FULL_CLASS:
            self.remove_class(self.FULL_CLASS)
        self.display = False

    def on_click(self, event: Click) -> None:
        event.stop()
        if self.full:
            self.post_message(Picked(self.KIND, self.index))


class HandCard(Slot):
    """One drawn card (or BMX token) of the player whose turn it is."""

    KIND = "card"
    FULL_CLASS = "hand-card"

    def __init__(self, index: int) -> None:
        super().__init__(index)
        self.seat: int | None = None
        self.rider: int | None = None
        self.card: int | None = None

    def show_card(self, value: str, note: str, *, seat: int, rider: int, card: int) -> None:
        self.seat, self.rider, self.card = seat, rider, card
        self.fill(f"[b]{value}[/b]\n{note}", str(self.index + 1))

    def clear(self) -> None:
        self.seat = self.rider = self.card = None
        super().clear()


class RiderChoice(Slot):
    """One of the seat's riders, to choose which draws first."""

    KIND = "rider"
    FULL_CLASS = "rider-choice"

    def __init__(self, index: int) -> None:
        super().__init__(index)
        self.rider: int | None = None

    def show_rider(self, title: str, body: str, *, rider: int) -> None:
        self.rider = rider
        self.fill(body, f"{self.index + 1} {title}")


class RevealedCard(Slot):
    """A card played this round, face up for everybody."""

    KIND = "revealed"
    FULL_CLASS = "revealed-card"

    def __init__(self, index: int) -> None:
        super().__init__(index)
        self.rider: int | None = None

    def show_played(self, label: str, value: str, *, rider: int) -> None:
        self.rider = rider
        self.fill(f"[b]{value}[/b]", label)

    def on_click(self, event: Click) -> None:
        event.stop()
