"""Policies that play a seat from its view: easy (simple heuristic), medium, hard."""

from .easy import easy

POLICIES = {"easy": easy}
