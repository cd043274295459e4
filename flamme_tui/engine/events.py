"""What happened in a round: small frozen values, one class per kind of
event (the words for each are play/narrator.py's: the engine tells nothing).

A game's `events` holds the events of the last resolved round, in order.
Readers use the fields (`e.rider`, `e.square`), never positions in a tuple;
`kind` names the event for whoever groups them (the UI's replay frames).

Events are made for every move of every simulated round (bots race
thousands), so they are plain compiled classes with read-only (Final)
attributes rather than frozen dataclasses, which mypyc builds ten times
slower; equality and repr come from each class's `fields`.
"""

from __future__ import annotations

from typing import ClassVar, Final


def token_text(token: int) -> str:
    return "F" if token == 0 else str(token)


# Why a move was worth other than its card (Move.reason): one bit per rule that
# changed it, set by the rule itself (engine.terrain.terrain_rule, the stand-up
# penalty); 0 when the card moved the rider by its own value.
BY_CLIMB: Final = 1  # the ascent's limit capped the move
BY_DESCENT: Final = 2  # a descent raised the move to its minimum
BY_SUPPLY: Final = 4  # a supply zone raised the move to its minimum
BY_STAND_UP: Final = 8  # a crashed rider's stand-up penalty lowered it (meteo)


class Event:
    """The base of every event: `kind` names it."""

    fields: ClassVar[tuple[str, ...]] = ()

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and all(getattr(self, f) == getattr(other, f) for f in self.fields)

    def __hash__(self) -> int:
        return hash((type(self).__name__,) + tuple(getattr(self, f) for f in self.fields))

    def __repr__(self) -> str:
        return f"{type(self).__name__}(" + ", ".join(f"{f}={getattr(self, f)!r}" for f in self.fields) + ")"

    @property
    def kind(self) -> str:
        return ""


class Reveal(Event):
    """Every rider's card (bmx: token tuple), face up, by rider index."""

    fields: ClassVar[tuple[str, ...]] = ("played",)

    def __init__(self, played: tuple[tuple[int, object], ...]) -> None:
        self.played: Final = played

    @property
    def kind(self) -> str:
        return "reveal"


class Move(Event):
    """A rider moved from `start` to (`square`, `lane`).  `value` is what the
    card (tokens) is worth, `moves` the squares the move was worth on this
    terrain (caps, stand-up, ramp included); it ended short of start + moves
    when blocked.  Classic and meteo set `card`, bmx sets `tokens`.
    `reason`: the rules that made `moves` differ from `value` (BY_CLIMB,
    BY_DESCENT, BY_SUPPLY, BY_STAND_UP bits; 0: none), as the rules applied them."""

    fields: ClassVar[tuple[str, ...]] = ("rider", "start", "square", "lane", "value", "moves", "card", "tokens",
                                         "reason")

    def __init__(self, rider: int, start: int, square: int, lane: int, value: int, moves: int,
                 card: int | None = None, tokens: tuple[int, ...] = (), reason: int = 0) -> None:
        self.rider: Final = rider
        self.start: Final = start
        self.square: Final = square
        self.lane: Final = lane
        self.value: Final = value
        self.moves: Final = moves
        self.card: Final = card
        self.tokens: Final = tokens
        self.reason: Final = reason

    @property
    def kind(self) -> str:
        return "move"

    @property
    def blocked(self) -> bool:
        return self.square < self.start + self.moves


class Ramp(Event):
    """The bmx jump ramp sent the rider `bonus` squares further (part of its move)."""

    fields: ClassVar[tuple[str, ...]] = ("rider", "bonus")

    def __init__(self, rider: int, bonus: int) -> None:
        self.rider: Final = rider
        self.bonus: Final = bonus

    @property
    def kind(self) -> str:
        return "ramp"


class Slipstream(Event):
    """End phase: the rider moved up behind the group ahead (classic, meteo)."""

    fields: ClassVar[tuple[str, ...]] = ("rider", "start", "start_lane", "square", "lane")

    def __init__(self, rider: int, start: int, start_lane: int, square: int, lane: int) -> None:
        self.rider: Final = rider
        self.start: Final = start
        self.start_lane: Final = start_lane
        self.square: Final = square
        self.lane: Final = lane

    @property
    def kind(self) -> str:
        return "slip"


