"""`flamme-tui join`: one seat of a hosted race on this terminal (or the public table with --watch).

The screen draws a net.client.DeviceTable: the public table (track, boards
as everybody sees them, who has a card face down), this seat's hand and
options when it must choose, the revealed rounds in words (this device's
language), whom the table waits for.  No curtain: nobody else looks at this
screen.  A number key (or the arrows and Enter) sends the choice; the host
checks it.  The terminal bell rings when the seat must choose, and a
desktop notification says so where notify-send is installed (net/notify.py:
once for the seat's choices in a row, after a wait; not in a browser tab).
Every seat chooses at the same time: one that has chosen all it can says it
waits for the others, and the status line names every seat still choosing.  A line that
drops is opened again with the same code every few seconds (the host may
have been restarted on its save): the hand comes back as it was.

Readable at 80x24: one line each for the race and the status, the track as
the host's screen draws the whole stage (a row per lane, every rider by its
team's letter, the weather above on a meteo stage), the boards and the
options as many lines as they need, the log the rest.  Every
text is drawn as plain text (rich Text), never as markup: team names come
from the host.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Input, Log, Static

from ..engine.cards import card_text
from ..engine.events import token_text
from ..i18n import _
from ..net.client import DeviceTable, Line, is_room_code
from ..net.notify import notify
from ..net.wire import ProtocolError, error_words
from ..pathtext import served
from ..play import narrator
from ..words import stage_name
from .palette import rider_label, team_of_rider
from .widgets.track import RiderMark, Scene, StageOverview

RETRY_SECONDS = 2.0  # a dropped line is opened again this often
WIDE = 160  # a window this wide draws the stage two cells a square (the riders' labels in full) where it fits
LEAVE_SECONDS = 5.0  # q, then q again within this: the app leaves the table
ORPHAN_SECONDS = 1.0  # a browser tab's app looks this often whether the host that started it is still there
FATAL = ("unknown-code", "too-many-tries", "version", "full")  # refusals of a hello: trying again would not help


class SeatScreen(Screen[None]):
    """One seat (or the public table) of a hosted race: `flamme-tui join`'s
    screen, and in the app the host's own seats ("Host a table": a seat
    played here, joined over loopback like any device).  `standalone`: the
    screen is the whole app (join), and leaving it ends the app; in the app
    it goes back to the host's screen (the line closed: the seat waits)."""

    AUTO_FOCUS = None  # the keys are the screen's (numbers, arrows, Enter), but in the code field
    # (CSS, not DEFAULT_CSS, and each rule under SeatScreen: in the app, app.tcss's rules for the
    # race screen's #log, #boards, #track, #status would otherwise win)
    CSS = """
    SeatScreen { layout: vertical; }
    SeatScreen #head { height: 1; text-style: bold; }
    SeatScreen #track { height: auto; margin: 0; }
    SeatScreen #boards { height: auto; margin: 0; text-wrap: nowrap; text-overflow: ellipsis; }  /* (max-height: fit_boards) */
    SeatScreen #hand { height: auto; max-height: 10; border-top: solid $accent; }
    SeatScreen #log {
        width: 1fr; height: 1fr; min-height: 3; border: none; border-top: solid $panel; padding: 0;
        overflow-x: hidden; overflow-y: auto;  /* (a Log's default: both scrollbars, always) */
    }
    SeatScreen #status { height: 1; background: $boost; padding: 0; }
    SeatScreen #code { display: none; }
    """
    # the choice's keys before the focused widget's: the log, once it can scroll, took the arrows
    # (a player's ↓ ↓ Enter sent the first option); without a choice to make they go on to it
    BINDINGS = [
        Binding("q", "leave", _("Quit")),
        Binding("question_mark", "keys_help", _("Keys"), show=False),
        Binding("up", "move(-1)", _("Up"), show=False, priority=True),
        Binding("down", "move(1)", _("Down"), show=False, priority=True),
        Binding("enter", "send", _("Choose"), show=False, priority=True),
        Binding("u", "change", _("Choose again"), show=False),
    ]

    def __init__(self, address: str, code: str, watch: bool = False, intro: Sequence[str] = (),
                 standalone: bool = True) -> None:
        super().__init__()
        self.intro = tuple(intro)  # lines for the log first (the host's own seat: the codes to give out)
        self.address, self.code, self.watching = address, code, watch
        self.standalone = standalone
        self.table = DeviceTable()
        self.line: Line | None = None
        self.cursor = 0
        self.rung_at = -1  # the turn the bell rang for
        self.shown_rounds = 0
        self.note = ""  # the last problem, said in the status line
        self.first_option = 0  # the line of the hand panel where the options start (a tap picks one)
        self.hand_lines = 0  # the lines the hand panel shows (its top border left out)
        self.leave_asked = -LEAVE_SECONDS  # when q was first pressed (a second q within LEAVE_SECONDS leaves)
        self.told_ranking = False
        # the seat's last pick of the round, held until the player confirms it: (the turn's number,
        # the option's index); the hot-seat table's review, before the card counts rather than after
        self.held: tuple[int, int] | None = None

    def compose(self) -> ComposeResult:
        yield Static(id="head")
        track = StageOverview(id="track")
        track.display = False
        yield track
        yield Static(id="boards")
        yield Static(id="hand")
        # (disabled but when the code is asked for: a hidden field must not take the number keys)
        code = Input(id="code", placeholder=_("your seat's code, or the room code to watch"), max_length=20,
                     disabled=True)
        code.cursor_blink = False  # a phone waiting on this prompt would be sent a new frame twice a second
        yield code
        yield Log(id="log", highlight=False)
        yield Static(id="status")

    def on_mount(self) -> None:
        if served() and self.standalone:  # a browser tab's app, the host's child: it goes when the host goes, even killed
            parent = os.getppid()
            self.set_interval(ORPHAN_SECONDS, lambda: self.app.exit() if os.getppid() != parent else None)
        for line in self.intro:
            self.host_note(line)
        if not self.code:  # (a browser tab, from the host's page: the player types the code it was given)
            self.ask_code()
            return
        self.start()

    def host_note(self, line: str) -> None:
        """A line in the log from the host this app runs in (`host --here`)."""
        self.query_one("#log", Log).write_line(line)

    def ask_code(self) -> None:
        box = self.query_one("#code", Input)
        box.display, box.disabled = True, False
        box.focus()
        # which table the code is for (the screen was blank above the field)
        self.query_one("#head", Static).update(Text(_("Joining {address}...").format(address=self.address)))
        self.query_one("#status", Static).update(Text(_("Type the code the host gave you, then Enter.")))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        code = event.value.strip()
        if not code:
            return
        self.code = code
        event.input.display, event.input.disabled = False, True
        self.set_focus(None)
        self.start()

    def start(self) -> None:
        self.watching = self.watching or is_room_code(self.code)
        self.query_one("#status", Static).update(Text(_("Joining {address}...").format(address=self.address)))
        self.run_worker(self.listen(), exclusive=True)

    # ------------------------------------------------------------ the line

    async def listen(self) -> None:
        while True:
            line = Line(self.address)
            self.line = line
            try:
                await line.open(self.code, self.watching)
                self.note = ""
                async for data in line.messages():
                    try:
                        self.table.take(data)
                    except ProtocolError:
                        continue  # not as the protocol says: dropped
                    if self.table.setup is None and self.table.error in FATAL:
                        break
                    self.show()
            except Exception as exc:  # OSError, a timeout, aiohttp's own (a refused handshake): said, tried again
                self.note = unreached(exc, self.address)
            finally:
                await line.close()
            if self.table.error in FATAL and self.table.setup is None:
                self.note = error_words(self.table.error)
                self.show()
                if self.table.error in ("unknown-code", "too-many-tries"):
                    # a typo: type it again; too many wrong codes from this machine (maybe not this
                    # player's): the code kept, Enter tries it again once the minute is over
                    kept = self.code if self.table.error == "too-many-tries" else ""
                    self.table.error = None
                    self.code, self.watching = "", False
                    self.query_one("#code", Input).value = kept
                    self.ask_code()
                    self.query_one("#status", Static).update(Text(self.note))
                return  # a code that will not do: trying again would not help
            if self.table.closed == "replaced" or self.table.over:
                self.show()
                return
            if not self.note:
                self.note = _("the line to the host dropped: trying again")
            self.show()
            await asyncio.sleep(RETRY_SECONDS)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("move", "send"):  # only while there is a choice to make (else the log scrolls)
            return self.table.turn is not None and self.table.seat is not None
        if action == "change":
            return self.reviewing()
        return True

    def reviewing(self) -> bool:
        """Whether the screen shows the seat's cards with its last pick held, to send or change."""
        turn = self.table.turn
        return self.held is not None and turn is not None and turn.at == self.held[0]

    def choices(self) -> int:
        """How many options the hand panel offers now (reviewing: send, choose again)."""
        turn = self.table.turn
        return 0 if turn is None else 2 if self.reviewing() else len(turn.options)

    def action_keys_help(self) -> None:
        """The keys, in the log (a device has no other help)."""
        log = self.query_one("#log", Log)
        for line in keys_help(self.watching, self.standalone):
            log.write_line(line)
        log.scroll_end(animate=False)

    def action_leave(self) -> None:
        if self.standalone and (self.table.setup is None or self.table.over):  # no race to leave
            self.app.exit()
        elif self.standalone:
            # asked once more: a q meant for something else left the table with no word on coming back
            now = time.monotonic()
            if now - self.leave_asked > LEAVE_SECONDS:
                self.leave_asked = now
                self.set_timer(LEAVE_SECONDS + 0.1, self.show)  # (the question then goes from the status line)
                self.show()
                return
            self.app.exit()
        else:  # back to the host's screen: the line closes (the seat waits; it can be opened again)
            self.workers.cancel_node(self)
            self.dismiss()

    # ------------------------------------------------------------ keys

    def on_key(self, event: Any) -> None:
        turn = self.table.turn
        if turn is None or not event.character or not event.character.isdigit():
            return
        n = int(event.character)
        index = 9 if n == 0 else n - 1
        if index < self.choices():
            event.stop()
            self.cursor = index
            self.action_send()

    def on_click(self, event: Any) -> None:
        """A tap (a click) on an option chooses it: every step can be done by taps."""
        turn = self.table.turn
        hand = self.query_one("#hand", Static)
        offset = event.get_content_offset(hand)
        if turn is None or offset is None:
            return
        index = offset.y - self.first_option
        if 0 <= index < self.choices():
            self.cursor = index
            self.action_send()

    def action_move(self, delta: int) -> None:
        if self.choices():
            self.cursor = (self.cursor + delta) % self.choices()
            self.show()

    def action_send(self) -> None:
        turn = self.table.turn
        if turn is None or self.line is None or not 0 <= self.cursor < self.choices():
            return
        index = self.cursor
        if self.reviewing():
            assert self.held is not None
            if index == 1:  # choose again
                self.action_change()
                return
            index = self.held[1]
        elif turn.last:  # the seat's last pick: its cards shown to confirm first
            self.held, self.cursor = (turn.at, index), 0
            self.show()
            return
        self.held = None
        text = self.table.answer(index)  # answered: the host's next message says what follows
        self.cursor = 0
        self.run_worker(self.line.send(text))
        self.show()

    def action_change(self) -> None:
        """Back from the review to the options, the held pick under the cursor."""
        if self.held is not None:
            self.cursor, self.held = self.held[1], None
            self.show()

    # ------------------------------------------------------------ drawing

    def show(self) -> None:
        if not self.is_attached or not self.query("#status"):
            return  # the app closing: the screen's parts are gone while the line's worker still ends
        t = self.table
        if t.setup is None:
            self.query_one("#status", Static).update(Text(self.note or _("Joining {address}...").format(
                address=self.address)))
            return
        who = _("watching") if t.seat is None else _("you: {team}").format(team=t.team(t.seat))
        head = _("{stage} · round {n} · {who}").format(stage=stage_name(t.course.name), n=max(t.round, 1), who=who)
        self.query_one("#head", Static).update(Text(head))
        self.show_track()
        self.query_one("#boards", Static).update(self.boards())
        self.forget_stale_pick()
        hand = self.hand()
        self.query_one("#hand", Static).update(hand)
        self.hand_lines = len(hand.plain.splitlines())
        self.fit_boards()
        log = self.query_one("#log", Log)
        if t.riders:  # (a device joining again hears the last reveal before the table: the names wait for it)
            told = False
            for (round_no, _at), events in t.rounds[self.shown_rounds:]:
                lines = t.round_lines(events)
                if lines:
                    log.write_line(_("Round {n}").format(n=round_no) if round_no else _("Breakaway"))
                    for line in lines:
                        log.write_line(line)
                    told = True
            self.shown_rounds = len(t.rounds)
            if t.over and not self.told_ranking:  # every device sees the result, not only the host's terminal
                self.told_ranking = told = True
                log.write_line(narrator.cli_says("final ranking"))
                for place, i in enumerate(t.ranking(), 1):
                    log.write_line(f"{place:>2}. {t.rider_name(i)}")
            if told and not log.is_anchored:  # the newest round in view, the log kept at its end as the
                # hand above it grows and shrinks (a Log alone follows its end only while it is there),
                # until the player scrolls up to read
                log.anchor()
        if t.error and t.error not in ("replaced", "bot", "closing"):
            self.note = error_words(t.error)
            t.error = None
        elif t.closed:
            self.note = error_words(t.closed)
        elif self.note == error_words("bot"):  # the host gave the seat back to this device (welcomed again)
            self.note = ""
        status = t.status()
        if t.turn is not None and t.seat is not None:  # how to choose, said while there is a choice to make
            keys = _("1-9, or ↑ ↓ and Enter, or a tap · q quits") if self.standalone else _(
                "1-9, or ↑ ↓ and Enter, or a tap · q: the host's screen")  # (a seat played on the host's screen)
            status += "  " + (_("tap your choice") if served() else keys)
        if time.monotonic() - self.leave_asked <= LEAVE_SECONDS:  # q pressed once: the one thing to say
            status = _("Press q again to stop watching.") if self.watching else _(
                "Press q again to leave: your code takes your seat again later.")
        self.query_one("#status", Static).update(Text(f"{status}  {self.note}".strip()))
        if t.turn is not None and t.turn.at != self.rung_at:
            self.rung_at = t.turn.at
            self.app.bell()  # the seat must choose (a table may wait days between rounds)
            if t.seat is not None and t.rest():  # after a wait, not its next choice in a row
                self.run_worker(notify(t.team(t.seat)), group="notify")  # and the desktop, where it can

    def show_track(self) -> None:
        """The whole stage as the host's screen draws it: a row per lane, each rider
        by its team's letter (a count where a cell holds several), in its colour."""
        t = self.table
        track = self.query_one("#track", StageOverview)
        track.set_wide(self.size.width >= WIDE)  # as the race screen's overview: two cells a square where they fit
        if track.course is not t.course:
            track.course = t.course
            track.display = True  # (none before the welcome: an overview of no course draws nothing)
            track.relayout()
        marks = tuple(RiderMark(r.index, rider_label(r.id, r.kind), team_of_rider(r.id).hex, r.square, r.lane,
                                r.crashed) for r in t.riders if r.square >= 0 and r.index not in t.crossed)
        track.show(Scene(marks))

    def fit_boards(self) -> None:
        """The boards as many lines as the window leaves them, the log keeping two: at 80x24
        twelve riders on a stage of three lanes (three rows of track) and a hand of five
        options left the log no line.  (Best placed first: the riders cut are those behind.)"""
        track = self.query_one("#track", StageOverview)
        track_rows = len(track.row_kinds()) if track.course is not None else 0
        hand_rows = min(10, 1 + self.hand_lines)  # (its top border; 10 at most)
        room = self.size.height - 1 - track_rows - hand_rows - 3 - 1  # the head, the log's border and two lines, the status
        self.query_one("#boards", Static).styles.max_height = max(2, min(1 + len(self.table.riders), room))

    def on_resize(self, event: Any) -> None:
        if self.table.setup is not None:
            self.show_track()
            self.fit_boards()

    def boards(self) -> Text:
        """One line a rider, best placed first, in columns no wider than they
        need (a phone's browser is about 55 cells wide): where it is, its
        face-down pile, recycled cards and exhaustion cards (counts everybody
        sees); ▣ when its card lies face down."""
        t = self.table
        order = t.ranking()
        heads = (_("deck"), _("recycled"), _("exhaustion"))
        widths = [max(len(h), 3) for h in heads]
        names = {i: t.rider_name(i) for i in order}
        name_width = min(26, max((len(n) for n in names.values()), default=0))
        # a narrow window (a phone; Spanish heads are long) cuts the names before the counts: the
        # marker, the place (12), the counts and the ▣ keep their cells; a line never wraps (CSS)
        rest = 2 + 1 + 12 + 1 + sum(widths) + len(widths) - 1 + 2
        name_width = max(10, min(name_width, self.size.width - rest))
        out = Text(f"{'':2}{'':{name_width}} {'':12} " + " ".join(f"{h:>{w}}" for h, w in zip(heads, widths)) + "\n",
                   style="dim", no_wrap=True, overflow="ellipsis")
        for i in order:
            r = t.riders[i]
            mine = t.seat is not None and r.seat == t.seat
            if i in t.crossed:
                where = _("across the line")
            else:
                where = f"{narrator.label(t.course, r.square)} {narrator.to_go_text(t.course, r.square, short=True)}"
            name = names[i] if len(names[i]) <= name_width else names[i][:name_width - 1] + "…"
            down = " ▣" if i in t.ready else ""
            counts = " ".join(f"{n:>{w}}" for n, w in zip((r.deck, len(r.recycled), r.exhaustion), widths))
            line = f"{name:<{name_width}} {where[:12]:<12} {counts}{down}"
            out.append(("> " if mine else "  ") + line + "\n", style="bold" if mine else "")
        out.rstrip()
        return out

    def forget_stale_pick(self) -> None:
        """A pick held for a turn that is gone (no turn now, or a turn of another
        number) is let go: before the hand is drawn, which only reads the state."""
        if self.table.seat is not None and not self.reviewing():
            self.held = None

    def hand(self) -> Text:
        """The hand panel's text, drawn from the screen's state (it changes none of it
        but the line where the options start, for taps)."""
        t = self.table
        turn = t.turn
        if t.seat is None:
            return Text(_("Watching the public table: no hand is shown here."))
        if turn is None:
            if t.over:
                return Text(_("The race is over."))
            if t.chosen_all():  # (the others choose at the same time: the round goes on when they have)
                return Text(_("All chosen: waiting for the others."))
            return Text(_("Nothing to choose now."))
        rider = t.rider_name(turn.rider) if turn.rider is not None else ""
        titles = {
            "place": _("Place {rider} on the grid").format(rider=rider),
            "draw": _("Which of your riders draws first?"),
            "pick": _("{rider}: pick a card").format(rider=rider),
            "bidder": _("Breakaway: which rider bids?"),
            "bid": _("Breakaway, bid {n}: {rider} picks a card").format(n=turn.bid, rider=rider),
        }
        if self.reviewing():
            return self.review()
        out = Text(titles.get(turn.kind, turn.kind) + "\n", style="bold")
        self.first_option = 1
        if turn.hand:
            self.first_option = 2
            say = token_text if t.rules.uses_tokens else card_text
            out.append(_("hand: {cards}").format(cards=" ".join(say(c) for c in turn.hand)) + "\n")
        for k, option in enumerate(turn.options):
            key = str(k + 1) if k < 9 else ("0" if k == 9 else " ")
            mark = ">" if k == self.cursor else " "
            faint = _(" (another card does the same for less)") if option.dominated else ""
            out.append(f"{mark}{key}  {t.option_words(option)}{faint}\n", style="reverse" if k == self.cursor else "")
        out.rstrip()
        return out

    def review(self) -> Text:
        """The seat's cards of the round, its last pick held: send them, or choose again."""
        t, turn, held = self.table, self.table.turn, self.held
        assert turn is not None and held is not None
        say = token_text if t.rules.uses_tokens else card_text
        out = Text(_("Your cards this round: send them?") + "\n", style="bold")
        for i, card in turn.chosen:
            cards = "+".join(say(c) for c in card) if isinstance(card, tuple) else say(card)
            out.append("   " + _("{rider}: {card}").format(rider=t.rider_name(i), card=cards) + "\n")
        rider = t.rider_name(turn.rider) if turn.rider is not None else ""
        held_card = _("{rider}: {card}").format(rider=rider, card=t.option_words(turn.options[held[1]]))
        out.append(f"   {held_card}\n", style="bold")
        self.first_option = len(out.plain.splitlines())
        for k, words in enumerate((_("Send"), _("Choose again"))):
            mark = ">" if k == self.cursor else " "
            out.append(f"{mark}{k + 1}  {words}\n", style="reverse" if k == self.cursor else "")
        out.rstrip()
        return out


