"""How a file path is written in a message.

Error messages call this, so it must never fail: a symlink loop, a deleted
working folder, a name too long or an odd value (bytes, None) all give the
text as given rather than a second error hiding the first.
"""

from __future__ import annotations

import os
from pathlib import Path

# set (to 1) by `flamme-tui serve` for the app it runs in each browser tab
SERVED_ENV = "FLAMME_TUI_SERVED"
# and to the browser's address: a tab's `join` names it in its hello (net/host.py counts wrong
# codes per browser, not per the host's own address that every tab's join comes from)
BROWSER_ENV = "FLAMME_TUI_BROWSER"


def served() -> bool:
    """True when the app is played in a browser tab (flamme-tui serve, or any
    textual-serve / textual-web driver): its player is not the server's user,
    and is shown no absolute path, pid or host name of the server."""
    return os.environ.get(SERVED_ENV) == "1" or "web_driver" in os.environ.get("TEXTUAL_DRIVER", "")


def show_path(path: object) -> str:
    """Relative to the working directory when inside it (shorter, clickable),
    else as given; to a browser player (served), never absolute: "~/..."
    under the home folder, else the file's name."""
    if served():
        return _served_path(path)
    try:
        return str(Path(path).resolve().relative_to(Path.cwd().resolve()))  # type: ignore[arg-type]
    except Exception:  # noqa: BLE001 - anything at all: fall back to the text given
        pass
    try:
        return os.fsdecode(path)  # type: ignore[arg-type]
    except Exception:  # noqa: BLE001
        return repr(path)


def _served_path(path: object) -> str:
    try:
        full = Path(os.fsdecode(path))  # type: ignore[arg-type]
        if not full.is_absolute():
            return str(full)
        try:
            return str(Path("~") / full.relative_to(Path.home()))
        except ValueError:
            return full.name or "a file"
    except Exception:  # noqa: BLE001 - never fails, never shows the path
        return "a file"
