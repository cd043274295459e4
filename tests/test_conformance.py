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