def unreached(exc: BaseException, address: str) -> str:
    """Why the line to the host could not be opened, in words a player can act on, in the
    status line's one line (it said "cannot reach the host: ClientConnectorError"); the app
    tries again."""
    import aiohttp

    if isinstance(exc, aiohttp.WSServerHandshakeError):  # a web server, but no table: the browser page's port?
        return _("{address} is not a table's address (see flamme-tui join on the host)").format(address=address)
    if isinstance(exc, OSError):  # refused, no route, no such name
        return _("no answer at {address}: is the table open? (n opens it to the network)").format(
            address=address)
    if isinstance(exc, TimeoutError):
        return _("{address} does not answer: trying again").format(address=address)
    return _("cannot reach the host: {why}").format(why=type(exc).__name__)


class JoinApp(App[int]):
    """`flamme-tui join`: a SeatScreen and nothing else."""

    CSS = SeatScreen.CSS  # (a screen's own CSS is read when it is pushed, not for the app's default screen)

    def __init__(self, address: str, code: str, watch: bool = False, intro: Sequence[str] = ()) -> None:
        from .hangup import Hangup

        # the terminal gone, SIGTERM or SIGHUP end the app (the host saves the race);
        # made before Textual's constructor: it asks get_driver_class
        self.hangup = Hangup(self.exit)
        super().__init__()
        self.seat_screen = SeatScreen(address, code, watch, intro)

    def get_default_screen(self) -> Screen[Any]:
        return self.seat_screen

    def get_driver_class(self):
        """Textual's driver, but for its writes to a terminal that is gone (hangup.GuardedOutput)."""
        from .hangup import guarded_driver

        default = super().get_driver_class()
        guarded = guarded_driver(self.hangup)
        return guarded if guarded is not None and issubclass(guarded, default) else default

    def on_mount(self) -> None:
        self.title = "flamme-tui"
        if not self.is_headless and not served():  # (a browser tab's app: textual-serve's driver has the signals)
            self.hangup.start(asyncio.get_running_loop())

    def on_unmount(self) -> None:
        self.hangup.stop()  # (host --here: the host goes on, its signals as before)

    @property
    def table(self) -> DeviceTable:
        return self.seat_screen.table

    @property
    def first_option(self) -> int:
        return self.seat_screen.first_option

    def host_note(self, line: str) -> None:
        """A line in the log from the host this app runs in (`host --here`)."""
        self.seat_screen.host_note(line)


def keys_help(watching: bool, standalone: bool) -> list[str]:
    """The join screen's keys, for its log (`?`)."""
    lines = [_("Keys:")]
    if not watching:
        lines += [_("  1-9 (0 for the tenth): choose that option at once"),
                  _("  ↑ ↓ then Enter: move to an option and choose it (or tap it)"),
                  _("  a round's last card: 1 sends it, 2 or u to choose again")]
    lines += [_("  ↑ ↓ Page Up Page Down or the wheel: scroll the log when there is no choice")]
    lines += [_("  q twice: leave the table (your code takes your seat again)") if standalone and not watching else
              _("  q twice: stop watching") if standalone else _("  q: back to the host's screen")]
    lines += [_("  ?: these keys")]
    # the boards' marks (a player asked what ▣ meant: nothing on the screen said it)
    lines += [_("Marks:"), _("  >: your riders"), _("  ▣: the rider's card of this round is down")]
    return lines


def run(address: str, code: str, watch: bool = False) -> int:
    return JoinApp(address, code, watch).run() or 0
