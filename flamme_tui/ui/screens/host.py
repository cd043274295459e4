"""Host a table from the app (the title menu's and the palette's "Host a table"):
the race set up as any race, each human seat played on its own device
(`flamme-tui join`, or a browser: the page the screen serves) or here, at the
host's keyboard.

The screen serves the table (net.host.HostServer, in the app's own event
loop) and shows what `flamme-tui host` prints: the join address, the room
code, each seat and who plays it (its code, joined or not), the QR code of
the page for browsers and phones, then whom the table waits for and each
round revealed.  Every seat that has something to do chooses at once (the
table waits for all of them).  `p` opens a seat played here (its own screen,
joined over loopback like any device: its hand is never on this screen,
which may face the room; with two seats here the screen goes back here
between them, as a curtain).  `w` shows the race itself here, as a watcher
sees it (the public table: the track, the boards, the log; no hand), for a
screen the room can follow.  `b` gives a seat the table waits for to a bot
(a player who left; with several, the screen asks which), `d` gives it back
to its device (the same code); `n` opens the table to the local network (it listens on this computer
only until then); Escape stops hosting (the race is autosaved as every race
is, its codes beside it: `flamme-tui host --from` reopens it).
"""

from __future__ import annotations

import shlex
import sys
from collections.abc import Iterable
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import Log, Static

from ...i18n import N_, _, pgettext
from ...play.narrator import host_line
from ...usertext import clean
from ...words import bot_level, team_name
from ..widgets.keybar import KeyBar

PORT = 8765  # the table's port asked first (another free one if it is taken)
LOCAL, NETWORK = "127.0.0.1", "0.0.0.0"
NAME_WIDTH = 10  # a team's name at most, in the seats' table (the left column is ~50 cells at 80x24)


