"""Every rules case in tests/conformance/ as its own test (the runner's engine path)."""

from __future__ import annotations

from pathlib import Path

import pytest

from flamme_tui.conformance import load_cases, run_case

FOLDER = Path(__file__).parent / "conformance"
CASES = [(path.name, case) for path in sorted(FOLDER.glob("*.yaml")) for case in load_cases(path)]


@pytest.mark.parametrize(("file", "case"), CASES, ids=[f"{f}:{c.name[:60]}" for f, c in CASES])
def test_case(file, case):
    assert run_case(case) == []


def test_enough_cases_of_our_own():
    own = {v: sum(1 for f, c in CASES if c.variant == v and not f.startswith("shared-")) for v in ("classic", "meteo", "bmx")}
    shared_classic = sum(1 for f, c in CASES if c.variant == "classic" and f.startswith("shared-"))
    assert own["classic"] + shared_classic >= 40
    assert own["meteo"] >= 25
    assert own["bmx"] >= 30


def test_enough_peloton_cases_of_our_own():
    """PELOTON.md's rules: at least 40 own cases (three lanes, supply zones,
    cobbles, six colours, lone riders, meteo on the new squares)."""
    own = [c for f, c in CASES if f == "peloton-rules.yaml"]
    assert len(own) >= 40
    assert sum(1 for f, _ in CASES if f == "shared-peloton.yaml") >= 14
    # each kind of square is exercised
    squares = "".join(c.track.squares for c in own)
    lanes = "".join(c.track.lanes or "" for c in own)
    assert {"c", "s"} <= set(squares) and {"1", "3"} <= set(lanes)
    assert {"white", "pink"} <= {r.id.split(".")[0] for c in own for r in c.riders}
