"""The C flags the engine is built with (read by backend.py; no build tool
imported here, so tests/test_build.py can check them)."""

from __future__ import annotations

import sysconfig

# Added to the C flags: calls within the extension go straight to their target (it is never
# interposed) and calls into libpython skip the PLT stub.  The same C code; `flamme-tui bench`
# about 8% less CPU per classic race, the bots' rollouts 13%.  -flto=auto: the engine's one C
# file is optimised at link time, in as many jobs as the machine has cores (gcc's time in the
# install, 39 s in one process on 2 cores, is 26 s: 11 s to compile, 15 s to link in two), and
# the same code (callgrind: the same instructions a race within 0.2%, each rule set).
ENGINE_CFLAGS = "-fno-semantic-interposition -fno-plt -flto=auto"


def engine_cflags(user: str | None) -> str:
    """The CFLAGS of the engine's build, given the user's (None: not set).

    setuptools takes CFLAGS from the environment instead of Python's own
    (sysconfig's: -DNDEBUG, -fwrapv, ...), not after them as distutils did:
    so without a user's CFLAGS, Python's own come first, else mypyc's runtime
    is built with its C asserts on (5% more instructions a classic race).
    A user's CFLAGS are theirs, kept as given."""
    base = user if user is not None else sysconfig.get_config_var("CFLAGS") or ""
    return f"{base} {ENGINE_CFLAGS}".strip()
