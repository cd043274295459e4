"""The installed package carries the compiled engine (see .build/backend.py).

An editable install runs the sources (pure Python), so does a machine
without a C compiler; anywhere else the rules engine must be the mypyc
build, or `flamme-tui bench` loses half its speed without a word.
"""

from __future__ import annotations

import gc
import shutil
import weakref
from pathlib import Path

import pytest

import flamme_tui
from flamme_tui.cli import engine_build

REPO = Path(__file__).resolve().parent.parent


def test_an_installed_package_has_the_compiled_engine():
    if Path(flamme_tui.__file__).resolve().parent.parent == REPO:
        pytest.skip("running the sources (an editable install or no -P): pure Python by design")
    if shutil.which("cc") is None and shutil.which("gcc") is None:
        pytest.skip("no C compiler here: the package was built as pure Python")
    assert engine_build() == "compiled"


def test_weak_references_to_games_survive_the_garbage_collector():
    """mypyc on Python 3.11 frees a compiled class's weak references as if they
    were its own attributes when the class has a __dict__ (a Generic base
    gives it one): hypothesis's weak references to drawn games then crashed
    the collector.  The games must stay plain compiled classes."""
    from flamme_tui.play.races import RaceSpec
    from flamme_tui.play.session import Session

    refs = []
    for seed in range(30):
        game = Session.new(RaceSpec(), seed).game
        try:
            refs.append(weakref.ref(game))
        except TypeError:  # a compiled game takes no weak reference: nothing to free wrongly
            pass
        game.view(0).options()  # a board whose memo holds a position game: a reference cycle
        game.clone()
        del game
        gc.collect()
    del refs
    gc.collect()
    if engine_build() == "compiled":
        assert not hasattr(Session.new(RaceSpec(), 1).game, "__dict__")


def _cflags_module():
    import importlib.util

    spec = importlib.util.spec_from_file_location("cflags", REPO / ".build" / "cflags.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_engine_is_built_with_pythons_own_c_flags_and_its_own():
    """setuptools reads CFLAGS from the environment instead of Python's own
    flags: the build must pass Python's (-DNDEBUG: mypyc's runtime without its
    C asserts) along with the engine's, unless the user set CFLAGS."""
    import sysconfig

    cflags = _cflags_module()
    built = cflags.engine_cflags(None).split()
    for flag in (sysconfig.get_config_var("CFLAGS") or "").split() + cflags.ENGINE_CFLAGS.split():
        assert flag in built
    assert cflags.engine_cflags("-O1 -g0").split() == ["-O1", "-g0", *cflags.ENGINE_CFLAGS.split()]
