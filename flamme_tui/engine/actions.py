"""Actions: small values with a one-line text form, e.g. `play red.R 5`.

Logs, save files and test fixtures all use the text form.
classic/meteo: `place red.S 3 1`, `draw red.S`, `play red.S 5` (`E` = exhaustion card),
               in the breakaway `draw red.S` (this rider bids) and `bid red.S 9`
bmx:           `play green 3`, `play green 5 F` (two tokens on a descent; `F` = fatigue)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, TypeAlias

from .cards import NOWHERE

# What a rider plays in a round: a card (classic, meteo; 0 is an exhaustion
# card) or a set of tokens (bmx, highest first; 0 is a fatigue token).
Choice: TypeAlias = int | tuple[int, ...]


class ActionError(ValueError):
    pass


def _card(text: str) -> int:
    """Card or token code from text: E (exhaustion) and F (fatigue) are 0."""
    if text in ("E", "F"):
        return 0
    try:
        value = int(text)
    except ValueError:
        raise ActionError(f"not a card: {text!r}") from None
    if not 1 <= value <= 9:
        raise ActionError(f"not a card: {text!r}")
    return value


@dataclass(frozen=True, slots=True)
class Action:
    rider: str

    @staticmethod
    def parse(text: str) -> Action:
        words = text.split()
        if not words:
            raise ActionError("empty action")
        verb, args = words[0], words[1:]
        try:
            if verb == "place" and len(args) == 3:
                return Place(args[0], int(args[1]), int(args[2]))
            if verb == "draw" and len(args) == 1:
                return Draw(args[0])
            if verb == "play" and len(args) == 2 and "." in args[0]:
                return Play(args[0], _card(args[1]))
            if verb == "bid" and len(args) == 2 and "." in args[0]:
                return Bid(args[0], _card(args[1]))
            if verb == "play" and len(args) in (2, 3):
                return PlayTokens(args[0], tuple(_card(a) for a in args[1:]))
        except ValueError as exc:
            raise ActionError(f"bad action {text!r}: {exc}") from None
        raise ActionError(f"bad action {text!r}")


@dataclass(frozen=True, slots=True)
class Place(Action):
    square: int
    lane: int

    def __str__(self) -> str:
        return f"place {self.rider} {self.square} {self.lane}"


@dataclass(frozen=True, slots=True)
class Draw(Action):
    def __str__(self) -> str:
        return f"draw {self.rider}"


@dataclass(frozen=True, slots=True)
class Play(Action):
    card: int  # 0 = exhaustion card

    def __str__(self) -> str:
        return f"play {self.rider} {'E' if self.card == 0 else self.card}"


@dataclass(frozen=True, slots=True)
class Bid(Action):
    """The breakaway (PELOTON.md): the card a rider keeps face down as a bid."""

    card: int  # 0 = exhaustion card

    def __str__(self) -> str:
        return f"bid {self.rider} {'E' if self.card == 0 else self.card}"


@dataclass(frozen=True, slots=True)
class PlayTokens(Action):
    tokens: tuple[int, ...]  # one token, two on a descent; 0 = fatigue

    def __post_init__(self) -> None:
        # one spelling per play: highest token first (`play green 3 F`)
        object.__setattr__(self, "tokens", tuple(sorted(self.tokens, reverse=True)))

    def __str__(self) -> str:
        return f"play {self.rider} " + " ".join("F" if t == 0 else str(t) for t in self.tokens)


# Bots name thousands of plays a second and a frozen dataclass is slow to
# build: each Play and Draw is made once and kept (plain dicts, which the
# compiled engine reads faster than through functools.cache).
_PLAYS: Final[dict[str, list[Play | None]]] = {}  # rider -> its play of each card, by card - NOWHERE (the lowest code)
_DRAWS: Final[dict[str, Draw]] = {}
_TOKEN_PLAYS: Final[dict[str, dict[tuple[int, ...], PlayTokens]]] = {}  # rider -> tokens as given -> its play
_SINGLE_PLAYS: Final[dict[str, list[PlayTokens | None]]] = {}  # rider -> its play of one token, by token (0-9)


def play(rider: str, card: int) -> Play:
    """The same Play, made once."""
    plays = _PLAYS.get(rider)
    if plays is None:
        plays = _PLAYS[rider] = [None] * (10 - NOWHERE)  # cards NOWHERE..9
    k = card - NOWHERE
    if not 0 <= k < len(plays):  # no such card in the game: made, not kept
        return Play(rider, card)
    made = plays[k]
    if made is None:
        made = plays[k] = Play(rider, card)
    return made


def play_tokens(rider: str, tokens: tuple[int, ...]) -> PlayTokens:
    """The same PlayTokens, made once (bmx; `tokens` in any order)."""
    if len(tokens) == 1:  # the usual case: kept by token, without hashing the tuple
        token = tokens[0]
        singles = _SINGLE_PLAYS.get(rider)
        if singles is None:
            singles = _SINGLE_PLAYS[rider] = [None] * 10
        if 0 <= token < len(singles):
            single = singles[token]
            if single is None:
                single = singles[token] = PlayTokens(rider, tokens)
            return single
    plays = _TOKEN_PLAYS.get(rider)
    if plays is None:
        plays = _TOKEN_PLAYS[rider] = {}
    made = plays.get(tokens)
    if made is None:
        made = plays[tokens] = PlayTokens(rider, tokens)
    return made


def draw(rider: str) -> Draw:
    """The same Draw, made once."""
    made = _DRAWS.get(rider)
    if made is None:
        made = _DRAWS[rider] = Draw(rider)
    return made
