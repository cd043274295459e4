"""A Select whose choice left and right step through, without opening its list.

Enter (and up, down, space) still opens the list, and the mouse works as on
any Select: a change made with left or right is the same `Select.Changed`.
`stops`, if given, says which choices left and right stop at (the teams
screen passes over a colour another seat has: choosing it there swaps the
two seats' colours, which stepping through must not do at every step).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.binding import Binding
from textual.widgets import Select

from ...i18n import N_


class CycleSelect(Select[Any]):
    BINDINGS = [
        Binding("left", "cycle(-1)", N_("Previous choice"), show=False),
        Binding("right", "cycle(1)", N_("Next choice"), show=False),
    ]

    def __init__(self, options, *, stops: Callable[[Any], bool] | None = None, **kwargs) -> None:
        options = list(options)
        super().__init__(options, **kwargs)
        self.values = [value for _, value in options]  # in the list's order
        self.stops = stops

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # while the list is open, left and right are the list's (they do nothing there)
        return not (action == "cycle" and self.expanded)

    def action_cycle(self, step: int) -> None:
        """The next (step 1) or previous (-1) choice it may stop at, round from the last to the first."""
        n = len(self.values)
        try:
            at = self.values.index(self.value)
        except ValueError:  # blank: the first choice (or the last, going back)
            at = -1 if step > 0 else 0
        for k in range(1, n + 1):
            value = self.values[(at + k * step) % n]
            if self.stops is None or self.stops(value):
                self.value = value
                return
