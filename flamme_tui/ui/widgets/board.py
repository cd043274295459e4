"""Player boards: per rider, what everybody may know about its cards.

The rows come from a View only (`board_rows`): other seats' piles as they were
before this round's draws, the viewer's own piles as they are now.  Nothing
here looks at the game's private state.

The table explains itself: its header is in words (as short as the width
needs), squares are counted from the start line with the distance to the
finish line beside them, exhaustion cards are counted held (received and
handicap, not yet played) and played, and the recycled cards are summarised
by value ("2×3 1×4 E×2") so they are never cut.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cache

from rich.text import Text
from textual.content import Content

from ...engine.cards import EXHAUSTION, card_text, starting_deck
from ...engine.course import Course
from ...engine.events import token_text
from ...engine.tour import gap_text
from ...i18n import _, pgettext
from ...play.narrator import label as square_label
from ...play.narrator import to_go
from ...usertext import cells, clean, fit
from ..palette import FINISH_GLYPH, contrast_text, rider_label, team_of_rider
from .lines import TextLines

# cells between the recycled piles and the cards played: with one, "4×E 9 9 5" read as one pile
GAP = 2


@dataclass(frozen=True, slots=True)
class BoardRow:
    index: int
    seat: int
    label: str  # "BS"
    hex: str
    name: str  # team name + rider kind
    square: int  # the engine's square (shown in the public numbering)
    crashed: bool
    deck: int  # face-down cards (bmx: tokens in the bag)
    recycled: tuple[int, ...]  # face-up recycled cards (bmx: none)
    exhaustion: int  # exhaustion cards (bmx: fatigue tokens) received
    played: tuple  # cards (bmx: token tuples) played and revealed
    own: bool  # the viewer's own rider
    handicap: int = 0  # exhaustion cards the rider started with (classic)
    supply_played: int = 0  # exhaustion cards played straight from the supply (classic)
    ready: bool = False  # its card for this round is down (face down: only that it is)
    to_go: int = 0  # squares to the finish line
    jersey: bool = False  # a tour: the rider in the yellow jersey (the GC leader), marked ◆
    finished: bool = False  # a tour: across the line, it has left the track
    stage_time: int | None = None  # a tour: a finished rider's stage time (a gap to the stage's first)
    widest_recycled: int = 0  # the widest its recycled pile's summary can be in the race (`widest_recycled`)

    @property
    def exhaustion_held(self) -> int:
        """Exhaustion cards still in the rider's piles (or hand)."""
        played = sum(1 for c in self.played if c == 0) - self.supply_played
        return self.handicap + self.exhaustion - played

    @property
    def exhaustion_played(self) -> int:
        return sum(1 for c in self.played if c == 0)


JERSEY = "bold #F0E442"  # the yellow jersey's mark (◆: readable without colour too)


def team_part(name: str) -> str:
    """A rider's name without its kind ("Bleu Sprinteur" -> "Bleu"); a BMX rider's
    name is its team's, whole ("Les Grimpeurs": its last word is no kind)."""
    return name.rsplit(" ", 1)[0] if name.endswith(("Sprinteur", "Rouleur")) else name


def stage_time_text(seconds: int) -> str:
    """A finished rider's stage time (its gap to the winner) in five cells at
    most, after the finish line's ▓ (a bare "0:00" in the "to go" column read
    as no time to go): "▓0:00", "▓1:20", whole minutes from ten ("▓12'")."""
    text = gap_text(seconds).lstrip("+")
    return FINISH_GLYPH + (text if len(text) <= 4 else f"{seconds // 60}'")


def token_str(tokens: tuple[int, ...]) -> str:
    return "+".join(token_text(t) for t in tokens)


def summary(cards) -> str:
    """Cards by value, highest first, exhaustion last: "2×9 1×4 E×2" ("-" when none)."""
    counts = Counter(cards)
    order = sorted((c for c in counts if c > 0), reverse=True) + [c for c in (-1, 0) if c in counts]
    return " ".join(f"{counts[c]}×{card_text(c)}" for c in order) or "-"


