"""Saved races: every race in progress and finished, to resume, replay or delete.

The screen reads the saves through `saved_races()` and `delete_race()` only
(the data access in one place: a new saves API changes these two functions).
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import NamedTuple

from rich.text import Text
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import DataTable, Static

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
    problem: str | None = None  # "damaged (...)", "made by a newer flamme-tui": cannot be opened
    tour: str = ""  # a tour: its name, the stage being raced and how many (the title is that stage's)
    stage: int = 0
    stages: int = 0


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
                                 None, i.tour, i.stage, i.stages))
            continue
        stamp = dt.datetime.fromtimestamp(race.changed).astimezone().isoformat(timespec="seconds")
        problem = "made by a newer flamme-tui" if race.status == saves.NEWER else f"damaged ({race.reason})"
        out.append(SavedRace(race.path, race.path.name, "?", 0, False, None, (), stamp, problem))
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
        return dt.datetime.fromisoformat(stamp).astimezone().strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return stamp[:16]


def _state(race: SavedRace) -> Text:
    if race.problem:
        too_new = "newer flamme-tui" in race.problem
        return Text("too new: update flamme-tui" if too_new else "damaged", style="bold")
    if race.over:
        return Text(f"finished, won by {race.winner}" if race.winner else "finished")
    if race.tour:
        return Text(f"in progress, stage {race.stage}/{race.stages}, round {race.round}")
    return Text(f"in progress, round {race.round}")


def _title(race: SavedRace) -> Text:
    """The stage (or BMX circuit); a tour's name and the stage being raced."""
    if race.tour:
        return Text(race.tour if race.over else f"{race.tour}: {race.title}")
    return Text(race.title)


def _rules(race: SavedRace) -> str:
    from .variant import variant_title

    return "Tour" if race.tour else variant_title(race.variant)


class SavedRacesScreen(BaseScreen):
    HELP_TOPIC = "saved"
    BINDINGS = [
        Binding("enter", "open", "Resume / replay", id="saved.open"),
        Binding("p", "replay", "Replay", id="saved.replay"),
        Binding("d,delete", "delete", "Delete", id="saved.delete"),
        Binding("escape", "app.pop_screen", "Back", id="saved.back"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.races: list[SavedRace] = []

    def compose(self):
        yield from self.compose_notice()
        with Vertical(classes="menu-body", id="saved-body"):
            yield Static("[b]Saved races[/b] · in progress and finished, newest first", classes="screen-title")
            yield DataTable(id="saved-table", cursor_type="row", zebra_stripes=True)
            yield Static("", id="saved-detail")
        yield KeyBar([("↑↓", "move"), (self.key_of("saved.open", "enter"), "resume or replay"),
                      (self.key_of("saved.replay", "p"), "replay"), (self.key_of("saved.delete", "d"), "delete"),
                      ("?", "help"), ("esc", "back")])

    def on_mount(self) -> None:
        super().on_mount()
        table = self.query_one(DataTable)
        table.add_columns("Stage", "Rules", "State", "Players", "Saved")
        self.refresh_list()
        table.focus()

    def refresh_list(self) -> None:
        table = self.query_one(DataTable)
        row = table.cursor_row
        table.clear()
        self.races = saved_races()
        for n, race in enumerate(self.races):
            # names from save files are plain text, never markup
            table.add_row(_title(race), Text(_rules(race)), _state(race), Text(", ".join(race.teams)),
                          Text(_when(race.saved)), key=str(n))
        if self.races:
            table.move_cursor(row=min(row, len(self.races) - 1))
        self.show_detail()

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
            detail.update("No saved race yet: every race is saved as it is played.")
        elif race.problem:
            detail.update(Text(f"{race.path.name} {race.problem}. It cannot be opened; d deletes it."))
        else:
            what = "Enter or p replays it" if race.over else "Enter resumes it, p replays the rounds played"
            detail.update(Text(f"{race.path.name}: {what}."))

    def on_data_table_row_selected(self, event) -> None:
        event.stop()
        self.action_open()

    def action_open(self) -> None:
        race = self.current()
        if race is None or race.problem:
            if race is not None:
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
        from ...play.replay import load_replay
        from ...saves import SaveError
        from ..replay import ReplayScreen

        try:
            replay = load_replay(race.path)
        except SaveError as exc:
            self.notify(str(exc), severity="error", timeout=8)
            return
        self.app.push_screen(ReplayScreen(replay))

    def action_delete(self) -> None:
        race = self.current()
        if race is None:
            return
        from .dialogs import ConfirmDelete

        label = f"{race.tour or race.title} ({', '.join(race.teams)})" if race.teams else race.path.name

        def answer(yes: bool | None) -> None:
            if not yes:
                return
            try:
                gone = delete_race(race.path)
            except OSError as exc:
                self.notify(f"Could not delete {race.path.name}: {exc.strerror or exc}", severity="error")
            else:
                self.notify(f"Deleted {label} ({len(gone)} file{'s' * (len(gone) != 1)})")
            self.refresh_list()
            self.app.look_for_resume()

        self.app.push_screen(ConfirmDelete(label), answer)
