"""Kill tests for tours: a tour killed at any moment resumes to the same tour.

A seeded headless tour runs in a subprocess that autosaves after every
action (`flamme-tui tour --autosave DIR --trace --slow MS`, which reports
`saved STAGE ACTIONS`).  We kill it (SIGKILL mostly, SIGTERM and SIGHUP
too) at random moments, mid-stage and between stages, check that the file
on disk is whole and holds every action reported saved, go on from it in a
new process (`flamme-tui tour --from FILE`, a new file each time), and so on
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


class Run:
    def __init__(self, args: list[str], env: dict) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "flamme_tui", "tour", *args],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True)
        self.acked = (0, -1)  # (stage, actions) of the last report of a save
        self.started = threading.Event()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            if line.startswith("saved "):
                _, stage, actions = line.split()
                self.acked = (int(stage), int(actions))
                self.started.set()
        self.started.set()

    def finish(self) -> tuple[int, str]:
        self.proc.wait(timeout=60)
        self.reader.join(10)
        err = self.proc.stderr.read()
        self.proc.stdout.close()
        self.proc.stderr.close()
        return self.proc.returncode, err


def test_a_killed_tour_resumes_to_the_same_tour(tmp_path):
    expected = uninterrupted()
    expected_logs = [[str(a) for a in d.game.actions] for d in expected.done]
    env = dict(os.environ, FLAMME_TUI_DATA_DIR=str(tmp_path / "data"), PYTHONDONTWRITEBYTECODE="1")
    folder = tmp_path / "saves"
    first = ["--stages", STAGES, "--seed", str(SEED), "--autosave", str(folder), "--trace", "--slow", "1"]
    rng = random.Random("tour-kill")
    # where to kill: a few points in every stage (whatever the machine's speed), each
    # a little after an action reported saved, so some land in the middle of a write
    targets = sorted([(k + 1, rng.randrange(len(log))) for k, log in enumerate(expected_logs) for _ in range(4)]
                     # and right after a stage's last action: the file holds a finished stage, the next not begun
                     + [(k + 1, len(log)) for k, log in enumerate(expected_logs[:-1])])
    points: list[tuple[tuple[int, int], int, int]] = []  # (acked, stage on disk, actions on disk)
    path: Path | None = None
    for _launch in range(200):
        run = Run(first if path is None else ["--from", str(path), "--autosave", str(folder), "--trace",
                                              "--slow", "1"], env)
        run.started.wait(30)
        if not targets:
            code, err = run.finish()
            assert code == 0, err
            break
        target = targets.pop(0)
        deadline = time.monotonic() + 120
        while run.acked < target and run.proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.001)
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
