"""UI tests: no animations, fixed sizes and seeds (set before Textual is imported)."""

import os

os.environ["TEXTUAL_ANIMATIONS"] = "none"
os.environ.pop("NO_COLOR", None)
# races started in the app are autosaved: keep the tests' saves out of the user's data
os.environ["FLAMME_TUI_DATA_DIR"] = __import__("tempfile").mkdtemp(prefix="flamme-tui-tests-")
# and the settings: the defaults, whatever the user's are
os.environ["FLAMME_TUI_CONFIG_DIR"] = __import__("tempfile").mkdtemp(prefix="flamme-tui-tests-config-")

import asyncio  # noqa: E402

import pytest  # noqa: E402


def _idle(node) -> bool:
    """Whether a widget's message pump has nothing to do: no message queued, none
    being handled (its task waits on its queue's event), no callback or refresh due."""
    queue, task = node._message_queue, node._task
    if queue.values or node._next_callbacks or node._pending_message is not None or task is None:
        return False
    if any(getattr(node, flag, False) for flag in
           ("_repaint_required", "_layout_required", "_refresh_styles_required", "_scroll_required")):
        return False
    waiter = getattr(task, "_fut_waiter", None)
    return waiter is not None and any(waiter is w for w in queue.ready_event._waiters or ())


async def _wait_for_screen(self, timeout: float = 30.0) -> bool:
    """Pilot's wait after a key (textual.pilot.Pilot._wait_for_screen), without the
    idle widgets: Pilot posts a callback to every widget of the screen and waits
    for all of them; a widget with nothing queued, nothing being handled and
    nothing due runs its callback at once, so it adds no check, only cost (a
    callback for each of the 100 to 400 widgets after every key: a fifth of a
    whole-race test's CPU).  The app and the screen are always waited for."""
    from textual.pilot import WaitForScreenTimeout

    try:
        screen = self.app.screen
    except Exception:
        return False
    nodes = [self.app, screen, *(node for node in screen.walk_children() if not _idle(node))]
    count = 0
    done = asyncio.Event()

    def decrement() -> None:
        nonlocal count
        count -= 1
        if count == 0:
            done.set()

    for node in nodes:
        if node.call_later(decrement):
            count += 1
    if count:
        waits = [asyncio.create_task(done.wait()), asyncio.create_task(self.app._exception_event.wait())]
        _, pending = await asyncio.wait(waits, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        for task in pending:
            task.cancel()
        if len(pending) == len(waits):
            raise WaitForScreenTimeout("Timed out while waiting for widgets to process pending messages.")
        if count > 0:
            return False
    return True


@pytest.fixture(autouse=True)
def pilot_waits_for_busy_widgets(monkeypatch):
    from textual.pilot import Pilot

    monkeypatch.setattr(Pilot, "_wait_for_screen", _wait_for_screen)


@pytest.fixture(autouse=True)
def fast_pilot(monkeypatch):
    """Pilot waits for the app to be idle after every key with 20 ms sleeps; whole
    races press hundreds of keys, so poll every 2 ms instead (same checks).  On for
    every UI test (it began with the whole races; a tenth off the rest by the clock)."""
    import textual._wait as wait

    monkeypatch.setattr(wait, "SLEEP_GRANULARITY", 0.002)
    monkeypatch.setattr(wait, "SLEEP_IDLE", 0.0001)


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    """Saves and user stages in a folder of the test's own (tests that need one ask)."""
    folder = tmp_path / "data"
    monkeypatch.setenv("FLAMME_TUI_DATA_DIR", str(folder))
    return folder


@pytest.fixture(autouse=True)
def own_settings(tmp_path, monkeypatch):
    """Each test starts from the default settings, and what it saves stays with it
    (a theme picked in one test must not colour the next one's snapshots)."""
    monkeypatch.setenv("FLAMME_TUI_CONFIG_DIR", str(tmp_path / "own-config"))


@pytest.fixture(autouse=True)
def own_saves(tmp_path, monkeypatch):
    """Each test its own saves folder: a race one test left in progress would be
    offered on the next one's title menu, under the cursor (Resume comes first)."""
    monkeypatch.setenv("FLAMME_TUI_DATA_DIR", str(tmp_path / "data"))


_parsed: dict[tuple, list] = {}


@pytest.fixture(autouse=True)
def css_parsed_once(monkeypatch):
    """Textual parses every widget's CSS again for each app (a cache per
    stylesheet): a third of an app start's CPU (110 ms without this, 80 with it).  The same
    CSS with the same variables always parses to the same rules, so in tests
    the parsed rules are kept across apps, keyed on the CSS and the variables
    (a theme changes them).  CSS that does not parse raises as before (never kept)."""
    from textual.css.stylesheet import Stylesheet

    parse = Stylesheet._parse_rules

    def parse_once(self, css, read_from, is_default_rules=False, tie_breaker=0, scope=""):
        key = (css, read_from, is_default_rules, tie_breaker, scope, tuple(sorted(self._variables.items())))
        rules = _parsed.get(key)
        if rules is None:
            rules = _parsed[key] = parse(self, css, read_from, is_default_rules, tie_breaker, scope)
        return rules

    monkeypatch.setattr(Stylesheet, "_parse_rules", parse_once)
