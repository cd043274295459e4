"""Saved races: every race in progress and finished, to resume, replay or delete.

The screen reads the saves through `saved_races()` and `delete_race()` only
(the data access in one place: a new saves API changes these two functions).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple, cast

from rich.text import Text
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import DataTable, Static

from ...i18n import N_, _, day_and_time, ngettext
from ...usertext import clean
from ...words import tour_name
from ..widgets.keybar import KeyBar
from .base import BaseScreen


class SavedRace(NamedTuple):
    path: Path
    title: str  # the stage (or BMX circuit)
    variant: str
    round: int
    over: bool
    winner: str | None
    teams: tuple[str, ...]
    saved: str  # ISO date and time
    problem: str | None = None  # why the race file cannot be opened: "is damaged (...)", "was made by a newer ..."
    tour: str = ""  # a tour: its name, the stage being raced and how many (the title is that stage's)
    stage: int = 0
    stages: int = 0
    record: Any = None  # the saves.SavedRace it comes from (a damaged one: its backups)
    stage_over: bool = False  # a tour saved between two stages: `stage` is over (its result, then the next)


# ------------------------------------------------------------ data access


def saved_races(directory: Path | None = None) -> list[SavedRace]:
    """Every race in the saves folder, newest first (saves.list_saves): a
    damaged race, or one from a newer flamme-tui, is listed with what is wrong."""
    from ... import saves

    folder = Path(directory) if directory is not None else saves.saves_dir()
    out = []
    for race in saves.list_saves(folder):
        i = race.info
        if i is not None and race.status in (saves.IN_PROGRESS, saves.FINISHED):
            out.append(SavedRace(i.path, i.title, i.variant, i.round, i.over, i.winner, tuple(i.teams), i.saved,
                                 None, i.tour, i.stage, i.stages, stage_over=i.stage_over))
            continue
        stamp = dt.datetime.fromtimestamp(race.changed).astimezone().isoformat(timespec="seconds")
        out.append(SavedRace(race.path, race.path.name, "?", 0, False, None, (), stamp, race.reason, record=race))
    return out


def _base(path: Path) -> Path:
    """NAME.json for NAME.json, NAME.json.1 and NAME.json.2 (a race's backups)."""
    name = path.name
    if name[-2:] in (".1", ".2") and name[:-2].endswith(".json"):
        return path.with_name(name[:-2])
    return path


def delete_race(path: Path) -> list[Path]:
    """Delete a race: its file and its backups (NAME.json, NAME.json.1, .2).
    Returns the files deleted; OSError if one could not be."""
    base = _base(path)
    gone = []
    for candidate in [base] + [base.with_name(f"{base.name}.{n}") for n in (1, 2)]:
        if candidate.exists():
            candidate.unlink()
            gone.append(candidate)
    return gone


# ------------------------------------------------------------------ screen


def _when(stamp: str) -> str:
    try:
        return day_and_time(dt.datetime.fromisoformat(stamp).astimezone())  # "02 Dec 21:03": fits 80 columns
    except ValueError:
        return stamp[:16]


def _plain(text: str) -> Text:
    """A table cell or line from a file: shown as it is, control characters written out."""
    return Text(clean(text, multiline=False))


def _state(race: SavedRace, short: bool = False) -> Text:
    """The race's state in a few words; `short`: a winner by its team alone
    ("won by Sky blue", not "won by Sky blue Rouleur"), for a narrow window."""
    if race.problem:
        from ... import saves

        too_new = race.record is not None and race.record.status == saves.NEWER  # (its kind, not its words)
        return Text(_("too new: update flamme-tui") if too_new else _("damaged"), style="bold")
    # short, so the players fit an 80-column row: "won by" says finished, a round in progress
    if race.over:
        winner = race.winner
        if short and winner:  # the team the winner rides for: the longest team name in the words
            winner = max((team for team in race.teams if team and team in winner), key=len, default=winner)
        return Text(_("won by {winner}").format(winner=winner) if winner else _("finished"))
    if race.tour and race.stage_over:  # saved between two stages: resuming shows its result, then the next
        return Text(_("stage {stage}/{stages} finished").format(stage=race.stage, stages=race.stages))
    if race.tour:
        return Text(_("stage {stage}/{stages}, round {round}").format(stage=race.stage, stages=race.stages,
                                                                      round=race.round))
    return Text(_("round {round}").format(round=race.round))


def _title(race: SavedRace) -> Text:
    """The stage (or BMX circuit); a tour's name and the stage being raced."""
    if race.tour:
        return _plain(tour_name(race.tour) if race.over else _("{tour}: {stage}").format(
            tour=tour_name(race.tour), stage=race.title))
    return _plain(race.title)


def _rules(race: SavedRace) -> str:
    """The rules; "hosted" for a race in progress left by its host (its seats file beside
    it: opened, it is hosted again with its codes, never played at one screen)."""
    from ...net.host import seats_file
    from .variant import variant_title

    rules = _("Tour") if race.tour else variant_title(race.variant)
    if not race.over and not race.tour and seats_file(race.path).exists():
        return _("{rules}, hosted").format(rules=rules)
    return rules


class SavedRacesScreen(BaseScreen):
    HELP_TOPIC = "saved"
    BINDINGS = [
        Binding("enter", "open", N_("Resume / replay"), id="saved.open"),
        Binding("p", "replay", N_("Replay"), id="saved.replay"),
        Binding("b", "branch", N_("Go on from a backup (a branch)"), id="saved.branch"),
        Binding("d,delete", "delete", N_("Delete"), id="saved.delete"),
        Binding("escape", "app.pop_screen", N_("Back"), id="saved.back"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.races: list[SavedRace] = []
        self.laid_for = 0  # the screen width the table was laid out for

    def compose(self):
        yield from self.compose_notice()
        with Vertical(classes="menu-body", id="saved-body"):
            yield Static(_("[b]Saved races[/b] · in progress and finished, newest first"), classes="screen-title")
            yield DataTable(id="saved-table", cursor_type="row", zebra_stripes=True)
            yield Static("", id="saved-detail")
        yield KeyBar([("↑↓", _("move")), (self.key_of("saved.open", "enter"), _("resume or replay")),
                      (self.key_of("saved.replay", "p"), _("replay")), (self.key_of("saved.branch", "b"), _("branch")),
                      (self.key_of("saved.delete", "d"), _("delete")),
                      (self.help_key, _("help")), (self.key_of("saved.back", "escape"), _("back"))])

    def on_mount(self) -> None:
        super().on_mount()
        self.refresh_list()
        self.query_one(DataTable).focus()

    def refresh_list(self, reread: bool = True) -> None:
        """The table of the saved races (`reread`: the folder read again), its players cut to the width."""
        table = self.query_one(DataTable)
        row = table.cursor_row
        # the columns too: a column never narrows by itself, and the players' must fit the window as it is now
        table.clear(columns=True)
        # the players last: a long list is cut to fit (the line under the table has them all)
        table.add_columns(_("Stage"), _("Saved"), _("Rules"), _("State"), _("Players"))
        if reread:
            self.races = saved_races()
        self.laid_for = self.app.size.width
        # names from save files (and file names) are plain text, never markup, control characters written out
        rows = self.fit_columns([(_title(race), _plain(_when(race.saved)), Text(_rules(race)), _state(race),
                                  _plain(", ".join(race.teams))) for race in self.races])
        room = self.players_room(rows)
        for n, (*cells, players) in enumerate(rows):
            if players.cell_len > room:  # cut with a mark: the line under the table names them all
                players.truncate(room, overflow="ellipsis")
            table.add_row(*cells, players, key=str(n))
        if self.races:
            table.move_cursor(row=min(row, len(self.races) - 1))
        self.show_detail()

    STAGE_LEAST = 16  # a stage's (or tour's) name is cut no shorter than this, before the states are

    def fit_columns(self, rows: list[tuple[Text, ...]]) -> list[tuple[Text, ...]]:
        """The rows, their stage and state cells made short enough for the players'
        heading to fit: a winner said by its team alone, then the stage's name cut,
        then the state, each cut cell ending with "…".  Too wide, the table ran off
        the screen and the state was cut at its edge, the winner's team lost
        ("gagnée par Rouleur")."""
        stage, state = 0, 3  # the columns that give way
        if self.players_room(rows, least=0) >= 0:
            return rows
        rows = [(*row[:state], _state(race, short=True), *row[state + 1:]) for row, race in zip(rows, self.races)]
        for column, least in ((stage, self.STAGE_LEAST), (state, 0)):
            over = -self.players_room(rows, least=0)
            if over <= 0:
                break
            header = list(self.query_one(DataTable).columns.values())[column].label.cell_len
            widest = max(row[column].cell_len for row in rows)
            width = max(header, least, widest - over)
            for row in rows:
                if row[column].cell_len > width:
                    row[column].truncate(width, overflow="ellipsis")
        return rows

    def players_room(self, rows: Sequence[tuple[Text, ...]], least: int | None = None) -> int:
        """Columns left for the players once the other columns have theirs (at least their header):
        the row never runs off the screen into a sideways scroll bar."""
        table = self.query_one(DataTable)
        headers = [column.label.cell_len for column in table.columns.values()]
        widths = [max([headers[k], *(row[k].cell_len for row in rows)]) for k in range(len(headers) - 1)]
        width = self.laid_for - 2  # the screen less the body's padding (the table's own size lags a resize)
        # each column has one space of padding a side; the vertical scroll bar takes 2 when the rows overflow
        room = width - 2 - sum(w + 2 * table.cell_padding for w in widths) - 2 * table.cell_padding
        # (least=0: what is left once the players' heading has its cells, below 0 when it has not)
        return max(headers[-1], room) if least is None else room - headers[-1]

    def on_resize(self, event) -> None:
        # laid out again only for another width: twice in one go (at mount) left DataTable's columns
        # as wide as their headers
        if self.races and self.app.size.width != self.laid_for:
            self.refresh_list(reread=False)

    def current(self) -> SavedRace | None:
        table = self.query_one(DataTable)
        if not self.races or table.cursor_row is None or not 0 <= table.cursor_row < len(self.races):
            return None
        return self.races[table.cursor_row]

    def on_data_table_row_highlighted(self, event) -> None:
        self.show_detail()

    def show_detail(self) -> None:
        race = self.current()
        detail = self.query_one("#saved-detail", Static)
        if race is None:
            from ...saves import folder_problem

            # a folder that cannot be read is not an empty one
            problem = folder_problem()
            detail.update(_plain(_("No saved race can be shown: {problem}.").format(problem=problem)) if problem
                          else _("No saved race yet: every race is saved as it is played."))
            return
        # the keys as the player binds them, as the key bar under it says them
        keys = {"open": self.key_of("saved.open", "enter"), "replay": self.key_of("saved.replay", "p"),
                "branch": self.key_of("saved.branch", "b"), "delete": self.key_of("saved.delete", "d")}
        if race.problem:
            backups = race.record.backups if race.record is not None else ()
            what = (_("{file} {problem}. {open} shows what was lost and offers its backups; {delete} deletes it.")
                    if backups else
                    _("{file} {problem}. It cannot be opened and has no usable backup; {delete} deletes it."))
            detail.update(_plain(what.format(file=race.path.name, problem=race.problem, **keys)))
        else:
            what = _("{teams}: {open} or {replay} replays it (file {file}).") if race.over else _(
                "{teams}: {open} resumes it, {replay} replays the rounds played, {branch} goes on from a move or two "
                "back as a new race (file {file}).")
            detail.update(_plain(what.format(teams=_(", ").join(race.teams), file=race.path.name, **keys)))

    def on_data_table_row_selected(self, event) -> None:
        event.stop()
        self.action_open()

    def action_open(self) -> None:
        race = self.current()
        if race is None:
            return
        if race.problem:
            if race.record is not None and race.record.status == "damaged":
                self.app.show_damaged(race.record)  # what was lost, and the backups to go on from
            else:
                self.notify(f"{race.path.name} {race.problem}", severity="warning")
            return
        if race.over:
            self.action_replay()
        else:
            self.app.resume_path(race.path)

    def action_replay(self) -> None:
        race = self.current()
        if race is None or race.problem:
            return
        self.app.show_replay(race.path)

    def action_branch(self) -> None:
        """The race's backups (one and two actions back): going on from one
        starts a new race file, a branch (saves.load); a damaged race shows
        what was lost too."""
        race = self.current()
        if race is None:
            return
        from ... import saves
        from .dialogs import BranchFromBackup, DamagedSave

        found = next((r for r in saves.list_saves(race.path.parent) if r.path == race.path), None)
        if found is None or (not found.backups and found.status != saves.DAMAGED):
            self.notify(_("{file} has no usable backup to go on from").format(file=race.path.name), severity="warning",
                        markup=False)
            return

        def answer(backup: str | None) -> None:
            if backup:  # once the dialog is gone
                self.app.call_later(cast(Any, self.app).resume_path, backup)

        dialog = DamagedSave(found) if found.status == saves.DAMAGED else BranchFromBackup(found)
        self.app.push_screen(dialog, answer)

    def action_delete(self) -> None:
        race = self.current()
        if race is None:
            return
        from .dialogs import ConfirmDelete

        name = tour_name(race.tour) if race.tour else race.title
        label = clean(f"{name} ({', '.join(race.teams)})" if race.teams else race.path.name, multiline=False)

        def answer(yes: bool | None) -> None:
            if not yes:
                return
            try:
                gone = delete_race(race.path)
            except OSError as exc:
                self.notify(_("Could not delete {file}: {problem}").format(file=race.path.name, problem=exc.strerror or exc),
                            severity="error")
            else:
                self.notify(ngettext("Deleted {race} ({n} file)", "Deleted {race} ({n} files)", len(gone)).format(
                    race=label, n=len(gone)))
            self.refresh_list()
            self.app.look_for_resume()

        self.app.push_screen(ConfirmDelete(label), answer)
