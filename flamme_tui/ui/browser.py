"""Headless Chromium, driven over the Chrome DevTools protocol: just enough of it
for the browser tests and the phone screenshot (`python -m flamme_tui.ui.screenshots`).

The protocol is a websocket (aiohttp, which textual-serve depends on).  The
page of `flamme-tui serve` or `host --web-port` draws its terminal on a
canvas, so what it shows is read from the terminal output it receives over
its own websocket (the DevTools Network events, after `Network.enable`).
"""

from __future__ import annotations

import asyncio
import base64
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

# Debian's package is `chromium`; other systems name it chromium-browser
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


class DevTools:
    """Calls to one page, and the frames its websockets received."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.n = 0
        self.received = bytearray()  # everything the page got from the app

    async def call(self, method: str, **params: Any) -> dict[str, Any]:
        self.n += 1
        await self.ws.send_json({"id": self.n, "method": method, "params": params})
        while True:
            msg: dict[str, Any] = await asyncio.wait_for(self.ws.receive_json(), 20)
            if msg.get("method") == "Network.webSocketFrameReceived":
                frame = msg["params"]["response"]
                data = frame["payloadData"]
                self.received += base64.b64decode(data) if frame["opcode"] == 2 else data.encode()
            if msg.get("id") == self.n:
                return msg

    async def wait_for(self, text: bytes, timeout: float = 30) -> bool:
        """Whether `text` reached the page within `timeout` seconds."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if text in self.received:
                return True
            await asyncio.sleep(0.2)
            await self.call("Runtime.evaluate", expression="1")  # collects the frames meanwhile
        return text in self.received

    async def key(self, key: str, code: str, vk: int, modifiers: int = 0, text: str | None = None) -> None:
        """One key pressed and released (a real key event: it arrives in order with the others)."""
        down: dict[str, Any] = {"type": "keyDown", "key": key, "code": code, "windowsVirtualKeyCode": vk,
                                "modifiers": modifiers}
        if text:
            down["text"] = text
        await self.call("Input.dispatchKeyEvent", **down)
        await self.call("Input.dispatchKeyEvent", type="keyUp", key=key, code=code, windowsVirtualKeyCode=vk,
                        modifiers=modifiers)

    async def type(self, text: str) -> None:
        """Letters, digits and dashes typed key by key (not Input.insertText, whose text can
        reach the page after a key pressed later, such as the Enter that sends it)."""
        for ch in text:
            if ch.isdigit():
                await self.key(ch, f"Digit{ch}", ord(ch), text=ch)
            elif ch.isalpha() and ch.isascii():
                await self.key(ch, f"Key{ch.upper()}", ord(ch.upper()), text=ch)
            elif ch == "-":
                await self.key("-", "Minus", 189, text="-")
            else:
                raise ValueError(f"no key for {ch!r}")

    async def screenshot(self) -> bytes:
        """The page as a PNG."""
        shot = await self.call("Page.captureScreenshot", format="png")
        return base64.b64decode(shot["result"]["data"])


@asynccontextmanager
async def chromium(folder: str | Path | None = None) -> AsyncIterator[DevTools]:
    """Headless Chromium's first page, driven over DevTools (its profile in a new
    folder inside `folder`, else in a temporary folder removed afterwards)."""
    import aiohttp

    if CHROMIUM is None:
        raise FileNotFoundError("chromium is not installed")
    own = folder is None
    profile = tempfile.mkdtemp(prefix="flamme-chromium-", dir=None if folder is None else str(folder))
    browser = subprocess.Popen([CHROMIUM, *FLAGS, f"--user-data-dir={profile}", "--remote-debugging-port=0",
                                "--window-size=1200,800", "about:blank"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        active = os.path.join(profile, "DevToolsActivePort")
        for _ in range(300):
            if os.path.exists(active) and "\n" in Path(active).read_text():
                break
            await asyncio.sleep(0.1)
        else:
            raise AssertionError("chromium did not open its DevTools port")
        devtools_port = Path(active).read_text().split("\n")[0]
        async with aiohttp.ClientSession() as http:
            targets = await (await http.get(f"http://127.0.0.1:{devtools_port}/json")).json()
            page = next(t for t in targets if t["type"] == "page")
            async with http.ws_connect(page["webSocketDebuggerUrl"], max_msg_size=0) as ws:
                yield DevTools(ws)
    finally:
        browser.terminate()
        try:
            browser.wait(timeout=10)
        except subprocess.TimeoutExpired:
            browser.kill()
            browser.wait(timeout=10)
        if own:
            shutil.rmtree(profile, ignore_errors=True)
