"""`flamme-tui join` (issue 25): a seat of a real host on 127.0.0.1, played by keys at 80x24.

The other seat is played through net.client (the device side without
Textual), a third by a bot; a watcher's screen shows the public table only.
"""

from __future__ import annotations

import asyncio
import contextlib

import pytest

from flamme_tui.net.client import DeviceTable, Line
from flamme_tui.net.host import HostServer, HostTable
from flamme_tui.play.races import RaceSpec, Team
from flamme_tui.play.session import Session
from flamme_tui.ui.join import JoinApp

TEAMS = tuple(Team(c.capitalize(), c) for c in ("red", "blue", "green"))


async def play_line(address: str, code: str) -> DeviceTable:
    """A device without a screen: the first option of every turn."""
    line, table = Line(address), DeviceTable()
    await line.open(code)
    async for data in line.messages():
        table.take(data)
        if table.over:
            break
        turn = table.turn
        if turn is not None:
            await line.send(table.answer(len(turn.options) - 1))
    await line.close()
    return table


def screen_text(app) -> str:
    return "\n".join(str(w.render()) for w in app.query("Static"))


async def test_a_seat_plays_a_whole_race_by_number_keys_at_80x24_and_a_watcher_sees_no_hand():
    session = Session.new(RaceSpec(teams=TEAMS), 7, bots={2: "easy"})
    table = HostTable(session, {0, 1})
    server = HostServer(table)
    port = await server.start()
    address = f"127.0.0.1:{port}"
    blue = asyncio.ensure_future(play_line(address, table.codes[1]))
    app = JoinApp(address, table.codes[0])
    bells = []
    app.bell = lambda: bells.append(app.table.turn.at)  # the terminal bell: counted here
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            seen_hand = False
            for _ in range(3000):
                await pilot.pause(0.01)
                if app.table.over:
                    break
                if app.table.turn is not None:
                    text = screen_text(app)
                    seen_hand = seen_hand or ("hand:" in text and "Red" in text)
                    assert "1-9, or ↑ ↓ and Enter, or a tap · q quits" in text  # the keys, said with the choice
                    log = app.query_one("#log")
                    for _ in range(50):  # (laid out a frame after the hand above it, on a busy machine)
                        if log.scroll_y >= log.max_scroll_y:
                            break
                        await pilot.pause(0.02)
                    assert log.scroll_y >= log.max_scroll_y, app.table.round  # the newest round in view
                    await pilot.press("1")
            await pilot.pause(0.1)
            assert session.over and app.table.over
            assert seen_hand
            assert "The race is over" in screen_text(app)
            assert len(bells) >= 10  # the bell rang for the seat's turns
            assert app.query_one("#log").line_count > 20  # the rounds told in words
            log = [str(line) for line in app.query_one("#log").lines]  # the result on every device
            ranking = log[log.index("Final ranking") + 1:]
            assert ranking[:len(session.game.riders)] == [
                f"{k:>2}. {app.table.rider_name(i)}" for k, i in enumerate(session.game.ranking(), 1)]
        blue_table = await asyncio.wait_for(blue, 30)
        assert blue_table.over and blue_table.outcome[0] == tuple(session.game.ranking())
        # the log, its choices in the order they came (the three seats chose at once): the same race again
        game = session.game
        same = Session(session.setup, session.seed, dict(session.bots), [str(e) for e in session.entries])
        assert same.game.ranking() == game.ranking() and same.game.winner == game.winner
    finally:
        await server.stop()


async def test_a_watcher_sees_the_public_table_and_no_hand():
    session = Session.new(RaceSpec(teams=TEAMS), 7, bots={2: "easy"})
    table = HostTable(session, {0, 1})
    server = HostServer(table)
    port = await server.start()
    address = f"127.0.0.1:{port}"
    app = JoinApp(address, table.room, watch=True)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(200):
                await pilot.pause(0.02)
                if app.table.riders:
                    break
            text = screen_text(app)
            assert "watching" in text and "Red Sprinteur" in text and "hand:" not in text
            assert app.table.turn is None and app.table.seat is None
    finally:
        await server.stop()


