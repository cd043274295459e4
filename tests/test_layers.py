"""Every rule has one home, the engine: the other layers (bots, play, ui, cli,
saves, config, conformance) ask it and never write a rule again.

Issue 12's acceptance as checks over the sources, by their syntax tree (so a
comment or a help text does not count, and an alias or an attribute chain
does).  Outside engine/:

- no variant name is compared (`variant == ...`, `... == "bmx"`): a rule set
  is asked for its flags (engine.rules.find(name).uses_tokens, ...);
- no private attribute, function or parameter of the engine is used
  (`game._draw`, `_blank=True`);
- no rule function or rule number of the engine is used or defined again,
  but for the few named in NOTATION (how cards, tokens and terrain are
  written) and ELSEWHERE (one module each, with the reason).

Each checker is first shown to find what it looks for in a planted source.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

from flamme_tui.engine.rules import NAMES

PACKAGE = Path(__file__).resolve().parent.parent / "flamme_tui"
ENGINE = PACKAGE / "engine"
# the engine modules that hold the rules of movement, cards, tokens and terrain
RULE_MODULES = ("terrain", "track", "cards", "classic", "meteo", "bmx")
# rule-module names the other layers may use: how things are written (data
# files, saves, logs, conformance cases), what a seat starts with, and the
# engine's own list of the token sets a hand offers (bots rank them by View.reach)
NOTATION = {
    "FLAT", "ASCENT", "DESCENT", "SUPPLY", "COBBLE", "BUMPY", "CANYON", "MARSH",  # terrain codes
    "EXHAUSTION", "ATTACK", "SPRINTEUR", "ROULEUR", "PELOTON", "MUSCLE", "SCRIPTED",  # card and team codes
    "FATIGUE",  # the fatigue token's code
    "card_text", "card_value", "starting_deck", "token_choices",
}
# one module may use one rule function more, for the engine itself
ELSEWHERE = {
    # a breakaway bid is worth its cards' values as the engine counts them (an exhaustion
    # card 2): the bots' bid choice asks that one function rather than count cards itself
    "bots/breakaway.py": {"fixed_worth"},
}


def outside_the_engine() -> list[Path]:
    return [p for p in sorted(PACKAGE.rglob("*.py")) if ENGINE not in p.parents]


def _is_engine_module(module: str | None) -> bool:
    return module is not None and "engine" in module.split(".")


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__") and name != "_"


def _line(node: ast.AST, what: str) -> str:
    return f"line {getattr(node, 'lineno', '?')}: {what}"


# ------------------------------------------------------------- variant names

def _is_variant(node: ast.AST) -> bool:
    return (isinstance(node, ast.Name) and node.id == "variant") or (
        isinstance(node, ast.Attribute) and node.attr == "variant")


def _names_a_variant(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and node.value in NAMES


def variant_tests(source: str) -> list[str]:
    """Comparisons that dispatch on a variant's name."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            for op, left, right in zip(node.ops, operands, operands[1:]):
                if isinstance(op, ast.Eq | ast.NotEq) and any(_is_variant(x) or _names_a_variant(x) for x in (left, right)):
                    found.append(_line(node, ast.unparse(node)))
                elif isinstance(op, ast.In | ast.NotIn) and _is_variant(left) and isinstance(
                        right, ast.Tuple | ast.List | ast.Set) and any(_names_a_variant(e) for e in right.elts):
                    found.append(_line(node, ast.unparse(node)))
        elif isinstance(node, ast.Match) and _is_variant(node.subject):
            found.append(_line(node, f"match {ast.unparse(node.subject)}"))
    return found


# ---------------------------------------------------- private engine names

def _private_names_in(tree: ast.AST) -> Iterator[str]:
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield node.name
            args = node.args
            yield from (a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs))
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            yield node.attr  # self._x = ...
        elif isinstance(node, ast.ClassDef | ast.Module):
            for stmt in node.body:  # class and module level names
                targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target] if isinstance(
                    stmt, ast.AnnAssign) else []
                for target in targets:
                    for name in ast.walk(target):
                        if isinstance(name, ast.Name):
                            yield name.id
                        elif isinstance(name, ast.Constant) and isinstance(name.value, str):
                            yield name.value  # __slots__ = ("_x", ...)


