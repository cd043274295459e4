"""Each player's hand on their own device (issue 25): a real host on 127.0.0.1.

Devices here are plain WebSocket clients (aiohttp) that record every byte the
host sends them: two seats on their own device, a bot, a watcher, a whole
race to the podium.  Every seat that has something to do chooses at once, the
devices answering in whatever order they come (one of them always last):
the host's log, in that order, replays to the same race.  Every byte to
every device is then searched for what it must not see (another seat's
hand, any face-down deck order, another seat's turn).
"""

from __future__ import annotations

import asyncio
import functools
import json
import random
from dataclasses import dataclass, field

import aiohttp
import pytest

from flamme_tui.engine.options import Option
from flamme_tui.net import wire
from flamme_tui.net.host import HostServer, HostTable, Refused, read_codes
from flamme_tui.play import table as t
from flamme_tui.play.races import RaceSpec, Team
from flamme_tui.play.session import Session

V = wire.PROTOCOL  # the protocol version every message carries
TEAMS = tuple(Team(c.capitalize(), c) for c in ("red", "blue", "green"))
SEED = 5


def new_session(bots=None) -> Session:
    return Session.new(RaceSpec(teams=TEAMS), SEED, bots={2: "easy"} if bots is None else bots)


@dataclass
class Device:
    """A device's line, recording every message it gets."""

    port: int
    code: str
    watch: bool = False
    got: list[str] = field(default_factory=list)
    chose: list[tuple[int, str]] = field(default_factory=list)  # (at, action)
    errors: list[str] = field(default_factory=list)
    seat: int | None = None
    http: aiohttp.ClientSession | None = None
    ws: aiohttp.ClientWebSocketResponse | None = None

    async def open(self, headers=None) -> None:
        self.http = aiohttp.ClientSession()
        self.ws = await self.http.ws_connect(f"ws://127.0.0.1:{self.port}/ws", headers=headers)
        await self.send({"v": V, "type": "hello", "code": self.code, "watch": self.watch})

    async def send(self, message) -> None:
        await self.ws.send_str(json.dumps(message) if not isinstance(message, str) else message)

    async def next(self, timeout=10.0) -> dict:
        msg = await asyncio.wait_for(self.ws.receive(), timeout)
        assert msg.type == aiohttp.WSMsgType.TEXT, msg
        self.got.append(msg.data)
        message = json.loads(msg.data)
        if message["type"] == "welcome":
            self.seat = message["seat"]
        if message["type"] == "error":
            self.errors.append(message["code"])
        return message

    async def until(self, kind: str, timeout=10.0) -> dict:
        while True:
            message = await self.next(timeout)
            if message["type"] == kind:
                return message

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.http is not None:
            await self.http.close()


def pick(message: dict) -> int:
    """A device's choice: varied, and the same for the same turn."""
    return (message["at"] * 7 + message["seat"]) % len(message["options"])


async def play_device(device: Device, stop_after: int | None = None, after: tuple[int, ...] = ()) -> None:
    """Answer every turn until the race is over (or `stop_after` choices).  `after`: seats
    this device lets choose first (it answers a turn only once the table no longer waits
    for them): the devices then answer out of seat order."""
    waiting: list[int] = []
    held: dict | None = None  # a turn held back until the seats in `after` have chosen
    while True:
        message = await device.next(30)
        if message["type"] == "table" and message["ranking"] is not None:
            return
        if message["type"] == "table":
            waiting = message["waiting"]
            if held is None or any(s in waiting for s in after):
                continue
            message, held = held, None  # the others have chosen: now this one
        if message["type"] == "turn" and any(s in waiting for s in after):
            held = message
            continue
        if message["type"] == "turn" and (not device.chose or device.chose[-1][0] != message["at"]):
            # (the host sends the turn again on every change of the table: answered once)
            k = pick(message)
            action = message["options"][k]["action"]
            device.chose.append((message["at"], action))
            await device.send({"v": V, "type": "choose", "at": message["at"], "option": k, "action": action})
            if stop_after is not None and len(device.chose) >= stop_after:
                return


@dataclass
class Run:
    session: Session
    devices: list[Device]
    watcher: Device
    private: list[tuple[int, str]]  # (seat, JSON text of something only that seat may see)


def secrets_of(game, seat_count: int) -> list[tuple[int, str]]:
    """What each seat alone may see now: its hands; every rider's face-down deck order (nobody's)."""
    out = []
    for seat in range(seat_count):
        view = game.view(seat)
        for cards in view.hands.values():
            out.append((seat, '"hand":' + json.dumps(list(cards), separators=(",", ":"))))
    for r in game.riders:
        if len(r.deck) >= 8:  # long enough not to be some public list by chance
            out.append((-1, json.dumps(list(r.deck), separators=(",", ":"))))
    return out


async def _race(after: tuple[tuple[int, ...], tuple[int, ...]] = ((), ()), saved: str | None = None) -> Run:
    """A whole race on two devices, a bot and a watcher; `after`: the seats each device
    lets choose first (see play_device); `saved`: the folder it is autosaved in."""
    session = new_session()
    if saved is not None:
        from flamme_tui import saves

        saves.attach_autosave(session, directory=saved)
    table = HostTable(session, {0, 1})
    private: list[tuple[int, str]] = []
    session.listeners.append(lambda s, entry: private.extend(secrets_of(s.game, 3)))
    server = HostServer(table)
    port = await server.start()
    try:
        devices = [Device(port, table.codes[0]), Device(port, table.codes[1])]
        watcher = Device(port, table.room, watch=True)
        for d in (*devices, watcher):
            await d.open()
        watching = asyncio.ensure_future(_watch(watcher))
        await asyncio.gather(*(play_device(d, after=a) for d, a in zip(devices, after)))
        await asyncio.wait_for(watching, 30)
        for d in (*devices, watcher):
            await d.close()
    finally:
        await server.stop()
    return Run(session, devices, watcher, private)


