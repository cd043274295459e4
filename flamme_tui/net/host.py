"""The host: the one process that holds the game, serving each seat's hand to its own device.

`HostTable` is the table without the network: the session (set-up, seed,
action log, autosaved as every race is), which seats play on their own
device, their codes, and the checks every choice passes: the seat's code
names it, the seat has something to do now (every seat that has chooses at
once: the energy phase's draws and cards and the breakaway's bids in any
order, as the engine takes them; the grid in the engine's order), the choice
names the seat's own turn it was made for (`at`, the seat's turn number:
another seat's action leaves it as it was, a repeated or late choice of
this seat is stale) and one of the options that seat's own view offers now,
by its index and its action.  Anything else is refused to that device
alone, and the race goes on.  The log holds the choices in the order they
came: a race as valid as any, which saves, resumes and replays as any.

`HostServer` serves a HostTable over WebSockets (aiohttp): at most one
device per seat (a new one with the seat's code takes over: a reconnect),
watchers with the room code, the Origin checked (a browser page must be the
host's own; a terminal client sends none), each message bounded in size and
each peer in rate, wrong codes counted per address.  After every change it
sends each device the public table, a revealed round's events, and to each
seat that has something to do that seat's turn: nothing more
(tests/test_net.py captures every byte to check it).  The bots play as soon
as they have something to do, thinking in a worker thread while the devices
choose.
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..engine.actions import Action
from ..engine.race import RuleError
from ..engine.view import board as public_board
from ..files import FileKind, ReadError, check_json_depth, read_text
from ..i18n import N_, _
from ..play.session import BotMove, Session
from .guard import Bucket, Listening, listen, own_names, refusal
from .wire import (
    MAX_FROM_DEVICE,
    PROTOCOL,
    ProtocolError,
    SeatTurn,
    dumps,
    error_message,
    parse,
    reveal_message,
    seat_turn,
    table_message,
    text_field,
    turn_message,
    whole,
)

# codes: no letters that read alike (0/O, 1/I/L)
ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
SEAT_CODE = 12  # characters of a seat's code: 31**12 (59 bits), with wrong tries bounded per address
ROOM_CODE = 5  # characters of the room code (watchers: a watcher sees only the public table)
# messages a second from one device, on average and at once: any message, and refused ones (a device
# sends a choice only when it gets a turn, so play never comes near; a flood or a guesser does)
RATE, BURST = 100.0, 200.0
REFUSED_RATE, REFUSED_BURST = 5.0, 20.0
WRONG_CODES = 10  # wrong codes from one address in WRONG_WINDOW seconds, then it is refused a while
WRONG_WINDOW = 60.0
MAX_WATCHERS = 32
MAX_PEERS = 64  # lines at once, joined or not: 12 seats, 32 watchers and room for reconnects
HELLO_SECONDS = 10.0  # a connection that says no hello in this time is closed
# lines from one address that have not said hello yet: one client holding all MAX_PEERS open (each
# reopened as its hello time ran out) kept every device out; the page's tabs all come from the host
# itself, so a few at once are allowed (a reconnect after a restart)
MAX_WAITING_PER_ADDRESS = 16
SEATS_FILE = ".seats"  # beside the race file: the room and seat codes, so a restarted host keeps them
SEATS_VERSION = 2  # the seats file's own version (not the protocol's: its form has not changed)


def new_code(length: int) -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(length))


def show_code(code: str) -> str:
    """A seat code in groups of four, as printed ("K7QM-4XPD-9RTA"); `norm_code` reads it back."""
    return "-".join(code[k:k + 4] for k in range(0, len(code), 4))


def norm_code(text: str) -> str:
    """A code as typed: any case, dashes and spaces left out."""
    return "".join(ch for ch in text.upper() if ch not in "- ")


class Refused(ProtocolError):
    """A choice the host does not take (the code says why)."""


@dataclass
class HostTable:
    """The race and who plays where; every change goes through `choose`, `play_bot_move`,
    `hand_to_bot` or `give_back`."""

    session: Session
    devices: set[int]  # seats played on their own device
    codes: dict[int, str] = field(default_factory=dict)  # seat -> its code (secret); kept for a seat given to a bot
    room: str = ""
    last_reveal: dict[str, Any] | None = None
    # device seats the app's host plays at its own keyboard: at the table whenever the host is,
    # never "away" to the other devices (their screen opens over loopback only when asked)
    here: set[int] = field(default_factory=set)
    # the seats' turn numbers, counted from the game's actions as they come (see turn_no)
    _counted: tuple[Any, int, list[int]] = field(default=(None, 0, []), repr=False)
    # seat -> (its turn number, the public board, its turn): what it was offered (see seat_turn)
    _turns: dict[int, tuple[int, Any, SeatTurn]] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self.devices = set(self.devices)
        self.here = set(self.here) & self.devices
        for seat in sorted(self.devices):
            self.codes.setdefault(seat, new_code(SEAT_CODE))
        self.room = self.room or new_code(ROOM_CODE)

    @property
    def game(self) -> Any:
        return self.session.game

    @property
    def at(self) -> int:
        """The log's length (the table and a reveal name it)."""
        return len(self.session.entries)

    def turn_no(self, seat: int) -> int:
        """The seat's turn number: how many of its actions the game holds.  A
        `turn` names it and a choice names it back: the seat's own action moves
        it on (a choice sent twice, or late, names a number that is gone), and
        nothing else does (another seat's choice leaves it, and the seat's
        options, as they were: nothing but its own action changes what a seat
        may do while it has something to do).  Counted from the log, so a host
        restarted on its save numbers every seat's turn as before."""
        game = self.game
        actions = game.actions
        counted, done, counts = self._counted
        if counted is not game or done > len(actions):  # (another game: counted again from its start)
            done, counts = 0, [0] * len(game.seats)
        if done < len(actions):
            index, riders = game.index, game.riders
            for action in actions[done:]:
                counts[riders[index[action.rider]].seat] += 1
        self._counted = (game, len(actions), counts)
        return counts[seat]

    def seat_of(self, code: str) -> int | None:
        """The device seat whose code this is (compared in constant time), else None."""
        code = norm_code(code)
        if not code.isascii():  # no code is (a lone surrogate, "\ud800" in JSON, cannot even be encoded)
            return None
        found = None
        for seat, secret in self.codes.items():
            if secrets.compare_digest(code.encode(), secret.encode()) and seat in self.devices:
                found = seat
        return found

    def waiting(self) -> tuple[int, ...]:
        """Every seat that has something to do now, in seat order: those who choose at once
        (the energy phase, the breakaway's bids), or the one placing a rider on the grid."""
        if self.session.over:
            return ()
        return tuple(self.game.to_move())

    def due(self) -> int | None:
        """The first seat waited for (None once the race is over)."""
        waiting = self.waiting()
        return waiting[0] if waiting else None

    def devices_waiting(self) -> tuple[int, ...]:
        """The device seats that have something to do now (each is sent its turn)."""
        bots = self.session.bots
        return tuple(s for s in self.waiting() if s in self.devices and s not in bots)

    def bots_waiting(self) -> tuple[int, ...]:
        """The bot seats that have something to do now (each plays as soon as it has)."""
        bots = self.session.bots
        return tuple(s for s in self.waiting() if s in bots)

    def seat_turn(self, seat: int) -> SeatTurn:
        """`wire.seat_turn` of the seat now, built once for each of its turns: its options
        and their previews come from its own view, which nothing but its own action changes
        while it has something to do but the public board (a new round, a placement, the
        bids shown); a device seat's turn is sent again with every table."""
        turn_no, board = self.turn_no(seat), public_board(self.game)
        kept = self._turns.get(seat)
        if kept is not None and kept[0] == turn_no and kept[1] is board:
            return kept[2]
        turn = seat_turn(self.game, seat)
        self._turns[seat] = (turn_no, board, turn)
        return turn

    def turn_for(self, seat: int) -> dict[str, Any] | None:
        """The `turn` message for `seat` if it must choose now (from its own view only)."""
        if seat not in self.devices or self.session.is_bot(seat) or self.session.over or not self.game.needs(seat):
            return None
        return turn_message(self.seat_turn(seat), self.turn_no(seat))

    def table(self, away: Iterable[int] = ()) -> dict[str, Any]:
        waiting = self.waiting()
        due = waiting[0] if waiting else None
        return table_message(self.game, due, waiting, tuple(sorted(away)), dict(self.session.bots), self.at)

    def choose(self, seat: int, message: dict[str, Any]) -> bool:
        """Play `seat`'s choice (Refused, changing nothing, unless it is on offer
        now); True when it resolved a round (or revealed bids): `last_reveal`."""
        at = whole(message, "at")
        index = whole(message, "option", 0, 10_000)
        action_text = text_field(message, "action")
        if self.session.is_bot(seat):
            raise Refused("bot")
        if seat not in self.devices or self.session.over:
            raise Refused("not-your-turn")
        if at != self.turn_no(seat):  # a choice sent twice, or for a turn of the seat that is over
            raise Refused("stale")
        if not self.game.needs(seat):
            raise Refused("not-your-turn")
        turn = self.seat_turn(seat)
        if index >= len(turn.options) or str(turn.options[index].action) != action_text:
            raise Refused("not-offered")
        return self._apply(turn.options[index].action)

    def _apply(self, action: Action) -> bool:
        game = self.game
        before = game.events
        self.session.apply(action)
        return self.revealed_since(before)

    def revealed_since(self, before: Any) -> bool:
        """Whether the game's events changed since `before` (a round resolved, bids shown): `last_reveal` then."""
        events = self.session.game.events
        if events is before or not events:
            return False
        self.last_reveal = reveal_message(self.game.rounds_done, tuple(events), self.at)
        return True

    def hand_to_bot(self, seat: int, policy: str = "easy") -> None:
        """The host's player gives a seat (a waiting one, say) to a bot; `give_back` returns it."""
        self.session.bots[seat] = policy
        self.devices.discard(seat)
        self.save_seating()

    def given(self) -> tuple[int, ...]:
        """The seats a bot plays that had a device (their codes kept): `give_back` returns them."""
        return tuple(s for s in sorted(self.codes) if s in self.session.bots and s not in self.devices)

    def give_back(self, seat: int) -> bool:
        """A seat given to a bot goes back to its device, with its same code (False, changing
        nothing, for a seat that never had a device or has one)."""
        if seat not in self.given():
            return False
        del self.session.bots[seat]
        self.devices.add(seat)
        self.save_seating()
        return True

    def save_seating(self) -> None:
        """Write the race file now that a seat changed hands: who plays each seat is saved
        with the race, and otherwise only with the next action (a host stopped before
        it came back with the seat as it was).  A failed write is said by the autosave."""
        from ..saves import Autosave

        for listener in self.session.listeners:
            if isinstance(listener, Autosave):
                listener.write()

    def bot_move(self, seat: int) -> tuple[BotMove, int]:
        """The bot of `seat`, ready to think about its next action, and the seat's turn number.
        Its view is the seat's view now on a public board of its own: the bot thinks in a
        worker thread while the devices choose, and the previews a view works out move riders
        on its board's position game for a moment (ClassicGame.landing): on the board the
        devices' turns are built from, a bot's preview and a device's would meet."""
        session, game = self.session, self.game
        twin = game.clone()
        twin.public_cache = None  # (a clone shares the game's board: this one gets its own)
        move = BotMove(seat, session.bots[seat], twin.view(seat), len(game.actions), session.budget,
                       len(session.entries))
        return move, self.turn_no(seat)

    def play_bot_move(self, move: BotMove, turn_no: int, action: Action) -> bool | None:
        """Commit a bot's action thought out from `move` (while the devices chose: it reads
        only its own view) if the seat is still that bot's and at that turn; None, changing
        nothing, if not (given back, given to another bot, or the action is no longer one)."""
        seat = move.seat
        if (self.session.bots.get(seat) != move.policy or self.session.over or self.turn_no(seat) != turn_no
                or not self.game.needs(seat)):
            return None
        try:
            return self._apply(action)
        except RuleError:
            return None

    def play_bot(self, think: Callable[[Any], Any] | None = None) -> bool:
        """Play the first waiting bot's action here (tests; the server thinks in a thread)."""
        move, turn_no = self.bot_move(self.bots_waiting()[0])
        decision = move.think() if think is None else think(move)
        revealed = self.play_bot_move(move, turn_no, decision.action)
        if revealed is None:
            raise RuntimeError(f"the bot of seat {move.seat} answered a position that is gone")
        return revealed

    # --------------------------------------------------- across a restart

    def seats_path(self) -> Path | None:
        path = self.session.save_path
        return None if path is None else seats_file(path)

    def save_codes(self) -> Path | None:
        """Write the room and seat codes beside the race file (readable by its owner
        only): a host restarted on the save keeps them, and the devices come back;
        and the seats played `here` (read_here)."""
        path = self.seats_path()
        if path is None:
            return None
        # every code, a seat given to a bot's too: `give_back` returns it to its device after a restart
        data = json.dumps({"v": SEATS_VERSION, "room": self.room,
                           "seats": {str(s): self.codes[s] for s in sorted(self.codes)},
                           "here": sorted(self.here)}).encode()
        tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
        try:
            os.write(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
        return path


def seats_file(save: Path) -> Path:
    """Where the seats file of a race file is: beside it, NAME.json.seats."""
    return save.with_name(save.name + SEATS_FILE)


SEATS_KIND = FileKind(N_("seats file"), 4096, 4)  # a dozen codes at most, flat


def _seats_data(path: Path) -> Any:
    """A seats file's JSON, read as any file the app reads (files.read_text: a regular
    file, bounded), else ValueError in one line."""
    try:
        text, _stat = read_text(path, SEATS_KIND)
        check_json_depth(text, SEATS_KIND)
        return json.loads(text)
    except ReadError as exc:
        raise ValueError(f"{path.name}: {exc.reason}") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path.name}: cannot be read ({type(exc).__name__})") from None


