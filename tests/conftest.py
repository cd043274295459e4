"""Suite-wide settings.

Tests never read or write the real user data directory (saves, custom
stages): unless the caller already chose one, FLAMME_TUI_DATA_DIR points at
an empty temporary folder for the whole run (set at configure time, before
collection, so `config.stage_ids()` at import time sees only the built-in
stages, and subprocesses inherit it).
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile

_made: list[str] = []


def pytest_configure(config):
    if sys.flags.safe_path:
        os.environ["PYTHONSAFEPATH"] = "1"
    if not os.environ.get("FLAMME_TUI_DATA_DIR"):
        folder = tempfile.mkdtemp(prefix="flamme-tui-tests-")
        _made.append(folder)
        os.environ["FLAMME_TUI_DATA_DIR"] = folder


def pytest_unconfigure(config):
    for folder in _made:
        shutil.rmtree(folder, ignore_errors=True)
        if os.environ.get("FLAMME_TUI_DATA_DIR") == folder:
            del os.environ["FLAMME_TUI_DATA_DIR"]