async def _watch(watcher: Device) -> None:
    while True:
        message = await watcher.next(30)
        if message["type"] == "table" and message["ranking"] is not None:
            return


@functools.cache
def race() -> Run:
    return asyncio.run(_race())


@functools.cache
def race_out_of_order() -> Run:
    """Blue (seat 1) chooses first in every round, Red (seat 0) once Blue has chosen all;
    autosaved as every hosted race is."""
    import tempfile

    return asyncio.run(_race(after=((1,), ()), saved=tempfile.mkdtemp(prefix="flamme-tui-test-net-")))


def seat_actions(session: Session, seat: int) -> list[str]:
    game = session.game
    return [str(e) for e in session.entries if game.riders[game.index[e.rider]].seat == seat]


def replayed(session: Session) -> Session:
    """The race again from its set-up, seed and log (as a save, a resume, a replay rebuild it)."""
    return Session(session.setup, session.seed, dict(session.bots), [str(e) for e in session.entries])


def hot_seat(actions: list[str], make=new_session) -> t.Table:
    """The same actions played at one screen through the table model (curtains, reviews, reveals passed)."""
    table = t.Table(make())
    todo = list(actions)
    for _ in range(10_000):
        turn = table.turn()
        if isinstance(turn, t.Outcome):
            break
        if isinstance(turn, t.BotThinking):
            table.play_bots()
            continue
        options = turn.options
        engine = [o for o in options if isinstance(o, Option)]
        if engine:
            table.choose(next(o for o in engine if str(o.action) == todo[0]))
            todo.pop(0)
        else:
            table.choose(next(o for o in options if not isinstance(o, (t.TakeBack, t.Step))))
    assert not todo
    return table


def test_a_whole_race_on_two_devices_a_bot_and_a_watcher_replays_to_the_same_race():
    run = race()
    game = run.session.game
    assert run.session.over
    assert all(d.chose for d in run.devices)
    # what each device chose is what the host's log holds for its seat, in its order, each
    # turn numbered by the seat's own actions before it
    for seat, device in enumerate(run.devices):
        assert [a for _, a in device.chose] == seat_actions(run.session, seat)
        assert [at for at, _ in device.chose] == list(range(len(device.chose)))
    same = replayed(run.session)
    assert [str(e) for e in same.entries] == [str(e) for e in run.session.entries]
    assert same.game.ranking() == game.ranking() and same.game.winner == game.winner
    final = json.loads(run.watcher.got[-1])
    assert final["ranking"] == game.ranking() and final["winner"] == game.winner
    assert not any(d.errors for d in run.devices)


def test_two_devices_answering_out_of_seat_order_play_a_whole_race_that_replays_and_leaks_nothing():
    """Blue answers first and Red only once Blue has chosen all in every round: both are
    sent their turns at once, nothing is refused, the log holds Blue's cards before Red's,
    the save replays to the same race, and each device got its own seat's view only."""
    run = race_out_of_order()
    session, game = run.session, run.session.game
    assert session.over and not any(d.errors for d in run.devices)
    # in every round all of Blue's choices come before Red's first (Red waited), the bot's whenever it could
    rounds: dict[int, list[int]] = {}
    again = Session(session.setup, session.seed, dict(session.bots))
    for entry in session.entries:
        rounds.setdefault(again.game.round, []).append(again.game.riders[again.game.index[entry.rider]].seat)
        again.apply(entry)
    assert len(rounds) >= 5
    for seats in rounds.values():
        assert max(k for k, s in enumerate(seats) if s == 1) < min(k for k, s in enumerate(seats) if s == 0), seats
    for seat, device in enumerate(run.devices):
        assert [a for _, a in device.chose] == seat_actions(session, seat)
    # Red was sent its turn while Blue still chose (both at once), and waited
    red_turns = [json.loads(t) for t in run.devices[0].got if '"type":"turn"' in t]
    tables = [json.loads(t) for t in run.devices[0].got if '"type":"table"' in t]
    assert any(0 in t["waiting"] and 1 in t["waiting"] for t in tables)
    assert len(red_turns) > len(run.devices[0].chose)  # sent again with each table while it stood
    same = replayed(session)
    assert same.game.ranking() == game.ranking() and same.game.winner == game.winner
    # its save, as the autosave wrote it: read back (every round replayed and checked), the same race;
    # and the replay a player watches, to its podium
    from flamme_tui import saves

    for listener in session.listeners:
        if hasattr(listener, "stop"):
            listener.stop()
    loaded = saves.load(session.save_path)
    assert [str(e) for e in loaded.entries] == [str(e) for e in session.entries] and loaded.over
    assert loaded.game.ranking() == game.ranking() and loaded.game.winner == game.winner
    replay = saves.load_replay(session.save_path)
    assert replay.over and len(replay.frames) == game.rounds_done + 1
    import shutil

    shutil.rmtree(session.save_path.parent, ignore_errors=True)  # (the folder of this cached run's saves)
    assert leaks(run.devices, run.watcher, run.private) == []
    for device in run.devices:
        own = [s for seat, s in run.private if seat == device.seat]
        assert any(s in text for s in own for text in device.got)