async def test_the_track_is_drawn_as_the_hosts_a_row_per_lane_with_each_riders_team_letter():
    """The device's track was one line of digits ("..222|...."), every rider a count."""
    from flamme_tui.ui.widgets.track import StageOverview

    session = Session.new(RaceSpec(teams=TEAMS), 7, bots={2: "easy"})
    table = HostTable(session, {0, 1})
    server = HostServer(table)
    port = await server.start()
    app = JoinApp(f"127.0.0.1:{port}", table.codes[0])
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(200):
                await pilot.pause(0.02)
                if app.table.riders and app.table.turn is not None:
                    break
            await pilot.pause()
            track = app.query_one("#track", StageOverview)
            lanes = [track.render_line(y).text for y in range(track.size.height)]
            assert len(lanes) == 2 and all("║" in lane and "▓" in lane for lane in lanes), lanes
            grid = "".join(lane[:lane.index("║")] for lane in lanes)
            assert sorted(c for c in grid if c != "·") == ["B", "B", "G", "G", "R", "R"], lanes  # a letter a rider
            assert not any(c.isdigit() for c in "".join(lanes)), lanes
            assert track.region.bottom <= app.query_one("#boards").region.y  # all above the boards, at 80x24
    finally:
        await server.stop()


async def test_six_teams_on_three_lanes_leave_the_log_two_lines_at_80x24():
    """Three rows of track: the boards give way (best placed first), never the log nor the status."""
    from flamme_tui.play.races import COLOURS

    teams = tuple(Team(c.capitalize(), c) for c in COLOURS[:6])
    spec = RaceSpec(stage="peloton-12-5-6", teams=teams)
    session = Session.new(spec, 7, bots={k: "easy" for k in range(1, 6)})
    table = HostTable(session, {0})
    server = HostServer(table)
    port = await server.start()
    app = JoinApp(f"127.0.0.1:{port}", table.codes[0])
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(500):  # on to a pick: the hand's most lines
                await pilot.pause(0.02)
                turn = app.table.turn
                if turn is not None and turn.kind == "draw":
                    await pilot.press("1")
                elif turn is not None and turn.kind == "pick":
                    break
            await pilot.pause()
            assert app.table.turn.kind == "pick" and len(app.query_one("#track").row_kinds()) == 3
            log, status = app.query_one("#log"), app.query_one("#status")
            assert log.region.height >= 3 and status.region.y == 23, (log.region, status.region)
            assert app.screen.max_scroll_y == 0
    finally:
        await server.stop()


async def test_a_wrong_code_is_said_in_one_line_and_the_app_stops_trying():
    session = Session.new(RaceSpec(teams=TEAMS), 7, bots={2: "easy"})
    server = HostServer(HostTable(session, {0, 1}))
    port = await server.start()
    app = JoinApp(f"127.0.0.1:{port}", "WRONG-CODE-XX")
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(200):
                await pilot.pause(0.02)
                if "no seat has that code" in screen_text(app):
                    break
            assert "no seat has that code" in screen_text(app)
    finally:
        await server.stop()


async def test_a_seat_refused_for_too_many_wrong_codes_may_try_again_with_its_code():
    """Wrong codes typed on this machine (maybe by somebody else) lock it out a
    minute: the seat's own code stays in the field, and Enter tries it again."""
    import time

    from flamme_tui.net.host import WRONG_CODES

    session = Session.new(RaceSpec(teams=TEAMS), 7, bots={2: "easy"})
    table = HostTable(session, {0, 1})
    server = HostServer(table)
    port = await server.start()
    server.wrong["127.0.0.1"] = [time.monotonic()] * WRONG_CODES
    app = JoinApp(f"127.0.0.1:{port}", table.codes[0])
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(200):
                await pilot.pause(0.02)
                if app.screen.query_one("#code").display:
                    break
            field = app.screen.query_one("#code")
            assert field.display and field.value == table.codes[0]
            assert "too many wrong codes" in screen_text(app)
            server.wrong.clear()  # the minute is over
            await pilot.press("enter")
            for _ in range(200):
                await pilot.pause(0.02)
                if app.table.seat == 0:
                    break
            assert app.table.seat == 0
    finally:
        await server.stop()


