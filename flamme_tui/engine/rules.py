"""The registry of rule sets: the one place a variant name is mapped to code.

    rules = find("meteo")
    game = rules.new_game(setup, seed)     # rules.game, rules.setup; game.view(seat)
    if rules.uses_tokens: ...              # capability flags, never `variant == "bmx"`

Each rule set is defined beside its rules (classic.CLASSIC, meteo.METEO,
bmx.BMX); a game knows its own (`game.rules`), and so does a view
(`view.rules`).
"""

from __future__ import annotations

from .bmx import BMX
from .classic import CLASSIC
from .meteo import METEO
from .ruleset import RuleSet

RULES: dict[str, RuleSet] = {r.name: r for r in (CLASSIC, METEO, BMX)}
NAMES: tuple[str, ...] = tuple(RULES)


def find(name: str) -> RuleSet:
    """The rule set called `name`; ValueError naming the known ones otherwise."""
    rules = RULES.get(name)
    if rules is None:
        raise ValueError(f"unknown variant {name!r} (known: {', '.join(NAMES)})")
    return rules
