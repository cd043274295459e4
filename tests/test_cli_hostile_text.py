"""Command output with hostile text from files and users: no control
character (an OSC retitling the terminal, a bidi override) ever reaches
stdout or stderr; markup-like names are printed as they are."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import fuzzing
import pytest

from flamme_tui import saves, usertext
from flamme_tui.engine.classic import Team
from flamme_tui.play.races import RaceSpec
from flamme_tui.play.session import Session

pytestmark = pytest.mark.fuzz
ESC_TITLE = "\x1b]0;pwned\x07"
MARKUP = "[@click=app.quit]Col [/] [Dad] Tom"


def run(*args: str, env=None) -> subprocess.CompletedProcess:
    fuzzing.count("user text")
    return subprocess.run([sys.executable, "-m", "flamme_tui", *args], capture_output=True, text=True,
                          timeout=120, env=env)


def assert_clean(proc) -> None:
    for stream in (proc.stdout, proc.stderr):
        bad = sorted({f"U+{ord(c):04X}" for c in usertext.CONTROL.findall(stream) if c not in "\n"})
        assert not bad, f"{bad} in {stream!r}"
    assert "Traceback" not in proc.stdout + proc.stderr


@pytest.fixture
def env(tmp_path):
    return {**os.environ, "FLAMME_TUI_DATA_DIR": str(tmp_path / "data")}


def stage_file(folder, name, file="hostile.yaml", description=""):
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / file
    path.write_text(json.dumps({"name": name, "tiles": "abcdefghijklmnopqrstu", "description": description}))
    return path


def test_stages_list_and_check_with_hostile_names_and_file_names(tmp_path, env):
    users = tmp_path / "data" / "stages"
    stage_file(users, MARKUP, file="markup.yaml")
    stage_file(users, f"Col{ESC_TITLE}", file="osc-name.yaml")
    stage_file(users, "Col", file="osc-description.yaml", description=f"x{ESC_TITLE}")
    stage_file(users, "Fine", file=f"file{ESC_TITLE}\u202e.yaml")
    listing = run("stages", "list", env=env)
    assert listing.returncode == 0
    assert_clean(listing)
    assert MARKUP in listing.stdout
    assert "osc-name.yaml:1: name: control character U+001B is not allowed" in listing.stdout
    assert "file\\x1b]0;pwned\\x07\\u202e" in listing.stdout  # the id from the file name, written out
    check = run("stages", "check", str(users), env=env)
    assert check.returncode == 2
    assert_clean(check)
    assert f"ok: {MARKUP}," in check.stdout
    assert "description: control character U+001B is not allowed" in check.stdout


def test_race_with_a_hostile_stage_file(tmp_path, env):
    good = stage_file(tmp_path, MARKUP, file="markup.yaml")
    race = run("race", "--stage", str(good), "--seed", "3", env=env)
    assert race.returncode == 0, race.stderr
    assert_clean(race)
    assert race.stdout.startswith(f"{MARKUP} · classic, seed 3")
    bad = stage_file(tmp_path / f"dir{ESC_TITLE}", f"Col{ESC_TITLE}")
    race = run("race", "--stage", str(bad), env=env)
    assert race.returncode == 2
    assert_clean(race)
    assert "name: control character U+001B is not allowed" in race.stderr
    assert len(race.stderr.splitlines()) == 1


def save_of(path, names, stage="avenue-corso-paseo", actions=30):
    teams = tuple(Team(n, c) for n, c in zip(names, ("red", "blue")))
    session = Session.new(RaceSpec(stage=stage, teams=teams), 5, {0: "easy", 1: "easy"})
    from flamme_tui.bots import POLICIES

    for _ in range(actions):
        seat = next(s for s in range(2) if session.game.needs(s))
        session.apply(POLICIES["easy"](session.game.view(seat)))
    return saves.save(session, path)


def test_replay_text_and_race_from_with_markup_names(tmp_path, env, monkeypatch):
    stage_file(tmp_path / "data" / "stages", MARKUP)
    monkeypatch.setenv("FLAMME_TUI_DATA_DIR", env["FLAMME_TUI_DATA_DIR"])
    path = save_of(tmp_path / "race.json", ["[Dad] Tom", "[/]"], stage="hostile")
    replay = run("replay", "--text", str(path), env=env)
    assert replay.returncode == 0, replay.stderr
    assert_clean(replay)
    assert MARKUP in replay.stdout and "[Dad] Tom" in replay.stdout
    finish = run("race", "--from", str(path), "--autosave", str(tmp_path / "out"), env=env)
    assert finish.returncode == 0, finish.stderr
    assert_clean(finish)
    assert f"resumed {MARKUP} · classic" in finish.stdout


@pytest.mark.parametrize("where", ["team", "course", "path"])
def test_replay_text_and_race_from_with_control_characters(tmp_path, env, where):
    name = f"Tom{ESC_TITLE}" if where == "team" else "Tom"
    folder = tmp_path / (f"d{ESC_TITLE}\u202e" if where == "path" else "d")
    folder.mkdir()
    path = save_of(folder / "race.json", [name, "Bob"])
    if where == "course":
        doc = json.loads(path.read_text())
        doc["setup"]["course"]["name"] += ESC_TITLE
        doc["checksum"] = saves._checksum(doc)
        path.write_text(json.dumps(doc))
    if where == "path":
        path.write_text("{}")  # not a save: the error line names the path
    for args in (("replay", "--text", str(path)), ("race", "--from", str(path), "--autosave", str(tmp_path / "o"))):
        proc = run(*args, env=env)
        assert proc.returncode == 2
        assert_clean(proc)
        assert len(proc.stderr.splitlines()) == 1
        assert ("control character U+001B" if where != "path" else "\\x1b]0;pwned\\x07\\u202e") in proc.stderr


# --------------------------------------------------------------------- tours


def tour_file(folder, name, file, stages=("avenue-corso-paseo",), description=""):
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / file
    path.write_text(json.dumps({"name": name, "stages": [{"stage": s} for s in stages], "description": description}))
    return path


def test_tours_list_check_and_tour_with_hostile_names(tmp_path, env):
    """Tour names from files and tour ids from file names: an OSC in either
    reached the terminal from `tours list`, `tours check` and `tour`."""
    users = tmp_path / "data" / "tours"
    tour_file(users, MARKUP, "markup.yaml")
    tour_file(users, f"Tour{ESC_TITLE}", "osc-name.yaml")
    tour_file(users, "Tour", "osc-description.yaml", description=f"x{ESC_TITLE}")
    tour_file(users, "Fine", f"file{ESC_TITLE}\u202e.yaml")
    os.mkfifo(users / "fifo.yaml")  # listed as broken, never hidden (nor read)
    listing = run("tours", "list", env=env)
    assert listing.returncode == 0
    assert_clean(listing)
    assert MARKUP in listing.stdout
    assert "osc-name.yaml:1: name: control character U+001B is not allowed" in listing.stdout
    assert "file\\x1b]0;pwned\\x07\\u202e" in listing.stdout
    assert "fifo.yaml: not a regular file (a FIFO)" in listing.stdout
    check = run("tours", "check", str(users), env=env)
    assert check.returncode == 2
    assert_clean(check)
    assert f"ok: {MARKUP}, 1 stage" in check.stdout
    assert "description: control character U+001B is not allowed" in check.stdout
    tour = run("tour", "--tour", "markup", "--seed", "3", env=env)
    assert tour.returncode == 0, tour.stderr
    assert_clean(tour)
    assert tour.stdout.startswith(f"{MARKUP}, 1 stage, seed 3")
    refused = run("tour", "--tour", "osc-name", env=env)
    assert refused.returncode == 2 and len(refused.stderr.splitlines()) == 1
    assert_clean(refused)


def test_a_tour_names_the_stage_file_that_is_broken(tmp_path, env):
    """A tour's stage whose file is broken: the line names the tour file and
    field, and the stage file and line where the problem is."""
    (tmp_path / "data" / "stages").mkdir(parents=True)
    (tmp_path / "data" / "stages" / "bent.yaml").write_text("name: Bent\ntiles: abcdefghijklmnopqrsbu\n")
    path = tour_file(tmp_path / "data" / "tours", "Bent tour", "bent-tour.yaml", stages=("avenue-corso-paseo", "bent"))
    for args in (("tours", "check", str(path)), ("tour", "--tour", "bent-tour"),
                 ("tour", "--stages", "avenue-corso-paseo,bent")):
        proc = run(*args, env=env)
        assert proc.returncode == 2
        assert_clean(proc)
        lines = [line for line in (proc.stdout + proc.stderr).splitlines() if "with problems" not in line]
        assert len(lines) == 1, lines
        assert "stages/bent.yaml:2: tiles: tile 'b' used twice" in lines[0], lines[0]
        assert ("bent-tour.yaml" in lines[0] and "stages[1].stage" in lines[0]) or "--stages" in lines[0]


def test_file_names_that_are_not_utf8(tmp_path, env):
    """Bytes of a file name that are not UTF-8 reach Python as lone surrogates:
    printed as they were, `stages list`, `tours list`, both checks and
    `conformance` ended in UnicodeEncodeError on a UTF-8 terminal (or wrote
    the raw bytes: 0x9b is CSI), and `tour --stages` with such a stage id in a
    pydantic traceback.  They are written out, and such a name is no stage id."""
    env = {**env, "PYTHONIOENCODING": "utf-8:strict"}  # a UTF-8 locale's stdout
    stages, tours = os.fsencode(tmp_path / "data" / "stages"), os.fsencode(tmp_path / "data" / "tours")
    os.makedirs(stages)
    os.makedirs(tours)
    good = json.dumps({"name": "Fine", "tiles": "abcdefghijklmnopqrstu"})
    for folder, name, text in ((stages, b"\xff\x9b.yaml", good), (stages, b"bad\xff.yaml", "name: [\n"),
                               (tours, b"t\xff.yaml", json.dumps({"name": "T", "stages": [{"stage": "peloton-7"}]})),
                               (tours, b"u\xff.yaml", "name: [\n")):
        with open(os.path.join(folder, name), "w") as f:
            f.write(text)
    stage_id = os.fsdecode(b"\xff\x9b")
    for args, code in (
        (["stages", "list"], 0), (["tours", "list"], 0),
        (["stages", "check", os.fsdecode(stages)], 2), (["tours", "check", os.fsdecode(tours)], 2),
        (["conformance", os.fsdecode(stages)], 2),
        (["race", "--stage", stage_id], 2), (["tour", "--stages", stage_id], 2),
        (["tour", "--tour", os.fsdecode(b"t\xff")], 0),
        # refused before anything is hosted or joined (a hosted table or the join app would wait for players)
        (["host", "--stage", stage_id], 2), (["join", stage_id + ":8765"], 2), (["join", "127.0.0.1:8765", stage_id], 2),
    ):
        proc = run(*args, env=env)
        assert proc.returncode == code, (args, proc.stderr)
        assert_clean(proc)
        if code == 2 and args[0] in ("race", "tour", "host"):
            assert proc.stderr.count("\n") == 1
            assert "\\udcff\\udc9b.yaml: the file name is not UTF-8 text: it cannot be a stage id" in proc.stderr
    listing = run("stages", "list", env=env).stdout
    assert "\\udcff\\udc9b" in listing and "bad\\udcff.yaml" in listing


def test_tournament_and_ladder_write_out_control_characters_in_the_paths_they_print(tmp_path, env):
    """The tour file of `tournament --tour` and the results file of `ladder --file`
    are printed in their first line: an escape sequence in either path reached the terminal."""
    path = tour_file(tmp_path, "Fine", f"t{ESC_TITLE}.yaml")
    tour = run("tournament", "--tour", str(path), "easy", "medium", "-n", "1", "-j", "1", env=env)
    assert tour.returncode == 0, tour.stderr
    assert_clean(tour)
    assert "t\\x1b]0;pwned\\x07.yaml" in tour.stdout.splitlines()[0]
    results = tmp_path / f"r{ESC_TITLE}.jsonl"
    ladder = run("ladder", "--file", str(results), "--only", "bmx", "--bots", "easy,medium", "-n", "1", "-j", "1", env=env)
    assert ladder.returncode == 0, ladder.stderr
    assert_clean(ladder)
    assert "r\\x1b]0;pwned\\x07.jsonl" in ladder.stdout.splitlines()[0]
