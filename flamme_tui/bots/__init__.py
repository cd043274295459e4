"""Policies that play a seat from its view (never the game): view -> action."""

from ..engine.view import View
from .easy import easy
from .hard import explain as hard_explain
from .hard import hard
from .medium import medium
from .reasons import Decision

POLICIES = {"easy": easy, "medium": medium, "hard": hard}
# policies that can say why: view -> Decision (a public reason and the full one)
EXPLAINERS = {"hard": hard_explain}


def decide(name: str, view: View) -> Decision:
    """Bot `name`'s decision from `view`, with its reasons ("" if it gives none)."""
    explainer = EXPLAINERS.get(name)
    return explainer(view) if explainer is not None else Decision(POLICIES[name](view))


__all__ = ["EXPLAINERS", "POLICIES", "Decision", "decide", "easy", "hard", "medium"]
