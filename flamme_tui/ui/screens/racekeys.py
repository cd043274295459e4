"""The race screen's keys and clicks, each mapped to what the table offers.

A number, an arrow or a click selects an option of the turn on screen (a
card, a rider, a place on the grid); Enter (or a second click) makes it a
choice: the action built from the selection is looked up among the turn's
options (`Table.option_for`) and handed to `Table.choose`, which takes
nothing else.  A mixin of RaceScreen (screens/race.py), which draws.
"""

from __future__ import annotations

import random
from typing import Any

from textual.binding import Binding, BindingType

from ...engine.actions import Action, Bid, Draw, Place, Play, PlayTokens
from ...engine.race import RuleError
from ...i18n import N_, _, pgettext
from ...play import table as t
from ...play.session import UndoRefused
from ...settings import STEP_SPEEDS
from ...usertext import clean
from ..widgets.cards import CardClicked
from ..widgets.track import TrackClicked, TrackStrip
from .base import BaseScreen

CHOOSING = (t.ChoosingFirst, t.Picking, t.ChoosingBidder, t.Bidding)  # a number or an arrow selects an option

BINDINGS: list[BindingType] = [
    Binding("1", "choose(0)", N_("Choose by number: the rider that draws first or bids (1 2), what to play (1-5)"),
            key_display="1-5"),
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
    Binding("enter", "confirm", N_("Confirm: place, draw, play, pass, skip, continue"), id="race.confirm"),
    Binding("space", "next_step", N_("Next step"), id="race.next"),
    Binding("a", "autoplay", N_("Steps play by themselves (on/off)"), id="race.auto"),
    Binding("p", "pace", N_("Pace of the steps: off, slow, normal, fast"), show=False, id="race.pace"),
    Binding("u,backspace", "change", N_("Change the last card before passing"), show=False, id="race.change"),
    Binding("r", "random_place", N_("A random place on the grid"), id="race.random"),
    Binding("s", "profile", N_("The stage profile"), id="race.profile"),
    Binding("g", "standings", N_("Tour standings: the GC before the stage, who has finished, the live GC"),
            show=False, id="race.standings"),
    Binding("h", "hint", N_("Hint: what the expert would play (Settings)"), show=False, id="race.hint"),
    Binding("left_square_bracket", "pan(-16)", N_("Scroll the track back"), show=False, id="race.back"),
    Binding("right_square_bracket", "pan(16)", N_("Scroll the track on"), show=False, id="race.on"),
    Binding("q", "app.request_quit", N_("Quit"), id="race.quit"),
]


def pace_words(pace: str) -> str:
    """The step-through's pace in words: "off", "slow", "normal", "fast"."""
    words = {"off": pgettext("pace", "off"), "slow": pgettext("pace", "slow"), "normal": pgettext("pace", "normal"),
             "fast": pgettext("pace", "fast")}
    return words.get(pace, pace)


