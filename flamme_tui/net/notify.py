"""A desktop notification when a device's seat must choose (a table may wait days between rounds).

Where `notify-send` (libnotify) is on the PATH, a joined seat is told by a
desktop notification as well as by the terminal bell; elsewhere the bell
alone tells.  Not in a browser tab: its app runs on the host's machine, and
a notification there would tell the host's player, not the tab's.  The
words come partly from the host (the team's name): they are passed as one
argument each (no shell), as one line without control characters, and with
the few characters that notification servers read as markup escaped.
"""

from __future__ import annotations

import asyncio
import shutil

from ..i18n import _
from ..pathtext import served
from ..usertext import clean

COMMAND = "notify-send"
SECONDS = 10.0  # a notifier that has not answered by then is stopped
LONGEST = 80  # characters of a team's name shown


def notifier() -> str | None:
    """The notify-send to run, or None (not installed, or a browser tab's app)."""
    return None if served() else shutil.which(COMMAND)


def words(team: str) -> tuple[str, str]:
    """The notification's title and text for `team`'s turn (safe as arguments and as markup)."""
    name = clean(team, multiline=False)[:LONGEST]
    name = name.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return "flamme-tui", _("{team}: your turn to choose").format(team=name)


async def notify(team: str) -> bool:
    """Tell the desktop that `team` must choose; whether a notifier ran (and ended well)."""
    path = notifier()
    if path is None:
        return False
    title, text = words(team)
    try:
        process = await asyncio.create_subprocess_exec(
            path, "--app-name=flamme-tui", "--", title, text, stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL)
    except OSError:  # gone since it was found, or not runnable: the bell still rang
        return False
    try:
        return await asyncio.wait_for(process.wait(), SECONDS) == 0
    except TimeoutError:
        process.kill()
        await process.wait()
        return False
