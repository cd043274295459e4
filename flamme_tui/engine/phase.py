"""The phases of a race.  str-valued, so save files, summaries and texts that
hold "energy" or "over" keep working and compare equal."""

from __future__ import annotations

from enum import StrEnum


class Phase(StrEnum):
    GRID = "grid"  # players place their riders behind the start line (classic, meteo)
    BREAKAWAY = "breakaway"  # the Peloton breakaway's bids, before round 1 (classic, meteo)
    ENERGY = "energy"  # riders draw and choose their cards (tokens)
    OVER = "over"  # a rider crossed the finish line