def piled(cards, counted: bool = False) -> str:
    """Cards as the compact boards write them, highest first, exhaustion last,
    each card plainly one card: "9 5 4 4 3 3 3 E" is one 9, one 5, two 4s,
    three 3s and an exhaustion card.  `counted` (a row short of room): a value
    held more than once counted as the wide boards count it, "9 5 2×4 3×3 EE".
    Cards packed together read as other numbers ("44" as forty-four)."""
    counts = Counter(cards)
    order = sorted((c for c in counts if c > 0), reverse=True) + [c for c in (-1, 0) if c in counts]
    if counted:  # (exhaustion cards side by side: "EE" is no number)
        return " ".join(card_text(c) * counts[c] if c <= 0 or counts[c] == 1 else f"{counts[c]}×{card_text(c)}"
                        for c in order) or "-"
    return " ".join(" ".join([card_text(c)] * counts[c]) for c in order) or "-"


@cache  # (a few starting decks a race; the boards ask at every redraw)
def widest_recycled(deck: tuple[int, ...]) -> int:
    """The widest the summary of a recycled pile can be in a race a rider starts
    with `deck`: every card of it there, and exhaustion cards by the tens ("E×12")."""
    return len(summary(deck + (EXHAUSTION,) * 10))


def board_rows(view, team_names: list[str], ready=frozenset(), jersey: int | None = None) -> list[BoardRow]:
    """One row per rider, from `view` (its seat's own piles shown as they are now).
    `ready`: riders whose card for this round is down (a public fact);
    `jersey`: the rider in the yellow jersey (a tour)."""
    board = view.board
    rows = []
    bmx = board.rules.uses_tokens
    course = board.course
    for r in board.riders:
        own = r.seat == view.seat and r.index in view.own
        deck, recycled = r.deck, r.recycled
        if own and not bmx:
            deck, recycled = view.own[r.index][0], view.own[r.index][1]
        kind = {"S": "Sprinteur", "R": "Rouleur"}.get(r.kind, "")
        name = clean(team_names[r.seat], multiline=False) + (f" {kind}" if kind else "")
        deck_at_start = () if bmx else starting_deck(board.setup, r.seat, r.kind)
        handicap = deck_at_start.count(EXHAUSTION)
        rows.append(BoardRow(
            r.index, r.seat, rider_label(r.id, r.kind), team_of_rider(r.id).hex, name,
            r.square, r.crashed, deck, tuple(sorted(recycled)), r.exhaustion, tuple(r.history), own,
            handicap, 0 if bmx else r.from_supply, r.index in ready, to_go(course, r.square),
            r.index == jersey, r.index in board.crossed, widest_recycled=0 if bmx else widest_recycled(deck_at_start),
        ))
    return rows


