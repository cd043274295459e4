"""`flamme-tui replay FILE`: a small standalone app stepping through a saved race
(and the screen the app's saved races open).

Left/right go one round back and forth, home/end to the start and the last
round, q quits.  It shows only what the table saw (see flamme_tui.play.replay):
the same stage overview and track strip as the race (the BMX lap with its
jump ramp), riders as team letter + S/R, the round's events in words by
player name with squares counted from the start line, and the ranking;
never a hand.
"""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from ..i18n import N_, _
from ..play.replay import Replay
from .content import plain
from .keys import key_word
from .palette import rider_label, team_of_rider
from .widgets.keybar import KeyBar
from .widgets.lap import LapStrip, large_for
from .widgets.track import RiderMark, Scene, StageOverview, TrackStrip

CSS = """
ReplayScreen { layout: vertical; }
ReplayScreen #replay-heading { height: auto; padding: 0 1; text-style: bold; }
ReplayScreen #replay-course { height: auto; }
ReplayScreen #title { height: auto; padding: 0 1; text-style: reverse; }  /* a coach's note may take a second line */
ReplayScreen #replay-overview { margin: 1 0 0 0; }
ReplayScreen #replay-track { margin: 1 0 0 0; }
ReplayScreen #replay-body { height: 1fr; padding: 0 1; margin: 1 0 0 0; }
ReplayScreen #replay-log { height: auto; margin-bottom: 1; }
ReplayScreen #replay-ranking { height: auto; }
"""


class ReplayScreen(Screen):
    """The replay of one race; `flamme-tui replay` and the app's saved races show it."""

    DEFAULT_CSS = CSS
    # priority: the scrolling log would take left/right/home/end for itself
    BINDINGS = [
        Binding("left", "step(-1)", N_("Back"), priority=True),
        Binding("right", "step(1)", N_("Forward"), priority=True),
        Binding("home", "go(0)", N_("Start"), priority=True),
        Binding("end", "go(-1)", N_("End"), priority=True),
        Binding("q,escape", "leave", N_("Close")),
    ]

    def __init__(self, replay: Replay) -> None:
        super().__init__()
        self.replay = replay
        self.index = 0
        self.notes: dict[int, str] = {}  # frame index -> a note on its title line (the coach's lesson)

    @property
    def lap(self) -> bool:
        """A BMX lap (drawn as the lap, jump ramp included), else a stage."""
        from ..engine.rules import find

        return bool(self.replay.variant) and find(self.replay.variant).uses_tokens

    def compose(self) -> ComposeResult:
        course = self.replay.course
        yield Static(plain(self.replay.heading), id="replay-heading")
        yield Static(id="title")
        with Vertical(id="replay-course"):
            yield from self.course_widgets(course)
        with VerticalScroll(id="replay-body"):
            yield Static(id="replay-log")
            yield Static(id="replay-ranking")
        # (the round's log and the ranking scroll: at 80x24 the ranking starts below the screen)
        ends = f"{key_word('home')} {key_word('end')}"  # (as the language's keyboards name them)
        yield KeyBar([("← →", _("round by round")), ("↑↓", _("scroll")), (ends, _("first, last")), ("q", _("close"))])

    def course_widgets(self, course) -> list:
        """The course as the race draws it: the BMX lap, else the overview and the strip."""
        if course is None:
            return []
        if self.lap:
            return [LapStrip(course, id="replay-track")]
        return [StageOverview(course, id="replay-overview"), TrackStrip(course, id="replay-track")]

    def on_mount(self) -> None:
        self.shown_course = self.replay.course
        self.on_resize()
        self.show()

    async def _new_course(self, course) -> None:
        """A tour's next stage: its own course (and weather) drawn instead."""
        box = self.query_one("#replay-course")
        await box.remove_children()
        await box.mount_all(self.course_widgets(course))
        self.on_resize()
        self.show()

    def on_resize(self, event=None) -> None:
        for strip in self.query("#replay-track").results(TrackStrip):
            strip.tall = self.app.size.height >= 30
            strip.max_lines = 15 if self.app.size.height >= 40 else strip.rows
        for lap in self.query("#replay-track").results(LapStrip):
            lap.set_large(large_for(*self.app.size))

    def marks(self, frame) -> tuple[RiderMark, ...]:
        """Every placed rider as the race screen draws it: team letter + S/R."""
        out = []
        for i, ((square, lane), (rid, kind)) in enumerate(zip(frame.pos, self.replay.riders)):
            if square < 0:
                continue
            crashed = bool(frame.crashed[i]) if i < len(frame.crashed) else False
            out.append(RiderMark(i, rider_label(rid, "" if self.lap else kind), team_of_rider(rid).hex,
                                 square, lane, crashed, jersey=i == frame.jersey))
        return tuple(out)

    def show(self) -> None:
        frames = self.replay.frames
        if not frames:
            self.query_one("#title", Static).update(plain(_("nothing to replay yet")))
            return
        f = frames[self.index]
        if f.course is not None and f.course is not self.shown_course:
            self.shown_course = f.course
            self.call_later(self._new_course, f.course)
            return
        title = f"{f.title}   ({self.index + 1}/{len(frames)})"
        if self.index in self.notes:
            title += "   · " + self.notes[self.index]
        self.query_one("#title", Static).update(plain(title))
        log = "\n".join(f.log) or "-"
        if self.shown_course is not None and f.pos:
            scene = Scene(self.marks(f))
            for lap in self.query("#replay-track").results(LapStrip):
                lap.show(scene)
            for strip in self.query("#replay-track").results(TrackStrip):
                strip.show(scene)
                for overview in self.query("#replay-overview").results(StageOverview):
                    overview.show(scene, strip.in_view())
        else:  # a replay without its course: the one-line picture
            log = f"{f.track}\n{f.positions}\n\n{log}"
        self.query_one("#replay-log", Static).update(plain(log))
        self.query_one("#replay-ranking", Static).update(plain(_("Ranking") + "\n" + "\n".join(f.ranking) if f.ranking else ""))

    def action_step(self, delta: int) -> None:
        self.action_go(max(0, min(len(self.replay.frames) - 1, self.index + delta)))

    def action_go(self, index: int) -> None:
        n = len(self.replay.frames)
        if n:
            self.index = index % n
            self.show()

    def action_leave(self) -> None:
        if self.app.screen_stack[0] is not self:
            self.dismiss()
        else:  # the standalone replay app: its only screen
            self.app.exit()


class ReplayApp(App):
    TITLE = "flamme-tui replay"

    def __init__(self, replay: Replay) -> None:
        super().__init__()
        self.replay = replay

    def get_default_screen(self) -> Screen:
        return ReplayScreen(self.replay)

    @property
    def index(self) -> int:
        """The frame shown (the replay screen's)."""
        return self.screen.index if isinstance(self.screen, ReplayScreen) else 0


def run(replay: Replay) -> int:
    ReplayApp(replay).run()
    return 0
