"""End of race: podium, full ranking, per-team statistics; race again, new race, quit."""

from __future__ import annotations

from rich.text import Text
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Button, Static

from ...usertext import clean
from ..palette import contrast_text, rider_label, team_of_rider
from ..widgets.keybar import KeyBar
from ..widgets.squares import where as square_where
from .base import BaseScreen


def rider_text(game, i: int, names) -> Text:
    r = game.riders[i]
    colour = team_of_rider(r.id)
    label = rider_label(r.id, getattr(r, "kind", "") if not game.rules.uses_tokens else "")
    kind = {"S": "Sprinteur", "R": "Rouleur"}.get(getattr(r, "kind", ""), "")
    text = Text()
    text.append(label, style=f"bold {contrast_text(colour.hex)} on {colour.hex}")
    text.append(f" {clean(names[r.seat])}" + (f" {kind}" if kind else ""))
    return text


def podium_text(game, names) -> Text:
    """Three blocks, the winner's the highest: second, first, third."""
    order = game.ranking()[:3]
    width = 10
    heights = {0: 4, 1: 3, 2: 2}
    top = heights[0] + 2  # label row + frame top + block
    lines = [Text() for _ in range(top + 1)]
    for place in (1, 0, 2):
        if place >= len(order):
            for line in lines:
                line.append(" " * (width + 2))
            continue
        r = game.riders[order[place]]
        colour = team_of_rider(r.id)
        label = rider_label(r.id, getattr(r, "kind", "") if not game.rules.uses_tokens else "")
        frame = f"{colour.hex}"
        fill = f"bold {contrast_text(colour.hex)} on {colour.hex}"
        first = top - heights[place] - 1  # the frame's top row
        for row, line in enumerate(lines):
            if row == first - 1:
                line.append(label.center(width), style="bold")
            elif row == first:
                line.append("┌" + "─" * (width - 2) + "┐", style=frame)
            elif first < row < top:
                line.append("│", style=frame)
                inner = (f"{place + 1}" if row == first + 1 else "").center(width - 2)
                line.append(inner, style=fill)
                line.append("│", style=frame)
            elif row == top:
                line.append("┴" + "─" * (width - 2) + "┴", style=frame)
            else:
                line.append(" " * width)
            line.append("  ")
    return Text("\n").join(lines)


class PodiumScreen(BaseScreen):
    HELP_TOPIC = "podium"
    BINDINGS = [
        Binding("r", "again", "Race again"),
        Binding("n", "new", "New race"),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(self, flow) -> None:
        super().__init__()
        self.flow = flow

    def compose(self):
        flow = self.flow
        game = flow.game
        names = [t.name for t in game.setup.teams]
        winner = game.winner if game.winner is not None else game.ranking()[0]
        yield from self.compose_notice()
        with VerticalScroll(id="podium-body"):
            head = Text("Winner: ", style="bold")
            head.append_text(rider_text(game, winner, names))
            head.append(f" · {clean(game.course.name)} · {game.round} rounds · seed {flow.session.seed}")
            yield Static(head, id="podium-title")
            with Horizontal(id="podium-top"):
                yield Static(podium_text(game, names), id="podium")
                yield Static(self.ranking(game, names), id="ranking")
            yield Static(self.stats(game, names), id="stats")
            with Horizontal(id="podium-buttons"):
                yield Button("Race again (r)", id="again", variant="success", compact=True)
                yield Button("New race (n)", id="new", compact=True)
                yield Button("Quit (q)", id="quit", variant="error", compact=True)
        yield KeyBar([("r", "race again"), ("n", "new race"), ("?", "help"), ("q", "quit")])

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#again", Button).focus()

    def ranking(self, game, names) -> Text:
        text = Text("Ranking\n", style="bold")
        for place, i in enumerate(game.ranking(), 1):
            line = Text(f"{place:>2}. ")
            line.append_text(rider_text(game, i, names))
            line.append(f"  {square_where(game.course, game.pos[i][0])}")
            text.append_text(line)
            text.append("\n")
        text.rstrip()
        return text

    def stats(self, game, names) -> Text:
        n = len(names)
        bmx = game.rules.uses_tokens
        meteo = game.rules.has_weather
        outcome = game.outcome()
        if bmx:
            head = f"{'Team':<14}{'fatigue taken':>14}{'catch-up squares':>18}{'tokens left':>13}"
        else:
            head = f"{'Team':<14}{'exhaustion':>11}{'slipstream sq.':>15}{'cards left':>12}"
            if meteo:
                head += f"{'crashes':>9}"
        text = Text("Team statistics\n", style="bold")
        text.append(head + "\n", style="#bbbbbb")
        for seat in range(n):
            riders = [i for i, r in enumerate(game.riders) if r.seat == seat]
            colour = team_of_rider(game.riders[riders[0]].id)
            text.append(f" {colour.letter} ", style=f"bold {contrast_text(colour.hex)} on {colour.hex}")
            text.append(f" {clean(names[seat])[:10]:<10}")
            team = outcome.teams[seat]
            if bmx:
                text.append(f"{team.exhaustion:>14}{team.slipstream:>18}{team.left:>13}")
            else:
                text.append(f"{team.exhaustion:>11}{team.slipstream:>15}{team.left:>12}")
                if meteo:
                    text.append(f"{team.crashes:>9}")
            text.append("\n")
        text.rstrip()
        return text

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        {"again": self.action_again, "new": self.action_new, "quit": self.action_quit}[event.button.id]()

    def action_again(self) -> None:
        self.app.race_again()

    def action_new(self) -> None:
        self.app.new_race(from_podium=True)

    def action_quit(self) -> None:
        self.app.exit(0)
