"""Counts in words, for every text a player reads: "1 action", "2 actions",
never "1 actions" or "3 pick(s)".  Pure Python (saves, the command line and
the replay use it as well as the screens)."""

from __future__ import annotations


def plural(n: int, word: str, many: str = "") -> str:
    """ "1 pick", "0 picks", "3 picks"; `many` for a plural that is not word + s
    ("1 choice made" needs nothing; "1 square" / "2 squares" neither)."""
    return f"{n} {word if n == 1 else (many or word + 's')}"