async def test_without_a_code_the_app_asks_for_it_and_an_option_is_chosen_by_a_tap(tmp_path):
    """As in a browser tab from the host's page: the code typed, then a click on an option."""
    session = Session.new(RaceSpec(teams=TEAMS), 7, bots={2: "easy"})
    table = HostTable(session, {0, 1})
    server = HostServer(table)
    port = await server.start()
    app = JoinApp(f"127.0.0.1:{port}", "")
    app.bell = lambda: None
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause(0.1)
            assert "Type the code" in screen_text(app)
            assert f"Joining 127.0.0.1:{port}" in screen_text(app)  # which table the code is for
            await pilot.press(*"WRONGCODEXYZ", "enter")  # a typo first: said, and asked again
            for _ in range(100):
                await pilot.pause(0.02)
                if "no seat has that code" in screen_text(app):
                    break
            assert "no seat has that code" in screen_text(app) and app.query_one("#code").display
            await pilot.press(*table.codes[0].lower(), "enter")  # any case
            for _ in range(200):
                await pilot.pause(0.02)
                if app.table.turn is not None:
                    break
            turn = app.table.turn
            assert turn is not None and turn.kind == "draw"
            before = len(session.entries)
            # the second option's line in the hand panel: its title, then the options
            await pilot.click("#hand", offset=(4, 1 + app.first_option + 1))
            for _ in range(100):
                await pilot.pause(0.02)
                if len(session.entries) > before:
                    break
            assert str(session.entries[before]) == turn.options[1].action
            for _ in range(100):
                await pilot.pause(0.02)
                if app.table.turn is not None and app.table.turn.kind == "pick":
                    break
            app.save_screenshot(str(tmp_path / "join.svg"))
            shot = (tmp_path / "join.svg").read_text()
            assert "pick a card" in shot.replace("&#160;", " ")
    finally:
        await server.stop()


async def test_the_hosts_own_seat_plays_on_the_hosts_screen_with_the_codes_in_its_log(monkeypatch, tmp_path, capsys):
    """`host --here 1`: seat 1 on the host's terminal (the same screen as join, over loopback)."""
    from types import SimpleNamespace

    from flamme_tui.cli import host as cli_host

    session = Session.new(RaceSpec(teams=TEAMS[:2]), 3, bots={1: "easy"})
    table = HostTable(session, {0})
    seen = {}

    async def headless(app):  # the app as it runs in the host's terminal, keys pressed by the test
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(3000):
                await pilot.pause(0.01)
                if app.table.over:
                    break
                if app.table.turn is not None:
                    await pilot.press("1")
            await pilot.pause(0.1)
            seen["log"] = "\n".join(app.query_one("#log").lines)
            seen["over"] = app.table.over

    monkeypatch.setattr(JoinApp, "run_async", headless)
    args = SimpleNamespace(host="127.0.0.1", port=0, web_port=0, here=1)
    assert await cli_host._serve(table, args, tmp_path / "race.json") == 0
    assert session.over and seen["over"]
    from flamme_tui.net.host import show_code

    assert "Red: flamme-tui join 127.0.0.1:" in seen["log"] and show_code(table.codes[0]) in seen["log"]
    assert "Round 1 revealed" in seen["log"]  # what the host says goes to the screen's log
    out = capsys.readouterr().out
    assert "Round 1 revealed" not in out  # not printed over the screen