def leaks(run_devices, watcher, private) -> list[str]:
    """What a device got that it must not see: another seat's hand, any deck order;
    a turn for another seat; a watcher's turn."""
    found = []
    for device in (*run_devices, watcher):
        mine = None if device.watch else device.seat
        # a hand another seat holds may hold the same cards as one of this seat's own
        own = {secret for seat, secret in private if seat == mine}
        for text in device.got:
            message = json.loads(text)
            if message["type"] == "turn" and message["seat"] != mine:
                found.append(f"seat {mine}: a turn of seat {message['seat']}")
            for seat, secret in private:
                if seat != mine and secret not in own and secret in text:
                    found.append(f"seat {mine}: {secret} of seat {seat}")
    return found


@pytest.mark.parametrize("order", ["as-they-come", "out-of-seat-order"])
def test_no_device_ever_gets_another_seats_hand_or_a_deck_order(order):
    run = race() if order == "as-they-come" else race_out_of_order()
    hands = [s for s in run.private if s[0] >= 0]
    decks = [s for s in run.private if s[0] < 0]
    assert len(hands) > 50 and len(decks) > 50  # the race dealt and the check looked for them
    total = sum(len(x) for d in (*run.devices, run.watcher) for x in d.got)
    assert total > 10_000
    assert leaks(run.devices, run.watcher, run.private) == []
    # each device did get its own hands (so the search would find a hand where it is)
    for device in run.devices:
        own = [s for seat, s in run.private if seat == device.seat]
        assert any(s in text for s in own for text in device.got)


def test_the_leak_search_finds_a_hand_sent_to_the_wrong_device():
    run = race()
    seat, secret = next(s for s in run.private if s[0] == 1)
    planted = Device(0, "", got=[json.dumps({"type": "turn", "seat": 0}), '{"type":"table",' + secret + "}"])
    planted.seat = 0
    assert leaks([planted], Device(0, "", watch=True), [(seat, secret)]) == [f"seat 0: {secret} of seat 1"]


# ------------------------------------------------------------ hostile devices


async def _with_host(body, bots=None, devices=(0, 1), here=()):
    session = new_session(bots)
    table = HostTable(session, set(devices), here=set(here))
    server = HostServer(table)
    port = await server.start()
    opened: list[Device] = []

    async def device(code, watch=False, headers=None) -> Device:
        d = Device(port, code, watch)
        await d.open(headers)
        opened.append(d)
        return d

    try:
        return await body(table, server, device)
    finally:
        for d in opened:
            await d.close()
        await server.stop()


def test_forged_repeated_out_of_turn_and_malformed_choices_are_refused_to_that_device_alone():
    async def body(table, server, device):
        red, blue = await device(table.codes[0]), await device(table.codes[1])
        turn = await red.until("turn")
        blue_turn = await blue.until("turn")  # both choose at once
        assert set(table.devices_waiting()) == {0, 1}
        before = list(table.session.entries)
        # blue forges red's own option: not one of blue's
        await blue.send({"v": V, "type": "choose", "at": blue_turn["at"], "option": 0,
                         "action": turn["options"][0]["action"]})
        assert (await blue.until("error"))["code"] == "not-offered"
        # red forges an action that is not on offer, and names an option that does not exist
        await red.send({"v": V, "type": "choose", "at": turn["at"], "option": 0, "action": "play blue.S 9"})
        assert (await red.until("error"))["code"] == "not-offered"
        await red.send({"v": V, "type": "choose", "at": turn["at"], "option": 99, "action": turn["options"][0]["action"]})
        assert (await red.until("error"))["code"] == "not-offered"
        # a turn of red's that is not yet (a number to come), and one long gone
        for at in (turn["at"] + 1, turn["at"] + 50):
            await red.send({"v": V, "type": "choose", "at": at, "option": 0, "action": turn["options"][0]["action"]})
            assert (await red.until("error"))["code"] == "stale"
        # malformed: not JSON, no type, another version, a number that is text, too deep, too long
        for bad, code in (("{nope", "bad-message"), ('{"v":4}', "bad-message"),
                          ('{"v":3,"type":"choose"}', "version"), ('{"v":2,"type":"choose"}', "version"),
                          ('{"v":1,"type":"choose"}', "version"),
                          ({"v": V, "type": "choose", "at": str(turn["at"]), "option": 0, "action": "x"}, "bad-message"),
                          ('{"v":4,"type":"choose","at":' + "[" * 40 + "]" * 40 + "}", "bad-message"),
                          ({"v": V, "type": "what"}, "bad-message")):
            await red.send(bad)
            assert (await red.until("error"))["code"] == code, bad
        assert table.session.entries == before  # nothing was played
        # the real choice, then the same one again (a repeat): stale
        good = {"v": V, "type": "choose", "at": turn["at"], "option": 0, "action": turn["options"][0]["action"]}
        await red.send(good)
        await red.until("table")
        assert len(table.session.entries) == len(before) + 1
        await red.send(good)
        assert (await red.until("error"))["code"] == "stale"
        assert len(table.session.entries) == len(before) + 1
        # blue chooses all it has this round: then it has nothing to do, whatever it names
        while 1 in table.devices_waiting():
            message = await blue.until("turn")
            if message["at"] != table.turn_no(1):
                continue
            await blue.send({"v": V, "type": "choose", "at": message["at"], "option": 0,
                             "action": message["options"][0]["action"]})
            await blue.until("table")
        assert 0 in table.devices_waiting()  # (red still chooses: the round goes on)
        await blue.send({"v": V, "type": "choose", "at": table.turn_no(1), "option": 0, "action": "play blue.S 5"})
        assert (await blue.until("error"))["code"] == "not-your-turn"
        assert blue.errors == ["not-offered", "not-your-turn"]  # blue heard only of its own mistakes
        return True

    assert asyncio.run(_with_host(body, bots={}))  # (no bot: the log moves only as the devices choose)


