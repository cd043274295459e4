"""End of race: podium, full ranking, per-team statistics; race again, new race, quit."""

from __future__ import annotations

from typing import NamedTuple

from rich.text import Text
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Button, Static

from ...usertext import cells, clean, fit
from ..palette import contrast_text, rider_label, team_of_rider
from ..widgets.keybar import KeyBar
from ..widgets.squares import label as square_label
from ..widgets.squares import lane_word
from ..widgets.squares import where as square_where
from .base import BaseScreen


class History(NamedTuple):
    """What the podium shows beyond the final position, from the race's public history."""

    distances: list[list[int]]  # per round (the start first), per rider: squares to the line
    grid_place: list[int]  # per rider: its place on the starting grid (1 = front)
    wind: list[int]  # per rider: rounds it took an exhaustion card (BMX: fatigue) at the front
    shelter: list[int]  # per rider: squares gained by slipstream (BMX: catch-up)


def podium_data(flow) -> History:
    """Replays the race's actions (public once the race is over) round by round,
    for what the final outcome does not hold: the gaps after each round, the
    grid, and who took the wind or the shelter."""
    from ...engine.phase import Phase
    from ...play.races import new_game

    session = flow.session
    game = new_game(session.setup, session.seed)
    n = len(game.riders)
    finish = game.course.finish

    def distances() -> list[int]:
        return [max(0, finish - p[0]) for p in game.pos]

    history: list[list[int]] = []
    grid_place = [0] * n
    wind, shelter = [0] * n, [0] * n
    done = 0
    if game.phase != Phase.GRID:
        history.append(distances())
        grid_place = [game.ranking().index(i) + 1 for i in range(n)]
    for action in session.game.actions:
        before = game.phase
        game.apply(action)
        if before == Phase.GRID and game.phase != Phase.GRID:
            history.append(distances())
            grid_place = [game.ranking().index(i) + 1 for i in range(n)]
            continue
        if game.rounds_done > done:
            done = game.rounds_done
            history.append(distances())
            for e in game.events:
                if e.kind in ("exhaust", "fatigue"):
                    wind[e.rider] += 1
                elif e.kind in ("slip", "catchup"):
                    shelter[e.rider] += e.square - e.start
    return History(history, grid_place, wind, shelter)


