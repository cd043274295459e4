"""End of race: podium, full ranking, per-team statistics; race again, new race, quit."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from rich.console import Group
from rich.measure import Measurement
from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Button, Static
from textual.widgets.button import ButtonVariant

from ...i18n import N_, _, ngettext, pgettext
from ...play.narrator import award_lines, kind_name, lane_word, to_go_text
from ...play.narrator import label as square_label
from ...play.narrator import where as square_where
from ...usertext import cells, clean, cut, fit
from ...words import stage_name, team_name
from ..palette import contrast_text, rider_label, team_of_rider
from ..widgets.keybar import KeyBar
from .base import BaseScreen


class History(NamedTuple):
    """What the podium shows beyond the final position, from the race's public history."""

    distances: list[list[int]]  # per round (the start first), per rider: squares to the line
    grid_place: list[int]  # per rider: its place on the starting grid (1 = front)
    wind: list[int]  # per rider: exhaustion cards (BMX: fatigue tokens) it took at the front
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
                if e.kind == "exhaust":  # one exhaustion card
                    wind[e.rider] += 1
                elif e.kind == "fatigue":  # as many fatigue tokens as it says (bmx: 1 or 2, bumpy passage)
                    wind[e.rider] += e.tokens
                elif e.kind in ("slip", "catchup"):
                    shelter[e.rider] += e.square - e.start
    return History(history, grid_place, wind, shelter)