def test_a_choice_made_while_another_seat_chose_is_taken_and_a_repeat_is_not():
    """Both seats are sent their turns at once; red answers the turn it got after blue
    has chosen twice since (the log moved on, red's own turn did not): it is taken.
    Red's same choice sent again, and a choice for red's turn before, are stale."""
    session = new_session(bots={})
    table = HostTable(session, {0, 1, 2})
    red = table.turn_for(0)
    blue = table.turn_for(1)
    assert red is not None and blue is not None and table.turn_for(2) is not None  # all three at once
    assert (red["at"], blue["at"]) == (0, 0)
    table.choose(1, {"at": blue["at"], "option": 0, "action": blue["options"][0]["action"]})
    blue = table.turn_for(1)
    assert blue["at"] == 1
    table.choose(1, {"at": blue["at"], "option": 0, "action": blue["options"][0]["action"]})
    assert table.turn_for(0) == red  # red's turn as it was sent: the same number, the same options
    answer = {"at": red["at"], "option": 1, "action": red["options"][1]["action"]}
    table.choose(0, answer)
    assert table.turn_no(0) == 1
    with pytest.raises(Refused) as repeated:
        table.choose(0, answer)  # sent twice
    assert repeated.value.code == "stale"
    now = table.turn_for(0)
    with pytest.raises(Refused) as late:  # the turn red had before, with an option of its turn now
        table.choose(0, {"at": 0, "option": 0, "action": now["options"][0]["action"]})
    assert late.value.code == "stale"
    assert str(session.entries[2]) == red["options"][1]["action"]


def test_every_waiting_seat_s_turn_is_its_own_view_s_and_another_seat_s_action_leaves_it_as_it_was():
    """The promise the per-seat turn numbers rest on, over random races of every rule set
    (the breakaway's bids too), the seats choosing in random order: while a seat has
    something to do, no other seat's action changes what it may do (nor the turn the host
    built for it once: options, previews, hand); and every turn the host offers is what
    that seat's own view offers now."""
    from flamme_tui.net.wire import seat_turn

    specs = [RaceSpec(teams=TEAMS), RaceSpec(teams=TEAMS, variant="meteo"),
             RaceSpec(teams=TEAMS, stage="peloton-7", breakaway=True),
             RaceSpec(teams=TEAMS, variant="bmx", circuit="ABCD"), RaceSpec(teams=TEAMS, grid="choose")]
    kinds: set[str] = set()
    lasts: set[tuple[str, bool]] = set()
    for n, spec in enumerate(specs):
        session = Session.new(spec, 11 + n, bots={})
        seats = len(session.setup.teams)
        table = HostTable(session, set(range(seats)))
        rng = random.Random(n)
        while not session.over:
            waiting = table.devices_waiting()
            turns = {s: table.turn_for(s) for s in waiting}
            for s, turn in turns.items():
                assert turn is not None and turn["at"] == table.turn_no(s)
                assert turn == wire.turn_message(seat_turn(session.game, s), table.turn_no(s))
                kinds.add(turn["kind"])
            if rng.random() < 0.2:  # a bot's view (a board of its own: it thinks beside the devices) is the seat's
                s = rng.choice(waiting)
                session.bots[s] = "easy"
                move, _turn_no = table.bot_move(s)
                del session.bots[s]
                assert move.view == session.game.view(s) and move.view.board is not session.game.view(s).board
            seat = rng.choice(waiting)
            k = rng.randrange(len(turns[seat]["options"]))
            shown = session.game.events
            table.choose(seat, {"at": turns[seat]["at"], "option": k, "action": turns[seat]["options"][k]["action"]})
            # `last` (the device confirms that pick first): the seat had nothing more to choose before the reveal
            picked = turns[seat]["kind"] in ("pick", "bid")
            done = session.game.events is not shown or not session.game.needs(seat)
            assert turns[seat]["last"] == (picked and done), (spec.variant, turns[seat])
            lasts.add((turns[seat]["kind"], turns[seat]["last"]))
            for s, turn in turns.items():
                if s != seat and session.game.needs(s):
                    assert table.turn_for(s) == turn, (spec.variant, s)
        assert replayed(session).game.ranking() == session.game.ranking()
    assert kinds >= {"place", "bidder", "bid", "draw", "pick"}, kinds
    assert lasts >= {("pick", True), ("pick", False), ("bid", True), ("draw", False)}, lasts

def test_a_wrong_code_is_refused_and_too_many_tries_are_stopped():
    async def body(table, server, device):
        d = await device("AAAA-AAAA-AAAA")
        assert (await d.until("error"))["code"] == "unknown-code"
        w = await device("ZZZZZ", watch=True)
        assert (await w.until("error"))["code"] == "unknown-code"
        for _ in range(10):
            await d.send({"v": V, "type": "hello", "code": "BBBB", "watch": False})
        codes = [(await d.until("error"))["code"] for _ in range(10)]
        assert "too-many-tries" in codes
        # even the right code is refused from that address for a while
        late = await device(table.codes[0])
        assert (await late.until("error"))["code"] == "too-many-tries"
        return True

    assert asyncio.run(_with_host(body))


