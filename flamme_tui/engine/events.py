"""What happened in a round: small frozen values, one class per kind of
event, each with its one text rendering for the race log.

A game's `events` holds the events of the last resolved round, in order.
Readers use the fields (`e.rider`, `e.square`), never positions in a tuple;
`kind` names the event for whoever groups them (the UI's replay frames).
`text(name)` takes a function from rider index to the rider's name.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .cards import ATTACK, card_text

Namer = Callable[[int], str]


def token_text(token: int) -> str:
    return "F" if token == 0 else str(token)


@dataclass(frozen=True, slots=True)
class Event:
    """The base of every event: `kind` names it, `text` is its line in the race log."""

    @property
    def kind(self) -> str:
        return ""

    def text(self, name: Namer) -> str:
        return self.kind


@dataclass(frozen=True, slots=True)
class Reveal(Event):
    """Every rider's card (bmx: token tuple), face up, by rider index."""

    played: tuple[tuple[int, object], ...]

    @property
    def kind(self) -> str:
        return "reveal"


@dataclass(frozen=True, slots=True)
class Move(Event):
    """A rider moved from `start` to (`square`, `lane`).  `value` is what the
    card (tokens) is worth, `moves` the squares the move was worth on this
    terrain (caps, stand-up, ramp included); it ended short of start + moves
    when blocked.  Classic and meteo set `card`, bmx sets `tokens`."""

    rider: int
    start: int
    square: int
    lane: int
    value: int
    moves: int
    card: int | None = None
    tokens: tuple[int, ...] = ()

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

    def text(self, name: Namer) -> str:
        note = ""
        if self.card == ATTACK:
            note = f" (Attack, moves {self.moves})"
        elif self.card is not None and self.moves != self.value:
            note = f" (moves {self.moves})"
        blocked = " blocked" if self.blocked else ""
        return f"{name(self.rider)} plays {self.played_text()}{note}, {self.start} -> {self.square}{blocked}"


@dataclass(frozen=True, slots=True)
class Ramp(Event):
    """The bmx jump ramp sent the rider `bonus` squares further (part of its move)."""

    rider: int
    bonus: int

    @property
    def kind(self) -> str:
        return "ramp"

    def text(self, name: Namer) -> str:
        return f"  jump ramp: {name(self.rider)} flies {self.bonus} squares further"


@dataclass(frozen=True, slots=True)
class Slipstream(Event):
    """End phase: the rider moved up behind the group ahead (classic, meteo)."""

    rider: int
    start: int
    start_lane: int
    square: int
    lane: int

    @property
    def kind(self) -> str:
        return "slip"

    def text(self, name: Namer) -> str:
        return f"  slipstream: {name(self.rider)} {self.start} -> {self.square}"


@dataclass(frozen=True, slots=True)
class CatchUp(Event):
    """End phase: the rider closed a gap the die allowed (bmx)."""

    rider: int
    start: int
    start_lane: int
    square: int
    lane: int

    @property
    def kind(self) -> str:
        return "catchup"

    def text(self, name: Namer) -> str:
        return f"  catch-up: {name(self.rider)} {self.start} -> {self.square}"


@dataclass(frozen=True, slots=True)
class Exhaustion(Event):
    """End phase: nobody just ahead, the rider takes an exhaustion card."""

    rider: int

    @property
    def kind(self) -> str:
        return "exhaust"

    def text(self, name: Namer) -> str:
        return f"  exhaustion: {name(self.rider)} takes an exhaustion card"


@dataclass(frozen=True, slots=True)
class Fatigue(Event):
    """End phase: nobody just ahead, the rider takes `tokens` fatigue tokens (bmx)."""

    rider: int
    tokens: int

    @property
    def kind(self) -> str:
        return "fatigue"

    def text(self, name: Namer) -> str:
        return f"  fatigue: {name(self.rider)} takes {self.tokens} fatigue token{'s' * (self.tokens > 1)}"


@dataclass(frozen=True, slots=True)
class Crash(Event):
    """Meteo: blocked on a wet road, the rider falls (it stands up on its next move)."""

    rider: int

    @property
    def kind(self) -> str:
        return "crash"

    def text(self, name: Namer) -> str:
        return f"  crash: {name(self.rider)} crashes on the wet road"


@dataclass(frozen=True, slots=True)
class StandUp(Event):
    """Meteo: a crashed rider stood up as it moved (the move cost the stand-up penalty)."""

    rider: int

    @property
    def kind(self) -> str:
        return "standup"

    def text(self, name: Namer) -> str:
        return f"  {name(self.rider)} stands up"


@dataclass(frozen=True, slots=True)
class Die(Event):
    """Bmx: the weather die; `face` 0 is "no catch-up"."""

    face: int

    @property
    def kind(self) -> str:
        return "die"

    def text(self, name: Namer) -> str:
        return f"  die: {self.face if self.face else 'no catch-up'}"


@dataclass(frozen=True, slots=True)
class Finish(Event):
    """A rider crossed the line: the race is over and `rider` won."""

    rider: int

    @property
    def kind(self) -> str:
        return "finish"

    def text(self, name: Namer) -> str:
        return f"  {name(self.rider)} wins the race!"
