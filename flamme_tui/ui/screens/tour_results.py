"""A tour between its stages and at its end.

`StageResultScreen`: after each stage, the stage's times (`+0:40`), the
general classification with its gaps, the Tour Points and the team
classification, as tables, with the GC gaps and the points drawn as bars.
`TourPodiumScreen`: after the last stage, the GC's podium, the tour's
winner by Tour Points and every classification.

The tables are built by plain functions of a play.tours.Tour (`TourTables`),
so they can be tested without an app.  Everything fits 80x24; a wider
screen shows names in full and longer bars, a taller one the Tour Points
of each stage.  The yellow jersey (the GC leader) is marked ◆, readable
without colour.
"""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Button, Static

from ...engine.tour import gap_text, team_classification
from ...i18n import N_, _, ngettext
from ...usertext import cells, clean, cut, fit
from ...words import stage_name, team_name, tour_name
from ..palette import contrast_text, rider_label, team_colour
from ..widgets.board import JERSEY
from ..widgets.keybar import KeyBar
from .base import BaseScreen
from .podium import podium_blocks, results_controls

KIND = {"S": N_("Sprinteur"), "R": N_("Rouleur")}  # translated when shown
MIN_TEAM = 4  # cells of a team's name before its rider's kind, when the name must be cut
MIN_BAR = 4  # cells the GC's gap bars keep, however long the names
HEAD = "bold"
MUTED = "#bbbbbb"


def bar(value: int, most: int, width: int) -> str:
    """A bar of `width` cells at most for value/most, in eighths of a cell."""
    if most <= 0 or value <= 0 or width <= 0:
        return ""
    eighths = round(8 * width * value / most)
    full, part = divmod(max(1, eighths), 8)
    return "█" * full + (" ▏▎▍▌▋▊▉"[part] if part else "")


def clock(seconds: int) -> str:
    """A total time as a clock: 1:05:20 or 12:40."""
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def behind(place: int, total: int, gap: int) -> str:
    """The leader's total time as a clock, the others' gaps (`+0:00` for a tie)."""
    if place == 1:
        return clock(total)
    return gap_text(gap) if gap else "+0:00"


