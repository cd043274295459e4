"""The messages between a host and the devices (docs/PROTOCOL.md), as JSON.

The host builds every message here, each from what its reader may see: a
seat's turn from `game.view(seat)` alone (the view the engine builds for
bots), the table from the public board, a revealed round from the engine's
events (all public once revealed).  The game itself is never encoded.

Both ends read what the other sends as hostile: `parse` bounds the size,
wants one JSON object of this protocol's version, and every reader checks
the fields it takes (ProtocolError otherwise, with a code the other end can
put in words: ERRORS).  Words are never sent: codes and numbers are, and
each device says them in its own language (the narrator tells the events).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields
from typing import Any

from ..engine import events as engine_events
from ..engine.events import Event
from ..engine.options import Option, Preview, dominated
from ..engine.phase import Phase
from ..i18n import N_, _

# the version every message carries ("v"); a message of another version is refused.  3: every seat
# that has something to do chooses at once, `at` numbering each seat's own turns (docs/PROTOCOL.md);
# 4: a Move event says why it moved other than its card (its `reason`)
PROTOCOL = 4
MAX_FROM_DEVICE = 4 * 1024  # bytes of one message a device sends (a hello or a choice is ~100)
MAX_FROM_HOST = 2 * 1024 * 1024  # bytes of one message a host sends (the set-up of a long stage ~60 KB)
MAX_DEPTH = 12  # nesting of a message a reader accepts (JSON is parsed only after this check)

# error codes: what went wrong, said by the device that reads them in its own language
ERRORS = {
    "bad-message": N_("the message is not one of this protocol's"),
    "too-big": N_("the message is too long"),
    "too-fast": N_("too many messages: slow down"),
    "version": N_("another version of the protocol: update flamme-tui"),
    "unknown-code": N_("no seat has that code at this table"),
    "too-many-tries": N_("too many wrong codes: wait a minute"),
    "full": N_("the table has no room for another watcher"),
    "not-joined": N_("say hello with a code first"),
    "not-your-turn": N_("it is not your seat's turn"),
    "stale": N_("that choice was for a turn that is over"),
    "not-offered": N_("that choice is not on offer"),
    "watcher": N_("a watcher does not play"),
    "replaced": N_("this seat joined from another device"),
    "bot": N_("the host gave this seat to a bot"),
    "closing": N_("the host is closing the table"),
}


def error_words(code: str) -> str:
    """An error code in the reader's language (an unknown code as it came, cleaned by the caller)."""
    return _(ERRORS[code]) if code in ERRORS else code


class ProtocolError(ValueError):
    """A message that cannot be taken: `code` is one of ERRORS."""

    def __init__(self, code: str, detail: str = "") -> None:
        super().__init__(f"{code}: {detail}" if detail else code)
        self.code = code
        self.detail = detail


# ------------------------------------------------------------- reading


def _depth_ok(text: str, limit: int = MAX_DEPTH) -> bool:
    """No more than `limit` nested arrays and objects (counted outside strings, in one pass)."""
    depth, in_string, escaped = 0, False, False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > limit:
                return False
        elif ch in "]}":
            depth -= 1
    return True


def parse(data: str | bytes, limit: int) -> dict[str, Any]:
    """One message: a JSON object of this protocol's version with a string `type`."""
    if len(data) > limit:
        raise ProtocolError("too-big")
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
    except UnicodeDecodeError:
        raise ProtocolError("bad-message", "not UTF-8") from None
    if not _depth_ok(text):
        raise ProtocolError("bad-message", "nested too deep")
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):
        raise ProtocolError("bad-message", "not JSON") from None
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise ProtocolError("bad-message", "not an object with a type")
    if type(message.get("v")) is not int or message["v"] != PROTOCOL:  # (true and 1.0 equal 1 in Python)
        raise ProtocolError("version", f"this end speaks version {PROTOCOL}")
    return message