async def test_a_desktop_notification_tells_the_seat_it_must_choose_where_notify_send_is(tmp_path, monkeypatch):
    """A fake notify-send on the PATH records what it is asked: once for each run of
    the seat's turns (its draw and its two cards in a row are one call), the
    team's name as one argument; in a browser tab's app, and without notify-send,
    none (the bell alone)."""
    import os
    import stat

    from flamme_tui.net import notify

    told = tmp_path / "told"
    fake = tmp_path / "bin" / "notify-send"
    fake.parent.mkdir()
    fake.write_text(f'#!/bin/sh\nfor a in "$@"; do printf "%s|" "$a" >> {told}; done\necho >> {told}\n')
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{fake.parent}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.delenv("FLAMME_TUI_SERVED", raising=False)
    monkeypatch.delenv("TEXTUAL_DRIVER", raising=False)
    assert notify.notifier() == str(fake)

    teams = (Team("Red <b>&", "red"), TEAMS[1])
    stage = tmp_path / "sprint.yaml"
    stage.write_text("name: Sprint\ntiles: abcu\n")  # three rounds or so
    session = Session.new(RaceSpec(teams=teams, stage=str(stage)), 7, bots={1: "easy"})
    server = HostServer(HostTable(session, {0}))
    port = await server.start()
    app = JoinApp(f"127.0.0.1:{port}", server.table.codes[0])
    bells = []
    app.bell = lambda: bells.append(app.table.turn.at)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(3000):
                await pilot.pause(0.01)
                if app.table.over:
                    break
                if app.table.turn is not None:
                    await pilot.press("1")
            assert session.over
            for worker in list(app.workers):  # the notifications sent (the line itself stays open)
                if worker.group == "notify":
                    await worker.wait()
    finally:
        await server.stop()
    # a notification for each run of the seat's turns that came after a wait: the table went on
    # without it (it had chosen all, and the bot chose still), then asked it again; the bot
    # choosing at the same time, the waits are read from the log
    game = session.game
    seats = [game.riders[game.index[e.rider]].seat for e in session.entries]
    again = Session(session.setup, session.seed, dict(session.bots))
    runs, asked = 0, False
    for entry in [None, *session.entries]:
        if entry is not None:
            again.apply(entry)
        now = not again.over and again.game.needs(0)
        runs += now and not asked
        asked = now
    calls = told.read_text().splitlines()
    assert len(bells) == seats.count(0) > len(calls) == runs >= 1
    assert set(calls) == {"--app-name=flamme-tui|--|flamme-tui|Red &lt;b&gt;&amp;: your turn to choose|"}

    monkeypatch.setenv("FLAMME_TUI_SERVED", "1")  # a browser tab's app: its desktop is the host's
    assert notify.notifier() is None and await notify.notify("Red") is False
    monkeypatch.delenv("FLAMME_TUI_SERVED")
    monkeypatch.setenv("PATH", str(tmp_path / "nowhere"))  # no notify-send: the bell alone
    assert notify.notifier() is None and await notify.notify("Red") is False
    assert len(told.read_text().splitlines()) == runs


async def test_a_seat_whose_host_closes_the_table_is_no_longer_asked_to_choose():
    """The host quit while this seat's turn was up: its device said "Your turn:
    choose." beside "the host is closing the table" until it was closed by hand."""
    session = Session.new(RaceSpec(teams=TEAMS[:2]), 7)
    table = HostTable(session, {0, 1})
    server = HostServer(table)
    port = await server.start()
    line, device = Line(f"127.0.0.1:{port}"), DeviceTable()
    try:
        await line.open(table.codes[0])
        messages = line.messages()
        async for data in messages:
            device.take(data)
            if device.turn is not None:
                break
        assert device.status() == "Your turn: choose."
        await server.stop()
        async for data in messages:
            device.take(data)
        assert device.closed == "closing"
        assert device.turn is None and device.status() == ""
    finally:
        await line.close()
        await server.stop()


async def test_a_seat_joining_again_reads_the_last_round_with_its_riders_names():
    """The host sends a device joining again the last reveal before the table:
    the round waits for the riders' names ("?" plays 2 before)."""
    session = Session.new(RaceSpec(teams=TEAMS), 7, bots={1: "easy", 2: "easy"})
    table = HostTable(session, {0})
    server = HostServer(table)
    port = await server.start()
    address = f"127.0.0.1:{port}"
    try:
        line, device = Line(address), DeviceTable()
        await line.open(table.codes[0])
        async for data in line.messages():  # seat 0 plays until a round is revealed, then leaves
            device.take(data)
            if any(events for _round, events in device.rounds):
                break
            if device.turn is not None:
                await line.send(device.answer(0))
        await line.close()
        app = JoinApp(address, table.codes[0])
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(1000):  # (the seat's screen is pushed once the app runs: no #log before it)
                await pilot.pause(0.01)
                logs = app.screen.query("#log")
                if app.table.riders and logs and logs.first().line_count:
                    break
            log = "\n".join(str(line) for line in app.screen.query_one("#log").lines)
            assert "Red" in log and "Blue" in log and "?" not in log, log
    finally:
        await server.stop()


