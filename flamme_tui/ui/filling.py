"""Menus of the user's files (stages, tours) filled from a worker thread.

Reading and checking thousands of user stage or tour files took tens of
seconds; on the UI thread that froze the app.  A screen lists the shipped
files at once, and the user's too when they are few (now_or_later), else it
hands them to `fill`: they are read in a thread
worker, a batch at a time, and each batch is given to the screen on the UI
thread (`add`), so the menu fills while the keys keep working.  The readers
cache each file by its identity (config.cached_read): a menu opened again
reads only the files that changed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

from textual.dom import DOMNode
from textual.worker import Worker, get_current_worker

T = TypeVar("T")
R = TypeVar("R")

BATCH = 40  # files read between two updates of the menu: the menu grows in steps a player can see
AT_ONCE = 16  # a folder of at most this many files is read at once (a few ms): the menu is whole when shown


def now_or_later(items: list[T]) -> tuple[list[T], list[T]]:
    """(what a screen reads as it is built, what it leaves to `fill`): a few
    files at once, so a menu of a few user files is whole from the start;
    more in the worker, however many (each file is bounded in size)."""
    return (items, []) if len(items) <= AT_ONCE else ([], items)


def fill(node: DOMNode, items: Sequence[T], read: Callable[[T], R], add: Callable[[list[R]], None],
         done: Callable[[], None]) -> Worker[Any] | None:
    """Read `items` in a thread worker of `node`; `add(batch)` (on the UI
    thread) gets the results, BATCH at a time (in order), then `done()`
    runs.  No worker when there is nothing to read: `done()` runs at once.
    The worker stops when the node goes (its workers are cancelled)."""
    if not items:
        done()
        return None

    def work() -> None:
        worker = get_current_worker()
        app = node.app
        for batch in _batches(items, BATCH):
            results = []
            for item in batch:
                if worker.is_cancelled:
                    return
                results.append(read(item))
            if worker.is_cancelled:
                return
            app.call_from_thread(_unless_gone, node, add, results)
        if not worker.is_cancelled:
            app.call_from_thread(_unless_gone, node, lambda _: done(), [])

    return node.run_worker(work, thread=True, exclusive=True, group="fill", name="reading files")


def _batches(items: Sequence[T], size: int) -> Iterable[Sequence[T]]:
    for start in range(0, len(items), size):
        yield items[start:start + size]


def _unless_gone(node: DOMNode, add: Callable[[list[R]], None], results: list[R]) -> None:
    if node.is_attached:  # the screen was closed while its files were read
        add(results)
