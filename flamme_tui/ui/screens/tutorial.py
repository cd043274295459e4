"""Learn to play: the lessons menu and a lesson's screen.

The lesson (play/tutorial.py) is a real race on a short stage against
scripted teams; this screen shows its track, the step's text, the player's
choices with where each card goes, and after each reveal what happened in
words.  A number key chooses at once.  Every choice is kept
(`save_progress`): Escape leaves the lesson and Learn to play resumes it;
`x` skips it (its progress is forgotten).
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ...engine.cards import card_text
from ...engine.options import BLOCKED, CRASH, MAY
from ...i18n import N_, _
from ...lessonprogress import forget_progress, has_progress, is_done, load_progress, save_progress
from ...play import lessons
from ...play.narrator import kind_name, label, played_text
from ...play.tutorial import Tutorial
from ...usertext import clean
from ..aids import down_squares, wind_mark
from ..content import plain
from ..palette import rider_label, team_of_rider
from ..widgets.keybar import KeyBar
from ..widgets.lap import LapStrip
from ..widgets.scrolling import OneThumbScroll
from ..widgets.track import RiderMark, Scene, TrackStrip
from .base import BaseScreen

Bindings = list[Binding | tuple[str, str] | tuple[str, str, str]]
# the terrain that changed a card's value (engine.options.Option.preview), as a card's note says it
TERRAIN = {"climb": N_("climb"), "descent": N_("descent"), "supply": N_("supply zone")}


def terrain_word(terrain: str) -> str:
    return _(TERRAIN[terrain]) if terrain in TERRAIN else terrain


class LessonsScreen(BaseScreen):
    """The title menu's "Learn to play": every lesson, a started one resumed."""

    HELP_TOPIC = "learn"
    DEFAULT_CSS = """
    LessonsScreen #lessons-body { padding: 1 2; height: 1fr; }
    LessonsScreen #lessons-menu { height: auto; max-height: 12; margin: 1 0; }
    """
    BINDINGS: ClassVar[Bindings] = [Binding("escape,q", "app.pop_screen", N_("Back")),
                                    Binding("r", "restart", N_("Start the highlighted lesson again"))]

    def __init__(self) -> None:
        super().__init__()
        self.entries = lessons.catalogue()

    def compose(self):
        yield from self.compose_notice()
        with VerticalScroll(id="lessons-body"):
            yield Static(plain(_("Learn to play: a short race that teaches one idea a round. Start with the "
                                 "Classic lesson. Leave any time (Escape): it goes on from there next time.")),
                         id="lessons-head")
            yield OptionList(*self.options(), id="lessons-menu")
            yield Static("", id="lessons-message")
        yield KeyBar([("↑↓", _("move")), ("⏎", _("start or resume")), ("r", _("start again")), ("esc", _("back"))])

    def options(self) -> list[Option]:
        out = []
        for entry in self.entries:
            if entry.lesson is None:
                out.append(Option(plain(_("{lesson}: cannot be used: {problem}").format(
                    lesson=entry.id, problem=entry.problem)), id=entry.id, disabled=True))
                continue
            title = entry.lesson.said("title")
            if has_progress(entry):
                title = _("{lesson} (in progress: Enter resumes)").format(lesson=title)
            elif is_done(entry):  # played to its end once (started again, it says "in progress")
                title = _("{lesson} (done)").format(lesson=title)
            out.append(Option(plain(title), id=entry.id))
        return out

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#lessons-menu", OptionList).focus()

    def on_screen_resume(self) -> None:
        super().on_screen_resume()
        menu = self.query_one("#lessons-menu", OptionList)
        highlighted = menu.highlighted
        menu.clear_options()
        menu.add_options(self.options())
        menu.highlighted = highlighted

    def entry(self, id: str | None) -> lessons.Entry | None:
        return next((e for e in self.entries if e.id == id and e.lesson is not None), None)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        entry = self.entry(event.option.id)
        if entry is not None:
            self.app.push_screen(TutorialScreen(entry))

    def action_restart(self) -> None:
        menu = self.query_one("#lessons-menu", OptionList)
        if menu.highlighted is None:
            return
        entry = self.entry(menu.get_option_at_index(menu.highlighted).id)
        if entry is not None:
            forget_progress(entry)
            self.app.push_screen(TutorialScreen(entry))


