"""argparse helpers shared by the command line (cli/) and the developers'
tools (ui.bench): kept out of cli/ so that no other layer imports the
command line (tests/test_imports.py)."""

from __future__ import annotations

import argparse
from typing import NoReturn

from .usertext import clean


class Parser(argparse.ArgumentParser):
    """argparse with every error on one line, the problem then where to read
    more; what the user typed is shown with control characters escaped."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {clean(message, multiline=False)} (see {self.prog} --help)\n")


class Whole:
    """An argparse type: a whole number from `low` to `high`."""

    def __init__(self, low: int, high: int) -> None:
        self.low, self.high = low, high

    def __call__(self, text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = self.low - 1
        if not self.low <= value <= self.high:
            raise argparse.ArgumentTypeError(f"expected a whole number from {self.low} to {self.high}, got {text!r}")
        return value
