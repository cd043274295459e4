"""The headless commands: race, bench, conformance; clean failures (exit 2,
one line, no traceback) on bad input; and the layering rule that the core
never imports Textual."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from flamme_tui.cli import main

HERE = Path(__file__).parent
CASES = HERE / "conformance"
SHARED = sorted(CASES.glob("shared-*.yaml"))
# the shared conformance cases live beside the repository (../shared), on every
# machine that has them, CI included: cases/ and next/ (the Peloton cases)
SHARED_ROOT = HERE.resolve().parent.parent / "shared" / "conformance"
SHARED_SOURCES = [SHARED_ROOT / "cases", SHARED_ROOT / "next"]
SUMMARY = re.compile(r"^(\d+) passed, (\d+) failed$")


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "flamme_tui", *args], capture_output=True, text=True,
                          timeout=120, cwd=cwd)


def no_traceback(proc) -> None:
    assert "Traceback" not in proc.stdout + proc.stderr


def case_count(paths) -> int:
    return sum(len(yaml.safe_load(p.read_text())["cases"]) for p in paths)


# ----------------------------------------------------------------------- race


def test_race_is_deterministic_and_ends_with_a_ranking():
    a = run("race", "--seed", "7", "--stage", "la-haut-montagne")
    b = run("race", "--seed", "7", "--stage", "la-haut-montagne")
    assert a.returncode == 0, a.stderr
    no_traceback(a)
    assert a.stdout == b.stdout
    lines = a.stdout.splitlines()
    assert lines[0].startswith("La Haut Montagne · classic, seed 7, 4 teams")
    cut = lines.index("Final ranking")
    ranking = lines[cut + 1:]
    assert len(ranking) == 8
    assert [int(line.split(".")[0]) for line in ranking] == list(range(1, 9))
    assert any("wins the race!" in line for line in lines[:cut])
    assert re.search(r"^Round 1$", a.stdout, re.M)
    c = run("race", "--seed", "8", "--stage", "la-haut-montagne")
    assert c.stdout != a.stdout  # the seed matters


@pytest.mark.parametrize(
    "args, riders",
    [
        (["--variant", "meteo", "--seed", "3"], 8),
        (["--variant", "meteo", "--seed", "4", "--stage", "le-col-du-ballon", "--teams", "2"], 4),
        (["--variant", "bmx", "--seed", "3"], 4),
        (["--variant", "bmx", "--seed", "5", "--circuit", "abcd", "--teams", "3", "--ramp", "10:3",
          "--young", "1:2", "--forecast"], 3),
    ],
)
def test_race_variants(capsys, args, riders):
    assert main(["race", *args]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    ranking = lines[lines.index("Final ranking") + 1:]
    assert len(ranking) == riders
    variant = args[1]
    assert f" · {variant}, seed " in lines[0]
    if variant == "bmx":
        assert "  die: " in out
    main(["race", *args])
    assert capsys.readouterr().out == out


def test_bench_prints_cpu_time_per_race(capsys):
    # no race option: classic, meteo and bmx in turn, each with its CPU time per race
    assert main(["bench", "-n", "20"]) == 0
    lines = capsys.readouterr().out.splitlines()
    # then the peer engine of issue 29 (the flamme-rouge package), where it is installed
    peer = importlib.util.find_spec("flamme_rouge") is not None
    assert len(lines) == 3 + peer
    if peer:
        assert re.fullmatch(r"peer engine \(flamme-rouge [\w.]+, 4 Simple teams on Avenue Corso Paseo\): [\d.]+ ms CPU "
                            r"per race; classic here runs \d+ times its races per CPU second \(5 measures in turn: \d+-\d+\)",
                            lines[3]), lines[3]
    for line, variant in zip(lines, ("classic", "meteo", "bmx")):
        assert re.fullmatch(rf"20 {variant} races of 4 teams on .*: [\d.]+ ms CPU per race \(\d+ per CPU second\); "
                            r"[\d.]+ s, \d+ races/s by the clock; [\d.]+ rounds per race "
                            r"\((compiled|pure Python) engine\)", line), line
    # a race option: that race alone
    assert main(["bench", "-n", "5", "--variant", "bmx", "--teams", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 1 and out[0].startswith("5 bmx races of 2 teams") and "ms CPU per race" in out[0]
    assert main(["bench", "-n", "2", "--teams", "3"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 1 and out[0].startswith("2 classic races of 3 teams")


# ---------------------------------------------------------------- conformance


def test_conformance_shared_cases_pass():
    assert SHARED, "tests/conformance/shared-*.yaml are missing"
    proc = run("conformance", *map(str, SHARED))
    assert proc.returncode == 0, proc.stdout
    no_traceback(proc)
    lines = proc.stdout.splitlines()
    assert SUMMARY.match(lines[-1]).groups() == (str(case_count(SHARED)), "0")
    assert all(line.startswith("PASS ") for line in lines[:-1])


def test_conformance_whole_folder_passes(capsys):
    assert main(["conformance", str(CASES)]) == 0
    lines = capsys.readouterr().out.splitlines()
    files = sorted(CASES.rglob("*.yaml"))
    assert lines[-1] == f"{case_count(files)} passed, 0 failed"


@pytest.mark.skipif(not SHARED_ROOT.is_dir(), reason=f"no shared conformance folder at {SHARED_ROOT}")
def test_shared_copies_are_up_to_date():
    sources = [path for folder in SHARED_SOURCES for path in sorted(folder.glob("*.yaml"))]
    assert len(sources) >= 4  # classic, meteo, bmx, peloton
    for source in sources:
        copy = CASES / f"shared-{source.name}"
        assert copy.is_file(), f"{copy.name} missing"
        assert copy.read_text() == source.read_text(), f"{copy.name} differs from {source}"
    # and no copy is left of a shared file that is gone
    assert sorted(p.name for p in SHARED) == sorted(f"shared-{p.name}" for p in sources)


def test_the_shared_cases_pass_where_they_are():
    """`flamme-tui conformance ../shared/conformance/cases ../shared/conformance/next`."""
    folders = [str(f) for f in SHARED_SOURCES if f.is_dir()]
    if not folders:
        pytest.skip(f"no shared conformance folder at {SHARED_ROOT}")
    proc = run("conformance", *folders)
    assert proc.returncode == 0, proc.stdout
    assert SUMMARY.match(proc.stdout.splitlines()[-1]).group(2) == "0"


GOOD_CASE = """\
cases:
  - name: a two-square gap gives no slipstream
    variant: classic
    track: {squares: "....................", finish: 18}
    riders:
      - {id: red.S, square: 0, lane: 0}
      - {id: blue.R, square: 2, lane: 0}
    play: {red.S: 3, blue.R: 4}
    expect:
      order: [blue.R, red.S]
      final: {blue.R: [6, 0], red.S: [3, 0]}
      exhausted: {blue.R: 1, red.S: 1}
      winner: null
