"""How long a searching bot (`expert`) may think over one decision.

A time budget (seconds per decision) is what a player sets; under load it
buys fewer rollouts, so the same position may get another answer.  A
rollout budget (races simulated per decision) ignores the clock: the same
view and the same rollout budget always give the same decision, which is
what tests and tuning on a busy machine need.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .. import BOT_SECONDS as DEFAULT_SECONDS
from .. import MAX_BOT_ROLLOUTS as MAX_ROLLOUTS
from .. import MAX_BOT_SECONDS as MAX_SECONDS
from .. import MIN_BOT_SECONDS as MIN_SECONDS


@dataclass(frozen=True, slots=True)
class Budget:
    seconds: float = DEFAULT_SECONDS  # wall time per decision (ignored when `rollouts` is set)
    rollouts: int | None = None  # simulated races per decision: a deterministic budget

    def __post_init__(self) -> None:
        if not (MIN_SECONDS <= self.seconds <= MAX_SECONDS) or math.isnan(self.seconds):
            raise ValueError(f"a budget of {MIN_SECONDS} to {MAX_SECONDS} seconds, got {self.seconds!r}")
        if self.rollouts is not None and not 1 <= self.rollouts <= MAX_ROLLOUTS:
            raise ValueError(f"a budget of 1 to {MAX_ROLLOUTS} rollouts, got {self.rollouts!r}")

    def __str__(self) -> str:
        return f"{self.rollouts} rollouts" if self.rollouts is not None else f"{self.seconds:g} s"


DEFAULT = Budget()