def read_codes(path: Path, seats: int) -> tuple[str, dict[int, str]]:
    """The room and seat codes a host wrote beside a race file (ValueError, one line, if unusable)."""
    data = _seats_data(path)
    if not isinstance(data, dict) or data.get("v") != SEATS_VERSION:
        raise ValueError(f"{path.name}: not a seats file of this version")
    room, codes = data.get("room"), data.get("seats")
    if not isinstance(room, str) or not isinstance(codes, dict):
        raise ValueError(f"{path.name}: room and seats expected")
    out: dict[int, str] = {}
    for key, code in codes.items():
        if not (isinstance(key, str) and key.isdigit() and int(key) < seats and isinstance(code, str)
                and len(code) == SEAT_CODE and set(code) <= set(ALPHABET)):
            raise ValueError(f"{path.name}: seats: a seat number and its code expected")
        out[int(key)] = code
    if len(room) != ROOM_CODE or not set(room) <= set(ALPHABET):
        raise ValueError(f"{path.name}: room: a {ROOM_CODE}-character code expected")
    return room, out


def read_here(path: Path, seats: int) -> set[int]:
    """The seats a seats file says the app's host played at its keyboard (read_codes
    checked the file; a list missing or not of seat numbers: none)."""
    try:
        data = _seats_data(path)
    except ValueError:
        return set()
    here = data.get("here", []) if isinstance(data, dict) else []
    if not isinstance(here, list) or not all(type(s) is int and 0 <= s < seats for s in here):
        return set()
    return set(here)