def device_of(host_table, seat: int) -> DeviceTable:
    """A device's table from the host's own messages (no line): welcome, table, its turn."""
    from flamme_tui.net.wire import dumps

    device = DeviceTable()
    device.take(dumps(HostServer(host_table).welcome(seat)))
    device.take(dumps(host_table.table()))
    turn = host_table.turn_for(seat)
    if turn is not None:
        device.take(dumps(turn))
    return device


def test_a_card_s_mark_says_the_wind_not_the_lead():
    """ "front" read as "in the lead": the mark says the wind, as the race's aids do."""
    from dataclasses import replace

    from flamme_tui.engine.options import MAY, WIND

    session = Session.new(RaceSpec(teams=TEAMS[:2]), 7)
    host = HostTable(session, {0, 1})
    for _ in range(10):  # to the first card pick (the grid and who draws first: the first option)
        device = device_of(host, session.due())
        if device.turn is not None and device.turn.kind == "pick":
            break
        session.apply(session.game.view(session.due()).options()[0].action)
    assert device.turn is not None and device.turn.kind == "pick", device.turn
    option = device.turn.options[0]
    words = {(wind, odds): device.option_words(replace(option, preview=replace(
        option.preview, wind=wind, front=front, finish=False, wind_odds=odds)))
        for wind, front, odds in ((WIND, True, -1), (MAY, True, -1), (MAY, True, 36), (MAY, False, 4), ("", False, -1))}
    assert words[WIND, -1].endswith("in the wind") and words[MAY, -1].endswith("in the wind for now")
    # its chance when the host worked it out (Preview.wind_odds), whether it leads now or not
    assert words[MAY, 36].endswith("in the wind: about 40%") and words[MAY, 4].endswith("in the wind: under 10%")
    assert "wind" not in words["", -1] and all("front" not in w for w in words.values())


def test_default_team_names_are_said_in_the_device_s_language():
    """A French host's "Bleu" and "Rouge" were "tú: Bleu", "Esperando a Rouge" on a
    Spanish device: the colour names in the device's language, typed names as typed."""
    from flamme_tui import i18n

    teams = (Team("Rouge", "red"), Team("Bleu", "blue"), Team("Vert", "green"), Team("Ann", "orange"))
    session = Session.new(RaceSpec(teams=teams), 7)
    host = HostTable(session, {0, 1, 2, 3})
    while 1 in host.devices_waiting():  # Bleu chooses all its round: the others choose still
        turn = host.turn_for(1)
        host.choose(1, {"at": turn["at"], "option": 0, "action": turn["options"][0]["action"]})
    with i18n.speaking("es"):
        device = device_of(host, 1)
        assert [device.team(s) for s in range(4)] == ["Rojo", "Azul", "Verde", "Ann"]
        assert device.status() == "Esperando a Rojo, Verde, Ann." and device.rider_name(0) == "Sprinteur Rojo"
    assert device.team(1) == "Blue"  # the same device in English
    assert device.host_setup.teams[1].name == "Bleu"  # (as the host sent it)


async def test_a_seat_rejoining_a_host_back_from_quitting_no_longer_says_it_is_closing(monkeypatch):
    """The host quit (`quit`) and came back on its save: the devices joined again
    but kept "the host is closing the table" beside their turn (and at 80 columns
    the keys were cut off)."""
    from flamme_tui.ui import join

    monkeypatch.setattr(join, "RETRY_SECONDS", 0.1)
    session = Session.new(RaceSpec(teams=TEAMS[:2]), 7)
    table = HostTable(session, {0, 1})
    server = HostServer(table)
    port = await server.start()
    app = JoinApp(f"127.0.0.1:{port}", table.codes[0])
    app.bell = lambda: None

    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, app, lambda: app.table.turn is not None, "a turn")
            await server.stop()
            await until(pilot, app, lambda: "the host is closing the table" in screen_text(app), "the host closing")
            server = HostServer(table, port=port)  # the host back, on the same port
            await server.start()
            await until(pilot, app, lambda: app.table.turn is not None, "the turn again")
            await pilot.pause(0.05)
            status = str(app.query_one("#status").render())
            assert "closing" not in status and status.startswith("Your turn: choose.")
            assert status.rstrip().endswith("q quits")
    finally:
        await server.stop()


