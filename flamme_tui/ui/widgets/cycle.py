"""A Select whose choice left and right step through, without opening its list.

Enter (and up, down, space) still opens the list, and the mouse works as on
any Select: a change made with left or right is the same `Select.Changed`.
"""

from __future__ import annotations

from typing import Any

from textual.binding import Binding
from textual.widgets import Select


class CycleSelect(Select[Any]):
    BINDINGS = [
        Binding("left", "cycle(-1)", "Previous choice", show=False),
        Binding("right", "cycle(1)", "Next choice", show=False),
    ]

    def __init__(self, options, **kwargs) -> None:
        options = list(options)
        super().__init__(options, **kwargs)
        self.values = [value for _, value in options]  # in the list's order

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # while the list is open, left and right are the list's (they do nothing there)
        return not (action == "cycle" and self.expanded)

    def action_cycle(self, step: int) -> None:
        """The next (step 1) or previous (-1) choice, round from the last to the first."""
        if not self.values:
            return
        try:
            at = self.values.index(self.value)
        except ValueError:  # blank: the first choice (or the last, going back)
            at = -1 if step > 0 else 0
        self.value = self.values[(at + step) % len(self.values)]