def engine_private_names() -> set[str]:
    """The private (one leading underscore) attributes, methods, functions,
    parameters and module names the engine defines."""
    return {n for p in ENGINE.glob("*.py") for n in _private_names_in(ast.parse(p.read_text())) if _private(n)}


def private_uses(source: str, private: set[str]) -> list[str]:
    """Uses of the engine's private names: `x._name` (not on self or cls, whose
    own privates these are), `_name=` in a call, getattr(x, "_name"), and a
    private name imported from the engine."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr in private:
            if not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
                found.append(_line(node, ast.unparse(node)))
        elif isinstance(node, ast.Call):
            for keyword in node.keywords:
                if keyword.arg in private:
                    found.append(_line(node, f"{keyword.arg}= in {ast.unparse(node.func)}(...)"))
            if (isinstance(node.func, ast.Name) and node.func.id in ("getattr", "setattr", "hasattr", "delattr")
                    and len(node.args) > 1 and isinstance(node.args[1], ast.Constant) and node.args[1].value in private):
                found.append(_line(node, ast.unparse(node)))
        elif isinstance(node, ast.ImportFrom) and _is_engine_module(node.module):
            found += [_line(node, f"import {a.name}") for a in node.names if _private(a.name)]
    return found


# ------------------------------------------------------------ rule formulas

def engine_rule_names() -> set[str]:
    """The rule functions and rule numbers of the engine: the public
    module-level functions and UPPER_CASE names of its rule modules."""
    names = set()
    for module in RULE_MODULES:
        tree = ast.parse((ENGINE / f"{module}.py").read_text())
        for stmt in tree.body:
            if isinstance(stmt, ast.FunctionDef) and not stmt.name.startswith("_"):
                names.add(stmt.name)
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target] if isinstance(
                stmt, ast.AnnAssign) else []
            for target in targets:
                names |= {n.id for n in ast.walk(target) if isinstance(n, ast.Name) and n.id.isupper()}
    return names


def rule_uses(source: str, rules: set[str]) -> list[str]:
    """The engine's rule functions and numbers used (imported, or read off an
    engine module) or defined again at module level."""
    tree = ast.parse(source)
    found = []
    modules = set()  # names bound to an engine rule module
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and _is_engine_module(node.module):
            for alias in node.names:
                if alias.name in RULE_MODULES:
                    modules.add(alias.asname or alias.name)
                elif alias.name in rules:
                    found.append(_line(node, f"import {alias.name}"))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if _is_engine_module(alias.name) and parts[-1] in RULE_MODULES and alias.asname:
                    modules.add(alias.asname)
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in rules:
            base = node.value
            if (isinstance(base, ast.Name) and base.id in modules) or (
                    isinstance(base, ast.Attribute) and base.attr in RULE_MODULES):
                found.append(_line(node, ast.unparse(node)))
    for stmt in tree.body:
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target] if isinstance(
            stmt, ast.AnnAssign) else []
        for target in targets:
            found += [_line(stmt, f"{n.id} = ...") for n in ast.walk(target) if isinstance(n, ast.Name) and n.id in rules]
        if isinstance(stmt, ast.FunctionDef) and stmt.name in rules:
            found.append(_line(stmt, f"def {stmt.name}"))
    return found


# ------------------------------------------------ the checkers can fail

PLANTED = '''
from ..engine import bmx as b
from ..engine.classic import effective_move, ClassicSetup, _blank_game
from ..engine.cards import EXHAUSTION, EXHAUSTION_VALUE
import flamme_tui.engine.meteo as m

EXHAUSTION_VALUE = 2
STANDUP_PENALTY = 2

def reach(view, game, variant, setup):
    if variant == "bmx":
        return b.ramp_bonus(None, 0, 1, ())
    if view.board.variant != "classic" or setup.kind in ("meteo",) or variant in ("meteo", "bmx"):
        game._draw(3)
    match game.variant:
        case "meteo":
            return m.standup_cost(setup, True)
    game = type(game)(setup, 1, _blank=True)
    return getattr(game, "_seen") + effective_move(game.course, 0, 5) + EXHAUSTION_VALUE
'''

CLEAN = '''
from ..engine.cards import EXHAUSTION, card_text
from ..engine.rules import find

def moves(self, view, variant):
    if find(variant).uses_tokens and variant in NAMES:
        return self._draw(view.options()[0].preview.square)
    return card_text(EXHAUSTION)
'''


def test_the_variant_check_finds_a_planted_variant_test():
    assert sorted(variant_tests(PLANTED)) == [
        "line 11: variant == 'bmx'", "line 13: variant in ('meteo', 'bmx')",
        "line 13: view.board.variant != 'classic'", "line 15: match game.variant",
    ]  # (setup.kind in ("meteo",) is not a variant)
    assert not variant_tests(CLEAN)


def test_the_private_check_finds_planted_private_engine_names():
    private = engine_private_names()
    assert {"_blank", "_seen"} <= private  # a constructor's parameter, an attribute the engine sets
    found = private_uses(PLANTED, private | {"_draw"})
    assert sorted(found) == ["line 14: game._draw", "line 18: _blank= in type(game)(...)",
                             "line 19: getattr(game, '_seen')", "line 3: import _blank_game"]
    assert not private_uses(CLEAN, private | {"_draw"})  # self's own privates are its own


def test_the_rule_check_finds_planted_rule_formulas_and_numbers():
    rules = engine_rule_names()
    assert {"effective_move", "ramp_bonus", "standup_cost", "terrain_move", "EXHAUSTION_VALUE"} <= rules
    assert NOTATION <= rules, "NOTATION names something the rule modules no longer define"
    found = rule_uses(PLANTED, rules - NOTATION)
    assert sorted(found) == [
        "line 12: b.ramp_bonus", "line 17: m.standup_cost", "line 3: import effective_move",
        "line 4: import EXHAUSTION_VALUE", "line 7: EXHAUSTION_VALUE = ...",
    ]  # (a rule number under a name of its own, STANDUP_PENALTY, is beyond this check)
    assert not rule_uses(CLEAN, rules - NOTATION)


# ------------------------------------------------------- the real sources

@pytest.fixture(scope="module")
def sources() -> dict[str, str]:
    files = outside_the_engine()
    assert len(files) > 40 and PACKAGE / "saves" / "reading.py" in files and not any(ENGINE in p.parents for p in files)
    return {str(p.relative_to(PACKAGE)): p.read_text() for p in files}


def _report(problems: dict[str, list[str]]) -> str:
    return "\n".join(f"{path} {line}" for path, lines in problems.items() for line in lines)


def test_no_variant_name_is_compared_outside_the_engine(sources):
    problems = {path: variant_tests(text) for path, text in sources.items()}
    problems = {path: found for path, found in problems.items() if found}
    assert not problems, "ask the rule set (engine.rules.find(name).uses_tokens, ...):\n" + _report(problems)


def test_no_private_engine_name_is_used_outside_the_engine(sources):
    private = engine_private_names()
    problems = {path: private_uses(text, private) for path, text in sources.items()}
    problems = {path: found for path, found in problems.items() if found}
    assert not problems, "use the engine's public surface (or rename a clashing private of your own):\n" + _report(
        problems)


def test_no_rule_function_or_number_is_used_outside_the_engine(sources):
    rules = engine_rule_names() - NOTATION
    problems = {path: rule_uses(text, rules - ELSEWHERE.get(path, set())) for path, text in sources.items()}
    problems = {path: found for path, found in problems.items() if found}
    assert not problems, "ask the engine (View.options and previews, View.reach, events, outcome):\n" + _report(
        problems)
    for path, names in ELSEWHERE.items():  # an exception that is no longer needed goes
        assert rule_uses(sources[path], names), f"{path} no longer uses {names}: remove it from ELSEWHERE"
