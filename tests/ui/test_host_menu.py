"""Host a table from the title menu (issue 25), as a new player would: the entry,
the teams screen's Own device / Here, the host screen at 80x24 with the codes,
a device joining, the host's own seat played here (a curtain between two such
seats), and the host screen's snapshot (fixed codes and port)."""

from __future__ import annotations

import asyncio
import fcntl
import json
import re
import socket
import tempfile
import time
from pathlib import Path

import pytest

from flamme_tui.net.wire import PROTOCOL as V
from flamme_tui.ui.app import FlammeApp
from flamme_tui.ui.scenarios import HOST_PORT, SCENARIOS, SEED

from .driver import screen_name

CODE = r"[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}"


def screen_text(app) -> str:
    logs = app.screen.query("Log")
    return "\n".join(str(w.render()) for w in app.screen.query("Static")) + "\n" + "\n".join(
        line for log in logs for line in log.lines)


async def until(pilot, condition, what: str, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"never: {what}"
        await pilot.pause(0.02)


async def to_teams_by_keys(pilot) -> None:
    """Title -> Host a table (by the arrows) -> Classic -> the first stage -> the teams."""
    app = pilot.app
    menu = app.screen.query_one("#title-menu")
    await pilot.press(*["down"] * menu.get_option_index("host"), "enter")
    await pilot.pause()
    assert screen_name(app) == "VariantScreen" and "Host a table" in screen_text(app)
    await pilot.press("enter", "enter")  # Classic, its first stage
    await until(pilot, lambda: screen_name(app) == "TeamsScreen", "the teams screen")
    await pilot.pause()
    assert "Hosting a table" in screen_text(app)
    assert app.focused.id == "players"  # the first choice, as on New race's teams screen


async def set_plays(pilot, seat: int, presses: int) -> None:
    """The seat's Plays, by keys: Tab from its name to its colour, then to Plays; Right steps."""
    app = pilot.app
    app.screen.query_one(f"#name-{seat}").focus()
    await pilot.press("tab", "tab", *["right"] * presses)
    await pilot.pause()
    assert app.focused.id == f"controller-{seat}"


async def answer(ws) -> dict:
    """A device's next message; a turn is answered with its first option."""
    message = json.loads((await asyncio.wait_for(ws.receive(), 10)).data)
    if message["type"] == "turn":
        await ws.send_str(json.dumps({"v": V, "type": "choose", "at": message["at"], "option": 0,
                                      "action": message["options"][0]["action"]}))
    return message


async def test_host_a_table_from_the_title_menu_by_keys_shows_the_codes_and_plays_the_seat_here(data_dir):
    import aiohttp

    app = FlammeApp(seed=7, autoplay=False)
    app.bell = lambda: None
    async with app.run_test(size=(80, 24)) as pilot:
        await to_teams_by_keys(pilot)
        await set_plays(pilot, 0, 1)  # seat 1: Here (the host's own seat); seat 2 stays Own device
        assert "Here" in str(app.screen.query_one("#controller-0").render()) or \
            app.screen.query_one("#controller-0").value == "here"
        await pilot.press("ctrl+s")
        await until(pilot, lambda: screen_name(app) == "HostScreen" and "flamme-tui join" in screen_text(app),
                    "the host screen with the codes")
        text = screen_text(app)
        table = app.screen.table
        address, typed = re.search(rf"flamme-tui join (127\.0\.0\.1:\d+) ({CODE})", text).groups()
        rows = dict(re.findall(rf" (\d) \S+ +(?:here|own device +({CODE}))", text))
        assert set(rows) == {"1", "2"} and rows["1"] == "" and rows["2"]  # only the device seat has a code
        from flamme_tui.net.host import show_code

        assert rows["2"] == show_code(table.codes[1])
        assert typed == rows["2"]  # one seat on its own device: the command is ready to type, its code in it
        assert f"the room code {table.room}" in text and "http://127.0.0.1:" in text
        assert len(str(app.screen.query_one("#host-qr").render()).splitlines()) > 10  # the QR code is drawn
        assert table.devices == {0, 1} and app.screen.here == {0}

        async with aiohttp.ClientSession() as http, http.ws_connect(f"ws://{address}/ws") as ws:
            await ws.send_str(json.dumps({"v": V, "type": "hello", "code": rows["2"], "watch": False}))
            await until(pilot, lambda: 1 in app.screen.server.seated, "the device joined")
            await pilot.pause()
            assert re.search(rf"own device +{rows['2']} +joined", screen_text(app))
            device = asyncio.ensure_future(asyncio.sleep(0))
            played_here = 0
            deadline = time.monotonic() + 60
            while not table.last_reveal:  # round 1: seat 1 here by keys, seat 2 from its device
                assert time.monotonic() < deadline, "round 1 never revealed"
                await pilot.pause(0.02)
                if device.done():
                    device = asyncio.ensure_future(answer(ws))
                if 0 in table.waiting() and screen_name(app) == "HostScreen":
                    # (alone: "Red (here) must choose: p shows their hand."; with seat 2 choosing at the
                    # same time: "Waiting for Red (here), Blue. p: your hand, b: a bot plays one.")
                    text = screen_text(app)
                    assert "(here) must choose: p shows their hand" in text or re.search(
                        r"Waiting for .+ \(here\).*\. p: your hand, b: a bot plays one\.", text), text
                    await pilot.press("p")
                elif screen_name(app) == "SeatScreen" and app.screen.table.turn is not None:
                    assert app.screen.table.seat == 0  # its own hand only
                    assert "q: the host's screen" in screen_text(app)  # q goes back there, it quits nothing
                    await pilot.press("1")
                    played_here += 1
            device.cancel()
        assert played_here >= 2  # its draw and its cards, by number keys
        if screen_name(app) == "SeatScreen":
            await pilot.press("q")  # back to the host's screen: the table stays hosted
        await until(pilot, lambda: screen_name(app) == "HostScreen", "back on the host screen")
        assert "Round 1 revealed" in screen_text(app)
        await until(pilot, lambda: 1 not in app.screen.server.seated, "the device gone")
        await pilot.pause()
        assert re.search(rf"own device +{rows['2']} +away", screen_text(app))  # it came, and went
        await pilot.press("escape")  # the race is under way: asked first, and n (or Esc) goes on hosting
        await pilot.pause()
        assert screen_name(app) == "ConfirmStopHosting" and "Stop hosting this table?" in screen_text(app)
        assert "flamme-tui host --from " in screen_text(app)
        await pilot.press("n")
        await pilot.pause()
        assert screen_name(app) == "HostScreen"
        await pilot.press("escape", "y")
        await pilot.pause()
        assert screen_name(app) == "TitleScreen"
        # resumed, the race is hosted again (never played at this screen: the device's hand would show
        # here), with the same codes and the same seat played here
        codes, room, path = dict(table.codes), table.room, table.session.save_path
        app.resume_path(path)
        await until(pilot, lambda: screen_name(app) == "HostScreen", "the race hosted again")
        assert app.screen.table.codes == codes and app.screen.table.room == room and app.screen.here == {0}
        await pilot.press("escape", "y")
        await pilot.pause()
        assert screen_name(app) == "TitleScreen"
        # a branch (going on from a backup, Saved races' b) is hosted again too, with the race's codes:
        # opened at one screen, its first curtain gave the device seat's hand to whoever lifted it
        backup = path.with_name(path.name + ".1")
        assert backup.exists()
        app.resume_path(backup)
        await until(pilot, lambda: screen_name(app) == "HostScreen", "the branch hosted")
        branch = app.screen.table.session.save_path
        assert branch != path and app.screen.table.codes == codes and app.screen.here == {0}
        await pilot.pause()
        assert (branch.parent / (branch.name + ".seats")).exists(), sorted(p.name for p in branch.parent.iterdir())
        await pilot.press("escape", "y")
        await pilot.pause()
        # a seats file that cannot be read: hosted again all the same, with new codes, no seat here
        (path.parent / (path.name + ".seats")).write_text("{not json")
        app.resume_path(path)
        await until(pilot, lambda: screen_name(app) == "HostScreen", "the race hosted with new codes")
        assert app.screen.table.codes[1] != codes[1] and app.screen.here == set()
        await pilot.press("escape", "y")
        await pilot.pause()
        assert screen_name(app) == "TitleScreen"


async def test_two_seats_here_the_host_screen_comes_back_between_them(data_dir):
    """Two players at the host's keyboard: both choose at the same time, one after the
    other at this keyboard: when the first has chosen all and the other must choose, the
    first one's hand goes (back to the host screen, which names who must choose next)."""
    from flamme_tui.ui.choices import HERE
    from flamme_tui.ui.scenarios import choices
    from flamme_tui.ui.screens.host import HostScreen

    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    app.bell = lambda: None
    c = choices(n=3)
    c.seats[0].controller = c.seats[1].controller = HERE
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(HostScreen(c.session(), c.here(), port=0))
        await until(pilot, lambda: getattr(app.screen, "server", None) is not None, "hosting")
        host = app.screen
        table = host.table
        seen: dict[int, set[int]] = {0: set(), 1: set()}  # seat -> the seats whose hand its screen showed
        curtains = 0
        deadline = time.monotonic() + 60
        game = table.session.game
        while game.round == 1 and (game.needs(0) or game.needs(1)):  # round 1's choices of the two seats here
            assert time.monotonic() < deadline, (screen_name(app), host.open_seat, table.waiting(), screen_text(app))
            await pilot.pause(0.02)
            waiting = [s for s in table.waiting() if s in (0, 1)]
            if screen_name(app) == "HostScreen":
                # the host screen names who must choose here ("Blue (here) must choose: p shows their
                # hand.", or with others choosing at the same time "Waiting for Blue (here), Green")
                names = [table.session.setup.teams[s].name for s in waiting]
                text = screen_text(app)
                if host.open_seat is None and waiting and all(f"{name} (here)" in text for name in names):
                    curtains += 1
                    await pilot.press("p")
            elif app.screen.table.turn is not None and app.screen.table.seat is not None:
                seen[host.open_seat].add(app.screen.table.seat)
                await pilot.press("1")
        assert seen == {0: {0}, 1: {1}}  # each screen showed its own seat only
        assert curtains >= 2  # before each seat's hand: the host screen between them
        await host.stop_serving()


async def test_the_teams_screen_when_hosting_and_after(data_dir):
    """Hosting: Plays offers Own device and Here, and a table with no device seat is
    refused in words; the next New race (hot-seat) offers a Here seat as Human."""
    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await to_teams_by_keys(pilot)
        await set_plays(pilot, 0, 1)
        await set_plays(pilot, 1, 1)
        assert [app.screen.query_one(f"#controller-{s}").value for s in (0, 1)] == ["here", "here"]
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert screen_name(app) == "TeamsScreen"
        assert "needs a seat played on its own device" in screen_text(app)
        await pilot.press("escape", "escape", "escape")  # (the set-up is kept for the next race)
        await until(pilot, lambda: screen_name(app) == "TitleScreen", "the title menu")
        await pilot.press("home", "enter", "enter", "enter")  # New race: hot-seat
        await until(pilot, lambda: screen_name(app) == "TeamsScreen", "the teams screen")
        await pilot.pause()
        assert "Hosting" not in screen_text(app)
        assert [app.screen.query_one(f"#controller-{s}").value for s in (0, 1)] == ["human", "human"]


async def test_the_title_menu_keeps_host_a_table_under_the_cursor_when_resume_comes(data_dir):
    """Resume goes first; the entry under the cursor stays there (here: Host a table)."""
    from flamme_tui import saves
    from flamme_tui.ui.scenarios import advance, choices

    session = choices().session()
    advance(session, 1)
    saves.save(session, data_dir / "saves" / "running.json")
    app = FlammeApp(seed=7, autoplay=False)
    async with app.run_test(size=(80, 24)) as pilot:
        menu = app.screen.query_one("#title-menu")
        await until(pilot, lambda: app.screen.resume_info is not None, "Resume offered")
        ids = [menu.get_option_at_index(k).id for k in range(menu.option_count)]
        assert ids == ["resume", "new", "tour", "host", "saved", "rules", "settings", "learn", "quit"]
        await pilot.press("down", "down", "down")
        assert menu.get_option_at_index(menu.highlighted).id == "host"
        race = app.screen.resume_info
        app.screen.offer_resume(None)  # Resume goes (the race finished elsewhere) and comes back
        assert menu.get_option_at_index(menu.highlighted).id == "host"
        app.screen.offer_resume(race)
        assert menu.get_option_at_index(menu.highlighted).id == "host"
        await pilot.press("enter")
        await pilot.pause()
        assert screen_name(app) == "VariantScreen" and "Host a table" in screen_text(app)


def port_free(port: int) -> bool:
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


@pytest.mark.parametrize("scenario", ["host", "host-seat"])
def test_host_screens_snapshot(snap_compare, scenario):
    """The host screen at 80x24 (fixed codes and port: scenarios.HOST_*), and the seat played here."""
    # one at a time: the test processes run these two side by side, and the second to host took
    # another port, which its screen shows (a flaky snapshot); the lock is the port's
    with open(Path(tempfile.gettempdir()) / f"flamme-tui-test-port-{HOST_PORT}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (port_free(HOST_PORT) and port_free(HOST_PORT + 1)):
            pytest.skip(f"port {HOST_PORT} or {HOST_PORT + 1} is in use: the screen would show another")

        async def shown(pilot) -> None:
            await SCENARIOS[scenario](pilot)

        app = FlammeApp(seed=SEED, autoplay=False, autosave=False)
        assert snap_compare(app, run_before=shown, terminal_size=(80, 24))


async def test_join_draws_its_seat_screen_with_its_own_layout():
    """`flamme-tui join` shows the seat's screen laid out as SeatScreen says (its CSS is the
    app's too): the code field hidden when a code was given, the hand under its rule."""
    from flamme_tui.net.host import HostServer, HostTable
    from flamme_tui.play.races import RaceSpec, Team
    from flamme_tui.play.session import Session
    from flamme_tui.ui.join import JoinApp

    session = Session.new(RaceSpec(teams=(Team("Red", "red"), Team("Blue", "blue"))), 7, bots={1: "easy"})
    server = HostServer(HostTable(session, {0}))
    port = await server.start()
    app = JoinApp(f"127.0.0.1:{port}", server.table.codes[0])
    app.bell = lambda: None
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.table.turn is not None, "the seat's turn")
            await pilot.pause()
            assert not app.screen.query_one("#code").display
            assert app.screen.query_one("#hand").styles.border_top[0] == "solid"
            assert app.screen.query_one("#log").region.width == 80  # the whole width, under the hand
    finally:
        await server.stop()


@pytest.mark.parametrize("lang", ["fr", "es"])
async def test_the_hosting_note_quotes_the_plays_list_s_label_as_it_shows(data_dir, tmp_path, monkeypatch, lang):
    """In Spanish the note quoted «Su dispositivo» while the Plays list showed
    "Dispositivo" (its "Dispositivo propio" cut at 12 cells)."""
    from flamme_tui import i18n
    from flamme_tui import settings as user_settings
    from flamme_tui.ui.textshot import screen_text as drawn_text

    monkeypatch.setenv("FLAMME_TUI_CONFIG_DIR", str(tmp_path / "config"))
    user_settings.save(user_settings.Settings(language=lang))
    app = FlammeApp(seed=7, autoplay=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        menu = app.screen.query_one("#title-menu")
        await pilot.press(*["down"] * menu.get_option_index("host"), "enter", "enter", "enter")
        await until(pilot, lambda: screen_name(app) == "TeamsScreen", "the teams screen")
        await pilot.pause()
        device, here = i18n._("Own device"), i18n._("Here")
        note = str(app.screen.query_one("#hosting-note").render())
        text = drawn_text(app)  # as the screen shows it (the list's label cut at its width)
    i18n.choose()  # (the next tests read English)
    assert re.search(rf" {device} +▼", text) and len(device) <= 12  # the label whole in the Plays list
    quote = "«\N{NO-BREAK SPACE}{}\N{NO-BREAK SPACE}»" if lang == "fr" else "«{}»"
    assert quote.format(device) in note and quote.format(here) in note


async def test_b_asks_which_seat_when_several_choose_and_d_gives_a_seat_back_to_its_device(data_dir):
    """Three seats on their own devices choose at once: `b` asks which goes to a bot
    (its number picks it); `d` (on the key bar while a seat is a bot's) gives it back to
    its device, with its same code, and the host's log says so."""
    import aiohttp

    from flamme_tui.net.host import show_code
    from flamme_tui.ui.scenarios import choices
    from flamme_tui.ui.screens.host import HostScreen

    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    c = choices(n=3)
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(HostScreen(c.session(), c.here(), port=0))
        await until(pilot, lambda: getattr(app.screen, "server", None) is not None, "hosting")
        host = app.screen
        table = host.table
        assert table.devices_waiting() == (0, 1, 2)  # all three at once
        keys = app.screen.query_one("#host-keys")
        assert ("d", "back to its device") not in keys.keys
        code = table.codes[1]
        async with aiohttp.ClientSession() as http, http.ws_connect(f"ws://127.0.0.1:{host.port}/ws") as ws:
            await ws.send_str(json.dumps({"v": V, "type": "hello", "code": code, "watch": False}))
            await until(pilot, lambda: 1 in host.server.seated, "seat 2's device joined")
            await pilot.press("b")
            await until(pilot, lambda: screen_name(app) == "PickSeat", "the screen asks which seat")
            text = screen_text(app)
            assert "Which seat does a bot play from now on?" in text
            # the seats with no device on the line first, the one joined last
            from textual.widgets import OptionList

            offered = app.screen.query_one(OptionList)
            assert [offered.get_option_at_index(k).id for k in range(offered.option_count)] == ["0", "2", "1"]
            assert "Orange" in str(offered.get_option_at_index(2).prompt)
            await pilot.press("2")
            await until(pilot, lambda: 1 in table.session.bots, "seat 2 given to a bot")
            assert screen_name(app) == "HostScreen" and table.given() == (1,)
            await until(pilot, lambda: ("d", "back to its device") in keys.keys, "the d key shown")
            assert re.search(rf" 2 \S+ +bot: easy +{show_code(code)}", screen_text(app))  # its code kept
            await pilot.press("d")
            await until(pilot, lambda: 1 not in table.session.bots, "seat 2 back on its device")
            assert table.devices_waiting() and 1 in table.devices and table.given() == ()
            await until(pilot, lambda: "plays on its own device again" in screen_text(app), "the log says so")
            assert ("d", "back to its device") not in keys.keys
            # the line that played seat 2 plays it again: welcomed as its seat once more
            seen = []
            while not any(m.get("type") == "welcome" and m.get("seat") == 1 for m in seen[1:]):
                seen.append(json.loads((await asyncio.wait_for(ws.receive(), 10)).data))
            # Escape on a seat question asks nothing more
            await pilot.press("b")
            await until(pilot, lambda: screen_name(app) == "PickSeat", "asked again")
            await pilot.press("escape")
            await pilot.pause()
            assert screen_name(app) == "HostScreen" and not table.given()
        await host.stop_serving()


def test_saved_races_say_which_race_in_progress_a_host_left(data_dir):
    """Saved races listed a hosted race as any other (opened, it is hosted again, never
    played at one screen): its rules now say "hosted" while a seats file is beside it."""
    from flamme_tui import saves
    from flamme_tui.engine.race import Team
    from flamme_tui.net.host import seats_file
    from flamme_tui.play.races import RaceSpec
    from flamme_tui.play.session import Session
    from flamme_tui.ui.screens.saved import _rules, saved_races

    folder = data_dir / "saves"
    folder.mkdir(parents=True)
    session = Session.new(RaceSpec(teams=(Team("Red", "red"), Team("Blue", "blue"))), 3, {0: "easy", 1: "easy"})
    autosave = saves.attach_autosave(session, folder / "race.json")
    session.play_bots()
    autosave.detach()
    (race,) = saved_races()
    assert _rules(race) == "Classic"
    seats_file(autosave.path).write_text("{}")
    (race,) = saved_races()
    assert _rules(race) == "Classic, hosted"
