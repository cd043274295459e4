"""The installed package carries the compiled engine (see .build/backend.py).

An editable install runs the sources (pure Python), so does a machine
without a C compiler; anywhere else the rules engine must be the mypyc
build, or `flamme-tui bench` loses half its speed without a word.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

import flamme_tui
from flamme_tui.cli import engine_build

REPO = Path(__file__).resolve().parent.parent


def test_an_installed_package_has_the_compiled_engine():
    if Path(flamme_tui.__file__).resolve().parent.parent == REPO:
        pytest.skip("running the sources (an editable install or no -P): pure Python by design")
    if os.environ.get("HATCH_BUILD_HOOK_ENABLE_MYPYC") != "true":
        pytest.skip("compiling is off by default (pyproject.toml: the mypyc build crashes in tests/test_previews.py)")
    if shutil.which("cc") is None and shutil.which("gcc") is None:
        pytest.skip("no C compiler here: the package was built as pure Python")
    assert engine_build() == "compiled"
