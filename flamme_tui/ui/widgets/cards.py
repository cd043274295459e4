"""Cards as cards: a player's hand, the rider choice, the revealed cards and the die.

ONE widget draws the whole row with the Line API, in a place of fixed size
(set in app.tcss): showing other cards, selecting one, clearing the row only
repaints it, never changes the layout of the screen (fast keys, see bench.py).

A card is a box with its title in the top border ("╭─ 1 ───╮").  A selected
card gets a heavy border and a tinted body, the card under the cursor a
reversed title, an active one (the reveal) a heavy border: the state reads
without colour too.  `CardRow.cards` is what the row shows (tests look there
for every card on screen); `Card.data` carries what a card stands for and is
never drawn.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.segment import Segment
from rich.style import Style
from textual.events import Click
from textual.message import Message
from textual.strip import Strip

from ...i18n import _
from .lines import LineWidget

# kinds of row: card width (with its borders) and the gap between cards
KINDS = {
    "hand": (9, 1, "center"),  # drawn cards or tokens: value, note
    "riders": (36, 1, "left"),  # the seat's riders (which draws first), as wide as there is room
    "revealed": (8, 0, "center"),  # the played cards, face up
}
MIN_WIDTH = 5
# a revealed card can be narrower: its title (a rider, "BS") fills the top border
# and its value the body, so twelve riders fit beside the log at 80x24 (4 x 12 = 48)
MIN_REVEALED = 4
DIE_WIDTH = 11

BLANK = Style()
BORDER = Style(color="#8a8a8a")
SELECTED_BORDER = Style(color="#ffa62b", bold=True)
SELECTED_BODY = Style(bgcolor="#4a3a1e")
ACTIVE_BORDER = Style(color="#f0e442", bold=True)
DIE_BORDER = Style(color="#ffa62b")
TITLE = Style(bold=True)
CURSOR_TITLE = Style(bold=True, reverse=True)
VALUE = Style(bold=True)
NOTE = Style(color="#a8a8a8")

# corners, then the horizontal and vertical lines
ROUND = tuple("╭╮╰╯─│")
HEAVY = tuple("┏┓┗┛━┃")

_DIGITS = None


def big_digit(text: str) -> list[str]:
    """Three lines of 3x3 digits (Textual's font), for the die and large cards."""
    global _DIGITS
    if _DIGITS is None:
        from textual.renderables.digits import DIGITS, DIGITS3X3_BOLD

        rows = DIGITS3X3_BOLD if isinstance(DIGITS3X3_BOLD, list) else DIGITS3X3_BOLD.splitlines()
        _DIGITS = {ch: [rows[3 * k + r].ljust(3)[:3] for r in range(3)] for k, ch in enumerate(DIGITS)}
    lines = ["", "", ""]
    for ch in text:
        glyph = _DIGITS.get(ch, _DIGITS[" "])
        for r in range(3):
            lines[r] += glyph[r]
    return lines


@dataclass(frozen=True, slots=True)
class Card:
    title: str  # in the top border
    lines: tuple[str, ...] = ()  # the body: the first line bold (a card's value), the rest plain
    selected: bool = False
    cursor: bool = False
    active: bool = False
    title_style: Style | None = None  # e.g. a rider's team colours
    data: tuple = ()  # what the card stands for (seat, rider, card): never drawn
    big: str = ""  # the value, drawn in big digits over the lines when the row is large
    foot: str = ""  # in the bottom border: a hand card's wind mark ("+E", "+E 60%"), read without colour
    foot_narrow: str = ""  # the foot where the card is too narrow for it ("»" for "» draw 5 cards")
    # the body's lines in fewer words, each drawn instead of its line of `lines` when that
    # one is wider than the card ("" or none: cut with a mark): a rider's place as
    # "G4 · faltan 72" where "parrilla 4 · faltan 72" would lose its count to the cut
    narrow: tuple[str, ...] = ()


class CardClicked(Message):
    """A card of the row was clicked."""

    def __init__(self, kind: str, index: int) -> None:
        super().__init__()
        self.kind = kind
        self.index = index


class CardRow(LineWidget):
    """A row of cards (one kind at a time), and for the BMX reveal the die."""

    DEFAULT_CSS = """
    CardRow { width: 1fr; height: 4; }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.kind = "hand"
        self.cards: tuple[Card, ...] = ()
        self.die: str | None = None  # the die box (BMX reveal): None = no box, " " = not rolled yet
        self.die_note = ""
        self.large = False  # a large window: card values in big digits (taller cards)

    def set_large(self, large: bool) -> None:
        if large != self.large:
            self.large = large
            self.redraw()

    # --------------------------------------------------------------- input

    def show(self, kind: str, cards=(), *, die: str | None = None, die_note: str = "") -> None:
        cards = tuple(cards)
        if (kind, cards, die, die_note) == (self.kind, self.cards, self.die, self.die_note):
            return
        self.kind, self.cards, self.die, self.die_note = kind, cards, die, die_note
        self.redraw()

    def clear(self) -> None:
        self.show(self.kind, ())

    # -------------------------------------------------------------- layout

    def _layout(self, width: int) -> list[tuple[int, int]]:
        n = len(self.cards)
        if not n:
            return []
        card_w, gap, _ = KINDS[self.kind]
        if self.die is not None:
            width -= DIE_WIDTH + 1
        if self.kind == "riders":  # as wide as there is room, up to card_w
            card_w = max(MIN_WIDTH, min(card_w, (width - (n - 1) * gap) // n))
        elif self.large:
            # wide enough for the widest value in big digits (3 columns a character)
            card_w = max(card_w, 4 + 3 * max(len(c.big) for c in self.cards))
        if self.kind != "riders" and n * card_w + (n - 1) * gap > width:
            gap = 0  # cards side by side first, narrower cards only if need be
            least = MIN_REVEALED if self.kind == "revealed" else MIN_WIDTH
            card_w = max(least, min(card_w, width // n))
        return [(k * (card_w + gap), card_w) for k in range(n)]

    def draw(self, width: int, height: int) -> list[Strip]:
        rows: list[list[Segment]] = [[] for _ in range(height)]
        filled = [0] * height
        boxes = self._layout(width)

        def put(y: int, x: int, text: str, style: Style) -> None:
            if y >= height or not text:
                return
            if filled[y] < x:
                rows[y].append(Segment(" " * (x - filled[y]), BLANK))
                filled[y] = x
            rows[y].append(Segment(text, style))
            filled[y] += len(text)

        align = KINDS[self.kind][2]
        card_h = 3 if self.kind == "revealed" else 4
        if self.large and self.kind != "riders":
            # the value in three lines of big digits: over the hand's lines, instead of a revealed card's one
            card_h += 2 if self.kind == "revealed" else 3
        # a line one card has to shorten is shortened on every card ("12 · 57 to go" beside
        # "square 13 · 56 to go" read as two different things)
        narrow = frozenset(k for card, (_x, w) in zip(self.cards, boxes) for k, text in enumerate(card.lines)
                           if k < len(card.narrow) and card.narrow[k] and len(text) > self._room(w, align))
        for card, (x, w) in zip(self.cards, boxes):
            self._box(put, card, x, w, min(card_h, height), align, narrow=narrow)
        if self.die is not None:
            x = boxes[-1][0] + boxes[-1][1] + 2 if boxes else 0
            x = min(x, width - DIE_WIDTH)
            glyphs = big_digit(self.die[:3])
            box = Card(_("Die"), tuple(g.center(DIE_WIDTH - 2) for g in glyphs))
            self._box(put, box, x, DIE_WIDTH, min(5, height), "center", border=DIE_BORDER, all_bold=True)
            if self.die_note and height > 5:
                put(5, x, self.die_note[:DIE_WIDTH].center(DIE_WIDTH), NOTE)
        strips = []
        for y in range(height):
            if filled[y] < width:
                rows[y].append(Segment(" " * (width - filled[y]), BLANK))
            strips.append(Strip(rows[y], max(width, filled[y])).crop(0, width))
        return strips

    def _box(self, put, card: Card, x: int, w: int, h: int, align: str, border: Style | None = None,
             all_bold: bool = False, narrow: frozenset[int] = frozenset()) -> None:
        """One card; `narrow`: the body lines drawn in their fewer words whatever
        their length (a line another card of the row shortens: the row reads alike)."""
        heavy = card.selected or card.active
        tl, tr, bl, br, hz, vt = HEAVY if heavy else ROUND
        if border is None:
            border = SELECTED_BORDER if card.selected else ACTIVE_BORDER if card.active else BORDER
        body = SELECTED_BODY if card.selected else BLANK
        inner = w - 2
        room = self._room(w, align)
        lines = tuple(card.narrow[k] if (len(text) > room or k in narrow) and k < len(card.narrow) and card.narrow[k]
                      else text for k, text in enumerate(card.lines))
        big = 0  # body lines drawn in big digits
        if self.large and card.big and h >= 5 and inner >= 3 * len(card.big):
            # the value large, then the lines under it (the first no longer if it is the value alone)
            under = lines[1:] if lines and lines[0].strip() == card.big else lines
            lines = tuple(big_digit(card.big)) + tuple(under)
            big = 3
        # top border with the title
        title = card.title[: max(0, inner - 2)] if inner > 4 else card.title[:inner]
        lead = hz if inner > len(title) + 1 else ""
        pad = " " if inner > len(title) + 2 else ""
        rest = inner - len(lead) - len(pad) * 2 - len(title)
        put(0, x, tl + lead + pad, border)
        tstyle = CURSOR_TITLE if card.cursor else (card.title_style or TITLE)
        put(0, x + 1 + len(lead) + len(pad), title, tstyle)
        put(0, x + 1 + len(lead) + len(pad) + len(title), pad + hz * max(0, rest) + tr, border)
        for y in range(1, h - 1):
            k = y - 1
            text = lines[k] if k < len(lines) else ""
            if len(text) > room:  # cut with a mark: "faltan 1" for "faltan 17" read as a number
                text = text[:max(0, room - 1)] + "…" if room > 1 else text[:room]
            if align == "left":
                text = (" " + text).ljust(inner) if room < inner else text.ljust(inner)
            else:
                text = text.center(inner)
            style = VALUE if (k <= big or all_bold) else NOTE
            put(y, x, vt, border)
            put(y, x + 1, text, body + style)
            put(y, x + 1 + inner, vt, border)
        if h >= 2:
            foot = card.foot if len(card.foot) <= inner - 2 or not card.foot_narrow else card.foot_narrow
            foot = foot[:max(0, inner)]
            if foot and len(foot) > inner - 2:  # "╰+E 60%╯": a long mark without the blanks around it
                put(h - 1, x, bl, border)
                put(h - 1, x + 1, foot, body + VALUE)
                put(h - 1, x + 1 + len(foot), hz * (inner - len(foot)) + br, border)
            elif foot:  # "╰─ +E? ─╯": the mark in the border, as the title is in the top one
                left = hz if inner >= len(foot) + 3 else ""
                put(h - 1, x, bl + left + " ", border)
                put(h - 1, x + 2 + len(left), foot, body + VALUE)
                put(h - 1, x + 2 + len(left) + len(foot), " " + hz * max(0, inner - len(left) - len(foot) - 2) + br,
                    border)
            else:
                put(h - 1, x, bl + hz * inner + br, border)

    @staticmethod
    def _room(w: int, align: str) -> int:
        """The cells for words in a card `w` wide: left-aligned words keep a blank
        cell at each border ("│pioche 15, 0 visibles│" touched both)."""
        inner = w - 2
        return inner - 2 if align == "left" and inner > 4 else inner

    # ---------------------------------------------------------------- mouse

    def boxes(self) -> list[tuple[int, int]]:
        """(x, width) of each card shown, in the row's content."""
        return self._layout(self.size.width)

    def card_at(self, x: int) -> int | None:
        for k, (bx, w) in enumerate(self.boxes()):
            if bx <= x < bx + w:
                return k
        return None

    def on_click(self, event: Click) -> None:
        event.stop()
        offset = event.get_content_offset(self)
        if offset is None:
            return
        k = self.card_at(offset.x)
        if k is not None and self.kind != "revealed":
            self.post_message(CardClicked(self.kind, k))