class TutorialScreen(BaseScreen):
    """One lesson, played by keys."""

    HELP_TOPIC = "learn"
    DEFAULT_CSS = """
    TutorialScreen #lesson-title { height: 1; padding: 0 1; text-style: reverse; text-wrap: nowrap; text-overflow: ellipsis; }
    TutorialScreen #lesson-track { margin: 0 0 0 0; }
    TutorialScreen #lesson-body { height: 1fr; padding: 0 1; }
    TutorialScreen #lesson-step { border: round $accent; padding: 0 1; height: auto; }
    TutorialScreen #lesson-choices { height: auto; text-style: bold; padding: 0 1; }
    TutorialScreen #lesson-report { height: auto; margin-top: 1; }
    """
    BINDINGS: ClassVar[Bindings] = [
        *(Binding(str(k), f"choose({k - 1})", N_("Choose (1-9)"), show=False) for k in range(1, 10)),
        Binding("enter", "go_on", N_("Go on"), show=False),
        Binding("escape", "leave", N_("Leave (kept)")),
        Binding("x", "skip", N_("Skip the lesson")),
        # keys that choose nothing here: said which do (priority: the text's scroller takes ← → else)
        Binding("left,right,0", "nudge", "", show=False, priority=True),
    ]

    def __init__(self, entry: lessons.Entry) -> None:
        super().__init__()
        self.entry = entry
        resumed = load_progress(entry)
        self.resumed = resumed is not None
        self.tutorial: Tutorial = resumed if resumed is not None else Tutorial(entry)
        self.started = self.resumed  # the intro is shown once, before the first choice
        self.saved_problem = ""
        self.page: tuple[object, ...] = ()  # what the text shows (see show): a new one opens at its top

    def compose(self):
        yield from self.compose_notice()
        yield Static(id="lesson-title")
        course = self.tutorial.game.course
        if self.tutorial.view().board.rules.uses_tokens:
            yield LapStrip(course, id="lesson-track")
        else:
            yield TrackStrip(course, id="lesson-track")
        # the choices under the track, out of the scrolled text: a step read to its end never
        # hides the cards the number keys choose
        yield Static(id="lesson-choices")
        with OneThumbScroll(id="lesson-body"):
            yield Static(id="lesson-step")
            yield Static(id="lesson-report")
        yield KeyBar(self.keys(), id="lesson-keys")

    def on_mount(self) -> None:
        super().on_mount()
        self.show()

    def keys(self) -> list[tuple[str, str]]:
        """The keys that do something now: 1 to the number of choices only while the race is on."""
        if not self.started:
            return [("⏎", _("start race")), ("↑↓", _("scroll")), ("esc", _("back")), (self.help_key, _("help"))]
        if self.tutorial.over:
            return [("⏎", _("back")), ("↑↓", _("scroll")), (self.help_key, _("help"))]
        n = len(self.tutorial.options())  # the choices on screen are [1] to [n]
        return [("1" if n == 1 else f"1-{n}", _("choose")), ("↑↓", _("scroll")), ("esc", _("leave (kept)")),
                ("x", _("skip lesson")), (self.help_key, _("help"))]

    # ------------------------------------------------------------ drawing

    def scene(self) -> Scene:
        view = self.tutorial.view()
        board = view.board  # what the player sees: the public board
        lap = board.rules.uses_tokens
        marks = tuple(RiderMark(r.index, rider_label(r.id, "" if lap else r.kind), team_of_rider(r.id).hex,
                                r.square, r.lane, r.crashed) for r in board.riders if r.square >= 0)
        previews = tuple(o.preview.square for o in self.tutorial.options() if o.preview is not None)
        # and where the card already down for the player's other rider takes it, as the race screen marks it
        if self.tutorial.kind() == "pick":
            previews += down_squares(view)
        mine = tuple(r.square for r in board.riders if r.seat == 0)
        return Scene(marks, previews=previews, focus=mine)

    def show(self) -> None:
        t = self.tutorial
        lesson = t.lesson
        steps = [] if t.over else t.round_steps()
        where = _("over") if t.over else _("breakaway") if t.in_breakaway else _("round {n}").format(
            n=t.game.round)
        idea = "".join(" · " + step.said("idea") for step in steps)
        title = lesson.said("title") if not self.started or t.over else _("Learn to play")  # the ideas need the room
        self.query_one("#lesson-title", Static).update(plain(f"{title} · {where}{idea}"))
        self.query_one("#lesson-track").show(self.scene())  # type: ignore[attr-defined]
        shown = t.game.round - 1 if not t.over else t.game.round  # 0: the breakaway's bids
        last = t.reports.get(shown, [])
        if not self.started:
            text, choices = lesson.said("intro"), _("Enter: start the race")
            last = []
        elif t.over:
            text = f"{t.outcome_line()}\n\n{lesson.said('outro')}"
            choices = _("Enter: back to the lessons")
        else:
            text = "\n\n".join(step.said("text") for step in steps) if steps else _("Race on: choose as you learned.")
            choices = self.choices_text()
        page = (self.started, t.over, t.moment(), tuple(t.steps.get(t.moment(), ())))
        if page != self.page:  # a new step (a new round, the race started or over): read from its top
            self.page = page
            self.query_one("#lesson-body", VerticalScroll).scroll_home(animate=False, immediate=True)
        self.query_one("#lesson-keys", KeyBar).show(self.keys())
        self.query_one("#lesson-step", Static).update(plain(self.bound(text)))
        self.query_one("#lesson-choices", Static).update(plain(choices))
        heading = _("The breakaway:") if shown == 0 else _("Last round:")
        report = (heading + "\n" + "\n".join(f"· {line}" for line in last)) if last else ""
        if self.saved_problem:
            report = (report + "\n" + _("(progress not kept: {why})").format(why=self.saved_problem)).strip()
        self.query_one("#lesson-report", Static).update(plain(report))

    def bound(self, text: str) -> str:
        """A lesson's text with its `{key:ID}` marks as the player's keys are bound (lessons.with_keys)."""
        from ..keys import rebindable

        defaults = {r.id: r.keys for r in rebindable()}
        return lessons.with_keys(text, lambda i: self.key_of(i, defaults[i]) if i in defaults else None)

    def choices_text(self) -> str:
        t = self.tutorial
        view = t.view()
        course = view.board.course
        # a card's preview with who ends in the wind (the mark under it), as on the race
        # screen; the same options in the same order as the tutorial's
        options = view.options(wind=True) if t.kind() == "pick" else t.options()
        if t.kind() in ("draw", "bidder"):
            parts = []
            for k, o in enumerate(options, 1):
                rider = t.rider_of(o.action)
                parts.append(f"[{k}] " + _("{kind} (on\u00a0{square})").format(kind=kind_name(rider.kind),
                                                                          square=label(course, rider.square)))
            ask = _("Which rider bids for the breakaway?") if t.kind() == "bidder" else _("Which rider draws first?")
            return ask + "  " + "   ".join(parts)
        rider = t.rider_of(options[0].action)
        if t.kind() == "bid":
            hand = " ".join(card_text(c) for c in sorted(view.hands.get(rider.index, ())))
            bids = "   ".join(f"[{k}] {card_text(getattr(o.action, 'card', 0))}" for k, o in enumerate(options, 1))
            return _("Breakaway, bid {n}: your {kind} drew {hand}. Keep as its bid:").format(
                n=t.game.bid_round, kind=kind_name(rider.kind), hand=hand) + "\n" + bids
        hand = " ".join(played_text(view.board, (c,)) if view.board.rules.uses_tokens else card_text(c)
                        for c in sorted(view.hands.get(rider.index, ())))
        down = [_("your {kind} plays {card}, face down").format(kind=kind_name(view.board.riders[i].kind),
                                                               card=card_text(c))
                for i, c in view.chosen.items() if isinstance(c, int)]
        parts = []
        for k, o in enumerate(options, 1):
            p = o.preview
            note = ""
            if p is not None:
                # riders in the way and crashes as the engine says them: for sure, or the riders ahead may
                word = (_("crash!") if p.fall == CRASH else _("finish") if p.finish
                        else _("blocked") if p.crowd == BLOCKED else _("crash?") if p.fall == MAY
                        else _("blocked?") if p.crowd == MAY else "")
                note = f" {word}" if word else ""
                note += f" ({terrain_word(p.terrain)})" if p.terrain else ""
                # who ends in the wind: the race screen's mark (+E, +E 30%), which the lessons name
                mark = "" if p.finish else wind_mark(p, view.board.rules.uses_tokens)
                note += f" {mark}" if mark else ""
            pieces = getattr(o.action, "tokens", None)
            card = played_text(view.board, pieces if pieces is not None else getattr(o.action, "card", 0))
            # one option on one line: its spaces do not break (a reviewer read "[4]" at a line's end, its card below)
            parts.append(f"[{k}] {card} →{label(course, p.square) if p else '?'}{note}".replace(" ", "\u00a0"))
        head = _("Your {kind} (on\u00a0{square}) drew {hand}").format(kind=kind_name(rider.kind),
                                                                 square=label(course, rider.square), hand=hand)
        if view.board.rules.uses_tokens and view.keep.get(rider.index, 1) > 1:
            head += " " + _("(a descent: keep {n}, move their sum)").format(n=view.keep[rider.index])
        head += f" ({'; '.join(down)})" if down else ""
        return head + _(". Play:") + "\n" + "   ".join(parts)

    # ------------------------------------------------------------ keys

    def action_choose(self, k: int) -> None:
        t = self.tutorial
        if not self.started or t.over:
            self.action_nudge()
            return
        options = t.options()
        if not 0 <= k < len(options):
            self.action_nudge()
            return
        t.choose(options[k].action)
        self.keep()
        self.show()

    def action_go_on(self) -> None:
        if not self.started:
            self.started = True
            self.show()
        elif self.tutorial.over:
            self.keep()
            self.dismiss()
        else:
            self.action_nudge()

    def action_nudge(self) -> None:
        """A key that chooses nothing now: say which keys do, as the race screen does."""
        t = self.tutorial
        if not self.started:
            words = _("Enter: start the race")
        elif t.over:
            words = _("Enter: back to the lessons")
        else:
            n = len(t.options())
            keys = "1" if n == 1 else _("1 or 2") if n == 2 else f"1-{n}"
            words = _("Choose with the number keys: {keys}.").format(keys=keys)
        self.app.notify(words, timeout=3, markup=False)

    def keep(self) -> None:
        try:
            save_progress(self.tutorial)
            self.saved_problem = ""
        except OSError as exc:
            self.saved_problem = exc.strerror or type(exc).__name__

    def action_leave(self) -> None:
        self.keep()
        self.dismiss()

    def action_skip(self) -> None:
        """`x`: a lesson under way is skipped once the player says so (what was played is lost)."""
        t = self.tutorial
        if t.over or not t.actions_text():
            self.skip()
            return
        from .dialogs import ConfirmSkipLesson

        def answer(yes: bool | None) -> None:
            if yes:
                self.skip()

        self.app.push_screen(ConfirmSkipLesson(clean(t.lesson.said("title"), multiline=False)), answer)

    def skip(self) -> None:
        forget_progress(self.entry)
        self.app.notify(_("Lesson skipped: Learn to play starts it again any time."), timeout=4)
        self.dismiss()

    def check_action(self, action: str, parameters: Any) -> bool | None:
        return True