"""


def test_conformance_wrong_case_fails_with_exit_1(tmp_path, capsys):
    good = tmp_path / "good.yaml"
    good.write_text(GOOD_CASE)
    assert main(["conformance", str(good)]) == 0
    assert capsys.readouterr().out.splitlines() == ["PASS a two-square gap gives no slipstream", "1 passed, 0 failed"]
    wrong = tmp_path / "wrong.yaml"
    wrong.write_text(GOOD_CASE.replace("red.S: [3, 0]", "red.S: [4, 0]").replace("blue.R: 1, red.S: 1", "blue.R: 1"))
    assert main(["conformance", str(good), str(wrong)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("PASS ")
    assert lines[1].startswith("FAIL a two-square gap gives no slipstream: ")
    assert "final red.S: expected [4, 0], got [3, 0]" in lines[1]
    assert "exhausted red.S: expected 0, got 1" in lines[1]
    assert lines[-1] == "1 passed, 1 failed"


BMX_CASE = """\
cases:
  - name: bmx two riders
    variant: bmx
    track: {squares: "................................", finish: 30}
    riders:
      - {id: red, square: 5, lane: 0}
      - {id: green, square: 4, lane: 0}
    play: {red: 3, green: 2}
    die: none
    expect:
      winner: null
"""


BROKEN_CASES = [
    # (id, change to GOOD_CASE, words the one line must hold)
    ("malformed-yaml", lambda t: t.replace("finish: 18}", "finish: 18"), ["invalid YAML"]),
    ("missing-key", lambda t: t.replace("    variant: classic\n", ""), ['case "a two-square gap', "variant"]),
    ("wrong-type", lambda t: t.replace("finish: 18", "finish: eighteen"), ['case "a two-square gap', "track.finish"]),
    ("unknown-key", lambda t: t.replace("finish: 18}", "finish: 18, colour: red}"),
     ['case "a two-square gap', "track.colour"]),
    ("unknown-expect-key", lambda t: t.replace("winner: null", "champion: null"),
     ['case "a two-square gap', "expect.champion"]),
    ("bad-lane", lambda t: t.replace("square: 2, lane: 0", "square: 2, lane: 3"),
     ['case "a two-square gap', "riders.1.lane"]),
    ("no-such-lane", lambda t: t.replace("square: 2, lane: 0", "square: 2, lane: 2"),
     ['case "a two-square gap', "blue.R stands in lane 2 of square 2, which has 2 lanes"]),
    ("lanes-too-short", lambda t: t.replace('finish: 18}', 'lanes: "2223", finish: 18}'),
     ['case "a two-square gap', "track.lanes: one digit per square"]),
    # FORMAT.md names six colours (issue 23): grey is none of them
    ("unknown-colour", lambda t: t.replace("red.S", "grey.S"),
     ['case "a two-square gap', "riders: 'grey.S': unknown colour (use red, blue, green, black, white, pink)"]),
    ("unknown-bmx-colour", lambda t: BMX_CASE.replace("green", "grey"),
     ['case "bmx two riders', "riders: 'grey': unknown colour"]),
    # every square a case names is bounded (the course is built that long): a hang or a MemoryError before
    ("square-too-far", lambda t: t.replace("square: 2, lane: 0", "square: 100000000, lane: 0"),
     ['case "a two-square gap', "riders.1.square", "less than 1000"]),
    ("finish-too-far", lambda t: t.replace("finish: 18", "finish: 1000000000000"),
     ['case "a two-square gap', "track.finish", "less than 1000"]),
    ("weather-too-far", lambda t: t.replace("finish: 18}", "finish: 18, weather: [{kind: wet, from: 0, to: 100000000}]}"),
     ['case "a two-square gap', "track.weather.0.to", "less than 1000"]),
    ("weather-backwards", lambda t: t.replace("finish: 18}", "finish: 18, weather: [{kind: wet, from: 5, to: 3}]}"),
     ['case "a two-square gap', "track.weather.0: to 3 comes before from 5"]),
    ("single-lane-too-far", lambda t: BMX_CASE.replace("finish: 30}", "finish: 30, single_lane: [100000000000]}"),
     ['case "bmx two riders', "track.single_lane.0", "less than 1000"]),
    ("not-a-list", lambda t: "cases: 5\n", ["cases"]),
    ("empty", lambda t: "", ["cases: expected a mapping with a list of cases"]),
    ("a-list", lambda t: "- 1\n", ["cases: expected a mapping with a list of cases"]),
]


@pytest.mark.parametrize("change, words", [b[1:] for b in BROKEN_CASES], ids=[b[0] for b in BROKEN_CASES])
def test_conformance_broken_file_exit_2_one_clear_line(tmp_path, capsys, change, words):
    broken = tmp_path / "broken.yaml"
    broken.write_text(change(GOOD_CASE))
    good = tmp_path / "good.yaml"
    good.write_text(GOOD_CASE)
    assert main(["conformance", str(broken), str(good)]) == 2
    out = capsys.readouterr()
    lines = out.out.splitlines()
    errors = [line for line in lines if "broken.yaml" in line]
    assert len(errors) == 1
    for word in words:
        assert word in errors[0]
    assert "Traceback" not in out.out + out.err
    assert lines[-1] == "1 passed, 0 failed"  # the good file still ran


def test_conformance_broken_file_in_a_real_process(tmp_path):
    broken = tmp_path / "broken.yaml"
    broken.write_text(GOOD_CASE.replace("finish: 18", "finish: [18]"))
    proc = run("conformance", str(broken))
    assert proc.returncode == 2
    no_traceback(proc)
    assert proc.stdout.splitlines()[-1] == "0 passed, 0 failed"
    (error,) = [line for line in proc.stdout.splitlines() if "broken.yaml" in line]
    assert 'case "a two-square gap gives no slipstream"' in error and "track.finish" in error


def test_conformance_no_files_is_exit_2(tmp_path, capsys):
    assert main(["conformance", str(tmp_path)]) == 2
    assert "no case files" in capsys.readouterr().out


def test_conformance_rider_far_past_the_track_is_flat_road(tmp_path):
    # FORMAT.md: squares past the end of the string are flat two-lane squares, however far
    far = tmp_path / "far.yaml"
    far.write_text(GOOD_CASE.replace("{id: blue.R, square: 2, lane: 0}", "{id: blue.R, square: 500, lane: 0}"))
    proc = run("conformance", str(far))
    no_traceback(proc)
    assert proc.returncode == 1  # runs; the expectations written for square 2 no longer hold
    assert "FAIL" in proc.stdout


def test_conformance_unknown_terrain_letter_is_a_clean_error(tmp_path, capsys):
    broken = tmp_path / "terrain.yaml"
    broken.write_text(GOOD_CASE.replace('"...................."', '"..x................."'))
    assert main(["conformance", str(broken)]) == 2
    assert "track.squares" in capsys.readouterr().out


# ------------------------------------------------------------ broken stage files


BROKEN_STAGES = [
    ("unknown-letter", "name: X\ntiles: abcz\n", "tiles"),
    ("missing-key", "name: X\n", "tiles"),
    ("wrong-type", "name: X\ntiles: 123\n", "tiles"),
    ("unknown-key", "name: X\ntiles: abcdefghijklmnopqrstu\nlength: 78\n", "length"),
    ("malformed-yaml", "name: X\ntiles: [abc\n", None),
]


@pytest.mark.parametrize("text, field", [b[1:] for b in BROKEN_STAGES], ids=[b[0] for b in BROKEN_STAGES])
def test_race_with_a_broken_stage_file(tmp_path, capsys, text, field):
    path = tmp_path / "my-stage.yaml"
    path.write_text(text)
    assert main(["race", "--stage", str(path)]) == 2
    out = capsys.readouterr()
    assert out.out == ""
    lines = out.err.splitlines()
    assert len(lines) == 1
    assert "my-stage.yaml" in lines[0]
    if field:
        assert f": {field}: " in lines[0]
    else:
        assert "YAML" in lines[0]


def test_race_with_a_broken_stage_file_in_a_real_process(tmp_path):
    path = tmp_path / "my-stage.yaml"
    path.write_text("name: X\ntiles: abcz\n")
    proc = run("race", "--stage", str(path))
    assert proc.returncode == 2
    no_traceback(proc)
    assert proc.stdout == ""
    (line,) = proc.stderr.splitlines()
    assert "my-stage.yaml:2: tiles: unknown tile letter 'z'" in line


def test_race_with_a_missing_stage(capsys):
    assert main(["race", "--stage", "no-such-stage"]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "no-such-stage" in err


@pytest.mark.parametrize(
    "args",
    [["--bogus"], ["race", "--bogus"], ["race", "--variant", "tandem"], ["race", "--seed", "x"],
     ["race", "--teams", "7"], ["frobnicate"], ["bench", "-n"], ["host", "--bogus"], ["host", "--port", "x"],
     ["join"], ["join", "127.0.0.1:8765", "K7QM", "extra"]],
)
def test_bad_command_line_exit_2_without_traceback(capsys, args):
    with pytest.raises(SystemExit) as exc:
        main(args)
    assert exc.value.code == 2
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err
    (line,) = out.err.splitlines()  # one line: the problem, then where to read more
    assert line.startswith("flamme-tui") and line.endswith("--help)")


def test_bad_command_line_in_a_real_process():
    proc = run("race", "--bogus")
    assert proc.returncode == 2
    no_traceback(proc)
    assert "unrecognized arguments: --bogus" in proc.stderr


# ------------------------------------------------------------------- layering


CORE = [
    "flamme_tui.engine.course",
    "flamme_tui.config",
    "flamme_tui.play.races",
    "flamme_tui.conformance",
]


def test_core_never_imports_textual():
    code = (
        "import importlib, pkgutil, sys\n"
        "import flamme_tui.engine, flamme_tui.bots\n"
        f"mods = {CORE!r}\n"
        "for pkg in (flamme_tui.engine, flamme_tui.bots):\n"
        "    mods += [pkg.__name__ + '.' + m.name for m in pkgutil.iter_modules(pkg.__path__)]\n"
        "for m in mods:\n"
        "    importlib.import_module(m)\n"
        "bad = sorted(m for m in sys.modules if m == 'textual' or m.startswith('textual.'))\n"
        "print(len(mods))\n"
        "assert not bad, bad[:5]\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert int(proc.stdout) >= len(CORE) + 8  # engine and bots modules were really imported


def test_young_children_tokens_for_several_seats_and_a_seat_given_twice_refused(capsys):
    from flamme_tui.cli import _spec, build_parser

    args = build_parser().parse_args(["race", "--variant", "bmx", "--teams", "3", "--young", "1:2", "--young", "3:1"])
    assert _spec(args).young == (2, 0, 1)
    assert main(["race", "--variant", "bmx", "--teams", "3", "--young", "1:2", "--young", "1:3"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--young" in err[0] and "seat 1 is given twice" in err[0]


def test_every_option_of_every_command_says_what_it_does():
    """`--help` explains each option (--variant had none: a player saw `--variant {classic,meteo,bmx}` alone)."""
    import argparse

    from flamme_tui.cli import build_parser

    silent = []

    def walk(parser: argparse.ArgumentParser, name: str) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for command, sub in action.choices.items():
                    walk(sub, f"{name} {command}")
            elif not action.help:
                silent.append(f"{name} {'/'.join(action.option_strings) or action.dest}")

    walk(build_parser(), "flamme-tui")
    assert silent == []


@pytest.mark.parametrize("lang", ["fr", "es"])
def test_the_help_names_the_values_it_asks_for_in_the_language(lang):
    """`--seed GRAINE`, not `--seed SEED`: the usage of every command names its values in the player's words."""
    import argparse

    from flamme_tui.cli import build_parser
    from flamme_tui.i18n import speaking

    usages = []

    def walk(parser: argparse.ArgumentParser) -> None:
        usages.append(parser.format_usage())
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for sub in action.choices.values():
                    walk(sub)

    with speaking(lang):
        walk(build_parser())
    named = set(re.findall(r"\b[A-Z][A-Z]+\b", " ".join(usages)))
    english = {"ADDRESS", "CIRCUIT" if lang == "es" else "", "DIR", "FILE", "LANG", "LESSON", "PATH", "SEAT", "SECONDS",
               "SEED", "STAGE", "SQUARE", "NUMBER", "TOKENS", "WHO", "COLUMN", "BOX"} - {""}
    assert len(usages) >= 20 and named & english == set(), named & english
