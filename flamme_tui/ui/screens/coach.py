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

from ...bots.budget import Budget
from ...i18n import N_, _, language, ngettext
from ...play.coach import ROLLOUTS, Lessons, coach_job, humans, lessons_of, replay_frame, worlds_for
from ...play.narrator import coach_seat_line, coach_tour_note, well_raced
from ...usertext import clean
from ...words import stage_name
from ..content import plain
from ..widgets.keybar import KeyBar
from .base import BaseScreen

MOST = 9  # lessons a key can replay: 1 to 9
AT_ONCE = 4  # cards judged a call to the thinking process (about a second at the coach's budget)


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
            out.append(("coach-lesson", well_raced(seat)))
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
            yield Static(plain(self.looking(0, self.cards())), id="coach-text")
        keys = [("↑↓", _("scroll")), ("esc", _("back"))]
        if self.session.save_path is not None:
            keys.insert(0, ("1-9", _("replay that round")))
        yield KeyBar(keys)

    @property
    def tokens(self) -> bool:
        """BMX: plays of tokens, not cards."""
        return bool(self.session.game.rules.uses_tokens)

    def head(self) -> str:
        # the budget as the lessons spend it: the expert's choice, then both plays raced on in the same worlds
        # (each lesson's "of 100 sampled races")
        numbers = dict(n=self.rollouts, m=worlds_for(Budget(rollouts=self.rollouts)))
        what = (_("Coach: every play of tokens a person made, looked at again from that seat's view: the expert "
                  "chooses in {n} simulated races, then its tokens and the tokens played race on in the same "
                  "{m} sampled races.") if self.tokens else
                _("Coach: every card a person played, looked at again from that seat's view: the expert chooses "
                  "in {n} simulated races, then its card and the card played race on in the same {m} sampled "
                  "races.")).format(**numbers)
        if self.stage is None:
            return what
        name = clean(stage_name(self.session.game.course.name), multiline=False)
        return _("Stage {k}, {stage}. {coach}").format(k=self.stage, stage=name, coach=what) + "\n" + coach_tour_note()

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

    def looking(self, done: int, n: int) -> str:
        """How far the coach has got (it said "a second or so for every ten": a slower machine,
        a longer race, and the player could not tell it was working)."""
        return (ngettext("Looking at {n} play of tokens again: {k} done...",
                         "Looking at {n} plays of tokens again: {k} done...", n) if self.tokens else
                ngettext("Looking at {n} card again: {k} done...", "Looking at {n} cards again: {k} done...",
                         n)).format(n=n, k=done)

    async def think(self) -> None:
        from ...setupdata import setup_json

        s = self.session
        race = (setup_json(s.setup), s.seed, tuple(s.actions_text()), tuple(self.seats), self.rollouts)
        verdicts: list = []
        n: int | None = None
        while n is None or len(verdicts) < n:  # a few cards a call: the count goes up as it thinks
            n, some = await self.app.thinker.call(coach_job, *race, len(verdicts), len(verdicts) + AT_ONCE,
                                                  language())
            verdicts += some
            if len(verdicts) < n:
                self.query_one("#coach-text", Static).update(plain(self.looking(len(verdicts), n)))
        lessons = lessons_of(s.setup, self.seats, verdicts)
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
        verdict = verdicts[k - 1]
        screen.index = replay_frame([f.title for f in replay.frames], verdict.round, self.stage)
        # the frame is the table as it stood when the card was chosen, titled with the round before
        # (what it shows the end of): said on it, so a lesson of round 2 does not seem to open round 1
        note = (_("lesson {k}: round {n}'s tokens chosen here, → plays it") if self.tokens
                else _("lesson {k}: round {n}'s cards chosen here, → plays it"))
        screen.notes = {screen.index: note.format(k=k, n=verdict.round)}
        self.app.push_screen(screen)
