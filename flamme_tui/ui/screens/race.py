"""The race: track strip, action panel (grid, rider choice, hand, reveal),
boards and the race log.

Privacy: everything private is read from `game.view(seat)` of the player
whose turn it is, and only after that player lifted the curtain.  Between two
players the action panel is emptied before the curtain goes up.

Speed: every part of the screen has a fixed size (app.tcss); a key only
changes what the parts show, and each part repaints only its lines that
changed (widgets/lines.py), so a key costs one frame and no new layout.
Nothing is shown or hidden, mounted or removed during a race.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import Any, cast

from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.timer import Timer
from textual.widgets import Static
from textual.worker import Worker, WorkerState

from ...engine.actions import Action, Bid, Draw, Place, Play, PlayTokens
from ...engine.cards import card_text
from ...engine.events import BidsRevealed, Breakaway, token_text
from ...engine.phase import Phase
from ...engine.race import RuleError
from ...play.flow import RaceFlow, Turn, history
from ...play.narrator import RoundStarts, kind_name
from ...play.narrator import label as square_label
from ...play.narrator import to_go as square_to_go
from ...play.narrator import where as square_where
from ...play.session import BotMove, UndoRefused
from ...play.table import (
    EndReveal,
    LiftCurtain,
    NotOffered,
    PassReview,
    ReadBids,
    SkipReveal,
    Step,
    Table,
    TakeBack,
)
from ...settings import STEP_DELAYS, STEP_SPEEDS
from ...usertext import cells, clean, escape_markup, fit
from .. import aids
from ..palette import WEATHER, rider_label, rider_style, team_colour, team_markup, team_of_rider
from ..texts import WEATHER_SHORT, help_for
from ..widgets.board import Boards, board_rows, token_str
from ..widgets.cards import Card, CardClicked, CardRow
from ..widgets.keybar import KeyBar
from ..widgets.lap import LapStrip
from ..widgets.lines import TextLines
from ..widgets.profile import StageProfile
from ..widgets.racelog import RaceLog
from ..widgets.track import RiderMark, Scene, StageOverview, TrackClicked, TrackStrip
from .base import BaseScreen

KIND = {"S": "Sprinteur", "R": "Rouleur"}
LARGE_CARDS = 48  # lines from which the cards are drawn large (their values in big digits)
DIE_WORDS = {
    0: "no catch-up this turn",
    1: "gaps of 1 square close up",
    2: "gaps of 1 or 2 squares close up",
}


def animations_allowed() -> bool:
    """TEXTUAL_ANIMATIONS=none (or disabled): nothing moves by itself."""
    import os

    return os.environ.get("TEXTUAL_ANIMATIONS", "").lower() not in ("none", "disabled")


class RaceScreen(BaseScreen):
    HELP_TOPIC = "pick"
    BINDINGS = [
        Binding("1", "choose(0)", "Select", key_display="1-5"),
        Binding("2", "choose(1)", show=False),
        Binding("3", "choose(2)", show=False),
        Binding("4", "choose(3)", show=False),
        Binding("5", "choose(4)", show=False),
        Binding("left", "move(-1)", show=False),
        Binding("right", "move(1)", show=False),
        Binding("up", "lane(1)", show=False),
        Binding("down", "lane(0)", show=False),
        # an id makes a key rebindable in the settings (keys.py); the key bar and
        # the panel's hints name each key as it is bound now (`key`)
        Binding("enter", "confirm", "Confirm: place, draw, play, pass, skip, continue", id="race.confirm"),
        Binding("space", "next_step", "Next step", id="race.next"),
        Binding("a", "autoplay", "Steps play by themselves (on/off)", id="race.auto"),
        Binding("p", "pace", "Pace of the steps: off, slow, normal, fast", show=False, id="race.pace"),
        Binding("u,backspace", "change", "Change the last card before passing", show=False, id="race.change"),
        Binding("r", "random_place", "A random place on the grid", id="race.random"),
        Binding("s", "profile", "The stage profile", id="race.profile"),
        Binding("h", "hint", "Hint: what the expert would play (Settings)", show=False, id="race.hint"),
        Binding("left_square_bracket", "pan(-16)", "Scroll the track back", show=False, id="race.back"),
        Binding("right_square_bracket", "pan(16)", "Scroll the track on", show=False, id="race.on"),
        Binding("q", "app.request_quit", "Quit", id="race.quit"),
    ]

    def __init__(self, flow: RaceFlow) -> None:
        super().__init__(classes=f"race -{flow.game.variant}")
        self.flow = flow
        self.table = Table(flow)  # every action of the screen is a choice the table offered
        self.turn: Turn | None = None
        self.sel: int | None = None  # selected option (card, rider)
        self.multi: list[int] = []  # bmx descent: the selected tokens
        self.cursor_k: int | None = None  # bmx descent: the token under the arrow-key cursor
        self.options: list = []  # cards (codes) or riders (indices) on offer
        self.places: list[tuple[int, int]] = []
        self.cursor: tuple[int, int] | None = None
        self._timer: Timer | None = None  # the step-through playing by itself (see `pace`)
        self._logged = 0
        self._busy = False
        self._tidy_pending = True
        self._base_cards: tuple[Card, ...] = ()  # the cards on offer, before selection marks
        self._bot_timer: Timer | None = None  # the "is thinking" spinner
        self._bot_failed: str | None = None  # why the bot due could not play (Enter tries again)
        self._refresh_on_resume = False  # a bot played while a dialog covered this screen
        # the review of a seat's last pick (flow.review: played, shown before
        # anything it led to): its cards in words, and what changing it means
        self._review_text = ""
        self._review_note = ""
        self.seen: dict[int, int] = {}  # per seat: the entries of `rounds_shown` at its last look
        # what the table saw on this screen, in short (public): each round revealed, each
        # card changed before passing; with the seat it is about (None: a round)
        self.rounds_shown: list[tuple[int | None, str]] = []
        self.recap: tuple[str, ...] = ()  # "since your last look", for the seat behind the curtain
        self._curtain: Any = None  # the race's curtain (CurtainScreen), installed: shown for every player
        self._pick_notes = ""  # the pick's notes (weather, the other rider's card) and keys, under the aid
        self._pick_hint = ""
        self._hint = ""  # the panel's hint as the turn shows it (under a nudge, see `nudge`)
        self._nudge = ""  # Enter with nothing selected: what to press, over the hint until a selection

    # ------------------------------------------------------------- layout

    @property
    def game(self):
        return self.flow.game

    @property
    def bmx(self) -> bool:
        return self.game.rules.uses_tokens

    @property
    def aids(self) -> bool:
        """The decision aids (previews on the track and the cards, what the
        selected card does); off in the settings: the real table."""
        settings = getattr(self.app, "settings", None)
        return bool(getattr(settings, "aids", True))

    def key(self, binding_id: str) -> str:
        """The key of a binding as it is bound now ("⏎", or the player's own)."""
        default = next(b.key for b in self.BINDINGS if isinstance(b, Binding) and b.id == binding_id)
        return self.key_of(binding_id, default)

    def compose(self):
        game = self.game
        yield from self.compose_notice()
        yield TextLines("", id="status")
        log = RaceLog(id="log")
        if self.bmx:
            with Horizontal(id="top"):
                yield LapStrip(game.course, id="track")
                yield log
        else:
            # the whole stage at a glance, then the detailed strip around the action
            yield StageOverview(game.course, id="overview")
            yield TrackStrip(game.course, id="track")
            if game.rules.has_weather:
                yield Static(WEATHER_SHORT, id="legend")
        boards = Boards(id="boards")
        boards.styles.height = Boards.fixed_height(len(game.riders))
        with Horizontal(id="main"):
            with Vertical(id="left"):
                with Vertical(id="action"):
                    yield TextLines("", id="panel-title")
                    yield CardRow(id="cards")
                    yield TextLines("", id="panel-hint")
                if self.bmx:
                    yield boards
                else:  # in a tall window: the stage profile with the riders on it
                    yield StageProfile(game.course, bars=4, riders=True, id="profile")
            if not self.bmx:
                yield log
        if not self.bmx:
            yield boards  # the whole width: every column in words, never cut
        yield KeyBar(id="keys")

    def size_changed(self, width: int, height: int) -> None:
        track = self.query("#track")
        strip = track.first() if track else None
        if isinstance(strip, TrackStrip):
            # taller windows: ruler, weather and terrain rows, and the stage
            # wrapped onto several bands when there is room for them
            strip.tall = height >= 32
            strip.max_lines = 15 if height >= 40 else strip.rows
        self.set_class(width >= 160, "-vast")
        # a window this tall has the room: the cards' values in big digits (classic and meteo;
        # BMX keeps its lap and die at the top)
        large = height >= LARGE_CARDS and not self.bmx
        self.set_class(large, "-large-cards")
        self.query_one("#cards", CardRow).set_large(large)
        if not self.bmx:
            riders = len(self.game.riders)
            self.query_one("#boards", Boards).set_columns(Boards.columns_for(riders, height, width), riders)
        for profile in self.query("#profile").results(StageProfile):
            # the room a tall window leaves under the cards and their hints: the stage profile
            tall = height >= 32
            meteo = bool(self.game.course.weather)
            track_rows = strip.get_content_height(None, None, width) if isinstance(strip, TrackStrip) else 4
            riders = len(self.game.riders)
            boards = Boards.fixed_height(riders, Boards.columns_for(riders, height, width))
            used = 1 + 2 + tall + track_rows + (tall and meteo) + boards + tall + 1
            room = height - used - (1 + 4 + 3 * large + 4)  # the panel's title, the cards, four lines of hints
            self.set_class(room >= 6, "-profile")
            profile.set_bars(max(3, min(12, room - 3)))
            if isinstance(strip, TrackStrip):
                profile.show_riders(strip.scene.riders)

    def on_mount(self) -> None:
        super().on_mount()
        self.status = self.query_one("#status", TextLines)
        self.title_w = self.query_one("#panel-title", TextLines)
        self.hint_w = self.query_one("#panel-hint", TextLines)
        self.cards = self.query_one("#cards", CardRow)
        self.boards = self.query_one("#boards", Boards)
        self.log_w = self.query_one("#log", RaceLog)
        self.keybar = self.query_one("#keys", KeyBar)
        self.track = self.query_one("#track")
        self.overview: StageOverview | None = None if self.bmx else self.query_one("#overview", StageOverview)
        self.profile: StageProfile | None = None if self.bmx else self.query_one("#profile", StageProfile)
        self._texts: dict[TextLines, str] = {}
        if self.flow.session.bots:
            self.app.thinker.warm()
        notes = self.flow.notes
        if self.game.round > 1 and RoundStarts(1) not in notes:
            # a resumed race: its log rebuilt from the action log (the flow starts empty)
            notes[1:1] = history(self.flow.session)
        self.refresh_turn()

    def put(self, widget: TextLines, text: str) -> None:
        """Show a text in one of the fixed-size texts (only if it changed)."""
        if self._texts.get(widget) != text:
            self._texts[widget] = text
            widget.update(text, layout=False)

    # -------------------------------------------------------------- turns

    def refresh_turn(self) -> None:
        """Ask the flow what happens now and show it."""
        flow = self.flow
        turn = flow.current()
        self.turn = turn
        self.sel = None
        self.multi = []
        self.cursor_k = None
        self.cursor = None
        self.options = []
        self._base_cards = ()
        self._nudge = ""
        self.HELP_TOPIC = {"place": "place", "draw": "draw", "pick": "pick", "review": "pick", "curtain": "curtain",
                           "bidder": "breakaway", "bid": "breakaway", "bids": "breakaway"}.get(turn.kind, "reveal")
        self.write_log()
        if turn.kind == "bot":
            self.start_bot(turn)
        elif turn.kind == "curtain":
            seat = turn.seat
            assert seat is not None
            from .curtain import CurtainScreen, PublicTable

            view = self.public_view()
            table = PublicTable(self.game.course, self.game.variant, Scene(self.board_marks(view)),
                                board_rows(view, self.names(), self.ready_riders(), self.flow.jersey),
                                getattr(self.game, "supply", None))
            heading = f"Breakaway, bid {self.game.bid_round}" if self.game.phase == Phase.BREAKAWAY else None
            riders = self.game.setup.teams[seat].riders
            # one curtain for the race, shown again for each player (building a new
            # screen each turn took most of the time between Enter and the curtain)
            curtain = self._curtain
            if curtain is None:
                curtain = self._curtain = CurtainScreen(seat, flow.team_name(seat), flow.team_id(seat),
                                                        self.game.round, self.bmx, on_lift=self._curtain_lifted,
                                                        table=table, heading=heading, riders=riders)
                self.app.install_screen(curtain, name=f"curtain-{id(self)}")
            else:
                curtain.next_turn(seat, flow.team_name(seat), flow.team_id(seat), self.game.round, table,
                                  heading=heading, riders=riders)
            self.app.push_screen(curtain)
            # the hand and the previews leave this screen before any frame, under the
            # curtain already: its parts are drawn once, when the curtain lifts (lines.py)
            self.clear_panel()
            self.show_public("Waiting for " + flow.team_name(seat))
        elif turn.kind == "place":
            self.show_place(turn)
        elif turn.kind == "draw":
            self.show_draw(turn)
        elif turn.kind == "pick":
            self.show_pick(turn)
        elif turn.kind == "review":  # (back on this screen during a review: the pick's screen stays as it was)
            self.show_review()
        elif turn.kind == "bidder":
            self.show_draw(turn, bidding=True)
        elif turn.kind == "bid":
            self.show_bid(turn)
        elif turn.kind == "bids":
            self.show_bids()
        elif turn.kind == "reveal":
            self.show_reveal(first=True)
        elif turn.kind == "over":
            self.clear_panel()
            self.app.show_podium(flow)
        self.show_keys()
        if self._tidy_pending or turn.kind == "reveal":
            # tidy the memory once the first turn (or its curtain) is on screen,
            # and at every reveal: while the players read it (see app.tidy_memory)
            tidy = getattr(self.app, "tidy_memory", None)
            if tidy is not None:
                self.app.call_after_refresh(tidy, self._tidy_pending)
            self._tidy_pending = False

    def show_keys(self) -> None:
        """The footer: the keys that apply now."""
        kind = self.turn.kind if self.turn else None
        key = self.key
        enter = key("race.confirm")
        keys = []
        if kind == "bot":
            keys = [(enter, "try again")] if self._bot_failed else [("…", "a bot is thinking")]
        elif kind == "place":
            keys = [("←→↑↓", "move"), (enter, "place"), (key("race.random"), "random")]
        elif kind in ("draw", "bidder"):
            keys = [("1 2", "select"), ("←→", "move"), (enter, "confirm")]
        elif kind == "bid":
            keys = [(f"1-{len(self.options)}", "select"), ("←→", "move"), (enter, "bid")]
        elif kind == "bids":
            keys = [(enter, "continue")]
        elif kind == "review":
            keys = [(enter, "pass" if self.flow.hot_seat else "play"),
                    (key("race.change"), "change the " + self.change_what())]
        elif kind == "pick":
            n = len(self.options)
            if self.keep_size() > 1:
                keys = [(f"1-{n}", "select/unselect"), ("←→", "move"), (key("race.next"), "select"), (enter, "play")]
            else:
                keys = [(f"1-{n}", "select"), ("←→", "move"), (enter, "play")]
        elif kind == "reveal":
            replay = self.flow.replay
            if replay is not None and replay.at_end:
                keys = [(enter, "continue"), ("←", "back")]
            else:
                keys = [(key("race.next"), "next"), ("←", "back"), (enter, "skip"),
                        (key("race.auto"), "stop" if self.playing else "play")]
            keys.append((key("race.pace"), f"pace: {self.pace}"))
        if isinstance(self.track, TrackStrip):
            keys.append((key("race.profile"), "profile"))
        keys += [(self.key_of("help", "question_mark"), "help"), (key("race.quit"), "quit")]
        self.keybar.show(keys)

    def _curtain_lifted(self, seat: int) -> None:
        """The named player pressed Enter on the curtain: show their turn.  Done
        while the curtain still covers this screen, just before it goes, so the
        first frame after it already shows the whole turn."""
        self.table.choose(LiftCurtain(seat))
        self.recap = self.recap_for(seat)
        self.refresh_turn()

    def recap_for(self, seat: int) -> tuple[str, ...]:
        """The rounds revealed since `seat` last looked, each in short (public:
        the cards face up, the moves, exhaustion, crashes); the race log has
        every line."""
        start = self.seen.get(seat)
        self.seen[seat] = len(self.rounds_shown)
        if start is None:
            return ()
        return tuple(text for who, text in self.rounds_shown[start:] if who != seat)

    def round_in_short(self) -> str:
        """The round just revealed in one line: "round 3: BS 9 G2→9 · BR 5 4→9 …
        · +E BS OR" (front riders first; +F fatigue in BMX; down: crashed)."""
        replay = self.flow.replay
        assert replay is not None
        game, course = self.game, self.game.course
        start, end = replay.frames[0].pos, replay.frames[-1].pos
        played = dict(replay.revealed)

        def short(i: int) -> str:
            r = game.riders[i]
            return team_of_rider(r.id).letter if self.bmx else rider_label(r.id, r.kind)

        parts = []
        for i in sorted(played, key=lambda i: (-end[i][0], -end[i][1])):
            card = token_str(played[i]) if self.bmx else card_text(played[i])
            parts.append(f"{short(i)} {card} {square_label(course, start[i][0])}→{square_label(course, end[i][0])}")
        tired = [short(e.rider) for e in game.events if e.kind in ("exhaust", "fatigue")]
        if tired:
            parts.append(("+F " if self.bmx else "+E ") + " ".join(tired))
        down = [short(e.rider) for e in game.events if e.kind == "crash"]
        if down:
            parts.append("down: " + " ".join(down))
        return f"round {replay.round}: " + " · ".join(parts)

    def clear_panel(self) -> None:
        """Empty the action panel: no card of anybody stays on this screen."""
        self.cards.show("hand", ())
        self.panel("", "")

    def panel(self, title: str, hint: str) -> None:
        self.put(self.title_w, title)
        self.show_hint(hint)

    def show_hint(self, hint: str) -> None:
        """The panel's hint, under the nudge if there is one (its first line:
        seen even when the panel has room for one line only)."""
        self._hint = hint
        self.put(self.hint_w, f"[b]▶ {self._nudge}[/b]\n{hint}" if self._nudge else hint)

    def nudge(self, what: str) -> None:
        """Enter with nothing selected: say what to press, under the cards where
        the player looks (never a selection made for them: an accidental play
        stays impossible).  Gone with the next selection."""
        self._nudge = what
        self.show_hint(self._hint)

    def write_log(self) -> None:
        lines = self.flow.log
        if self._logged < len(lines):
            new = lines[self._logged:]
            if not getattr(getattr(self.app, "settings", None), "bot_reasons", False):
                # a bot's reasons only when the settings ask for them (the flow keeps
                # them out of its log too when the race starts with them off)
                new = [line for line in new if "(bot, " not in line]
            self.log_w.write_lines(new)
            self._logged = len(lines)

    # ------------------------------------------------------------- common

    def names(self) -> list[str]:
        return [t.name for t in self.game.setup.teams]

    def who(self, seat: int, rest: str = "") -> str:
        """The seat's badge and name, then `rest` (markup): the panel's title line.
        A long name is cut (…) so that `rest`, what to do, is whole on the line."""
        from textual.content import Content

        name = self.flow.team_name(seat)
        colour = team_colour(self.flow.team_id(seat))
        label = name if name == colour.name else f"{name} ({colour.name})"
        room = (self.title_w.size.width or 49) - 4 - Content.from_markup(rest).cell_length
        if cells(label) > room:
            label = fit(label, max(room, 6))
        return team_markup(colour.id, f" {colour.letter} ") + f" [b]{escape_markup(label)}[/b]" + rest

    def set_status(self, what: str, round_no: int | None = None) -> None:
        game = self.game
        rules = self.flow.header_rules  # a tour: which stage (the log says the rules)
        parts = [f"[b]{escape_markup(game.course.name)}[/b]", rules, f"round {round_no or game.round}", escape_markup(what)]
        self.put(self.status, " · ".join(part for part in parts if part))

    def marks_from(self, positions, crashed, active=()) -> tuple[RiderMark, ...]:
        marks = []
        jersey = self.flow.jersey
        for i, r in enumerate(self.game.riders):
            sq, lane = positions[i]
            if sq < 0:
                continue
            kind = "" if self.bmx else r.kind
            marks.append(RiderMark(i, rider_label(r.id, kind), team_of_rider(r.id).hex, sq, lane,
                                   bool(crashed[i]), i in active, i == jersey))
        return tuple(marks)

    def board_marks(self, view, active=()) -> tuple[RiderMark, ...]:
        riders = view.board.riders
        return self.marks_from([(r.square, r.lane) for r in riders], [r.crashed for r in riders], active)

    def show_track(self, scene: Scene) -> None:
        track = self.track
        assert isinstance(track, (TrackStrip, LapStrip))
        track.show(scene)
        if self.overview is not None and isinstance(track, TrackStrip):
            self.overview.show(scene, track.in_view())
        if self.profile is not None and self.has_class("-profile"):
            self.profile.show_riders(scene.riders)

    def show_boards(self, view, public: bool = False, positions=None, crashed=None, tally=None) -> None:
        """The boards of `view`; during a replay with the squares of the step
        shown and the numbers as they stand at that step (`tally`)."""
        rows = board_rows(view, self.names(), self.ready_riders(), self.flow.jersey)
        supply = getattr(self.game, "supply", None)
        if public or positions:
            course = self.game.course
            rows = [replace(r, own=False if public else r.own,
                            square=positions[r.index][0] if positions else r.square,
                            to_go=square_to_go(course, positions[r.index][0]) if positions else r.to_go,
                            crashed=bool(crashed[r.index]) if crashed else r.crashed) for r in rows]
        if tally is not None:
            supply = tally.supply
            for i, row in enumerate(rows):
                if self.bmx:
                    rows[i] = replace(row, exhaustion=tally.exhaustion[i], deck=tally.bag[i])
                    continue
                recycled = list(row.recycled)  # the exhaustion cards still to come are not there yet
                for _ in range(row.exhaustion - tally.exhaustion[i]):
                    if 0 in recycled:
                        recycled.remove(0)
                rows[i] = replace(row, exhaustion=tally.exhaustion[i], recycled=tuple(recycled))
        self.boards.show(rows, self.game.variant, supply, self.game.course)

    def ready_riders(self) -> frozenset[int]:
        """Riders whose card (tokens) for this round lie face down: that they do
        is public at the table (what they are is not, and is not read here)."""
        game = self.game
        if game.phase in (Phase.GRID, Phase.OVER) or self.flow.replay is not None:
            return frozenset()
        return frozenset(i for i, r in enumerate(game.riders) if r.played is not None)

    def public_view(self) -> Any:
        """A view for public display: the public board only (no seat's own
        piles, hands or chosen cards: everybody's piles as the table saw them
        before this round's draws)."""
        return self.game.view(0).replace(hands={}, chosen={}, own={}, first_drawn=None, keep={})

    def show_public(self, what: str) -> None:
        view = self.public_view()
        self.set_status(what)
        self.show_track(Scene(self.board_marks(view)))
        self.show_boards(view, public=True)

    # -------------------------------------------------------- a bot thinks

    # A bot thinks in another process (play/thinker.py), so the screen answers
    # keys meanwhile; a Textual worker (a coroutine on this thread) waits for
    # it.  Only this (the UI) thread ever changes or reads the game: the bot
    # gets the position as it was when the move was asked for, and its answer
    # comes back as a Worker.StateChanged message, handled here, where
    # flow.play_bot_move commits it (refused if the game moved on).  While the
    # turn is "bot" nothing else can change the game: game keys are disabled
    # (check_action), Enter says why, flow.act refuses a human action, and a
    # bot answer arriving under a dialog (quit, help) is committed but the
    # next turn waits until this screen is back.

    def start_bot(self, turn: Turn) -> None:
        self._bot_failed = None
        seat = turn.seat
        assert seat is not None
        name = escape_markup(self.flow.bot_name(seat))
        self.clear_panel()
        self.show_public(f"{name} is thinking…")
        self.panel(self.who(seat, " [dim](bot)[/dim] is thinking…"),
                   f"the game keys wait for it · [b]{self.key('race.quit')}[/b] quit · "
                   f"[b]{self.key_of('help', '?')}[/b] help")
        move = self.flow.bot_move()
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
        if self.app.animation_level == "none" or self.turn is None or self.turn.seat is None \
                or self.turn.kind != "bot":
            return
        seat = self.turn.seat
        self.put(self.title_w, self.who(seat, f" [dim](bot)[/dim] is thinking {self.SPINNER[k % 10]}"))
        self._bot_timer = self.set_timer(0.1, partial(self._spin, k + 1))

    def _stop_spinner(self) -> None:
        if self._bot_timer is not None:
            self._bot_timer.stop()
            self._bot_timer = None

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        worker = event.worker
        seat = self.turn.seat if self.turn is not None and self.turn.kind == "bot" else None
        if worker.group != "bot" or seat is None:
            return
        if event.state == WorkerState.SUCCESS:
            self._stop_spinner()
            move, action, reason = cast(tuple[BotMove, Action, str], worker.result)
            self.flow.play_bot_move(move, action, reason)
            if self.app.screen is self:
                self.next_turn()
            else:
                self._refresh_on_resume = True
        elif event.state == WorkerState.ERROR:
            self._stop_spinner()
            name = self.flow.bot_name(seat)
            self._bot_failed = f"{type(worker.error).__name__}: {worker.error}"
            self.notify(f"{name} could not play ({self._bot_failed})", severity="error", timeout=10,
                        markup=False)
            self.panel(self.who(seat, " [dim](bot)[/dim] could not play"),
                       f"{escape_markup(self._bot_failed)}\n[b]{self.key('race.confirm')}[/b] try again · "
                       f"[b]{self.key('race.quit')}[/b] quit")
            self.show_keys()

    def on_screen_resume(self) -> None:
        super().on_screen_resume()
        if self._refresh_on_resume:
            self._refresh_on_resume = False
            self.next_turn()

    # --------------------------------------------------------------- grid

    def show_place(self, turn: Turn) -> None:
        game = self.game
        seat, i = turn.seat, turn.rider
        assert seat is not None and i is not None
        view = game.view(seat)
        self.places = sorted(game.grid_places())
        self.cursor = self.places[-1] if self.places else None
        kind = kind_name(game.riders[i].kind)
        self.set_status(f"{self.flow.team_name(seat)} places a rider")
        self.cards.show("hand", ())
        self.panel(self.who(seat, f": place your [b]{kind}[/b] on the grid"),
                   "← → ↑ ↓ move the cursor [b]\\[][/b] (or click a place)\n"
                   f"[b]{self.key('race.confirm')}[/b] place it there · [b]{self.key('race.random')}[/b] "
                   "a random place")
        self.show_boards(view)
        self.update_place_track()

    def update_place_track(self) -> None:
        assert self.turn is not None and self.turn.seat is not None
        view = self.game.view(self.turn.seat)
        focus = (self.cursor[0],) if self.cursor else ()
        self.show_track(Scene(self.board_marks(view), cursor=self.cursor, focus=focus))

    # --------------------------------------------------------------- draw

    def show_draw(self, turn: Turn, bidding: bool = False) -> None:
        """Which rider draws first (or, in the breakaway, which rider bids)."""
        game = self.game
        seat = turn.seat
        assert seat is not None
        view = game.view(seat)
        # (in a tour a rider across the line has left the track: the other one draws)
        mine = [r for r in view.board.riders if r.seat == seat and r.index not in view.board.crossed]
        self.options = [r.index for r in mine]
        cards = []
        for k, r in enumerate(mine):
            deck, recycled = view.own[r.index]
            weather = self.weather_note(r.square).split(":")[0]
            where = square_where(game.course, r.square) + (f" {weather}" if weather else "") + (" · crashed" if r.crashed else "")
            cards.append(Card(f"{k + 1} {KIND.get(r.kind, r.id)} ({rider_label(r.id, r.kind)})",
                              (where, f"deck {deck}, {len(recycled)} face up"), data=(seat, r.index)))
        self._base_cards = tuple(cards)
        self.cards.show("riders", cards)
        question = "which rider bids for the breakaway?" if bidding else "which rider draws first?"
        self.set_status(f"{self.flow.team_name(seat)}: {question}")
        what = ("the chosen rider draws 4 cards for each of its 2 bids" if bidding
                else "the chosen rider draws and picks first")
        hint = f"{what} · [b]1[/b] [b]2[/b] or ← → select · [b]{self.key('race.confirm')}[/b] confirm"
        if self.recap:  # first: what happened since (the keys are in the key bar too)
            hint = self.fit_recap() + "\n" + hint
        self.panel(self.who(seat, f": {question}"), hint)
        self.show_boards(view)
        self.show_track(Scene(self.board_marks(view, active=set(self.options)),
                              focus=tuple(view.board.riders[i].square for i in self.options)))

    def fit_recap(self) -> str:
        """ "Since your last look: round 3: …", cut to the lines the panel has
        (saying so: the race log on the right has every line)."""
        import textwrap

        width, height = self.hint_w.size
        width = width or 48
        height = height or 3
        if height > 2:  # a line stays for what to do (the key bar says it too)
            height -= 1
        head = "Since your last look: "
        lines = textwrap.wrap(head + " · ".join(self.recap), width) or [head]
        if len(lines) > height:
            more = " …(log)"
            lines = lines[:height]
            lines[-1] = lines[-1][: max(0, width - len(more))].rstrip() + more
        return escape_markup("\n".join(lines)).replace(head.rstrip(), f"[b]{head.rstrip()}[/b]", 1)

    def weather_note(self, square: int) -> str:
        weather = self.game.course.weather
        kind = weather[square] if weather and square < len(weather) else ""
        if kind in ("tailwind", "headwind"):
            w = WEATHER[kind]
            return f"{w.glyph} {w.name}: {w.effect}"
        return ""

    # --------------------------------------------------------------- pick

    def show_pick(self, turn: Turn) -> None:
        game = self.game
        seat, i = turn.seat, turn.rider
        assert seat is not None and i is not None
        view = game.view(seat)
        rider = view.board.riders[i]
        previews = {c: self.preview(view, i, [c]) for c in view.hands[i]}
        hand = sorted(view.hands[i], key=lambda c: (previews[c].value, c))
        self.options = hand
        cards = []
        # the aids from the engine's previews (where each card takes the rider, and
        # what stops or changes it), unless the player races as at the real table;
        # on a BMX descent a token alone says nothing: the pair kept is previewed
        per_card = self.aids and self.keep_size() == 1
        for k, c in enumerate(hand):
            lines = aids.card_lines(previews[c], game.course, self.bmx, c, per_card)
            cards.append(Card(str(k + 1), lines, data=(seat, i, c), big=aids.value_text(previews[c], self.bmx, c)))
        self._base_cards = tuple(cards)
        self.cards.show("hand", cards)
        kind = KIND.get(rider.kind, "")
        keep = self.keep_size()
        title = self.who(seat, f": pick a card for your [b]{kind}[/b]" if kind else ": pick your token")
        if keep == 2:
            title = self.who(seat, ": descent, keep [b]2[/b] tokens (they add up)")
        notes = []
        if not self.bmx:
            w = self.weather_note(rider.square)
            if w:
                notes.append(f"{w} ({len(hand)} cards drawn)")
            if rider.crashed:
                notes.append(f"lying down: stands up and moves {previews[hand[0]].standup} less")
            other = [j for j in view.chosen if j != i]
            for j in other:
                notes.append(f"your {KIND.get(game.riders[j].kind)} plays {card_text(view.chosen[j])} (face down)")
            if not notes:
                notes.append(f"the other {len(hand) - 1} cards go face up under the deck")
        else:
            bag = self.bag_contents(view, i)
            notes.append(f"bag: {len(bag)} left ({' '.join(token_text(t) for t in bag) or 'empty'})")
            if view.board.die is not None:
                notes.append(f"forecast: the die shows {view.board.die or 'no catch-up'}")
        if keep == 2:
            hint = f"[b]1-{len(hand)}[/b] select two · [b]{self.key('race.confirm')}[/b] play"
        else:
            hint = f"[b]1-{len(hand)}[/b] or ← → select · [b]{self.key('race.confirm')}[/b] play"
        self.set_status(f"{self.flow.team_name(seat)} picks")
        self._pick_notes = " · ".join(notes)
        self._pick_hint = hint
        self.put(self.title_w, title)
        self.show_boards(view)
        self.update_pick_track()

    @staticmethod
    def bag_contents(view, i: int) -> tuple[int, ...]:
        """The tokens in the player's own bag now (the drawn ones are out of it)."""
        own = view.own.get(i, ())
        if len(own) > 2 and isinstance(own[2], tuple):
            return own[2]
        return tuple(view.unseen(i))

    def preview(self, view, i: int, cards):
        """The engine's preview of rider i playing `cards` (one card, or the tokens
        kept): where it would end, every other rider still (engine.options.Preview)."""
        return view.preview(i, tuple(cards) if self.bmx else cards[0])

    def selected_cards(self) -> list[int]:
        if self.multi:
            return [self.options[k] for k in self.multi]
        return [] if self.sel is None else [self.options[self.sel]]

    def update_pick_track(self) -> None:
        turn = self.turn
        assert turn is not None and turn.seat is not None and turn.rider is not None
        view = self.game.view(turn.seat)
        rider = view.board.riders[turn.rider]
        chosen = self.selected_cards()
        marks = self.board_marks(view, active={turn.rider} | set(view.chosen))
        # the hint: what the selected card does, in words (aids on), then the notes and keys
        picked = self.preview(view, turn.rider, chosen) if chosen and len(chosen) == self.keep_size() else None
        said = aids.sentence(picked, self.game.course, self.bmx, tuple(chosen) if self.bmx else chosen[0]) \
            if picked is not None and self.aids else ""
        lines = [escape_markup(line) for line in (said, self._pick_notes) if line]
        if self.bmx and self.recap and not chosen:
            # BMX has no rider to choose first: "since your last look" until a token is selected
            lines = [self.fit_recap()]
        self.show_hint("\n".join(lines) + "\n" + self._pick_hint)
        if not self.aids:  # the real table: nobody shows where a card goes
            self.show_track(Scene(marks, focus=(rider.square,)))
            return
        # where the card would take the rider, blocking included (the others standing still)
        preview = (picked.square,) if picked is not None else ()
        blocked = aids.blocked_squares(picked) if picked is not None else ()
        # the seat's other rider, its card already down: both picks shown together
        others = tuple(self.preview(view, j, [card]).square
                       for j, card in view.chosen.items() if j != turn.rider and not self.bmx)
        focus = (rider.square,) + preview + others
        self.show_track(Scene(marks, previews=preview + others, blocked=blocked, focus=focus))

    def keep_size(self) -> int:
        if not self.bmx or self.turn is None or self.turn.kind != "pick":
            return 1
        return self.game.view(self.turn.seat).keep.get(self.turn.rider, 1)

    def mark_selection(self) -> None:
        if self._nudge:  # a selection: what to press is said no more
            self._nudge = ""
            self.show_hint(self._hint)
        multi = self.keep_size() > 1
        chosen = set(self.multi) if multi else ({self.sel} if self.sel is not None else set())
        cards = [replace(c, selected=k in chosen, cursor=multi and k == self.cursor_k)
                 for k, c in enumerate(self._base_cards)]
        self.cards.show(self.cards.kind, cards)

    # ---------------------------------------------------------- breakaway

    def show_bid(self, turn: Turn) -> None:
        """The breakaway: the bidding rider's draw, one card to keep face down as its bid."""
        game = self.game
        seat, i = turn.seat, turn.rider
        assert seat is not None and i is not None
        view = game.view(seat)
        rider = view.board.riders[i]
        hand = sorted(view.hands[i], key=lambda c: (card_text(c) != "E", c))
        self.options = hand
        cards = [Card(str(k + 1), (card_text(c), "worth 2" if c == 0 else ""), data=(seat, i, c), big=card_text(c))
                 for k, c in enumerate(hand)]
        self._base_cards = tuple(cards)
        self.cards.show("hand", cards)
        bid = game.bid_round
        kind = kind_name(rider.kind)
        notes = [f"keep 1 face down, {len(hand) - 1} go face up"]
        if rider.bids:
            notes.append("bid 1: " + " + ".join(card_text(c) for c in rider.bids))
        if self.recap:
            notes.append("since your last look: " + " · ".join(self.recap))
        self.set_status(f"{self.flow.team_name(seat)} bids")
        self.panel(self.who(seat, f": [b]{kind}[/b], breakaway bid {bid} of {game.setup.breakaway_bids}"),
                   escape_markup(" · ".join(notes)) + f"\n[b]1-{len(hand)}[/b] or ← → select · [b]Enter[/b] bid")
        self.show_boards(view)
        self.show_track(Scene(self.board_marks(view, active={i}), focus=(rider.square, game.course.breakaway)))

    def show_bids(self) -> None:
        """Bids face up together (public), and after the last one who breaks away."""
        game = self.game
        events = self.flow.bids or ()
        result = next((e for e in events if isinstance(e, Breakaway)), None)
        shown = [e for e in events if isinstance(e, BidsRevealed)]
        cards = []
        if result is not None:
            winners = set(result.winners)
            for i, bids, total in result.bids:
                r = game.riders[i]
                cards.append(Card(rider_label(r.id, r.kind), ("+".join(card_text(c) for c in bids) + f"={total}",),
                                  title_style=rider_style(team_of_rider(r.id).hex), data=(i,), active=i in winners))
            names = " and ".join(escape_markup(self.rider_name(i)) for i in result.winners)
            title = f"[b]Enter[/b] on to round 1 · [b]breakaway:[/b] {names} {'break' if len(winners) > 1 else 'breaks'} away"
            hint = "to " + square_where(game.course, result.square) + ("; their two bid cards leave the game, "
                                                                        "2 exhaustion cards each")
        else:
            bid = shown[-1] if shown else None
            for i, card in (bid.cards if bid is not None else ()):
                r = game.riders[i]
                cards.append(Card(rider_label(r.id, r.kind), (card_text(card),), big=card_text(card),
                                  title_style=rider_style(team_of_rider(r.id).hex), data=(i,)))
            number = bid.bid if bid is not None else 1
            title = f"[b]Enter[/b] on to bid {number + 1} · [b]breakaway, bid {number}[/b] revealed"
            hint = "every bid of this turn, face up together; the next bid is drawn now"
        self._base_cards = tuple(cards)
        self.cards.show("revealed", cards)
        self.panel(title, hint)
        view = self.public_view()
        self.set_status("breakaway")
        winners = set(result.winners) if result is not None else set()
        self.show_track(Scene(self.board_marks(view, active=winners),
                              focus=(game.course.breakaway,) if result is not None else ()))
        self.show_boards(view, public=True)

    def rider_name(self, i: int) -> str:
        from ...play.narrator import rider_name

        return rider_name(self.game, i)

    # ------------------------------------------------------------- reveal

    def show_reveal(self, first: bool = False) -> None:
        flow = self.flow
        replay = flow.replay
        if first and replay is not None:
            flow.step(0)
            self.rounds_shown.append((None, self.round_in_short()))
            cards = []
            for i, played in sorted(replay.revealed, key=lambda p: p[0]):
                r = self.game.riders[i]
                label = rider_label(r.id, "" if self.bmx else r.kind)
                value = token_str(played) if self.bmx else card_text(played)
                cards.append(Card(label, (value,), big=value, title_style=rider_style(team_of_rider(r.id).hex),
                                  data=(i,)))
            self._base_cards = tuple(cards)
            if self.pace != "off" and animations_allowed() and getattr(self.app, "autoplay", True):
                self.start_timer()
        self.update_reveal()

    def frame_words(self, replay) -> str:
        """What this step of the movement does, in a few words."""
        frame = replay.frame
        riders = self.game.riders

        def label(i: int) -> str:
            r = riders[i]
            return rider_label(r.id, "" if self.bmx else r.kind)

        active = list(dict.fromkeys(frame.active))
        if frame.kind == "reveal":
            return "face up: the rider in front moves first"
        if frame.kind == "die":
            return f"die: {frame.die or 'blank'} — {DIE_WORDS.get(frame.die, '')}"
        if frame.kind in ("slip", "catchup") and replay.step > 0:
            before = replay.frames[replay.step - 1].pos
            what = "move up to the group ahead" if frame.kind == "slip" else "close the gap"
            # riders making the same move together ("OS KS 5→6"): twelve riders' slipstream
            # stays within the panel's two lines at 80x24
            moves: dict[tuple[int, int], list[str]] = {}
            for i in active:
                moves.setdefault((before[i][0], frame.pos[i][0]), []).append(label(i))
            return f"{what}: " + ", ".join(f"{' '.join(who)} {a}→{b}" for (a, b), who in moves.items())
        if frame.kind == "exhaust":
            return f"{' '.join(label(i) for i in active)}: exhaustion card (nobody just ahead)"
        if frame.kind == "fatigue":
            return f"{' '.join(label(i) for i in active)}: fatigue token (both lanes ahead empty)"
        return " · ".join(line.strip() for line in self.flow.told(frame.notes))

    def update_reveal(self) -> None:
        flow = self.flow
        replay = flow.replay
        if replay is None:
            return
        frame = replay.frame
        n = len(replay.frames)
        title = {
            "reveal": "tokens revealed" if self.bmx else "cards revealed",
            "move": "movement",
            "slip": "slipstream",
            "exhaust": "exhaustion",
            "catchup": "catch-up",
            "fatigue": "fatigue",
            "die": "the die",
            "finish": "finish!",
            "crossed": "across the line",
        }.get(frame.kind, frame.kind)
        # what Enter does stays on the title line: a long step text never pushes it out;
        # the line fits the panel beside the log at 80 columns (49 cells), the key bar
        # has the other keys
        if replay.at_end:
            after = "the results" if self.game.phase == Phase.OVER else f"round {self.game.round}"
            keys = f"[b]{self.key('race.confirm')}[/b] on to {after}"
        elif self.playing:  # the steps play by themselves: the key that stops them instead of "next"
            keys = f"[b]{self.key('race.auto')}[/b] stops · [b]{self.key('race.confirm')}[/b] skip"
        else:
            keys = f"[b]{self.key('race.next')}[/b] next · [b]{self.key('race.confirm')}[/b] skip"
        # (the round is on the status line: the step's name fits at 80 columns)
        self.panel(f"{keys} · step {replay.step + 1}/{n}: [b]{title}[/b]",
                   escape_markup(self.frame_words(replay)))
        self.show_keys()
        cards = [replace(c, active=c.data[0] in frame.active) for c in self._base_cards]
        die = None
        if self.bmx:
            rolled = next((f.die for f in replay.frames[: replay.step + 1] if f.kind == "die"), None)
            die = " " if rolled is None else (str(rolled) if rolled else "-")
        self.cards.show("revealed", cards, die=die)
        mark_glyph = "+F" if self.bmx else "+E"
        focus = tuple(frame.trail[::-1]) if frame.trail else tuple(frame.pos[i][0] for i in frame.active)
        slips = tuple(frame.pos[i][0] for i in frame.active) if frame.kind in ("slip", "catchup") else ()
        self.show_track(Scene(self.marks_from(frame.pos, frame.crashed, set(frame.active)),
                              trail=frame.trail, marks=frame.marks, mark_glyph=mark_glyph, slips=slips,
                              focus=focus))
        self.show_boards(self.public_view(), public=True, positions=frame.pos, crashed=frame.crashed,
                         tally=frame.tally)
        self.set_status("reveal and movement", replay.round)
        self.write_log()

    @property
    def pace(self) -> str:
        """The step-through's pace: the settings' step_speed ("off": keys only,
        "slow", "normal" or "fast"), remembered in the settings file."""
        settings = getattr(self.app, "settings", None)
        return str(getattr(settings, "step_speed", "off"))

    @property
    def playing(self) -> bool:
        return self._timer is not None

    def start_timer(self) -> None:
        self.stop_timer()
        # `a` plays the steps at the pace set, or slowly when the pace is off
        delay = STEP_DELAYS.get(self.pace, STEP_DELAYS["slow"])
        self._timer = self.set_interval(delay, self._auto_step)

    def stop_timer(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    def _auto_step(self) -> None:
        replay = self.flow.replay
        if replay is None or replay.at_end:
            self.stop_timer()
            self.update_reveal()  # the labels: nothing moves any more
            return
        self.table.choose(Step(1))
        self.update_reveal()

    # ------------------------------------------------------------ actions

    def action_hint(self) -> None:
        from ..hints import ask

        ask(self)

    def check_action(self, action: str, parameters) -> bool | None:
        kind = self.turn.kind if self.turn else None
        if action in ("choose", "move") and kind in ("draw", "pick", "review", "bidder", "bid"):
            return True
        if action in ("move", "lane", "random_place") and kind == "place":
            return True
        if action == "move" and kind == "reveal":
            return True
        if action == "change":
            return kind == "review"
        if action == "next_step":
            return kind == "reveal" or (kind == "pick" and self.keep_size() > 1)
        if action == "autoplay":
            return kind == "reveal"
        if action == "profile":
            return not self.bmx
        if action in ("choose", "lane", "random_place"):
            return False
        if action == "move":
            return False
        return True

    def action_choose(self, k: int) -> None:
        if self.turn is None or k >= len(self.options):
            return
        if self.turn.kind == "review":  # a number during the review: change the pick to that card
            self.action_change()
            if self.turn is None or self.turn.kind != "pick":
                return
        if self.keep_size() > 1:
            if k in self.multi:
                self.multi.remove(k)
            else:
                self.multi.append(k)
                if len(self.multi) > self.keep_size():
                    self.multi.pop(0)
        else:
            self.sel = k
        self.mark_selection()
        if self.turn.kind == "pick":
            self.update_pick_track()

    def action_move(self, delta: int) -> None:
        if self.turn is not None and self.turn.kind == "review":  # an arrow during the review: change the pick
            self.action_change()
        kind = self.turn.kind if self.turn else None
        if kind in ("draw", "pick", "bidder", "bid"):
            n = len(self.options)
            if not n:
                return
            if self.keep_size() > 1:
                self.cursor_k = (0 if delta > 0 else n - 1) if self.cursor_k is None else (self.cursor_k + delta) % n
            else:
                self.sel = (0 if delta > 0 else n - 1) if self.sel is None else (self.sel + delta) % n
            self.mark_selection()
            if kind == "pick":
                self.update_pick_track()
        elif kind == "place" and self.places:
            k = self.places.index(self.cursor) if self.cursor in self.places else 0
            self.cursor = self.places[(k + delta) % len(self.places)]
            self.update_place_track()
        elif kind == "reveal":
            self.step(delta)

    def action_lane(self, up: int) -> None:
        """Up: the next lane to the left (lane 1, then 2 on a three-lane square); down: back to the right."""
        if self.turn and self.turn.kind == "place" and self.cursor:
            square, lane = self.cursor
            step = 1 if up else -1
            for other in range(lane + step, 3 if up else -1, step):
                if (square, other) in self.places:
                    self.cursor = (square, other)
                    self.update_place_track()
                    return

    def action_random_place(self) -> None:
        if self.turn and self.turn.kind == "place" and self.places:
            import random

            self.cursor = random.choice(self.places)
            self.action_confirm()

    def step(self, delta: int) -> None:
        if delta < 0:
            self.stop_timer()  # stepping back takes the step-through in hand
        if Step(delta) in self.table.turn().options:  # (past either end: nothing to show)
            self.table.choose(Step(delta))
        self.update_reveal()

    def action_next_step(self) -> None:
        if self.turn and self.turn.kind == "reveal":
            self.step(1)
        elif self.turn and self.turn.kind == "pick" and self.cursor_k is not None:
            self.action_choose(self.cursor_k)

    def action_autoplay(self) -> None:
        if not (self.turn and self.turn.kind == "reveal"):
            return
        if self.playing:
            self.stop_timer()
        elif self.flow.replay is not None and not self.flow.replay.at_end:
            self.start_timer()
        self.update_reveal()

    def action_pace(self) -> None:
        """The next pace (off -> slow -> normal -> fast -> off), saved in the settings."""
        pace = STEP_SPEEDS[(STEP_SPEEDS.index(self.pace) + 1) % len(STEP_SPEEDS)] \
            if self.pace in STEP_SPEEDS else "off"
        app = cast(Any, self.app)
        app.save_settings(app.settings.model_copy(update={"step_speed": pace}))
        self.notify(f"Movement steps: {'wait for keys' if pace == 'off' else pace} (saved in the settings)",
                    timeout=2)
        if self.turn and self.turn.kind == "reveal":
            if self.pace == "off":
                self.stop_timer()
            elif self.playing:
                self.start_timer()
            self.update_reveal()
        self.show_keys()

    def action_profile(self) -> None:
        """The stage profile with every rider on it (public: the track only)."""
        from .dialogs import ProfileScreen

        track = self.track
        if isinstance(track, TrackStrip):  # a classic or meteo stage (BMX has its lap on screen)
            self.app.push_screen(ProfileScreen(self.game.course, track.scene.riders))

    def action_pan(self, cells: int) -> None:
        track = self.query_one("#track")
        if isinstance(track, TrackStrip):
            track.scroll_by_cells(cells)

    def action_confirm(self) -> None:
        turn = self.turn
        if turn is None or self._busy:
            return
        if turn.kind == "bot" and turn.seat is not None:
            if self._bot_failed:
                self.start_bot(turn)
            else:
                self.notify(f"Wait: {self.flow.bot_name(turn.seat)} is thinking", timeout=2, markup=False)
            return
        game = self.game
        action: Action | None = None
        if turn.kind == "place" and self.cursor:
            action = Place(game.riders[turn.rider].id, *self.cursor)
        elif turn.kind in ("draw", "bidder"):
            if self.sel is None:
                self.nudge(f"press {self.option_keys()} to choose a rider first")
                return
            action = Draw(game.riders[self.options[self.sel]].id)
        elif turn.kind == "bid":
            if self.sel is None:
                self.nudge(f"press {self.option_keys()} to choose a card first")
                return
            action = Bid(game.riders[turn.rider].id, self.options[self.sel])
        elif turn.kind == "bids":
            self.table.choose(ReadBids())
            self.next_turn()
            return
        elif turn.kind == "pick":
            chosen = self.selected_cards()
            if self.keep_size() > 1 and len(chosen) < self.keep_size() and self.cursor_k is not None:
                self.action_choose(self.cursor_k)  # arrows + Enter: Enter selects, then plays
                return
            if len(chosen) != self.keep_size():
                what = "card" if not self.bmx else "token" if self.keep_size() == 1 else "tokens"
                count = "a" if self.keep_size() == 1 else str(self.keep_size())
                self.nudge(f"press {self.option_keys()} to choose {count} {what} first")
                return
            rid = game.riders[turn.rider].id
            pick = PlayTokens(rid, tuple(sorted(chosen, reverse=True))) if self.bmx else Play(rid, chosen[0])
            # the review's words, from the seat's view before the pick (it may resolve the round)
            self._review_text, self._review_note = self.review_text(pick), self.review_note()
            try:
                self.table.choose(self.table.option_for(pick))
            except (RuleError, NotOffered) as exc:  # should not happen: the UI offers legal choices only
                self.notify(clean(exc), severity="error", markup=False)
                return
            if self.flow.review is not None:
                # the seat's last pick: the pick's screen stays, its cards reviewed
                self.turn = self.flow.current()
                self.show_review()
                return
            self.next_turn()
            return
        elif turn.kind == "review":
            self.table.choose(PassReview())
            self.next_turn()
            return
        elif turn.kind == "reveal":
            replay = self.flow.replay
            if replay is not None and not replay.at_end:
                self.table.choose(SkipReveal())
                self.update_reveal()
                return
            self.stop_timer()
            self.table.choose(EndReveal())
            self.next_turn()
            return
        if action is None:
            return
        try:
            self.table.choose(self.table.option_for(action))
        except (RuleError, NotOffered) as exc:  # should not happen: the UI offers legal choices only
            self.notify(clean(exc), severity="error", markup=False)
            return
        self.next_turn()

    def option_keys(self) -> str:
        """The number keys of the options on offer: "1 or 2", "1-4"."""
        n = len(self.options)
        return "1" if n == 1 else "1 or 2" if n == 2 else f"1-{n}"

    # ------------------------------------------------------------- review

    @property
    def pending(self) -> Play | PlayTokens | None:
        """The seat's last pick under review (played: see RaceFlow.review), else None."""
        review = self.flow.review
        if review is None or self.turn is None or self.turn.kind != "review":
            return None
        return cast(Play | PlayTokens, review.action)

    def change_what(self) -> str:
        assert self.turn is not None and self.turn.rider is not None
        rider = self.game.riders[self.turn.rider]
        action = self.pending
        several = isinstance(action, PlayTokens) and len(action.tokens) > 1 or self.keep_size() > 1
        what = "tokens" if self.bmx and several else "token" if self.bmx else "card"
        kind = KIND.get(getattr(rider, "kind", ""))
        return f"{kind}'s {what}" if kind else what

    def review_text(self, action: Play | PlayTokens) -> str:
        """ "Sprinteur 9 · Rouleur 6": the seat's cards this round, in race order
        (read before the pick is played: its view then)."""
        game = self.game
        assert self.turn is not None and self.turn.seat is not None
        view = game.view(self.turn.seat)
        parts = []
        for r in view.mine():
            if r.index == self.turn.rider:
                played = action.tokens if isinstance(action, PlayTokens) else action.card
            elif r.index in view.chosen:
                played = view.chosen[r.index]
            else:
                continue
            value = token_str(played) if isinstance(played, tuple) else card_text(played)
            what = KIND.get(r.kind) or ("tokens" if self.bmx and "+" in value else "token")
            parts.append(f"{what} [b]{value}[/b]")
        return " · ".join(parts)

    def review_note(self) -> str:
        """Why only the last card can change (a seat of two riders racing): its
        other rider drew first, and its card is down."""
        assert self.turn is not None and self.turn.seat is not None
        view = self.game.view(self.turn.seat)
        first = [r for r in view.mine() if r.index not in view.board.crossed and r.index != self.turn.rider]
        if first:
            return f"(the {KIND.get(first[0].kind, 'other rider')} drew first: its card is down)"
        return ""

    def show_review(self) -> None:
        """The seat's cards, its last pick played: Enter passes, the change key
        takes the pick back.  The pick's cards, track and boards stay on
        screen as they were: nothing the pick led to (a reveal) is shown."""
        assert self.turn is not None and self.turn.seat is not None
        seat = self.turn.seat
        # two lines that fit the panel at 80 columns (49 cells): the keys, then why only this card
        what = "pass" if self.flow.hot_seat else "play"
        self.panel(self.who(seat, f": {self._review_text}"),
                   f"[b]{self.key('race.confirm')}[/b] {what} · [b]{self.key('race.change')}[/b] change the "
                   f"{self.change_what()}" + (f"\n{self._review_note}" if self._review_note else ""))
        self.set_status(f"{self.flow.team_name(seat)}: check your cards", self.game.round
                        if self.flow.replay is None else self.flow.replay.round)
        self.show_keys()

    def action_change(self) -> None:
        """Back from the review to the last pick, its selection kept: the pick
        is taken back (an undo in the log; RaceFlow.take_back), the same cards
        in hand.  The table hears that the seat changed its card, not which."""
        turn = self.turn
        if turn is None or turn.kind != "review" or turn.seat is None:
            return
        try:
            self.table.choose(TakeBack())
        except (UndoRefused, NotOffered) as exc:  # cannot happen from the review: said if it does
            self.notify(clean(exc), severity="error", markup=False)
            return
        self.rounds_shown.append((turn.seat, self.flow.log[-1]))
        self._logged = min(self._logged, len(self.flow.log) - 1)  # the pick wrote no line: the notice is new
        self.turn = self.flow.current()  # the same seat's pick, the same cards
        assert self.turn.kind == "pick"
        self.show_pick(self.turn)
        self.mark_selection()
        self.update_pick_track()
        self.write_log()
        self.show_keys()

    def next_turn(self) -> None:
        self._busy = True
        try:
            self.refresh_turn()
        finally:
            self._busy = False

    def on_card_clicked(self, event: CardClicked) -> None:
        event.stop()
        if self.turn is None or self.turn.kind not in ("draw", "pick", "bidder", "bid"):
            return
        already = (event.index in self.multi) if self.keep_size() > 1 else (self.sel == event.index)
        if already and (self.keep_size() == 1 or len(self.multi) == self.keep_size()):
            self.action_confirm()
            return
        self.action_choose(event.index)

    def on_track_clicked(self, event: TrackClicked) -> None:
        event.stop()
        if self.turn is None or self.turn.kind != "place" or event.lane is None:
            return
        spot = (event.square, event.lane)
        if spot == self.cursor:
            self.action_confirm()
        elif spot in self.places:
            self.cursor = spot
            self.update_place_track()

    def help_text(self) -> str:
        return help_for(self.HELP_TOPIC, self.game.variant, self.keys_text)

    def on_unmount(self) -> None:
        self.stop_timer()
        self._stop_spinner()
        curtain, self._curtain = self._curtain, None
        if curtain is not None and curtain not in self.app.screen_stack:
            self.app.uninstall_screen(curtain)
            curtain.remove()  # the race is gone: its curtain goes too
