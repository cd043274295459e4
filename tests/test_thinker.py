"""The app's bots think in a process of their own (play/thinker.py): from the
position as plain data, the same decision as in the app's process, for every
rule set, a tour stage and the breakaway; a dead process is replaced by a
thread."""

from __future__ import annotations

import os

import pytest

from flamme_tui import bots
from flamme_tui.bots import Budget
from flamme_tui.engine.actions import Action
from flamme_tui.play import tours
from flamme_tui.play.races import RaceSpec
from flamme_tui.play.session import Session
from flamme_tui.play.thinker import Thinker, answer, question

SPECS = {
    "classic": RaceSpec(),
    "meteo": RaceSpec(variant="meteo"),
    "bmx": RaceSpec(variant="bmx"),
    "breakaway": RaceSpec(stage="peloton-7", breakaway=True),
}


@pytest.mark.parametrize("name", sorted(SPECS))
def test_the_question_replayed_gives_the_bots_decision(name):
    """Every move of a whole race: the answer from the plain-data question is
    the bot's decision from the view in this process."""
    session = Session.new(SPECS[name], 11, {0: "medium", 1: "easy", 2: "medium", 3: "easy"})
    moves = 0
    while not session.over:
        move = session.bot_move()
        text, public = answer(question(session, move))
        decision = move.think()
        assert (Action.parse(text), public) == (decision.action, decision.public)
        session.play(move, decision.action)
        moves += 1
    assert moves > 20


def test_a_tour_stage_and_the_searching_bots_too():
    """The second stage of a tour (carried exhaustion, grid order, times)."""
    tour = tours.Tour.new(tours.stages_option("avenue-corso-paseo,la-haut-montagne"), RaceSpec().teams, 3)
    first = tours.stage_session(tour, {s: "easy" for s in range(4)})
    while not first.over:
        first.play_bots()
    session = tours.next_session(first)
    session.bots = {1: "hard", 2: "expert"}
    session.budget = Budget(rollouts=8)  # deterministic
    for _ in range(12):
        if session.due() not in session.bots:
            session.bots[session.due()] = "easy"
        move = session.bot_move()
        text, public = answer(question(session, move))
        decision = move.think()
        assert (Action.parse(text), public) == (decision.action, decision.public)
        session.play(move, decision.action)


async def test_the_bot_thinks_in_another_process(monkeypatch):
    """A bot broken in this process still plays in the thinking process."""

    def broken(view):
        raise AssertionError("thought in the app's process")

    session = Session.new(RaceSpec(), 5, {s: "easy" for s in range(4)})
    move = session.bot_move()
    expected = move.think().action
    monkeypatch.setitem(bots.POLICIES, "easy", broken)
    thinker = Thinker()
    try:
        assert (await thinker.think(session, move))[0] == expected
        assert thinker.processes
        # the process dies: the next move is thought in a thread, here
        pool = thinker._pool
        assert pool is not None
        for process in pool._processes.values():
            assert process.pid != os.getpid()
            process.kill()
            process.join()
        with pytest.raises(AssertionError, match="app's process"):
            await thinker.think(session, move)
        assert not thinker.processes
    finally:
        thinker.close()


async def test_a_warm_thinking_process_has_loaded_what_its_answers_need():
    """Loading the set-up reader and the hint took 1-1.7 s on a busy machine:
    paid by the first hint (the 99th percentile of `bench --hint`) unless loaded
    as the process starts."""
    thinker = Thinker()
    try:
        thinker.warm()
        await thinker.call(int, 0)  # the process has started and is ready
        loaded = "all(m in __import__('sys').modules for m in ('flamme_tui.setupdata', 'flamme_tui.play.coach'))"
        assert thinker.processes
        assert await thinker.call(eval, loaded)
    finally:
        thinker.close()


PARENT = """
import sys, threading, time
from flamme_tui.play.thinker import Thinker, _ready

thinker = Thinker()
pids = []

def start():
    pids.append(thinker._submit(thinker._executor(), _ready).result(60))

if sys.argv[1] == "main":
    start()
else:  # started from a thread that ends at once: the process must outlive it
    worker = threading.Thread(target=start)
    worker.start()
    worker.join()
print(pids[0], flush=True)
time.sleep(600)
"""


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")  # a zombie has ended
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads /proc to see a process end")
@pytest.mark.parametrize("started_from", ["main", "thread"])
def test_the_thinking_process_ends_when_the_app_is_killed(started_from):
    """SIGKILL leaves the app no time to stop its thinking process: that
    process ends by itself within a few seconds (kernel's parent-death signal,
    or its watch of the parent's pid), and not before its parent is gone."""
    import signal
    import subprocess
    import sys
    import time

    parent = subprocess.Popen([sys.executable, "-c", PARENT, started_from], stdout=subprocess.PIPE, text=True)
    child = 0
    try:
        child = int(parent.stdout.readline())
        assert _alive(child)
        time.sleep(1.5)  # the thread that started it has ended; the app has not
        assert _alive(child), "the thinking process ended while the app still ran"
        parent.send_signal(signal.SIGKILL)
        parent.wait(timeout=10)
        end = time.monotonic() + 5
        while _alive(child) and time.monotonic() < end:
            time.sleep(0.05)
        assert not _alive(child), "the thinking process lives on after the app was killed"
    finally:
        parent.kill()
        parent.wait()
        if child and _alive(child):  # (a failed run leaves no orphan behind)
            os.kill(child, signal.SIGKILL)
