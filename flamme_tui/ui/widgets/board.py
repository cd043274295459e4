"""Player boards: per rider, what everybody may know about its cards.

The rows come from a View only (`board_rows`): other seats' piles as they were
before this round's draws, the viewer's own piles as they are now.  Nothing
here looks at the game's private state.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.widgets import Static

from ...usertext import clean
from ..palette import contrast_text, rider_label, team_of_rider


@dataclass(frozen=True, slots=True)
class BoardRow:
    index: int
    seat: int
    label: str  # "BS"
    hex: str
    name: str  # team name + rider kind
    square: int
    crashed: bool
    deck: int  # face-down cards (bmx: tokens in the bag)
    recycled: tuple[int, ...]  # face-up recycled cards (bmx: none)
    exhaustion: int  # exhaustion cards (bmx: fatigue tokens) taken
    played: tuple  # cards (bmx: token tuples) played and revealed
    own: bool  # the viewer's own rider


def card_str(card: int) -> str:
    return {0: "E", -1: "A"}.get(card) or str(card)  # exhaustion, the Peloton's Attack


def token_str(tokens) -> str:
    return "+".join("F" if t == 0 else str(t) for t in tokens)


def board_rows(view, team_names: list[str]) -> list[BoardRow]:
    """One row per rider, from `view` (its seat's own piles shown as they are now)."""
    board = view.board
    rows = []
    bmx = board.rules.uses_tokens
    for r in board.riders:
        own = r.seat == view.seat and r.index in view.own
        deck, recycled = r.deck, r.recycled
        if own and not bmx:
            deck, recycled = view.own[r.index][0], view.own[r.index][1]
        kind = {"S": "Sprinteur", "R": "Rouleur"}.get(r.kind, "")
        name = clean(team_names[r.seat], multiline=False) + (f" {kind}" if kind else "")
        rows.append(BoardRow(
            r.index, r.seat, rider_label(r.id, r.kind), team_of_rider(r.id).hex, name,
            r.square, r.crashed, deck, tuple(sorted(recycled)), r.exhaustion, tuple(r.history), own,
        ))
    return rows


class Boards(Static):
    """The riders' boards as a small table (normal widget, not the Line API)."""

    DEFAULT_CSS = """
    Boards { height: auto; width: 1fr; }
    """

    def __init__(self, *, id=None, classes=None) -> None:
        super().__init__("", id=id, classes=classes)
        self.rows: list[BoardRow] = []
        self.variant = "classic"
        self.supply: int | None = None

    def show(self, rows: list[BoardRow], variant: str, supply: int | None = None) -> None:
        if (rows, variant, supply) == (self.rows, self.variant, self.supply):
            return
        self.rows = rows
        self.variant = variant
        self.supply = supply
        self._draw()

    def on_resize(self) -> None:
        self._draw()

    @staticmethod
    def fixed_height(riders: int) -> int:
        """Lines the table takes: a header and a row per rider."""
        return 1 + riders

    def _draw(self) -> None:
        if not self.rows:
            self.update("", layout=False)
            return
        width = max(40, self.size.width or 80)
        wide = width >= 64
        from ...engine.rules import find

        bmx = find(self.variant).uses_tokens
        names = [r.name if wide else r.name.rsplit(" ", 1)[0] if r.name.endswith(("Sprinteur", "Rouleur")) else r.name
                 for r in self.rows]
        name_w = min(max(len(n) for n in names), 18 if wide else 10)
        text = Text(no_wrap=True, overflow="ellipsis")
        # " ▸BS name  sq_dk ...": mark, label, name, square (+ "_" when crashed), deck
        fixed = 1 + 2 + 1 + name_w + 4 + 1 + 3
        if bmx:
            # ... fat played
            play_w = max(4, width - fixed - 5)
            head = f"{'':3} {'Team':<{name_w}} {'Sq':>3} {'Bag':>3} {'Fat':>3} Played"
            if self.supply is not None:
                note = f"fatigue supply: {self.supply}"
                head = f"{head:<{max(len(head) + 2, width - len(note) - 1)}}{note}"
        else:
            # ... ex recycled [played]: narrow tables leave the played cards to the race log
            rest = max(8, width - fixed - 4)
            rec_w = rest * 11 // 20 if wide else rest - 1
            play_w = rest - rec_w - 2 if wide else 0
            head = (f"{'':3} {'Team':<{name_w}} {'Sq':>3} {'Dk':>3} {'Ex':>2} "
                    f"{'Recycled (face up)' if rec_w >= 18 else 'Recycled':<{rec_w}}" + (" Played" if wide else ""))
        text.append(head[:width] + "\n", style="bold #bbbbbb")
        for row, shown_name in zip(self.rows, names):
            text.append("▸" if row.own else " ", style="bold")
            text.append(row.label.lower() if row.crashed else row.label,
                        style=f"bold {contrast_text(row.hex)} on {row.hex}")
            name = shown_name if len(shown_name) <= name_w else shown_name[: name_w - 1] + "…"
            text.append(f" {name:<{name_w}}")
            square = "-" if row.square < 0 else str(row.square)
            text.append(f" {square:>3}")
            if row.crashed:
                text.append("_", style="bold #D55E00")
            else:
                text.append(" ")
            text.append(f"{row.deck:>3}")
            if bmx:
                text.append(f" {row.exhaustion:>3} ")
                played = " ".join(token_str(t) for t in row.played)
            else:
                rec = " ".join(card_str(c) for c in row.recycled) or "-"
                if len(rec) > rec_w:
                    rec = rec[: rec_w - 1] + "…"
                text.append(f" {row.exhaustion:>2} {rec:<{rec_w}}")
                played = " ".join(card_str(c) for c in row.played) if wide else ""
                if wide:
                    text.append(" ")
            if len(played) > play_w:
                played = "…" + played[-(play_w - 1):]
            if bmx or wide:
                text.append(played or "-")
            text.append("\n")
        text.rstrip()
        # the table keeps its size (fixed height in the race screen): no new layout
        self.update(text, layout=self.styles.height is None or not self.styles.height.is_cells)

    def lines(self) -> list[str]:
        """The rendered rows as plain text (tests)."""
        return self.render().plain.splitlines() if hasattr(self.render(), "plain") else []