async def until(pilot, app, condition, what: str) -> None:
    """Wait (5 s at most) for `condition`; else fail, saying `what` and the screen."""
    for _ in range(500):
        await pilot.pause(0.01)
        if condition():
            return
    raise AssertionError(f"{what}: {screen_text(app)}")


@contextlib.asynccontextmanager
async def red_seat(size=(80, 24), blue: str | None = "easy"):
    """Red's seat on its own device (a JoinApp at `size`), seed 7, against Blue: a bot of
    that name, or a device seat (None) with no line: (app, pilot, host table, server)."""
    session = Session.new(RaceSpec(teams=TEAMS[:2]), 7, bots={} if blue is None else {1: blue})
    table = HostTable(session, {0} if blue else {0, 1})
    server = HostServer(table)
    port = await server.start()
    app = JoinApp(f"127.0.0.1:{port}", table.codes[0])
    app.bell = lambda: None
    try:
        async with app.run_test(size=size) as pilot:
            yield app, pilot, table, server
    finally:
        await server.stop()


@contextlib.asynccontextmanager
async def red_against_a_bot(size=(80, 24)):
    """Red's seat on its own device against an easy bot: (app, pilot, host table)."""
    async with red_seat(size) as (app, pilot, table, _server):
        yield app, pilot, table


async def first_pick(app, pilot) -> None:
    """Wait for the seat's first card to pick, the grid and the draw answered by their first option."""
    for _ in range(500):
        await pilot.pause(0.01)
        turn = app.table.turn
        if turn is not None and turn.kind == "pick":
            return
        if turn is not None:
            await pilot.press("1")
    raise AssertionError(screen_text(app))


async def test_the_arrows_choose_even_when_the_log_can_scroll_and_has_the_focus():
    """A player's ↓ ↓ Enter sent the first option: once the log had more lines than
    it shows, the focused log scrolled on the arrows before the screen's keys saw them."""
    async with red_against_a_bot() as (app, pilot, table):
        await first_pick(app, pilot)
        log = app.query_one("#log")
        for k in range(60):  # more than it shows: it can scroll
            log.write_line(f"line {k}")
        log.focus()
        log.scroll_home(animate=False)
        await pilot.pause(0.05)
        assert log.max_scroll_y > 0 and app.focused is log
        options = app.table.turn.options
        await pilot.press("down", "down")
        assert app.seat_screen.cursor == 2 % len(options) and log.scroll_y == 0  # the choice moved, not the log
        before = len(table.session.entries)
        chosen = options[2 % len(options)].action
        await pilot.press("enter")
        for _ in range(200):
            await pilot.pause(0.01)
            if chosen in [str(e) for e in table.session.entries[before:]]:
                break
        assert chosen in [str(e) for e in table.session.entries[before:]]  # the option the arrows chose
        # with nothing to choose (the bot's turn, or the reveal) the arrows scroll the log again
        app.table.turn = None
        await pilot.press("down")
        assert log.scroll_y > 0


async def test_q_asks_once_more_and_says_the_code_joins_again_and_question_mark_lists_the_keys():
    async with red_against_a_bot() as (app, pilot, table):
        exits = []
        app.exit = lambda *a, **k: exits.append(a)
        await first_pick(app, pilot)
        await pilot.press("question_mark")
        log = "\n".join(str(line) for line in app.query_one("#log").lines)
        assert "↑ ↓ then Enter" in log and "q twice: leave the table (your code takes your seat again)" in log
        await pilot.press("q")
        status = str(app.query_one("#status").render())
        assert not exits and status.startswith("Press q again to leave: your code takes your seat again later.")
        assert len(status.rstrip()) <= 80
        await pilot.press("q")
        assert exits  # the second q leaves


