"""What happened in a round: small frozen values, one class per kind of
event, each with its one text rendering for the race log.

A game's `events` holds the events of the last resolved round, in order.
Readers use the fields (`e.rider`, `e.square`), never positions in a tuple;
`kind` names the event for whoever groups them (the UI's replay frames).
`text(name)` takes a function from rider index to the rider's name.

Events are made for every move of every simulated round (bots race
thousands), so they are plain compiled classes with read-only (Final)
attributes rather than frozen dataclasses, which mypyc builds ten times
slower; equality and repr come from each class's `fields`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar, Final

from .cards import ATTACK, card_text

Namer = Callable[[int], str]
SquareNamer = Callable[[int], str]  # how a square is named in the text (the UI counts from the start line)


def token_text(token: int) -> str:
    return "F" if token == 0 else str(token)


class Event:
    """The base of every event: `kind` names it, `text` is its line in the race log."""

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

    def text(self, name: Namer, square: SquareNamer = str) -> str:
        return self.kind


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
    when blocked.  Classic and meteo set `card`, bmx sets `tokens`."""

    fields: ClassVar[tuple[str, ...]] = ("rider", "start", "square", "lane", "value", "moves", "card", "tokens")

    def __init__(self, rider: int, start: int, square: int, lane: int, value: int, moves: int,
                 card: int | None = None, tokens: tuple[int, ...] = ()) -> None:
        self.rider: Final = rider
        self.start: Final = start
        self.square: Final = square
        self.lane: Final = lane
        self.value: Final = value
        self.moves: Final = moves
        self.card: Final = card
        self.tokens: Final = tokens

    @property
    def kind(self) -> str:
        return "move"

    @property
    def blocked(self) -> bool:
        return self.square < self.start + self.moves

    def played_text(self) -> str:
        if self.card is None:
            return "+".join(token_text(t) for t in self.tokens)
        return card_text(self.card)

    def text(self, name: Namer, square: SquareNamer = str) -> str:
        note = ""
        if self.card == ATTACK:
            note = f" (Attack, moves {self.moves})"
        elif self.card is not None and self.moves != self.value:
            note = f" (moves {self.moves})"
        blocked = " blocked" if self.blocked else ""
        return f"{name(self.rider)} plays {self.played_text()}{note}, {square(self.start)} -> {square(self.square)}{blocked}"


class Ramp(Event):
    """The bmx jump ramp sent the rider `bonus` squares further (part of its move)."""

    fields: ClassVar[tuple[str, ...]] = ("rider", "bonus")

    def __init__(self, rider: int, bonus: int) -> None:
        self.rider: Final = rider
        self.bonus: Final = bonus

    @property
    def kind(self) -> str:
        return "ramp"

    def text(self, name: Namer, square: SquareNamer = str) -> str:
        return f"  jump ramp: {name(self.rider)} flies {self.bonus} squares further"


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

    def text(self, name: Namer, square: SquareNamer = str) -> str:
        return f"  slipstream: {name(self.rider)} {square(self.start)} -> {square(self.square)}"


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

    def text(self, name: Namer, square: SquareNamer = str) -> str:
        return f"  catch-up: {name(self.rider)} {square(self.start)} -> {square(self.square)}"


class Exhaustion(Event):
    """End phase: nobody just ahead, the rider takes an exhaustion card."""

    fields: ClassVar[tuple[str, ...]] = ("rider",)

    def __init__(self, rider: int) -> None:
        self.rider: Final = rider

    @property
    def kind(self) -> str:
        return "exhaust"

    def text(self, name: Namer, square: SquareNamer = str) -> str:
        return f"  exhaustion: {name(self.rider)} takes an exhaustion card"


class Fatigue(Event):
    """End phase: nobody just ahead, the rider takes `tokens` fatigue tokens (bmx)."""

    fields: ClassVar[tuple[str, ...]] = ("rider", "tokens")

    def __init__(self, rider: int, tokens: int) -> None:
        self.rider: Final = rider
        self.tokens: Final = tokens

    @property
    def kind(self) -> str:
        return "fatigue"

    def text(self, name: Namer, square: SquareNamer = str) -> str:
        return f"  fatigue: {name(self.rider)} takes {self.tokens} fatigue token{'s' * (self.tokens > 1)}"


class Crash(Event):
    """Meteo: blocked on a wet road, the rider falls (it stands up on its next move)."""

    fields: ClassVar[tuple[str, ...]] = ("rider",)

    def __init__(self, rider: int) -> None:
        self.rider: Final = rider

    @property
    def kind(self) -> str:
        return "crash"

    def text(self, name: Namer, square: SquareNamer = str) -> str:
        return f"  crash: {name(self.rider)} crashes on the wet road"


class StandUp(Event):
    """Meteo: a crashed rider stood up as it moved (the move cost the stand-up penalty)."""

    fields: ClassVar[tuple[str, ...]] = ("rider",)

    def __init__(self, rider: int) -> None:
        self.rider: Final = rider

    @property
    def kind(self) -> str:
        return "standup"

    def text(self, name: Namer, square: SquareNamer = str) -> str:
        return f"  {name(self.rider)} stands up"


class Die(Event):
    """Bmx: the weather die; `face` 0 is "no catch-up"."""

    fields: ClassVar[tuple[str, ...]] = ("face",)

    def __init__(self, face: int) -> None:
        self.face: Final = face

    @property
    def kind(self) -> str:
        return "die"

    def text(self, name: Namer, square: SquareNamer = str) -> str:
        return f"  die: {self.face if self.face else 'no catch-up'}"


class Finish(Event):
    """A rider crossed the line: the race (or, in a tour, the stage) is over and `rider` won."""

    fields: ClassVar[tuple[str, ...]] = ("rider", "stage")

    def __init__(self, rider: int, stage: bool = False) -> None:
        self.rider: Final = rider
        self.stage: Final = stage

    @property
    def kind(self) -> str:
        return "finish"

    def text(self, name: Namer, square: SquareNamer = str) -> str:
        return f"  {name(self.rider)} wins the {'stage' if self.stage else 'race'}!"


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

    def text(self, name: Namer, square: SquareNamer = str) -> str:
        return f"  {name(self.rider)} crosses the line, {self.past} square{'s' * (self.past != 1)} past it"


class BidsRevealed(Event):
    """The breakaway: bid number `bid` of every bidder, face up together."""

    fields: ClassVar[tuple[str, ...]] = ("bid", "cards")

    def __init__(self, bid: int, cards: tuple[tuple[int, int], ...]) -> None:
        self.bid: Final = bid
        self.cards: Final = cards  # (rider, card), seat by seat

    @property
    def kind(self) -> str:
        return "bids"

    def text(self, name: Namer, square: SquareNamer = str) -> str:
        shown = ", ".join(f"{name(i)} {card_text(c)}" for i, c in self.cards)
        return f"breakaway, bid {self.bid}: {shown}"


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

    def text(self, name: Namer, square: SquareNamer = str) -> str:
        sums = ", ".join(f"{name(i)} {'+'.join(card_text(c) for c in cards)} = {total}"
                         for i, cards, total in self.bids)
        away = " and ".join(name(i) for i in self.winners)
        return f"breakaway: {sums}; {away} {'break' if len(self.winners) > 1 else 'breaks'} away to {square(self.square)}"
