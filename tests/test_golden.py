"""Golden playthroughs: the full output of `flamme-tui race` for a few seeded
races, kept as text files in tests/golden/.  A rule (or log wording) change
shows up here as a reviewable diff.

File names: tests/golden/<variant>-<stage or circuit>-seed<N>[-extra].txt

To regenerate after an intended change, then review `git diff tests/golden`:

    UPDATE_GOLDEN=1 python -m pytest tests/test_golden.py

(equivalently, for one file: `flamme-tui race <args> > tests/golden/<name>.txt`.)
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path

import pytest

from flamme_tui.cli import main

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"

RACES = {
    # file name (without .txt) -> arguments after `flamme-tui race`
    "classic-la-haut-montagne-seed7": ["--stage", "la-haut-montagne", "--seed", "7"],
    "classic-avenue-corso-paseo-seed1": ["--seed", "1", "--teams", "2"],
    "meteo-le-col-du-ballon-seed14": ["--variant", "meteo", "--stage", "le-col-du-ballon", "--seed", "14"],
    "meteo-firenze-milano-seed12": ["--variant", "meteo", "--stage", "firenze-milano", "--seed", "12",
                                    "--teams", "3"],
    "bmx-ABCD-seed3": ["--variant", "bmx", "--seed", "3"],
    "bmx-aBcD-seed5-ramp": ["--variant", "bmx", "--circuit", "aBcD", "--seed", "5", "--ramp", "9:4",
                            "--teams", "3"],
}


def race_output(args, capsys) -> str:
    assert main(["race", *args]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    return captured.out


@pytest.mark.parametrize("name", list(RACES))
def test_golden_playthrough(name, capsys):
    path = GOLDEN / f"{name}.txt"
    out = race_output(RACES[name], capsys)
    if UPDATE:
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(out, encoding="utf-8")
        pytest.skip(f"wrote {path.name}")
    assert path.is_file(), f"{path} is missing: run UPDATE_GOLDEN=1 python -m pytest {__file__}"
    want = path.read_text(encoding="utf-8")
    if out != want:
        diff = "".join(difflib.unified_diff(want.splitlines(True), out.splitlines(True),
                                            f"golden/{path.name}", "now", n=2))
        pytest.fail(f"{name} changed (UPDATE_GOLDEN=1 to accept after review):\n{diff[:6000]}")


def test_no_stray_golden_files():
    names = {p.stem for p in GOLDEN.glob("*.txt")}
    assert names <= set(RACES), f"golden files without a race: {sorted(names - set(RACES))}"


def test_golden_files_end_with_a_ranking():
    for name in RACES:
        path = GOLDEN / f"{name}.txt"
        if not path.is_file():
            continue
        lines = path.read_text(encoding="utf-8").splitlines()
        assert "Final ranking" in lines
        assert any("wins the race!" in line for line in lines)