def test_a_meteo_race_s_weather_reaches_the_devices_and_their_cards_say_the_wind_and_the_road():
    """A device's track showed no weather (it is drawn from the seed, not in the set-up), and
    its cards never said "in the wind" or "blocked?": the host offered them without the wind."""
    from flamme_tui.engine.options import MAY

    session = Session.new(RaceSpec(variant="meteo", stage="firenze-milano", teams=TEAMS[:2]), 7)
    host = HostTable(session, {0, 1})
    game = session.game
    device = device_of(host, 0)
    assert any(game.course.weather) and device.course.weather == game.course.weather
    said, winds = [], set()
    for _ in range(400):  # the whole race, every seat on its last option (its highest card: some lead alone)
        seat = session.due()
        if seat is None:
            break
        device = device_of(host, seat)
        if device.turn is not None and device.turn.kind == "pick":
            expected = [o.preview for o in game.view(seat).options(wind=True)]
            assert [o.preview for o in device.turn.options] == expected  # the seat's own view, its aids
            winds |= {(o.preview.wind, o.preview.crowd) for o in device.turn.options}
            said += [device.option_words(o) for o in device.turn.options]
        session.apply(game.view(seat).options()[-1].action)
    assert session.over and (MAY, MAY) in winds  # the wind and a crowd left open by the others' cards
    assert any("in the wind: " in w for w in said) and any(w.endswith("may be blocked") for w in said)
    # (sure wind, which no card of the others can take away, is rare in a pack: said as the test above says)


def test_a_device_refuses_weather_that_is_not_a_square_s():
    import json

    import pytest

    from flamme_tui.net.wire import ProtocolError

    session = Session.new(RaceSpec(variant="meteo", stage="firenze-milano", teams=TEAMS[:2]), 7)
    welcome = HostServer(HostTable(session, {0, 1})).welcome(0)
    for bad in ([["wet"]] * session.game.course.length, ["snow"] * session.game.course.length, ["wet"], "wet"):
        with pytest.raises(ProtocolError):
            DeviceTable().take(json.dumps({**welcome, "weather": bad}))


async def test_a_wide_window_draws_the_stage_two_cells_a_square():
    async with red_against_a_bot(size=(200, 50)) as (app, pilot, table):
        await first_pick(app, pilot)
        track = app.query_one("#track")
        assert track.wide and len(track.row_kinds()) == 2
        wide_row = str(track.render_line(0).text).rstrip()
        await pilot.resize_terminal(100, 30)
        await pilot.pause(0.1)
        assert not track.wide and len(str(track.render_line(0).text).rstrip()) < len(wide_row)


async def test_a_seat_given_to_a_bot_and_back_plays_on_the_same_screen():
    """`bot 1` turns the seat's screen into a watcher's ("the host gave this seat to a
    bot"); `device 1` makes it the seat's again on the same line: its name in the head,
    the note gone, its turn when it has one."""
    async with red_seat(blue=None) as (app, pilot, table, server):
        await until(pilot, app, lambda: app.table.turn is not None, "a turn")
        await server.hand_to_bot(0, "easy")
        await until(pilot, app, lambda: "the host gave this seat to a bot" in screen_text(app), "given to a bot")
        assert "watching" in screen_text(app) and app.table.turn is None
        await until(pilot, app, lambda: not table.game.needs(0), "the bot chose red's round")
        assert await server.give_back(0)
        await until(pilot, app, lambda: "you: Red" in screen_text(app), "the seat again")
        await pilot.pause(0.05)
        text = screen_text(app)
        assert "the host gave this seat to a bot" not in text
        assert "All chosen: waiting for the others." in text and "Waiting for Blue (away" in text


async def test_a_seats_last_card_of_the_round_waits_to_be_confirmed_and_can_be_chosen_again():
    """The hot-seat table reviews a seat's last pick (pass, or take it back); a device
    asks before sending it: 1 sends, 2 or u goes back to the options, nothing reaches
    the host meanwhile.  The seat's first rider's card is sent at once as ever."""
    async with red_against_a_bot() as (app, pilot, table):
        await first_pick(app, pilot)
        assert not app.table.turn.last  # Red's first rider: its teammate still draws
        before = len(reds(table))
        await pilot.press("1")
        await until(pilot, app, lambda: app.table.turn is not None and app.table.turn.last, "the last pick")
        assert len(reds(table)) == before + 1  # the first card went at once
        turn = app.table.turn
        first, second = turn.options[0], turn.options[1 % len(turn.options)]
        sent = len(reds(table))
        await pilot.press("1")
        await pilot.pause(0.05)
        text = screen_text(app)
        assert "Your cards this round: send them?" in text and "1  Send" in text and "2  Choose again" in text
        kept = app.table.rider_name(turn.chosen[0][0])
        assert f"{kept}: " in text and app.table.option_words(first) in text  # both riders' cards
        assert len(reds(table)) == sent and app.table.turn is turn  # nothing sent yet
        await pilot.press("u")  # back to the options, the held one under the cursor
        await pilot.pause(0.05)
        assert "send them?" not in screen_text(app) and app.seat_screen.cursor == 0
        await pilot.press("2" if len(turn.options) > 1 else "1")  # another card, held in its turn
        await pilot.pause(0.05)
        assert app.table.option_words(second) in screen_text(app)
        await pilot.press("2")  # choose again, by its number this time
        await pilot.pause(0.05)
        assert "send them?" not in screen_text(app) and len(reds(table)) == sent
        await pilot.press("2" if len(turn.options) > 1 else "1", "1")  # held, then sent
        await until(pilot, app, lambda: len(reds(table)) > sent, "the card sent")
        assert reds(table)[sent] == second.action


