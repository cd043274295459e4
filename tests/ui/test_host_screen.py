"""The app's "Host a table" (issue 25): from the palette, a race set up as any,
then hosted on 127.0.0.1; a device joins with the code the screen shows and
plays; `b` gives the waiting seat to a bot; the race ends on the devices."""

from __future__ import annotations

import asyncio
import json
import re

from flamme_tui.ui.app import FlammeApp

from .driver import screen_name


def screen_text(app) -> str:
    return "\n".join(str(w.render()) for w in app.screen.query("Static")) + "\n".join(
        app.screen.query_one("#host-log").lines if app.screen.query("#host-log") else [])


async def test_host_a_table_from_the_palette_then_a_device_joins_and_a_seat_goes_to_a_bot(data_dir):
    import aiohttp

    app = FlammeApp(seed=7, autoplay=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"host a table", "enter")
        await pilot.pause()
        assert screen_name(app) == "VariantScreen"
        await pilot.press("enter")  # Classic
        await pilot.pause()
        await pilot.press("enter")  # the first stage
        await pilot.pause()
        assert screen_name(app) == "TeamsScreen"
        await pilot.press("ctrl+s")
        for _ in range(100):
            await pilot.pause(0.02)
            if screen_name(app) == "HostScreen" and "flamme-tui join" in screen_text(app):
                break
        assert screen_name(app) == "HostScreen"
        text = screen_text(app)
        table = app.screen.table
        seats = sorted(table.devices)
        assert len(seats) >= 2
        # the command once, then each seat's row with its code
        address = re.search(r"flamme-tui join (127\.0\.0\.1:\d+) CODE", text).group(1)
        codes = re.findall(r"own device +([A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}) +not yet", text)
        assert len(codes) == len(seats)
        code = codes[0]
        async with aiohttp.ClientSession() as http, http.ws_connect(f"ws://{address}/ws") as ws:
            await ws.send_str(json.dumps({"v": 2, "type": "hello", "code": code, "watch": False}))
            chose = 0
            while chose < 2:  # the first seat makes its first choices from its device
                message = json.loads((await asyncio.wait_for(ws.receive(), 10)).data)
                if message["type"] == "turn":
                    await ws.send_str(json.dumps({"v": 2, "type": "choose", "at": message["at"], "option": 0,
                                                  "action": message["options"][0]["action"]}))
                    chose += 1
            # the others never come: the host's player gives each waiting seat to a bot
            for _ in range(400):
                await pilot.pause(0.02)
                if table.session.over:
                    break
                due = table.device_due()
                if due is not None and due != seats[0]:
                    await pilot.press("b")
                elif due == seats[0]:
                    message = json.loads((await asyncio.wait_for(ws.receive(), 10)).data)
                    if message["type"] == "turn":
                        await ws.send_str(json.dumps({"v": 2, "type": "choose", "at": message["at"], "option": 0,
                                                      "action": message["options"][0]["action"]}))
            assert table.session.over
        await pilot.pause(0.2)
        log = screen_text(app)
        assert "joined" in log and "is played by a bot (easy) from now on" in log and "The race is over." in log
        assert table.session.save_path is not None and table.session.save_path.exists()  # autosaved as any race
        await pilot.press("escape")
        await pilot.pause()
        assert screen_name(app) != "HostScreen"