def test_wrong_codes_from_one_tab_of_the_host_s_page_lock_out_that_browser_alone():
    """Every tab of the host's page runs its join on the host's machine: one tab typing
    wrong codes locked every tab out. A line from this machine may say for which browser
    it speaks (pathtext.BROWSER_ENV); wrong codes are counted per browser then."""
    async def body(table, server, device):
        d = await device("AAAA-AAAA-AAAA")
        assert (await d.until("error"))["code"] == "unknown-code"  # (a line of its own, no browser named)
        tab = await device("BBBB")
        for _ in range(12):
            await tab.send({"v": V, "type": "hello", "code": "CCCC", "watch": False, "browser": "10.0.0.5"})
        codes = [(await tab.until("error"))["code"] for _ in range(12)]
        assert codes[-1] == "too-many-tries"
        other = Device(server.port, table.codes[0])
        other.http = aiohttp.ClientSession()
        other.ws = await other.http.ws_connect(f"ws://127.0.0.1:{server.port}/ws")
        await other.send({"v": V, "type": "hello", "code": table.codes[0], "watch": False, "browser": "10.0.0.6"})
        assert (await other.until("welcome"))["seat"] == 0  # another browser's tab joins
        again = Device(server.port, table.codes[1])
        again.http = aiohttp.ClientSession()
        again.ws = await again.http.ws_connect(f"ws://127.0.0.1:{server.port}/ws")
        await again.send({"v": V, "type": "hello", "code": table.codes[1], "watch": False, "browser": "10.0.0.5"})
        assert (await again.until("error"))["code"] == "too-many-tries"  # that browser's still locked out
        await other.close()
        await again.close()
        return True

    assert asyncio.run(_with_host(body))


def test_a_code_that_is_no_text_of_ours_is_a_wrong_code_for_a_seat_and_a_watcher():
    async def body(table, server, device):
        for watch in (False, True):  # a watcher's hello compared the code as bytes: UnicodeEncodeError
            d = await device("\ud800", watch=watch)
            assert (await d.until("error"))["code"] == "unknown-code"
        return True

    assert asyncio.run(_with_host(body))


def test_a_tab_s_join_names_its_browser_in_its_hello(monkeypatch):
    from flamme_tui.net.client import hello
    from flamme_tui.pathtext import BROWSER_ENV

    monkeypatch.delenv(BROWSER_ENV, raising=False)
    assert "browser" not in json.loads(hello("K7QM"))
    monkeypatch.setenv(BROWSER_ENV, "192.168.1.7")  # as the host's page sets it for a tab's app
    assert json.loads(hello("K7QM"))["browser"] == "192.168.1.7"


def test_a_connection_that_sends_no_whole_request_is_closed_and_one_address_holds_a_few(monkeypatch):
    """300 sockets sending a header line every 10 s stayed open (aiohttp waits for a request
    for ever) until the host ran out of files and took no device (net.guard.ConnectionGuard)."""
    from flamme_tui.net import guard

    monkeypatch.setattr(guard, "REQUEST_SECONDS", 0.5)
    monkeypatch.setattr(guard, "CONNECTIONS_PER_ADDRESS", 4)

    async def body(table, server, device):
        loop = asyncio.get_running_loop()

        async def slow() -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
            reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
            writer.write(b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # and never the blank line
            await writer.drain()
            return reader, writer

        lines = [await slow() for _ in range(4)]
        extra = await slow()  # a fifth from this address: closed at once
        assert await asyncio.wait_for(extra[0].read(), 2) == b""
        start = loop.time()
        for reader, _writer in lines:  # the four: closed once their time to send a request is over
            assert await asyncio.wait_for(reader.read(), 5) == b""
        assert 0.3 < loop.time() - start < 3
        d = await device(table.codes[0])  # a device that says what it wants is served as before
        assert (await d.until("welcome"))["seat"] == 0
        await asyncio.sleep(0.8)  # past the time to send a request: a WebSocket stays open
        await d.send({"v": V, "type": "hello", "code": table.codes[0], "watch": False})
        assert (await d.until("error"))["code"] == "bad-message"  # (a second hello: the line still answers)
        for _reader, writer in [*lines, extra]:
            writer.close()
        return True

    assert asyncio.run(_with_host(body))


def test_one_address_cannot_hold_every_line_open_without_a_hello():
    """A client kept 70 lines open and never said hello (each reopened as its hello time
    ran out): every device was refused. Lines waiting for a hello are capped per address."""
    from flamme_tui.net.host import MAX_WAITING_PER_ADDRESS

    async def body(table, server, device):
        async with aiohttp.ClientSession() as http:
            url = f"ws://127.0.0.1:{server.port}/ws"
            held = [await http.ws_connect(url) for _ in range(MAX_WAITING_PER_ADDRESS)]
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await http.ws_connect(url)
            assert refused.value.status == 503
            await held.pop().close()
            await asyncio.sleep(0.1)
            d = await device(table.codes[0])  # a place again: a device joins
            assert (await d.until("welcome"))["seat"] == 0
            for ws in held:
                await ws.close()
        return True

    assert asyncio.run(_with_host(body))


def test_a_page_from_another_origin_is_refused_and_a_flood_is_slowed():
    async def body(table, server, device):
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await device(table.codes[0], headers={"Origin": "http://evil.example"})
        assert refused.value.status == 403
        own = await device(table.codes[0], headers={"Origin": f"http://127.0.0.1:{server.port}"})
        await own.until("welcome")
        for _ in range(60):
            await own.send({"v": V, "type": "choose", "at": 0, "option": 0, "action": "x"})
        codes = []
        while True:
            try:
                codes.append((await own.until("error", timeout=1))["code"])
            except TimeoutError:
                break
        assert "too-fast" in codes
        # a message over the size bound ends that line
        big = await device(table.codes[1])
        await big.until("welcome")
        await big.send("x" * (wire.MAX_FROM_DEVICE + 1))
        msg = await asyncio.wait_for(big.ws.receive(), 5)
        while msg.type == aiohttp.WSMsgType.TEXT:
            msg = await asyncio.wait_for(big.ws.receive(), 5)
        assert msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING)
        return True

    assert asyncio.run(_with_host(body))