def reds(table) -> list[str]:
    """Red's actions in the host's log (the bot's come in between, as soon as it has chosen)."""
    return [str(e) for e in table.session.entries if " red." in f" {e}"]


async def test_a_phone_wide_window_in_spanish_keeps_a_line_a_rider_with_its_counts():
    """At 55 columns (a phone's browser) Spanish's long heads wrapped each rider's line
    in two, its counts under its name: the names are cut first, a line never wraps."""
    from flamme_tui import i18n

    with i18n.speaking("es"):
        async with red_against_a_bot(size=(55, 30)) as (app, pilot, table):
            await first_pick(app, pilot)
            await pilot.pause(0.05)
            boards = app.query_one("#boards")
            lines = [str(line.text).rstrip() for line in boards.render_lines(boards.region.reset_offset)]
            assert len(lines) == 1 + len(table.game.riders), lines  # the heads, a line a rider
            assert lines[0].endswith("agotamiento") and all(line.split()[-1] in ("0", "▣") for line in lines[1:])


def test_the_hand_is_drawn_without_letting_go_of_a_held_pick():
    """Drawing the hand panel only reads the screen's state: a held pick that is
    stale (no turn now) is let go by show() before the drawing, not by hand()."""
    from flamme_tui.ui.join import SeatScreen

    screen = SeatScreen("127.0.0.1:1", "code")
    screen.table.seat = 0
    screen.held = (3, 1)
    assert screen.hand().plain and screen.held == (3, 1)
    screen.forget_stale_pick()
    assert screen.held is None


@pytest.mark.parametrize("watching", [False, True])
def test_the_keys_help_says_what_the_boards_marks_mean(watching):
    """A player asked what the ▣ beside a rider meant: the `?` help says each mark the boards use."""
    from flamme_tui.ui.join import keys_help

    lines = keys_help(watching, standalone=True)
    assert any(line.strip().startswith("▣") and "card" in line for line in lines), lines
    assert any(line.strip().startswith(">") and "your riders" in line for line in lines), lines


async def test_an_address_where_no_table_answers_is_said_in_words_a_player_can_act_on():
    """A new player's review: "cannot reach the host: ClientConnectorError" for a wrong port,
    "...: WSServerHandshakeError" for the browser page's address."""
    import socket

    from aiohttp import web

    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        free = probe.getsockname()[1]
    async def not_a_table(request):
        return web.Response(text="a page")

    page = web.Application()  # a web server that is not a table (as the page for browsers)
    page.add_routes([web.get("/ws", not_a_table)])
    runner = web.AppRunner(page)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    web_port = runner.addresses[0][1]
    try:
        for address, words in ((f"127.0.0.1:{free}", "no answer at"),
                               (f"127.0.0.1:{web_port}", "is not a table's address")):
            app = JoinApp(address, "ABCD-EFGH-JKLM")
            async with app.run_test(size=(80, 24)) as pilot:
                for _ in range(200):
                    await pilot.pause(0.02)
                    if words in " ".join(screen_text(app).split()):
                        break
                text = " ".join(screen_text(app).split())
                assert words in text and "Error" not in text, text
                assert [line for line in screen_text(app).splitlines() if len(line.rstrip()) > 80] == []  # (one line)
    finally:
        await runner.cleanup()
