"""ruff and mypy, both configured in pyproject.toml (the engine is held to
mypy's strict flags), find nothing in the sources.

Part of the README's test command (`--slow`, started first): mypy takes one
core for about 9 s, which beside the other workers costs CI less than a step
of its own after the suite."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
@pytest.mark.parametrize("command", [["ruff", "check", "flamme_tui", "tests"], ["mypy", "flamme_tui"]],
                         ids=["ruff", "mypy"])
def test_the_linters_find_nothing(command):
    run = subprocess.run([sys.executable, "-m", *command], capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
