"""`flamme-tui serve` in a real browser: headless Chromium loads the page, keys
set up a race, and the page shows the privacy curtain.

Chromium is driven over the Chrome DevTools protocol (a websocket, with
aiohttp, which textual-serve depends on) by flamme_tui/ui/browser.py, which the
phone screenshot uses too.  The page draws the terminal on a
canvas, so what it shows is read from the terminal output it receives over
its own websocket (the DevTools Network events); a screenshot of the page is
kept in the test's temporary folder for a human to look at.
"""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import time

import pytest

from flamme_tui.ui.browser import CHROMIUM, chromium

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (.ci/run installs Debian's "
                                                          "chromium where apt-get can): no browser to test serve in")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port: int, timeout: float = 20) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"flamme-tui serve did not listen on port {port}")


def test_serve_says_it_listens_on_localhost_only():
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "flamme_tui", "serve", "--port", str(port)],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        wait_for_port(port)
        with pytest.raises(OSError):  # not on the machine's other addresses
            for info in socket.getaddrinfo(socket.gethostname(), port, socket.AF_INET):
                addr = info[4][0]
                if not addr.startswith("127."):
                    socket.create_connection((addr, port), timeout=0.5).close()
                    break
            else:
                raise OSError("no other address to try")
    finally:
        server.terminate()
        out = server.communicate(timeout=10)[0]
    assert f"serving on http://127.0.0.1:{port} (this computer only" in out


async def test_a_race_starts_in_headless_chromium(tmp_path):
    port = free_port()
    env = dict(os.environ, FLAMME_TUI_DATA_DIR=str(tmp_path / "data"), FLAMME_TUI_CONFIG_DIR=str(tmp_path / "config"))
    server = subprocess.Popen([sys.executable, "-m", "flamme_tui", "serve", "--port", str(port)], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for_port(port)
        async with chromium(tmp_path) as tools:
            await tools.call("Network.enable")
            await tools.call("Page.navigate", url=f"http://127.0.0.1:{port}/")
            assert await tools.wait_for(b"New race"), "the title menu never reached the page"
            await tools.call("Runtime.evaluate", expression="document.querySelector('.xterm-helper-textarea').focus()")
            for _ in range(3):  # New race, Classic, the first stage
                await tools.key("Enter", "Enter", 13, text="\r")
                await asyncio.sleep(0.6)
            assert b"Pass to" not in tools.received  # Enter, Enter, Enter never starts a race
            await tools.key("s", "KeyS", 83, modifiers=2)  # ctrl+s: start the race
            assert await tools.wait_for(b"Pass to"), "the curtain never reached the page"
            (tmp_path / "curtain.png").write_bytes(await tools.screenshot())
            ready = await tools.call("Runtime.evaluate",
                                     expression="document.body.classList.contains('-first-byte')")
            assert ready["result"]["result"]["value"] is True  # the terminal drew what it received
    finally:
        server.terminate()
        server.wait(timeout=10)


ANOTHER_SITE = """<!doctype html><title>another site</title><script>
const ws = new WebSocket("ws://127.0.0.1:PORT/ws?width=80&height=24");
ws.onopen = () => { document.title = "open"; ws.send(JSON.stringify(["stdin", "q"])); };
ws.onclose = () => { if (document.title !== "open") document.title = "refused"; };
</script>"""


async def test_a_page_of_another_site_cannot_drive_the_app_in_chromium(tmp_path):
    """A page served from another port (another site to the browser) opens a
    WebSocket to `serve`: the browser sends its Origin, the server refuses it.
    The server's own page, in the same browser, still opens its session."""
    from aiohttp import web

    port = free_port()
    env = dict(os.environ, FLAMME_TUI_DATA_DIR=str(tmp_path / "data"), FLAMME_TUI_CONFIG_DIR=str(tmp_path / "config"))
    server = subprocess.Popen([sys.executable, "-m", "flamme_tui", "serve", "--port", str(port)], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    async def another_site(request: web.Request) -> web.Response:
        return web.Response(text=ANOTHER_SITE.replace("PORT", str(port)), content_type="text/html")

    other = web.Application()
    other.router.add_get("/", another_site)
    runner = web.AppRunner(other)
    await runner.setup()
    other_port = free_port()
    await web.TCPSite(runner, "127.0.0.1", other_port).start()
    try:
        wait_for_port(port)
        async with chromium(tmp_path) as tools:
            await tools.call("Network.enable")
            await tools.call("Page.navigate", url=f"http://127.0.0.1:{other_port}/")
            title = ""
            end = time.monotonic() + 30
            while title not in ("open", "refused") and time.monotonic() < end:  # the page loads, then its socket
                await asyncio.sleep(0.1)
                title = (await tools.call("Runtime.evaluate", expression="document.title"))["result"]["result"]["value"]
            assert title == "refused", f"a page of another site opened a session ({title})"
            assert b"New race" not in tools.received
            await tools.call("Page.navigate", url=f"http://127.0.0.1:{port}/")  # the server's own page: let in
            assert await tools.wait_for(b"New race"), "the server's own page was refused"
    finally:
        await runner.cleanup()
        server.terminate()
        server.wait(timeout=10)
