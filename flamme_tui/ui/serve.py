"""`flamme-tui serve`: the app in a browser tab, with textual-serve.

Each browser tab that opens the page starts its own `flamme-tui` process
(the same app, saves and settings as in the terminal).  The server listens
on 127.0.0.1 unless told otherwise: anybody who can reach the port can play
(and read the saved races), so opening it to a network is a choice to make.

A server trusts nobody.  textual-serve as it comes takes a WebSocket from
any web page (a page of another site, open in the same browser, could drive
the app), starts a process per connection without limit, passes on any
terminal size and lets a malformed message end the session.  `FlammeServer`
keeps its page and process handling and checks what comes in:

- the page's Origin must be the server's own page (the Host the browser
  asked for), and that Host a name of this server (an IP address, localhost,
  the name it listens on, this machine's name): a page elsewhere, or one of
  another site whose name was pointed at this address (DNS rebinding), is
  refused;
- a connection sends a whole request within net.guard.REQUEST_SECONDS, and one address
  holds at most net.guard.CONNECTIONS_PER_ADDRESS (net.guard.listen, as `host` does);
- at most `max_sessions` tabs play at once (each is a process);
- a terminal size is clamped to MAX_COLUMNS x MAX_ROWS;
- one message is at most MAX_MESSAGE bytes (a bigger one ends the session);
  past net.guard.RATE a second on average, messages are dropped, as is any that is
  not what the page sends, and keys past STDIN_RATE bytes a second;
- a tab whose app takes nothing (keys, a size) for TAB_SECONDS is closed, and its app ended.

The app in a browser tab says no absolute path, pid or host name of the
server (pathtext.served).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import shlex
import signal
import sys
from typing import Any

from ..i18n import _
from ..net.guard import Bucket, cannot_listen, host_name, is_ip, listen, own_names, refusal  # shared with `host`
from ..pathtext import BROWSER_ENV, SERVED_ENV
from ..usertext import clean

LOCAL = ("127.0.0.1", "localhost", "::1")
MAX_SESSIONS = 4  # tabs playing at once: each is a flamme-tui process (about 40 MB)
LIMIT_SESSIONS = 64  # --max-sessions at most
MAX_COLUMNS, MAX_ROWS = 400, 150  # a larger terminal is no screen: 400 x 150 cells is a frame of a few MB at most
MIN_COLUMNS, MIN_ROWS = 20, 8
TAB_SECONDS = 5.0  # a tab's app has this long to quit when its page goes (then it is killed)
MAX_MESSAGE = 64 * 1024  # bytes of one message from the page (a key, a paste, a resize)
# keys typed into a tab's app, in bytes: a person types a few a second, a paste is a name or a
# seed; 459 messages of 2,000 arrow keys each (under the message rate) left the tab's app
# working through 900,000 keys, at 1.7 GB, minutes after its page had gone
STDIN_RATE, STDIN_BURST = 2048.0, 16384.0

log = logging.getLogger("flamme-tui.serve")


def app_command() -> str:
    """The command each browser tab runs: this Python, this flamme-tui (told
    it is served by the environment it inherits: `serve` sets SERVED_ENV)."""
    return " ".join([shlex.quote(sys.executable), "-P", "-m", "flamme_tui"])


def clamp_size(width: object, height: object) -> tuple[int, int] | None:
    """A terminal size a page asks for, within bounds; None if it is no size (not two whole numbers)."""
    if type(width) is not int or type(height) is not int:  # not bool, float or text
        return None
    return max(MIN_COLUMNS, min(MAX_COLUMNS, width)), max(MIN_ROWS, min(MAX_ROWS, height))


def _query_size(query: Any) -> tuple[int, int]:
    def number(key: str, default: int) -> int:
        text = str(query.get(key, default))[:8]
        return int(text) if text.isdigit() else default

    size = clamp_size(number("width", 80), number("height", 24))
    assert size is not None
    return size


def make_server(command: str, host: str, port: int, max_sessions: int = MAX_SESSIONS) -> Any:
    """The textual-serve server with the checks above (ImportError without textual-serve)."""
    import aiohttp_jinja2
    from aiohttp import WSMsgType, web
    from textual_serve.app_service import AppService
    from textual_serve.server import Server

    class TabApp(AppService):  # type: ignore[misc]
        """A tab's app, told it is served by its own environment (not this
        process's: the host's own screen, `host --here`, is its user's)."""

        browser = ""  # the address of the tab's browser (its join names it: see pathtext.BROWSER_ENV)

        def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
            environment: dict[str, str] = super()._build_environment(width=width, height=height)
            environment[SERVED_ENV] = "1"
            if self.browser:
                environment[BROWSER_ENV] = self.browser
            return environment

    class FlammeServer(Server):  # type: ignore[misc]
        def __init__(self) -> None:
            shown = f"[{host}]" if ":" in host else host
            super().__init__(command, host=host, port=port, title="Flamme Rouge",
                             public_url=f"http://{shown}:{port}")
            self.max_sessions = max_sessions
            self.sessions = 0
            self.tabs: set[TabApp] = set()  # the tabs' apps running now (each a process)
            self.ending: set[asyncio.Task[None]] = set()  # tabs whose page closed, their apps quitting
            self.names = own_names(host)

        async def _make_app(self) -> web.Application:
            app = web.Application(client_max_size=MAX_MESSAGE)
            aiohttp_jinja2.setup(app, loader=__import__("jinja2").FileSystemLoader(self.templates_path))
            app.add_routes([
                web.get("/", self.handle_index, name="index"),
                web.get("/ws", self.handle_websocket, name="websocket"),
                web.get("/download/{key}", self.handle_download, name="download"),
                web.static("/static", self.statics_path, name="static"),
            ])
            app.on_startup.append(self.on_startup)
            app.on_shutdown.append(self.close_tabs)
            return app

        async def close_tabs(self, app: web.Application | None = None) -> None:
            """Quit every tab's app and wait for its process (killed if it does not
            go): on the way out nothing is left running, nor unreaped when the
            event loop closes (aiohttp cancels the tabs' handlers after its
            shutdown timeout, before they have waited for their processes)."""
            await asyncio.gather(*(self._end(service) for service in list(self.tabs)), *self.ending,
                                 return_exceptions=True)

        async def _end(self, service: TabApp) -> None:
            self.tabs.discard(service)
            process = service._process
            try:
                await asyncio.wait_for(service.stop(), TAB_SECONDS)
            except (TimeoutError, OSError, RuntimeError):
                pass
            if process is not None and process.returncode is None:
                try:
                    await asyncio.wait_for(process.wait(), TAB_SECONDS)
                except TimeoutError:
                    process.kill()
                    await process.wait()

        async def on_startup(self, app: web.Application) -> None:
            pass  # flamme-tui prints its own banner

        @aiohttp_jinja2.template("app_index.html")
        async def handle_index(self, request: web.Request) -> dict[str, Any]:
            """The page, with its WebSocket on the Host the browser asked for
            (so that its Origin and that Host agree, localhost or 127.0.0.1)."""
            name = host_name(request.host)
            if name is None or not (is_ip(name) or name in self.names):
                raise web.HTTPMisdirectedRequest(text=_("flamme-tui: not this server's name") + "\n")
            font_size = request.query.get("fontsize", "16")[:3]
            return {
                "font_size": int(font_size) if font_size.isdigit() and 6 <= int(font_size) <= 64 else 16,
                "app_websocket_url": "".join(["ws://", request.host, "/ws"]),
                "config": {"static": {"url": "".join(["http://", request.host, "/static/"])}},
                "application": {"name": self.title},
            }

        async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
            why = refusal(request.headers.get("Origin"), request.headers.get("Host"), self.names)
            if why is not None:
                log.warning("refused a WebSocket: %s", why)
                raise web.HTTPForbidden(text=_("flamme-tui: refused: {why}").format(why=why) + "\n")
            if self.sessions >= self.max_sessions:
                raise web.HTTPServiceUnavailable(
                    text=_("flamme-tui: {n} tabs are playing already: close one first").format(n=self.max_sessions) + "\n")
            self.sessions += 1  # (no await since the test: one event loop, no race)
            try:
                return await self._session(request)
            finally:
                self.sessions -= 1

        async def _session(self, request: web.Request) -> web.WebSocketResponse:
            websocket = web.WebSocketResponse(heartbeat=15, max_msg_size=MAX_MESSAGE)
            width, height = _query_size(request.query)
            service: TabApp | None = None
            try:
                await websocket.prepare(request)

                async def close() -> None:
                    await websocket.close()

                service = TabApp(self.command, write_bytes=websocket.send_bytes, write_str=websocket.send_str,
                                     close=close, download_manager=self.download_manager,
                                     debug=self.debug)
                service.browser = (request.remote or "")[:64]
                await service.start(width, height)
                self.tabs.add(service)
                await self._process_messages(websocket, service)
            except asyncio.CancelledError:
                await websocket.close()
            except Exception as error:  # noqa: BLE001 - one tab's trouble never stops the server
                log.warning("a session ended: %s", type(error).__name__)
            finally:
                if service is not None and service in self.tabs:
                    # (shielded: aiohttp cancels this handler on the way out, close_tabs waits for it)
                    ending = asyncio.ensure_future(self._end(service))
                    self.ending.add(ending)
                    ending.add_done_callback(self.ending.discard)
                    await asyncio.shield(ending)
            return websocket

        async def _process_messages(self, websocket: web.WebSocketResponse, service: AppService) -> None:
            """What the page sends, checked: anything else is dropped."""
            bucket, typed = Bucket(), Bucket(STDIN_RATE, STDIN_BURST)
            async for message in websocket:
                if message.type != WSMsgType.TEXT:
                    continue
                if not bucket.take():  # a flood (a page gone wrong): dropped, the tab goes on
                    continue
                try:
                    envelope = json.loads(message.data)
                except ValueError:
                    continue
                if not isinstance(envelope, list) or not envelope or not isinstance(envelope[0], str):
                    continue
                kind, data = envelope[0], envelope[1] if len(envelope) > 1 else None
                sent: Any = None  # what is handed to the tab's app
                if kind == "stdin" and isinstance(data, str):
                    keys = data.encode("utf-8", "replace")
                    if not typed.take(len(keys)):  # more than anybody types: dropped
                        continue
                    sent = service.send_bytes(keys)
                elif kind == "resize" and isinstance(data, dict):
                    size = clamp_size(data.get("width"), data.get("height"))
                    if size is not None:
                        sent = service.set_terminal_size(*size)
                elif kind == "ping" and isinstance(data, str) and len(data) <= 64:
                    await websocket.send_json(["pong", data])
                elif kind == "blur":
                    sent = service.blur()
                elif kind == "focus":
                    sent = service.focus()
                if sent is None:
                    continue
                try:  # an app that reads no more (its pipe full) ends the tab, which ends the app
                    await asyncio.wait_for(sent, TAB_SECONDS)
                except TimeoutError:
                    log.warning("a tab's app took nothing for %s s: the tab is closed", TAB_SECONDS)
                    return

    return FlammeServer()


