"""How a file path is written in a message.

Error messages call this, so it must never fail: a symlink loop, a deleted
working folder, a name too long or an odd value (bytes, None) all give the
text as given rather than a second error hiding the first.
"""

from __future__ import annotations

import os
from pathlib import Path


def show_path(path: object) -> str:
    """Relative to the working directory when inside it (shorter, clickable),
    else as given."""
    try:
        return str(Path(path).resolve().relative_to(Path.cwd().resolve()))  # type: ignore[arg-type]
    except Exception:  # noqa: BLE001 - anything at all: fall back to the text given
        pass
    try:
        return os.fsdecode(path)  # type: ignore[arg-type]
    except Exception:  # noqa: BLE001
        return repr(path)
