"""The race: a renderer of the table's turn model (play.table).

`Table.turn()` says what the table shows now (a typed turn: a seat placing,
picking, reviewing, the curtain, a reveal, a bot thinking, ...) with what may
be done; this screen draws it and maps keys and clicks to `Table.choose`.
It reads no game: what it shows comes from the turn (the seat's own view in
that seat's turn, the public view otherwise) and the race's public board;
the race in words is the narrator's.  The keys and clicks are in
screens/racekeys.py (RaceKeys, this screen's base); the drawing is in
widgets/racetable.py (status, track, boards), widgets/actionpanel.py (the
panel of each turn) and widgets/reveal.py (a round step by step).

Privacy: a seat's view is in the turns addressed to that seat only, shown
after it lifted the curtain; between two players the panel is emptied
before the curtain goes up.

Speed: every part of the screen has a fixed size (app.tcss); a key only
changes what the parts show, and each part repaints only its lines that
changed (widgets/lines.py), so a key costs one frame and no new layout.
"""

from __future__ import annotations

from functools import partial
from typing import Any, cast

from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.timer import Timer
from textual.widgets import Static
from textual.worker import Worker, WorkerState

from ...engine.actions import Action, Place, Play, PlayTokens
from ...i18n import _, pgettext
from ...play import table as t
from ...play.flow import history
from ...play.narrator import Branched, Reason, Resumed, RoundStarts, branched_words
from ...play.session import BotMove
from ...settings import STEP_DELAYS
from ...usertext import escape_markup
from ...words import team_name
from ..texts import help_for, weather_short
from ..widgets.actionpanel import ActionPanel
from ..widgets.board import Boards
from ..widgets.cards import CardRow
from ..widgets.keybar import KeyBar
from ..widgets.lap import LapStrip, large_for
from ..widgets.lines import TextLines
from ..widgets.profile import StageProfile
from ..widgets.racelog import RaceLog
from ..widgets.racetable import RaceTable
from ..widgets.reveal import after_words, revealed_cards, show_reveal
from ..widgets.track import Scene, StageOverview, TrackStrip
from .base import TALL, WIDE
from .racekeys import RaceKeys, pace_words

LARGE_CARDS = 48  # lines from which the cards are drawn large (their values in big digits)
# the hint's lines under the cards the layout keeps where it can: what the selected card does,
# every fact said (ui.aids.sentence: at most three lines of the panel at 80 columns in every
# language, four on a meteo stage, where a crash and standing up may be said too)
HINT_LINES = {False: 3, True: 4}
HELP = {t.Placing: "place", t.ChoosingFirst: "draw", t.Picking: "pick", t.Reviewing: "pick", t.Curtain: "curtain",
        t.ChoosingBidder: "breakaway", t.Bidding: "breakaway", t.BidsShown: "breakaway"}


def animations_allowed() -> bool:
    """TEXTUAL_ANIMATIONS=none (or disabled): nothing moves by itself."""
    import os

    return os.environ.get("TEXTUAL_ANIMATIONS", "").lower() not in ("none", "disabled")


def key_words() -> dict[str, str]:
    """The key bar's words in the player's language: short verbs ("key bar"
    tells them from the same English words elsewhere: "play" a card, "pass" the keyboard)."""
    return {"try again": pgettext("key bar", "try again"), "move": pgettext("key bar", "move"),
            "place": pgettext("key bar", "place"), "random": pgettext("key bar", "random"),
            "choose": pgettext("key bar", "choose"), "select": pgettext("key bar", "select"),
            "confirm": pgettext("key bar", "confirm"), "bid": pgettext("key bar", "bid"),
            "continue": pgettext("key bar", "continue"), "pass": pgettext("key bar", "pass"),
            "play": pgettext("key bar", "play"), "select/unselect": pgettext("key bar", "select/unselect"),
            "back": pgettext("key bar", "back"), "next": pgettext("key bar", "next"), "skip": pgettext("key bar", "skip"),
            "profile": pgettext("key bar", "profile"), "hint": pgettext("key bar", "hint"),
            "help": pgettext("key bar", "help"), "quit": pgettext("key bar", "quit")}