async def start_page(command: str, host: str, port: int, max_sessions: int = MAX_SESSIONS) -> Any:
    """The same page and checks, serving `command` in each tab, started in the
    running event loop (`flamme-tui host` serves `flamme-tui join` beside its
    table); its aiohttp runner, to `cleanup()` when done (ImportError without
    textual-serve, OSError if it cannot listen)."""
    server = make_server(command, host, port, max_sessions)
    return await listen(await server._make_app(), host, port)  # (net.guard: a request in time, a few per address)


def serve(host: str = "127.0.0.1", port: int = 8000, max_sessions: int = MAX_SESSIONS) -> int:
    problem = cannot_listen(host, port)
    if problem is not None:  # one line, before the server's banner says it is serving
        print(clean(_("flamme-tui: cannot serve on {host}:{port}: {problem}").format(host=host, port=port, problem=problem),
                    multiline=False), file=sys.stderr)
        return 2
    try:
        server = make_server(app_command(), host, port, max_sessions)
    except ImportError:
        print(_("flamme-tui serve needs textual-serve: pip install textual-serve"), file=sys.stderr)
        return 2
    where = _("this computer only") if host in LOCAL else _("every machine that can reach {host}").format(host=host)
    print(clean(_("flamme-tui: serving on http://{host}:{port} ({where}), at most {n} tabs at once; "
                  "ctrl+c stops the server").format(host=host, port=port, where=where, n=max_sessions),
                multiline=False), flush=True)
    if host in LOCAL:
        print(_("flamme-tui: to let other machines in, use --host 0.0.0.0 (anyone on the network can then play)"),
              flush=True)
    os.environ[SERVED_ENV] = "1"  # each tab's app inherits it (textual-serve copies this environment)
    try:
        asyncio.run(_serve_until_stopped(server, host, port))
    except OSError as exc:  # the port is taken, the address is not this machine's
        print(clean(_("flamme-tui: cannot serve on {host}:{port}: {problem}").format(
            host=host, port=port, problem=exc.strerror or exc), multiline=False), file=sys.stderr)
        return 2
    return 0


async def _serve_until_stopped(server: Any, host: str, port: int) -> None:
    """textual-serve's `serve()`, behind net.guard's listener (its own takes any connection
    for ever): until ctrl+c or SIGTERM, then every tab's app ended."""
    server.initialize_logging()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    listening = await listen(await server._make_app(), host, port)
    try:
        await stop.wait()
    finally:
        await listening.cleanup()