# ------------------------------------------------------------ the server


@dataclass(eq=False)
class Peer:
    ws: Any  # aiohttp.web.WebSocketResponse
    address: str
    seat: int | None = None  # None: not joined yet, or a watcher
    watcher: bool = False
    given: int | None = None  # the seat this line played until the host gave it to a bot (give_back seats it again)
    bucket: Bucket = field(default_factory=lambda: Bucket(RATE, BURST))
    mistakes: Bucket = field(default_factory=lambda: Bucket(REFUSED_RATE, REFUSED_BURST))
    refused: int = 0


class HostServer:
    """A HostTable on a port; `say(kind, **facts)` hears what the host's screen tells."""

    def __init__(self, table: HostTable, host: str = "127.0.0.1", port: int = 0,
                 say: Callable[..., None] | None = None) -> None:
        self.table = table
        self.host, self.port = host, port
        self.say = say or (lambda kind, **facts: None)
        self.names = own_names(host)
        self.peers: set[Peer] = set()
        self.seated: dict[int, Peer] = {}
        self.wrong: dict[str, list[float]] = {}
        self.lock = asyncio.Lock()
        self.listening: Listening | None = None
        self.bots_task: asyncio.Task[None] | None = None
        self.done = asyncio.Event()
        self.closing = False  # stop() is under way: the devices leaving are not away

    # ------------------------------------------------------ start, stop

    async def start(self) -> int:
        """Listen; the port (a free one if 0 was asked)."""
        from aiohttp import web

        app = web.Application(client_max_size=MAX_FROM_DEVICE)
        app.router.add_get("/", self.handle_page)
        app.router.add_get("/ws", self.handle_ws)
        # stop() closes every line first: nothing is left to wait for on the way out
        self.listening = await listen(app, self.host, self.port)
        self.port = self.listening.port
        self.kick_bots()
        return self.port

    async def stop(self) -> None:
        self.closing = True
        for peer in list(self.peers):
            await self._send(peer, error_message("closing"))
            await peer.ws.close()
        if self.bots_task is not None:
            self.bots_task.cancel()
        if self.listening is not None:
            await self.listening.cleanup()

    # ------------------------------------------------------ pages

    async def handle_page(self, request: Any) -> Any:
        from aiohttp import web

        # no code, no game here: how to join, in the words of the command line
        return web.Response(text=_("flamme-tui host: join with `flamme-tui join ADDRESS CODE`") + "\n")

    async def handle_ws(self, request: Any) -> Any:
        from aiohttp import WSMsgType, web

        why = refusal(request.headers.get("Origin"), request.headers.get("Host"), self.names, allow_no_origin=True)
        if why is not None:
            raise web.HTTPForbidden(text=_("flamme-tui: refused: {why}").format(why=why) + "\n")
        address = request.remote or "?"
        waiting = sum(1 for p in self.peers if p.address == address and p.seat is None and not p.watcher)
        # lines not joined yet count too (each waits HELLO_SECONDS at most)
        if len(self.peers) >= MAX_PEERS or waiting >= MAX_WAITING_PER_ADDRESS:
            raise web.HTTPServiceUnavailable(text=_("flamme-tui: the table has no room for another line") + "\n")
        ws = web.WebSocketResponse(max_msg_size=MAX_FROM_DEVICE, heartbeat=30)
        await ws.prepare(request)
        peer = Peer(ws, address)
        self.peers.add(peer)
        try:
            hello = asyncio.get_running_loop().call_later(HELLO_SECONDS, lambda: asyncio.ensure_future(
                ws.close()) if peer.seat is None and not peer.watcher else None)
            async for msg in ws:
                if msg.type == WSMsgType.TEXT:
                    await self.receive(peer, msg.data)
                elif msg.type == WSMsgType.BINARY:  # (counted as any message: a flood of them is one too)
                    if not peer.bucket.take():
                        await self._too_fast(peer)
                    elif peer.mistakes.take():
                        await self._send(peer, error_message("bad-message", "text frames only"))
                    else:
                        await self._too_fast(peer)
                elif msg.type == WSMsgType.ERROR:
                    break
            hello.cancel()
        finally:
            self.peers.discard(peer)
            if peer.seat is not None and self.seated.get(peer.seat) is peer:
                del self.seated[peer.seat]
                if not self.closing and not self.table.session.over:  # (the host closed it, or it is over:
                    self.say("away", seat=peer.seat)  # nobody is away from a table that has ended)
                await self.broadcast()
        return ws

    # ------------------------------------------------------ messages

    async def receive(self, peer: Peer, data: str) -> None:
        if not peer.bucket.take():
            await self._too_fast(peer)
            return
        try:
            message = parse(data, MAX_FROM_DEVICE)
            kind = message["type"]
            if kind == "hello":
                await self.hello(peer, message)
            elif kind == "choose":
                if peer.watcher:
                    raise Refused("watcher")
                if peer.seat is None:
                    raise Refused("not-joined")
                async with self.lock:
                    seat = peer.seat
                    revealed = self.table.choose(seat, message)
                self.say("chose", seat=seat)
                await self.broadcast(revealed)
                self.kick_bots()
            else:
                raise ProtocolError("bad-message", f"unknown type {kind[:20]!r}")
        except ProtocolError as exc:
            if peer.mistakes.take():
                await self._send(peer, error_message(exc.code, exc.detail))
            else:
                await self._too_fast(peer)

    async def _too_fast(self, peer: Peer) -> None:
        """Past the rate: the message is dropped, the device told now and then, a flood's line closed."""
        peer.refused += 1
        if peer.refused > 200:
            await peer.ws.close()
        elif peer.refused % 10 == 1:
            await self._send(peer, error_message("too-fast"))

    @staticmethod
    def _who(peer: Peer, message: dict[str, Any]) -> str:
        """Whom wrong codes are counted for: the line's address; for a line from this machine
        that says it speaks for a browser (a tab of the host's page: every tab's join comes from
        here), that browser's, so one tab typing wrong codes does not lock the others out.  A
        line from elsewhere cannot say so."""
        browser = message.get("browser")
        local = peer.address in ("127.0.0.1", "::1")
        if local and isinstance(browser, str) and 0 < len(browser) <= 64:
            return f"{peer.address} for {browser}"
        return peer.address

    def _too_many_wrong(self, address: str) -> bool:
        now = time.monotonic()
        recent = [t for t in self.wrong.get(address, []) if now - t < WRONG_WINDOW]
        self.wrong[address] = recent
        if len(self.wrong) > 1000:  # many addresses: forget those with no recent wrong code
            self.wrong = {a: ts for a, ts in self.wrong.items() if ts or a == address}
        return len(recent) >= WRONG_CODES

    async def hello(self, peer: Peer, message: dict[str, Any]) -> None:
        if peer.seat is not None or peer.watcher:
            raise ProtocolError("bad-message", "hello twice")
        who = self._who(peer, message)
        if self._too_many_wrong(who):
            raise Refused("too-many-tries")
        code = norm_code(text_field(message, "code", 32))
        if not code.isascii():  # no code is; a lone surrogate ("\ud800") could not even be compared
            self.wrong[who].append(time.monotonic())
            raise Refused("unknown-code")
        if message.get("watch") is True:
            if not secrets.compare_digest(code.encode(), self.table.room.encode()):
                self.wrong[who].append(time.monotonic())
                raise Refused("unknown-code")
            if sum(1 for p in self.peers if p.watcher) >= MAX_WATCHERS:
                raise Refused("full")
            peer.watcher = True
            self.say("watcher")
        else:
            seat = self.table.seat_of(code)
            if seat is None:
                self.wrong[who].append(time.monotonic())
                raise Refused("unknown-code")
            old = self.seated.get(seat)
            peer.seat = seat
            self.seated[seat] = peer
            if old is not None:  # the seat came back on another line: the old one is closed
                await self._send(old, error_message("replaced"))
                old.seat = None
                await old.ws.close()
            self.say("joined", seat=seat)
        await self._send(peer, self.welcome(peer.seat))
        if self.table.last_reveal is not None:
            await self._send(peer, self.table.last_reveal)
        await self.broadcast()

    def welcome(self, seat: int | None) -> dict[str, Any]:
        from ..setupdata import setup_data

        # a meteo race's weather is drawn from its seed when the race is set up: public (the tokens lie
        # face up on the tiles), but not in the set-up, so it comes along (the devices drew none)
        course = self.table.game.course
        return {"v": PROTOCOL, "type": "welcome", "seat": seat, "room": self.table.room,
                "setup": setup_data(self.table.session.setup), "weather": list(course.weather[:course.length])}

    def away(self) -> tuple[int, ...]:
        return tuple(s for s in sorted(self.table.devices) if s not in self.seated and s not in self.table.here)

    async def broadcast(self, revealed: bool = False) -> None:
        """Every device: the reveal just made (if any, to all first: it is what
        everybody waits for), the public table, and to each seat that has
        something to do its turn (a device rings its bell for a new one).  Every
        message is built at once, from the table as it is now (another change may
        come while they are sent: its own broadcast follows), each encoded once for all;
        the reveal and the table are on their way before the turns are built (a turn's
        cards say their chances of the wind: View.wind_odds, the costly part)."""
        table = self.table.table(self.away())
        reveal = self.table.last_reveal if revealed else None
        over = self.table.session.over  # (this table is the last one: said once it is sent)
        waiting = self.table.waiting()
        due = [(seat, peer) for seat in self.table.devices_waiting() if (peer := self.seated.get(seat)) is not None]
        peers = [p for p in self.peers if p.seat is not None or p.watcher]
        # (said now, in the order the changes came: a broadcast still sending may end after a later one)
        if reveal is not None:
            self.say("revealed", round=reveal["round"])
        if waiting:
            devices, here = self.table.devices, self.table.here
            self.say("waiting", seat=waiting[0], seats=waiting,
                     away=tuple(s for s in waiting if s in devices and s not in self.seated and s not in here))
        texts = ([dumps(reveal)] if reveal is not None else []) + [dumps(table)]

        async def send(peer: Peer) -> None:  # (in order to each: the reveal, the table; then its turn)
            for text in texts:
                await self._send_text(peer, text)

        # the reveal and the table on their way to every device first (each send waits only for
        # its own socket), then each turn, built then (an action taken meanwhile broadcasts again)
        sending = asyncio.gather(*(send(p) for p in peers))
        await asyncio.sleep(0)
        turns = [(peer, dumps(turn)) for seat, peer in due if (turn := self.table.turn_for(seat)) is not None]
        await sending
        await asyncio.gather(*(self._send_text(peer, text) for peer, text in turns))
        if over and not self.done.is_set():  # said once (a device leaving broadcasts again)
            self.say("over")
            self.done.set()

    async def _send(self, peer: Peer, message: dict[str, Any]) -> None:
        await self._send_text(peer, dumps(message))

    async def _send_text(self, peer: Peer, text: str) -> None:
        if peer.ws.closed:
            return
        try:
            await peer.ws.send_str(text)
        except (ConnectionError, RuntimeError):  # the line dropped meanwhile: its seat is away
            pass

    # ------------------------------------------------------ bots

    def kick_bots(self) -> None:
        """Let the bots that have something to do play, one after another, thinking in a thread."""
        if self.table.bots_waiting() and (self.bots_task is None or self.bots_task.done()):
            self.bots_task = asyncio.ensure_future(self._play_bots())

    async def _play_bots(self) -> None:
        """Each bot seat plays as soon as it has something to do, the devices choosing
        meanwhile: it thinks in a worker thread from its own view (taken under the lock),
        and its action is played if its seat is still that bot's, at that turn."""
        failed: set[tuple[int, str]] = set()  # (seat, bot) that failed in this run: the others play on
        while True:
            seats = [s for s in self.table.bots_waiting() if (s, self.table.session.bots[s]) not in failed]
            if not seats:
                return
            async with self.lock:
                move, turn_no = self.table.bot_move(seats[0])
            try:
                decision = await asyncio.to_thread(move.think)
            except Exception as exc:  # a bot that fails must not stop the table unheard
                failed.add((move.seat, move.policy))
                self.say("bot-failed", seat=move.seat, why=type(exc).__name__)
                continue
            async with self.lock:
                revealed = self.table.play_bot_move(move, turn_no, decision.action)
                # (refused while the seat is still that bot's at that turn: the rules refused its action)
                refused = revealed is None and self.table.session.bots.get(move.seat) == move.policy and (
                    self.table.turn_no(move.seat) == turn_no and self.table.game.needs(move.seat))
            if refused:
                failed.add((move.seat, move.policy))
                self.say("bot-failed", seat=move.seat, why=RuleError.__name__)
            elif revealed is not None:
                await self.broadcast(revealed)

    async def hand_to_bot(self, seat: int, policy: str = "easy") -> None:
        async with self.lock:
            self.table.hand_to_bot(seat, policy)
        peer = self.seated.pop(seat, None)
        if peer is not None:
            await self._send(peer, error_message("bot"))
            peer.seat = None
            peer.watcher = True  # it may go on watching the public table
            peer.given = seat
        self.say("bot", seat=seat, policy=policy)
        await self.broadcast()
        self.kick_bots()

    async def give_back(self, seat: int) -> bool:
        """A seat given to a bot goes back to its device, with its same code; the line it
        had, if still there (watching since), plays it again at once.  False: no such seat."""
        async with self.lock:
            if not self.table.give_back(seat):
                return False
        peer = next((p for p in self.peers if p.given == seat and p.watcher and not p.ws.closed), None)
        if peer is not None and seat not in self.seated:
            peer.watcher, peer.seat, peer.given = False, seat, None
            self.seated[seat] = peer
            await self._send(peer, self.welcome(seat))
        self.say("device", seat=seat)
        await self.broadcast()
        return True