def test_a_seat_the_host_plays_at_its_own_keyboard_is_never_away_to_the_devices():
    """Seat 1 is played on the host's screen (its own screen opens over loopback only
    when the host asks): the other device must not read it as away meanwhile."""
    async def body(table, server, device):
        red = await device(table.codes[0])
        message = await red.until("table")
        assert message["away"] == [] and server.away() == ()
        # the host's loopback screen for seat 1 comes and goes: still not away
        blue = await device(table.codes[1])
        await blue.until("table")
        await blue.close()
        await asyncio.sleep(0.1)
        assert 1 not in server.away()
        return True

    assert asyncio.run(_with_host(body, here=(1,)))


def test_a_seat_that_drops_comes_back_with_its_code_to_the_hand_it_had():
    async def body(table, server, device):
        red = await device(table.codes[0])
        turn = await red.until("turn")
        await red.close()
        await asyncio.sleep(0.1)
        assert 0 in server.away()
        again = await device(table.codes[0])
        turn2 = await again.until("turn")
        assert turn2 == turn  # the same turn, the same hand and options
        # a second device with the same code takes the seat over; the first is told
        third = await device(table.codes[0])
        await third.until("turn")
        assert (await again.until("error"))["code"] == "replaced"
        return True

    assert asyncio.run(_with_host(body))


def test_the_host_hands_a_waiting_seat_to_a_bot_and_the_race_goes_on():
    async def body(table, server, device):
        red = await device(table.codes[0])
        await red.until("turn")
        blue = await device(table.codes[1])
        play = asyncio.ensure_future(play_device(blue))
        await server.hand_to_bot(0, "easy")  # red's player went home
        assert (await red.until("error"))["code"] == "bot"
        await asyncio.wait_for(play, 60)
        assert table.session.over
        return True

    assert asyncio.run(_with_host(body))


def test_a_killed_host_restarted_on_its_save_reopens_the_table(tmp_path):
    from flamme_tui import saves

    async def first():
        session = new_session()
        saves.attach_autosave(session, directory=tmp_path)
        table = HostTable(session, {0, 1})
        table.save_codes()
        server = HostServer(table)
        port = await server.start()
        red, blue = Device(port, table.codes[0]), Device(port, table.codes[1])
        await red.open()
        await blue.open()
        await asyncio.gather(play_device(red, stop_after=6), play_device(blue, stop_after=6))
        await asyncio.sleep(0.2)
        # the host dies here: no goodbye, no last save (the autosave wrote every action)
        await server.listening.cleanup()
        await red.close()
        await blue.close()
        return session, table

    session, table = asyncio.run(first())
    path = session.save_path
    entries = [str(e) for e in session.entries]
    for listener in session.listeners:  # the dead process's lock goes with it
        if hasattr(listener, "stop"):
            listener.stop()

    async def second():
        again = saves.load(path)
        room, codes = read_codes(table.seats_path(), 3)
        assert (room, codes) == (table.room, table.codes)
        reopened = HostTable(again, set(codes), codes, room)
        assert [str(e) for e in again.entries] == entries
        server = HostServer(reopened)
        port = await server.start()
        devices = [Device(port, codes[0]), Device(port, codes[1])]
        for d in devices:
            await d.open()
        await asyncio.gather(*(play_device(d) for d in devices))
        for d in devices:
            await d.close()
        await server.stop()
        return again

    again = asyncio.run(second())
    assert again.over and [str(e) for e in again.entries][:len(entries)] == entries


def test_a_turn_sent_before_the_host_died_is_answered_after_its_restart(tmp_path):
    """The turn numbers are counted from the log: a host restarted on its save numbers
    every seat's turn as before, so a device's answer to the turn it had is taken, and
    the race goes on from the save with the choices in the order they came."""
    from flamme_tui import saves

    session = new_session()
    saves.attach_autosave(session, directory=tmp_path)
    table = HostTable(session, {0, 1})
    table.save_codes()
    rng = random.Random(4)
    while len(session.entries) < 9:  # the devices in random order, the bot when it can
        if table.bots_waiting():
            table.play_bot()
            continue
        seat = rng.choice(table.devices_waiting())
        turn = table.turn_for(seat)
        table.choose(seat, {"at": turn["at"], "option": 0, "action": turn["options"][0]["action"]})
    pending = {s: table.turn_for(s) for s in table.devices_waiting()}
    assert pending
    for listener in session.listeners:  # the host dies (its lock goes with it)
        if hasattr(listener, "stop"):
            listener.stop()
    again = saves.load(session.save_path)
    room, codes = read_codes(table.seats_path(), 3)
    reopened = HostTable(again, set(codes) - set(again.bots), codes, room)
    assert [str(e) for e in again.entries] == [str(e) for e in session.entries]
    for seat, turn in pending.items():
        assert reopened.turn_for(seat) == turn
        reopened.choose(seat, {"at": turn["at"], "option": 0, "action": turn["options"][0]["action"]})
    assert len(again.entries) == len(session.entries) + len(pending)


