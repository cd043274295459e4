"""Host a table from the app (the palette's "Host a table"): the race set up as any
race, its human seats played on their own devices (`flamme-tui join`).

The screen serves the table (net.host.HostServer, in the app's own event
loop) and shows what `flamme-tui host` prints: the join address, the room
code, each device seat's code, the QR code of the address, then who joins,
whom the table waits for and each round revealed.  `b` gives the seat the
table waits for to a bot (a player who left); Escape stops hosting (the race
is autosaved as every race is, its codes beside it: `flamme-tui host --from`
reopens it).  Nobody's hand is ever on this screen: it may face the room.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer, Log, Static

from ...i18n import N_, _
from ...play.narrator import host_line

PORT = 8765  # the port asked first (another free one if it is taken)


class HostScreen(Screen[None]):
    CSS = """
    #host-info { height: auto; max-height: 60%; overflow-y: auto; }
    #host-log { height: 1fr; border-top: solid $accent; }
    """
    BINDINGS = [
        Binding("b", "give_to_bot", N_("Give the waiting seat to a bot")),
        Binding("escape", "stop", N_("Stop hosting")),
    ]

    def __init__(self, session: Any) -> None:
        super().__init__()
        from ...net.host import HostTable

        scripted = getattr(session.game, "script", None)  # the Peloton's scripted teams play themselves
        devices = {s for s in range(len(session.setup.teams))
                   if s not in session.bots and not (scripted is not None and scripted[s])}
        self.table = HostTable(session, devices)
        self.server: Any = None
        self.waiting: int | None = None
        self.last = ""

    def compose(self) -> ComposeResult:
        yield Static(id="host-info")
        yield Log(id="host-log", highlight=False)
        yield Footer()

    async def on_mount(self) -> None:
        from ...net.host import HostServer

        try:
            self.table.save_codes()
        except OSError:
            pass  # the race itself is saved as any race; a restart would need new codes
        for port in (PORT, 0):
            self.server = HostServer(self.table, "127.0.0.1", port, say=self.tell)
            try:
                await self.server.start()
                break
            except OSError:
                continue
        self.show_info()

    def show_info(self) -> None:
        from ...net.host import show_code

        address = f"127.0.0.1:{self.server.port}"
        teams = self.table.session.setup.teams
        lines = [_("Hosting a table of flamme-tui on {address}").format(address=address),
                 _("Room code (to watch): {code}").format(code=self.table.room)]
        lines += [_("  {team}: flamme-tui join {address} {code}").format(
            team=teams[s].name, address=address, code=show_code(self.table.codes[s])) for s in sorted(self.table.devices)]
        lines.append(_("  watch: flamme-tui join {address} {code} --watch").format(address=address, code=self.table.room))
        from ...net.qr import qr_lines

        qr = qr_lines(f"http://{address}/")
        text = Text("\n".join(lines) + "\n")
        if qr:
            text.append("\n".join(qr) + "\n")
        self.query_one("#host-info", Static).update(text)

    def tell(self, kind: str, seat: int | None = None, **facts: Any) -> None:
        """What the host says (HostServer's `say`), in the log, each thing once."""
        teams = self.table.session.setup.teams
        if kind == "waiting":
            self.waiting = seat
        line = host_line(kind, teams[seat].name if seat is not None else "", **facts)
        if line is None or kind == "bot-failed":  # (the screen offers `b` instead of the command)
            return
        if line != self.last:
            self.last = line
            self.query_one("#host-log", Log).write_line(line)

    async def action_give_to_bot(self) -> None:
        seat = self.table.device_due()
        if seat is None or self.server is None:
            self.app.bell()
            return
        await self.server.hand_to_bot(seat, "easy")

    async def action_stop(self) -> None:
        if self.server is not None:
            await self.server.stop()
            self.server = None
        self.app.pop_screen()

    def on_unmount(self) -> None:
        # the app is ending (quit, a signal): the lines are closed on the way out, not
        # waited for (the race is saved after every action: nothing is lost)
        if self.server is not None:
            import asyncio

            asyncio.ensure_future(self.server.stop())
            self.server = None
