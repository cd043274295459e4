"""Teams: 2-4 players, names, colours, human or bot, handicap; grid and seed.

Nothing here starts a race by accident: the first name field has the focus,
Enter in a field goes to the next one (never onto Start), and the race starts
only with ctrl+s or Enter on the Start button itself.  Every change the
screen makes on its own (a colour swap, a seat that cannot keep its player
type) is said on the message line.
"""

from __future__ import annotations

from typing import TypeVar, cast

from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.content import Content
from textual.widgets import Button, Input, Select, Static
from textual.widgets.select import NoSelection

from ... import MAX_SEED
from ...engine.rules import find
from ...usertext import NO_CONTROL, clean
from ..choices import HUMAN, SCRIPTED_NAMES, RaceChoices, SeatChoice, default_seats, random_seed
from ..palette import DEFAULT_COLOURS, TEAM_COLOURS, team_colour
from ..widgets.keybar import KeyBar
from .base import BaseScreen

MAX_SEATS = 4
MAX_NAME = 30  # long enough for "Grandma Josephine"; the race screens show it in full
SEED_NOTE = "0 or more; same seed + choices = same race"

T = TypeVar("T")


def chosen(value: T | NoSelection) -> T:
    """The value of a Select made with allow_blank=False: it always has one."""
    if isinstance(value, NoSelection):
        raise ValueError("a select without a blank has no value")
    return value


def parse_seed(text: str) -> int | None:
    """The seed typed, or None if it is not a whole number from 0 to MAX_SEED."""
    text = text.strip()
    if not text.isascii() or not text.isdigit() or len(text) > 19:
        return None
    value = int(text)
    return value if value <= MAX_SEED else None


