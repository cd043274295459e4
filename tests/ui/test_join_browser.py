"""A seat of a hosted race on a phone-sized browser (issue 25): `flamme-tui host
--web-port` serves `flamme-tui join` per tab; headless Chromium opens the page
at 412x915 CSS pixels, types its seat's code, and plays its first choices by
keys and by a tap, while the other seat plays from a terminal client.  The
choices reach the host's log."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from flamme_tui.net.wire import PROTOCOL as V
from flamme_tui.ui.browser import CHROMIUM, chromium

from .test_serve import free_port, wait_for_port

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed: no browser to test in")
ROOT = Path(__file__).resolve().parent.parent.parent


async def test_a_phone_sized_browser_joins_by_its_code_and_plays(tmp_path):
    import aiohttp

    port, web_port = free_port(), free_port()
    env = dict(os.environ, PYTHONPATH=str(ROOT), FLAMME_TUI_DATA_DIR=str(tmp_path / "data"),
               FLAMME_TUI_CONFIG_DIR=str(tmp_path / "config"))
    host = subprocess.Popen([sys.executable, "-m", "flamme_tui", "host", "--lang", "en", "--teams", "2", "--port",
                             str(port), "--web-port", str(web_port), "--saves", str(tmp_path / "saves")],
                            cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        codes = {}
        save = ""
        while len(codes) < 2 or not save:
            line = host.stdout.readline()
            assert line, "the host ended"
            if line.startswith("  Red: ") or line.startswith("  Blue: "):
                codes[line.split(":")[0].strip()] = line.split()[-1]
            if "saved in" in line:
                save = line.split("saved in ")[1].strip()
        wait_for_port(web_port)
        async with aiohttp.ClientSession() as http, http.ws_connect(f"ws://127.0.0.1:{port}/ws") as blue:
            await blue.send_str(json.dumps({"v": V, "type": "hello", "code": codes["Blue"], "watch": False}))

            async def play_blue():
                async for msg in blue:
                    message = json.loads(msg.data)
                    if message["type"] == "turn":
                        await blue.send_str(json.dumps({"v": V, "type": "choose", "at": message["at"], "option": 0,
                                                        "action": message["options"][0]["action"]}))

            blue_task = asyncio.ensure_future(play_blue())
            async with chromium(tmp_path) as tools:
                await tools.call("Network.enable")
                await tools.call("Emulation.setDeviceMetricsOverride", width=412, height=915, deviceScaleFactor=2,
                                 mobile=True)
                await tools.call("Page.navigate", url=f"http://127.0.0.1:{web_port}/?fontsize=12")
                assert await tools.wait_for(b"Type the code"), "the code prompt never reached the page"
                await tools.call("Runtime.evaluate",
                                 expression="document.querySelector('.xterm-helper-textarea').focus()")
                await tools.type(codes["Red"])  # key by key: an inserted text could come after the Enter
                await tools.key("Enter", "Enter", 13, text="\r")
                assert await tools.wait_for(b"Your turn"), "the seat's turn never reached the page"
                await tools.key("1", "Digit1", 49, text="1")  # who draws first, by a key
                assert await tools.wait_for(b"pick a card"), "the hand never reached the page"
                shot = await tools.call("Page.captureScreenshot")
                (tmp_path / "phone.png").write_bytes(__import__("base64").b64decode(shot["result"]["data"]))
                deadline = time.monotonic() + 20
                log = Path(save)
                while time.monotonic() < deadline:
                    if "draw red" in log.read_text():
                        break
                    await asyncio.sleep(0.2)
                assert "draw red" in log.read_text()  # the browser's choice is in the host's log
            blue_task.cancel()
    finally:
        try:  # `quit`, as its player would: the page's tabs are closed with it (SIGKILL would leave them running)
            host.stdin.write("quit\n")
            host.stdin.flush()
            host.wait(20)
        except (OSError, subprocess.TimeoutExpired):
            host.kill()
            host.wait(10)