class RaceKeys(BaseScreen):
    """The race screen's keys and clicks (RaceScreen draws: the methods below
    without a body are its)."""

    BINDINGS = BINDINGS
    turn: Any
    table: Any

    def check_action(self, action: str, parameters) -> bool | None:
        turn = self.turn
        if action in ("choose", "move") and isinstance(turn, (*CHOOSING, t.Reviewing)):
            return True
        if action in ("move", "lane", "random_place") and isinstance(turn, t.Placing):
            return True
        if action == "move" and isinstance(turn, t.Revealing):
            return True
        if action == "change":
            return isinstance(turn, t.Reviewing)
        if action == "next_step":
            return isinstance(turn, t.Revealing) or (isinstance(turn, t.Picking) and self.keep_size() > 1)
        if action == "autoplay":
            return isinstance(turn, t.Revealing)
        if action == "profile":
            return not self.bmx
        if action == "standings":
            return self.table.in_tour
        return action not in ("choose", "lane", "random_place", "move")

    def never_here(self, action: str) -> bool:
        return (action == "standings" and not self.table.in_tour) or (action == "profile" and self.bmx)

    def action_choose(self, k: int) -> None:
        """A number: the option k.  Who draws first and a card (a token) play at
        once (the review before passing catches a slip: 5 keys a Classic turn),
        and so does a breakaway bid; the breakaway's bidder and a BMX descent's
        pair wait for Enter."""
        if self.turn is None or k >= len(self.options):
            return
        if isinstance(self.turn, t.Reviewing) and not self.action_change():
            return  # (a number during the review: change the pick to that card)
        self.select(k)
        if isinstance(self.turn, (t.ChoosingFirst, t.Bidding)) or (isinstance(self.turn, t.Picking)
                                                                   and self.keep_size() == 1):
            self.action_confirm()

    def select(self, k: int) -> None:
        """Select option k (a descent's token: select or unselect it)."""
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

    def action_move(self, delta: int) -> None:
        if isinstance(self.turn, t.Reviewing):  # an arrow during the review: change the pick
            self.action_change()
        turn = self.turn
        if isinstance(turn, CHOOSING):
            n = len(self.options)
            if not n:
                return
            if self.keep_size() > 1:
                self.cursor_k = (0 if delta > 0 else n - 1) if self.cursor_k is None else (self.cursor_k + delta) % n
            else:
                self.sel = (0 if delta > 0 else n - 1) if self.sel is None else (self.sel + delta) % n
            self.mark_selection()
        elif isinstance(turn, t.Placing) and self.places:
            k = self.places.index(self.cursor) if self.cursor in self.places else 0
            self.cursor = self.places[(k + delta) % len(self.places)]
            self.update_place_track()
        elif isinstance(turn, t.Revealing):
            self.step(delta)

    def action_lane(self, up: int) -> None:
        """Up: the next lane to the left (lane 1, then 2 on a three-lane square); down: back to the right."""
        if isinstance(self.turn, t.Placing) and self.cursor:
            square, lane = self.cursor
            step = 1 if up else -1
            for other in range(lane + step, 3 if up else -1, step):
                if (square, other) in self.places:
                    self.cursor = (square, other)
                    self.update_place_track()
                    return

    def action_random_place(self) -> None:
        if isinstance(self.turn, t.Placing) and self.places:
            self.cursor = random.choice(self.places)
            self.action_confirm()

    def action_next_step(self) -> None:
        if isinstance(self.turn, t.Revealing):
            self.step(1)
        elif isinstance(self.turn, t.Picking) and self.cursor_k is not None:
            self.select(self.cursor_k)

    def action_autoplay(self) -> None:
        if not isinstance(self.turn, t.Revealing):
            return
        if self.playing:
            self.stop_timer()
        elif self.turn.step < len(self.turn.frames) - 1:
            self.start_timer()
        self.update_reveal()

    def action_pace(self) -> None:
        """The next pace (off -> slow -> normal -> fast -> off), saved in the settings."""
        pace = STEP_SPEEDS[(STEP_SPEEDS.index(self.pace) + 1) % len(STEP_SPEEDS)] \
            if self.pace in STEP_SPEEDS else "off"
        self.app.save_settings(self.app.settings.model_copy(update={"step_speed": pace}))
        self.notify(_("Movement steps: {pace} (saved in the settings)").format(
            pace=_("wait for keys") if pace == "off" else pace_words(pace)), timeout=2)
        if isinstance(self.turn, t.Revealing):
            if self.pace == "off":
                self.stop_timer()
            elif self.playing:
                self.start_timer()
            self.update_reveal()
        self.show_keys()

    def action_hint(self) -> None:
        from ..hints import ask

        ask(self)

    def action_profile(self) -> None:
        """The stage profile with every rider on it (public: the track only)."""
        from .dialogs import ProfileScreen

        if isinstance(self.track, TrackStrip):  # a classic or meteo stage (BMX has its lap on screen)
            self.app.push_screen(ProfileScreen(self.board.course, self.track.scene.riders))

    def action_standings(self) -> None:
        """A tour's standings now (public: the GC before the stage, who has finished, the live GC)."""
        from .standings import StandingsScreen

        standings = self.table.standings()
        if standings is not None:
            self.app.push_screen(StandingsScreen(standings, self.board))

    def action_pan(self, cells: int) -> None:
        if isinstance(self.track, TrackStrip):
            self.track.scroll_by_cells(cells)

    def number_keys(self) -> str:
        """The key bar's number keys of the options on offer: "1 2" (one rider left: "1")."""
        return " ".join(str(k) for k in range(1, len(self.options) + 1))

    def option_keys(self) -> str:
        """The number keys of the options on offer: "1 or 2", "1-4"."""
        n = len(self.options)
        return "1" if n == 1 else _("1 or 2") if n == 2 else f"1-{n}"

    def action_confirm(self) -> None:
        """Enter: the selection made a choice the table offered (or the turn's own: pass, skip, continue)."""
        turn = self.turn
        if turn is None or self._busy:
            return
        if isinstance(turn, t.BotThinking):
            if self._bot_failed:
                self.start_bot(turn)
            else:
                self.notify(_("Wait: {bot} is thinking").format(bot=self.flow.bot_name(turn.seat)), timeout=2,
                            markup=False)
            return
        riders = self.board.riders
        action: Action | None = None
        if isinstance(turn, t.Placing) and self.cursor:
            action = Place(riders[turn.rider].id, *self.cursor)
        elif isinstance(turn, (t.ChoosingFirst, t.ChoosingBidder, t.Bidding)):
            if self.sel is None:
                what = _("press {keys} to choose a card first") if isinstance(turn, t.Bidding) else _(
                    "press {keys} to choose a rider first")
                self.panel.nudge(what.format(keys=self.option_keys()))
                return
            chosen = self.options[self.sel]
            action = Bid(riders[turn.rider].id, chosen) if isinstance(turn, t.Bidding) else Draw(riders[chosen].id)
            if isinstance(turn, t.Bidding):  # the review's words, as for a card
                self.panel.review_words(turn, action)
        elif isinstance(turn, t.Picking):
            chosen = self.selected_cards()
            keep = self.keep_size()
            if keep > 1 and len(chosen) < keep and self.cursor_k is not None:
                self.select(self.cursor_k)  # arrows + Enter: Enter selects, then plays
                return
            if len(chosen) != keep:
                what = _("press {keys} to choose a card first") if not self.bmx else _(
                    "press {keys} to choose a token first") if keep == 1 else _(
                    "press {keys} to choose {n} tokens first")
                self.panel.nudge(what.format(keys=self.option_keys(), n=keep))
                return
            rid = riders[turn.rider].id
            action = PlayTokens(rid, tuple(sorted(chosen, reverse=True))) if self.bmx else Play(rid, chosen[0])
            # the review's words, from the seat's view before the pick (it may resolve the round)
            self.panel.review_words(turn, action)
        elif isinstance(turn, t.BidsShown):
            self.table.choose(t.ReadBids())
        elif isinstance(turn, t.Reviewing):
            self.table.choose(t.PassReview())
        elif isinstance(turn, t.Revealing):
            if t.SkipReveal() in turn.options:
                self.table.choose(t.SkipReveal())
                self.update_reveal()
                return
            self.stop_timer()
            self.table.choose(t.EndReveal())
        if action is not None:
            try:
                self.table.choose(self.table.option_for(action))
            except (RuleError, t.NotOffered) as exc:  # should not happen: the UI offers legal choices only
                self.notify(clean(exc), severity="error", markup=False)
                return
            after = self.table.turn()
            if isinstance(turn, t.Picking) and isinstance(after, t.Reviewing):
                # the seat's last pick: the pick's screen stays, its cards reviewed
                self.turn = after
                self.show_review(after)
                return
        elif not isinstance(turn, (t.BidsShown, t.Reviewing, t.Revealing)):
            return
        self.next_turn()

    def action_change(self) -> bool:
        """Back from the review to the last pick, its selection kept: the pick
        is taken back (an undo in the log; RaceFlow.take_back), the same cards
        in hand.  The table hears that the seat changed its card, not which."""
        if not isinstance(self.turn, t.Reviewing):
            return False
        try:
            self.table.choose(t.TakeBack())
        except (UndoRefused, t.NotOffered) as exc:  # cannot happen from the review: said if it does
            self.notify(clean(exc), severity="error", markup=False)
            return False
        self._logged = min(self._logged, len(self.flow.log) - 1)  # the pick wrote no line: the notice is new
        turn = self.turn = self.table.turn()  # the same seat's pick, the same cards
        assert isinstance(turn, t.Picking)
        self.options = self.panel.show_pick(turn, self.key, self.keep_size())
        self.mark_selection()
        self.write_log()
        self.show_keys()
        return True

    def next_turn(self) -> None:
        self._busy = True
        try:
            self.refresh_turn()
        finally:
            self._busy = False

    def on_card_clicked(self, event: CardClicked) -> None:
        event.stop()
        if not isinstance(self.turn, CHOOSING):
            return
        multi = self.keep_size() > 1
        already = (event.index in self.multi) if multi else (self.sel == event.index)
        if already and (not multi or len(self.multi) == self.keep_size()):
            self.action_confirm()
            return
        self.select(event.index)  # a click selects (a second click plays): a slip of the mouse costs nothing

    def on_track_clicked(self, event: TrackClicked) -> None:
        event.stop()
        if not isinstance(self.turn, t.Placing) or event.lane is None:
            return
        spot = (event.square, event.lane)
        if spot == self.cursor:
            self.action_confirm()
        elif spot in self.places:
            self.cursor = spot
            self.update_place_track()

    # RaceScreen's
    board: Any
    bmx: bool
    options: list
    sel: int | None
    multi: list[int]
    cursor_k: int | None
    cursor: tuple[int, int] | None
    places: list[tuple[int, int]]
    panel: Any
    track: Any
    flow: Any
    _busy: bool
    _bot_failed: str | None
    _logged: int

    @property
    def pace(self) -> str:
        raise NotImplementedError

    @property
    def playing(self) -> bool:
        raise NotImplementedError

    def keep_size(self) -> int:
        raise NotImplementedError

    def mark_selection(self) -> None:
        raise NotImplementedError

    def update_place_track(self) -> None:
        raise NotImplementedError

    def update_reveal(self) -> None:
        raise NotImplementedError

    def show_review(self, turn: t.Reviewing) -> None:
        raise NotImplementedError

    def show_keys(self) -> None:
        raise NotImplementedError

    def start_bot(self, turn: t.BotThinking) -> None:
        raise NotImplementedError

    def step(self, delta: int) -> None:
        raise NotImplementedError

    def stop_timer(self) -> None:
        raise NotImplementedError

    def start_timer(self) -> None:
        raise NotImplementedError

    def refresh_turn(self) -> None:
        raise NotImplementedError

    def write_log(self) -> None:
        raise NotImplementedError

    def selected_cards(self) -> list[int]:
        raise NotImplementedError

    def key(self, binding_id: str) -> str:
        raise NotImplementedError