class CatchUp(Event):
    """End phase: the rider closed a gap the die allowed (bmx)."""

    fields: ClassVar[tuple[str, ...]] = ("rider", "start", "start_lane", "square", "lane")

    def __init__(self, rider: int, start: int, start_lane: int, square: int, lane: int) -> None:
        self.rider: Final = rider
        self.start: Final = start
        self.start_lane: Final = start_lane
        self.square: Final = square
        self.lane: Final = lane

    @property
    def kind(self) -> str:
        return "catchup"


class Exhaustion(Event):
    """End phase: nobody just ahead, the rider takes an exhaustion card."""

    fields: ClassVar[tuple[str, ...]] = ("rider",)

    def __init__(self, rider: int) -> None:
        self.rider: Final = rider

    @property
    def kind(self) -> str:
        return "exhaust"


class Fatigue(Event):
    """End phase: nobody just ahead, the rider takes `tokens` fatigue tokens (bmx)."""

    fields: ClassVar[tuple[str, ...]] = ("rider", "tokens")

    def __init__(self, rider: int, tokens: int) -> None:
        self.rider: Final = rider
        self.tokens: Final = tokens

    @property
    def kind(self) -> str:
        return "fatigue"


class Crash(Event):
    """Meteo: blocked on a wet road, the rider falls (it stands up on its next move)."""

    fields: ClassVar[tuple[str, ...]] = ("rider",)

    def __init__(self, rider: int) -> None:
        self.rider: Final = rider

    @property
    def kind(self) -> str:
        return "crash"


class StandUp(Event):
    """Meteo: a crashed rider stood up as it moved (the move cost the stand-up penalty)."""

    fields: ClassVar[tuple[str, ...]] = ("rider",)

    def __init__(self, rider: int) -> None:
        self.rider: Final = rider

    @property
    def kind(self) -> str:
        return "standup"


class Die(Event):
    """Bmx: the weather die; `face` 0 is "no catch-up"."""

    fields: ClassVar[tuple[str, ...]] = ("face",)

    def __init__(self, face: int) -> None:
        self.face: Final = face

    @property
    def kind(self) -> str:
        return "die"


class Finish(Event):
    """A rider crossed the line: the race (or, in a tour, the stage) is over and `rider` won."""

    fields: ClassVar[tuple[str, ...]] = ("rider", "stage")

    def __init__(self, rider: int, stage: bool = False) -> None:
        self.rider: Final = rider
        self.stage: Final = stage

    @property
    def kind(self) -> str:
        return "finish"


class Crossed(Event):
    """Tour mode: the rider crossed the line this round, `past` squares past it
    (it leaves the track at the end of the round)."""

    fields: ClassVar[tuple[str, ...]] = ("rider", "past")

    def __init__(self, rider: int, past: int) -> None:
        self.rider: Final = rider
        self.past: Final = past

    @property
    def kind(self) -> str:
        return "crossed"


class BidsRevealed(Event):
    """The breakaway: bid number `bid` of every bidder, face up together."""

    fields: ClassVar[tuple[str, ...]] = ("bid", "cards")

    def __init__(self, bid: int, cards: tuple[tuple[int, int], ...]) -> None:
        self.bid: Final = bid
        self.cards: Final = cards  # (rider, card), seat by seat

    @property
    def kind(self) -> str:
        return "bids"


class Breakaway(Event):
    """The breakaway's result: every bidder's cards and total, best first, and
    the winners, who now stand on `square` (lanes 0, 1 in their order)."""

    fields: ClassVar[tuple[str, ...]] = ("bids", "winners", "square")

    def __init__(self, bids: tuple[tuple[int, tuple[int, ...], int], ...], winners: tuple[int, ...],
                 square: int) -> None:
        self.bids: Final = bids  # (rider, bid cards, total), best first
        self.winners: Final = winners
        self.square: Final = square

    @property
    def kind(self) -> str:
        return "breakaway"

