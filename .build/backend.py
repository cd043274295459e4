"""The build backend: hatchling, with hatch-mypyc compiling the engine into
wheels (see pyproject.toml).

hatch-mypyc compiles in place and leaves its .so files in the source tree,
where they would hide every later edit of the .py files.  So a wheel build
removes them once the wheel is written, and an editable install (for work
on the sources) is never compiled: it runs the .py files themselves.
Without a C compiler the wheel is built as pure Python (slower, same game);
tests/test_build.py fails in that case where a compiler exists.
"""

from __future__ import annotations

import glob
import os
import sys

from cflags import ENGINE_CFLAGS, engine_cflags  # .build/ is the backend's path
from hatchling import build as _hatchling
from hatchling.build import *  # noqa: F401,F403  (every other build hook, unchanged)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _remove_compiled() -> None:
    for pattern in ("flamme_tui/**/*.so", "*__mypyc*.so"):
        for path in glob.glob(os.path.join(ROOT, pattern), recursive=True):
            os.remove(path)


def _build_compiled(wheel_directory, config_settings, metadata_directory):
    """The wheel with the compiled engine, built with ENGINE_CFLAGS, else (a compiler
    that refuses them) without them."""
    user = os.environ.get("CFLAGS")
    os.environ["CFLAGS"] = engine_cflags(user)
    try:
        return _hatchling.build_wheel(wheel_directory, config_settings, metadata_directory)
    except Exception as exc:
        print(f"flamme-tui: the engine did not build with {ENGINE_CFLAGS} ({str(exc).strip()[:200]}); "
              "building it without them", file=sys.stderr)
        _remove_compiled()
    finally:
        if user is None:
            del os.environ["CFLAGS"]
        else:
            os.environ["CFLAGS"] = user
    return _hatchling.build_wheel(wheel_directory, config_settings, metadata_directory)


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    try:
        return _build_compiled(wheel_directory, config_settings, metadata_directory)
    except Exception as exc:  # mypyc or the C compiler failed: the game still runs as pure Python
        print(f"flamme-tui: the engine was not compiled ({str(exc).strip()[:400]}); "
              "building it as pure Python", file=sys.stderr)
        _remove_compiled()
        os.environ["HATCH_BUILD_NO_HOOKS"] = "true"
        return _hatchling.build_wheel(wheel_directory, config_settings, metadata_directory)
    finally:
        _remove_compiled()


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    _remove_compiled()
    os.environ["HATCH_BUILD_NO_HOOKS"] = "true"
    return _hatchling.build_editable(wheel_directory, config_settings, metadata_directory)
