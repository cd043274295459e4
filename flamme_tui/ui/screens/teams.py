"""Teams: 2-6 players (bmx 2-4), names, colours, human, bot or scripted team,
handicap; or 7-12 players racing one rider each (the Peloton expansion);
grid, the Peloton breakaway and seed.

The keys are those of a form: the screen opens on its first choice (Players,
a list), where left and right step through the choices; Tab and Shift+Tab
go from field to field, and a seat's name is typed once Tab reaches it (the
key bar says "← → change" only on a list: in a name they move the cursor).
Nothing here starts a race by accident: Enter in a name or the seed goes to
the next field (never onto Start), Enter on a list opens it, and the race
starts only with ctrl+s or Enter on the Start button itself.  Every change the screen
makes on its own (a colour swap, a seat that cannot keep its player type)
is said on the message line.

Setting up is quick: ctrl+f seats a bot wherever nobody set a seat (the
table filled up to the most teams), left and right step through a list's
choices, and the set-up is written back into the choices the screen was
given (the app's) when it is left, so the next New race offers it again.
"""

from __future__ import annotations

from functools import partial
from typing import TypeVar, cast

from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.content import Content
from textual.css.query import NoMatches
from textual.widgets import Button, Input, Select, Static
from textual.widgets.select import NoSelection

from ... import MAX_SEED
from ...engine.rules import find
from ...i18n import N_, _, ngettext, pgettext
from ...usertext import NO_CONTROL, clean, visible
from ...words import bot_level, stage_name, tour_name
from ..choices import (
    HERE,
    HUMAN,
    SCRIPTED_NAMES,
    RaceChoices,
    SeatChoice,
    default_seats,
    one_rider_seats,
    player_name,
    random_seed,
)
from ..palette import DEFAULT_COLOURS, TEAM_COLOURS, team_colour
from ..texts import SCRIPTED_ABOUT
from ..widgets.cycle import CycleSelect
from ..widgets.keybar import KeyBar
from .base import BaseScreen

MAX_SEATS = 12  # rows: six teams of two riders, or twelve players racing one rider each (PELOTON.md)
RIDERS = [(N_("Sprinteur"), "S"), (N_("Rouleur"), "R")]
MAX_NAME = 30  # long enough for "Grandma Josephine"; the race screens show it in full
SEED_NOTE = N_("0 to {max}; same seed + choices = same race")
FILL_LEVEL = "hard"  # the bot that fills the free seats until the player chooses a level here

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


def free_colour(used: set[str], seat: int) -> str:
    """A colour no other seat has (the defaults first), else the seat's default."""
    every = DEFAULT_COLOURS + tuple(t.id for t in TEAM_COLOURS)
    return next((c for c in every if c not in used), DEFAULT_COLOURS[seat % len(DEFAULT_COLOURS)])


def team_seats(n: int) -> list[SeatChoice]:
    """N seats of teams with unique colours while the palette lasts (rows past the
    most teams are never shown, but every row exists)."""
    seats = default_seats(n)
    while len(seats) < n:
        colour = free_colour({s.colour for s in seats}, len(seats))
        seats.append(SeatChoice(team_colour(colour).name, colour))
    return seats


def seat_list(seats: list[int]) -> str:
    """Seat indexes in words: "seat 3", "seats 2 to 6", "seats 2 and 3", "seats 2, 4 and 5"."""
    numbers = [n + 1 for n in seats]
    if len(numbers) == 1:
        return _("seat {n}").format(n=numbers[0])
    if len(numbers) > 2 and numbers == list(range(numbers[0], numbers[-1] + 1)):
        return _("seats {first} to {last}").format(first=numbers[0], last=numbers[-1])
    return _("seats {list} and {last}").format(list=_(", ").join(map(str, numbers[:-1])), last=numbers[-1])


class SeatRow(Horizontal):
    def __init__(self, seat: int, choice: SeatChoice, controllers, extras) -> None:
        super().__init__(classes="seat-row", id=f"seat-{seat}")
        self.seat = seat
        self.choice = choice
        self.controllers = controllers
        self.extras = extras

    def compose(self):
        s, c = self.seat, self.choice
        yield Static(f"{s + 1:>2}", id=f"pointer-{s}", classes="seat-number")
        # typing or pasting a control character is refused (usertext): it would reach the terminal
        yield Input(clean(c.name, multiline=False), placeholder=_("name"), max_length=MAX_NAME, restrict=NO_CONTROL,
                    compact=True, id=f"name-{s}", classes="seat-name")
        yield CycleSelect([(t.name, t.id) for t in TEAM_COLOURS], value=c.colour, allow_blank=False,
                          compact=True, id=f"colour-{s}", classes="seat-colour")
        yield Static("", id=f"swatch-{s}", classes="swatch")
        yield CycleSelect(self.controllers, value=c.controller, allow_blank=False, compact=True,
                          id=f"controller-{s}", classes="seat-controller")
        yield CycleSelect(self.extras, value=c.extra, allow_blank=False, compact=True,
                          id=f"extra-{s}", classes="seat-extra")
        # 7-12 players: the rider the player races, in the handicap's place
        yield CycleSelect([(_(word), kind) for word, kind in RIDERS], value=c.rider if c.rider in ("S", "R") else "S",
                          allow_blank=False,
                          compact=True, id=f"rider-{s}", classes="seat-extra")