def test_the_host_gives_a_seat_back_from_its_bot_to_its_device_with_its_code():
    """`bot N` gave a seat away with no way back (its player, back, read "no seat has that
    code at this table"): `device N` returns it, with its same code; a line that was the
    seat's (watching since) plays it again at once, and a new line joins with the code."""
    said = []

    async def body(table, server, device):
        server.say = lambda kind, **facts: said.append((kind, facts.get("seat")))
        red = await device(table.codes[0])
        await red.until("turn")
        blue = await device(table.codes[1])
        playing = asyncio.ensure_future(play_device(blue))  # blue plays on all the while
        await server.hand_to_bot(0, "easy")
        assert (await red.until("error"))["code"] == "bot"
        assert table.given() == (0,) and table.seat_of(table.codes[0]) is None
        late = await device(table.codes[0])  # red's player, back: refused while a bot plays it
        assert (await late.until("error"))["code"] == "unknown-code"
        for _ in range(100):  # the bot plays red's cards meanwhile
            await asyncio.sleep(0.02)
            if table.turn_no(0) > 0:
                break
        assert table.turn_no(0) > 0
        assert await server.give_back(0)
        assert not await server.give_back(0) and not await server.give_back(2)  # not given, never a device
        assert table.given() == () and 0 not in table.session.bots and table.seat_of(table.codes[0]) == 0
        assert ("device", 0) in said
        welcome = await red.until("welcome")  # the same line, a seat again
        assert welcome["seat"] == 0 and server.seated[0] is not None
        while True:  # red's turn comes (at once, or once the round is over)
            message = await red.next()
            if message["type"] == "turn":
                break
        assert message["seat"] == 0 and message["at"] == table.turn_no(0)
        await red.send({"v": V, "type": "choose", "at": message["at"], "option": 0,
                        "action": message["options"][0]["action"]})
        await red.until("table")
        assert table.turn_no(0) == message["at"] + 1 and "bot" not in red.errors[1:]
        again = await device(table.codes[0])  # and its code joins (a reconnect takes the seat over)
        assert (await again.until("welcome"))["seat"] == 0
        assert (await red.until("error"))["code"] == "replaced"
        playing.cancel()
        return True

    assert asyncio.run(_with_host(body))


def test_a_seat_given_to_a_bot_keeps_its_code_in_the_seats_file(tmp_path):
    """So that `device N` gives it back after a restart on the save too."""
    from flamme_tui import saves

    session = new_session()
    saves.attach_autosave(session, directory=tmp_path)
    table = HostTable(session, {0, 1})
    table.hand_to_bot(1, "easy")
    table.save_codes()
    room, codes = read_codes(table.seats_path(), 3)
    assert codes == table.codes and set(codes) == {0, 1}
    for listener in session.listeners:
        if hasattr(listener, "stop"):
            listener.stop()
    again = HostTable(session, set(codes) - set(session.bots), codes, room)
    assert again.given() == (1,) and again.give_back(1) and again.seat_of(codes[1]) == 1


def test_a_seat_given_to_a_bot_or_back_is_saved_at_once(tmp_path):
    """A host stopped right after `bot N` or `device N`, before any action, comes back
    with the seat as the host's player left it (it was saved with the next action only)."""
    from flamme_tui import saves

    session = new_session()
    autosave = saves.attach_autosave(session, directory=tmp_path)
    table = HostTable(session, {0, 1})
    table.hand_to_bot(1, "medium")
    assert saves.load(autosave.path).bots == {1: "medium", 2: "easy"}
    assert table.give_back(1)
    assert saves.load(autosave.path).bots == {2: "easy"}
    autosave.detach()


async def test_a_bot_plays_as_soon_as_it_has_something_to_do():
    """The bot of seat 0 plays its round while the devices after it have not chosen yet
    (it waited for no device before), and the devices are sent their turns meanwhile."""
    session = new_session(bots={0: "easy"})
    table = HostTable(session, {1, 2})
    server = HostServer(table)
    port = await server.start()
    devices = [Device(port, table.codes[1]), Device(port, table.codes[2])]
    try:
        for d in devices:
            await d.open()
        for d in devices:
            await d.until("turn")
        for _ in range(200):
            await asyncio.sleep(0.02)
            if not session.game.needs(0):
                break
        assert not session.game.needs(0) and table.turn_no(0) >= 2  # its draw and its two cards
        assert table.turn_no(1) == table.turn_no(2) == 0 and table.waiting() == (1, 2)
        # the devices play on, the bot with them, to the end
        await asyncio.gather(*(play_device(d) for d in devices))
        assert session.over
    finally:
        for d in devices:
            await d.close()
        await server.stop()


def test_a_bot_s_action_thought_out_before_its_seat_was_given_back_is_not_played():
    session = new_session(bots={})
    table = HostTable(session, {0, 1, 2})
    table.hand_to_bot(2, "easy")
    move, turn_no = table.bot_move(2)
    decision = move.think()
    table.give_back(2)  # meanwhile: back on its device
    assert table.play_bot_move(move, turn_no, decision.action) is None and table.turn_no(2) == 0
    table.hand_to_bot(2, "medium")  # another bot now: the easy one's answer is not its
    assert table.play_bot_move(move, turn_no, decision.action) is None
    table.hand_to_bot(2, "easy")
    assert table.play_bot_move(move, turn_no, decision.action) is False and table.turn_no(2) == 1
    assert table.play_bot_move(move, turn_no, decision.action) is None  # once


def test_seat_codes_are_secret_unguessable_and_bound_to_one_seat():
    tables = [HostTable(new_session(), {0, 1}) for _ in range(20)]
    codes = [c for tb in tables for c in tb.codes.values()]
    assert len(set(codes)) == len(codes) and all(len(c) == 12 for c in codes)
    tb = tables[0]
    assert tb.seat_of(tb.codes[1]) == 1 and tb.seat_of(tb.codes[1].lower()) == 1
    assert tb.seat_of(tables[1].codes[1]) is None and tb.seat_of(tb.room) is None
    tb.hand_to_bot(1)
    assert tb.seat_of(tb.codes[1]) is None  # a seat given to a bot takes no device
    # a lone surrogate ("\ud800" in the hello's JSON) raised UnicodeEncodeError in the handler
    assert tb.seat_of("\ud800") is None and tb.seat_of("K7QM-4XPD-9RT\u00e9") is None


