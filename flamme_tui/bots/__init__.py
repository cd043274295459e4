"""Policies that play a seat from its view (never the game): view -> action."""

from .easy import easy
from .hard import explain as hard_explain
from .hard import hard
from .medium import medium

POLICIES = {"easy": easy, "medium": medium, "hard": hard}
# policies that can say why, for the race log: view -> (action, reason)
EXPLAINERS = {"hard": hard_explain}
