"""The BMX circuit builder: each tile's side, the jump ramp, the forecast variant."""

from __future__ import annotations

from rich.cells import cell_len
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.events import Click
from textual.widgets import Static

from ...i18n import N_, _, pgettext
from ...usertext import escape_markup
from ..widgets.keybar import KeyBar
from ..widgets.lap import LapStrip
from ..widgets.track import TrackClicked
from .base import BaseScreen

LAP = 28
# the tile sides' names in the shipped rules file (stages/variants/bmx.yaml), for the catalogs: a
# side's name is said in the player's language when it is one of these, as written otherwise
SIDE_NAMES = (N_("classic track"), N_("bumpy passage"), N_("canyon"), N_("descent"), N_("marsh"))


def side_name(name: str) -> str:
    """A tile side's name from the rules file, in the player's language where the catalog has it."""
    return _(name) if name else name  # (gettext of "" is the catalog's header)


class TileToggle(Static):
    def __init__(self, letter: str) -> None:
        super().__init__("", classes="tile-toggle")
        self.letter = letter

    def on_click(self, event: Click) -> None:
        event.stop()
        screen = self.screen
        if isinstance(screen, BmxBuilderScreen):  # the screen this toggle is on
            screen.flip(self.letter)


class BmxBuilderScreen(BaseScreen):
    HELP_TOPIC = "builder"
    BINDINGS = [
        Binding("a", "flip('A')", N_("Tiles"), key_display="a-d", show=True),
        Binding("b", "flip('B')", show=False),
        Binding("c", "flip('C')", show=False),
        Binding("d", "flip('D')", show=False),
        Binding("r", "ramp", N_("Ramp")),
        Binding("left_square_bracket", "move_ramp(-1)", N_("Move"), key_display="[ ]"),
        Binding("right_square_bracket", "move_ramp(1)", show=False),
        Binding("plus,equals_sign", "ramp_number(1)", N_("Number"), key_display="+ -"),
        Binding("minus", "ramp_number(-1)", show=False),
        Binding("f", "forecast", N_("Forecast")),
        Binding("enter", "done", N_("Teams")),
        Binding("escape", "app.pop_screen", N_("Back")),
    ]

    def __init__(self, circuit: str = "ABCD", ramp: tuple[int, int] | None = None, forecast: bool = False) -> None:
        super().__init__()
        self.circuit = list(circuit)
        self.ramp = ramp
        self.forecast = forecast
        self.last_ramp = ramp or (10, 3)

    def compose(self):
        yield from self.compose_notice()
        with Vertical(classes="menu-body"):
            yield Static(_("[b]BMX[/b] · build the circuit"), classes="screen-title")
            with Horizontal(id="builder-top"):
                yield LapStrip(None, legend=False, id="builder-lap")  # (its legend: below)
                with Vertical(id="builder-tiles"):
                    for letter in "ABCD":
                        yield TileToggle(letter)
            yield Static("", id="builder-options")
            yield Static("", id="builder-legend")
        # (the ramp's words in context: a key bar as long as the English one, 80 cells, in every language)
        yield KeyBar([("a-d", _("tiles")), ("r", _("ramp")), ("[ ]", pgettext("ramp", "move")),
                      ("+ -", pgettext("ramp", "number")), ("f", _("forecast")),
                      ("⏎", pgettext("next screen", "teams")), (self.help_key, _("help")), ("esc", _("back"))])

    def on_mount(self) -> None:
        super().on_mount()
        self.redraw()

    def redraw(self) -> None:
        from ... import config
        from ..texts import track_legend

        rules = config.load_bmx_rules()
        course = config.compile_bmx_circuit("".join(self.circuit), 4, self.ramp)
        self.query_one("#builder-lap", LapStrip).set_course(course)
        shown = {}  # letter -> (the side up, its name, the other side's name), names from a data file
        for letter in "ABCD":
            side, tile = self.circuit["ABCD".index(letter)], rules.tiles[letter]
            up, down = (tile.front, tile.back) if side.isupper() else (tile.back, tile.front)
            shown[letter] = side, side_name(up.name), side_name(down.name)
        # the names in a column as wide as the longest, a space after it (French and Spanish run longer)
        width = max(14, *(cell_len(name) for _side, name, _other in shown.values())) + 1
        for toggle in self.query(TileToggle):
            side, name, other = shown[toggle.letter]
            flip = _("key {key} → {other}").format(key=toggle.letter.lower(), other=escape_markup(other))
            pad = " " * (width - cell_len(name))
            toggle.update(f"[b]{side}[/b] {escape_markup(name)}{pad}[dim]{flip}[/dim]")
        if self.ramp is None:
            ramp = _("[b]Jump ramp:[/b] none  [dim](r: place one)[/dim]")
        else:
            sq, number = self.ramp
            letter = "ABCD"[sq // 7]
            ramp = _("[b]Jump ramp:[/b] /{number} on lap square {square} (tile {tile})"
                     "  [dim][ ] move · + - number · r remove[/dim]").format(
                number=number, square=sq + 1, tile=self.circuit["ABCD".index(letter)])
        forecast = _("on: the die is rolled before drawing") if self.forecast else _("off")
        self.query_one("#builder-options", Static).update(
            ramp + "\n" + _("[b]Weather forecast:[/b] {state}  [dim](f)[/dim]").format(state=forecast) + "\n"
            + _("[b]Young children:[/b] fatigue tokens per player, on the next screen") + "\n"
            + _("[b]Enter[/b] continue to the teams")
        )
        # the legend without its last line (the riders': the circuit has none yet)
        self.query_one("#builder-legend", Static).update("\n".join(track_legend("bmx").split("\n")[:-1]))

    def flip(self, letter: str) -> None:
        k = "ABCD".index(letter)
        self.circuit[k] = self.circuit[k].swapcase()
        self.redraw()

    def action_flip(self, letter: str) -> None:
        self.flip(letter)

    def action_ramp(self) -> None:
        if self.ramp is None:
            self.ramp = self.last_ramp
        else:
            self.last_ramp, self.ramp = self.ramp, None
        self.redraw()

    def action_move_ramp(self, delta: int) -> None:
        if self.ramp is None:
            self.ramp = self.last_ramp
        else:
            self.ramp = ((self.ramp[0] + delta) % LAP, self.ramp[1])
        self.redraw()

    def action_ramp_number(self, delta: int) -> None:
        if self.ramp is None:
            self.ramp = self.last_ramp
        self.ramp = (self.ramp[0], (self.ramp[1] - 1 + delta) % 5 + 1)
        self.redraw()

    def action_forecast(self) -> None:
        self.forecast = not self.forecast
        self.redraw()

    def on_track_clicked(self, event: TrackClicked) -> None:
        lap = self.query_one("#builder-lap", LapStrip)
        grid = lap.course.grid
        if event.square >= grid:
            number = self.ramp[1] if self.ramp else self.last_ramp[1]
            self.ramp = (event.square - grid, number)
            self.redraw()

    def action_done(self) -> None:
        self.app.choose_circuit("".join(self.circuit), self.ramp, self.forecast)
