"""Kill tests: no lost races.

A seeded headless race runs in a subprocess that autosaves after every
action (`flamme-tui race --autosave DIR --trace --slow MS`).  We kill it
(SIGKILL mostly, SIGTERM and SIGHUP too) at random moments, check that the
save on disk is whole and holds every action the process had reported as
saved (at most the pick being made is lost), resume it in a new process
(`flamme-tui race --from FILE`, which goes on in a new race file), kill again, and so on until the race ends.
The finished race must equal the uninterrupted race with the same seed:
same action log, positions and winner.
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
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from flamme_tui import saves
from flamme_tui.play.races import RaceSpec
from flamme_tui.play.session import Session

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")

KILLS_PER_VARIANT = 18  # 54 kill points in all
SLOW_MS = {"classic": 1, "meteo": 1, "bmx": 12}  # bmx races are short: slow them to get kills in
SIGNALS = [signal.SIGKILL] * 6 + [signal.SIGTERM, signal.SIGHUP]


def uninterrupted(variant: str, seed: int) -> Session:
    session = Session.new(RaceSpec(variant=variant), seed, {s: "easy" for s in range(4)})
    while not session.over:
        session.play_bots()
    return session


class Run:
    """One launch of the headless race, reading its 'saved N' reports."""

    def __init__(self, args: list[str], env: dict) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "flamme_tui", "race", *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            text=True,
        )
        self.acked = -1  # the last action count the process reported as saved
        self.started = threading.Event()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            if line.startswith("saved "):
                self.acked = int(line.split()[1])
                self.started.set()
        self.started.set()

    def finish(self) -> tuple[int, str]:
        self.proc.wait(timeout=30)
        self.reader.join(10)  # every report read, up to the end of the output
        err = self.proc.stderr.read()
        self.proc.stdout.close()
        self.proc.stderr.close()
        return self.proc.returncode, err


def chain(variant: str, seed: int, kills_wanted: int, rng: random.Random, workdir: Path) -> dict:
    """Race `variant`/`seed` with kills until it ends; returns what happened."""
    env = dict(os.environ, FLAMME_TUI_DATA_DIR=str(workdir / "data"), PYTHONDONTWRITEBYTECODE="1")
    folder = workdir / f"{variant}-{seed}"
    args = ["--variant", variant, "--seed", str(seed), "--autosave", str(folder),
            "--trace", "--slow", str(SLOW_MS[variant])]
    expected = uninterrupted(variant, seed)
    expected_log = expected.actions_text()
    points: list[tuple[int, int, str]] = []  # (acked, saved, signal) per kill
    path: Path | None = None
    launches = 0
    while True:
        launches += 1
        assert launches < 200
        run = Run(args if path is None else ["--from", str(path), "--trace", "--slow", str(SLOW_MS[variant])], env)
        run.started.wait(20)
        if len(points) < kills_wanted:
            # short delays land in the middle of a write, longer ones anywhere in the race
            delay = rng.uniform(0, 0.02) if rng.random() < 0.3 else rng.uniform(0.02, 0.5)
            time.sleep(delay)
            sig = rng.choice(SIGNALS)
            run.proc.send_signal(sig)
            code, err = run.finish()
            assert "Traceback" not in err, err
            if code == 0:  # it won the race against the kill
                break
            assert code == -sig, (code, err)
        else:
            code, err = run.finish()
            assert code == 0, err
            break
        # each launch writes the race file it announced: a new one for every --from
        announced = re.search(r"^autosave: (.+)$", err, re.M)
        assert announced or run.acked == -1, err
        if announced:
            path = Path(announced[1])
        assert not list(folder.glob("*.damaged"))
        for file in folder.glob("*.json"):
            saves.load(file)  # never damaged by a kill: raises if it were
        session = saves.load(path)
        saved = len(session.game.actions)
        # every action reported saved is on disk; at most the one in flight is lost
        assert saved >= run.acked, (saved, run.acked)
        assert saved <= run.acked + 1, (saved, run.acked)
        assert session.actions_text() == expected_log[:saved]
        points.append((run.acked, saved, signal.Signals(sig).name))
    announced = re.search(r"^autosave: (.+)$", err, re.M)
    final = saves.load(Path(announced[1]) if announced else path)
    assert final.over
    assert final.actions_text() == expected_log
    assert final.game.pos == expected.game.pos
    assert final.game.winner == expected.game.winner
    assert saves.state_digest(final.game) == saves.state_digest(expected.game)
    return {"variant": variant, "seed": seed, "points": points, "launches": launches, "actions": len(expected_log)}


def kills_for(variant: str, workdir: Path) -> list[dict]:
    rng = random.Random(f"kill-{variant}")
    results, total, seed = [], 0, 100
    while total < KILLS_PER_VARIANT:
        result = chain(variant, seed, min(8, KILLS_PER_VARIANT - total), rng, workdir)
        total += len(result["points"])
        results.append(result)
        seed += 1
    return results


@pytest.mark.slow  # the long run: only with --slow (the README's test command, first) or -m slow
def test_killed_races_resume_to_the_same_result(tmp_path):
    with ThreadPoolExecutor(3) as pool:
        futures = {v: pool.submit(kills_for, v, tmp_path) for v in ("classic", "meteo", "bmx")}
        results = {v: f.result() for v, f in futures.items()}
    points = [p for rs in results.values() for r in rs for p in r["points"]]
    assert len(points) >= 50
    # kills landed all over the race, not only at its start
    for variant, rs in results.items():
        fractions = [saved / r["actions"] for r in rs for _, saved, _ in r["points"]]
        assert max(fractions) > 0.5, (variant, fractions)
    # a report for `pytest -s`
    for variant, rs in results.items():
        for r in rs:
            print(variant, r["seed"], f"{r['actions']} actions,", f"{r['launches']} launches, kills (acked, saved):",
                  [(a, s, sig[3:]) for a, s, sig in r["points"]])


def test_uninterrupted_subprocess_equals_in_process(tmp_path):
    """The baseline: the subprocess race is the in-process race."""
    env = dict(os.environ, FLAMME_TUI_DATA_DIR=str(tmp_path / "data"))
    for variant, seed in (("classic", 100), ("bmx", 100)):
        folder = tmp_path / variant
        out = subprocess.run(
            [sys.executable, "-m", "flamme_tui", "race", "--variant", variant, "--seed", str(seed),
             "--autosave", str(folder)],
            capture_output=True, text=True, env=env, timeout=60,
        )
        assert out.returncode == 0, out.stderr
        final = saves.load(next(folder.glob("*.json")))
        assert final.actions_text() == uninterrupted(variant, seed).actions_text()
