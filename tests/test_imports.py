"""The layers of the package, as its imports (issue 24): each layer imports
only the layers below it, so that the engine, the bots and the table model
can run without the app (another device, another language, a headless
command) and a change above never reaches down.

    engine   imports nothing of the package outside engine/
    bots     imports the engine only
    play     imports neither ui/ nor cli/, nor saves.py (which is above it:
             it rebuilds sessions and tours)
    net      (the host and a device's line) imports neither ui/ nor cli/: a
             host runs headless; play does not import net (it is above play)
    ui       does not import cli/ (the command line is above the app)
    Textual  is imported by ui/ only

The package root (`flamme_tui/__init__.py`: the version and a few numbers
the command line needs before anything heavy) imports nothing, so any layer
may read it; the engine does not.

Every import counts, at the top of a module or inside a function (a lazy
import is still a dependency), absolute or relative.  As in test_layers.py,
the checker is first shown to find what it looks for in planted sources.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "flamme_tui"
ROOT = "flamme_tui"


def module_name(path: Path) -> str:
    """flamme_tui/play/races.py -> flamme_tui.play.races (a package: its __init__'s name)."""
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(source: str, module: str, is_package: bool = False) -> list[tuple[int, str]]:
    """(line, imported module) for every import in `source`, relative ones
    resolved from `module`; `from x import y` counts as x.y when y may be a
    module (so `from .. import config` is flamme_tui.config)."""
    here = module.split(".") if is_package else module.split(".")[:-1]
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[: len(here) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            found += [(node.lineno, f"{target}.{alias.name}") for alias in node.names]
    return found


def _layer(name: str) -> str:
    """The layer a module of the package belongs to: "engine", "bots", "play",
    "ui", "cli", the root itself, or a top-level module's name ("saves")."""
    parts = name.split(".")
    return ROOT if len(parts) == 1 else parts[1]


def _within(target: str, layer: str) -> bool:
    return target == f"{ROOT}.{layer}" or target.startswith(f"{ROOT}.{layer}.")


def _root_constant(target: str) -> bool:
    """`from flamme_tui import X` where X is no module: one of the root's numbers."""
    parts = target.split(".")
    return len(parts) == 2 and parts[0] == ROOT and not (PACKAGE / f"{parts[1]}.py").exists() and not (
        PACKAGE / parts[1]).is_dir()


def problems(source: str, module: str, is_package: bool = False) -> list[str]:
    """The imports of `module` that run the wrong way."""
    layer = _layer(module)
    found = []
    for line, target in imports(source, module, is_package):
        ours = target == ROOT or target.startswith(ROOT + ".")
        if target.split(".")[0] == "textual" and layer != "ui":
            found.append(f"line {line}: {target} (only ui/ imports Textual)")
        if not ours:
            continue
        if layer == ROOT:
            found.append(f"line {line}: {target} (the package root imports nothing)")
        elif layer == "engine" and not _within(target, "engine"):
            found.append(f"line {line}: {target} (the engine imports only itself)")
        elif layer == "bots" and not (_within(target, "engine") or _within(target, "bots") or _root_constant(target)):
            found.append(f"line {line}: {target} (bots import only the engine)")
        elif layer == "play" and any(_within(target, above) for above in ("ui", "cli", "saves", "net")):
            found.append(f"line {line}: {target} (play imports neither ui, cli, net nor saves)")
        elif layer == "net" and any(_within(target, above) for above in ("ui", "cli")):
            found.append(f"line {line}: {target} (net imports neither ui nor cli)")
        elif layer == "ui" and _within(target, "cli"):
            found.append(f"line {line}: {target} (ui does not import cli)")
    return found


# ------------------------------------------------ the checker can fail

PLANTED = {
    "flamme_tui.engine.classic": "from ..course import Course\nfrom .cards import EXHAUSTION\nfrom .. import MAX_SEED\n",
    "flamme_tui.bots.hard": "from ..play.turns import next_seat\nfrom ..engine.view import View\n"
                            "from .. import BOT_SECONDS\nfrom .budget import Budget\nfrom .. import config\n",
    "flamme_tui.play.flow": "from ..ui.widgets.squares import label\n"
                            "def load():\n    from ..saves import load_record\n    from .races import new_game\n",
    "flamme_tui.ui.bench": "def parser():\n    from ..cli import Parser\n    from ..arguments import Whole\n",
    "flamme_tui.usertext": "def plain():\n    from textual.content import Content\n",
    "flamme_tui.ui.screens.race": "from textual.screen import Screen\nfrom ...play.narrator import label\n",
    "flamme_tui.net.host": "from ..play.session import Session\ndef show():\n    from ..ui.join import JoinApp\n",
}


def test_the_checker_finds_planted_imports_that_run_the_wrong_way():
    found = {module: problems(source, module) for module, source in PLANTED.items()}
    assert found == {
        "flamme_tui.engine.classic": [
            "line 1: flamme_tui.course.Course (the engine imports only itself)",
            "line 3: flamme_tui.MAX_SEED (the engine imports only itself)",
        ],
        "flamme_tui.bots.hard": [
            "line 1: flamme_tui.play.turns.next_seat (bots import only the engine)",
            "line 5: flamme_tui.config (bots import only the engine)",
        ],
        "flamme_tui.play.flow": [
            "line 1: flamme_tui.ui.widgets.squares.label (play imports neither ui, cli, net nor saves)",
            "line 3: flamme_tui.saves.load_record (play imports neither ui, cli, net nor saves)",
        ],
        "flamme_tui.ui.bench": ["line 2: flamme_tui.cli.Parser (ui does not import cli)"],
        "flamme_tui.usertext": ["line 2: textual.content.Content (only ui/ imports Textual)"],
        "flamme_tui.ui.screens.race": [],
        "flamme_tui.net.host": ["line 3: flamme_tui.ui.join.JoinApp (net imports neither ui nor cli)"],
    }


def test_a_package_resolves_its_relative_imports_from_itself():
    assert imports("from .budget import Budget", "flamme_tui.bots", is_package=True) == [
        (1, "flamme_tui.bots.budget.Budget")]
    assert imports("from .budget import Budget", "flamme_tui.bots.hard") == [(1, "flamme_tui.bots.budget.Budget")]


# ------------------------------------------------------- the real sources

def _modules() -> list[Path]:
    files = sorted(PACKAGE.rglob("*.py"))
    assert len(files) > 60 and PACKAGE / "engine" / "course.py" in files
    return files


@pytest.mark.parametrize("layer", ["engine", "bots", "play", "ui", "the rest"])
def test_every_import_runs_down_the_layers(layer):
    found = {}
    for path in _modules():
        name = module_name(path)
        if (_layer(name) == layer) or (layer == "the rest" and _layer(name) not in ("engine", "bots", "play", "ui")):
            wrong = problems(path.read_text(), name, path.name == "__init__.py")
            if wrong:
                found[str(path.relative_to(PACKAGE))] = wrong
    assert not found, "\n".join(f"{path} {line}" for path, lines in found.items() for line in lines)
