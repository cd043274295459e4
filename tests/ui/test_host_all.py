"""A whole hosted race with every kind of device at once (issue 25, its first "Done when").

`flamme-tui host` runs as a player starts it (the CLI's own `main`, in a
thread of its own: its own event loop, its port on 127.0.0.1, its autosave,
its page for browsers), with five seats:

- Red on the host's keyboard (`--here 1`: the join screen in the host's
  terminal, keys pressed by Pilot),
- Blue and Green on two terminal clients (`join` apps, Pilot): Blue by number
  keys, Green by taps (clicks) on the options, arrows and Enter,
- Black in headless Chromium at phone size (the `--web-port` page runs
  `flamme-tui join` in the tab): the code typed, then every one of its turns
  played by keys,
- White a bot,

and one watcher (a `join --watch` app).  Every seat chooses at the same time,
each at its own pace.  The race runs to the podium; every screen ends on it,
and the host's log, its choices in the order they came, replays to the same
race and ranking.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from pathlib import Path

import pytest

from flamme_tui import saves
from flamme_tui.cli import host as cli_host
from flamme_tui.cli import main
from flamme_tui.net.host import HostServer
from flamme_tui.play import narrator
from flamme_tui.play.session import Session
from flamme_tui.ui.browser import CHROMIUM, chromium
from flamme_tui.ui.join import JoinApp

from .test_serve import free_port

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed: no browser to test in")
ROOT = Path(__file__).resolve().parent.parent.parent
HERE, BLUE, GREEN, BROWSER, BOT = range(5)
SECONDS = 150  # for the whole race at most: every wait below is on a condition, bounded by this


def screen_text(app) -> str:
    return "\n".join(str(w.render()) for w in app.query("Static"))


async def until(condition, what: str, deadline: float) -> None:
    while not condition():
        assert time.monotonic() < deadline, f"never: {what}"
        await asyncio.sleep(0.05)


async def play_terminal(app: JoinApp, by_taps: bool, deadline: float) -> str:
    """A `join` app on a terminal, playing every turn of its seat until the podium."""
    app.bell = lambda: None
    tapped: list[int] = []  # the turns a tap was tried on
    async with app.run_test(size=(80, 24)) as pilot:
        while not app.table.over:
            assert time.monotonic() < deadline, "the race never ended on a terminal"
            await pilot.pause(0.02)
            turn = app.table.turn
            if turn is None:
                continue
            if app.seat_screen.reviewing():  # the round's last card, held: sent by a tap on Send, or its 1
                if by_taps:
                    await pilot.click("#hand", offset=(4, 1 + app.first_option))
                else:
                    await pilot.press("1")
                continue
            k = turn.at % len(turn.options)
            if by_taps and k < 6 and turn.at not in tapped:
                # a tap on the option's line (the hand panel: its border, title, hand, then the options)
                tapped.append(turn.at)
                await pilot.click("#hand", offset=(4, 1 + app.first_option + k))
            elif by_taps:  # (the arrows and Enter, and if a tap did nothing, as a player would then)
                await pilot.press(*["down"] * k, "enter")
            else:
                await pilot.press(str(k + 1) if k < 9 else "1")
        await pilot.pause(0.1)
        if by_taps:
            assert len(tapped) >= 3, tapped  # most of its turns were played by taps
        return screen_text(app)


@pytest.mark.slow  # 12 to 30 s here: a browser, four apps and the host
async def test_a_whole_race_hosted_with_two_terminals_a_phone_browser_the_hosts_seat_a_bot_and_a_watcher(
        tmp_path, monkeypatch, capsys, fast_pilot):
    monkeypatch.setenv("PYTHONPATH", str(ROOT))  # the tabs' `flamme-tui join` run these sources
    stage = tmp_path / "sprint.yaml"
    stage.write_text("name: Sprint\ntiles: abcu\n")  # a short stage: three or four rounds
    saves_dir = tmp_path / "saves"
    port, web_port = free_port(), free_port()
    deadline = time.monotonic() + SECONDS
    leave = threading.Event()  # the host's player leaves its screen: every screen showed the podium (or a failure)
    here: dict[str, object] = {}

    async def the_hosts_terminal(app: JoinApp) -> None:  # JoinApp.run_async in `host --here`
        app.bell = lambda: None
        async with app.run_test(size=(80, 24)) as pilot:
            while not app.table.over and not leave.is_set() and time.monotonic() < deadline:
                await pilot.pause(0.02)
                if app.table.turn is not None:
                    await pilot.press("1")
            await pilot.pause(0.1)
            here["over"], here["ranking"], here["screen"] = app.table.over, app.table.ranking(), screen_text(app)
            await asyncio.to_thread(leave.wait, max(1.0, deadline - time.monotonic()))

    monkeypatch.setattr(JoinApp, "run_async", the_hosts_terminal)
    notes: list[str] = []  # what the host said on its seat's screen (joined, away, waiting...): told on a failure
    monkeypatch.setattr(JoinApp, "host_note", lambda app, line, real=JoinApp.host_note: (notes.append(line), real(app, line)))
    servers = []  # the host's server and its event loop: a failed test ends hosting as `quit` would
    start = HostServer.start

    async def started(server: HostServer) -> int:
        servers.append((server, asyncio.get_running_loop()))
        return await start(server)

    monkeypatch.setattr(HostServer, "start", started)
    said: list[str] = []  # what the host prints (its own `say`; Textual's apps take sys.stdout meanwhile)
    monkeypatch.setattr(cli_host, "say", lambda line, real=cli_host.say: (said.append(line), real(line)))
    host = asyncio.ensure_future(asyncio.to_thread(main, [
        "host", "--lang", "en", "--teams", "5", "--stage", str(stage), "--seed", "3",
        "--bots", "device,device,device,device,easy", "--port", str(port), "--web-port", str(web_port),
        "--here", str(HERE + 1), "--saves", str(saves_dir)]))
    apps: list[asyncio.Future] = []
    try:
        # the codes the host keeps beside its race file (as it prints them)
        await until(lambda: host.done() or any(saves_dir.glob("*.seats")), "the host's seats file", deadline)
        assert not host.done(), capsys.readouterr()
        seats_file = next(saves_dir.glob("*.seats"))
        facts = json.loads(seats_file.read_text())
        codes, room = {int(s): c for s, c in facts["seats"].items()}, facts["room"]
        assert sorted(codes) == [HERE, BLUE, GREEN, BROWSER]
        address = f"127.0.0.1:{port}"

        watcher = JoinApp(address, room, watch=True)
        blue, green = JoinApp(address, codes[BLUE]), JoinApp(address, codes[GREEN])
        apps = [asyncio.ensure_future(play_terminal(blue, False, deadline)),
                asyncio.ensure_future(play_terminal(green, True, deadline)),
                asyncio.ensure_future(play_terminal(watcher, False, deadline))]

        async with chromium(tmp_path) as tools:
            await tools.call("Network.enable")
            await tools.call("Emulation.setDeviceMetricsOverride", width=412, height=915, deviceScaleFactor=2,
                             mobile=True)
            await until(lambda: watcher.table.setup is not None, "the watcher joined", deadline)
            await tools.call("Page.navigate", url=f"http://127.0.0.1:{web_port}/?fontsize=12")
            assert await tools.wait_for(b"Type the code", 60), "the code prompt never reached the page"
            await tools.call("Runtime.evaluate", expression="document.querySelector('.xterm-helper-textarea').focus()")
            # typed key by key, as a thumb does (a text inserted at once reaches the terminal in the
            # page on a later tick, and could come after an Enter sent at once)
            await tools.type(codes[BROWSER])
            await tools.key("Enter", "Enter", 13, text="\r")
            await until(lambda: BROWSER in servers[0][0].seated, "the phone's seat joined", deadline)
            # the phone's seat plays each of its turns by keys: when the table waits for it (as the
            # watcher sees: among the seats choosing at once), a number, or arrows and Enter; again if
            # nothing came of it (the turn may not have reached the tab yet: a key with no turn does nothing)
            pressed: tuple[int, float] = (-1, 0.0)
            while not watcher.table.over:
                assert time.monotonic() < deadline, (f"the race never ended: {watcher.table.status()}; the host said "
                                                     f"{notes[-12:]}; the phone's last bytes {tools.received[-600:]!r}")
                assert not host.done(), capsys.readouterr()
                await asyncio.sleep(0.05)
                t = watcher.table
                if BROWSER not in t.waiting or (t.at == pressed[0] and time.monotonic() - pressed[1] < 1.5):
                    continue
                # (again: 1, which also sends a last card held to be confirmed, "Send" being its first line)
                if t.at % 2 or t.at == pressed[0]:
                    await tools.key("1", "Digit1", 49, text="1")
                else:
                    await tools.key("ArrowDown", "ArrowDown", 40)
                    await tools.key("Enter", "Enter", 13, text="\r")
                pressed = (t.at, time.monotonic())
            assert await tools.wait_for(b"The race is over", 60), "the podium never reached the phone"
            shot = await tools.call("Page.captureScreenshot")
            (tmp_path / "phone.png").write_bytes(__import__("base64").b64decode(shot["result"]["data"]))
        blue_screen, green_screen, watcher_screen = await asyncio.wait_for(asyncio.gather(*apps), 60)
        leave.set()
        assert await asyncio.wait_for(host, 60) == 0
    finally:
        leave.set()
        for app in apps:
            app.cancel()
        if not host.done():  # a failure above: hosting ends (its thread must not outlive the test)
            for server, loop in servers:
                loop.call_soon_threadsafe(server.done.set)
            await asyncio.wait([host], timeout=30)
    out = "\n".join(said)

    # the host's log, as its autosave holds it
    race_file = next(p for p in saves_dir.iterdir() if p.suffix == ".json")
    played = saves.load(race_file)
    game = played.game
    assert played.over
    seat_of = {r.id: r.seat for r in game.riders}
    by_seat = [sum(1 for e in played.entries if seat_of[e.rider] == s) for s in range(5)]
    assert all(n >= 6 for n in by_seat), by_seat  # every seat chose, each on its own device (or the bot)

    # the seats chose at once: the log holds their choices in the order they came, not in seat order
    rounds: dict[int, list[int]] = {}
    again = Session(played.setup, played.seed, bots={BOT: "easy"})
    for entry in played.entries:
        rounds.setdefault(again.game.round, []).append(seat_of[entry.rider])
        again.apply(entry)
    assert any(seats != sorted(seats) for seats in rounds.values()), rounds
    # the same actions again from the set-up and seed: the same race and the same podium
    same = Session(played.setup, played.seed, bots={BOT: "easy"}, actions=[str(e) for e in played.entries])
    assert same.game.ranking() == game.ranking() and same.game.winner == game.winner
    lines = [narrator.ranking_line(same.game, place, i) for place, i in enumerate(same.game.ranking(), 1)]
    assert "\n".join(lines) in out  # the host printed that race's ranking (the devices' words)

    # every screen ended on that podium; the watcher never held a hand
    ranking = list(game.ranking())
    assert here["over"] and here["ranking"] == ranking
    for app in (blue, green, watcher):
        assert app.table.over and app.table.ranking() == ranking
    for text in (here["screen"], blue_screen, green_screen, watcher_screen):
        assert "The race is over" in text
    assert "hand:" not in watcher_screen and watcher.table.seat is None
