"""`flamme-tui serve` in a real browser: headless Chromium loads the page, keys
set up a race, and the page shows the privacy curtain.

Chromium is driven over the Chrome DevTools protocol (a websocket, with
aiohttp, which textual-serve depends on).  The page draws the terminal on a
canvas, so what it shows is read from the terminal output it receives over
its own websocket (the DevTools Network events); a screenshot of the page is
kept in the test's temporary folder for a human to look at.
"""

from __future__ import annotations

import asyncio
import base64
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]

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


class DevTools:
    """Just enough of the DevTools protocol: calls, and the page's websocket frames."""

    def __init__(self, ws) -> None:
        self.ws = ws
        self.n = 0
        self.received = bytearray()  # everything the page got from the app

    async def call(self, method: str, **params):
        self.n += 1
        await self.ws.send_json({"id": self.n, "method": method, "params": params})
        while True:
            msg = await asyncio.wait_for(self.ws.receive_json(), 20)
            if msg.get("method") == "Network.webSocketFrameReceived":
                frame = msg["params"]["response"]
                data = frame["payloadData"]
                self.received += base64.b64decode(data) if frame["opcode"] == 2 else data.encode()
            if msg.get("id") == self.n:
                return msg

    async def wait_for(self, text: bytes, timeout: float = 30) -> bool:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if text in self.received:
                return True
            await asyncio.sleep(0.2)
            await self.call("Runtime.evaluate", expression="1")  # collects the frames meanwhile
        return text in self.received

    async def key(self, key: str, code: str, vk: int, modifiers: int = 0, text: str | None = None) -> None:
        down = {"type": "keyDown", "key": key, "code": code, "windowsVirtualKeyCode": vk, "modifiers": modifiers}
        if text:
            down["text"] = text
        await self.call("Input.dispatchKeyEvent", **down)
        await self.call("Input.dispatchKeyEvent", type="keyUp", key=key, code=code, windowsVirtualKeyCode=vk,
                        modifiers=modifiers)


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
    import aiohttp

    port = free_port()
    env = dict(os.environ, FLAMME_TUI_DATA_DIR=str(tmp_path / "data"), FLAMME_TUI_CONFIG_DIR=str(tmp_path / "config"))
    server = subprocess.Popen([sys.executable, "-m", "flamme_tui", "serve", "--port", str(port)], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    profile = tempfile.mkdtemp(prefix="flamme-chromium-", dir=tmp_path)
    browser = None
    try:
        wait_for_port(port)
        browser = subprocess.Popen([CHROMIUM, *FLAGS, f"--user-data-dir={profile}", "--remote-debugging-port=0",
                                    "--window-size=1200,800", "about:blank"],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        active = os.path.join(profile, "DevToolsActivePort")
        for _ in range(300):
            if os.path.exists(active) and "\n" in open(active).read():
                break
            time.sleep(0.1)
        else:
            raise AssertionError("chromium did not open its DevTools port")
        devtools_port = open(active).read().split("\n")[0]
        async with aiohttp.ClientSession() as http:
            targets = await (await http.get(f"http://127.0.0.1:{devtools_port}/json")).json()
            page = next(t for t in targets if t["type"] == "page")
            async with http.ws_connect(page["webSocketDebuggerUrl"], max_msg_size=0) as ws:
                tools = DevTools(ws)
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
                shot = await tools.call("Page.captureScreenshot")
                (tmp_path / "curtain.png").write_bytes(base64.b64decode(shot["result"]["data"]))
                ready = await tools.call("Runtime.evaluate",
                                         expression="document.body.classList.contains('-first-byte')")
                assert ready["result"]["result"]["value"] is True  # the terminal drew what it received
    finally:
        if browser is not None:
            browser.terminate()
            browser.wait(timeout=10)
        server.terminate()
        server.wait(timeout=10)
