"""Suite-wide settings.

Tests never read or write the real user data directory (saves, custom
stages): unless the caller already chose one, FLAMME_TUI_DATA_DIR points at
an empty temporary folder for the whole run (set at configure time, before
collection, so `config.stage_ids()` at import time sees only the built-in
stages, and subprocesses inherit it).  Run in parallel (pytest-xdist, `-n`),
each worker process has a folder of its own: a subfolder named after the
worker (gw0, gw1...) of the run's folder, so no two tests running at once
share saves or stages.

The `slow` marker sets apart the longest property, fuzz and kill runs: a plain
`pytest` leaves them out, `-m slow` runs only them, and `--slow` runs them with
the rest, first (the README's test command and .ci/run: one run keeps both cores
busy to its end, where a step of their own after the rest waited on its longest).

The app's tidy_memory (ui/app.py) unfreezes every object and collects: in the
app that walks the app (15-45 ms); in a test worker, the whole worker too
(hypothesis, every test module: 0.1-0.5 s), three or four times a UI test, a
sixth of their time.  So in tests gc.unfreeze waits for every UNFREEZE_EVERY
tests: the app's collections walk what is new, as they do in the app, and what
the tests left goes at the next unfreeze.

The fuzz suite (modules marked `fuzz`, see tests/fuzzing.py) reports its
case count and run time in one line at the end of the run (the workers'
counts added up when run in parallel).
"""

from __future__ import annotations

import gc
import os
import shutil
import sys
import tempfile

import pytest

_made: list[str] = []
_fuzz_seconds = [0.0]
UNFREEZE_EVERY = 20
_since_unfreeze = [0]


def pytest_addoption(parser):
    parser.addoption("--slow", action="store_true", help="run the tests marked slow too, before the rest")


def pytest_configure(config):
    # the cyclic collector's youngest generation walked every 20,000 new objects, not 700: a
    # Textual app makes and drops objects by the hundred thousand in a whole race, and those
    # walks took about a twentieth of the UI tests' CPU (the app's own collections, and
    # unfreeze_every_few_tests below, still walk all of it)
    gc.set_threshold(20_000, 20, 20)
    config.addinivalue_line("markers", "fuzz: part of the fuzz suite (hostile inputs; counted, see tests/fuzzing.py)")
    config.addinivalue_line("markers", "slow: the longest property, fuzz and kill runs (left out unless --slow or "
                                       "-m slow)")
    if sys.flags.safe_path:
        os.environ["PYTHONSAFEPATH"] = "1"
    # the suite reads English (the source texts) whatever the machine's locale; a test of another
    # language says so (--lang, or an environment of its own); LANGUAGE beats LANG and LC_* (i18n)
    os.environ["LANGUAGE"] = "en"
    # and the default settings, whatever the user's are (a Language setting beats LANGUAGE)
    settings = tempfile.mkdtemp(prefix="flamme-tui-tests-config-")
    _made.append(settings)
    os.environ["FLAMME_TUI_CONFIG_DIR"] = settings
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    chosen = os.environ.get("FLAMME_TUI_DATA_DIR")
    if worker and chosen:
        # a worker inherits the run's folder (made by the controller, or the caller's): one of its own inside it
        folder = os.path.join(chosen, worker)
        os.makedirs(folder, exist_ok=True)
        os.environ["FLAMME_TUI_DATA_DIR"] = folder
    elif not chosen:
        folder = tempfile.mkdtemp(prefix="flamme-tui-tests-" + (f"{worker}-" if worker else ""))
        _made.append(folder)
        os.environ["FLAMME_TUI_DATA_DIR"] = folder


@pytest.fixture(autouse=True)
def unfreeze_every_few_tests(monkeypatch):
    unfreeze = gc.unfreeze
    monkeypatch.setattr(gc, "unfreeze", lambda: None)
    yield
    _since_unfreeze[0] += 1
    if _since_unfreeze[0] >= UNFREEZE_EVERY:
        _since_unfreeze[0] = 0
        unfreeze()
        gc.collect()
        gc.freeze()


def pytest_collection_modifyitems(config, items):
    if config.getoption("--slow"):
        # the longest runs first (a stable sort): started last, one of them would end the run alone
        items.sort(key=lambda item: "slow" not in item.keywords)
        return
    # the long property runs and sweeps (marked slow) run only when asked for: --slow or `-m slow`
    if "slow" in (config.getoption("markexpr") or ""):
        return
    skip = pytest.mark.skip(reason="slow: run with --slow or -m slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


def pytest_unconfigure(config):
    for folder in _made:
        shutil.rmtree(folder, ignore_errors=True)
        if os.environ.get("FLAMME_TUI_DATA_DIR") == folder:
            del os.environ["FLAMME_TUI_DATA_DIR"]


def pytest_runtest_logreport(report):
    # in a parallel run the controller sees every worker's reports: it adds up the fuzz tests' time
    if "fuzz" in report.keywords:
        _fuzz_seconds[0] += report.duration  # setup, call and teardown: the module's fixtures included


def pytest_sessionfinish(session):
    import fuzzing

    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:  # a worker: its fuzz case counts go to the controller
        workeroutput["fuzz_cases"] = dict(fuzzing.CASES)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    """(pytest-xdist, in the controller) a worker ended: add up its fuzz case counts."""
    import fuzzing

    fuzzing.CASES.update(getattr(node, "workeroutput", {}).get("fuzz_cases", {}))


def pytest_terminal_summary(terminalreporter):
    import fuzzing

    line = fuzzing.summary(_fuzz_seconds[0])
    if line is not None:
        terminalreporter.write_line(line)
