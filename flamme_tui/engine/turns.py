"""Whose turn it is: the one place that says which seat acts next.

Every loop that plays seats (the session's bots and so the app and the
headless commands, `races.play_out` and so the tournament and the bench, the
hard bot's rollouts, the tests) asks `turns(game)` and lets the seat it names
act once before asking again.  The engine says who still has something to
do (`to_move`, in seat order; `needs` for one seat); taking the first of them
every time gives one action order, so the same race always has the same
action log.
"""

from __future__ import annotations

from collections.abc import Iterator

from .phase import Phase
from .race import Race


def next_seat(game: Race, after: int = 0) -> int | None:
    """The seat that acts next (places a rider, draws, picks), None once the race is over.

    `after`: the seat that has just acted, when `next_seat` named it in the
    energy phase of the round still being played (the caller knows; else 0).
    No seat before it has anything left to do in that round (a seat's riders
    stay chosen until the round is resolved), so the search starts there.  In
    the other phases an earlier seat may have something to do again (a rider
    to place, a bid after a reveal), and the grid and the breakaway end in
    round 1's energy phase, where every seat draws again."""
    if game.phase == Phase.OVER:
        return None
    for seat in range(after, len(game.seats)):  # the first of `to_move`, without building the list
        if game.needs(seat):
            return seat
    # cannot happen: the last choice of a round resolves it
    raise RuntimeError(f"nobody to play in round {game.round} ({game.phase})")


def turns(game: Race) -> Iterator[int]:
    """The seat to act now, again after each action, until the round in
    progress is resolved or the race is over (the grid belongs to the first
    round).  The caller makes the seat act before asking for the next one,
    or stops asking (a human's turn)."""
    start = game.round
    while game.round == start and (seat := next_seat(game)) is not None:
        yield seat
