"""The app's "Host a table" (issue 25): from the palette, a race set up as any,
then hosted on 127.0.0.1; a device joins with the code the screen shows and
plays; `b` gives the waiting seat to a bot; the race ends on the devices."""

from __future__ import annotations

import asyncio
import json
import re

from flamme_tui.net.wire import PROTOCOL as V
from flamme_tui.ui.app import FlammeApp

from .driver import screen_name


def screen_text(app) -> str:
    return "\n".join(str(w.render()) for w in app.screen.query("Static")) + "\n".join(
        app.screen.query_one("#host-log").lines if app.screen.query("#host-log") else [])


async def host_a_table(pilot, app) -> None:
    """The palette's Host a table, Classic on the first stage, the teams as offered: the host screen."""
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


async def test_host_a_table_from_the_palette_then_a_device_joins_and_a_seat_goes_to_a_bot(data_dir):
    import aiohttp

    app = FlammeApp(seed=7, autoplay=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await host_a_table(pilot, app)
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
            await ws.send_str(json.dumps({"v": V, "type": "hello", "code": code, "watch": False}))
            answered: set[int] = set()  # the turns the device answered (each is sent again with every table)

            async def answer_next() -> None:
                message = json.loads((await asyncio.wait_for(ws.receive(), 10)).data)
                if message["type"] == "turn" and message["at"] not in answered:
                    answered.add(message["at"])
                    await ws.send_str(json.dumps({"v": V, "type": "choose", "at": message["at"], "option": 0,
                                                  "action": message["options"][0]["action"]}))

            while len(answered) < 2:  # the first seat makes its first choices from its device
                await answer_next()
            # the others never come: the host's player gives each seat the table waits for to a bot (with
            # several, the screen asks which: the first offered, one that never came)
            asked = 0
            for _ in range(400):
                await pilot.pause(0.02)
                if table.session.over:
                    break
                others = [s for s in table.devices_waiting() if s != seats[0]]
                if screen_name(app) == "PickSeat":
                    assert "Which seat does a bot play from now on?" in screen_text(app)
                    asked += 1
                    await pilot.press("enter")
                elif others:
                    await pilot.press("b")
                elif seats[0] in table.devices_waiting():
                    await answer_next()
            assert table.session.over
            assert asked >= 1  # (round 1: the device and the two others chose at once)
        await pilot.pause(0.2)
        log = screen_text(app)
        assert "joined" in log and "is played by a bot (easy) from now on" in log and "The race is over." in log
        assert table.session.save_path is not None and table.session.save_path.exists()  # autosaved as any race
        await pilot.press("escape")
        await pilot.pause()
        assert screen_name(app) != "HostScreen"


async def test_the_hosts_screen_shows_the_race_as_a_watcher_sees_it(data_dir):
    """The host's screen showed the codes and a log, never the race: `w` opens the public
    table (joined with the room code, as a watcher: no hand) and q comes back."""
    from flamme_tui.ui.join import SeatScreen
    from flamme_tui.words import team_name

    app = FlammeApp(seed=7, autoplay=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await host_a_table(pilot, app)
        host = app.screen
        assert ("w", "watch") in host.key_list()
        await pilot.press("w")
        for _ in range(200):
            await pilot.pause(0.02)
            head = str(app.screen.query_one("#head").render()) if isinstance(app.screen, SeatScreen) else ""
            if "watching" in head:
                break
        assert isinstance(app.screen, SeatScreen) and app.screen.watching
        assert "watching" in head, head
        boards = str(app.screen.query_one("#boards").render())
        setup = host.table.session.setup
        assert all(team_name(setup, s) in boards for s in range(len(setup.teams))), boards  # the public table
        await pilot.press("q")
        for _ in range(100):
            await pilot.pause(0.02)
            if app.screen is host:
                break
        assert app.screen is host


async def test_the_host_s_log_keeps_its_latest_line_in_view(data_dir):
    """A device that dropped and came back twice: the log, grown past its height while the
    seats' table above it grew, stopped following; the host read "Orange is away" with
    Orange back, the later lines hidden below."""
    app = FlammeApp(seed=7, autoplay=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await host_a_table(pilot, app)
        screen = app.screen
        seat = sorted(screen.table.devices)[0]
        log = screen.query_one("#host-log")
        for k in range(12):
            screen.tell("joined" if k % 2 == 0 else "away", seat)
            await pilot.pause()
        await pilot.pause()
        assert log.max_scroll_y > 0 and log.is_vertical_scroll_end, (log.scroll_y, log.max_scroll_y)
        assert log.lines[-1] == screen.last
