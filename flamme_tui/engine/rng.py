"""The game's random numbers.

The RNG lives inside the game state, so a game is exactly setup + seed +
actions.  We build on `random.Random.random()` only: Python guarantees that
method's sequence for an integer seed across versions, while `shuffle`,
`randrange` and `choice` may change.  It is also far faster than a PRNG
written in Python, which matters for bots that simulate thousands of races.
"""

from __future__ import annotations

import _random
from typing import Any

# random.Random's getstate() wraps the C generator's state as (VERSION, state, gauss_next)
STATE_VERSION = 3


class Rng:
    __slots__ = ("_r", "random")

    def __init__(self, seed: int) -> None:
        # the C generator random.Random is built on, seeded by the same C code
        # for an int seed (random.Random.seed only forwards ints to it): the same
        # numbers, without random.Random's two Python-level calls, a third of
        # what seeding a race cost
        self._r = _random.Random(seed)
        self.random = self._r.random

    def below(self, n: int) -> int:
        """A uniform integer in 0..n-1."""
        return int(self.random() * n)

    def shuffle(self, items: list[Any]) -> None:
        """Fisher-Yates, in place."""
        rnd = self.random
        for i in range(len(items) - 1, 0, -1):
            j = int(rnd() * (i + 1))
            items[i], items[j] = items[j], items[i]

    def state(self) -> Any:
        """Where the sequence stands (equal states draw equal numbers)."""
        return (STATE_VERSION, self._r.getstate(), None)  # as random.Random.getstate() gives it

    def clone(self) -> Rng:
        twin = Rng(0)
        twin._r.setstate(self._r.getstate())
        return twin


class Replay(Rng):
    """The numbers `source` draws from now on, the same for every Replay of one
    `drawn` list (which keeps them as the first to need each draws it): every
    copy of a sampled world given one draws alike (View.wind_odds), where copying
    a generator's state (624 words) for each would cost more than the simulated
    round itself.  For simulations only: it has no state to save or copy."""

    __slots__ = ("_drawn", "_next", "_source")

    def __init__(self, drawn: list[float], source: Rng) -> None:  # (no Rng.__init__: no generator of its own)
        self._drawn = drawn
        self._next = 0
        self._source = source
        self.random = self._replay

    def _replay(self) -> float:
        k = self._next
        self._next = k + 1
        drawn = self._drawn
        if k == len(drawn):
            drawn.append(self._source.random())
        return drawn[k]
