"""A tour's standings during a stage (the race screen's `g`, and the palette):
the GC before the stage, the stage as it stands (who has finished and in
what time, the others' gaps on the road) and the live GC they make.  Drawn
from play.standings (Table.standings: the public board only)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static

from ...engine.tour import gap_text
from ...i18n import N_, _
from ...play.standings import StandingLine, Standings
from ...usertext import cells, clean, fit
from ...words import team_name, tour_name
from ..palette import contrast_text, rider_label, team_of_rider
from ..widgets.board import JERSEY
from .dialogs import close_hint
from .tour_results import KIND, behind

HEAD = "bold"
MUTED = "#bbbbbb"


def standings_text(standings: Standings, board, width: int = 76) -> Text:
    """The live GC as a table `width` cells wide (at least 56): place, rider,
    the GC before the stage (from the second stage: the first has none), the
    stage as it stands (its place once across, its gap to the stage's first,
    a group at its front rider's time, as the stage result gives it) with
    the bonus marked (-10s: the first two as they stand), the live GC."""
    riders = board.riders

    def name(i: int) -> str:
        r = riders[i]
        kind = _(KIND[r.kind]) if r.kind in KIND else ""
        return f"{clean(team_name(board.setup, r.seat), multiline=False)} {kind}".strip()

    has_before = standings.stage > 1
    before_head, stage_head, live_head = _("Before"), _("Stage"), _("Live GC")
    # each column as wide as its widest word: its heading (in the player's language) or its values
    before_w, stage_w, live_w = (max(n, cells(head)) for n, head in (
        (10, before_head), (12, stage_head), (10, live_head)))
    fixed = 4 + 3 + 1 + 1 + (before_w + 1 if has_before else 0) + stage_w + BONUS_W + 1 + live_w
    room = max(8, min(max(cells(name(line.rider)) for line in standings.lines), width - fixed))
    text = Text(no_wrap=True, overflow="ellipsis")
    before = f"{before_head:>{before_w}} " if has_before else ""
    text.append(f"{'':4}{'':3} {_('Rider'):<{room}} {before}{stage_head:>{stage_w}}{'':{BONUS_W}} "
                f"{live_head:>{live_w}}\n", style=HEAD)
    leader = next((line.rider for line in standings.lines if line.before_place == 1), None)
    for line in standings.lines:
        text.append(f"{line.place:>3}.")
        r = riders[line.rider]
        hex_ = team_of_rider(r.id).hex
        text.append("◆" if line.rider == leader else " ", style=JERSEY)
        text.append(rider_label(r.id, r.kind), style=f"bold {contrast_text(hex_)} on {hex_}")
        text.append(f" {fit(name(line.rider), room)} ")
        if has_before:
            text.append(f"{before_words(line):>{before_w}} ", style=MUTED)
        text.append(f"{stage_words(line):>{stage_w}}", style="bold" if line.finished else "")
        text.append(f"{bonus_words(line):<{BONUS_W}} ", style=MUTED)
        text.append(f"{behind(line.place, line.total, line.gap):>{live_w}}", style="bold" if line.place == 1 else "")
        text.append("\n")
    text.rstrip()
    return text


BONUS_W = 5  # " -10s"


def before_words(line: StandingLine) -> str:
    """The GC before the stage: "3. +1:20" (nothing at the first stage)."""
    if not line.before_place:
        return "-"
    return f"{line.before_place}. {gap_text(line.before_gap) if line.before_place > 1 else '0:00'}"


def stage_words(line: StandingLine) -> str:
    """The stage as it stands, as its result will give it (the gap to the
    stage's first before the bonus, a group's riders sharing it): "✓ 2. +0:10"
    across the line (its place, final), "~ +0:40" on the road (its gap now),
    "-" not on the grid yet."""
    if line.road is None:
        return "-"
    if line.finished:
        return f"✓ {line.stage_place}. {gap_text(line.road)}"
    return f"~ {gap_text(line.road)}"


def bonus_words(line: StandingLine) -> str:
    """The bonus a rider takes as the stage stands, as the stage result shows it: " -10s"."""
    return f" -{line.bonus}s" if line.bonus else ""


def finished_text(standings: Standings, board) -> Text:
    """Who has finished, in their stage placing, with their stage times."""
    text = Text(_("Across the line ({n} of {total}): ").format(n=len(standings.finished), total=len(standings.lines)),
                style=HEAD)
    if not standings.finished:
        text.append(_("nobody yet"), style=MUTED)
    for k, line in enumerate(standings.finished):
        r = board.riders[line.rider]
        hex_ = team_of_rider(r.id).hex
        if k:
            text.append(" · ")
        text.append(f"{line.stage_place}. ")
        text.append(rider_label(r.id, r.kind), style=f"bold {contrast_text(hex_)} on {hex_}")
        text.append(f" {gap_text(line.road or 0)}")
    return text


class StandingsScreen(ModalScreen[None]):
    """The standings of the tour stage on screen (public: every player may see them)."""

    # the key that opened it closes it, as the player binds it: the same id, so the keymap moves it too
    BINDINGS = [Binding("escape,q", "close", N_("Close")), Binding("g", "close", show=False, id="race.standings")]

    def __init__(self, standings: Standings, board) -> None:
        super().__init__(classes="dialog-screen")
        self.standings = standings
        self.board = board

    def compose(self) -> ComposeResult:
        s = self.standings
        title = _("{tour}: standings, stage {k}/{n}, round {round}").format(
            tour=clean(tour_name(s.tour), multiline=False), k=s.stage, n=s.stages, round=s.round)
        with Vertical(id="standings-box", classes="dialog"):
            yield Static(Content(title), id="standings-title")
            with VerticalScroll(id="standings-scroll"):
                yield Static(standings_text(s, self.board), id="standings-table")
                yield Static(finished_text(s, self.board), id="standings-finished")
            legend = _("Stage: the gap to the stage's first (a group at its front rider's time), ✓ across the "
                       "line with its place, ~ still on the road · -10s: the bonus of the first two, off the GC "
                       "time · Live GC: the GC if the stage ended now")
            if s.stage > 1:
                legend = _("Before: the GC before this stage") + " · " + legend
            yield Static(legend, id="standings-legend")
            yield Static(close_hint(self.app, "race.standings", "g"), classes="dialog-hint")

    def action_close(self) -> None:
        self.dismiss(None)
