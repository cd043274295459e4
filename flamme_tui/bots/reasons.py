"""What a bot says about a decision, in two texts.

The table (the app's race log, seen by every player) gets `public`: it may
speak only of what the bot did and of public facts, never of a card it drew
and kept, nor of anything else face down.  `full` is the whole reasoning,
hidden cards included, for headless output (`race`, `tournament`) and tests,
where no player is hiding anything.
"""

from __future__ import annotations

from typing import NamedTuple

from ..engine.actions import Action


class Decision(NamedTuple):
    action: Action
    public: str = ""  # for the table
    full: str = ""  # for the bot's owner: may name hidden cards
    # a searching bot's odds: (action, races won, races simulated, mean squares ahead at the
    # end) of its choice and the next best, for the seat's own hint (behind its curtain)
    odds: tuple[tuple[Action, int, int, float], ...] = ()
