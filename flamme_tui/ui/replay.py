"""`flamme-tui replay FILE`: a small standalone app stepping through a saved race.

Left/right go one round back and forth, home/end to the start and the last
round, q quits.  It shows only what the table saw (see flamme_tui.play.replay):
the track, the round's log in words, the ranking; never a hand.
"""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static

from ..play.replay import Replay
from ..usertext import plain

CSS = """
ReplayScreen { layout: vertical; }
ReplayScreen #heading { height: auto; padding: 0 1; text-style: bold; }
ReplayScreen #title { height: 1; padding: 0 1; text-style: reverse; }
ReplayScreen #track { height: auto; padding: 0 1; }
ReplayScreen #body { height: 1fr; padding: 0 1; }
ReplayScreen #log { height: auto; margin-bottom: 1; }
ReplayScreen #ranking { height: auto; }
"""


class ReplayScreen(Screen):
    """The replay of one race; `flamme-tui replay` and the app's saved races show it."""

    DEFAULT_CSS = CSS
    # priority: the scrolling log would take left/right/home/end for itself
    BINDINGS = [
        Binding("left", "step(-1)", "Back", priority=True),
        Binding("right", "step(1)", "Forward", priority=True),
        Binding("home", "go(0)", "Start", priority=True),
        Binding("end", "go(-1)", "End", priority=True),
        Binding("q,escape", "leave", "Close"),
    ]

    def __init__(self, replay: Replay) -> None:
        super().__init__()
        self.replay = replay
        self.index = 0

    def compose(self) -> ComposeResult:
        yield Static(plain(self.replay.heading), id="heading")
        yield Static(id="title")
        yield Static(id="track")
        with VerticalScroll(id="body"):
            yield Static(id="log")
            yield Static(id="ranking")
        yield Footer()

    def on_mount(self) -> None:
        self.show()

    def show(self) -> None:
        frames = self.replay.frames
        if not frames:
            self.query_one("#title", Static).update(plain("nothing to replay yet"))
            return
        f = frames[self.index]
        self.query_one("#title", Static).update(plain(f"{f.title}   ({self.index + 1}/{len(frames)})"))
        self.query_one("#track", Static).update(plain(f"{f.track}\n{f.positions}"))
        self.query_one("#log", Static).update(plain("\n".join(f.log) or "-"))
        self.query_one("#ranking", Static).update(plain("Ranking\n" + "\n".join(f.ranking) if f.ranking else ""))

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
