"""A device's end of the line: what it knows of the table, from the host's messages.

`DeviceTable` keeps what the host sent (docs/PROTOCOL.md): the public set-up,
the public table, this seat's turn, the revealed rounds' events, and puts
them in words with the narrator (in this device's language: words are never
sent).  It reads every message as hostile (wire.parse bounds it; each field
is checked as it is taken: a message that is not as the protocol says is
dropped with a ProtocolError).  `Line` is the WebSocket (aiohttp).  No
Textual here: ui/join.py draws a DeviceTable.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import urlsplit

from .. import i18n
from ..engine.actions import Action, ActionError, Bid, Draw, Place, Play, PlayTokens
from ..engine.cards import card_text
from ..engine.course import FAIR, WEATHER_KINDS
from ..engine.events import Event, Reveal
from ..engine.options import BLOCKED, CRASH, MAY, WIND
from ..engine.rules import find
from ..i18n import _
from ..pathtext import BROWSER_ENV
from ..play import narrator
from ..words import team_name
from .wire import (
    MAX_FROM_HOST,
    PROTOCOL,
    OptionData,
    ProtocolError,
    dumps,
    event_from,
    option_from,
    parse,
    whole,
)

MAX_ADDRESS = 255  # characters of an address as typed (a host name is at most 253)
_HOST_NAME = re.compile(r"[A-Za-z0-9.-]+")  # a host name (IDNA-encoded) or an IPv4 address
_IPV6 = re.compile(r"[0-9A-Fa-f:.]+")


def ws_url(address: str) -> str:
    """The host's WebSocket from what a player types: `HOST:PORT`, `http://HOST:PORT/...`
    or `ws://...` (ValueError, one line, for anything else: checked before anything opens)."""
    refused = ValueError(_("not a host address: {address!r} (give HOST:PORT, as the host printed it)").format(
        address=address[:80]))
    text = address.strip()
    if len(text) > MAX_ADDRESS or not address.isprintable():  # a control character never belongs in an address
        raise refused
    bare = "://" not in text
    try:
        parts = urlsplit("http://" + text if bare else text)
        port = parts.port
        name = parts.hostname or ""
        if ":" not in name:
            name = name.encode("idna").decode("ascii")  # a name no resolver takes is refused here (UnicodeError)
    except (ValueError, UnicodeError):  # a port that is no number or out of range, a broken [IPv6], a bad label
        raise refused from None
    if (parts.scheme not in ("http", "https", "ws", "wss") or not (_IPV6 if ":" in name else _HOST_NAME).fullmatch(name)
            or (bare and (not port or parts.path or parts.query or parts.fragment))):  # bare: HOST:PORT, as printed
        raise refused
    scheme = "wss" if parts.scheme in ("https", "wss") else "ws"
    host = f"[{name}]" if ":" in name else name
    return f"{scheme}://{host}{f':{port}' if port else ''}/ws"


@dataclass(frozen=True, slots=True)
class RiderRow:
    """A rider as the public table shows it (engine.view.RiderView's fields)."""

    index: int
    id: str
    seat: int
    kind: str
    square: int
    lane: int
    crashed: bool
    deck: int
    recycled: tuple[Any, ...]
    exhaustion: int
    history: tuple[Any, ...]
    from_supply: int
    bids: tuple[Any, ...]


def _tupled(value: Any) -> Any:
    return tuple(_tupled(v) for v in value) if isinstance(value, list) else value


def _rider_row(data: Any) -> RiderRow:
    if not isinstance(data, dict):
        raise ProtocolError("bad-message", "a rider")
    try:
        row = RiderRow(**{k: _tupled(v) for k, v in data.items()})
    except TypeError:
        raise ProtocolError("bad-message", "a rider's fields") from None
    if not (isinstance(row.id, str) and len(row.id) <= 32 and all(type(getattr(row, f)) is int for f in (
            "index", "seat", "square", "lane", "deck", "exhaustion", "from_supply"))):
        raise ProtocolError("bad-message", "a rider's fields")
    return row


@dataclass(frozen=True, slots=True)
class DeviceTurn:
    at: int
    kind: str  # place, draw, pick, bidder, bid
    rider: int | None
    hand: tuple[int, ...]
    keep: int
    bid: int
    options: tuple[OptionData, ...]
    chosen: tuple[tuple[int, Any], ...]
    last: bool = False  # the seat's last pick until the reveal: the player confirms it before it is sent


def named_here(setup: Any) -> Any:
    """`setup` with each team named by default, its colour in any language ("Bleu",
    "Azul", "Blue"), named in the language now; a name a player typed stays as typed
    (words.team_name, as every screen of a race names a team)."""
    return replace(setup, teams=tuple(replace(team, name=team_name(setup, seat))
                                      for seat, team in enumerate(setup.teams)))


class DeviceTable:
    """What one device knows, and the narrator's words for it (a game-like face:
    riders, setup, rules, course, pos, ranking: what narrator functions read)."""

    def __init__(self) -> None:
        self.seat: int | None = None  # None: a watcher
        self.room = ""
        self.host_setup: Any = None  # the set-up as the host sent it (its team names in the host's language)
        self._named: tuple[str, Any] = ("", None)  # (language, the set-up named in it): see `setup`
        self.rules: Any = None
        self.course: Any = None
        self.variant = ""
        self.riders: tuple[RiderRow, ...] = ()
        self.round = 0
        self.phase = ""
        self.due: int | None = None  # the first seat waited for
        self.waiting: tuple[int, ...] = ()  # every seat still choosing (the engine takes them in any order)
        self.idle = True  # the table has not waited for this seat since its last turn (see `rest`)
        self.away: tuple[int, ...] = ()
        self.ready: frozenset[int] = frozenset()
        self.bots: dict[int, str] = {}
        self.turn: DeviceTurn | None = None
        self.answered = -1  # the `at` (this seat's turn number) of the last turn this device answered
        self.at = -1
        self.outcome: tuple[tuple[int, ...], int | None] | None = None
        self.rounds: list[tuple[tuple[int, int], tuple[Event, ...]]] = []  # ((round, at), events) as received
        self.crossed: dict[int, tuple[int, int, int]] = {}
        self.error: str | None = None  # the last error code the host sent
        self.closed: str | None = None  # why the host ended this line ("replaced", "bot", "closing")

    # the face narrator functions read (a game's names)
    @property
    def setup(self) -> Any:
        """The host's set-up, each team still named by default (its colour) named in
        this device's language: a Spanish device read "tú: Bleu" from a French host."""
        if self.host_setup is None:
            return None
        language = i18n.language()
        if self._named[0] != language:
            self._named = (language, named_here(self.host_setup))
        return self._named[1]

    @property
    def pos(self) -> list[tuple[int, int]]:
        return [(r.square, r.lane) for r in self.riders]

    def ranking(self) -> list[int]:
        if self.outcome is not None:
            return list(self.outcome[0])
        return sorted(range(len(self.riders)), key=lambda i: (-self.riders[i].square, self.riders[i].lane))

    @property
    def over(self) -> bool:
        return self.outcome is not None

    # ---------------------------------------------------------- messages

    def take(self, data: str | bytes) -> str:
        """Read one message from the host; its type (ProtocolError if it is not as the protocol says)."""
        message = parse(data, MAX_FROM_HOST)
        kind = message["type"]
        if kind == "error":  # (a refused hello comes before any welcome)
            code = message.get("code")
            self.error = code[:40] if isinstance(code, str) else "bad-message"
            if self.error in ("replaced", "bot", "closing"):
                self.closed = self.error
                # nothing is asked of this device any more: no "Your turn" left on it, nobody waited for
                self.turn = None
                self.due, self.waiting = None, ()
                if self.error == "bot":
                    self.seat = None
        elif kind == "welcome":
            self._welcome(message)
        elif self.setup is None:
            raise ProtocolError("bad-message", "no welcome yet")
        elif kind == "table":
            self._table(message)
        elif kind == "turn":
            self._turn(message)
        elif kind == "reveal":
            self._reveal(message)
        else:
            raise ProtocolError("bad-message", "unknown type")
        return str(kind)

    def _welcome(self, message: dict[str, Any]) -> None:
        from ..setupdata import setup_from_json

        seat = message.get("seat")
        if seat is not None and type(seat) is not int:
            raise ProtocolError("bad-message", "seat")
        try:
            setup = setup_from_json(json.dumps(message.get("setup")))
        except ValueError:  # pydantic's ValidationError is one
            raise ProtocolError("bad-message", "the set-up") from None
        if seat is not None and not 0 <= seat < len(setup.teams):
            raise ProtocolError("bad-message", "seat")
        self.seat, self.host_setup, self._named = seat, setup, ("", None)
        # welcomed (again): the table is there, whatever ended the last line (a host that quit and came back
        # on its save: "the host is closing the table" stayed beside the turn, cutting the keys off)
        self.closed = None
        self.room = str(message.get("room", ""))[:16]
        self.variant = setup.variant
        self.rules = find(setup.variant)
        self.course = setup.course
        weather = message.get("weather", [])  # (a host before it sent none)
        if weather:
            if (not isinstance(weather, list) or len(weather) != setup.course.length
                    or any(not isinstance(w, str) or w not in WEATHER_SQUARE for w in weather)):
                raise ProtocolError("bad-message", "weather")
            self.course = setup.course.with_weather(tuple(weather))

    def _table(self, message: dict[str, Any]) -> None:
        riders = message.get("riders")
        if not isinstance(riders, list) or len(riders) > 24:
            raise ProtocolError("bad-message", "riders")
        rows = tuple(_rider_row(r) for r in riders)
        if any(r.index != k or not 0 <= r.seat < len(self.setup.teams) for k, r in enumerate(rows)):
            raise ProtocolError("bad-message", "riders")
        self.riders = rows
        self.at = whole(message, "at")
        self.round = whole(message, "round", 0, 10_000)
        self.phase = str(message.get("phase", ""))[:16]
        due = message.get("due")
        self.due = due if type(due) is int and 0 <= due < len(self.setup.teams) else None
        waiting = message.get("waiting")
        self.waiting = tuple(s for s in waiting[:64] if type(s) is int and 0 <= s < len(self.setup.teams)) if (
            isinstance(waiting, list)) else ()
        self.away = tuple(s for s in message.get("away") or () if type(s) is int)
        self.ready = frozenset(i for i in message.get("ready") or () if type(i) is int)
        bots = message.get("bots") or {}
        self.bots = {int(k): str(v)[:16] for k, v in bots.items() if str(k).isdigit()} if isinstance(bots, dict) else {}
        crossed = message.get("crossed") or []
        self.crossed = {c[0]: tuple(c[1]) for c in crossed if isinstance(c, list) and len(c) == 2
                        and type(c[0]) is int and isinstance(c[1], list) and len(c[1]) == 3}
        ranking = message.get("ranking")
        if isinstance(ranking, list) and all(type(i) is int for i in ranking):
            winner = message.get("winner")
            self.outcome = (tuple(ranking), winner if type(winner) is int else None)
            self.turn = None
        if self.seat is None or self.seat not in self.waiting:
            self.turn = None  # nothing left to do for now (all chosen, or another seat places its riders)
            self.idle = True

    def _turn(self, message: dict[str, Any]) -> None:
        if self.seat is None or message.get("seat") != self.seat:
            raise ProtocolError("bad-message", "a turn for another seat")
        if message.get("at") == self.answered:
            return  # sent again with the table while the answer is on its way: answered once
        options = message.get("options")
        hand = message.get("hand")
        if not isinstance(options, list) or len(options) > 200 or not isinstance(hand, list):
            raise ProtocolError("bad-message", "options")
        rider = message.get("rider")
        chosen = message.get("chosen") or []
        self.turn = DeviceTurn(
            whole(message, "at"), str(message.get("kind"))[:8], rider if type(rider) is int else None,
            tuple(c for c in hand if type(c) is int), whole(message, "keep", 0, 4), whole(message, "bid", 0, 4),
            tuple(option_from(o) for o in options),
            tuple((c[0], _tupled(c[1])) for c in chosen if isinstance(c, list) and len(c) == 2),
            message.get("last") is True)

    def _reveal(self, message: dict[str, Any]) -> None:
        events = message.get("events")
        if not isinstance(events, list) or len(events) > 500:
            raise ProtocolError("bad-message", "events")
        round_no = whole(message, "round", 0, 10_000)
        at = whole(message, "at")
        if self.rounds and self.rounds[-1][0] == (round_no, at):
            return  # the same reveal again (sent on a reconnect)
        self.rounds.append(((round_no, at), tuple(event_from(e) for e in events)))

    def answer(self, index: int) -> str:
        """The `choose` message for option `index` of the turn now; the turn is then answered."""
        turn = self.turn
        assert turn is not None
        self.turn, self.answered = None, turn.at
        return choice(turn, index)

    # ---------------------------------------------------------- words

    def rider_name(self, i: int) -> str:
        if not 0 <= i < len(self.riders):
            return "?"
        return narrator.rider_name(self, i)

    def team(self, seat: int) -> str:
        return str(self.setup.teams[seat].name) if self.setup is not None and 0 <= seat < len(self.setup.teams) else "?"

    def square_name(self, square: int) -> str:
        return narrator.label(self.course, square)

    def round_lines(self, events: tuple[Event, ...]) -> list[str]:
        return [narrator.event_line(e, self.rider_name, self.square_name) for e in events if not isinstance(e, Reveal)]

    def index_of(self, rider_id: str) -> int | None:
        for r in self.riders:
            if r.id == rider_id:
                return r.index
        return None

    def option_words(self, option: OptionData) -> str:
        """One option in words: a place on the grid, a rider to draw first, a card and where it goes."""
        try:
            action = Action.parse(option.action)
        except ActionError:
            return option.action
        i = self.index_of(action.rider)
        who = self.rider_name(i) if i is not None else action.rider
        if isinstance(action, Place):
            return narrator.place_words(self, action.square, action.lane)
        if isinstance(action, Draw):
            return _("{rider} draws first").format(rider=who)
        if isinstance(action, (Play, Bid)):
            card = card_text(action.card)
        elif isinstance(action, PlayTokens):
            card = "+".join("F" if t == 0 else str(t) for t in action.tokens)
        else:
            return option.action
        p = option.preview
        if p is None:
            return card
        # the wind as the race screen's aids say it ("front" read as "in the lead"): in the wind whatever
        # the others play, or for now (at the front of its group: the others' cards decide)
        marks = [_("finish") if p.finish else _("in the wind") if p.wind == WIND
                 else _("in the wind: {chance}").format(chance=narrator.wind_chance(p.wind_odds))
                 if p.wind == MAY and p.wind_odds >= 0 else _("in the wind for now") if p.wind == MAY and p.front else ""]
        marks += [_("blocked") if p.crowd == BLOCKED else _("may be blocked") if p.crowd == MAY else "",
                  _("crash") if p.fall == CRASH else _("may crash") if p.fall == MAY else ""]
        mark = ", ".join(m for m in marks if m)
        where = narrator.label(self.course, p.square)
        text = _("{card} → {square} (+{gain})").format(card=card, square=where, gain=p.gain)
        return f"{text}  {mark}" if mark else text

    def rest(self) -> bool:
        """Whether this seat's turn now comes after a wait (the table went on without it
        since its last turn): a desktop notification is worth it then; its choices in a
        row (a draw, then its cards) ring the bell only.  Asked once per new turn."""
        rested, self.idle = self.idle, False
        return rested

    def chosen_all(self) -> bool:
        """This seat has chosen all it can for now, and the table waits for others."""
        return self.seat is not None and self.outcome is None and self.seat not in self.waiting and bool(self.waiting)

    def status(self) -> str:
        """Whom the table waits for, in words: this seat (the bell rings on this device),
        every other seat still choosing."""
        if self.outcome is not None:
            winner = self.outcome[1]
            if winner is None:
                return _("The race is over.")
            return _("The race is over: {rider} wins.").format(rider=self.rider_name(winner))
        if self.seat is not None and self.seat in self.waiting and self.turn is not None:
            return _("Your turn: choose.")
        others = [s for s in self.waiting if s != self.seat]
        if not others:
            return ""
        if len(others) == 1:  # (one seat: said as ever, a bot thinking, an away one's seat to be handed on)
            seat = others[0]
            if seat in self.bots:
                return _("{team} (bot) is thinking...").format(team=self.team(seat))
            if seat in self.away:
                return _("Waiting for {team} (away: the host may hand the seat to a bot).").format(team=self.team(seat))
            return _("Waiting for {team}.").format(team=self.team(seat))
        who = ", ".join(self.team(s) + (_(" (bot)") if s in self.bots else _(" (away)") if s in self.away else "")
                        for s in others)
        return _("Waiting for {team}.").format(team=who)


WEATHER_SQUARE = frozenset((FAIR, *WEATHER_KINDS))  # what a square's weather may be


def code_problem(code: str) -> str | None:
    """Why `code` is no seat's code and no room code as the host prints them
    (letters and digits of its alphabet, dashes and spaces left out), None if it may be one."""
    from .host import ALPHABET, ROOM_CODE, SEAT_CODE, norm_code

    plain = norm_code(code[:64])
    if len(code) <= 64 and len(plain) in (SEAT_CODE, ROOM_CODE) and set(plain) <= set(ALPHABET):
        return None
    return _("not a code: {code!r} (a seat's code has {seat} letters and digits, as K7QM-4XPD-9RTA; "
             "the room code {room})").format(code=code[:40], seat=SEAT_CODE, room=ROOM_CODE)


def is_room_code(code: str) -> bool:
    """A room code (watchers) is shorter than any seat's code: a device need not be told which it got."""
    from .host import ROOM_CODE, norm_code

    return len(norm_code(code)) == ROOM_CODE


def hello(code: str, watch: bool = False) -> str:
    message = {"v": PROTOCOL, "type": "hello", "code": code[:32], "watch": watch}
    browser = os.environ.get(BROWSER_ENV, "")[:64]
    if browser:  # a tab of the host's page: for whom this join on the host's machine speaks
        message["browser"] = browser
    return dumps(message)


def choice(turn: DeviceTurn, index: int) -> str:
    """The `choose` message for option `index` of `turn` (DeviceTable.answer keeps it from being sent twice)."""
    return dumps({"v": PROTOCOL, "type": "choose", "at": turn.at, "option": index,
                  "action": turn.options[index].action})


class Line:
    """The WebSocket to the host: `open`, then `messages()` and `send`."""

    def __init__(self, address: str) -> None:
        self.url = ws_url(address)
        self.session: Any = None
        self.ws: Any = None

    async def open(self, code: str, watch: bool = False) -> None:
        import aiohttp

        self.session = aiohttp.ClientSession()
        try:
            self.ws = await self.session.ws_connect(self.url, max_msg_size=MAX_FROM_HOST, heartbeat=30)
        except BaseException:
            await self.session.close()
            raise
        await self.ws.send_str(hello(code, watch))

    async def send(self, text: str) -> None:
        if self.ws is not None and not self.ws.closed:
            await self.ws.send_str(text)

    async def messages(self) -> AsyncIterator[str]:
        import aiohttp

        async for msg in self.ws:
            if msg.type == aiohttp.WSMsgType.TEXT:
                yield msg.data
            elif msg.type in (aiohttp.WSMsgType.ERROR, aiohttp.WSMsgType.CLOSE):
                break

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.session is not None:
            await self.session.close()
