"""`flamme-tui serve` trusts nobody: only its own page may open a session,
sessions are capped, terminal sizes clamped, messages bounded and checked,
and a browser player is told no absolute path, pid or host name of the
server.  A real server in a subprocess, driven with aiohttp's WebSocket
client (the browser test is in test_serve.py)."""

from __future__ import annotations

import asyncio
import json
import os
import re
import socket
import subprocess
import sys
import time
from contextlib import asynccontextmanager

import aiohttp
import pytest

from flamme_tui.ui.serve import MAX_COLUMNS, MAX_ROWS, MIN_COLUMNS, Bucket, clamp_size, own_names, refusal

ANSI = re.compile(rb"\x1b(\[[0-9;?$]*[ -/]*[@-~]|\][^\x07]*\x07|[()][0-9A-Za-z])")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@asynccontextmanager
async def server(tmp_path, *args: str, env: dict[str, str] | None = None):
    port = free_port()
    environment = dict(os.environ, FLAMME_TUI_DATA_DIR=str(tmp_path / "data"),
                       FLAMME_TUI_CONFIG_DIR=str(tmp_path / "config"), **(env or {}))
    process = subprocess.Popen([sys.executable, "-m", "flamme_tui", "serve", "--port", str(port), *args],
                               env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        end = time.monotonic() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                assert time.monotonic() < end, "flamme-tui serve did not listen"
                await asyncio.sleep(0.1)
        async with aiohttp.ClientSession() as http:
            yield http, port
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


class Tab:
    """A browser tab's WebSocket: what it sends, and every byte it got."""

    def __init__(self, ws) -> None:
        self.ws = ws
        self.received = bytearray()

    async def collect(self, seconds: float, until: bytes | None = None) -> bool:
        """Read for `seconds` (or until `until` is in the text shown); False if the socket closed."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if until is not None and (until in self.text() or until.decode() in self.words()):
                return True
            try:
                msg = await asyncio.wait_for(self.ws.receive(), 0.3)
            except TimeoutError:
                continue
            if msg.type == aiohttp.WSMsgType.BINARY:
                self.received += msg.data
            elif msg.type == aiohttp.WSMsgType.TEXT:
                self.received += msg.data.encode()
            else:
                return False
        return until is None

    def text(self) -> bytes:
        return ANSI.sub(b"", bytes(self.received))

    def words(self) -> str:
        """The text shown, its words in order (a message may wrap, between borders)."""
        moved = re.sub(rb"\x1b\[\d*;?\d*H", b"\n", bytes(self.received))
        text = ANSI.sub(b"", moved).decode("utf-8", "replace")
        return " ".join(re.sub(r"[^\w./~:()'-]", " ", text).split())

    def widest_line(self) -> int:
        """The longest run of cells drawn on one line (a cursor move starts another)."""
        moved = re.sub(rb"\x1b\[\d*;?\d*H", b"\n", bytes(self.received))
        return max(len(line.decode("utf-8", "replace")) for line in ANSI.sub(b"", moved).split(b"\n"))

    def lowest_row(self) -> int:
        return max((int(row) for row in re.findall(rb"\x1b\[(\d+);\d+H", bytes(self.received))), default=0)

    async def keys(self, *keys: str) -> None:
        for key in keys:
            await self.ws.send_json(["stdin", key])
            await asyncio.sleep(0.3)


def connect(http, port: int, origin: str | None = "own", query: str = "", host: str | None = None):
    headers = {}
    if origin == "own":
        origin = f"http://127.0.0.1:{port}"
    if origin is not None:
        headers["Origin"] = origin
    if host is not None:
        headers["Host"] = host
    return http.ws_connect(f"http://127.0.0.1:{port}/ws{query}", headers=headers, max_msg_size=0)


async def a_tab_opens(http, port: int, within: float, why: str) -> None:
    """A new tab gets a place and its title menu within `within` seconds (refused until then)."""
    end = time.monotonic() + within
    while True:
        try:
            async with connect(http, port) as again:
                assert await Tab(again).collect(30, until=b"New race")
                return
        except aiohttp.WSServerHandshakeError:
            assert time.monotonic() < end, why
            await asyncio.sleep(0.3)


def test_only_the_page_of_the_server_itself_is_let_in():
    names = own_names("127.0.0.1")
    assert refusal("http://127.0.0.1:8000", "127.0.0.1:8000", names) is None
    assert refusal("http://localhost:8000", "localhost:8000", names) is None
    assert refusal("http://[::1]:8000", "[::1]:8000", names) is None
    assert refusal(None, "127.0.0.1:8000", names)  # no Origin: not from a browser page
    assert refusal("", "127.0.0.1:8000", names)
    assert refusal("null", "127.0.0.1:8000", names)  # a sandboxed page, a file
    assert refusal("http://evil.example", "127.0.0.1:8000", names)
    assert refusal("http://127.0.0.1:9000", "127.0.0.1:8000", names)  # another port is another site
    assert refusal("http://localhost:8000", "127.0.0.1:8000", names)
    # a site whose name was pointed at this machine (DNS rebinding): its Origin and Host agree, its name is not ours
    assert refusal("http://evil.example:8000", "evil.example:8000", names)
    assert refusal("http://127.0.0.1:8000", None, names)
    assert refusal("http://[::1:8000", "[::1:8000", names)


def test_a_terminal_size_is_clamped_and_a_malformed_one_refused():
    assert clamp_size(80, 24) == (80, 24)
    assert clamp_size(10**9, 10**9) == (MAX_COLUMNS, MAX_ROWS)
    assert clamp_size(-5, 0)[0] == MIN_COLUMNS
    for width, height in (("80", 24), (80.0, 24), (True, 24), (None, None), ([80], 24)):
        assert clamp_size(width, height) is None


def test_a_flood_of_messages_is_cut_to_the_rate():
    bucket = Bucket(rate=10, burst=5)
    assert [bucket.take() for _ in range(7)] == [True] * 5 + [False] * 2
    bucket.last -= 0.5  # half a second later: five more
    assert [bucket.take() for _ in range(6)] == [True] * 5 + [False]


def test_keys_are_counted_in_bytes_too():
    bucket = Bucket(rate=2048, burst=16384)
    assert bucket.take(6000) and bucket.take(6000) and not bucket.take(6000)  # a paste, another, then too much
    assert bucket.take(3)  # an arrow key still goes through


async def test_a_tab_whose_app_takes_nothing_more_is_closed(monkeypatch):
    """A tab's app whose pipe is full (it works through keys) blocked the page's handler for
    ever, so the tab was never ended: a send waits TAB_SECONDS at most."""
    from aiohttp import WSMsgType

    from flamme_tui.ui import serve

    monkeypatch.setattr(serve, "TAB_SECONDS", 0.2)
    server = serve.make_server("true", "127.0.0.1", 0)

    class Message:
        type = WSMsgType.TEXT

        def __init__(self, data: str) -> None:
            self.data = data

    class Page:  # a page that sends a key, a size, then a key again
        def __aiter__(self):
            async def sent():
                for data in (["stdin", "x"], ["resize", {"width": 90, "height": 30}], ["stdin", "y"]):
                    yield Message(json.dumps(data))
            return sent()

    taken = []

    class StuckApp:
        async def send_bytes(self, data: bytes) -> None:
            taken.append(data)
            await asyncio.Event().wait()  # never read

        async def set_terminal_size(self, width: int, height: int) -> None:
            taken.append((width, height))

    start = time.monotonic()
    await asyncio.wait_for(server._process_messages(Page(), StuckApp()), 5)
    assert taken == [b"x"] and time.monotonic() - start < 2  # the first key stuck: the tab ended there


async def test_a_flood_of_keys_then_a_closed_tab_leaves_no_app_behind(tmp_path):
    """459 messages of 2,000 arrow keys each, under the message rate, then the tab closed:
    its app went on working through 900,000 keys (1.7 GB) for minutes, holding the place."""
    async with server(tmp_path, "--max-sessions", "1") as (http, port):
        async with connect(http, port) as ws:
            assert await Tab(ws).collect(30, until=b"New race")
            for _ in range(300):
                await ws.send_json(["stdin", "\x1b[A" * 2000])
        # TAB_SECONDS to take keys, TAB_SECONDS to quit: its place is free again
        await a_tab_opens(http, port, within=20, why="the flooded tab's app still holds its place")


async def test_a_websocket_from_another_page_is_refused(tmp_path):
    async with server(tmp_path) as (http, port):
        for origin in (None, "http://evil.example", f"http://127.0.0.1:{free_port()}", f"http://localhost:{port}"):
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                async with connect(http, port, origin=origin):
                    pass
            assert refused.value.status == 403, origin
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:  # DNS rebinding
            async with connect(http, port, origin=f"http://evil.example:{port}", host=f"evil.example:{port}"):
                pass
        assert refused.value.status == 403
        page = await http.get(f"http://127.0.0.1:{port}/", headers={"Host": f"evil.example:{port}"})
        assert page.status == 421
        page = await http.get(f"http://127.0.0.1:{port}/")
        assert page.status == 200 and f"ws://127.0.0.1:{port}/ws" in await page.text()
        async with connect(http, port) as ws:  # the server's own page
            assert await Tab(ws).collect(30, until=b"New race")


async def test_sessions_are_capped(tmp_path):
    async with server(tmp_path, "--max-sessions", "2") as (http, port):
        async with connect(http, port) as first, connect(http, port) as second:
            assert await Tab(first).collect(30, until=b"New race")
            assert await Tab(second).collect(30, until=b"New race")
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                async with connect(http, port):
                    pass
            assert refused.value.status == 503
        # the two tabs closed: their places are free again
        await a_tab_opens(http, port, within=20, why="a closed tab's place was never freed")


async def test_a_huge_terminal_is_clamped(tmp_path):
    async with server(tmp_path) as (http, port):
        async with connect(http, port, query="?width=1000&height=600") as ws:
            tab = Tab(ws)
            assert await tab.collect(30, until=b"New race")
            await tab.collect(1)
            assert 100 < tab.widest_line() <= MAX_COLUMNS and tab.lowest_row() <= MAX_ROWS
            tab.received.clear()
            await ws.send_json(["resize", {"width": 10**6, "height": 100}])  # 10**6 x 10**6 was a 401 MB frame
            assert await tab.collect(30, until=b"New race")  # drawn again, at the clamped size
            await tab.collect(1)
            assert 100 < tab.widest_line() <= MAX_COLUMNS and 50 < tab.lowest_row() <= 100
            assert len(tab.received) < 2_000_000
            tab.received.clear()
            await ws.send_json(["resize", {"width": 10**6, "height": 10**6}])
            assert await tab.collect(30, until=b"New race")
            await tab.collect(1)
            assert tab.widest_line() <= MAX_COLUMNS and tab.lowest_row() <= MAX_ROWS


async def test_malformed_messages_end_nothing(tmp_path):
    async with server(tmp_path) as (http, port):
        async with connect(http, port) as ws:
            tab = Tab(ws)
            assert await tab.collect(30, until=b"New race")
            for junk in (["resize", {"width": "wide", "height": None}], ["resize", {"width": 1e308, "height": 2}],
                         ["resize"], ["resize", "80x24"], ["resize", {}], [], {}, "text", [7], ["stdin", 5],
                         ["ping", "x" * 10_000], ["no such thing", 1]):
                await ws.send_str(json.dumps(junk))
            await ws.send_str("not json at all {")
            await ws.send_json(["resize", {"width": 100, "height": 30}])
            tab.received.clear()
            assert await tab.collect(10, until=b"New race")  # the app answers, drawn at the new size
            await tab.collect(1)
            assert tab.widest_line() == 100
            await ws.send_json(["ping", "p1"])
            assert await tab.collect(10, until=b'["pong", "p1"]') or b"pong" in tab.received


async def test_a_message_too_big_is_refused(tmp_path):
    async with server(tmp_path) as (http, port):
        async with connect(http, port) as ws:
            tab = Tab(ws)
            assert await tab.collect(30, until=b"New race")
            await ws.send_json(["stdin", "x" * 200_000])
            assert not await tab.collect(10), "a 200 KB message was taken"
            assert ws.close_code == aiohttp.WSCloseCode.MESSAGE_TOO_BIG


async def test_a_browser_player_sees_no_path_pid_or_host_name(tmp_path):
    """The race locked by another flamme-tui (this test's process): the message
    says so without the server's path, pid or host name; the settings screen
    names its file without the server's path."""
    from flamme_tui import saves
    from flamme_tui.ui.scenarios import advance, choices

    folder = tmp_path / "data" / "saves"
    folder.mkdir(parents=True)
    running = choices("classic", 3, seed=5).session()
    advance(running, 4)
    path = saves.save(running, folder / "running.json")
    lock = saves.RaceLock.take(path)  # as another flamme-tui holding it would
    try:
        async with server(tmp_path) as (http, port):
            async with connect(http, port) as ws:
                tab = Tab(ws)
                assert await tab.collect(30, until=b"Resume")
                await tab.collect(1)
                await tab.keys("\x1b[H", "\r")  # home: the top entry, Resume
                # (a message may come in pieces: the screen redraws only the cells that change)
                assert await tab.collect(15, until=b"close it there first"), tab.text()[-2000:]
                await tab.keys("\x10")  # ctrl+p: the palette
                await tab.keys(*"Settings", "\r")
                assert await tab.collect(15, until=b"File:"), tab.text()[-2000:]
                await tab.collect(1)
    finally:
        lock.release()
    text, shown = tab.text().decode("utf-8", "replace"), tab.words()
    assert "running.jsonisopeninanotherflamme-tui:closeittherefirst" in "".join(shown.split())
    assert "File: settings.json" in shown
    assert str(tmp_path) not in text and "/tmp" not in shown
    assert "pid" not in shown.lower().split() and str(os.getpid()) not in shown.split()
    assert socket.gethostname() not in text
