"""The engine, bot and table tests again on the pure-Python sources (issue 24
item 7): the README's test command (`python -P`) tests the installed wheel,
whose engine mypyc compiled; both builds must behave alike.

One test runs those files in a pytest of its own on the sources, so the test
command covers both builds: started first with the other slow tests, it takes
one worker while the rest of the suite runs in the others (as a step of CI's
own after the suite it added half a minute to CI).  The hard and expert
bots' searches are left out: pure Python, each of their tests takes a minute
or more, and their rollouts run the engine these tests cover.
`tests/test_pure_seams.py` keeps any test from replacing what mypyc compiles.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FILES = ["test_engine_classic.py", "test_engine_meteo.py", "test_engine_bmx.py", "test_resolve.py", "test_bots.py",
         "test_table.py", "test_pure_seams.py"]


def sources_env() -> dict[str, str]:
    """The environment of a Python that imports flamme_tui from ROOT's sources first,
    outside this run's pytest-xdist worker."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "PYTHONSAFEPATH"))}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])
    return env


@pytest.mark.slow
def test_the_engine_bot_and_table_tests_pass_on_the_pure_python_sources():
    env = sources_env()
    where = subprocess.run([sys.executable, "-c", "import flamme_tui.engine.classic as c; print(c.__file__)"],
                           capture_output=True, text=True, env=env, cwd=ROOT, timeout=60)
    assert where.stdout.strip().endswith(".py"), where.stdout + where.stderr  # the sources', not a compiled module
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist", "-m", "not slow",
         "-k", "not hard and not expert", *(f"tests/{f}" for f in FILES)],
        capture_output=True, text=True, env=env, cwd=ROOT, timeout=900,
    )
    tail = "\n".join((run.stdout + run.stderr).splitlines()[-40:])
    assert run.returncode == 0, tail
    passed = re.search(r"(\d+) passed", run.stdout)
    assert passed and int(passed.group(1)) >= 300, tail  # (319 at the time of writing: none went missing)
