"""The fuzz suite's tally (issue 11: report its case count and run time).

The fuzz suite is every test module marked `fuzz`: hostile and random files
given to every reader (stages, tiles, variants, saves, conformance cases,
tours), damaged saves, and hostile text through every place that shows it
(commands' output, the app's screens, toasts and dialogs).  Each counts the
cases it really tries with `count(part)`: one file given to one reader, one
random save loaded, one screen or renderer checked with hostile text.
tests/conftest.py prints the total, per part, and the time the fuzz tests
took, in one line at the end of the run:

    fuzz suite: 5321 cases in 61.2 s (readers 2964, saves 1210, ...)
"""

from __future__ import annotations

from collections import Counter

CASES: Counter[str] = Counter()


def count(part: str, n: int = 1) -> None:
    CASES[part] += n


def summary(seconds: float) -> str | None:
    """The line to print (None when no fuzz test ran)."""
    total = sum(CASES.values())
    if not total:
        return None
    parts = ", ".join(f"{part} {n}" for part, n in CASES.most_common())
    return f"fuzz suite: {total} cases in {seconds:.1f} s ({parts})"
