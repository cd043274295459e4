"""Where the app's bots think: in a process of their own.

A bot thinking in a thread of the app's process holds Python's interpreter
lock most of the time it thinks, so the screen (the app's main thread) waits
for it at every key: three hard bots made a key take two frames or more.  In
a process of its own a bot thinks on the other core and the screen answers
at once.

The thinking process gets plain data: the set-up as in a save, the seed, the
actions so far as text, the seat, the bot and its budget.  It replays the
race (a game is fully determined by these; a replay takes a millisecond),
asks the engine for the seat's view, and gives the bot nothing else, as in
the app's process.  Its answer comes back as an action's text, and goes
through `Session.play`, on the app's thread, which refuses it if the game
moved on meanwhile.

If no process can be started (a system without process semaphores, say) or
the process died, the bot thinks in a thread instead: slower keys, same race.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager, redirect_stderr
from typing import Any, NamedTuple

from ..bots import Budget, decide
from ..engine.actions import Action
from .session import BotMove, Session


class Question(NamedTuple):
    """A bot move as plain (picklable) data: the compiled engine's values are not."""

    setup: str  # setupdata.setup_json
    seed: int
    actions: tuple[str, ...]
    seat: int
    policy: str
    seconds: float
    rollouts: int | None


def question(session: Session, move: BotMove) -> Question:
    from ..setupdata import setup_json

    actions = tuple(str(a) for a in session.game.actions[: move.at])
    return Question(setup_json(session.setup), session.seed, actions, move.seat, move.policy,
                    move.budget.seconds, move.budget.rollouts)


def answer(q: Question) -> tuple[str, str]:
    """In the thinking process: the bot's action (as text) and its public reason."""
    from ..setupdata import setup_from_json
    from .races import new_game

    game = new_game(setup_from_json(q.setup), q.seed)
    for action in q.actions:
        game.apply(action)
    decision = decide(q.policy, game.view(q.seat), Budget(q.seconds, q.rollouts))
    return str(decision.action), decision.public


PR_SET_PDEATHSIG = 1  # linux/prctl.h
WATCH_SECONDS = 0.5  # how often the thinking process looks whether the app is still there


def _end_with(parent: int, deathsig: bool) -> None:
    """The thinking process ends when the app's process is gone, even killed
    (SIGKILL: the app closes nothing then), rather than living on, orphaned.

    On Linux the kernel sends it SIGKILL when its parent dies (prctl
    PR_SET_PDEATHSIG).  That signal is tied to the parent's thread that
    started the process, not to the process: it is asked for only when that
    thread was the app's main thread (`deathsig`).  Everywhere, a thread
    also watches the parent's pid (it changes when the parent is gone)."""
    if deathsig and sys.platform.startswith("linux"):
        try:
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass  # the watch below still ends it
    if os.getppid() != parent:  # the parent died before the kernel was asked
        os._exit(0)

    def watch() -> None:
        while True:
            time.sleep(WATCH_SECONDS)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def _settle(parent: int | None = None, deathsig: bool = False) -> None:
    """The thinking process gives way to the screen when the cores are busy,
    writes nothing on the app's terminal, leaves Ctrl+C to the app (its
    errors come back with its answers), and ends with the app's process."""
    if parent is not None:
        _end_with(parent, deathsig)
    os.nice(10)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    os.dup2(null, 2)
    sys.stdout = sys.stderr = open(os.devnull, "w")  # noqa: SIM115 (for the process's lifetime)


@contextmanager
def _real_stderr() -> Iterator[None]:
    """Starting processes, multiprocessing hands sys.stderr's file descriptor
    on, which Textual's stand-in for it (it captures prints) does not have."""
    with redirect_stderr(sys.__stderr__ or sys.stderr):
        yield


def _ready() -> int:
    """Run as the process starts (`warm`): it loads now what its answers need
    (reading a set-up, the hint and the coach), so that the first answer does
    not wait for it: at its low priority on a busy machine these imports took
    1-1.7 s, and the first hint took its whole budget again (`bench --hint`:
    99th percentile 1.1 s in classic, 1.7-2.7 s in BMX, at a budget of 1 s)."""
    from .. import setupdata  # noqa: F401
    from . import coach  # noqa: F401

    return os.getpid()


class Thinker:
    """Thinks for the app's bots, one move at a time, in one process kept for
    the app's lifetime (started on the first race with a bot: `warm`).
    `processes=False` thinks in a thread (tests of bots made up in the test)."""

    def __init__(self, processes: bool = True) -> None:
        self.processes = processes
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor | None:
        if self.processes and self._pool is None:
            try:
                # spawn: a fresh interpreter, never a fork of the app's threads
                context = multiprocessing.get_context("spawn")
                with _real_stderr():
                    # the process starts in this thread, on the first submit (warm, think)
                    main = threading.current_thread() is threading.main_thread()
                    self._pool = ProcessPoolExecutor(1, mp_context=context, initializer=_settle,
                                                     initargs=(os.getpid(), main))
            except (OSError, ValueError, ImportError, NotImplementedError):
                self.processes = False
        return self._pool

    def warm(self) -> None:
        """Start the thinking process now, so the first bot need not wait for it."""
        pool = self._executor()
        if pool is not None:
            self._submit(pool, _ready)

    def _submit(self, pool: ProcessPoolExecutor, fn: Any, *args: Any) -> Future[Any] | None:
        try:
            with _real_stderr():  # the process starts on the first submit
                return pool.submit(fn, *args)
        except (BrokenProcessPool, RuntimeError, OSError, ValueError):
            self.processes = False
            self._pool = None
            return None

    async def think(self, session: Session, move: BotMove) -> tuple[Action, str]:
        """The bot's action for `move` and the reason the table may hear."""
        pool = self._executor()
        future = None if pool is None else self._submit(pool, answer, question(session, move))
        if future is not None:
            try:
                text, public = await asyncio.wrap_future(future)
                return Action.parse(text), public
            except BrokenProcessPool:  # the process died (killed?): think here from now on
                self.processes = False
                self._pool = None
        decision = await asyncio.to_thread(move.think)
        return decision.action, decision.public

    async def call(self, fn: Any, *args: Any) -> Any:
        """`fn(*args)` in the thinking process (a thread if there is none): the
        hint and the coach, which think as long as a bot.  `fn` and its
        arguments must be plain data a process can be handed (module-level, picklable)."""
        pool = self._executor()
        future = None if pool is None else self._submit(pool, fn, *args)
        if future is not None:
            try:
                return await asyncio.wrap_future(future)
            except BrokenProcessPool:
                self.processes = False
                self._pool = None
        return await asyncio.to_thread(fn, *args)

    def close(self) -> None:
        """Stop the thinking process at once (a move it is thinking about is
        dropped): the app's process would otherwise wait for it as it exits."""
        pool, self._pool = self._pool, None
        if pool is not None:
            processes = list(pool._processes.values())  # Python 3.14 has terminate_workers()
            pool.shutdown(wait=False, cancel_futures=True)
            for process in processes:
                process.terminate()
