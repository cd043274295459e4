"""The compiled and the pure builds behave alike: no test replaces anything
in a module that mypyc compiles in the wheel (pyproject.toml's list).

A compiled class's methods cannot be replaced (and a compiled module's
functions call each other directly), so a test that monkeypatches one passes
on the sources and means nothing, or fails, on the wheel.  Tests reach the
engine through its seams instead: set-ups, positions (Race.from_position),
Race.resolve, the rule numbers make_setup takes.  Checked over the tests'
syntax trees: `monkeypatch.setattr` and `setattr` on a name imported from a
compiled module (or on such a module), and assignments to a compiled class's
attributes.
"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"


def compiled_modules() -> set[str]:
    """Dotted names of the modules mypyc compiles."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    paths = pyproject["tool"]["hatch"]["build"]["targets"]["wheel"]["hooks"]["mypyc"]["include"]
    return {p.removesuffix(".py").replace("/", ".") for p in paths}


def patches(source: str, compiled: set[str]) -> list[str]:
    """Lines that replace something of a compiled module: 'line N: what'."""
    tree = ast.parse(source)
    bound: dict[str, str] = {}  # local name -> the compiled module it is, or comes from
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                if full in compiled or node.module in compiled:
                    bound[alias.asname or alias.name] = full if full in compiled else node.module
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in compiled:
                    bound[alias.asname or alias.name.split(".")[0]] = alias.name

    def root(expr: ast.expr) -> str | None:
        while isinstance(expr, ast.Attribute):
            expr = expr.value
        return expr.id if isinstance(expr, ast.Name) else None

    def hits(target: ast.expr) -> bool:
        if isinstance(target, ast.Constant) and isinstance(target.value, str):  # setattr("pkg.mod.name", ...)
            return any(target.value.startswith(m + ".") for m in compiled)
        name = root(target)
        if name is None:
            return False
        if name in bound:
            return True
        # flamme_tui.engine.classic.ClassicGame after `import flamme_tui`
        dotted = ast.unparse(target)
        return any(dotted == m or dotted.startswith(m + ".") for m in compiled)

    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and node.args:
            func = node.func
            named = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if named in ("setattr", "delattr") and hits(node.args[0]):
                found.append((node.lineno, ast.unparse(node)[:80]))
        elif isinstance(node, (ast.Assign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                # a class's (module's) attribute replaced: `ClassicGame.draw_size = ...`; an
                # instance's state (`game.die = 0`) is a position a test sets up, not code replaced
                if not (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)):
                    continue
                name = target.value.id
                if name in bound and (name[:1].isupper() or bound[name] in compiled):
                    found.append((node.lineno, f"{ast.unparse(target)} = ..."))
    return [f"line {n}: {what}" for n, what in sorted(found)]


def test_the_checker_finds_what_it_looks_for():
    compiled = {"flamme_tui.engine.classic", "flamme_tui.play.races"}
    planted = '''
from flamme_tui.engine.classic import ClassicGame
from flamme_tui.engine import classic
import flamme_tui.play.races as races
from flamme_tui import config

def test_x(monkeypatch):
    monkeypatch.setattr(ClassicGame, "draw_size", lambda self, i: 9)
    monkeypatch.setattr(classic, "fixed_worth", lambda s, c: 1)
    monkeypatch.setattr("flamme_tui.play.races.make_setup", None)
    setattr(races, "COLOURS", ())
    ClassicGame.max_gap = 2
    monkeypatch.setattr(config, "load_classic_rules", None)  # not compiled
    game = ClassicGame(None, 1)
    game.die = 0  # a position set up
'''
    assert [line.split(":")[0] for line in patches(planted, compiled)] == [
        "line 8", "line 9", "line 10", "line 11", "line 12"]


def test_no_test_replaces_anything_compiled():
    compiled = compiled_modules()
    assert "flamme_tui.engine.classic" in compiled
    found = {}
    for path in sorted(TESTS.rglob("*.py")):
        if path.name == Path(__file__).name:
            continue
        lines = patches(path.read_text(), compiled)
        if lines:
            found[str(path.relative_to(ROOT))] = lines
    assert not found, "use a seam (set-up, position, Race.resolve, make_setup's rules), not a patch:\n" + "\n".join(
        f"  {path} {line}" for path, lines in found.items() for line in lines)
