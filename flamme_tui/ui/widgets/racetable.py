"""The public table on the race screen: its status line, the track (with the
stage overview and profile of a classic or meteo stage) and the boards.

Drawn from views only (the turn's: engine.view.View), never from the game:
a seat's own piles show on the boards only in that seat's turn, and during a
reveal the squares and numbers are those of the step on screen (the frame's
positions and tally, play.flow.Frame).  A helper of the race screen, not a
widget: it holds the widgets it draws in and repaints only what changed.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from textual.content import Content

from ...i18n import _
from ...play.narrator import to_go as square_to_go
from ...usertext import cells, cut, escape_markup
from ...words import stage_name, team_name
from ..palette import rider_label, team_of_rider
from .board import Boards, board_rows
from .lap import LapStrip
from .lines import TextLines
from .profile import StageProfile
from .track import RiderMark, Scene, StageOverview, TrackStrip


class RaceTable:
    """The status line, track, overview, profile and boards of one race."""

    def __init__(self, screen: Any, table: Any, board: Any) -> None:
        self.screen = screen  # for its classes (-profile) and the texts it shows once
        self.table = table  # play.table.Table: the jersey, the cards down, the names
        self.board = board  # the race's public board at the start: course, rules, teams, riders
        self.bmx = bool(board.rules.uses_tokens)
        self.status = screen.query_one("#status", TextLines)
        self.track = screen.query_one("#track")
        self.boards = screen.query_one("#boards", Boards)
        self.overview = None if self.bmx else screen.query_one("#overview", StageOverview)
        self.profile = None if self.bmx else screen.query_one("#profile", StageProfile)

    @property
    def names(self) -> list[str]:
        """Each team's name as the player reads it: one named by default in the language now
        (the player may change it mid-race, in Settings)."""
        setup = self.board.setup
        return [team_name(setup, seat) for seat in range(len(setup.teams))]

    def set_status(self, what: str, team: str | None = None, shorter: str = "") -> None:
        """ "Stage name · rules (or tour stage) · round 3 · what happens" on one
        line; the round the table's (Table.round), as every other screen says it,
        and before round 1, while the breakaway's bids are made, "breakaway" (as
        the curtain and the log head them).  `what` may name a team (`{team}`);
        where it does not fit, `shorter` says it (the panel's title under it says
        it in full), and a name still too long is cut (…): at 80 columns with six
        teams the line was "Blue: which rider bids for the br…"."""
        table = self.table
        when = _("breakaway") if table.in_breakaway else _("round {round}").format(round=table.round)
        for short in (False, True):  # a stage card's version without its number of teams, if the team needs it
            parts = [f"[b]{escape_markup(stage_name(self.board.course.name, short))}[/b]", table.flow.header_rules, when]
            head = " · ".join(part for part in parts if part) + " · "
            room = (self.status.size.width or self.screen.size.width - 2) - Content.from_markup(head).cell_length
            if team is None or min(cells(what.format(team=team)), cells(shorter.format(team=team)) or 10**6) <= room:
                break
        if team is not None:
            if shorter and cells(what.format(team=team)) > room:
                what = shorter
            what = what.format(team=cut(team, max(room - cells(what.format(team="")), 6)))
        self.screen.put(self.status, head + escape_markup(what))

    def marks(self, positions, crashed, active=()) -> tuple[RiderMark, ...]:
        """The riders on the track at `positions` (a rider not yet placed: none)."""
        jersey = self.table.flow.jersey
        marks = []
        for r in self.board.riders:
            i = r.index
            square, lane = positions[i]
            if square < 0:
                continue
            kind = "" if self.bmx else r.kind
            marks.append(RiderMark(i, rider_label(r.id, kind), team_of_rider(r.id).hex, square, lane,
                                   bool(crashed[i]), i in active, i == jersey))
        return tuple(marks)

    def view_marks(self, view, active=()) -> tuple[RiderMark, ...]:
        riders = view.board.riders
        return self.marks([(r.square, r.lane) for r in riders], [r.crashed for r in riders], active)

    def short(self, i: int) -> str:
        """A rider as the track labels it ("BS"; BMX: its team's letter)."""
        r = self.board.riders[i]
        return team_of_rider(r.id).letter if self.bmx else rider_label(r.id, r.kind)

    def label(self, i: int) -> str:
        """A rider's label on a card ("BS"; BMX "B")."""
        r = self.board.riders[i]
        return rider_label(r.id, "" if self.bmx else r.kind)

    def show_track(self, scene: Scene) -> None:
        track = self.track
        assert isinstance(track, (TrackStrip, LapStrip))
        track.show(scene)
        if self.overview is not None and isinstance(track, TrackStrip):
            self.overview.show(scene, track.in_view())
        if self.profile is not None and self.screen.has_class("-profile"):
            self.profile.show_riders(scene.riders)

    def rows(self, view) -> list:
        rows = board_rows(view, self.names, self.table.ready(), self.table.flow.jersey)
        if view.board.crossed and self.table.in_tour:  # a tour: the finished riders' stage times
            standings = self.table.standings(view.board)
            rows = [replace(row, stage_time=standings.line(row.index).road) if row.finished else row for row in rows]
        return rows

    def show_boards(self, view, public: bool = False, positions=None, crashed=None, tally=None) -> None:
        """The boards of `view`; during a replay with the squares of the step
        shown and the numbers as they stand at that step (`tally`)."""
        rows = self.rows(view)
        supply = view.board.supply
        if public or positions:
            course = self.board.course
            rows = [replace(r, own=False if public else r.own,
                            square=positions[r.index][0] if positions else r.square,
                            to_go=square_to_go(course, positions[r.index][0]) if positions else r.to_go,
                            crashed=bool(crashed[r.index]) if crashed else r.crashed) for r in rows]
        if positions:
            # a tour: a rider that crosses the line in this round is finished (its stage time shown) only from
            # the step that takes it across; before, it stands on the track short of the line (off the track:
            # it left it, in an earlier round or at the round's end)
            finish = self.board.course.finish
            rows = [replace(r, finished=False, stage_time=None) if r.finished and 0 <= r.square < finish else r
                    for r in rows]
        if tally is not None:
            supply = tally.supply
            for i, row in enumerate(rows):
                if self.bmx:
                    rows[i] = replace(row, exhaustion=tally.exhaustion[i], deck=tally.bag[i])
                    continue
                recycled = list(row.recycled)  # the exhaustion cards still to come are not there yet
                for _ in range(row.exhaustion - tally.exhaustion[i]):
                    if 0 in recycled:
                        recycled.remove(0)
                rows[i] = replace(row, exhaustion=tally.exhaustion[i], recycled=tuple(recycled))
        self.boards.show(rows, self.board.variant, supply, self.board.course)

    def show_public(self, what: str, view, team: str | None = None) -> None:
        """The public table (`view`: the turn's public view) and what happens (`set_status`)."""
        self.set_status(what, team)
        self.show_track(Scene(self.view_marks(view)))
        self.show_boards(view, public=True)