class TeamsScreen(BaseScreen):
    HELP_TOPIC = "teams"
    TEXT_FIELDS = True
    BINDINGS = [
        Binding("ctrl+s", "start", N_("Start race"), priority=True, id="teams.start"),
        Binding("ctrl+f", "fill", N_("Fill with bots"), id="teams.fill"),
        Binding("escape", "back", N_("Back"), id="teams.back"),
    ]

    def __init__(self, choices: RaceChoices, hosting: bool = False) -> None:
        super().__init__()
        self.choices = choices
        self.hosting = hosting  # "Host a table": a human seat plays on its own device or here
        self.changes: list[str] = []  # what the screen changed on its own, said on the message line
        self.said_of_count = False  # the message line says what the number of players changed (say)
        self.said_about = ""  # what else the message line says, where a change must know it ("swap")
        # what the player chose here, which filling with bots keeps: seats whose Plays they
        # chose, the number of players, the bot level last chosen (the level of the fill)
        self.plays_chosen: set[int] = set()
        self.count_chosen = False
        # the breakaway follows the number of teams (on with 5 or 6, as its note recommends) until
        # the player chooses it here; `breakaway_shown` is its value now (a Select says its first too)
        self.breakaway_chosen = False
        self.breakaway_shown = choices.breakaway
        self.level = FILL_LEVEL
        # the seat rows made so far: the first `count`, more when the count first grows past them
        # (twelve rows of fields, most of them hidden, made the screen take three times as long to open)
        self.rows = 0
        self.controllers: list[tuple[str, str]] = []
        self.extras: list[tuple[str, int]] = []
        rules = find(choices.variant)
        self.max_teams = rules.max_teams
        # 7 to 12 players race one rider each (classic, meteo: two riders a colour)
        self.max_seats = rules.max_teams if rules.uses_tokens else 2 * rules.max_teams
        seats = list(choices.seats)
        lone = any(s.rider != "SR" for s in seats)
        for extra in (one_rider_seats(MAX_SEATS) if lone else team_seats(MAX_SEATS))[len(seats):]:
            if not lone:
                extra.colour = free_colour({s.colour for s in seats}, len(seats))
                extra.name = team_colour(extra.colour).name
            seats.append(extra)
        self.seats = [SeatChoice(s.name, s.colour, s.controller, s.extra, s.rider) for s in seats[:MAX_SEATS]]
        self.count = max(2, min(self.max_seats, len(choices.seats)))
        if lone and not self.lone:  # players racing one rider each, offered again where there are none (bmx)
            for n, (seat, fresh) in enumerate(zip(self.seats, team_seats(MAX_SEATS), strict=True)):
                if seat.name.strip() in ("", player_name(n)):
                    seat.name = fresh.name
                seat.colour, seat.rider = fresh.colour, "SR"
            self.changes.append(_("{n} players, a colour each: 7 to 12 players racing one rider each "
                                  "is a classic and meteo game.").format(n=self.count))
        for n, seat in enumerate(self.seats):
            if seat.controller == HERE and not hosting:  # (a hosted race's set-up, offered again for hot-seat)
                seat.controller = HUMAN
            if seat.is_scripted and not find(choices.variant).scripted_teams:  # not in bmx
                if n < self.count:
                    self.changes.append(_("Seat {n} ({team}) is now a human player: the {scripted} team races in "
                                          "classic and meteo only.").format(n=n + 1, team=seat.team_name(),
                                                                            scripted=SCRIPTED_NAMES[seat.controller]))
                seat.controller = HUMAN
            limit = 3 if find(choices.variant).uses_tokens else 5
            if seat.extra > limit:
                if n < self.count:
                    text = _("Seat {n}: {extra} fatigue tokens is more than this rule set allows: now {limit}.") \
                        if find(choices.variant).uses_tokens else \
                        _("Seat {n}: {extra} handicap cards is more than this rule set allows: now {limit}.")
                    self.changes.append(text.format(n=n + 1, extra=seat.extra, limit=limit))
                seat.extra = limit

    def compose(self):
        from ...bots import POLICIES

        bmx = find(self.choices.variant).uses_tokens
        if self.hosting:  # each human plays on their own device (flamme-tui join), or here, at the host's keys
            # (the Plays list is 12 cells wide: a longer label shows cut, and the note above quotes it whole)
            humans = [(_("Own device"), HUMAN), (_("Here"), HERE)]
        else:
            humans = [(_("Human"), HUMAN)]
        controllers = humans + [(_("Bot: {name}").format(name=bot_level(name)), name) for name in POLICIES]
        if find(self.choices.variant).scripted_teams:
            # (the Plays list is 12 cells wide: "équipe Peloton" showed as "équipe", for both teams)
            controllers += [(pgettext("the Plays list: a scripted team, 12 cells at most", "{name} team").format(
                name=name), kind) for kind, name in SCRIPTED_NAMES.items()]
        if bmx:
            extras = [(_("no fatigue") if n == 0 else _("+{n} fatigue").format(n=n), n) for n in range(4)]
        else:
            extras = [(_("none") if n == 0 else _("+{n} exhaustion").format(n=n), n) for n in range(6)]
        self.controllers, self.extras = controllers, extras  # (the rows made later, when the count grows)
        yield from self.compose_notice()
        # not focusable itself: focus on it restyled its 370 widgets (about 0.1 s) each time, and it
        # was a Tab stop with nothing to do; its fields scroll it, as does the mouse wheel
        with VerticalScroll(classes="menu-body", id="teams-body", can_focus=False):
            yield Static(id="teams-title", classes="screen-title")  # (show_rows: it follows the colours)
            if self.hosting:
                # the Plays list's own labels, quoted as the list shows them (Spanish quoted another word)
                yield Static(Content(_("Hosting a table. Plays: \"{device}\" joins from a terminal or a phone with "
                                       "the code the next screen shows; \"{here}\" plays on this keyboard.").format(
                    device=_("Own device"), here=_("Here"))), id="hosting-note")
            with Horizontal(classes="form-row"):
                yield Static(_("Players"), id="label-players", classes="form-label")
                # the value without the label's word ("Players  2", not "Players  2 players")
                yield CycleSelect([(_("{n}, one rider each").format(n=n) if n > self.max_teams else str(n), n)
                                   for n in range(2, self.max_seats + 1)], value=self.count,
                                  allow_blank=False, compact=True, id="players")
                if not bmx:
                    yield Static(_("Grid"), id="label-grid", classes="form-label")
                    yield CycleSelect([(_("random"), "random"), (_("placed by the players"), "choose")],
                                      value=self.choices.grid, allow_blank=False, compact=True, id="grid")
            if self.offers_breakaway():
                with Horizontal(classes="form-row", id="breakaway-row"):
                    yield Static(_("Breakaway"), id="label-breakaway", classes="form-label")
                    yield CycleSelect([(_("no breakaway"), False), (_("breakaway bids"), True)],
                                      value=self.choices.breakaway, allow_blank=False, compact=True, id="breakaway")
                    yield Static(_("bids for a head start before round 1 (recommended with 5-6 teams)"),
                                 id="breakaway-note")
            with Horizontal(id="seat-head"):
                for text, cls in (("#", "seat-number"), (_("Name (up to {n})").format(n=MAX_NAME), "seat-name"),
                                  (_("Colour"), "seat-colour"), ("", "swatch"), (_("Plays"), "seat-controller")):
                    yield Static(text, classes=cls)
                yield Static(self.extra_head(), id="extra-head", classes="seat-extra")
            self.rows = self.count
            for seat, choice in enumerate(self.seats[: self.rows]):
                yield SeatRow(seat, choice, controllers, extras)
            # a hosted table's seed is a secret one (FlammeApp.start_race): no seed to choose then
            with Horizontal(classes="form-row", id="seed-row") as seed_row:
                seed_row.display = not self.hosting
                yield Static(_("Seed"), id="label-seed", classes="form-label")
                # a random seed is not shown: at a hot-seat table whoever knew it could work out every
                # deck (it is told at the podium); one given to the app (--seed) or typed here is used
                given = getattr(self.app, "seed", None) is not None
                yield Input(str(self.choices.seed) if given else "", placeholder=_("random"),
                            max_length=len(str(MAX_SEED)), compact=True, id="seed")
                yield Static(_(SEED_NOTE).format(max=MAX_SEED), id="seed-note")
            yield Static("", id="teams-message")
            with Horizontal(classes="form-row", id="teams-buttons"):
                tour = self.choices.tour is not None
                start = self.key_of("teams.start", "ctrl+s")
                if self.hosting:
                    label = _("Host the table ({key})").format(key=start)
                else:
                    label = _("Start tour ({key})").format(key=start) if tour else _("Start race ({key})").format(key=start)
                yield Button(label, id="start", compact=True)
                yield Button(_("Fill with bots ({key})").format(key=self.key_of("teams.fill", "ctrl+f")), id="fill",
                             compact=True)
                if not self.hosting:
                    yield Button(_("New seed"), id="reseed", compact=True)
                yield Button(_("Back"), id="back", compact=True)
        yield KeyBar(self.bar_keys(on_list=True), id="teams-keys")

    def bar_keys(self, on_list: bool) -> list[tuple[str, str]]:
        """The key bar's keys: ← → only where they change a choice (on a list; in a name or the seed
        they move the text cursor)."""
        start = _("host") if self.hosting else _("start tour") if self.choices.tour is not None else _("start race")
        return [("tab", _("next field")), *([("← →", _("change"))] if on_list else []),
                (self.key_of("teams.start", "ctrl+s"), start),
                (self.key_of("teams.fill", "ctrl+f"), _("fill with bots")), (self.help_key, _("help")),
                (self.key_of("teams.back", "escape"), _("back"))]

    def extra_head(self) -> str:
        """The last column's heading: the rider (one each), young children's tokens (bmx) or the handicap."""
        if self.lone:
            return _("Rider")
        return _("Young children") if find(self.choices.variant).uses_tokens else _("Handicap")

    def offers_breakaway(self) -> bool:
        """The stage's second tile is tile 2, with the breakaway square (every Peloton stage)."""
        if find(self.choices.variant).uses_tokens:
            return False
        try:
            from .stage import stage_info

            if self.choices.tour is not None:  # a tour: the stages that have the breakaway square open with it
                return any(stage_info(leg.stage)[3].breakaway >= 0 for leg in self.choices.tour.stages)
            return bool(stage_info(self.choices.stage)[3].breakaway >= 0)
        except Exception:  # a stage that cannot be read now: no breakaway offered
            return False

    def version_note(self) -> str:
        """What the number of colours changes on this stage: its other version, a bigger start."""
        from ... import config

        colours = self.colours_racing()
        riders = self.count if self.lone else 2 * self.count
        try:
            stage = config.load_stage(self.choices.stage)
            version = config.stage_for_colours(stage, colours)
            course = config.compile_stage(version, riders=riders)
        except Exception:  # said when the race starts
            return ""
        notes = []
        if version.name != stage.name:
            notes.append(_("{n} colours race {stage}.").format(n=colours, stage=stage_name(version.name)))
        if course.tiles and course.tiles[0].letter != config.split_tiles(version.tiles)[0]:
            notes.append(_("{n} riders: the stage starts on Peloton tile {tile} ({places} places).").format(
                # the physical tile as the box numbers it ("_1" is a side of tile 1: the name the data file uses)
                n=riders, tile=config.physical_tile(course.tiles[0].letter), places=sum(course.lanes[: course.grid])))
        return " ".join(notes)

    def colours_racing(self) -> int:
        """How many colours the rows race (a Peloton stage's version goes by it, scripted teams included)."""
        return len({self.query_one(f"#colour-{seat}", Select).value for seat in range(self.count)})

    def heading(self) -> Content:
        """The rule set, then the stage as it will be raced (the version for the colours chosen) or the circuit."""
        from .variant import variant_title

        rules = _("Tour") if self.choices.tour is not None else variant_title(self.choices.variant)
        where = _("circuit {circuit}").format(circuit=self.choices.circuit) \
            if find(self.choices.variant).uses_tokens else self._stage_name()
        return Content.from_markup("[b]$rules[/b] · ", rules=rules) + Content(where) + Content(_(" · teams"))

    def _stage_name(self) -> str:
        tour = self.choices.tour
        if tour is not None:
            return _("{tour}, {stages}").format(
                tour=tour_name(tour.name),
                stages=ngettext("{n} stage", "{n} stages", len(tour.stages)).format(n=len(tour.stages)))
        from ... import config

        try:
            stage = config.load_stage(self.choices.stage)
        except Exception:  # a stage given by path: its id is enough here
            return self.choices.stage
        try:
            # "Peloton 9 (5-6 teams)" once five colours race the 2-4 version chosen: the race takes that one
            return stage_name(config.stage_for_colours(stage, self.colours_racing()).name)
        except Exception:  # its other version cannot be read: said when the race starts
            return stage_name(stage.name)

    def help_text(self) -> str:
        from ..texts import help_for

        return help_for(self.HELP_TOPIC, self.choices.variant, self.keys_text)

    def on_mount(self) -> None:
        super().on_mount()
        for seat in range(self.rows):
            self._stops(seat)
        self.show_rows()
        # the first choice, a list (← → change it; never Start: Enter, Enter must not start a race);
        # a name is typed once Tab reaches it
        self.query_one("#players", Select).focus()
        if self.changes:
            self.say(" ".join(self.changes))

    def _stops(self, seat: int) -> None:
        """Left and right on a seat's colour and rider pass over what another seat has."""
        self.query_one(f"#colour-{seat}", CycleSelect).stops = partial(self.free_for, seat, "colour")
        self.query_one(f"#rider-{seat}", CycleSelect).stops = partial(self.free_for, seat, "rider")

    async def grow_rows(self) -> None:
        """A row for every seat the count shows, made from the seat's choices (self.seats,
        which the screen keeps for the rows not made yet)."""
        if self.rows >= self.count:
            return
        new = [SeatRow(seat, self.seats[seat], self.controllers, self.extras) for seat in range(self.rows, self.count)]
        await self.query_one("#teams-body").mount_all(new, after=f"#seat-{self.rows - 1}")
        self.rows = self.count
        for row in new:
            self._stops(row.seat)

    def solo_handicap(self) -> str:
        """What a lone team of players against a Peloton and a Muscle team starts with
        (PELOTON.md, Solo), said where it comes to be, else "": the boards show the
        cards and its handicap column none of its own."""
        from ...engine.cards import MUSCLE, PELOTON

        # (the engine's solo_against_scripted asks a race's set-up, which this screen makes only at the start:
        # the same seats as its test, for what the race will be)
        seats = self.seats[: self.count]
        if sorted(s.controller if s.is_scripted else "" for s in seats) != ["", MUSCLE, PELOTON]:
            return ""
        from ... import config

        solo = config.load_classic_rules().scripted_teams.solo_handicap
        alone = next(s for s in seats if not s.is_scripted)
        return _("Racing alone against both, {team} starts with {n} exhaustion cards ({s} for its Sprinteur, "
                 "{r} for its Rouleur).").format(team=clean(alone.team_name()), n=solo.sprinteur + solo.rouleur,
                                                  s=solo.sprinteur, r=solo.rouleur)

    def say(self, message: str, warning: bool = False, of_count: bool = False, about: str = "") -> None:
        """The message line under the form, and a toast when that line is out of sight
        (scrolled away on a small screen: a toast over a line in sight hid it for 6 s);
        only the newest toast, as on the line (stepping through a list piled them up);
        `of_count`: what the number of players changes, gone when it changes again."""
        self.said_of_count = of_count
        self.said_about = about
        line = self.query_one("#teams-message", Static)
        line.update(Content(message))
        line.set_class(warning, "-warning")
        self.app.clear_notifications()
        # where the line is now (its words change its height by a line at most, never whether it is scrolled away)
        body, shown = self.query_one("#teams-body").region, line.region
        if not shown.area or not body.contains_region(shown):
            self.notify(message, severity="warning" if warning else "information", timeout=6)

    def unsay(self) -> None:
        """The message line emptied, its toast gone."""
        line = self.query_one("#teams-message", Static)
        line.update(Content(""))
        line.set_class(False, "-warning")
        self.said_of_count = False
        self.said_about = ""
        self.app.clear_notifications()

    @property
    def lone(self) -> bool:
        """More players than teams: each races one rider (PELOTON.md, 7 to 12 players)."""
        return self.count > self.max_teams

    def show_rows(self) -> None:
        lone = self.lone
        for seat in range(self.rows):
            self.query_one(f"#seat-{seat}").display = seat < self.count and seat < self.max_seats
            colour = team_colour(chosen(self.query_one(f"#colour-{seat}", Select).value))
            kind = chosen(self.query_one(f"#rider-{seat}", Select).value) if lone else ""
            self.query_one(f"#swatch-{seat}", Static).update(
                Content.from_markup(f"[on {colour.hex}]  [/] $letter", letter=colour.letter + str(kind)))
            self.query_one(f"#extra-{seat}").display = not lone
            self.query_one(f"#rider-{seat}").display = lone
        self.query_one("#extra-head", Static).update(self.extra_head())
        self.query_one("#teams-title", Static).update(self.heading())

    def free_for(self, seat: int, field: str, value: str) -> bool:
        """Whether left/right on seat's colour (or rider) may stop at `value`: no other seat
        shown races it (teams: the colour; one rider each: the colour and rider)."""
        mine = self.seats[seat]
        colour, rider = (value, mine.rider) if field == "colour" else (mine.colour, value)
        return not any((s.colour, s.rider if self.lone else "") == (colour, rider if self.lone else "")
                       for n, s in enumerate(self.seats[: self.count]) if n != seat)

    # ------------------------------------------------------------ focus

    def on_descendant_focus(self, event) -> None:
        self._point_at(event.widget)

    def on_descendant_blur(self, event) -> None:
        self.call_after_refresh(self._point_at, self.focused)

    def _point_at(self, widget) -> None:
        """A pointer beside the focused field's row or label: visible without colour.
        (Called after a refresh: the screen may be gone by then, its race started.)"""
        row = next((n for n in getattr(widget, "ancestors_with_self", ()) if isinstance(n, SeatRow)), None)
        # (query_one by id is a lookup; a query's results walk and match the whole form: 70 ms a focus)
        if not self.is_attached:
            return
        for seat in range(self.rows):
            here = row is not None and row.seat == seat
            self.query_one(f"#pointer-{seat}", Static).update(f"▶{seat + 1}" if here else f"{seat + 1:>2}")
        self.query_one("#teams-keys", KeyBar).show(self.bar_keys(on_list=isinstance(widget, Select)))
        wid = getattr(widget, "id", None)
        for label in ("players", "grid", "breakaway", "seed"):
            try:
                self.query_one(f"#label-{label}").set_class(wid == label, "-focused")
            except NoMatches:  # no grid or breakaway line in this rule set
                pass

    # ------------------------------------------------------------ changes

    async def on_select_changed(self, event: Select.Changed) -> None:
        sid = event.select.id or ""
        # Select.Changed is not generic in Textual's typing (its value has an
        # unbound type variable): the players select holds ints, colours strs
        if sid == "players":
            was_lone, was = self.lone, self.count
            count = cast(int, chosen(event.value))
            self.count_chosen = self.count_chosen or count != self.count  # (a Select says its first value too)
            self.count = count
            if self.lone != was_lone:
                self.switch_riders()
            await self.grow_rows()
            self.show_rows()
            if count != was:  # (not its first value: the breakaway's own first value comes after it)
                self.recommend_breakaway()
            note = "" if find(self.choices.variant).uses_tokens else self.version_note()
            if self.lone and not was_lone:
                note = _("{n} players race one rider each: in seat order each takes a free rider "
                         "(two players may share a colour, as rivals).").format(n=self.count) + " " + note
            if note:
                self.say(note, of_count=True)
            elif self.said_of_count:  # the line said what the number before changed (ctrl+f's six players)
                self.unsay()
        elif sid == "breakaway":
            value = bool(chosen(event.value))
            self.breakaway_chosen = self.breakaway_chosen or value != self.breakaway_shown
            self.breakaway_shown = value
        elif sid.startswith("controller-"):
            seat = int(sid.split("-")[1])
            controller = cast(str, chosen(event.value))
            if controller == self.seats[seat].controller:
                return  # (a Select says its first value too)
            self.seats[seat].controller = controller
            self.plays_chosen.add(seat)
            if controller not in (HUMAN, HERE) and controller not in SCRIPTED_NAMES:
                self.level = controller
            if controller in SCRIPTED_NAMES:  # what a scripted team is, where it is chosen
                said = _("Seat {n} is the {scripted} team, scripted: {about}.").format(
                    n=seat + 1, scripted=SCRIPTED_NAMES[controller], about=_(SCRIPTED_ABOUT[controller]))
                self.say(f"{said} {solo}" if (solo := self.solo_handicap()) else said, about=f"scripted-{seat}")
            elif self.said_about == f"scripted-{seat}":  # what the seat was, said no more once it is not
                self.unsay()

        elif sid.startswith("rider-") and self.lone:
            seat = int(sid.split("-")[1])
            self._keep_riders_unique(seat, self.seats[seat].colour, str(event.value))
        elif sid.startswith("colour-") and self.lone:
            seat = int(sid.split("-")[1])
            self._keep_riders_unique(seat, str(event.value), self.seats[seat].rider)
        elif sid.startswith("colour-"):
            seat = int(sid.split("-")[1])
            new, old = cast(str, chosen(event.value)), self.seats[seat].colour
            if new == old:
                return
            self._rename_default(seat, old, new)
            self.seats[seat].colour = new
            swapped = False
            for other in range(self.max_teams):  # colours stay unique: swap with the seat that had it
                if other != seat and self.seats[other].colour == new:
                    self.seats[other].colour = old
                    self._rename_default(other, new, old)
                    if other < self.rows:
                        self.query_one(f"#colour-{other}", Select).value = old
                    if other < self.count:
                        swapped = True
                        self.say(_("{new} was seat {n}'s colour: the two seats swap, seat {n} is now {old}.").format(
                            new=team_colour(new).name, n=other + 1, old=team_colour(old).name), about="swap")
            if not swapped and self.said_about == "swap":  # a swap said before is no news of this change
                self.unsay()
            self.show_rows()

    def switch_riders(self) -> None:
        """Between teams of two riders and one rider each: every seat gets the
        default of the other kind (the names the player typed stay)."""
        lone = self.lone
        fresh = one_rider_seats(MAX_SEATS) if lone else team_seats(MAX_SEATS)
        for seat in range(MAX_SEATS):
            made = seat < self.rows  # (no row yet: it will be made from self.seats)
            name = self.query_one(f"#name-{seat}", Input) if made else None
            # a seat without a row keeps a name of its own too (a set-up brought back from the last race)
            typed = name.value.strip() if name is not None else self.seats[seat].name.strip()
            if typed in ("", team_colour(self.seats[seat].colour).name, player_name(seat)):
                self.seats[seat].name = fresh[seat].name
                if name is not None:
                    name.value = fresh[seat].name
            self.seats[seat].colour = fresh[seat].colour
            self.seats[seat].rider = fresh[seat].rider if lone else "SR"
            if not made:
                continue
            with self.prevent(Select.Changed):
                self.query_one(f"#colour-{seat}", Select).value = fresh[seat].colour
                if lone:
                    self.query_one(f"#rider-{seat}", Select).value = fresh[seat].rider

    def _keep_riders_unique(self, seat: int, colour: str, rider: str) -> None:
        """One rider, one player: choosing the colour and rider another seat has swaps the two seats' riders."""
        old = (self.seats[seat].colour, self.seats[seat].rider)
        echo = old == (colour, rider)  # (a Select says its first value too)
        self.seats[seat].colour, self.seats[seat].rider = colour, rider
        swapped = False
        for other in range(self.count):
            if other != seat and (self.seats[other].colour, self.seats[other].rider) == (colour, rider):
                self.seats[other].colour, self.seats[other].rider = old
                with self.prevent(Select.Changed):
                    self.query_one(f"#colour-{other}", Select).value = old[0]
                    self.query_one(f"#rider-{other}", Select).value = old[1]
                kind = {v: _(k) for k, v in RIDERS}
                self.say(_("{colour} {kind} was seat {n}'s rider: the two seats swap, seat {n} now races "
                           "{old_colour} {old_kind}.").format(colour=team_colour(colour).name, kind=kind[rider],
                                                               n=other + 1, old_colour=team_colour(old[0]).name,
                                                               old_kind=kind[old[1]]), about="swap")
                swapped = True
        if not swapped and not echo and self.said_about == "swap":  # a swap said before is no news of this change
            self.unsay()
        self.show_rows()

    def _rename_default(self, seat: int, old: str, new: str) -> None:
        if seat >= self.rows:  # no row yet: its name as the row will show it
            if self.seats[seat].name.strip() in ("", team_colour(old).name):
                self.seats[seat].name = team_colour(new).name
            return
        name = self.query_one(f"#name-{seat}", Input)
        if name.value.strip() in ("", team_colour(old).name):
            name.value = team_colour(new).name

    # ------------------------------------------------------- quick set-up

    def is_set(self, seat: int) -> bool:
        """A seat the player set: the first (whoever sets the race up sits there), a bot or
        scripted team already, Plays chosen on this screen, or a name typed."""
        if seat == 0 or seat in self.plays_chosen or self.seats[seat].controller != HUMAN:
            return True
        name = self.query_one(f"#name-{seat}", Input).value.strip()
        colour = team_colour(chosen(self.query_one(f"#colour-{seat}", Select).value))
        return name not in ("", colour.name, player_name(seat))

    def recommend_breakaway(self) -> None:
        """The breakaway on with 5 or 6 teams, off with fewer, as its note recommends (a player
        read "no breakaway" beside "recommended with 5-6 teams"), unless chosen here."""
        found = self.query("#breakaway")
        if self.breakaway_chosen or not found:
            return
        self.breakaway_shown = 5 <= self.count <= self.max_teams
        with self.prevent(Select.Changed):
            found.first(Select).value = self.breakaway_shown

    async def action_fill(self) -> None:
        """A bot (the level last chosen here, else hard) in every seat nobody set; the
        table filled up to the most teams unless the player chose how many play."""
        grown = not self.count_chosen and self.count < self.max_teams
        if grown:
            with self.prevent(Select.Changed):
                self.query_one("#players", Select).value = self.max_teams
            self.count = self.max_teams
            await self.grow_rows()
            self.show_rows()
            self.recommend_breakaway()
        filled = [seat for seat in range(self.count) if not self.is_set(seat)]
        for seat in filled:
            self.seats[seat].controller = self.level
            with self.prevent(Select.Changed):
                self.query_one(f"#controller-{seat}", Select).value = self.level
        players = _("{n} players, the most").format(n=self.count) if grown else _("{n} players").format(n=self.count)
        if filled:
            said = ngettext("{seats} is now a {level} bot; seat 1 and any seat you set stay as they are.",
                            "{seats} are now {level} bots; seat 1 and any seat you set stay as they are.",
                            len(filled)).format(seats=seat_list(filled), level=bot_level(self.level))
        else:
            said = _("no free seat to fill: each is yours (seat 1), a bot, or has a name typed or its Plays chosen.")
        notes = [_("{players}: {said}").format(players=players, said=said)]
        if grown:
            notes.append(_("Fewer players: the Players list, with ← →."))
            if not find(self.choices.variant).uses_tokens:
                notes.append(self.version_note())  # 5 or 6 colours: another version of the stage
        self.say(" ".join(n for n in notes if n), of_count=grown)  # (it says what six players change)

    def action_back(self) -> None:
        self.remember()
        self.app.clear_notifications()  # what this screen said is about its set-up, as at the start
        self.app.pop_screen()

    def on_screen_suspend(self) -> None:
        """Another screen over this one (the help, the palette's New race): the set-up is kept
        (not when the screen is left: its fields may be gone by then; action_back keeps it)."""
        if self in self.app.screen_stack and self.app.screen is not self:
            self.remember()

    def remember(self) -> None:
        """The set-up as it stands, into the choices the screen was given (the app's): the next
        New race offers these names, colours and players again (the seed is drawn anew)."""
        set_up = self.set_up()
        self.choices.seats, self.choices.grid, self.choices.breakaway = set_up.seats, set_up.grid, set_up.breakaway

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id == "seed":
            ok = parse_seed(event.value) is not None or not event.value.strip()
            note = self.query_one("#seed-note", Static)
            note.update((_(SEED_NOTE) if ok else _("not a seed: digits only, 0 to {max}")).format(max=MAX_SEED))
            note.set_class(not ok, "-warning")
        elif (event.input.id or "").startswith("name-") and len(event.value) >= MAX_NAME and event.input.has_focus:
            # (typed there: a long name the last set-up brings back says nothing)
            self.say(_("Names are up to {n} characters.").format(n=MAX_NAME))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in a field: the next field, never the Start button."""
        event.stop()
        self.focus_next()
        if self.focused is not None and self.focused.id == "start":
            self.focus_next()

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "start":
            self.action_start()
        elif event.button.id == "fill":
            await self.action_fill()
        elif event.button.id == "reseed":  # a random seed, not shown (see the seed field)
            self.query_one("#seed", Input).value = ""
        elif event.button.id == "back":
            self.action_back()

    # -------------------------------------------------------------- start

    def set_up(self) -> RaceChoices:
        """The choices on the screen, the seed left as the screen was given it."""
        seats = []
        for seat in range(self.count):
            name = clean(self.query_one(f"#name-{seat}", Input).value, multiline=False).strip()
            name = name if visible(name) else ""  # zero-width spaces: a blank, as an empty name
            colour = chosen(self.query_one(f"#colour-{seat}", Select).value)
            controller = chosen(self.query_one(f"#controller-{seat}", Select).value)
            extra = chosen(self.query_one(f"#extra-{seat}", Select).value)
            rider = str(chosen(self.query_one(f"#rider-{seat}", Select).value)) if self.lone else "SR"
            seats.append(SeatChoice(name or team_colour(colour).name, colour, controller,
                                    0 if self.lone else int(extra), rider))
        choices = self.choices.copy()
        choices.seats = seats
        if find(choices.variant).grid_choice:
            choices.grid = chosen(self.query_one("#grid", Select).value)
        breakaway = self.query("#breakaway")
        choices.breakaway = bool(chosen(breakaway.first(Select).value)) if breakaway else False
        return choices

    def gather(self) -> RaceChoices | None:
        """The choices on the screen, or None (said on the message line) if the seed is not one."""
        choices = self.set_up()
        seed_text = self.query_one("#seed", Input).value.strip()
        if self.hosting:  # (the field is hidden: the race gets a secret seed)
            return choices
        if not seed_text:
            choices.seed = random_seed()
            return choices
        seed = parse_seed(seed_text)
        if seed is None:
            self.say(_("The seed must be a whole number from 0 to {max} (digits only), not {text!r}.").format(
                max=MAX_SEED, text=seed_text[:24]), warning=True)
            self.query_one("#seed", Input).focus()
            return None
        choices.seed = seed
        return choices

    def action_start(self) -> None:
        choices = self.gather()
        if choices is None:
            return
        if all(s.is_scripted for s in choices.seats):
            self.say(_("The Peloton and Muscle teams need a human or a bot to race against."), warning=True)
            return
        if self.hosting and not any(s.controller == HUMAN for s in choices.seats):
            self.say(_("A hosted table needs a seat played on its own device: set a seat's Plays to "
                       "\"{device}\" (or start a race from New race to play at this keyboard).").format(
                device=_("Own device")), warning=True)
            return
        problem = choices.problem()
        if problem:
            self.say(problem, warning=True)
            return
        self.app.start_race(choices)