class HostScreen(Screen[None]):
    DEFAULT_CSS = """
    HostScreen #host-top { height: auto; max-height: 70%; }
    HostScreen #host-info { width: 1fr; height: auto; }
    HostScreen #host-qr { width: auto; height: auto; margin: 0 0 0 1; }  /* a gap: the join line may run up to it */
    HostScreen #host-log {
        height: 1fr; min-height: 3; border-top: solid $accent;
        overflow-x: hidden; overflow-y: auto;  /* (a Log's default: both scrollbars, always) */
    }
    """
    BINDINGS = [
        Binding("p", "play_here", N_("Play your seat"), show=False),  # (the key bar shows them)
        Binding("w", "watch", N_("Watch the race"), show=False),
        Binding("b", "give_to_bot", N_("Waiting seat to a bot"), show=False),
        Binding("d", "give_back", N_("Seat back to its device"), show=False),
        Binding("n", "network", N_("Open to the network"), show=False),
        Binding("escape", "stop", N_("Stop hosting"), show=False),
    ]

    def __init__(self, session: Any, here: Iterable[int] = (), codes: dict[int, str] | None = None,
                 room: str = "", port: int = PORT) -> None:
        super().__init__()
        from ...net.host import HostTable

        scripted = getattr(session.game, "script", None)  # the Peloton's scripted teams play themselves
        devices = {s for s in range(len(session.setup.teams))
                   if s not in session.bots and not (scripted is not None and scripted[s])}
        # (codes and room given: the screenshots' fixed ones; else new secret ones)
        # `here`: the seats played at this keyboard (the rest: on their own devices)
        self.table = HostTable(session, devices, dict(codes or {}), room, here=set(here))
        self.here = self.table.here
        self.port, self.web_port = port, 0
        self.listen = LOCAL
        self.server: Any = None
        self.page: Any = None  # the page for browsers (textual-serve running `flamme-tui join` in each tab)
        self.seat_screen: Any = None  # the screen of the seat played here that is open, if any
        self.open_seat: int | None = None
        self.came: set[int] = set()  # the device seats that have joined once (not there now: away)
        self.last = ""

    def compose(self) -> ComposeResult:
        with Horizontal(id="host-top"):
            yield Static(id="host-info")
            yield Static(id="host-qr")
        yield Log(id="host-log", highlight=False)
        # (the app's key bar, in the player's language, as on the other screens)
        yield KeyBar(self.key_list(), id="host-keys")

    def key_list(self) -> list[tuple[str, str]]:
        keys = [("p", _("your seat"))] if self.here - set(self.table.session.bots) else []
        back = [("d", _("back to its device"))] if self.table.given() else []
        return keys + [("w", _("watch")), ("b", _("give to a bot")), *back,
                       ("n", _("this computer") if self.listen == NETWORK else _("network")),
                       ("esc", _("stop hosting"))]

    async def on_mount(self) -> None:
        try:
            self.table.save_codes()
        except OSError:
            pass  # the race itself is saved as any race; a restart would need new codes
        await self.start_serving()
        self.query_one("#host-log", Log).write_line(_("Give each player their seat's code."))

    # ------------------------------------------------------------ serving

    async def start_serving(self) -> None:
        """The table on its port (PORT, else a free one), and the page for browsers beside it."""
        from ...net.host import HostServer

        for port in dict.fromkeys((self.port, PORT, 0)):
            server = HostServer(self.table, self.listen, port, say=self.tell)
            try:
                await server.start()
            except OSError:
                continue
            self.server, self.port = server, server.port
            break
        await self.start_page()
        self.show_info()

    async def start_page(self) -> None:
        """textual-serve running `flamme-tui join` in each tab (it asks for the code), on
        the port after the table's (else a free one); none without textual-serve."""
        try:
            from ..serve import start_page
        except ImportError:
            return
        command = " ".join(("exec", shlex.quote(sys.executable), "-P", "-m", "flamme_tui", "join",
                            shlex.quote(f"{LOCAL}:{self.port}")))
        for port in dict.fromkeys((self.web_port or self.port + 1, 0)):
            try:
                self.page = await start_page(command, self.listen, port, max_sessions=len(self.table.devices) + 4)
            except (OSError, ImportError):
                continue
            self.web_port = port or self._page_port()
            return

    def _page_port(self) -> int:
        sites = getattr(self.page, "sites", ())
        for site in sites:
            server = getattr(site, "_server", None)
            if server is not None and server.sockets:
                return int(server.sockets[0].getsockname()[1])
        return 0

    async def stop_serving(self) -> None:
        server, page = self.server, self.page
        self.server = self.page = None
        if server is not None:
            await server.stop()
        if page is not None:
            await page.cleanup()

    def address(self, port: int) -> str:
        from ...net.guard import join_address

        return join_address(self.listen, port)

    # ------------------------------------------------------------ what the screen shows

    def show_info(self) -> None:
        from ...net.qr import qr_lines

        if self.server is None:
            return
        session = self.table.session
        address = self.address(self.port)
        t = Text(no_wrap=True, overflow="ellipsis")
        t.append(_("Hosting a table · round {n}").format(n=max(session.game.round, 1)) + "\n", style="bold")
        waiting = self.waiting_words()  # first: what the table needs now (12 seats' rows may not all fit)
        if waiting:
            t.append(waiting + "\n", style="bold")
        if self.listen == LOCAL:
            t.append(_("Only this computer can join (n: the network too)") + "\n")
        else:
            t.append(_("Open to your network") + "\n")
        names = [team_name(session.setup, seat) for seat in range(len(session.setup.teams))]
        rows = [(seat, name if len(name) <= NAME_WIDTH else name[:NAME_WIDTH - 1] + "…",
                 *self.seat_words(seat)) for seat, name in enumerate(names)]
        # one seat on its own device: its code in the command, ready to type (else CODE: each seat's, below)
        codes = [row[3] for row in rows if row[3]]
        t.append(_("Join: flamme-tui join {address} {code}").format(
            address=address, code=codes[0] if len(codes) == 1 else pgettext("a seat's code, to type", "CODE")) + "\n")
        if self.page is not None:
            t.append(_("Or a browser, a phone: http://{page}/").format(page=self.address(self.web_port)) + "\n")
        t.append(_("Watch: the room code {code}").format(code=self.table.room) + "\n")
        heads = (_("Team"), _("Plays"), _("Code"))
        # columns as wide as their longest word (French and Spanish run longer)
        name_w = max(len(heads[0]), *(len(r[1]) for r in rows))
        plays_w = max(len(heads[1]), *(len(r[2]) for r in rows))
        t.append(f"{'':>2} {heads[0]:<{name_w}} {heads[1]:<{plays_w}} {heads[2]}\n", style="dim")
        choosing = set(self.table.waiting())
        for seat, name, plays, code, state in rows:
            style = "bold" if seat in choosing else ""
            t.append(f"{seat + 1:>2} {name:<{name_w}} {plays:<{plays_w}} {code:<14} {state}".rstrip() + "\n",
                     style=style)
        t.rstrip()
        self.query_one("#host-info", Static).update(t)
        qr = qr_lines(f"http://{self.address(self.web_port)}/") if self.page is not None else None
        self.query_one("#host-qr", Static).update(Text("\n".join(qr or ()), no_wrap=True))
        for bar in self.query("#host-keys").results(KeyBar):
            bar.show(self.key_list())

    def seat_words(self, seat: int) -> tuple[str, str, str]:
        """Who plays a seat, its code, whether it is there: the columns of the seats' table."""
        from ...net.host import show_code

        session = self.table.session
        if seat in session.bots:  # (a seat given to a bot keeps its code: d gives it back to its device)
            code = show_code(self.table.codes[seat]) if seat in self.table.given() else ""
            return _("bot: {name}").format(name=bot_level(session.bots[seat])), code, ""
        if seat not in self.table.devices:
            return _("scripted"), "", ""
        if seat in self.here:
            return _("here"), "", ""
        if self.server is not None and seat in self.server.seated:
            state = _("joined")
        else:
            state = _("away") if seat in self.came else _("not yet")
        return _("own device"), show_code(self.table.codes[seat]), state

    def waiting_words(self) -> str:
        """Whom the table waits for: every seat played by a person still choosing (a bot
        plays as soon as it can), each said where it is."""
        session = self.table.session
        if session.over:
            return _("The race is over.")
        seats = [s for s in self.table.waiting() if s not in session.bots and s in self.table.devices]
        if not seats:
            return ""
        if len(seats) == 1:  # (one seat: said as ever, with what the host may do about it)
            seat = seats[0]
            team = team_name(session.setup, seat)
            if seat in self.here:
                return _("{team} (here) must choose: p shows their hand.").format(team=team)
            if self.server is not None and seat in self.server.seated:
                return _("Waiting for {team} (b: a bot plays it).").format(team=team)
            if seat in self.came:
                return _("Waiting for {team}, away (b: a bot plays it).").format(team=team)
            return _("Waiting for {team} to join (b: a bot plays it).").format(team=team)

        def where(seat: int) -> str:
            if seat in self.here:
                return _(" (here)")
            if self.server is not None and seat in self.server.seated:
                return ""
            return _(" (away)") if seat in self.came else _(" (not joined)")

        who = ", ".join(team_name(session.setup, s) + where(s) for s in seats)
        if any(s in self.here for s in seats):
            return _("Waiting for {teams}. p: your hand, b: a bot plays one.").format(teams=who)
        # (the keys after a full stop: "Orange (not joined) (b: ...)" read as two asides)
        return _("Waiting for {teams}. b: a bot plays one.").format(teams=who)

    def tell(self, kind: str, seat: int | None = None, **facts: Any) -> None:
        """What the host says (HostServer's `say`), in the log, each thing once."""
        setup = self.table.session.setup
        if kind == "waiting":
            self.curtain(facts.get("seats", ()))
        if kind == "joined" and seat is not None:
            self.came.add(seat)
        line = host_line(kind, team_name(setup, seat) if seat is not None else "",
                         [team_name(setup, s) for s in range(len(setup.teams))], **facts)
        if kind in ("joined", "away") and seat in self.here:
            line = None  # (a seat played here: its screen opened or closed, nobody came or went)
        if line is not None and kind not in ("bot-failed", "waiting") and line != self.last:
            # (the screen offers `b` instead of the command; whom it waits for is on the line above the log)
            self.last = line
            log = self.query_one("#host-log", Log)
            log.write_line(line, scroll_end=True)
            # (and again once the lines above have their new height: the log shrank under them and,
            # no longer at its end, stopped following: the host read a seat "away" that was back)
            self.call_after_refresh(log.scroll_end, animate=False, x_axis=False)
            if self.seat_screen is not None:
                self.seat_screen.host_note(line)
        self.show_info()

    def curtain(self, waiting: Iterable[int]) -> None:
        """The seat played here whose screen is open has chosen all it can, and another
        seat played here must choose: its hand is not shown to the player before (back
        to this screen, whose `p` shows it)."""
        waiting = tuple(waiting)
        if (self.seat_screen is not None and self.open_seat not in waiting
                and any(s in self.here and s != self.open_seat for s in waiting)):
            self.seat_screen.action_leave()

    # ------------------------------------------------------------ keys

    def action_play_here(self) -> None:
        from ...net.host import show_code
        from ..join import SeatScreen

        session = self.table.session
        seats = sorted(self.here - set(session.bots))
        if not seats or self.server is None:
            self.app.bell()
            return
        waiting = [s for s in self.table.waiting() if s in seats]
        seat = waiting[0] if waiting else seats[0]
        team = team_name(session.setup, seat)
        intro = (_("{team}, played here. q goes back to the host's screen (the codes, the table).").format(team=team),)
        self.seat_screen = SeatScreen(f"{LOCAL}:{self.port}", show_code(self.table.codes[seat]), intro=intro,
                                      standalone=False)
        self.open_seat = seat
        self.app.push_screen(self.seat_screen, callback=self.seat_closed)

    def action_watch(self) -> None:
        """The race as a watcher sees it, joined over loopback with the room code (the public
        table only: the host's screen may face the room); q comes back here."""
        from ..join import SeatScreen

        if self.server is None:
            self.app.bell()
            return
        intro = (_("The race as everyone sees it. q: back to the host's screen."),)
        self.seat_screen = SeatScreen(f"{LOCAL}:{self.port}", self.table.room, watch=True, intro=intro,
                                      standalone=False)
        self.open_seat = None  # (a seat played here that must choose brings the host's screen back: its `p`)
        self.app.push_screen(self.seat_screen, callback=self.seat_closed)

    def seat_closed(self, _result: object = None) -> None:
        self.seat_screen = self.open_seat = None
        self.show_info()

    async def action_give_to_bot(self) -> None:
        """A seat the table waits for to a bot (a player who left): with several, the
        screen asks which (those with no device on the line first)."""
        seats = list(self.table.devices_waiting())
        if not seats or self.server is None:
            self.app.bell()
            return
        if len(seats) == 1:
            await self.server.hand_to_bot(seats[0], "easy")
            return
        there = self.server.seated
        seats.sort(key=lambda s: s in there or s in self.here)  # (stable: in seat order within each)

        async def chosen(seat: int | None) -> None:
            if seat is not None and self.server is not None and seat in self.table.devices_waiting():
                await self.server.hand_to_bot(seat, "easy")

        self.ask_seat(_("Which seat does a bot play from now on?"), seats, chosen)

    async def action_give_back(self) -> None:
        """A seat given to a bot back to its device, with its same code (with several, asked)."""
        seats = list(self.table.given())
        if not seats or self.server is None:
            self.app.bell()
            return
        if len(seats) == 1:
            await self.server.give_back(seats[0])
            return

        async def chosen(seat: int | None) -> None:
            if seat is not None and self.server is not None:
                await self.server.give_back(seat)

        self.ask_seat(_("Which seat goes back to its device?"), seats, chosen)

    def ask_seat(self, question: str, seats: list[int], then: Any) -> None:
        from .dialogs import PickSeat

        words = [(s, f"{team_name(self.table.session.setup, s)}  {self.seat_words(s)[2]}".rstrip()) for s in seats]
        self.app.push_screen(PickSeat(question, words), then)

    async def action_network(self) -> None:
        """This computer only, or every machine of the network (the devices joined come back on their own)."""
        self.listen = NETWORK if self.listen == LOCAL else LOCAL
        await self.stop_serving()
        await self.start_serving()
        self.query_one("#host-log", Log).write_line(
            _("Open to your network: other computers and phones join at {address}.").format(
                address=self.address(self.port)) if self.listen == NETWORK else
            _("On this computer only again."))

    async def action_stop(self) -> None:
        """Esc: the table closes, after asking while a race is under way (devices would be turned away)."""
        if not self.table.session.over:
            from .dialogs import ConfirmStopHosting

            save = getattr(self.table.session, "save_path", None)
            command = f"flamme-tui host --from {save}" if save is not None else _("flamme-tui host --from FILE")

            async def answer(stop: bool | None) -> None:
                if stop:
                    await self.stop_serving()
                    self.app.pop_screen()

            self.app.push_screen(ConfirmStopHosting(clean(command, multiline=False)), answer)
            return
        await self.stop_serving()
        self.app.pop_screen()

    def on_unmount(self) -> None:
        # the app is ending (quit, a signal): the lines are closed on the way out, not
        # waited for (the race is saved after every action: nothing is lost)
        if self.server is not None or self.page is not None:
            import asyncio

            asyncio.ensure_future(self.stop_serving())