def chart_text(game, names, history: History, width: int = 76, max_height: int = 12) -> Text:
    """Every rider's gap to the leader, round by round (the leader on the top
    line): a letter per rider (team letter; a Rouleur's in lower case).
    Riders on one point (a pack) show the one placed best at the finish,
    underlined: its colour and letter say who, the underline that others
    ride with it (a "*" in the last rider's colour said neither)."""
    rounds = len(history.distances)
    if rounds < 2:
        return Text("")
    gaps = [[d - min(per_round) for d in per_round] for per_round in history.distances]
    worst = max(max(g) for g in gaps) or 1
    height = min(max_height, worst + 1)
    # room for the 7-cell margin, the columns and the last label's digits past the last column
    step = max(1, min(4, (width - 10) // rounds))
    cols = step * (rounds - 1) + 1

    def mark_of(r) -> str:
        colour = team_of_rider(r.id)
        return colour.letter.lower() if getattr(r, "kind", "") == "R" else colour.letter

    grid: list[list[tuple[str, str]]] = [[(" ", "")] * cols for _ in range(height)]
    # the best placed last, so it is the one a shared point shows
    for i in reversed(game.ranking()):
        r = game.riders[i]
        colour, mark = team_of_rider(r.id), mark_of(r)
        for k, per_round in enumerate(gaps):
            row = round((height - 1) * per_round[i] / worst)
            x = k * step
            shared = grid[row][x][0] != " "
            grid[row][x] = (mark, f"bold {colour.hex}" + (" underline" if shared else ""))
    text = Text(_("Race chart: squares behind the leader, round by round") + "\n", style="bold")
    for row, line in enumerate(grid):
        value = round(row * worst / (height - 1)) if height > 1 else 0
        labelled = row in (0, height - 1) or row == (height - 1) // 2
        text.append(f"{value:>5} ┤" if labelled else "      │")
        for ch, style in line:
            text.append(ch, style=style)
        text.append("\n")
    text.append("      └" + "─" * cols + "\n")
    # a label every few rounds, never crowded, each whole (the last may run past the last column);
    # the axis's name in the margin before it, where it is never cut
    every = max(1, -(-5 // step))
    axis = [" "] * (cols + 3)
    for k in range(0, rounds, every):
        for j, ch in enumerate(str(k)):
            axis[k * step + j] = ch
    # (the margin is 7 cells: the axis's name, in the player's language, right-aligned in it)
    label = _("round")  # (marked outside the f-string: pybabel does not look inside one)
    text.append(f"{label[:6]:>6} " + "".join(axis).rstrip() + "\n")
    # the legend: whole entries to a line, each line under the chart (never "o Orange" on one
    # line and "Rouleur" at the start of the next)
    entries = [(mark_of(r), f"bold {team_of_rider(r.id).hex}", " " + rider_words(game, i, names))
               for i, r in enumerate(game.riders)]
    entries.append(("x", "underline", " " + _("with others (the best placed shown)")))
    used = 7
    text.append("       ")
    for mark, style, words in entries:
        size = cells(mark + words) + 2
        if used > 7 and used + size > width:
            text.append("\n       ")
            used = 7
        text.append(mark, style=style)
        text.append(words + "  ")
        used += size
    text.rstrip()
    return text


def awards_text(game, names, history: History) -> Group:
    """Most in the wind, most squares in shelter, best finish from the back:
    each award's name in a column, who won it beside (a long line wraps under
    its own column, never under the award's name)."""
    bmx = game.rules.uses_tokens
    ranking = game.ranking()

    def best(values: list[int]) -> tuple[list[int], int]:
        top = max(values) if values else 0
        return [i for i, v in enumerate(values) if v == top and top > 0], top

    riders, n = best(history.wind)
    wind = ([rider_words(game, i, names) for i in riders], n)
    riders, n = best(history.shelter)
    shelter = ([rider_words(game, i, names) for i in riders], n)
    gained = [history.grid_place[i] - (ranking.index(i) + 1) for i in range(len(game.riders))]
    riders, n = best(gained)
    back = None if not riders else (rider_words(game, riders[0], names), history.grid_place[riders[0]],
                                     ranking.index(riders[0]) + 1, len(riders) > 1)
    rows = award_lines(bmx, wind, shelter, back)
    table = Table.grid(padding=(0, 2, 0, 0))
    table.add_column(no_wrap=True)
    table.add_column(overflow="fold")
    for award, text in rows:
        table.add_row(Text(f"  {award}"), Text(text))
    return Group(Text(_("Awards"), style="bold"), table)


def rider_words(game, i: int, names) -> str:
    """ "Bob Rouleur": the rider's team and kind (a BMX rider: its team), in the language's order."""
    name = clean(names[game.riders[i].seat], multiline=False)
    kind = getattr(game.riders[i], "kind", "")
    return _("{seat} {kind}").format(seat=name, kind=kind_name(kind)) if kind in ("S", "R") else name


def tie_text(game, names) -> Text:
    """Why riders on one square are ranked as they are (the engine's ranking)."""
    ranking = game.ranking()
    lines = []

    def who(i: int) -> str:
        return rider_words(game, i, names)

    for a, b in zip(ranking, ranking[1:]):
        if game.pos[a][0] == game.pos[b][0] and ranking.index(a) < 3:
            ahead, behind = lane_word(game.variant, game.pos[a][1]), lane_word(game.variant, game.pos[b][1])
            lines.append(_("{a} and {b} stopped on the same square ({square}): {a} ranks ahead, in the {ahead} "
                           "against the {behind} (on one square the {first} ranks first).").format(
                a=who(a), b=who(b), square=square_label(game.course, game.pos[a][0]), ahead=ahead, behind=behind,
                first=lane_word(game.variant, 0)))
    return Text("\n".join(lines))


def rider_text(game, i: int, names, width: int | None = None) -> Text:
    """The rider's label in its colour, then its team and kind in words; in at
    most `width` cells if given (the words cut with "…", never the label)."""
    r = game.riders[i]
    colour = team_of_rider(r.id)
    label = rider_label(r.id, getattr(r, "kind", "") if not game.rules.uses_tokens else "")
    words = rider_words(game, i, names)
    room = None if width is None else max(1, width - cells(label) - 1)
    if room is not None and cells(words) > room:  # the team's name cut, its rider's kind kept
        name = clean(names[r.seat], multiline=False)
        short = list(names)
        shorter = cut(name, max(1, cells(name) - (cells(words) - room)))
        short[r.seat] = shorter[:-1].rstrip() + "…" if shorter.endswith("…") else shorter
        words = cut(rider_words(game, i, short), room)
    text = Text()
    text.append(label, style=f"bold {contrast_text(colour.hex)} on {colour.hex}")
    text.append(" " + words)
    return text


class Ranking:
    """The full ranking (a Rich renderable): a line per rider, its place, its
    name and where it stopped, in the longest words that fit the width it is
    drawn in: "square 71 · 3 past the line", "3 past the line", "3 past".  A
    name too long for even the shortest is cut with "…" (its place and where
    it stopped are never cut, each rider stays on one line)."""

    def __init__(self, game, names) -> None:
        self.rows = []
        for place, i in enumerate(game.ranking(), 1):
            square = game.pos[i][0]
            forms = (square_where(game.course, square), to_go_text(game.course, square),
                     to_go_text(game.course, square, short=True))
            self.rows.append((f"{place}.", i, rider_text(game, i, names), forms))
        self.game, self.names = game, names

    def width(self, form: int) -> int:
        """How wide the table is in words of that form (its columns: place, rider, where)."""
        if not self.rows:
            return 0
        return (self.place_width() + 1 + max(cells(rider.plain) for _, _, rider, _ in self.rows)
                + 2 + max(cells(forms[form]) for _, _, _, forms in self.rows))

    def place_width(self) -> int:
        return max(cells(place) for place, _, _, _ in self.rows)

    def __rich_console__(self, console, options):
        form = next((k for k in range(2) if self.width(k) <= options.max_width), 2)
        # the room left for the names when even the shortest words do not fit: the names are cut
        room = None
        if self.rows and self.width(2) > options.max_width:
            room = max(4, options.max_width - self.place_width() - 1 - 2
                       - max(cells(forms[2]) for _, _, _, forms in self.rows))
        table = Table.grid(padding=(0, 1, 0, 0))  # a space between columns (and one more before where)
        table.add_column(justify="right", no_wrap=True)
        table.add_column(no_wrap=True, overflow="ellipsis")
        table.add_column(no_wrap=True)
        for place, i, rider, forms in self.rows:
            shown = rider if room is None else rider_text(self.game, i, self.names, room)
            table.add_row(place, shown, " " + forms[form])
        yield Text(_("Ranking"), style="bold")
        yield table

    def __rich_measure__(self, console, options) -> Measurement:
        return Measurement(min(self.width(2), options.max_width), min(self.width(0), options.max_width))


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
        fill = Style(bold=True, color=contrast_text(hex_colour), bgcolor=hex_colour)
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


def results_controls(screen: BaseScreen, scope: str, what: str, replay: bool) -> tuple[
        list[Button], list[tuple[str, str]]]:
    """A results screen's buttons and key bar (the podium's, a tour's): again,
    new, the replay (when it was saved), the title menu, quit; `scope`: the
    bindings' ids (`podium.again`...), `what`: "race" or "tour"."""
    entries = [("again", "r", _("Race again"), pgettext("key bar", "race again")),
               ("new", "n", _("New race"), pgettext("key bar", "new race"))] if what == "race" else [
        ("again", "r", _("Tour again"), pgettext("key bar", "tour again")),
        ("new", "n", _("New tour"), pgettext("key bar", "new tour"))]
    if replay:
        entries.append(("replay", "p", _("Replay"), pgettext("key bar", "replay")))
    entries += [("title", "t", _("Title"), pgettext("key bar", "title menu")), ("quit", "q", _("Quit"),
                                                                               pgettext("key bar", "quit"))]
    variants: dict[str, ButtonVariant] = {"again": "success", "quit": "error"}
    buttons, keys = [], []
    for name, default, label, words in entries:
        key = screen.key_of(f"{scope}.{name}", default)
        buttons.append(Button(f"{label} ({key})", id=name, variant=variants.get(name, "default"), compact=True))
        keys.append((key, words))
    keys.insert(-1, (screen.help_key, pgettext("key bar", "help")))
    return buttons, keys


def hints_words(hinted: dict[int, int], names: list[str]) -> str:
    """ "Blue (3 hints)": the seats a hint was shown to."""
    return ", ".join(ngettext("{seat} ({n} hint)", "{seat} ({n} hints)", n).format(seat=names[seat], n=n)
                     for seat, n in sorted(hinted.items()))


def split_heading(heading: str) -> tuple[str, str]:
    """A column's heading on two lines, cut at the space nearest its middle
    ("casillas" / "rebufo"); one word stays whole on the second line."""
    spaces = [k for k, ch in enumerate(heading) if ch == " "]
    if not spaces:
        return "", heading
    middle = len(heading) / 2
    k = min(spaces, key=lambda k: abs(k - middle))
    return heading[:k], heading[k + 1:]


def stats_text(game, names, width: int) -> Text:
    """Each team's exhaustion (BMX: fatigue), squares in shelter, cards
    (tokens) left, and in Meteo its crashes: a line per team in `width`
    cells.  The headings go on two lines when they do not leave the names room
    on one, and a name still too long is cut with "…" (never a number)."""
    n = len(names)
    longest = max(10, max(cells(clean(name)) for name in names))
    bmx = game.rules.uses_tokens
    meteo = game.rules.has_weather
    outcome = game.outcome()
    # each column as wide as its heading in the player's language (at least as in English)
    if bmx:
        columns = [(_("fatigue taken"), 14), (_("catch-up squares"), 18), (_("tokens left"), 13)]
    else:
        columns = [(_("exhaustion"), 11), (_("slipstream sq."), 15), (_("cards left"), 12)]
        if meteo:
            columns.append((_("crashes"), 9))
    team_heading = _("Team")
    lines = [("", heading) for heading, _least in columns]
    widths = [max(least, cells(heading) + 1) for heading, least in columns]
    if longest + 4 + sum(widths) > width:  # two lines of headings, each column as wide as its longer line
        lines = [split_heading(heading) for heading, _least in columns]
        widths = [max(4, max(cells(top), cells(bottom)) + 1) for top, bottom in lines]
    w = max(8, min(longest, width - 4 - sum(widths)))
    text = Text(_("Team statistics") + "\n", style="bold")
    if any(top for top, _bottom in lines):
        text.append(" " * (w + 4) + "".join(" " * (size - cells(top)) + top for (top, _bottom), size
                                            in zip(lines, widths)) + "\n", style="#bbbbbb")
    head = fit(team_heading, max(w + 3, cells(team_heading))) + " " + "".join(
        " " * (size - cells(bottom)) + bottom for (_top, bottom), size in zip(lines, widths))
    text.append(head + "\n", style="#bbbbbb")
    for seat in range(n):
        riders = [i for i, r in enumerate(game.riders) if r.seat == seat]
        colour = team_of_rider(game.riders[riders[0]].id)
        text.append(f" {colour.letter} ", style=f"bold {contrast_text(colour.hex)} on {colour.hex}")
        text.append(f" {fit(clean(names[seat]), w)}")
        team = outcome.teams[seat]
        values = [team.exhaustion, team.slipstream, team.left] + ([team.crashes] if meteo and not bmx else [])
        text.append("".join(f"{value:>{size}}" for value, size in zip(values, widths)))
        text.append("\n")
    text.rstrip()
    return text


class PodiumScreen(BaseScreen):
    """The race is over: what happened, and where to go from here (race
    again, a new race, its replay, the title menu, or quit after asking)."""

    HELP_TOPIC = "podium"
    BINDINGS = [
        Binding("r", "again", N_("Race again"), id="podium.again"),
        Binding("n", "new", N_("New race"), id="podium.new"),
        Binding("p", "replay", N_("Replay this race"), id="podium.replay"),
        Binding("c", "coach", N_("Coach: your costliest cards"), id="podium.coach"),
        Binding("t,escape", "title", N_("Title menu"), id="podium.title"),
        Binding("q", "quit", N_("Quit"), id="podium.quit"),
    ]

    def __init__(self, flow) -> None:
        super().__init__()
        self.flow = flow
        # the race file, if the race was saved: its replay (None: no replay offered)
        self.saved: Path | None = flow.session.save_path

    def compose(self):
        flow = self.flow
        game = flow.game
        # from a file or a player: shown as it is (named by default: in the language now)
        names = [clean(team_name(game.setup, seat), multiline=False) for seat in range(len(game.setup.teams))]
        winner = game.winner if game.winner is not None else game.ranking()[0]
        yield from self.compose_notice()
        with VerticalScroll(id="podium-body"):
            head = Text(_("Winner:") + " ", style="bold")
            head.append_text(rider_text(game, winner, names))
            head.append(" · ".join(("", clean(stage_name(game.course.name)), ngettext(
                "{n} round", "{n} rounds", game.round).format(n=game.round), _("seed {seed}").format(seed=flow.session.seed))))
            yield Static(head, id="podium-title")
            hinted = flow.session.hinted()
            if hinted:  # a result reached with the expert's hints says so
                yield Static(Text(_("With hints: {who}").format(who=hints_words(hinted, names)), style="italic"),
                             id="podium-hints")
            with Horizontal(id="podium-top"):
                yield Static(podium_text(game, names), id="podium")
                yield Static(Ranking(game, names), id="ranking")
            yield Static(tie_text(game, names), id="ties")
            yield Static(self.stats(game, names), id="stats")
            try:
                history = podium_data(flow)
            except Exception as exc:  # noqa: BLE001 - the podium itself must show
                yield Static(Text(_("(no race chart: {error})").format(error=type(exc).__name__)), id="chart")
            else:
                yield Static(awards_text(game, names, history), id="awards")
                yield Static(chart_text(game, names, history, width=max(60, self.app.size.width - 4)), id="chart")
            buttons, keys = results_controls(self, "podium", "race", self.saved is not None)
            keys.insert(-2, (self.key_of("podium.coach", "c"), pgettext("key bar", "coach")))
            yield Horizontal(*buttons, id="podium-buttons")
        yield KeyBar(keys)

    def on_mount(self) -> None:
        super().on_mount()
        # the scroll has the focus (arrows read the whole podium, from its top): a
        # second Enter after the race's last one never starts another race
        self.query_one("#podium-body", VerticalScroll).focus(scroll_visible=False)

    def stats(self, game, names) -> Text:
        # the body's width: the window's, less its padding and scroll bar
        return stats_text(game, names, max(40, self.app.size.width - 4))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        {"again": self.action_again, "new": self.action_new, "replay": self.action_replay, "title": self.action_title,
         "quit": self.action_quit}[event.button.id or ""]()

    def check_action(self, action: str, parameters) -> bool | None:
        """No replay key for a race that was not saved (autosave off, or it failed at once)."""
        return self.saved is not None if action == "replay" else True

    def action_again(self) -> None:
        self.app.race_again()

    def action_new(self) -> None:
        self.app.new_race(from_podium=True)

    def action_replay(self) -> None:
        if self.saved is not None:
            self.app.show_replay(self.saved)

    def action_coach(self) -> None:
        from .coach import CoachScreen

        self.app.push_screen(CoachScreen(self.flow.session))

    def action_title(self) -> None:
        self.app.to_title()

    def action_quit(self) -> None:
        note = _("The race is saved: replay it from Saved races.") if self.saved is not None else ""
        self.app.ask_quit(note)