def dumps(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def whole(message: dict[str, Any], key: str, low: int = 0, high: int = 1_000_000) -> int:
    """A whole number field within bounds (a bool is no number here)."""
    value = message.get(key)
    if type(value) is not int or not low <= value <= high:
        raise ProtocolError("bad-message", f"{key}: a whole number {low}-{high}")
    return value


def text_field(message: dict[str, Any], key: str, longest: int = 64) -> str:
    value = message.get(key)
    if not isinstance(value, str) or len(value) > longest:
        raise ProtocolError("bad-message", f"{key}: a text of at most {longest} characters")
    return value


# ------------------------------------------------------- the seat's turn


@dataclass(frozen=True, slots=True)
class SeatTurn:
    """What a seat may do now, from its own view: `kind` as the table model
    names it (place, draw, pick, bidder, bid), the rider it is about, that
    rider's hand (the seat's own), the options with their previews."""

    seat: int
    kind: str
    rider: int | None
    hand: tuple[int, ...]
    options: tuple[Option, ...]
    dominated: tuple[bool, ...]
    chosen: tuple[tuple[int, Any], ...]  # the seat's own cards face down this round
    keep: int  # how many of the hand it plays (bmx: tokens kept), 1 in classic
    bid: int  # the breakaway's bid (1, 2), 0 outside it
    last: bool = False  # a pick after which the seat has nothing to choose until the reveal


def seat_turn(game: Any, seat: int) -> SeatTurn:
    """The turn of `seat` (who must be due), built from `game.view(seat)` alone,
    as play.flow.current tells the kinds apart (without the hot-seat curtain)."""
    view = game.view(seat)
    # a card's preview with what the others' hidden cards leave open (in the wind, blocked, a crash),
    # as the race screen's aids say it: without `wind` a device's cards never said any of it
    offered = tuple(view.options(wind=game.phase == Phase.ENERGY))
    chosen = tuple(sorted(view.chosen.items()))
    if game.phase == Phase.GRID:
        return SeatTurn(seat, "place", game.to_place(), (), offered, (False,) * len(offered), chosen, 1, 0)
    hand_of = view.in_hand()
    rider, hand, keep = hand_of if hand_of is not None else (None, (), 1)
    if game.phase == Phase.BREAKAWAY:
        kind = "bid" if hand_of is not None else "bidder"
        return SeatTurn(seat, kind, rider, tuple(hand), offered, (False,) * len(offered), chosen, keep,
                        game.bid_round, kind == "bid" and last_pick(game, seat, offered))
    if hand_of is None:
        return SeatTurn(seat, "draw", None, (), offered, (False,) * len(offered), chosen, 1, 0)
    return SeatTurn(seat, "pick", rider, tuple(hand), offered, tuple(dominated(list(offered))), chosen, keep, 0,
                    last_pick(game, seat, offered))


def last_pick(game: Any, seat: int, offered: tuple[Option, ...]) -> bool:
    """Whether the seat's pick now is its last until the round (the bid) is revealed: a
    device then shows the seat its cards to confirm before sending, as the hot-seat table
    reviews a seat's last pick.  The engine says so: a pick played on a copy of the game
    leaves the seat nothing to do, or reveals the round (whatever is picked: a pick's
    card never changes who has cards left to pick)."""
    if not offered:
        return False
    twin = game.clone()
    twin.public_cache = None  # (a clone shares the game's board: the play must not move its riders)
    shown = twin.events  # a reveal gives the game new events (HostTable.revealed_since)
    twin.apply(offered[0].action)
    return twin.events is not shown or not twin.needs(seat)


def _plain(value: Any) -> Any:
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def turn_message(turn: SeatTurn, at: int) -> dict[str, Any]:
    """The `turn` message to `turn.seat` alone; `at` numbers the seat's own
    turns (how many of its actions the log holds, HostTable.turn_no): a
    choice names it, so a repeated or late one is refused, and another
    seat's action in between leaves it as it was."""
    return {
        "v": PROTOCOL, "type": "turn", "at": at, "seat": turn.seat, "kind": turn.kind, "rider": turn.rider,
        "hand": list(turn.hand), "keep": turn.keep, "bid": turn.bid, "last": turn.last,
        "chosen": [[i, _plain(c)] for i, c in turn.chosen],
        "options": [{"action": str(o.action), "preview": None if o.preview is None else asdict(o.preview),
                     "dominated": d} for o, d in zip(turn.options, turn.dominated)],
    }


# ------------------------------------------------------- the public table

RIDER_FIELDS = ("index", "id", "seat", "kind", "square", "lane", "crashed", "deck", "recycled", "exhaustion",
                "history", "from_supply", "bids")


def table_message(game: Any, due: int | None, waiting: tuple[int, ...], away: tuple[int, ...],
                  bots: dict[int, str], at: int) -> dict[str, Any]:
    """The public table: the board every seat sees (positions, public piles,
    cards played and revealed), every seat still choosing (`waiting`, in seat
    order; `due` the first of them), who has a card face down (that it has is
    public: what it is is not), who is away, the outcome."""
    board = game.view(0).board  # public to every seat: no hand, no face-down card
    ready = [i for i, r in enumerate(game.riders) if r.played is not None] if game.phase not in (
        Phase.GRID, Phase.OVER) else []
    over = game.phase == Phase.OVER
    return {
        "v": PROTOCOL, "type": "table", "at": at, "round": board.round, "phase": str(board.phase),
        "rounds_done": game.rounds_done,
        "riders": [{f: _plain(getattr(r, f)) for f in RIDER_FIELDS} for r in board.riders],
        "supply": board.supply, "die": board.die,
        "crossed": [[i, list(v)] for i, v in sorted(board.crossed.items())],
        "due": due, "waiting": list(waiting), "away": list(away), "ready": ready,
        "bots": {str(s): p for s, p in sorted(bots.items())},
        "ranking": list(game.ranking()) if over else None, "winner": game.winner if over else None,
    }


# ------------------------------------------------------- revealed rounds

EVENT_CLASSES: dict[str, type[Event]] = {
    cls.__name__: cls for cls in vars(engine_events).values()
    if isinstance(cls, type) and issubclass(cls, Event) and cls is not Event
}


def event_data(e: Event) -> dict[str, Any]:
    return {"event": type(e).__name__, **{f: _plain(getattr(e, f)) for f in e.fields}}


def _tupled(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tupled(v) for v in value)
    return value


def event_from(data: Any) -> Event:
    """An engine event from `event_data`'s form (ProtocolError if it is none)."""
    if not isinstance(data, dict) or data.get("event") not in EVENT_CLASSES:
        raise ProtocolError("bad-message", "not an event")
    cls = EVENT_CLASSES[data["event"]]
    names = cls.fields
    if set(data) != {"event", *names}:
        raise ProtocolError("bad-message", f"{data['event']}: its fields")
    try:
        return cls(**{n: _tupled(data[n]) for n in names})  # type: ignore[call-arg]
    except TypeError:
        raise ProtocolError("bad-message", f"{data['event']}: its fields") from None


def reveal_message(round_no: int, events: tuple[Event, ...] | list[Event], at: int) -> dict[str, Any]:
    """A round just resolved (or the breakaway's bids revealed): its events, all public now."""
    return {"v": PROTOCOL, "type": "reveal", "at": at, "round": round_no, "events": [event_data(e) for e in events]}


def error_message(code: str, detail: str = "") -> dict[str, Any]:
    return {"v": PROTOCOL, "type": "error", "code": code, "detail": detail}


# ------------------------------------------------------- a device's side


@dataclass(frozen=True, slots=True)
class OptionData:
    """One option as a device reads it: the action's text, its preview, dominated."""

    action: str
    preview: Preview | None
    dominated: bool


PREVIEW_FIELDS = tuple(f.name for f in fields(Preview))


def option_from(data: Any) -> OptionData:
    if not isinstance(data, dict) or not isinstance(data.get("action"), str) or len(data["action"]) > 64:
        raise ProtocolError("bad-message", "an option")
    preview = data.get("preview")
    if preview is not None:
        if not isinstance(preview, dict) or set(preview) != set(PREVIEW_FIELDS):
            raise ProtocolError("bad-message", "a preview")
        try:
            preview = Preview(**preview)
        except TypeError:  # (the compiled engine checks each field's type)
            raise ProtocolError("bad-message", "a preview") from None
        odds = preview.wind_odds
        if type(odds) is not int or not -1 <= odds <= 100:  # a chance in percent, shown as words
            raise ProtocolError("bad-message", "a preview")
    return OptionData(data["action"], preview, bool(data.get("dominated")))


__all__ = [
    "ERRORS", "MAX_FROM_DEVICE", "MAX_FROM_HOST", "PROTOCOL", "OptionData", "ProtocolError", "SeatTurn",
    "dumps", "error_message", "error_words", "event_data", "event_from", "option_from", "parse", "reveal_message",
    "seat_turn", "table_message", "turn_message", "whole",
]