def test_only_the_protocol_s_version_as_a_number_is_understood():
    from flamme_tui.net.wire import ProtocolError, parse

    assert parse('{"v": 4, "type": "hello"}', 4096)["type"] == "hello"
    # 4.0 equals 4 in Python; 1 to 3 are the old versions (2: one seat chose at a time; 3: no move reasons)
    for version in ("true", "1.0", "4.0", "1", "2", "3", "\"4\"", "null"):
        with pytest.raises(ProtocolError):
            parse(f'{{"v": {version}, "type": "hello"}}', 4096)


def test_every_turn_of_a_random_race_offers_what_the_seats_own_view_offers():
    """The host's turn model is the seat's view's options, whatever the phase."""
    session = Session.new(RaceSpec(teams=TEAMS, stage="peloton-7", breakaway=True), 2, bots={})
    table = HostTable(session, {0, 1, 2})
    rng = random.Random(1)
    kinds = set()
    while not session.over:
        seat = table.due()
        turn = table.turn_for(seat)
        assert turn is not None and turn["seat"] == seat
        kinds.add(turn["kind"])
        assert [o["action"] for o in turn["options"]] == [str(o.action) for o in session.game.view(seat).options()]
        k = rng.randrange(len(turn["options"]))
        table.choose(seat, {"at": turn["at"], "option": k, "action": turn["options"][k]["action"]})
    assert kinds >= {"bidder", "bid", "draw", "pick"}


def test_a_bot_that_fails_is_said_and_its_seat_given_to_another_bot_finishes_the_race():
    said = []

    async def body(table, server, device):
        server.say = lambda kind, **facts: said.append((kind, facts))
        red, blue = await device(table.codes[0]), await device(table.codes[1])
        playing = asyncio.ensure_future(asyncio.gather(play_device(red), play_device(blue)))
        for _ in range(200):  # the devices play round 1's first cards; then the broken bot is due
            await asyncio.sleep(0.05)
            if any(kind == "bot-failed" for kind, _ in said):
                break
        assert any(kind == "bot-failed" and facts["seat"] == 2 for kind, facts in said)
        assert not table.session.over
        await server.hand_to_bot(2, "easy")
        await asyncio.wait_for(playing, 60)
        assert table.session.over
        return True

    assert asyncio.run(_with_host(body, bots={2: "no-such-bot"}))


def test_the_seats_played_here_are_read_back_and_a_bad_list_means_none(tmp_path):
    """Host a table writes the seats its host plays at the keyboard beside the codes;
    a list that is not one of seat numbers of this race reads as none."""
    import json as _json

    from flamme_tui.net.host import read_here

    path = tmp_path / "race.json.seats"
    for here, seen in (([0, 2], {0, 2}), ([], set()), ([0, 7], set()), (["0"], set()), ("0", set()), ([True], set())):
        path.write_text(_json.dumps({"v": 2, "room": "ABCDE", "seats": {}, "here": here}))
        assert read_here(path, 3) == seen, here
    path.write_text("{not json")
    assert read_here(path, 3) == set()
    assert read_here(tmp_path / "missing", 3) == set()


async def test_the_host_says_the_race_is_over_once_and_nobody_away_after_it():
    """At the end the devices leave and the host closes: the host's log says the
    race is over once, and not that a device dropped (nobody is away from a table
    that has ended)."""
    session = new_session()
    table = HostTable(session, {0, 1})
    said: list[str] = []
    server = HostServer(table, say=lambda kind, **facts: said.append(kind))
    port = await server.start()
    devices = [Device(port, table.codes[0]), Device(port, table.codes[1])]
    try:
        for d in devices:
            await d.open()
        await asyncio.gather(*(play_device(d) for d in devices))
        await devices[0].close()  # one leaves on its own, then the host closes
        await asyncio.sleep(0.2)
        await server.stop()
        await asyncio.sleep(0.1)
    finally:
        for d in devices:
            await d.close()
        await server.stop()
    assert session.over and said.count("over") == 1
    assert "away" not in said[said.index("over"):], said


def test_a_seats_file_that_is_no_small_regular_file_is_refused_in_one_line(tmp_path):
    """A link to an endless device or a folder in its place is never read whole."""
    import os

    from flamme_tui.net.host import read_here

    endless = tmp_path / "race.json.seats"
    endless.symlink_to("/dev/zero")
    with pytest.raises(ValueError, match="not a regular file"):
        read_codes(endless, 3)
    assert read_here(endless, 3) == set()
    big = tmp_path / "big.json.seats"
    big.write_text('{"v": 2, "room": "' + "A" * 5000 + '"}')
    with pytest.raises(ValueError, match="too big for a seats file"):
        read_codes(big, 3)
    folder = tmp_path / "folder.seats"
    os.mkdir(folder)
    assert read_here(folder, 3) == set()


async def test_a_bot_whose_action_the_rules_refuse_is_said_to_fail_once_and_not_tried_for_ever(monkeypatch):
    """A bot that answers an action its seat may not play: said (`bot-failed`), its seat
    left waiting for the host's player (`bot N BOT`), the worker free, the devices on."""
    from flamme_tui.bots.reasons import Decision
    from flamme_tui.engine.actions import Action
    from flamme_tui.play import session as session_module

    monkeypatch.setattr(session_module, "decide", lambda policy, view, budget: Decision(Action.parse("play green.S 99")))
    said = []
    session = new_session()
    table = HostTable(session, {0, 1})
    server = HostServer(table, say=lambda kind, **facts: said.append((kind, facts.get("seat"))))
    await server.start()
    try:
        for _ in range(100):
            await asyncio.sleep(0.02)
            if server.bots_task is not None and server.bots_task.done():
                break
        assert server.bots_task.done() and said.count(("bot-failed", 2)) == 1
        assert session.entries == [] and session.game.needs(2)
    finally:
        await server.stop()
