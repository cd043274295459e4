"""What a server checks before it takes a connection: the Origin and Host of
a WebSocket, and how fast one peer may send.  Shared by `flamme-tui serve`
(ui/serve.py) and `flamme-tui host` (net/host.py); no Textual here.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
import time
from collections import Counter
from typing import Any

from ..i18n import _

RATE, BURST = 200.0, 400.0  # messages a second from one peer, on average and at once (serve's default)
# A connection must send a whole request within REQUEST_SECONDS (aiohttp waits for one for ever:
# 300 sockets sending a header line every 10 s held a host's files open until it could take no
# device), one address holds at most CONNECTIONS_PER_ADDRESS at once, and a connection idle
# after its answer is closed after KEEPALIVE_SECONDS (aiohttp's default: an hour).
REQUEST_SECONDS = 10.0
CONNECTIONS_PER_ADDRESS = 80  # (a host's 64 lines may all come from one machine: its page's tabs)
KEEPALIVE_SECONDS = 15.0


def lan_address() -> str:
    """This machine's address on its network (no packet is sent: a UDP socket
    is only pointed somewhere), 127.0.0.1 if it has none."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed anywhere real
            return str(probe.getsockname()[0])
    except OSError:
        return "127.0.0.1"


def join_address(host: str, port: int) -> str:
    shown = lan_address() if host in ("", "0.0.0.0", "::") else host
    return f"{f'[{shown}]' if ':' in shown else shown}:{port}"


def cannot_listen(host: str, port: int) -> str | None:
    """Why nothing can listen on host:port (an unknown name, not this
    machine's address, a port taken), tried before anything is printed;
    None if it can."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
        family, kind, proto, _name, address = infos[0]
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server will
            probe.bind(address)
    except OSError as exc:
        return str(exc.strerror or exc)
    except (UnicodeError, ValueError) as exc:  # a name no resolver takes
        return _("not a host name ({problem})").format(problem=type(exc).__name__)
    return None


def host_name(host_header: str) -> str | None:
    """The name in a Host header ("127.0.0.1:8000", "[::1]:8000", "pc"), lower case; None if malformed."""
    host = host_header.strip().lower()
    if host.startswith("["):  # an IPv6 address
        end = host.find("]")
        rest = host[end + 1:]
        if end < 0 or (rest and not (rest.startswith(":") and rest[1:].isdigit())):
            return None
        return host[1:end] or None
    name, _, port = host.partition(":")
    if port and not port.isdigit():
        return None
    return name or None


def is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def own_names(listen_host: str) -> set[str]:
    """The host names this server answers to besides IP addresses: the loopback
    names, the name it listens on, and this machine's name."""
    names = {"localhost", listen_host.lower().strip("[]")}
    try:
        machine = socket.gethostname().lower()
    except OSError:
        machine = ""
    if machine:
        names |= {machine, f"{machine}.local"}
    return names


def refusal(origin: str | None, host_header: str | None, names: set[str], allow_no_origin: bool = False) -> str | None:
    """Why a WebSocket from this Origin, asking for this Host, is refused; None
    if it comes from the server's own page.  A page from elsewhere sends its own
    Origin; a page of a site whose name was pointed at this machine sends a Host
    that is none of the server's names.  `allow_no_origin`: a peer that is no
    browser (a terminal client) sends none, and a web page cannot leave it out."""
    if not host_header:
        return _("no Host")
    name = host_name(host_header)
    if name is None:
        return _("a malformed Host")
    if not (is_ip(name) or name in names):
        return _("a Host that is not this server's name")
    if not origin:
        return None if allow_no_origin else _("no Origin (not from the server's page)")
    if origin and origin.strip().lower() not in (f"http://{host_header.lower()}", f"https://{host_header.lower()}"):
        return _("an Origin that is not the server's page")
    return None



class Bucket:
    """At most `rate` events a second on average, `burst` at once."""

    def __init__(self, rate: float = RATE, burst: float = BURST) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = burst
        self.last = time.monotonic()

    def take(self, cost: float = 1.0) -> bool:
        """Whether an event of this cost (1, or its bytes) is allowed now; if so it is counted."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens < cost:
            return False
        self.tokens -= cost
        return True


class ConnectionGuard:
    """The protocol factory of a listening socket, around aiohttp's: it counts each
    address's connections and closes one that sends no whole request in time.  The
    app's middleware (`middleware`) says when a request has come."""

    def __init__(self, factory: Any = None) -> None:
        self.factory = factory  # aiohttp's (the runner's server), once the runner is set up
        self.request_seconds = REQUEST_SECONDS
        self.per_address = CONNECTIONS_PER_ADDRESS
        self.open: Counter[str] = Counter()
        self.waiting: dict[Any, asyncio.TimerHandle] = {}  # transport -> its deadline for a request

    def __call__(self) -> asyncio.Protocol:
        return _Guarded(self.factory(), self)

    def started(self, transport: Any) -> None:
        """A whole request came on this connection: it may stay (a WebSocket, keep-alive)."""
        timer = self.waiting.pop(transport, None)
        if timer is not None:
            timer.cancel()

    def middleware(self) -> Any:
        from aiohttp import web

        @web.middleware
        async def request_came(request: Any, handler: Any) -> Any:
            self.started(request.transport)
            return await handler(request)

        return request_came


class _Guarded(asyncio.Protocol):
    """aiohttp's protocol of one connection (its class has slots: wrapped, not patched)."""

    def __init__(self, inner: Any, guard: ConnectionGuard) -> None:
        self.inner, self.guard = inner, guard
        self.transport: Any = None
        self.address = "?"

    def connection_made(self, transport: Any) -> None:
        self.inner.connection_made(transport)
        self.transport = transport
        peer = transport.get_extra_info("peername")
        self.address = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
        guard = self.guard
        guard.open[self.address] += 1
        if guard.open[self.address] > guard.per_address:
            transport.close()
            return
        guard.waiting[transport] = asyncio.get_running_loop().call_later(guard.request_seconds, transport.close)

    def connection_lost(self, exc: Exception | None) -> None:
        guard = self.guard
        timer = guard.waiting.pop(self.transport, None)
        if timer is not None:
            timer.cancel()
        guard.open[self.address] -= 1
        if guard.open[self.address] <= 0:
            del guard.open[self.address]
        self.inner.connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        result: bool | None = self.inner.eof_received()
        return result

    def pause_writing(self) -> None:
        self.inner.pause_writing()

    def resume_writing(self) -> None:
        self.inner.resume_writing()


class Listening:
    """A server behind a ConnectionGuard: its port; `cleanup()` stops it."""

    def __init__(self, runner: Any, server: Any, port: int) -> None:
        self.runner, self.server, self.port = runner, server, port

    async def cleanup(self) -> None:
        self.server.close()  # no new connection, then aiohttp's shutdown of the open ones
        await self.runner.cleanup()


async def listen(app: Any, host: str, port: int) -> Listening:
    """Serve the aiohttp `app` on host:port (a free port if 0) behind a ConnectionGuard."""
    from aiohttp import web

    guard = ConnectionGuard()
    app.middlewares.append(guard.middleware())  # (before the runner freezes the app)
    runner = web.AppRunner(app, access_log=None, handle_signals=False, shutdown_timeout=1.0,
                           keepalive_timeout=KEEPALIVE_SECONDS)
    await runner.setup()
    guard.factory = runner.server
    try:
        server = await asyncio.get_running_loop().create_server(guard, host, port)
    except OSError:
        await runner.cleanup()
        raise
    sockets = server.sockets or ()
    return Listening(runner, server, sockets[0].getsockname()[1] if sockets else port)
