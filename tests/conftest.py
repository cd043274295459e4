"""Suite-wide settings.

Tests never read or write the real user data directory (saves, custom
stages): unless the caller already chose one, FLAMME_TUI_DATA_DIR points at
an empty temporary folder for the whole run (set at configure time, before
collection, so `config.stage_ids()` at import time sees only the built-in
stages, and subprocesses inherit it).

The fuzz suite (modules marked `fuzz`, see tests/fuzzing.py) reports its
case count and run time in one line at the end of the run.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile

_made: list[str] = []
_fuzz_seconds = [0.0]


def pytest_configure(config):
    config.addinivalue_line("markers", "fuzz: part of the fuzz suite (hostile inputs; counted, see tests/fuzzing.py)")
    config.addinivalue_line("markers", "slow: a long run (many random cases); `-m slow` runs only these")
    if sys.flags.safe_path:
        os.environ["PYTHONSAFEPATH"] = "1"
    if not os.environ.get("FLAMME_TUI_DATA_DIR"):
        folder = tempfile.mkdtemp(prefix="flamme-tui-tests-")
        _made.append(folder)
        os.environ["FLAMME_TUI_DATA_DIR"] = folder


def pytest_collection_modifyitems(config, items):
    """Tests marked `slow` (long random runs) run only when asked for (`-m slow`)."""
    if "slow" in (config.option.markexpr or ""):
        return
    import pytest

    skip = pytest.mark.skip(reason="a long run: `-m slow` runs it")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


def pytest_unconfigure(config):
    for folder in _made:
        shutil.rmtree(folder, ignore_errors=True)
        if os.environ.get("FLAMME_TUI_DATA_DIR") == folder:
            del os.environ["FLAMME_TUI_DATA_DIR"]


def pytest_runtest_logreport(report):
    if "fuzz" in report.keywords:
        _fuzz_seconds[0] += report.duration  # setup, call and teardown: the module's fixtures included


def pytest_terminal_summary(terminalreporter):
    import fuzzing

    line = fuzzing.summary(_fuzz_seconds[0])
    if line is not None:
        terminalreporter.write_line(line)
