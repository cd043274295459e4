"""Policies that play a seat from its view (never the game): view -> action.

`POLICIES` are the bots offered everywhere (menus, `race`, `tournament`,
`bench --bot`); `REFERENCES` are earlier versions kept to measure against
(`tournament`, `bench --bot` and tests only).  A searching bot (`expert`)
thinks within a `Budget`; `policy(name, budget)` gives it one.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from ..engine.actions import Action
from ..engine.view import View
from .budget import DEFAULT, Budget
from .easy import easy
from .expert import expert
from .expert import explain as expert_explain
from .hard import explain as hard_explain
from .hard import hard
from .hard_before import hard as hard_before
from .medium import medium
from .reasons import Decision

Policy = Callable[[Any], Action]  # view -> action

POLICIES: dict[str, Policy] = {"easy": easy, "medium": medium, "hard": hard, "expert": expert}
REFERENCES: dict[str, Policy] = {"hard-before": hard_before}
# bots that think within a budget
BUDGETED = {"expert"}
# policies that can say why: view -> Decision (a public reason and the full one)
EXPLAINERS = {"hard": hard_explain, "expert": expert_explain}


def policy(name: str, budget: Budget = DEFAULT) -> Policy:
    """Bot `name` (a policy or a reference) as view -> action, thinking within `budget`."""
    if name == "expert":
        return partial(expert, budget=budget)
    return POLICIES.get(name) or REFERENCES[name]


def decide(name: str, view: View, budget: Budget = DEFAULT) -> Decision:
    """Bot `name`'s decision from `view`, with its reasons ("" if it gives none)."""
    if name == "expert":
        return expert_explain(view, budget)
    if name == "hard":
        return hard_explain(view)
    return Decision(policy(name, budget)(view))


__all__ = ["BUDGETED", "EXPLAINERS", "POLICIES", "REFERENCES", "Budget", "Decision", "decide", "easy", "expert", "hard",
           "medium", "policy"]
