"""UI tests: no animations, fixed sizes and seeds (set before Textual is imported)."""

import os

os.environ["TEXTUAL_ANIMATIONS"] = "none"
os.environ.pop("NO_COLOR", None)
# races started in the app are autosaved: keep the tests' saves out of the user's data
os.environ["FLAMME_TUI_DATA_DIR"] = __import__("tempfile").mkdtemp(prefix="flamme-tui-tests-")
# and the settings: the defaults, whatever the user's are
os.environ["FLAMME_TUI_CONFIG_DIR"] = __import__("tempfile").mkdtemp(prefix="flamme-tui-tests-config-")

import pytest  # noqa: E402


@pytest.fixture
def fast_pilot(monkeypatch):
    """Pilot waits for the app to be idle after every key with 20 ms sleeps; whole
    races press hundreds of keys, so poll every 2 ms instead (same checks)."""
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