def chart_text(game, names, history: History, width: int = 76, max_height: int = 12) -> Text:
    """Every rider's gap to the leader, round by round (the leader on the top
    line): a letter per rider (team letter; a Rouleur's in lower case)."""
    rounds = len(history.distances)
    if rounds < 2:
        return Text("")
    gaps = [[d - min(per_round) for d in per_round] for per_round in history.distances]
    worst = max(max(g) for g in gaps) or 1
    height = min(max_height, worst + 1)
    step = max(1, min(4, (width - 8) // rounds))
    cols = step * (rounds - 1) + 1

    def mark_of(r) -> str:
        colour = team_of_rider(r.id)
        return colour.letter.lower() if getattr(r, "kind", "") == "R" else colour.letter

    grid: list[list[tuple[str, str]]] = [[(" ", "")] * cols for _ in range(height)]
    for i, r in enumerate(game.riders):
        colour, mark = team_of_rider(r.id), mark_of(r)
        for k, per_round in enumerate(gaps):
            row = round((height - 1) * per_round[i] / worst)
            x = k * step
            prev = grid[row][x][0]
            grid[row][x] = ("*" if prev not in (" ", mark) else mark, f"bold {colour.hex}")
    text = Text("Race chart: squares behind the leader, round by round\n", style="bold")
    for row, line in enumerate(grid):
        value = round(row * worst / (height - 1)) if height > 1 else 0
        labelled = row in (0, height - 1) or row == (height - 1) // 2
        text.append(f"{value:>5} ┤" if labelled else "      │")
        for ch, style in line:
            text.append(ch, style=style)
        text.append("\n")
    text.append("      └" + "─" * cols + "\n")
    axis = [" "] * cols
    every = max(1, -(-5 // step))  # a label every few rounds, never crowded
    for k in range(0, rounds, every):
        for j, ch in enumerate(str(k)):
            if k * step + j < cols:
                axis[k * step + j] = ch
    text.append("       " + "".join(axis) + "  round\n")
    legend = Text("       ")
    for r in game.riders:
        kind = {"S": " Sprinteur", "R": " Rouleur"}.get(getattr(r, "kind", ""), "")
        legend.append(mark_of(r), style=f"bold {team_of_rider(r.id).hex}")
        legend.append(f" {names[r.seat]}{kind}  ")
    text.append_text(legend)
    text.append(" * several riders")
    return text


def awards_text(game, names, history: History) -> Text:
    """Longest in the wind, most squares in shelter, best finish from the back."""
    bmx = game.rules.uses_tokens
    ranking = game.ranking()

    def who(i: int) -> str:
        r = game.riders[i]
        kind = {"S": " (Sprinteur)", "R": " (Rouleur)"}.get(getattr(r, "kind", ""), "")
        return f"{names[r.seat]}{kind}"

    def best(values: list[int]) -> tuple[list[int], int]:
        top = max(values) if values else 0
        return [i for i, v in enumerate(values) if v == top and top > 0], top

    text = Text("Awards\n", style="bold")
    riders, n = best(history.wind)
    token = "fatigue tokens" if bmx else "exhaustion cards"
    text.append("  Longest in the wind: ")
    text.append(f"{', '.join(who(i) for i in riders)} ({n} {token} taken at the front)\n" if riders
                else "nobody (no rider alone at the front)\n")
    riders, n = best(history.shelter)
    how = "catch-up" if bmx else "slipstream"
    text.append(f"  Most squares by {how}: ")
    text.append(f"{', '.join(who(i) for i in riders)} ({n} squares)\n" if riders else "nobody\n")
    gained = [history.grid_place[i] - (ranking.index(i) + 1) for i in range(len(game.riders))]
    riders, n = best(gained)
    text.append("  Best finish from the back of the grid: ")
    if riders:
        i = riders[0]
        text.append(f"{who(i)}: from place {history.grid_place[i]} on the grid to {ranking.index(i) + 1}"
                    f"{' (and others)' if len(riders) > 1 else ''}")
    else:
        text.append("nobody gained a place on the grid order")
    return text


def tie_text(game, names) -> Text:
    """Why riders on one square are ranked as they are (the engine's ranking)."""
    ranking = game.ranking()
    lines = []

    def who(i: int) -> str:
        kind = {"S": " Sprinteur", "R": " Rouleur"}.get(getattr(game.riders[i], "kind", ""), "")
        return f"{names[game.riders[i].seat]}{kind}"

    for a, b in zip(ranking, ranking[1:]):
        if game.pos[a][0] == game.pos[b][0] and ranking.index(a) < 3:
            ahead, behind = lane_word(game.variant, game.pos[a][1]), lane_word(game.variant, game.pos[b][1])
            lines.append(f"{who(a)} and {who(b)} stopped on the same square "
                         f"({square_label(game.course, game.pos[a][0])}): {who(a)} ranks ahead, in the {ahead} "
                         f"against the {behind} (on one square the {lane_word(game.variant, 0)} ranks first).")
    return Text("\n".join(lines))


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
    top = []
    for i in game.ranking()[:3]:
        r = game.riders[i]
        top.append((rider_label(r.id, getattr(r, "kind", "") if not game.rules.uses_tokens else ""),
                    team_of_rider(r.id).hex))
    return podium_blocks(top)


def podium_blocks(top: list[tuple[str, str]]) -> Text:
    """Blocks for the first three, the winner's the highest, in the order
    second, first, third; `top`: (label, colour) of each, the winner first."""
    width = 10
    heights = {0: 4, 1: 3, 2: 2}
    top_row = heights[0] + 2  # label row + frame top + block
    lines = [Text() for _ in range(top_row + 1)]
    for place in (1, 0, 2):
        if place >= len(top):
            for line in lines:
                line.append(" " * (width + 2))
            continue
        label, hex_colour = top[place]
        frame = f"{hex_colour}"
        fill = f"bold {contrast_text(hex_colour)} on {hex_colour}"
        first = top_row - heights[place] - 1  # the frame's top row
        for row, line in enumerate(lines):
            if row == first - 1:
                line.append(label.center(width), style="bold")
            elif row == first:
                line.append("┌" + "─" * (width - 2) + "┐", style=frame)
            elif first < row < top_row:
                line.append("│", style=frame)
                inner = (f"{place + 1}" if row == first + 1 else "").center(width - 2)
                line.append(inner, style=fill)
                line.append("│", style=frame)
            elif row == top_row:
                line.append("┴" + "─" * (width - 2) + "┴", style=frame)
            else:
                line.append(" " * width)
            line.append("  ")
    return Text("\n").join(lines)


class PodiumScreen(BaseScreen):
    HELP_TOPIC = "podium"
    BINDINGS = [
        Binding("r", "again", "Race again", id="podium.again"),
        Binding("n", "new", "New race", id="podium.new"),
        Binding("q", "quit", "Quit", id="podium.quit"),
    ]

    def __init__(self, flow) -> None:
        super().__init__()
        self.flow = flow

    def compose(self):
        flow = self.flow
        game = flow.game
        names = [clean(t.name, multiline=False) for t in game.setup.teams]  # from a file or a player: shown as it is
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
            yield Static(tie_text(game, names), id="ties")
            yield Static(self.stats(game, names), id="stats")
            try:
                history = podium_data(flow)
            except Exception as exc:  # noqa: BLE001 - the podium itself must show
                yield Static(Text(f"(no race chart: {type(exc).__name__})"), id="chart")
            else:
                yield Static(awards_text(game, names, history), id="awards")
                yield Static(chart_text(game, names, history, width=max(60, self.app.size.width - 4)), id="chart")
            with Horizontal(id="podium-buttons"):
                yield Button("Race again (r)", id="again", variant="success", compact=True)
                yield Button("New race (n)", id="new", compact=True)
                yield Button("Quit (q)", id="quit", variant="error", compact=True)
        yield KeyBar([(self.key_of("podium.again", "r"), "race again"), (self.key_of("podium.new", "n"), "new race"),
                      (self.help_key, "help"), (self.key_of("podium.quit", "q"), "quit")])

    def on_mount(self) -> None:
        super().on_mount()
        # the scroll has the focus (arrows read the whole podium, from its top): a
        # second Enter after the race's last one never starts another race
        self.query_one("#podium-body", VerticalScroll).focus(scroll_visible=False)

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
        w = max(10, max(cells(clean(name)) for name in names))  # names in full, never cut
        bmx = game.rules.uses_tokens
        meteo = game.rules.has_weather
        outcome = game.outcome()
        if bmx:
            head = f"{'Team':<{w + 4}}{'fatigue taken':>14}{'catch-up squares':>18}{'tokens left':>13}"
        else:
            head = f"{'Team':<{w + 4}}{'exhaustion':>11}{'slipstream sq.':>15}{'cards left':>12}"
            if meteo:
                head += f"{'crashes':>9}"
        text = Text("Team statistics\n", style="bold")
        text.append(head + "\n", style="#bbbbbb")
        for seat in range(n):
            riders = [i for i, r in enumerate(game.riders) if r.seat == seat]
            colour = team_of_rider(game.riders[riders[0]].id)
            text.append(f" {colour.letter} ", style=f"bold {contrast_text(colour.hex)} on {colour.hex}")
            text.append(f" {fit(clean(names[seat]), w)}")
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
        {"again": self.action_again, "new": self.action_new, "quit": self.action_quit}[event.button.id or ""]()

    def action_again(self) -> None:
        self.app.race_again()

    def action_new(self) -> None:
        self.app.new_race(from_podium=True)

    def action_quit(self) -> None:
        self.app.exit(0)
