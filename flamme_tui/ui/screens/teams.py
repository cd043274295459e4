"""Teams: 2-4 players, names, colours, human or bot, handicap; grid and seed."""

from __future__ import annotations

from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Button, Input, Select, Static

from ...engine.rules import find
from ...usertext import NO_CONTROL, clean, escape_markup
from ..choices import HUMAN, MAX_SEED, SCRIPTED_NAMES, RaceChoices, SeatChoice, default_seats, random_seed
from ..palette import DEFAULT_COLOURS, TEAM_COLOURS, team_colour
from ..widgets.keybar import KeyBar
from .base import BaseScreen

MAX_SEATS = 4


class SeatRow(Horizontal):
    def __init__(self, seat: int, choice: SeatChoice, controllers, extras) -> None:
        super().__init__(classes="seat-row", id=f"seat-{seat}")
        self.seat = seat
        self.choice = choice
        self.controllers = controllers
        self.extras = extras

    def compose(self):
        s, c = self.seat, self.choice
        yield Static(f"{s + 1}", classes="seat-number")
        # typing or pasting a control character is refused (usertext): it would reach the terminal
        yield Input(clean(c.name, multiline=False), placeholder="name", max_length=16, restrict=NO_CONTROL,
                    compact=True, id=f"name-{s}", classes="seat-name")
        yield Select([(t.name, t.id) for t in TEAM_COLOURS], value=c.colour, allow_blank=False,
                     compact=True, id=f"colour-{s}", classes="seat-colour")
        yield Static("", id=f"swatch-{s}", classes="swatch")
        yield Select(self.controllers, value=c.controller, allow_blank=False, compact=True,
                     id=f"controller-{s}", classes="seat-controller")
        yield Select(self.extras, value=c.extra, allow_blank=False, compact=True,
                     id=f"extra-{s}", classes="seat-extra")


