"""The coach after a race (the podium's `c`): each human seat's three
costliest cards against the expert's choice, with a reason each, and a key
to replay that round.  After a tour's stage (the stage's results, `c`) it
coaches that stage, and its replay keys open the tour's replay on that
stage's round.

The judging (play/coach.py) runs in the bots' thinking process, so the
screen answers keys while it thinks; leaving the screen drops the answer.
Only a finished race is coached (its answers name cards a seat held)."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Static

from ...i18n import N_, _, ngettext
from ...play.coach import ROLLOUTS, Lessons, coach_job, humans, replay_frame
from ...play.narrator import coach_seat_line
from ...usertext import clean
from ..content import plain
from ..widgets.keybar import KeyBar
from .base import BaseScreen

MOST = 9  # lessons a key can replay: 1 to 9


def lessons_blocks(lessons: list[Lessons], replayable: bool) -> list[tuple[str, str]]:
    """The lessons in words, as (class, text) blocks: a seat's heading, then
    each lesson numbered across seats (the replay keys' numbers)."""
    if not lessons:
        return [("coach-seat", _("No human seat raced: nothing to coach."))]
    out: list[tuple[str, str]] = []
    n = 0
    for seat in lessons:
        out.append(("coach-seat", coach_seat_line(seat)))
        if not seat.verdicts:
            out.append(("coach-lesson", _("No card cost anything against the expert's choice: well raced.")))
        for v in seat.verdicts:
            n += 1
            key = f"[{n}] " if replayable and n <= MOST else ""
            out.append(("coach-lesson", f"{key}{v.heading()}\n{v.figures()}\n" + _("Why: {reason}").format(
                reason=v.reason)))
    return out


class CoachScreen(BaseScreen):
    DEFAULT_CSS = """
    CoachScreen #coach-body { padding: 0 1; height: 1fr; }
    CoachScreen .coach-seat { margin-top: 1; text-style: bold; }
    CoachScreen .coach-lesson { padding-left: 2; margin-top: 1; }
    """
    HELP_TOPIC = "podium"
    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("escape,q", "app.pop_screen", N_("Back")),
        *(Binding(str(k), f"replay({k})", N_("Replay that lesson's round"), show=False) for k in range(1, MOST + 1))]

    def __init__(self, session, rollouts: int | None = None) -> None:
        super().__init__()
        self.session = session  # a finished race, or a tour's finished stage (its `tour`: the stages before it)
        self.rollouts = ROLLOUTS if rollouts is None else rollouts
        self.lessons: list[Lessons] | None = None
        self.seats = humans(session.setup, session.seed, session.bots)
        tour = getattr(session, "tour", None)
        self.stage = None if tour is None else len(tour.done) + 1

    def compose(self):
        yield from self.compose_notice()
        with VerticalScroll(id="coach-body"):
            yield Static(plain(self.head()), id="coach-head")
            yield Static(plain(ngettext("Looking at {n} card again (a second or so for every ten)...",
                                        "Looking at {n} cards again (a second or so for every ten)...",
                                        self.cards()).format(n=self.cards())), id="coach-text")
        keys = [("↑↓", _("scroll")), ("esc", _("back"))]
        if self.session.save_path is not None:
            keys.insert(0, ("1-9", _("replay that round")))
        yield KeyBar(keys)

    def head(self) -> str:
        what = ngettext("Coach: every card a person played, looked at again by the expert from that seat's view "
                        "({n} simulated race a card).",
                        "Coach: every card a person played, looked at again by the expert from that seat's view "
                        "({n} simulated races a card).", self.rollouts).format(n=self.rollouts)
        if self.stage is None:
            return what
        name = clean(self.session.game.course.name, multiline=False)
        return _("Stage {k}, {stage}. {coach}").format(k=self.stage, stage=name, coach=what)

    def cards(self) -> int:
        """The cards the people played (what the coach looks at again)."""
        game = self.session.game
        seats = set(self.seats)
        return sum(1 for a in game.actions if getattr(a, "card", None) is not None or hasattr(a, "tokens")
                   if game.riders[game.index[a.rider]].seat in seats)

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#coach-body").focus()
        self.run_worker(self.think(), exclusive=True, group="coach")

    async def think(self) -> None:
        from ...setupdata import setup_json

        s = self.session
        lessons = await self.app.thinker.call(coach_job, setup_json(s.setup), s.seed, tuple(s.actions_text()),
                                              tuple(self.seats), self.rollouts)
        self.lessons = lessons
        await self.query_one("#coach-text", Static).remove()
        blocks = lessons_blocks(lessons, self.session.save_path is not None)
        await self.query_one("#coach-body").mount_all(Static(plain(text), classes=cls) for cls, text in blocks)

    def action_replay(self, k: int) -> None:
        """Open the replay on the round of lesson `k` (a saved race only)."""
        from ...saves import SaveError, load_replay
        from ..replay import ReplayScreen

        verdicts = [v for seat in self.lessons or [] for v in seat.verdicts]
        if self.session.save_path is None or not 1 <= k <= len(verdicts):
            return
        try:
            replay = load_replay(self.session.save_path)
        except SaveError as exc:
            self.notify(str(exc), severity="error", timeout=8)
            return
        screen = ReplayScreen(replay)
        screen.index = replay_frame([f.title for f in replay.frames], verdicts[k - 1].round, self.stage)
        self.app.push_screen(screen)
