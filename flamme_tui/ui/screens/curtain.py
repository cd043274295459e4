"""The privacy curtain between two players: a plain (opaque) Screen that shows
the public table only (the track and the public boards: every seat's piles as
the table saw them before this round's draws) and no card of any hand.
Never a ModalScreen: a modal's background shows through."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.binding import Binding
from textual.containers import Center, Vertical
from textual.widgets import Button

from ...engine.course import Course
from ...engine.rules import find
from ...i18n import N_, _
from ...usertext import clean
from ..keys import key_word
from ..palette import team_colour, team_markup
from ..widgets.board import BoardRow, Boards
from ..widgets.keybar import KeyBar
from ..widgets.lap import LapStrip, large_for
from ..widgets.lines import TextLines
from ..widgets.track import Scene, StageOverview, TrackStrip
from .base import BaseScreen


@dataclass(frozen=True)
class PublicTable:
    """What everybody at the table sees: built by the race screen from the
    public board only (never from a seat's view of its own cards)."""

    course: Course
    variant: str
    scene: Scene
    rows: list[BoardRow]
    supply: int | None = None


class CurtainScreen(BaseScreen):
    HELP_TOPIC = "curtain"
    BINDINGS = [
        Binding("enter", "lift", N_("Show my cards or tokens"), id="curtain.lift"),
        Binding("q", "app.request_quit", N_("Quit"), id="curtain.quit"),
        # the race screen's key (its id: one setting rebinds both); the standings are public
        Binding("g", "standings", N_("Tour standings: the GC before the stage, who has finished, the live GC"),
                show=False, id="race.standings"),
    ]

    def __init__(self, seat: int, name: str, colour: str, round_no: int, tokens: bool = False, on_lift=None,
                 table: PublicTable | None = None, heading: str | None = None, riders: str = "SR",
                 on_standings=None, note: str = "") -> None:
        super().__init__(classes="curtain")
        self.on_lift = on_lift  # called with the seat when the player lifts the curtain
        self.on_standings = on_standings  # a tour's stage: shows its standings (the race screen's)
        self.seat = seat
        self.player = name
        self.colour = colour
        self.round_no = round_no
        self.tokens = tokens  # the rule set's uses_tokens: one rider, tokens from a bag (bmx)
        self.table = table
        self.heading = heading  # "Round 3" when None (said when shown), or "Breakaway, bid 1"
        self.riders = riders  # the seat's riders: "SR", or the one it races (7-12 players)
        # a line for the race's first curtain only (a branch's new file): said in the body, where
        # a toast hid the table
        self.note = note
        self._lifted = False

    def compose(self):
        yield from self.compose_notice()
        table = self.table
        if table is not None:
            if find(table.variant).uses_tokens:
                yield LapStrip(table.course, id="curtain-track")
            else:
                yield StageOverview(table.course, id="curtain-overview")
                yield TrackStrip(table.course, id="curtain-track")
        with Vertical(id="curtain-body"):
            yield TextLines("", id="curtain-round")
            yield TextLines("", id="curtain-title")
            yield TextLines("", id="curtain-team")
            yield TextLines("", id="curtain-text")
            yield TextLines("", id="curtain-note")
            with Center():
                # for the mouse: Enter is the screen's key, handled at once (a focused button
                # would press itself later, by a message, while the next keys arrive)
                lift = Button(_("Show my tokens") if self.tokens else _("Show my cards"), id="lift", variant="primary",
                              compact=True)
                lift.can_focus = False
                yield lift
            # the symbols of the table in words (a block of lines, centred), last: where the
            # window is short the body cuts its last lines (Textual aligns an over-full body
            # to its top), never the lines above them or anything outside the body
            with Center(id="curtain-legend-box"):
                yield TextLines("", id="curtain-legend")
        if table is not None:
            boards = Boards(id="curtain-boards")
            boards.styles.height = Boards.fixed_height(len(table.rows))
            yield boards
        keys = [(self.key_of("curtain.lift", "enter"), _("show my tokens") if self.tokens else _("show my cards"))]
        if self.on_standings is not None:
            keys.append((self.key_of("race.standings", "g"), _("standings")))
        yield KeyBar(keys + [(self.help_key, _("help")), (self.key_of("curtain.quit", "q"), _("quit"))])

    def never_here(self, action: str) -> bool:
        return action == "standings" and self.on_standings is None

    def action_standings(self) -> None:
        if self.on_standings is not None:
            self.on_standings()

    def next_turn(self, seat: int, name: str, colour: str, round_no: int, table: PublicTable | None,
                  heading: str | None = None, riders: str = "SR") -> None:
        """The same curtain for the next player (the race screen keeps one: no
        new screen to build between two turns).  Before it is shown again."""
        self.seat, self.player, self.colour, self.round_no, self.table = seat, name, colour, round_no, table
        self.heading = heading
        self.riders = riders
        self.note = ""
        self._lifted = False
        self.show_turn()

    def show_turn(self) -> None:
        """Who is to look, and the public table as it stands.  (The texts lay the
        screen out again only if a long name takes one more line.)"""
        c = team_colour(self.colour)
        who = self.player if self.player == c.name else f"{self.player} ({c.name})"
        heading = self.heading or _("Round {n}").format(n=self.round_no)
        self.query_one("#curtain-round", TextLines).update(heading, layout=True)
        # a player's name: plain text, never markup (the sentence is split around it, the name kept plain)
        before, _name, after = _("Pass to {player}").partition("{player}")
        title = Text(before, style="bold")
        title.append(clean(who, multiline=False))
        title.append(after, style="bold")
        self.query_one("#curtain-title", TextLines).update(title, layout=True)
        badge = "".join(f"  {c.letter}{kind}" for kind in self.riders) + "  "
        self.query_one("#curtain-team", TextLines).update(
            team_markup(self.colour, badge) if not self.tokens else team_markup(self.colour, f"  {c.letter}>  "),
            layout=True)
        # "{player}, press {key} when only you can see the screen.": the name plain, the key in bold
        text = Text()
        sentence = _("{player}, press {key} when only you can see the screen.")
        for part in sentence.replace("{key}", "\0{key}\0").replace("{player}", "\0{player}\0").split("\0"):
            if part == "{player}":
                text.append(clean(self.player, multiline=False))
            elif part == "{key}":
                # the key in words, as the player's keyboard labels it (Entrée, Intro)
                text.append(key_word(self.key_of("curtain.lift", "enter").replace("⏎", "Enter")), style="bold")
            else:
                text.append(part)
        self.query_one("#curtain-text", TextLines).update(text, layout=True)
        note = self.query_one("#curtain-note", TextLines)
        note.display = bool(self.note)
        note.update(Text(clean(self.note)), layout=True)  # file names: plain text
        table = self.table
        if table is None:
            return
        from ..texts import curtain_legend

        course = table.course
        # (a Peloton stage's two-lane squares among three-lane ones, single-file cobbles, BMX single lanes)
        no_lane = course is not None and len(set(course.lanes[:course.length])) > 1
        # (a rider on the grid, or still to place there: its place reads "G2"; none once round 1 has moved them)
        on_grid = course is None or any(row.square < course.grid for row in table.rows)
        legend = curtain_legend(table.variant, jersey=any(row.jersey for row in table.rows), no_lane=no_lane,
                                course=course, on_grid=on_grid)
        self.query_one("#curtain-legend", TextLines).update("\n".join(legend), layout=True)
        track = self.query_one("#curtain-track")
        if isinstance(track, TrackStrip | LapStrip):  # the stage's strip, or the BMX lap
            track.show(table.scene)
        for overview in self.query(StageOverview):
            overview.show(table.scene, track.in_view() if isinstance(track, TrackStrip) else None)
        self.query_one("#curtain-boards", Boards).show(table.rows, table.variant, table.supply, table.course)

    @property
    def hand(self) -> str:
        return "tokens" if self.tokens else "cards"

    def help_text(self) -> str:
        from ..texts import help_for

        return help_for(self.HELP_TOPIC, "bmx" if self.tokens else None, self.keys_text)

    def on_mount(self) -> None:
        super().on_mount()
        self.show_turn()

    def size_changed(self, width: int, height: int) -> None:
        for track in self.query(TrackStrip):
            track.tall = height >= 32
        for lap in self.query(LapStrip):
            lap.set_large(large_for(width, height))
        if self.table is not None:
            riders = len(self.table.rows)
            self.query_one("#curtain-boards", Boards).set_columns(Boards.columns_for(riders, height, width), riders)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_lift()

    def action_lift(self) -> None:
        if not self._lifted:
            self._lifted = True
            if self.on_lift is not None:
                self.on_lift(self.seat)
            self.dismiss(self.seat)