class SeatRow(Horizontal):
    def __init__(self, seat: int, choice: SeatChoice, controllers, extras) -> None:
        super().__init__(classes="seat-row", id=f"seat-{seat}")
        self.seat = seat
        self.choice = choice
        self.controllers = controllers
        self.extras = extras

    def compose(self):
        s, c = self.seat, self.choice
        yield Static(f" {s + 1}", id=f"pointer-{s}", classes="seat-number")
        # typing or pasting a control character is refused (usertext): it would reach the terminal
        yield Input(clean(c.name, multiline=False), placeholder="name", max_length=MAX_NAME, restrict=NO_CONTROL,
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
        Binding("ctrl+s", "start", "Start race", priority=True, id="teams.start"),
        Binding("escape", "app.pop_screen", "Back", id="teams.back"),
    ]

    def __init__(self, choices: RaceChoices) -> None:
        super().__init__()
        self.choices = choices
        self.changes: list[str] = []  # what the screen changed on its own, said on the message line
        seats = list(choices.seats)
        for extra in default_seats(MAX_SEATS)[len(seats):]:
            used = {s.colour for s in seats}
            extra.colour = next(c for c in DEFAULT_COLOURS + tuple(t.id for t in TEAM_COLOURS) if c not in used)
            extra.name = team_colour(extra.colour).name
            seats.append(extra)
        self.seats = [SeatChoice(s.name, s.colour, s.controller, s.extra) for s in seats[:MAX_SEATS]]
        self.count = max(2, min(MAX_SEATS, len(choices.seats)))
        for n, seat in enumerate(self.seats):
            if seat.is_scripted and not find(choices.variant).scripted_teams:  # the scripted teams race in classic only
                if n < self.count:
                    self.changes.append(f"Seat {n + 1} ({seat.team_name()}) is now a human player: the "
                                        f"{SCRIPTED_NAMES[seat.controller]} team races in classic only.")
                seat.controller = HUMAN
            limit = 3 if find(choices.variant).uses_tokens else 5
            if seat.extra > limit:
                if n < self.count:
                    what = "fatigue tokens" if find(choices.variant).uses_tokens else "handicap cards"
                    self.changes.append(f"Seat {n + 1}: {seat.extra} {what} is more than this rule set "
                                        f"allows: now {limit}.")
                seat.extra = limit

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
        rules = "Tour" if self.choices.tour is not None else variant_title(self.choices.variant)
        title = Content.from_markup("[b]$rules[/b] · ", rules=rules)
        where = ("circuit " + self.choices.circuit) if bmx else self._stage_name()
        yield from self.compose_notice()
        with VerticalScroll(classes="menu-body", id="teams-body"):
            yield Static(title + Content(where) + Content(" · teams"), classes="screen-title")
            with Horizontal(classes="form-row"):
                yield Static("Players", id="label-players", classes="form-label")
                yield Select([(f"{n} players", n) for n in range(2, MAX_SEATS + 1)], value=self.count,
                             allow_blank=False, compact=True, id="players")
                if not bmx:
                    yield Static("Grid", id="label-grid", classes="form-label")
                    yield Select([("random grid", "random"), ("players place riders", "choose")],
                                 value=self.choices.grid, allow_blank=False, compact=True, id="grid")
            with Horizontal(id="seat-head"):
                for text, cls in (("#", "seat-number"), (f"Name (up to {MAX_NAME})", "seat-name"),
                                  ("Colour", "seat-colour"), ("", "swatch"), ("Plays", "seat-controller"),
                                  (extra_head, "seat-extra")):
                    yield Static(text, classes=cls)
            for seat, choice in enumerate(self.seats):
                yield SeatRow(seat, choice, controllers, extras)
            with Horizontal(classes="form-row", id="seed-row"):
                yield Static("Seed", id="label-seed", classes="form-label")
                yield Input(str(self.choices.seed), max_length=len(str(MAX_SEED)), compact=True, id="seed")
                yield Static(SEED_NOTE, id="seed-note")
            yield Static("", id="teams-message")
            with Horizontal(classes="form-row", id="teams-buttons"):
                what = "tour" if self.choices.tour is not None else "race"
                yield Button(f"Start {what} ({self.key_of('teams.start', 'ctrl+s')})", id="start", compact=True)
                yield Button("New seed", id="reseed", compact=True)
                yield Button("Back", id="back", compact=True)
        yield KeyBar([("tab", "next field"), (self.key_of("teams.start", "ctrl+s"), f"start {what}"),
                      ("?", "help"), ("esc", "back")])

    def _stage_name(self) -> str:
        tour = self.choices.tour
        if tour is not None:
            return f"{tour.name}, {len(tour.stages)} stage{'s' * (len(tour.stages) > 1)}"
        try:
            from .stage import stage_info

            return stage_info(self.choices.stage)[0]
        except Exception:  # a stage given by path: its id is enough here
            return self.choices.stage

    def help_text(self) -> str:
        from ..texts import help_for

        return help_for(self.HELP_TOPIC, self.choices.variant)

    def on_mount(self) -> None:
        super().on_mount()
        self.show_rows()
        self.query_one("#name-0", Input).focus()  # never Start: Enter, Enter must not start a race
        if self.changes:
            self.say(" ".join(self.changes))

    def say(self, message: str, warning: bool = False) -> None:
        """The message line under the form (and a toast, which goes by itself)."""
        line = self.query_one("#teams-message", Static)
        line.update(Content(message))
        line.set_class(warning, "-warning")
        self.notify(message, severity="warning" if warning else "information", timeout=6)

    def show_rows(self) -> None:
        for seat in range(MAX_SEATS):
            self.query_one(f"#seat-{seat}").display = seat < self.count
            colour = team_colour(chosen(self.query_one(f"#colour-{seat}", Select).value))
            self.query_one(f"#swatch-{seat}", Static).update(
                Content.from_markup(f"[on {colour.hex}]  [/] $letter", letter=colour.letter))

    # ------------------------------------------------------------ focus

    def on_descendant_focus(self, event) -> None:
        self._point_at(event.widget)

    def on_descendant_blur(self, event) -> None:
        self.call_after_refresh(self._point_at, self.focused)

    def _point_at(self, widget) -> None:
        """A pointer beside the focused field's row or label: visible without colour."""
        row = next((n for n in getattr(widget, "ancestors_with_self", ()) if isinstance(n, SeatRow)), None)
        for seat in range(MAX_SEATS):
            here = row is not None and row.seat == seat
            self.query_one(f"#pointer-{seat}", Static).update(f"▶{seat + 1}" if here else f" {seat + 1}")
        wid = getattr(widget, "id", None)
        for label in ("players", "grid", "seed"):
            for node in self.query(f"#label-{label}"):
                node.set_class(wid == label, "-focused")

    # ------------------------------------------------------------ changes

    def on_select_changed(self, event: Select.Changed) -> None:
        sid = event.select.id or ""
        # Select.Changed is not generic in Textual's typing (its value has an
        # unbound type variable): the players select holds ints, colours strs
        if sid == "players":
            self.count = cast(int, chosen(event.value))
            self.show_rows()
        elif sid.startswith("colour-"):
            seat = int(sid.split("-")[1])
            new, old = cast(str, chosen(event.value)), self.seats[seat].colour
            if new == old:
                return
            self._rename_default(seat, old, new)
            self.seats[seat].colour = new
            for other in range(MAX_SEATS):  # colours stay unique: swap with the seat that had it
                if other != seat and self.seats[other].colour == new:
                    self.seats[other].colour = old
                    self._rename_default(other, new, old)
                    self.query_one(f"#colour-{other}", Select).value = old
                    if other < self.count:
                        self.say(f"{team_colour(new).name} was seat {other + 1}'s colour: the two seats swap, "
                                 f"seat {other + 1} is now {team_colour(old).name}.")
            self.show_rows()

    def _rename_default(self, seat: int, old: str, new: str) -> None:
        name = self.query_one(f"#name-{seat}", Input)
        if name.value.strip() in ("", team_colour(old).name):
            name.value = team_colour(new).name

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id == "seed":
            ok = parse_seed(event.value) is not None or not event.value.strip()
            note = self.query_one("#seed-note", Static)
            note.update(SEED_NOTE if ok else f"not a seed: digits only, 0 to {MAX_SEED}")
            note.set_class(not ok, "-warning")
        elif (event.input.id or "").startswith("name-") and len(event.value) >= MAX_NAME:
            self.say(f"Names are up to {MAX_NAME} characters.")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in a field: the next field, never the Start button."""
        event.stop()
        self.focus_next()
        if self.focused is not None and self.focused.id == "start":
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

    def gather(self) -> RaceChoices | None:
        """The choices on the screen, or None (said on the message line) if the seed is not one."""
        seats = []
        for seat in range(self.count):
            name = clean(self.query_one(f"#name-{seat}", Input).value, multiline=False).strip()
            colour = chosen(self.query_one(f"#colour-{seat}", Select).value)
            controller = chosen(self.query_one(f"#controller-{seat}", Select).value)
            extra = chosen(self.query_one(f"#extra-{seat}", Select).value)
            seats.append(SeatChoice(name or team_colour(colour).name, colour, controller, int(extra)))
        choices = self.choices.copy()
        choices.seats = seats
        if find(choices.variant).grid_choice:
            choices.grid = chosen(self.query_one("#grid", Select).value)
        seed_text = self.query_one("#seed", Input).value.strip()
        if not seed_text:
            choices.seed = random_seed()
            return choices
        seed = parse_seed(seed_text)
        if seed is None:
            self.say(f"The seed must be a whole number from 0 to {MAX_SEED} (digits only), "
                     f"not {seed_text[:24]!r}.", warning=True)
            self.query_one("#seed", Input).focus()
            return None
        choices.seed = seed
        return choices

    def action_start(self) -> None:
        choices = self.gather()
        if choices is None:
            return
        if all(s.is_scripted for s in choices.seats):
            self.say("The Peloton and Muscle teams need a human or a bot to race against.", warning=True)
            return
        self.app.start_race(choices)
