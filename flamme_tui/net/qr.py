"""The QR code of a join address, drawn in block characters for a terminal (segno).

`flamme-tui host` and the app's host screen print it; segno is a dependency
(pyproject.toml) but the code works without it (None: no QR code).
"""

from __future__ import annotations


def qr_lines(text: str) -> list[str] | None:
    """A QR code of `text` in block characters (segno), None if segno is missing."""
    try:
        import segno
    except ImportError:
        return None
    import io

    out = io.StringIO()
    segno.make(text, error="m").terminal(out=out, compact=True, border=2)
    return out.getvalue().splitlines()
