"""Counts in words, for every text a player reads: "1 action", "2 actions",
never "1 actions" or "3 pick(s)".  Pure Python (saves, the command line and
the replay use it as well as the screens)."""

from __future__ import annotations


def plural(n: int, word: str, many: str = "") -> str:
    """ "1 pick", "0 picks", "3 picks"; `many` for a plural that is not word + s
    ("process", "processes")."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def ordinal(n: int) -> str:
    """ "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st"."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