class TeamsScreen(BaseScreen):
    HELP_TOPIC = "teams"
    BINDINGS = [
        Binding("ctrl+s", "start", "Start race", priority=True),
        Binding("escape", "app.pop_screen", "Back"),
    ]

    def __init__(self, choices: RaceChoices) -> None:
        super().__init__()
        self.choices = choices
        seats = list(choices.seats)
        for extra in default_seats(MAX_SEATS)[len(seats):]:
            used = {s.colour for s in seats}
            extra.colour = next(c for c in DEFAULT_COLOURS + tuple(t.id for t in TEAM_COLOURS) if c not in used)
            extra.name = team_colour(extra.colour).name
            seats.append(extra)
        self.seats = seats[:MAX_SEATS]
        if not find(choices.variant).scripted_teams:  # the scripted teams race in classic only
            for seat in self.seats:
                if seat.is_scripted:
                    seat.controller = HUMAN
        self.count = max(2, min(MAX_SEATS, len(choices.seats)))

    def compose(self):
        from ...bots import POLICIES
        from .variant import variant_title

        bmx = find(self.choices.variant).uses_tokens
        controllers = [("Human", HUMAN)] + [(f"Bot: {name}", name) for name in POLICIES]
        if find(self.choices.variant).scripted_teams:
            controllers += [(f"{name} team", kind) for kind, name in SCRIPTED_NAMES.items()]
        if bmx:
            extras = [("no fatigue" if n == 0 else f"+{n} fatigue", n) for n in range(4)]
            extra_head = "Young children"
        else:
            extras = [("none" if n == 0 else f"+{n} exhaustion", n) for n in range(6)]
            extra_head = "Handicap"
        where = ("circuit " + self.choices.circuit) if bmx else self._stage_name()
        yield from self.compose_notice()
        with VerticalScroll(classes="menu-body", id="teams-body"):
            yield Static(f"[b]{variant_title(self.choices.variant)}[/b] · {escape_markup(where)} · teams",
                         classes="screen-title")
            with Horizontal(classes="form-row"):
                yield Static("Players", classes="form-label")
                yield Select([(f"{n} players", n) for n in range(2, MAX_SEATS + 1)], value=self.count,
                             allow_blank=False, compact=True, id="players")
                if not bmx:
                    yield Static("Grid", classes="form-label")
                    yield Select([("random grid", "random"), ("players place riders", "choose")],
                                 value=self.choices.grid, allow_blank=False, compact=True, id="grid")
            yield Static(f"{'#':<3}{'Name':<17}{'Colour':<19}{'Plays':<16}{extra_head}", id="seat-head")
            for seat, choice in enumerate(self.seats):
                yield SeatRow(seat, choice, controllers, extras)
            with Horizontal(classes="form-row"):
                yield Static("Seed", classes="form-label")
                yield Input(str(self.choices.seed), restrict=r"[0-9]*", max_length=len(str(MAX_SEED)), compact=True, id="seed")
                yield Static("[dim]same seed + same choices = same race[/dim]", id="seed-note")
            with Horizontal(classes="form-row", id="teams-buttons"):
                yield Button("Start race", id="start", variant="success", compact=True)
                yield Button("New seed", id="reseed", compact=True)
                yield Button("Back", id="back", compact=True)
        yield KeyBar([("tab", "next field"), ("^s", "start race"), ("?", "help"), ("esc", "back")])

    def _stage_name(self) -> str:
        try:
            from .stage import stage_info

            return stage_info(self.choices.stage)[0]
        except Exception:  # a stage given by path: its id is enough here
            return self.choices.stage

    def on_mount(self) -> None:
        super().on_mount()
        self.show_rows()
        self.query_one("#start", Button).focus()

    def show_rows(self) -> None:
        for seat in range(MAX_SEATS):
            self.query_one(f"#seat-{seat}").display = seat < self.count
            colour = self.query_one(f"#colour-{seat}", Select).value
            self.query_one(f"#swatch-{seat}", Static).update(
                f"[on {team_colour(colour).hex}]  [/] {team_colour(colour).letter}")

    # ------------------------------------------------------------ changes

    def on_select_changed(self, event: Select.Changed) -> None:
        sid = event.select.id or ""
        if sid == "players":
            self.count = int(event.value)
            self.show_rows()
        elif sid.startswith("colour-"):
            seat = int(sid.split("-")[1])
            new, old = event.value, self.seats[seat].colour
            if new == old:
                return
            self._rename_default(seat, old, new)
            self.seats[seat].colour = new
            for other in range(MAX_SEATS):  # colours stay unique: swap with the seat that had it
                if other != seat and self.seats[other].colour == new:
                    self.seats[other].colour = old
                    self._rename_default(other, new, old)
                    self.query_one(f"#colour-{other}", Select).value = old
            self.show_rows()

    def _rename_default(self, seat: int, old: str, new: str) -> None:
        name = self.query_one(f"#name-{seat}", Input)
        if name.value.strip() in ("", team_colour(old).name):
            name.value = team_colour(new).name

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if event.input.id == "seed":
            self.action_start()
        else:
            self.focus_next()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "start":
            self.action_start()
        elif event.button.id == "reseed":
            self.query_one("#seed", Input).value = str(random_seed())
        elif event.button.id == "back":
            self.app.pop_screen()

    # -------------------------------------------------------------- start

    def gather(self) -> RaceChoices:
        seats = []
        for seat in range(self.count):
            name = clean(self.query_one(f"#name-{seat}", Input).value, multiline=False).strip()
            colour = self.query_one(f"#colour-{seat}", Select).value
            controller = self.query_one(f"#controller-{seat}", Select).value
            extra = self.query_one(f"#extra-{seat}", Select).value
            seats.append(SeatChoice(name or team_colour(colour).name, colour, controller, int(extra)))
        choices = self.choices.copy()
        choices.seats = seats
        if find(choices.variant).grid_choice:
            choices.grid = self.query_one("#grid", Select).value
        seed_text = self.query_one("#seed", Input).value.strip()
        choices.seed = int(seed_text) % (MAX_SEED + 1) if seed_text else random_seed()
        return choices

    def action_start(self) -> None:
        choices = self.gather()
        if all(s.is_scripted for s in choices.seats):
            self.notify("The Peloton and Muscle teams need a human or a bot to race against.",
                         severity="warning")
            return
        self.app.start_race(choices)
