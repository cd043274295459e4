"""Kill tests for tours: a tour killed at any moment resumes to the same tour.

A seeded headless tour runs in a subprocess that autosaves after every
action (`flamme-tui tour --autosave DIR --trace --step`, which reports
`saved STAGE ACTIONS` and then waits for a line on stdin).  We choose the
kill points by what was saved, never by time: the test answers every report
until the process reports the chosen point, then kills it (SIGKILL mostly,
SIGTERM and SIGHUP too), either there, while it waits, or just after letting
it go on (so some kills land in the middle of the next write; it stops again
after that one).  So the kills land in every stage, mid-stage and between
stages, on a slow machine as on a fast one.  We check that the file on disk
is whole and holds every action reported saved, go on from it in a new
process (`flamme-tui tour --from FILE`, a new file each time), and so on
until the tour ends.  The finished tour must equal the uninterrupted tour
with the same seed: the same action log in every stage, times, GC and TP.
"""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from flamme_tui import saves
from flamme_tui.play import tours
from flamme_tui.play.races import COLOURS, Team

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")

STAGES = "avenue-corso-paseo,firenze-milano:meteo,le-col-du-ballon"
SEED = 12
SIGNALS = [signal.SIGKILL] * 6 + [signal.SIGTERM, signal.SIGHUP]


def uninterrupted() -> tours.Tour:
    """The same tour in this process: every stage's log and the standing."""
    teams = tuple(Team(c.capitalize(), c) for c in COLOURS[:4])
    session = tours.stage_session(tours.Tour.new(tours.stages_option(STAGES), teams, SEED), {s: "easy" for s in range(4)})
    while True:
        while not session.over:
            session.play_bots()
        if tours.tour_over(session):
            return tours.standing(session)
        session = tours.next_session(session)


def logs_of(session) -> list[list[str]]:
    """Every stage's action log in a loaded tour, the stage in progress last."""
    return [[str(a) for a in d.game.actions] for d in session.tour.done] + [session.actions_text()]


HANG = 600  # seconds: only a hung process takes this long, however busy the machine


class Run:
    """One process of the tour, answering its reports of saves until it reports
    `until` (stage, actions) or later: there it waits (`stopped` is set).
    `until` None: it runs to the end of the tour."""

    def __init__(self, args: list[str], env: dict, until: tuple[int, int] | None) -> None:
        self.until = until
        step = [] if until is None else ["--step"]
        self.proc = subprocess.Popen([sys.executable, "-m", "flamme_tui", "tour", *args, *step],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     env=env, text=True)
        self.acked = (0, -1)  # (stage, actions) of the last report of a save
        self.stopped = threading.Event()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            if line.startswith("saved "):
                _, stage, actions = line.split()
                self.acked = (int(stage), int(actions))
                if self.until is not None and self.acked >= self.until:
                    self.stopped.set()  # the process waits for an answer that does not come
                elif self.until is not None:
                    self.go()
        self.stopped.set()

    def go(self) -> None:
        """Let the process save one more action."""
        try:
            self.proc.stdin.write("\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, ValueError):  # it ended (or was killed): nothing to let go on
            pass

    def finish(self) -> tuple[int, str]:
        self.proc.wait(timeout=HANG)
        self.reader.join(HANG)
        err = self.proc.stderr.read()
        for pipe in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                pipe.close()
            except BrokenPipeError:
                pass
        return self.proc.returncode, err


def test_a_killed_tour_resumes_to_the_same_tour(tmp_path):
    expected = uninterrupted()
    expected_logs = [[str(a) for a in d.game.actions] for d in expected.done]
    env = dict(os.environ, FLAMME_TUI_DATA_DIR=str(tmp_path / "data"), PYTHONDONTWRITEBYTECODE="1")
    folder = tmp_path / "saves"
    first = ["--stages", STAGES, "--seed", str(SEED), "--autosave", str(folder), "--trace"]
    rng = random.Random("tour-kill")
    # where to kill: a few points in every stage, chosen by the actions saved (so whatever the machine's speed)
    targets = sorted([(k + 1, rng.randrange(len(log))) for k, log in enumerate(expected_logs) for _ in range(4)]
                     # and right after a stage's last action: the file holds a finished stage, the next not begun
                     + [(k + 1, len(log)) for k, log in enumerate(expected_logs[:-1])])
    ends = {(k + 1, len(log)) for k, log in enumerate(expected_logs[:-1])}
    points: list[tuple[tuple[int, int], int, int]] = []  # (acked, stage on disk, actions on disk)
    path: Path | None = None
    for _launch in range(200):
        target = targets.pop(0) if targets else None
        run = Run(first if path is None else ["--from", str(path), "--autosave", str(folder), "--trace"], env, target)
        if target is None:
            code, err = run.finish()
            assert code == 0, err
            break
        assert run.stopped.wait(HANG), "the tour process hung"
        # a stage's end is killed where it waits (the finished stage on disk, the next not begun);
        # elsewhere half the kills let it go on first, so they land anywhere in its next action, its write too
        if target not in ends and rng.random() < 0.5:
            run.go()
            time.sleep(rng.uniform(0, 0.01))
        sig = rng.choice(SIGNALS)
        run.proc.send_signal(sig)
        code, err = run.finish()
        assert "Traceback" not in err, err
        if code == 0:  # it finished before the kill
            break
        assert code == -sig, (code, err)
        announced = re.search(r"^autosave: (.+)$", err, re.M)
        assert announced or run.acked == (0, -1), err
        if not announced:
            continue
        path = Path(announced[1])
        assert not list(folder.glob("*.damaged"))
        session = saves.load(path)  # never damaged by a kill: raises if it were
        stage, saved = len(session.tour.done) + 1, len(session.game.actions)
        # every action reported saved is on disk; at most the one in flight is lost
        assert (stage, saved) >= run.acked, ((stage, saved), run.acked)
        if stage == run.acked[0]:
            assert saved <= run.acked[1] + 1
        logs = logs_of(session)
        assert logs[:-1] == expected_logs[: stage - 1]
        assert logs[-1] == expected_logs[stage - 1][:saved]
        points.append((run.acked, stage, saved))
    else:
        raise AssertionError("the tour never ended")
    final = saves.load(Path(re.search(r"^autosave: (.+)$", err, re.M)[1]))
    assert tours.tour_over(final)
    assert logs_of(final) == expected_logs
    after = tours.standing(final)
    assert after.results() == expected.results()
    assert after.gc() == expected.gc() and after.ranking() == expected.ranking()
    # kills landed in every stage, mid-stage (not only between stages)
    assert {stage for _, stage, _ in points} == {1, 2, 3}, points
    assert any(saved > 0 for _, stage, saved in points if stage > 1), points
    assert any(saved == len(expected_logs[stage - 1]) for _, stage, saved in points), points
    print("kills (acked, stage, saved):", points)