class TourTables:
    """The tour's classifications as Rich texts, for a column `width` wide."""

    def __init__(self, tour, width: int = 38) -> None:
        self.tour = tour
        self.width = width
        self.teams = tour.teams
        # each team's name as the player reads it (named by default: in the language now), shown as it is
        self.names = [clean(team_name(tour.legs[0], seat), multiline=False) for seat in range(len(self.teams))]
        game = tour.done[-1].game if tour.done else None
        self.riders = {r.id: r for r in game.riders} if game is not None else {}
        self.gc = tour.gc()
        self.leader = self.gc[0].rider if self.gc else None

    # --------------------------------------------------------- pieces

    def label(self, rid: str) -> Text:
        r = self.riders[rid]
        colour = team_colour(rid.split(".")[0])
        return Text(rider_label(rid, r.kind), style=f"bold {contrast_text(colour.hex)} on {colour.hex}")

    def team_label(self, seat: int) -> Text:
        colour = team_colour(self.teams[seat].colour)
        return Text(f" {colour.letter} ", style=f"bold {contrast_text(colour.hex)} on {colour.hex}")

    def full_name(self, rid: str) -> str:
        r = self.riders[rid]
        return f"{self.names[r.seat]} {_(KIND[r.kind]) if r.kind in KIND else ''}".strip()

    def name(self, rid: str, room: int) -> str:
        """The rider's team and kind in `room` cells: when both do not fit, the
        team is cut and the kind kept (a team's two riders must not read
        alike), unless the room is too small for a team's first letters."""
        r = self.riders[rid]
        full, kind = self.full_name(rid), KIND.get(r.kind, "")
        if cells(full) <= room or not kind or room - cells(kind) - 1 < MIN_TEAM:
            return cut(full if cells(full) <= room else self.names[r.seat], room)
        return f"{cut(self.names[r.seat], room - cells(kind) - 1)} {kind}"

    def team_name(self, seat: int, room: int) -> str:
        return cut(self.names[seat], room)

    def rider_row(self, place: int, rid: str, room: int) -> Text:
        row = Text(f"{place:>2}.")
        row.append("◆" if rid == self.leader else " ", style=JERSEY)
        row.append_text(self.label(rid))
        row.append(f" {fit(self.name(rid, room), room)} ")
        return row

    # --------------------------------------------------------- tables

    def stage(self) -> Text:
        """The latest stage: placings and times (gaps to the stage winner on
        the road, a group's riders sharing one) with the bonuses beside."""
        tour = self.tour
        done = tour.done[-1]
        k = len(tour.done)
        text = Text(_("Stage {k}/{n} times").format(k=k, n=tour.stages), style=HEAD)
        # the stage's name on the heading's one line: wrapped, it would push these rows below the GC's beside them
        name = cut(clean(stage_name(done.game.course.name), multiline=False), self.width - cells(text.plain) - 2)
        text.append(f"  {name}\n" if name else "\n", style=MUTED)
        room = max(6, self.width - 19)  # place, jersey, label, time and bonus take 19 cells
        for line in done.result:  # the gaps on the road, the bonus beside (as the standings during the stage)
            row = self.rider_row(line.place, line.rider, room)
            row.append(f"{gap_text(line.road):>6}")
            if line.bonus:
                row.append(f" -{line.bonus}s", style=MUTED)
            text.append_text(row)
            text.append("\n")
        bonus = max((line.bonus for line in done.result), default=0)
        if bonus:  # (a new player read "0:00 -10s" as a time and did not know the -10s)
            text.append(_("{bonus}: a time bonus, off the GC time").format(bonus=f"-{bonus}s"), style=MUTED)
        text.rstrip()
        return text

    def general(self, bars: bool = True) -> Text:
        """The GC: gaps to the leader, as numbers and (`bars`) as bars."""
        text = Text(_("General classification"), style=HEAD)
        text.append(_(" (◆ yellow)") + "\n", style=JERSEY)
        gaps = [g.gap for g in self.gc]
        # place, jersey, label and time take 14 cells; the names (team and kind) as much as
        # the longest needs, the bars (MIN_BAR cells at least) the rest
        longest = max((cells(self.full_name(g.rider)) for g in self.gc), default=0)
        room = max(6, min(longest, self.width - 15 - MIN_BAR) if bars else self.width - 14)
        bar_room = max(0, self.width - 15 - room) if bars else 0
        most = max(gaps, default=0)
        for g in self.gc:
            row = self.rider_row(g.place, g.rider, room)
            row.append(f"{behind(g.place, g.time, g.gap):>6}")
            if bar_room:
                row.append(" " + bar(g.gap, most, bar_room), style=f"{team_colour(g.rider.split('.')[0]).hex}")
            text.append_text(row)
            text.append("\n")
        text.rstrip()
        return text

    def points(self) -> Text:
        """Tour Points by team, most first, with bars (the tour's winner first once it is over),
        and what the latest stage gave each: once the tour is over, also what the final GC
        gave (`+3 +2 GC`), so the last jump is explained without the stage-by-stage table."""
        tour = self.tour
        k = len(tour.done)
        if tour.over:
            heading = _("Tour Points (final: +stage {k}, +GC)").format(k=k)
        else:  # (what they are for: a new player saw the points and never read what they decide)
            heading = _("Tour Points (the most wins)")
        text = Text(heading + "\n", style=HEAD)
        ranked = tour.ranking()
        most = max((t.value for t in ranked), default=0)
        latest = _stage_points(tour, k - 1) if tour.done else {}
        final = _gc_points(tour) if tour.over else {}
        gc = _("GC")
        gained = {t.team: " ".join(([f"+{latest[t.team]}"] if latest.get(t.team) else []) +
                                   ([f"+{final[t.team]} {gc}"] if final.get(t.team) else [])) for t in ranked}
        widest = max((cells(g) + 1 for g in gained.values() if g), default=0)
        if tour.over:  # the names as long as the longest needs (16 at most), the rest to the bars
            longest = max((cells(self.names[t.team]) for t in ranked), default=4)
            room = max(4, min(16, longest, self.width - 14 - widest - MIN_BAR))
        else:
            room = max(4, min(16, self.width - 24))
        # place, label, name and points take room + 13 cells, then the bar, the gains and a spare cell
        bar_room = max(1, self.width - room - 14 - max(widest, 3))
        for t in ranked:
            row = Text(f"{t.place:>2}. ")
            row.append_text(self.team_label(t.team))
            row.append(f" {fit(self.team_name(t.team, room), room)} {t.value:>3} ")
            row.append(bar(t.value, most, bar_room), style=team_colour(self.teams[t.team].colour).hex)
            if gained[t.team]:
                row.append(f" {gained[t.team]}", style=MUTED)
            text.append_text(row)
            text.append("\n")
        text.rstrip()
        return text

    def team_times(self) -> Text:
        """The team classification: both riders' GC times (shown, no points)."""
        if all(len(team.riders) == 1 for team in self.teams):  # 7-12 players (GRAND-TOUR.md)
            return Text(_("No team classification: one rider per player (the GC says it all)"), style=MUTED)
        text = Text(_("Teams (both riders' times)") + "\n", style=HEAD)
        lines = team_classification(self.gc)
        best = lines[0].value if lines else 0
        room = max(4, min(16, self.width - 16))
        for t in lines:
            row = Text(f"{t.place:>2}. ")
            row.append_text(self.team_label(t.team))
            row.append(f" {fit(self.team_name(t.team, room), room)} ")
            row.append(f"{behind(t.place, t.value, t.value - best):>7}")
            text.append_text(row)
            text.append("\n")
        text.rstrip()
        return text

    def times_by_stage(self, width: int) -> Text:
        """Every rider's time in each stage (as many of the latest stages as
        `width` holds) and in all, in GC order: each a gap to a stage's
        winner, the total their sum."""
        tour = self.tour
        room = 18
        fits = max(1, (width - room - 17) // 7)
        first = max(0, len(tour.done) - fits)
        # every stage shown: the names take what the columns leave, as long as the longest needs
        # (at 120x40 they were cut, "Vermill… Sprinteur", beside 50 free cells)
        spare = width - room - 17 - 7 * (len(tour.done) - first)
        longest = max((cells(self.full_name(g.rider)) for g in self.gc), default=room)
        room += max(0, min(spare, longest - room))
        text = Text(_("Times stage by stage"), style=HEAD)
        text.append((_(" (gaps to each stage's winner)") if first == 0 else _(" (stages {first}-{last})").format(
            first=first + 1, last=len(tour.done))) + "\n", style=MUTED)
        stage_k, total = _("stage {k}"), _("total")  # (outside the f-strings: pybabel reads only calls)
        text.append(" " * (room + 8) + "".join(f"{stage_k.format(k=k + 1) if k == first else k + 1:>7}"
                                                for k in range(first, len(tour.done))) + f"{total:>9}\n", style=MUTED)
        times = [{line.rider: line.time for line in d.result} for d in tour.done]
        for g in self.gc:
            row = self.rider_row(g.place, g.rider, room)
            row.append("".join(f"{gap_text(t[g.rider]):>7}" for t in times[first:]))
            # the sum of the row's gaps, written as they are ("+2:30"): a bare "2:30" read as a clock
            row.append(f"{gap_text(g.time):>9}")
            text.append_text(row)
            text.append("\n")
        if any(line.bonus for d in tour.done[first:] for line in d.result):
            # (a rider +0:20 on the road behind a winner with -10s is +0:30 here: a new player read
            # the stage's table and this one as two different gaps)
            text.append(cut(_("Bonuses taken off, as in the GC."), width), style=MUTED)
        text.rstrip()
        return text

    def points_by_stage(self) -> Text:
        """Each team's Tour Points stage by stage (and the final GC's)."""
        tour = self.tour
        head = "          " + "".join(f"{k + 1:>4}" for k in range(len(tour.done)))
        gc = _("GC")
        head += f"{gc:>4}" if tour.over else ""
        per_stage = [_stage_points(tour, k) for k in range(len(tour.done))]
        final = _gc_points(tour) if tour.over else {}
        total = tour.points()
        room = max(5, min(16, self.width - 4 * len(tour.done) - 20))
        text = Text(_("Tour Points by stage") + "\n", style=HEAD)
        every = _("all")
        text.append(" " * (room + 5) + head[10:] + f"{every:>6}\n", style=MUTED)
        for t in tour.ranking():
            row = Text(" ")
            row.append_text(self.team_label(t.team))
            row.append(f" {fit(self.team_name(t.team, room), room)}")
            row.append("".join(f"{points.get(t.team, 0) or '·':>4}" for points in per_stage))
            if tour.over:
                row.append(f"{final.get(t.team, 0) or '·':>4}")
            row.append(f"{total[t.team]:>6}")
            text.append_text(row)
            text.append("\n")
        text.rstrip()
        return text


def _stage_points(tour, k: int) -> dict[int, int]:
    """Each team's Tour Points from stage k (0-based)."""
    from ...engine.tour import STAGE_POINTS

    points: dict[int, int] = {}
    for line, tp in zip(tour.done[k].result, STAGE_POINTS):
        points[line.team] = points.get(line.team, 0) + tp
    return points


def _gc_points(tour) -> dict[int, int]:
    from ...engine.tour import GC_POINTS

    points: dict[int, int] = {}
    for line, tp in zip(tour.gc(), GC_POINTS):
        points[line.team] = points.get(line.team, 0) + tp
    return points


def _column(width: int) -> int:
    """A column's width: two side by side, a margin between."""
    return max(36, (width - 4) // 2)


class StageResultScreen(BaseScreen):
    """After a stage of a tour: its times, the GC, the TP and the teams."""

    HELP_TOPIC = "tour-result"
    DEFAULT_CSS = """
    StageResultScreen #result-body { padding: 0 1; height: 1fr; }
    StageResultScreen #result-title { height: auto; margin: 0 0 1 0; }
    StageResultScreen .result-row { height: auto; }
    StageResultScreen .result-col { width: 1fr; height: auto; }
    StageResultScreen .result-col.-left { margin: 0 2 0 0; }
    StageResultScreen #result-lower { margin: 1 0 0 0; }
    StageResultScreen #result-tall { display: none; height: auto; margin: 1 0 0 0; }
    StageResultScreen.-tall #result-tall { display: block; }
    StageResultScreen #result-times { width: 1fr; height: auto; }
    StageResultScreen #result-by-stage { width: auto; height: auto; margin: 0 0 0 2; }
    StageResultScreen #result-next { height: auto; margin: 1 0 0 0; }
    """
    BINDINGS = [
        Binding("enter", "next", N_("Next stage"), id="tour-result.next"),
        Binding("c", "coach", N_("Coach: your costliest cards of this stage"), id="tour-result.coach"),
        Binding("t,escape", "title", N_("Title menu"), id="tour-result.title"),
        Binding("q", "quit", N_("Quit"), id="tour-result.quit"),
    ]

    def __init__(self, tour, session=None) -> None:
        super().__init__()
        self.tour = tour  # the tour with this stage done
        self.session = session  # the stage's session (the next stage follows from it)

    @property
    def final(self) -> bool:
        return self.tour.over

    def compose(self):
        tour = self.tour
        yield from self.compose_notice()
        # six teams at 80x24 make more rows than the window: the rest a scroll away (arrows, page keys, wheel)
        with VerticalScroll(id="result-body"):
            yield Static("", id="result-title")
            with Horizontal(classes="result-row"):
                yield Static("", id="result-stage", classes="result-col -left")
                yield Static("", id="result-gc", classes="result-col")
            with Horizontal(classes="result-row", id="result-lower"):
                yield Static("", id="result-points", classes="result-col -left")
                yield Static("", id="result-teams", classes="result-col")
            with Horizontal(classes="result-row", id="result-tall"):
                yield Static("", id="result-times")
                yield Static("", id="result-by-stage")
            yield Static("", id="result-next")
        what = _("the tour's podium") if self.final else _("stage {k}").format(k=len(tour.done) + 1)
        yield KeyBar([(self.key_of("tour-result.next", "enter"), what),
                      (self.key_of("tour-result.coach", "c"), _("coach")),
                      (self.key_of("tour-result.title", "t"), _("title menu")), (self.help_key, _("help")),
                      (self.key_of("tour-result.quit", "q"), _("quit"))])

    def on_mount(self) -> None:
        super().on_mount()
        self.draw(self.app.size.width)
        self.query_one("#result-body").focus()  # (its arrows and page keys scroll what a small window cuts)

    def size_changed(self, width: int, height: int) -> None:
        if self.is_mounted:
            self.draw(width)

    def draw(self, width: int) -> None:
        tour = self.tour
        tables = TourTables(tour, _column(width - 2))
        game = tour.done[-1].game
        winner = tour.done[-1].result[0]
        rounds = ngettext("{n} round", "{n} rounds", game.round).format(n=game.round)
        title = Text(_("{tour} · stage {k}/{n} {stage} · {rounds} · won by ").format(
            tour=clean(tour_name(tour.name), multiline=False), k=len(tour.done), n=tour.stages,
            stage=clean(stage_name(game.course.name), multiline=False), rounds=rounds), style="bold")
        title.append_text(tables.label(winner.rider))
        title.append(f" {tables.name(winner.rider, 40)}")
        self.query_one("#result-title", Static).update(title)
        self.query_one("#result-stage", Static).update(tables.stage())
        self.query_one("#result-gc", Static).update(tables.general())
        self.query_one("#result-points", Static).update(tables.points())
        self.query_one("#result-teams", Static).update(tables.team_times())
        self.query_one("#result-by-stage", Static).update(tables.points_by_stage())
        self.query_one("#result-times", Static).update(tables.times_by_stage(width - 36))
        key = self.key_of("tour-result.next", "enter")  # as the player binds it
        if self.final:
            following = Text(_("{key}: the tour's podium").format(key=key), style=MUTED)
        else:
            from .variant import variant_word

            leg = tour.legs[len(tour.done)]
            # (a random grid fills from the back: "fewest first" alone read as the wrong way round)
            following = Text((_("{key}: stage {k}/{n}, {stage} · {rules}; the grid fills from the back, fewest Tour "
                                "Points first: the team with the most starts in front") if leg.grid == "random" else
                              _("{key}: stage {k}/{n}, {stage} · {rules}; the teams take the grid fewest Tour Points "
                                "first")).format(key=key, k=len(tour.done) + 1, n=tour.stages,
                                                 stage=clean(stage_name(leg.course.name), multiline=False),
                                                 rules=variant_word(leg.variant)), style=MUTED)
        self.query_one("#result-next", Static).update(following)

    @property
    def saved(self) -> Path | None:
        """The tour's race file, if it is saved."""
        return getattr(self.session, "save_path", None)

    def action_next(self) -> None:
        if self.final:
            self.app.show_tour_podium(self.tour, self.saved)
        else:
            self.app.next_stage(self.session)

    def action_coach(self) -> None:
        """The coach for the stage just raced (the stage's session: its set-up, seed and log)."""
        from .coach import CoachScreen

        self.app.push_screen(CoachScreen(self.session))

    def check_action(self, action: str, parameters) -> bool | None:
        return self.session is not None if action == "coach" else True

    def action_title(self) -> None:
        self.app.to_title()

    def action_quit(self) -> None:
        if self.saved is None:
            note = ""
        elif self.final:
            note = _("The tour is saved: replay it from Saved races.")
        else:
            note = _("The tour is saved: Resume goes on with stage {k}.").format(k=len(self.tour.done) + 1)
        self.app.ask_quit(note)


class TourPodiumScreen(BaseScreen):
    """The end of a tour: the GC's podium, the winner by Tour Points, every classification."""

    HELP_TOPIC = "tour-podium"
    DEFAULT_CSS = """
    TourPodiumScreen #tour-podium-body { padding: 0 1; height: 1fr; }
    TourPodiumScreen #tour-podium-title { height: auto; margin: 0 0 1 0; }
    TourPodiumScreen .result-row { height: auto; }
    TourPodiumScreen .result-col { width: 1fr; height: auto; }
    TourPodiumScreen .result-col.-left { margin: 0 2 0 0; }
    TourPodiumScreen #tour-blocks { width: 38; }
    TourPodiumScreen #tour-lower { margin: 1 0 0 0; }
    TourPodiumScreen #tour-stages { height: auto; margin: 1 0 0 0; }
    TourPodiumScreen #tour-buttons { display: none; height: 1; margin: 1 0 0 0; }
    TourPodiumScreen.-tall #tour-buttons { display: block; }
    TourPodiumScreen #tour-tall { display: none; height: auto; margin: 1 0 0 0; }
    TourPodiumScreen.-tall #tour-tall { display: block; }
    TourPodiumScreen #tour-times { width: 1fr; height: auto; }
    TourPodiumScreen #tour-by-stage { width: auto; height: auto; margin: 0 0 0 2; }
    TourPodiumScreen #tour-buttons Button { margin: 0 2 0 0; min-width: 0; }
    """
    BINDINGS = [
        Binding("r", "again", N_("Tour again"), id="tour-podium.again"),
        Binding("n", "new", N_("New tour"), id="tour-podium.new"),
        Binding("p", "replay", N_("Replay this tour"), id="tour-podium.replay"),
        Binding("t,escape", "title", N_("Title menu"), id="tour-podium.title"),
        Binding("q", "quit", N_("Quit"), id="tour-podium.quit"),
    ]

    def __init__(self, tour, saved: Path | None = None) -> None:
        super().__init__()
        self.tour = tour
        self.saved = saved  # the tour's race file, if it was saved: its replay

    def compose(self):
        yield from self.compose_notice()
        with VerticalScroll(id="tour-podium-body"):
            yield Static("", id="tour-podium-title")
            with Horizontal(classes="result-row"):
                yield Static("", id="tour-blocks", classes="result-col -left")
                yield Static("", id="tour-points", classes="result-col")
            with Horizontal(classes="result-row", id="tour-lower"):
                yield Static("", id="tour-gc", classes="result-col -left")
                yield Static("", id="tour-teams", classes="result-col")
            yield Static("", id="tour-stages")
            with Horizontal(classes="result-row", id="tour-tall"):
                yield Static("", id="tour-times")
                yield Static("", id="tour-by-stage")
            buttons, keys = results_controls(self, "tour-podium", "tour", self.saved is not None)
            yield Horizontal(*buttons, id="tour-buttons")
        yield KeyBar(keys)

    def on_mount(self) -> None:
        super().on_mount()
        self.draw(self.app.size.width)
        self.query_one("#again", Button).focus()

    def size_changed(self, width: int, height: int) -> None:
        if self.is_mounted:
            self.draw(width)

    def draw(self, width: int) -> None:
        tour = self.tour
        column = _column(width - 2)
        tables = TourTables(tour, column)
        winner = tour.ranking()[0]
        title = Text(_("Tour winner: "), style="bold")
        title.append_text(tables.team_label(winner.team))
        title.append(" " + _("{team} ({points} Tour Points)").format(team=tables.names[winner.team],
                                                                       points=winner.value), style="bold")
        title.append(" · " + ngettext("{tour}, {n} stage · seed {seed}", "{tour}, {n} stages · seed {seed}",
                                      tour.stages).format(tour=clean(tour_name(tour.name), multiline=False), n=tour.stages,
                                                          seed=tour.seed))
        self.query_one("#tour-podium-title", Static).update(title)
        top = [(rider_label(g.rider, tables.riders[g.rider].kind), team_colour(g.rider.split(".")[0]).hex)
               for g in tour.gc()[:3]]
        blocks = Text(_("The general classification's podium") + "\n", style=HEAD)
        blocks.append_text(podium_blocks(top))
        self.query_one("#tour-blocks", Static).update(blocks)
        self.query_one("#tour-points", Static).update(tables.points())
        self.query_one("#tour-gc", Static).update(tables.general())
        self.query_one("#tour-teams", Static).update(tables.team_times())
        winners = Text(_("Stage winners: "), style=HEAD)
        for k, done in enumerate(tour.done, 1):
            first = done.result[0].rider
            winners.append(f"{k}. ")
            winners.append_text(tables.label(first))
            winners.append("  ")
        self.query_one("#tour-stages", Static).update(winners)
        self.query_one("#tour-times", Static).update(tables.times_by_stage(width - 36))
        self.query_one("#tour-by-stage", Static).update(tables.points_by_stage())

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        {"again": self.action_again, "new": self.action_new, "replay": self.action_replay, "title": self.action_title,
         "quit": self.action_quit}[event.button.id or "quit"]()

    def check_action(self, action: str, parameters) -> bool | None:
        """No replay key for a tour that was not saved."""
        return self.saved is not None if action == "replay" else True

    def action_again(self) -> None:
        self.app.tour_again(self.tour)

    def action_new(self) -> None:
        self.app.new_tour(from_podium=True)

    def action_replay(self) -> None:
        if self.saved is not None:
            self.app.show_replay(self.saved)

    def action_title(self) -> None:
        self.app.to_title()

    def action_quit(self) -> None:
        self.app.ask_quit(_("The tour is saved: replay it from Saved races.") if self.saved else "")
