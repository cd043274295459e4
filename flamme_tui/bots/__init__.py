"""Policies that play a seat from its view (never the game): view -> action."""

from .easy import easy
from .medium import medium

POLICIES = {"easy": easy, "medium": medium}