class RaceScreen(RaceKeys):
    HELP_TOPIC = "pick"

    def __init__(self, flow) -> None:
        self.flow = flow
        self.table = t.Table(flow)  # every action of the screen is a choice the table offered
        self.board = self.table.public().board  # the race's public facts: course, rules, teams, riders
        super().__init__(classes=f"race -{self.board.variant}")
        self.bmx = bool(self.board.rules.uses_tokens)
        self.turn: t.Turn | None = None
        self.sel: int | None = None  # selected option (card, rider)
        self.multi: list[int] = []  # bmx descent: the selected tokens
        self.cursor_k: int | None = None  # bmx descent: the token under the arrow-key cursor
        self.options: list = []  # cards (codes) or riders (indices) on offer
        self.places: list[tuple[int, int]] = []  # the grid's free places (square, lane)
        self.cursor: tuple[int, int] | None = None
        self._timer: Timer | None = None  # the step-through playing by itself (see `pace`)
        self._logged = 0
        self._busy = False
        self._tidy_pending = True
        self._bot_timer: Timer | None = None  # the "is thinking" spinner
        self._bot_failed: str | None = None  # why the bot due could not play (Enter tries again)
        self._refresh_on_resume = False  # a bot played while a dialog covered this screen
        self._drawn_with: tuple[object, ...] = ()  # drawn_with() when the screen was last drawn (set on mount)
        self._curtain: Any = None  # the race's curtain (CurtainScreen), installed: shown for every player
        self._texts: dict[TextLines, str] = {}
        self._sized: tuple[int, int] | None = None  # the window size the parts were last sized for

    # ------------------------------------------------------------- layout

    @property
    def aids(self) -> bool:
        """The decision aids (previews on the track and the cards, what the
        selected card does); off in the settings: the real table."""
        return bool(getattr(getattr(self.app, "settings", None), "aids", True))

    @property
    def recap(self) -> tuple[str, ...]:
        """ "Since your last look" for the seat at the screen, in words."""
        seat = getattr(self.turn, "seat", None)
        return () if seat is None else self.panel.recap(seat)

    def key(self, binding_id: str) -> str:
        """The key of a binding as it is bound now ("⏎", or the player's own)."""
        default = next(b.key for b in self.BINDINGS if isinstance(b, Binding) and b.id == binding_id)
        return self.key_of(binding_id, default)

    def compose(self):
        board = self.board
        yield from self.compose_notice()
        yield TextLines("", id="status")
        log = RaceLog(id="log")
        if self.bmx:
            with Horizontal(id="top"):
                yield LapStrip(board.course, id="track")
                yield log
        else:
            # the whole stage at a glance, then the detailed strip around the action
            yield StageOverview(board.course, id="overview")
            yield TrackStrip(board.course, id="track")
            if board.rules.has_weather and any(board.course.weather):
                yield Static(weather_short(board.course), id="legend")
        boards = Boards(id="boards")
        boards.styles.height = Boards.fixed_height(len(board.riders))
        with Horizontal(id="main"):
            with Vertical(id="left"):
                with Vertical(id="action"):
                    yield TextLines("", id="panel-title")
                    yield CardRow(id="cards")
                    yield TextLines("", id="panel-hint")
                if self.bmx:
                    yield boards
                else:  # in a tall window: the stage profile with the riders on it
                    yield StageProfile(board.course, bars=4, riders=True, caption=True, id="profile")
            if not self.bmx:
                yield log
        if not self.bmx:
            yield boards  # the whole width: every column in words, never cut
        yield KeyBar(id="keys")

    def size_changed(self, width: int, height: int) -> None:
        if self._sized == (width, height):
            return  # (every return from a dialog asks again: the same size lays out the same)
        self._sized = (width, height)
        strip = self.query("#track").first() if self.query("#track") else None
        if isinstance(strip, TrackStrip):
            # taller windows: ruler, weather and terrain rows, and the stage
            # wrapped onto several bands when there is room for them
            strip.tall = height >= 32
            strip.max_lines = 15 if height >= 40 else strip.rows
        if isinstance(strip, LapStrip):  # a large window: three cells a square and their numbers
            strip.set_large(large_for(width, height))
            self.query_one("#top").styles.height = strip.get_content_height(None, None, width)
        vast = width >= 160
        self.set_class(vast, "-vast")
        for overview in self.query("#overview").results(StageOverview):
            overview.set_wide(vast)  # a large window: two cells a square, the riders' labels in full
            # the detailed strip with the whole stage in one band (200 columns): the overview said it again
            overview.display = not (isinstance(strip, TrackStrip) and strip.one_band(width))
        # a window this tall has the room: the cards' values in big digits (classic and meteo;
        # BMX keeps its lap and die at the top)
        large = height >= LARGE_CARDS and not self.bmx
        self.set_class(large, "-large-cards")
        self.query_one("#cards", CardRow).set_large(large)
        riders = len(self.board.riders)
        columns = Boards.columns_for(riders, height, width)
        if not self.bmx:
            # a row each left the hint under the cards too few lines for what the selected card
            # does (3 and 4 teams at 80x24: two, or none on a Peloton stage): two columns then.
            # (From 110 columns the hint is 61 cells wide or more: three lines say it all)
            crowded = width < WIDE and self.hint_room(width, height, columns) < HINT_LINES[self.board.rules.has_weather]
            columns = Boards.columns_for(riders, height, width, crowded)
            self.query_one("#boards", Boards).set_columns(columns, riders)
        for profile in self.query("#profile").results(StageProfile):
            # the room a tall window leaves under the cards and four lines of hints: the stage profile
            room = self.hint_room(width, height, columns) - 4
            self.set_class(room >= 7, "-profile")
            # a large window: the chart at its full width and as tall as the room allows
            # (the room: a margin, the bars, the axis, the riders and their caption)
            profile.set_stretch(vast)
            profile.set_bars(max(3, min(19 if vast else 11, room - 4)))  # (the caption's row off the most bars)
            if isinstance(strip, TrackStrip):
                profile.show_riders(strip.scene.riders)

    def hint_room(self, width: int, height: int, columns: int) -> int:
        """The lines the panel's hint has under the cards at this size (classic
        and meteo), the boards in `columns`: the window less every part of a
        fixed height (app.tcss: a tall window's margins and weather legend)."""
        tall = height >= TALL
        rows = 1 + 1 + 1  # the status line, the panel's title, the key bar
        overviews = [part for part in self.query("#overview").results(StageOverview) if part.display]
        rows += sum(part.get_content_height(None, None, width) for part in overviews)
        rows += sum(part.get_content_height(None, None, width) for part in self.query("#track").results(TrackStrip))
        rows += (tall and bool(overviews)) + (tall and bool(self.board.rules.has_weather))  # its margin, the legend
        rows += (7 if height >= LARGE_CARDS else 4)  # the cards
        return height - rows - Boards.fixed_height(len(self.board.riders), columns) - tall  # (the boards' margin)

    def on_mount(self) -> None:
        super().on_mount()
        self.drawing = RaceTable(self, self.table, self.board)
        self.panel = ActionPanel(self, self.drawing)
        self.log_w = self.query_one("#log", RaceLog)
        self.keybar = self.query_one("#keys", KeyBar)
        self.cards, self.boards, self.track = self.panel.cards, self.drawing.boards, self.drawing.track
        self.hint_w, self.profile = self.panel.hint_w, self.drawing.profile
        if self.flow.session.bots:
            self.app.thinker.warm()
        notes = self.flow.notes
        resumed = next((k for k, note in enumerate(notes) if isinstance(note, Resumed)), None)
        rounds_before = self.table.public().board.round > 1 and RoundStarts(1) not in notes
        if resumed is not None or rounds_before:
            # a race resumed (or shown from a session played elsewhere): its log rebuilt from the
            # action log, the flow's own log starting empty: the rounds before after the heading;
            # the round in progress so far after its own heading, before the resume's note
            past, now = history(self.flow.session)
            at = resumed if resumed is not None else len(notes)
            notes[at:at] = now
            if rounds_before:
                notes[1:1] = past
        self._drawn_with = self.drawn_with()
        self.refresh_turn()

    def put(self, widget: TextLines, text: str) -> None:
        """Show a text in one of the fixed-size texts (only if it changed)."""
        if self._texts.get(widget) != text:
            self._texts[widget] = text
            widget.update(text, layout=False)

    # -------------------------------------------------------------- turns

    def refresh_turn(self) -> None:
        """Ask the table what happens now and show it."""
        turn = self.turn = self.table.turn()
        self.sel, self.multi, self.cursor_k, self.cursor, self.options = None, [], None, None, []
        self.panel.base_cards, self.panel.nudged = (), ""
        self.HELP_TOPIC = HELP.get(type(turn), "reveal")
        self.set_class(isinstance(turn, t.Placing), "-placing")
        self.write_log()
        key, panel = self.key, self.panel
        if isinstance(turn, t.BotThinking):
            self.start_bot(turn)
        elif isinstance(turn, t.Curtain):
            self.show_curtain(turn)
        elif isinstance(turn, t.Placing):
            self.places = sorted((o.action.square, o.action.lane) for o in turn.options if isinstance(o.action, Place))
            self.cursor = self.places[-1] if self.places else None
            panel.show_place(turn, key)
            self.update_place_track()
        elif isinstance(turn, (t.ChoosingFirst, t.ChoosingBidder)):
            self.options = panel.show_draw(turn, key, bidding=isinstance(turn, t.ChoosingBidder))
        elif isinstance(turn, t.Picking):
            self.options = panel.show_pick(turn, key, self.keep_size())
            panel.update_pick(turn, self.selected_cards(), self.keep_size())
        elif isinstance(turn, t.Reviewing):  # (back on this screen during a review: the pick's screen stays)
            self.show_review(turn)
        elif isinstance(turn, t.Bidding):
            self.options = panel.show_bid(turn, key, turn.bid)
        elif isinstance(turn, t.BidsShown):
            panel.show_bids(turn)
        elif isinstance(turn, t.Revealing):
            self.flow.step(0)  # the first step is on screen: its lines go to the log
            panel.base_cards = revealed_cards(turn, self.drawing)
            if self.pace != "off" and animations_allowed() and getattr(self.app, "autoplay", True):
                self.start_timer()
            self.update_reveal()
        elif isinstance(turn, t.Outcome):
            panel.clear()
            self.app.show_podium(self.flow)
        self.show_keys()
        if self._tidy_pending or isinstance(turn, t.Revealing):
            # tidy the memory once the first turn (or its curtain) is on screen,
            # and at every reveal: while the players read it (see app.tidy_memory)
            tidy = getattr(self.app, "tidy_memory", None)
            if tidy is not None:
                self.app.call_after_refresh(tidy, self._tidy_pending)
            self._tidy_pending = False

    def show_curtain(self, turn: t.Curtain) -> None:
        """The curtain for the seat due (one for the race, shown again for each
        player: building a new screen each turn took most of the time between
        Enter and the curtain), over the public table only."""
        from .curtain import CurtainScreen, PublicTable

        seat, view, drawing = turn.seat, turn.view, self.drawing
        public = PublicTable(self.board.course, self.board.variant, Scene(drawing.view_marks(view)),
                             drawing.rows(view), view.board.supply)
        heading = _("Breakaway, bid {n}").format(n=turn.bid) if turn.bid else None
        team = self.board.setup.teams[seat]
        name = team_name(self.board.setup, seat)  # (named by default: in the language now)
        if self._curtain is None:
            # the race's first curtain says a branch's new file (the log says it once lifted)
            branched = next((note for note in self.flow.notes if isinstance(note, Branched)), None)
            self._curtain = CurtainScreen(seat, name, team.colour, view.board.round, self.bmx,
                                          on_lift=self._curtain_lifted, table=public, heading=heading,
                                          riders=team.riders,
                                          on_standings=self.action_standings if self.table.in_tour else None,
                                          note=branched_words(branched.old, branched.new) if branched else "")
            self.app.install_screen(self._curtain, name=f"curtain-{id(self)}")
        else:
            self._curtain.next_turn(seat, name, team.colour, view.board.round, public, heading=heading,
                                    riders=team.riders)
        self.app.push_screen(self._curtain)
        # the hand and the previews leave this screen before any frame, under the
        # curtain already: its parts are drawn once, when the curtain lifts (lines.py)
        self.panel.clear()
        drawing.show_public(_("Waiting for {team}"), view, name)

    def show_keys(self) -> None:
        """The footer: the keys that apply now."""
        turn, key = self.turn, self.key
        enter = key("race.confirm")
        keys: list[tuple[str, str]] = []
        words = key_words()
        if isinstance(turn, t.BotThinking):
            keys = [(enter, words["try again"])] if self._bot_failed else [("…", _("a bot is thinking"))]
        elif isinstance(turn, t.Placing):
            keys = [("←→↑↓", words["move"]), (enter, words["place"]), (key("race.random"), words["random"])]
        elif isinstance(turn, t.ChoosingFirst):  # the number keys of the riders on offer: none that does nothing
            keys = [(self.number_keys(), words["choose"]), ("←→", words["select"]), (enter, words["confirm"])]
        elif isinstance(turn, t.ChoosingBidder):
            keys = [(self.number_keys(), words["select"]), ("←→", words["move"]), (enter, words["confirm"])]
        elif isinstance(turn, t.Bidding):
            keys = [(f"1-{len(self.options)}", words["bid"]), ("←→", words["select"]), (enter, words["bid"])]
        elif isinstance(turn, t.BidsShown):
            keys = [(enter, words["continue"])]
        elif isinstance(turn, t.Reviewing):
            keys = [(enter, words["pass" if self.flow.hot_seat else "play"]),
                    (key("race.change"), self.panel.change_what(turn))]
        elif isinstance(turn, t.Picking):
            n = len(self.options)
            if self.keep_size() > 1:
                keys = [(f"1-{n}", words["select/unselect"]), ("←→", words["move"]), (key("race.next"), words["select"]),
                        (enter, words["play"])]
            else:  # (the review catches a slip)
                keys = [(f"1-{n}", words["play"]), ("←→", words["select"]), (enter, words["play"])]
        elif isinstance(turn, t.Revealing):
            if turn.step >= len(turn.frames) - 1:
                keys = [(enter, words["continue"]), ("←", words["back"])]
            else:
                keys = [(key("race.next"), words["next"]), ("←", words["back"]), (enter, words["skip"]),
                        (key("race.auto"), pgettext("autoplay", "stop") if self.playing else pgettext(
                            "autoplay", "play"))]
            keys.append((key("race.pace"), _("pace: {pace}").format(pace=pace_words(self.pace))))
        if self.hint_offered():  # before the profile: at 80 columns a key bar too long loses the profile first
            keys.append((key("race.hint"), words["hint"]))
        if isinstance(self.track, TrackStrip):
            keys.append((key("race.profile"), words["profile"]))
        if self.table.in_tour:
            keys.append((key("race.standings"), _("standings")))
        keys += [(self.key_of("help", "question_mark"), words["help"]), (key("race.quit"), words["quit"])]
        self.keybar.show(keys)

    def hint_offered(self) -> bool:
        """Whether the hint key gives a hint now (Settings: hints on for this
        table, a person choosing a card or who draws first): the key bar says so."""
        from ..hints import HINT_KINDS, refusal

        if getattr(getattr(self.app, "settings", None), "hints", "off") == "off":
            return False
        return getattr(self.turn, "kind", None) in HINT_KINDS and refusal(self) is None

    def _curtain_lifted(self, seat: int) -> None:
        """The named player pressed Enter on the curtain: show their turn.  Done
        while the curtain still covers this screen, just before it goes, so the
        first frame after it already shows the whole turn."""
        self.table.choose(t.LiftCurtain(seat))
        self.refresh_turn()

    def write_log(self) -> None:
        lines = self.flow.log
        if self._logged < len(lines):
            new = lines[self._logged:]
            if not getattr(getattr(self.app, "settings", None), "bot_reasons", False):
                # a bot's reasons only when the settings ask for them (the flow keeps
                # them out of its log too when the race starts with them off); told
                # apart by their notes, not their words (which depend on the language)
                notes = self.flow.notes[self._logged:]
                new = [line for line, note in zip(new, notes) if not isinstance(note, Reason)]
            self.log_w.write_lines(new)
            self._logged = len(lines)

    # -------------------------------------------------------- a bot thinks

    # A bot thinks in another process (play/thinker.py), so the screen answers
    # keys meanwhile; a Textual worker (a coroutine on this thread) waits for
    # it.  Only this (the UI) thread ever changes or reads the game: the bot
    # gets the position as it was when the move was asked for, and its answer
    # comes back as a Worker.StateChanged message, handled here, where
    # Table.play_bot_move commits it (refused if the game moved on).  While a
    # bot thinks nothing else can change the game: game keys are disabled
    # (check_action), Enter says why, the table offers nothing, and a bot
    # answer arriving under a dialog (quit, help) is committed but the next
    # turn waits until this screen is back.

    def start_bot(self, turn: t.BotThinking) -> None:
        self._bot_failed = None
        self.panel.clear()
        self.drawing.show_public(_("{team} is thinking…"), turn.view, self.flow.bot_name(turn.seat))
        self.panel.panel(self.panel.who(turn.seat, " " + _("[dim](bot)[/dim] is thinking…")),
                         _("the game keys wait for it · [b]{quit}[/b] quit · [b]{help}[/b] help").format(
                             quit=self.key("race.quit"), help=self.key_of("help", "?")))
        move = self.table.bot_move()
        self.run_worker(self._think(move), name=f"bot seat {move.seat}", group="bot",
                        exclusive=True, exit_on_error=False)
        self._spin(0)

    async def _think(self, move: BotMove) -> tuple[BotMove, Action, str]:
        """The bot's answer, with the move it answers (the reason the table
        may hear: only what the bot played)."""
        action, reason = await self.app.thinker.think(self.flow.session, move)
        return move, action, reason

    SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"

    def _spin(self, k: int) -> None:
        """Turn the spinner by the "is thinking" title while the bot thinks."""
        self._stop_spinner()
        if self.app.animation_level == "none" or not isinstance(self.turn, t.BotThinking):
            return
        self.put(self.panel.title_w,
                 self.panel.who(self.turn.seat, " " + _("[dim](bot)[/dim] is thinking {spinner}").format(
                     spinner=self.SPINNER[k % 10])))
        self._bot_timer = self.set_timer(0.1, partial(self._spin, k + 1))

    def _stop_spinner(self) -> None:
        if self._bot_timer is not None:
            self._bot_timer.stop()
            self._bot_timer = None

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        worker, turn = event.worker, self.turn
        if worker.group != "bot" or not isinstance(turn, t.BotThinking):
            return
        if event.state == WorkerState.SUCCESS:
            self._stop_spinner()
            move, action, reason = cast(tuple[BotMove, Action, str], worker.result)
            self.table.play_bot_move(move, action, reason)
            if self.app.screen is self:
                self.next_turn()
            else:
                self._refresh_on_resume = True
        elif event.state == WorkerState.ERROR:
            self._stop_spinner()
            self._bot_failed = f"{type(worker.error).__name__}: {worker.error}"
            self.notify(_("{bot} could not play ({why})").format(bot=self.flow.bot_name(turn.seat),
                                                                 why=self._bot_failed), severity="error",
                        timeout=10, markup=False)
            self.panel.panel(self.panel.who(turn.seat, " " + _("[dim](bot)[/dim] could not play")),
                             escape_markup(self._bot_failed) + "\n" +
                             _("[b]{enter}[/b] try again · [b]{quit}[/b] quit").format(
                                 enter=self.key("race.confirm"), quit=self.key("race.quit")))
            self.show_keys()

    def on_screen_resume(self) -> None:
        # (no super() call: Textual calls every class's handler of the event, BaseScreen's
        # too; calling it here as well showed the changes and sized the screen twice a resume)
        if self._refresh_on_resume:
            self._refresh_on_resume = False
            self.next_turn()
        elif self._drawn_with and self._drawn_with != self.drawn_with():  # back from Settings: the aids or the hint key changed
            self.redraw()

    def drawn_with(self) -> tuple[object, ...]:
        """What the screen's words depend on besides the race: the language, the aids, the hint key."""
        from ... import i18n

        return i18n.language(), self.aids, getattr(getattr(self.app, "settings", None), "hints", "off")

    def relanguage(self) -> None:
        """The language changed (Settings, over this screen): the race screen is not composed
        again (its state is the table's), its words are drawn again in the new one."""
        self.call_later(self.redraw)

    def redraw(self) -> None:
        """Draw the turn on screen again with the settings as they are now (a reviewer changed the
        language and the aids mid-race: the screen kept the old ones until the next key, then mixed them)."""
        language_changed = self._drawn_with[:1] != self.drawn_with()[:1]
        self._drawn_with = self.drawn_with()
        self._texts.clear()
        if language_changed:  # the log told again from its notes, in the new language
            self.log_w.clear()
            self._logged = 0
            self.write_log()
        for legend in self.query("#legend").results(Static):
            legend.update(weather_short(self.board.course))
        self.drawing.boards.draw_again()
        turn = self.turn
        if isinstance(turn, t.BotThinking):  # its worker thinks on: only the words around it
            self.show_keys()
        elif isinstance(turn, t.Revealing):  # the step on screen, its timer going on as it was
            self.update_reveal()
            self.show_keys()
        elif not isinstance(turn, (t.Outcome, t.Curtain)):  # (the curtain: a screen of its own, up already)
            self.refresh_turn()

    # ---------------------------------------------------- the turn's views

    def update_place_track(self) -> None:
        assert isinstance(self.turn, t.Placing)
        focus = (self.cursor[0],) if self.cursor else ()
        self.drawing.show_track(Scene(self.drawing.view_marks(self.turn.view), cursor=self.cursor, focus=focus))

    def selected_cards(self) -> list[int]:
        if self.multi:
            return [self.options[k] for k in self.multi]
        return [] if self.sel is None else [self.options[self.sel]]

    def keep_size(self) -> int:
        """Tokens to keep (2 on a BMX descent), else 1."""
        turn = self.turn
        if not self.bmx or not isinstance(turn, t.Picking):
            return 1
        return int(turn.view.keep.get(turn.rider, 1))

    def mark_selection(self) -> None:
        multi = self.keep_size() > 1
        chosen = set(self.multi) if multi else ({self.sel} if self.sel is not None else set())
        self.panel.mark_selection(chosen, self.cursor_k, multi)
        if isinstance(self.turn, t.Picking):
            self.panel.update_pick(self.turn, self.selected_cards(), self.keep_size())

    def update_reveal(self) -> None:
        turn = self.table.turn()
        if not isinstance(turn, t.Revealing):
            return
        self.turn = turn
        # what Enter does stays on the title line: a long step text never pushes it out;
        # the line fits the panel beside the log at 80 columns (49 cells), the key bar
        # has the other keys
        if turn.step >= len(turn.frames) - 1:
            keys = f"[b]{self.key('race.confirm')}[/b] {after_words(turn)}"
        elif self.playing:  # the steps play by themselves: the key that stops them instead of "next"
            keys = _("[b]{auto}[/b] stops · [b]{enter}[/b] skip").format(auto=self.key("race.auto"),
                                                                        enter=self.key("race.confirm"))
        else:
            keys = _("[b]{next}[/b] next · [b]{enter}[/b] skip").format(next=self.key("race.next"),
                                                                       enter=self.key("race.confirm"))
        show_reveal(self.panel, turn, keys)
        self.show_keys()
        self.write_log()

    def show_review(self, turn: t.Reviewing) -> None:
        self.panel.show_review(turn, self.key, self.flow.hot_seat)
        self.show_keys()

    @property
    def pending(self) -> Play | PlayTokens | None:
        """The seat's last pick under review (played: see the table's Reviewing), else None."""
        return cast(Play | PlayTokens, self.turn.action) if isinstance(self.turn, t.Reviewing) else None

    # ----------------------------------------------------- the step-through

    @property
    def pace(self) -> str:
        """The step-through's pace: the settings' step_speed ("off": keys only,
        "slow", "normal" or "fast"), remembered in the settings file."""
        return str(getattr(getattr(self.app, "settings", None), "step_speed", "off"))

    @property
    def playing(self) -> bool:
        return self._timer is not None

    def start_timer(self) -> None:
        self.stop_timer()
        # `a` plays the steps at the pace set, or slowly when the pace is off
        self._timer = self.set_interval(STEP_DELAYS.get(self.pace, STEP_DELAYS["slow"]), self._auto_step)

    def stop_timer(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    def _auto_step(self) -> None:
        if t.Step(1) in self.table.turn().options:
            self.table.choose(t.Step(1))
        else:
            self.stop_timer()  # the labels: nothing moves any more
        self.update_reveal()

    def step(self, delta: int) -> None:
        if delta < 0:
            self.stop_timer()  # stepping back takes the step-through in hand
        if t.Step(delta) in self.table.turn().options:  # (past either end: nothing to show)
            self.table.choose(t.Step(delta))
        self.update_reveal()

    def help_text(self) -> str:
        return help_for(self.HELP_TOPIC, self.board.variant, self.keys_text, tour=self.table.in_tour,
                        setup=self.board.setup)

    def on_unmount(self) -> None:
        self.stop_timer()
        self._stop_spinner()
        curtain, self._curtain = self._curtain, None
        if curtain is not None and curtain not in self.app.screen_stack:
            self.app.uninstall_screen(curtain)
            curtain.remove()  # the race is gone: its curtain goes too