class Boards(TextLines):
    """The riders' boards as a small table (its rows repainted when they change)."""

    DEFAULT_CSS = """
    Boards { height: auto; width: 1fr; text-wrap: nowrap; text-overflow: ellipsis; }
    """

    def __init__(self, *, id=None, classes=None) -> None:
        super().__init__("", id=id, classes=classes)
        self.rows: list[BoardRow] = []
        self.variant = "classic"
        self.supply: int | None = None
        self.course: Course | None = None
        self.columns = 1  # 2: the riders side by side, a compact row each (many riders, a small window)
        self._with_square = True
        self._bmx_w = (3, 3)  # the compact rows' bag and fatigue columns (their headings' words)

    def set_columns(self, columns: int, riders: int) -> None:
        """One table, or the `riders` in two compact columns (the height follows)."""
        if columns != self.columns:
            self.columns = columns
            self.styles.height = self.fixed_height(riders, columns)
            self._draw()

    def show(self, rows: list[BoardRow], variant: str, supply: int | None = None, course: Course | None = None) -> None:
        if (rows, variant, supply) == (self.rows, self.variant, self.supply) and course is self.course:
            return
        self.rows = rows
        self.variant = variant
        self.supply = supply
        self.course = course
        self._draw()

    def on_resize(self) -> None:
        self._draw()

    def draw_again(self) -> None:
        """Draw the rows again (the language changed: the headings are words)."""
        self._draw()

    @staticmethod
    def fixed_height(riders: int, columns: int = 1) -> int:
        """Lines the table takes: a header and a row per rider (per two riders in two columns)."""
        return 1 + -(-riders // columns)

    @staticmethod
    def columns_for(riders: int, height: int, width: int, crowded: bool = False) -> int:
        """Two columns when many riders (more than 4 teams' worth) meet a window
        too short for a row each beside the track and the cards, or more than
        4 riders when a row each leaves the lines above them too few (`crowded`:
        the race screen's hint under the cards, RaceScreen.hint_room)."""
        return 2 if (riders > 8 or (crowded and riders > 4)) and height < 44 and width >= 76 else 1

    def _square(self, row: BoardRow) -> str:
        if self.course is None:
            return "-" if row.square < 0 else str(row.square)
        return square_label(self.course, row.square)

    @staticmethod
    def _to_go(row: BoardRow) -> str:
        if row.finished:
            return "in" if row.stage_time is None else stage_time_text(row.stage_time)
        if row.square < 0:
            return "-"
        return str(row.to_go) if row.to_go > 0 else "over"

    def _draw(self) -> None:
        if not self.rows:
            self.update("", layout=False)
            return
        if self.columns == 2:
            self._draw_columns()
            return
        width = max(40, self.size.width or 80)
        wide = width >= 100
        from ...engine.rules import find

        bmx = find(self.variant).uses_tokens
        names = [r.name if wide else r.name.rsplit(" ", 1)[0] if r.name.endswith(("Sprinteur", "Rouleur")) else r.name
                 for r in self.rows]
        text = Text(no_wrap=True, overflow="ellipsis")
        # mark, label, name, square, to go, ready mark; "to go" is as wide as its
        # column (the crash mark's cell and 4 digits), so it ends where its numbers do
        # (the headings in the player's language: each translation keeps to its column's width)
        who, where, to_go_head = (_("Rider") if wide else _("Team")), (_("Square") if wide else _("Sq")), _("to go")
        recycled_head = _("Recycled (face up)") if wide else _("Recycled")
        sq_w, go_w = max(6 if wide else 3, cells(where)), max(5, cells(to_go_head))
        rec_texts = [summary(r.recycled) for r in self.rows] if not bmx else []
        rec_w = max([len(t) for t in rec_texts] + [len(recycled_head)]) if not bmx else 0
        longest = max(cells(n) for n in names)
        played_w = max(len(self._played(r, bmx)) for r in self.rows)

        def columns(whole: bool) -> list[tuple[str, int]]:
            """The card columns' headings and widths, each as wide as its heading in words
            ("Casilla", "Pioche"), its numbers under its end; `whole`: the long headings."""
            if bmx:
                cols = [(_("Bag"), 3), (_("Fatigue") if whole else _("Fat"), 3)]
            else:
                cols = [(_("Deck"), 4), (_("Exhaustion held/played") if whole else _("E held/played"), 3),
                        (recycled_head, 0)]
            return [(title, max(w, cells(title)) if w else 0) for title, w in cols]

        def beside(cols: list[tuple[str, int]], played: int, recycled: int = rec_w) -> int:
            """The cells a row takes besides its name, `played` cells of cards played last
            (`recycled`: the recycled piles' column)."""
            after = f" {where:>{sq_w}} {to_go_head:>{go_w}}   " + "".join(f"{title:>{w}} " for title, w in cols if w)
            return 4 + len(after) + (0 if bmx else recycled + GAP) + played

        # the headings in whole words where the names and a few cards played fit beside them
        # (the short ones, "E held/played", "Fat", in a narrow window); chosen from what the
        # columns can hold in this race, the widest recycled pile a rider can have and 9 cells
        # of cards played, not from what they hold now: the heading changed as the piles grew
        reached = max([rec_w] + [r.widest_recycled for r in self.rows]) if not bmx else 0
        cols = columns(wide or beside(columns(True), 9, reached) + longest <= width)
        if wide:
            # a long name (up to 30 characters and the rider's kind) takes what the other columns
            # leave it, a few cards played after them
            name_w = max(4, min(longest, max(20, width - beside(cols, 9))))
        else:
            # the names whole if the columns, as wide as what they hold now, and a few cards
            # played leave them room; cut (…) only then
            name_w = max(4, min(longest, width - beside(cols, min(max(played_w, 1), 9))))
        head = f"{'':3} {who:<{name_w}} {where:>{sq_w}} {to_go_head:>{go_w}}   "
        for title, w in cols:
            head += f"{title:>{w}} " if w else f"{title}"
        text.append(head, style="bold #bbbbbb")
        fixed = len(head) - (len(cols[-1][0]) if not bmx else 0)
        play_x = fixed if bmx else fixed + rec_w + GAP  # (BMX: no piles; its tokens right after the fatigue)
        play_w = max(6, width - play_x)
        pad = " " * max(0, play_x - len(head))
        text.append(pad + _("Played"), style="bold #bbbbbb")
        if bmx and self.supply is not None:
            # the words that fit after the heading, the number always (cut, "reserva de fichas…" lost it)
            used = cells(head + pad + _("Played"))
            supply = next((said for said in ("   " + _("fatigue supply: {n}").format(n=self.supply),
                                             "   " + _("supply: {n}").format(n=self.supply))
                           if used + cells(said) <= width), f" {self.supply}")
            text.append(supply, style="#bbbbbb")
        text.append("\n")
        for k, (row, shown_name) in enumerate(zip(self.rows, names)):
            text.append("▸" if row.own else " ", style="bold")
            text.append(row.label.lower() if row.crashed else row.label,
                        style=f"bold {contrast_text(row.hex)} on {row.hex}")
            name = fit(shown_name, name_w)
            if row.jersey:  # the yellow jersey (a tour)
                text.append("◆", style=JERSEY)
                text.append(name)
            else:
                text.append(f" {name}")
            text.append(f" {self._square(row):>{sq_w}}")
            text.append("_" if row.crashed else " ", style="bold #D55E00")
            go = self._to_go(row)
            # "in" (across the line, a tour) and "over" (past it) in five cells at most
            shown = {"in": pgettext("to go", "in"), "over": pgettext("to go", "over")}.get(go, go)
            text.append(f"{shown:>{go_w}} ")
            text.append("✓ " if row.ready else "  ", style="bold #009E73")
            if bmx:
                text.append(f"{row.deck:>{cols[0][1]}} {row.exhaustion:>{cols[1][1]}} ")
            else:
                exh = f"{row.exhaustion_held}/{row.exhaustion_played}"
                text.append(f"{row.deck:>{cols[0][1]}} {exh:>{cols[1][1]}} ")
                text.append(f"{rec_texts[k]:<{rec_w + GAP}}")
            played = self._played(row, bmx)
            if len(played) > play_w:  # the latest cards, and how many in all ("(9) … 5 4 3", never "…5")
                count = f"({len(row.played)}) … "
                played = count + played[len(played) - (play_w - len(count)):].lstrip()
            text.append(played or "-")
            text.append("\n")
        text.rstrip()
        # the table keeps its size (fixed height in the race screen): no new layout
        self.update(text, layout=self.styles.height is None or not self.styles.height.is_cells)

    @staticmethod
    def _played(row: BoardRow, bmx: bool) -> str:
        """The cards (tokens) the rider played, in order."""
        return " ".join(token_str(t) for t in row.played) if bmx else " ".join(card_text(c) for c in row.played)

    def _draw_columns(self) -> None:
        """Two columns of compact rows: label, team, square, to go, card down,
        deck, exhaustion held/played and the recycled cards (counted: "9 5 2×4
        3×3" is one 9, one 5, two 4s, three 3s), and where a column has
        room the latest cards played after a "·" (all of them in the race
        log).  Teams of two riders in a narrow window: a row a team
        (`_draw_teams`), its name written once and in full."""
        width = max(60, self.size.width or 80)
        col_w = (width - 1) // 2
        if col_w < 56 and self._teams_of_two():
            self._draw_teams(width)
            return
        from ...engine.rules import find

        bmx = find(self.variant).uses_tokens
        half = -(-len(self.rows) // 2)
        longest = max(cells(team_part(r.name)) for r in self.rows)
        self._with_square = col_w >= 50  # a narrow column leaves the square to the track: "to go" says enough
        # what a row holds besides its name: mark, label, jersey, square, crash mark, to go, ready mark,
        # then the piles as they are now (the recycled cards never cut), a blank cell last (nothing
        # runs into the column separator); the name as long as the longest, cut (…) only if they leave
        # it too little room (down to 3 letters: the label, team letter on its colour, says whose row)
        fixed = 1 + 2 + 1 + (1 + self._sq_w()) * self._with_square + 1 + 2 + 3
        if bmx:
            # the bag's and the fatigue's headings in whole words ("Bolsa Fatiga") where the names
            # stay whole beside them, else the short ones
            bag = _("Bag")
            fat = _("Fatigue") if fixed + cells(bag) + 1 + cells(_("Fatigue")) + 1 + longest <= col_w else _("Fat")
            self._bmx_w = (max(3, cells(bag)), max(3, cells(fat)))
            needed = fixed + self._bmx_w[0] + 1 + self._bmx_w[1] + 1
        else:
            needed = max(fixed + self._deck_w() + 1 + len(f"{r.exhaustion_held}/{r.exhaustion_played} ")
                         + len(piled(r.recycled, True)) + 1 for r in self.rows)
        name_w = max(3, min(longest, col_w - needed))
        sq, team, go = _("Sq"), _("Team"), _("go")
        square = f" {sq:>{self._sq_w()}}" if self._with_square else ""
        deck_head, exh_head, pile_head = self._cards_head()
        # (the deck's heading may take the ready mark's cells: "→| Mazo")
        if bmx:
            cards = f"   {bag:>{self._bmx_w[0]}} {fat:>{self._bmx_w[1]}}"
        else:
            cards = f"{deck_head:>{3 + self._deck_w()}} {exh_head:<3} {pile_head}"
        head = f"{'':3} {team:<{name_w}}{square} {go:>2}" + cards
        if not bmx and col_w >= 56:  # the rows end with the latest cards played (see `_compact`): named too
            head += " · " + _("Played")
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append(f"{head:<{col_w}} {head}"[:width], style="bold #bbbbbb")
        for k in range(half):
            text.append("\n")
            for n, row in enumerate(self.rows[k::half][:2]):
                if n:
                    text.append("│", style="#5a5a5a")
                self._compact(text, row, col_w, name_w, bmx)
        self.update(text, layout=self.styles.height is None or not self.styles.height.is_cells)

    def _teams_of_two(self) -> bool:
        """Every seat races a Sprinteur and a Rouleur, one after the other (not
        the 7-12-player game, where each seat races one rider)."""
        from ...engine.rules import find

        rows = self.rows
        return (len(rows) % 2 == 0 and not find(self.variant).uses_tokens
                and all(a.seat == b.seat for a, b in zip(rows[::2], rows[1::2], strict=True))
                and len({r.seat for r in rows}) == len(rows) // 2)

    def _draw_teams(self, width: int) -> None:
        """A row a team, its two riders side by side: the team's name once, in
        full, then for each rider its label, to go, card down, deck, exhaustion
        held/played and recycled cards.  Two rider rows of a team in two narrow
        columns left 8 cells to a name ("Vermi…", longer in French and Spanish)
        and the growing recycled piles took even those; a team's row has a name
        written once and room for both piles.  Piles too long for the row are
        counted ("7 3×6 2×5 3×4 3×3 E", not "7 6 6 6 5 5 ..."), then one blank
        parts a team's riders instead of two; only then does the name give way
        (the label, team letter on its colour, still says whose)."""
        rows = self.rows
        teams = [rows[k:k + 2] for k in range(0, len(rows), 2)]
        names = [r.name.rsplit(" ", 1)[0] if r.name.endswith(("Sprinteur", "Rouleur")) else r.name
                 for r in rows[::2]]
        gos = ["--" if g == "over" else g for g in (self._to_go(r) for r in rows)]
        go_w = max(2, *(cells(g) for g in gos))
        exhs = [f"{r.exhaustion_held}/{r.exhaustion_played}" for r in rows]
        exh_w = max(3, *(len(e) for e in exhs))
        name_w = max(4, *(cells(n) for n in names))

        def piles(counted: bool) -> list[str]:
            return [piled(r.recycled, counted) for r in rows]

        deck_head, exh_head, pile_head = self._cards_head()
        deck_w, sq_w = self._deck_w(), self._sq_w()

        def first_pile(shown: list[str]) -> int:  # the first rider's pile column (the second's is last)
            return max(cells(pile_head), *(cells(p) for p in shown[::2]))

        def room(square: bool, shown: list[str], gap: int) -> int:
            """Cells the rows need besides the name, a blank cell last."""
            block = 2 + (1 + sq_w) * square + 1 + go_w + 3 + deck_w + 1 + exh_w + 1
            # the second pile's column as wide as its heading too: the heading row is no longer than a rider's
            return (1 + 1 + 2 * block + first_pile(shown) + gap + max(cells(pile_head), *(cells(p) for p in shown[1::2]))
                    + 1)

        # the square as in the rider rows: a narrow window leaves it to the track ("to go" says enough)
        square = (width - 1) // 2 >= 50
        for counted, gap in ((False, 2), (True, 2), (True, 1)):  # each card apart, counted, closer together
            shown = piles(counted)
            if room(square, shown, gap) + name_w <= width:
                break
        else:  # the name gives way: the riders parted as usual
            gap = 2
        name_w = max(3, min(name_w, width - room(square, shown, gap)))
        pile_w = first_pile(shown)
        self._with_square = square
        text = Text(no_wrap=True, overflow="ellipsis")
        # (the deck's heading may take the ready mark's cells: "→| Mazo")
        cards = f"{deck_head:>{3 + deck_w}} {exh_head:<{exh_w}} "
        sq = f" {_('Sq'):>{sq_w}}" if square else ""
        block = f"{'':2}{sq} {_('go'):>{go_w}}{cards}"
        text.append(f" {_('Team'):<{name_w}} " + block + fit(pile_head, pile_w) + " " * gap + block + pile_head,
                    style="bold #bbbbbb")
        for k, team in enumerate(teams):
            text.append("\n")
            text.append("▸" if team[0].own else " ", style="bold")
            text.append(fit(names[k], name_w))
            for n, row in enumerate(team):
                i = 2 * k + n
                text.append(" " * gap if n else " ")
                text.append(row.label.lower() if row.crashed else row.label,
                            style=f"bold {contrast_text(row.hex)} on {row.hex}")
                if square:
                    text.append(f" {self._square(row):>{sq_w}}")
                # (blanks unstyled: a styled one is not a blank to what reads the screen as text;
                # the yellow jersey's ◆ where a crash's mark would be: a crashed rider's label is lower case)
                if row.crashed:
                    text.append("_", style="bold #D55E00")
                elif row.jersey:
                    text.append("◆", style=JERSEY)
                else:
                    text.append(" ")
                text.append(f"{gos[i]:>{go_w}}")
                if row.ready:
                    text.append(" ✓ ", style="bold #009E73")
                else:
                    text.append("   ")
                text.append(f"{row.deck:>{deck_w}} {exhs[i]:<{exh_w}} ")
                text.append(fit(shown[i], pile_w) if n == 0 else shown[i])
        self.update(text, layout=self.styles.height is None or not self.styles.height.is_cells)

    @classmethod
    def _deck_w(cls) -> int:
        """The compact boards' deck column: two digits; its heading's word may also take two of the
        ready mark's three cells before it ("Mazo" over "✓ 15"), a longer one widens it ("Pioche")."""
        return max(2, cells(cls._cards_head()[0]) - 2)

    @staticmethod
    def _sq_w() -> int:
        """The compact boards' square column: a label ("G2", "71"), or its heading's word if longer ("Casilla")."""
        return max(3, cells(_("Sq")))

    @staticmethod
    def _cards_head() -> tuple[str, str, str]:
        """The deck's, the exhaustion's and the recycled pile's headings, from
        the compact board's one heading ("Dk E   Recycled") in the player's language."""
        import re

        found = re.fullmatch(r"(\S+) (\S+)\s+(.*)", _("Dk E   Recycled"))
        return (found[1], found[2], found[3]) if found else ("", "", _("Dk E   Recycled"))

    def _compact(self, text: Text, row: BoardRow, width: int, name_w: int, bmx: bool) -> None:
        start = len(text.plain)
        text.append("▸" if row.own else " ", style="bold")
        text.append(row.label.lower() if row.crashed else row.label, style=f"bold {contrast_text(row.hex)} on {row.hex}")
        name = team_part(row.name)
        go = self._to_go(row)
        # the yellow jersey (a tour) between the label and the name, as in the one-column table
        text.append("◆" if row.jersey else " ", style=JERSEY if row.jersey else "")
        text.append(fit(name, name_w) + (f" {self._square(row):>{self._sq_w()}}" if self._with_square else ""))
        text.append("_" if row.crashed else " ", style="bold #D55E00")
        text.append(f"{'--' if go == 'over' else go:>2}")
        text.append(" ✓ " if row.ready else "   ", style="bold #009E73")
        if bmx:
            text.append(f"{row.deck:>{self._bmx_w[0]}} {row.exhaustion:>{self._bmx_w[1]}}")
        else:
            text.append(f"{row.deck:>{self._deck_w()}} {row.exhaustion_held}/{row.exhaustion_played} "
                        f"{piled(row.recycled, True)}")
            if width >= 56 and row.played:  # room for the latest cards played
                room = width - cells(text.plain[start:]) - 3
                played = " ".join(card_text(c) for c in row.played)
                if room >= 6:
                    text.append(" · " + (played if len(played) <= room else "…" + played[-(room - 1):]), style="#bbbbbb")
        used = cells(text.plain[start:])
        if used > width - 1:  # a blank cell last: nothing runs into the column separator
            text.right_crop(used - width + 2)
            text.append("… ")
        else:
            text.append(" " * (width - used))

    def lines(self) -> list[str]:
        """The rendered rows as plain text (tests)."""
        visual = self.visual  # what update() made of the Text
        return visual.plain.splitlines() if isinstance(visual, Content) else []