def tutorial_app(entry: lessons.Entry | None = None):
    """The app, opened on the lessons menu (on `entry`'s lesson if given), over the title menu."""
    from pathlib import Path

    from .. import app as app_module
    from ..app import FlammeApp

    class TutorialApp(FlammeApp):
        # Textual finds a relative CSS_PATH beside the class's own module: the app's, here
        CSS_PATH = str(Path(app_module.__file__).parent / str(FlammeApp.CSS_PATH))

        def on_mount(self) -> None:
            # (Textual calls FlammeApp's on_mount too: the title menu goes first, under the lessons)
            self.call_after_refresh(self.open_lessons)

        def open_lessons(self) -> None:
            self.push_screen(LessonsScreen())
            if entry is not None:
                self.push_screen(TutorialScreen(entry))

    return TutorialApp()


def run(lesson: str | None = None) -> int:
    """`flamme-tui tutorial [LESSON]`: the app, on the lessons menu (on LESSON if
    given); leaving it goes on to the title menu.  An unknown or broken lesson: one line, exit 2."""
    entry = None
    if lesson is not None:
        entry = next((e for e in lessons.catalogue() if e.id == lesson), None)
        if entry is None or entry.lesson is None:
            import sys

            known = ", ".join(e.id for e in lessons.catalogue() if e.lesson is not None)
            why = _("no lesson {lesson!r} (lessons: {known})").format(lesson=lesson, known=known) if entry is None \
                else str(entry.problem)
            print(clean(_("flamme-tui: tutorial: {why}").format(why=why), multiline=False), file=sys.stderr)
            return 2
    app = tutorial_app(entry)
    result = app.run()
    return int(app.return_code or 0) if result is None else int(result)
