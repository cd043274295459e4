"""Custom stages: the user stages directory, `stages list`, `stages check`,
`race --stage PATH`, and clear one-line messages for bad input."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from flamme_tui import config
from flamme_tui.cli import main

LINE = re.compile(r"^[^:\n]+\.ya?ml(:\d+)?: ([\w.\[\]]+: )?[^\n]+$")  # file:line: field: message


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    folder = tmp_path / "data"
    monkeypatch.setenv("FLAMME_TUI_DATA_DIR", str(folder))
    monkeypatch.chdir(tmp_path)
    return folder


@pytest.fixture
def user_stages(data_dir):
    folder = data_dir / "stages"
    folder.mkdir(parents=True)
    (folder / "my-hill.yaml").write_text("name: My Hill\ntiles: abcdEfghijklmnopqrstU\n")
    return folder


def test_user_data_dir_follows_the_variable(data_dir, monkeypatch):
    assert config.user_data_dir() == data_dir
    assert config.user_stages_dir() == data_dir / "stages"
    monkeypatch.delenv("FLAMME_TUI_DATA_DIR")
    assert config.user_data_dir().name == "flamme-tui"


def test_no_user_stages_means_the_built_in_ones():
    ids = config.stage_ids()
    # the 7 base stages, the 12 Peloton stage versions, then the library
    assert ids == config._builtin_stage_ids() and ids[:19] == list(config.STAGE_ORDER)


def test_user_stage_joins_the_built_in_ones(user_stages):
    ids = config.stage_ids()
    builtin = config._builtin_stage_ids()
    assert ids[:len(builtin)] == builtin
    assert ids[len(builtin):] == ["my-hill"]
    stage = config.load_stage("my-hill")
    assert stage.name == "My Hill"
    summary = config.stage_summary(stage)
    assert (summary.ascent, summary.descent) == (4, 0)


def test_a_built_in_id_wins(user_stages):
    (user_stages / "firenze-milano.yaml").write_text("name: Mine\ntiles: abcdefghijklmnopqrstu\n")
    assert config.load_stage("firenze-milano").name == "Firenze - Milano"
    assert config.stage_ids().count("firenze-milano") == 1
    shadowed = [e for e in config.stage_entries() if e.shadowed]
    assert [e.id for e in shadowed] == ["firenze-milano"]


def test_unknown_stage_lists_the_user_ones(user_stages):
    with pytest.raises(config.ConfigError) as err:
        config.load_stage("nowhere")
    assert "my-hill" in str(err.value)


def test_a_folder_of_many_stages_reads_the_first_by_name_and_says_so(user_stages, monkeypatch, capsys):
    """Every file read is bounded: a folder of thousands of stages would take
    seconds to list in a menu.  The first MAX_USER_STAGES by name are read,
    one line says so, and an unknown id names a few stages, not all."""
    from flamme_tui import limits

    monkeypatch.setattr(limits, "MAX_USER_STAGES", 5)
    for k in range(30):
        (user_stages / f"z{k:02}.yaml").write_text(f"name: Z{k}\ntiles: abcdefghijklmnopqrstu\n")
    assert config.stage_ids()[len(config._builtin_stage_ids()):] == ["my-hill", "z00", "z01", "z02", "z03"]
    notice = "stages: 31 stage files: only the first 5 by name are read"
    assert [line.endswith(notice) for line in config.stage_notices()] == [True]
    with pytest.raises(config.ConfigError) as err:
        config.load_stage("z29")
    more = len(config.stage_ids()) - config.KNOWN_SHOWN
    assert "unknown stage 'z29'" in str(err.value) and f"and {more} more: see `flamme-tui stages list`" in str(err.value)
    assert "(known: my-hill, z00, z01, z02, z03, avenue-corso-paseo," in str(err.value)  # the user's own first
    assert main(["stages", "list"]) == 0
    out = capsys.readouterr().out
    assert notice in out and "z03" in out and "z04" not in out


def test_stages_list(user_stages, capsys):
    (user_stages / "broken.yaml").write_text("name: Broken\ntiles: abq\n")
    assert main(["stages", "list"]) == 0
    out = capsys.readouterr().out
    rows = {line.split()[0]: line for line in out.splitlines() if line.strip()}
    assert re.search(r"Avenue Corso Paseo\s+68\s+0\s+0\s+flat\s+base\s+built-in", rows["avenue-corso-paseo"])
    assert re.search(r"Firenze - Milano\s+68\s+12\s+6\s+hilly\s+base\s+built-in", rows["firenze-milano"])
    assert re.search(r"Peloton 9 \(2-4 teams\)\s+69\s+0\s+0\s+cobbles\s+base\+peloton\s+built-in", rows["peloton-9"])
    assert re.search(r"My Hill\s+69\s+4\s+0\s+hilly\s+base\s+user", rows["my-hill"])
    assert "(broken)" in rows["broken"] and "user" in rows["broken"]
    assert "broken.yaml:2: tiles: too short" in out or "broken.yaml:2: tiles:" in out
    assert out.splitlines()[0].split() == ["id", "name", "length", "climb", "descent", "kind", "boxes", "source"]


def test_stages_check_good(user_stages, capsys):
    assert main(["stages", "check", str(user_stages / "my-hill.yaml")]) == 0
    out = capsys.readouterr().out
    assert "my-hill.yaml: ok: My Hill, 69 squares, 4 climb, 0 descent" in out


BAD = {
    "unknown-tile.yaml": ("name: X\ntiles: abcZzu\n", ["unknown-tile.yaml:2: tiles: unknown tile letter 'Z'"]),
    "twice.yaml": ("name: X\ntiles: abcdefghijklmnopqrsBu\n", ["twice.yaml:2: tiles: tile 'B' used twice"]),
    "short.yaml": ("name: X\ntiles: abu\n", ["short.yaml:2: tiles: too short: 8 squares"]),
    "several.yaml": (
        "tiles: au\ncolour: red\n",
        ["several.yaml: name: field required", "several.yaml:1: tiles: too short", "several.yaml:2: colour: unknown key"],
    ),
    "colours.yaml": ("name: X\ntiles: abcdefghijklmnopqrstu\ncolours: [5, 3]\n",
                     ["colours.yaml:3: colours: from 2 to 6, the lower number first"]),
    "version.yaml": ("name: X\ntiles: abcdefghijklmnopqrstu\nother_version: x-5-6\n",
                     ["version.yaml:3: other_version: say which numbers of colours this version is for (colours)"]),
    "yaml.yaml": ("name: [oops\n", ["yaml.yaml:2: invalid YAML"]),
    "empty.yaml": ("", ["empty.yaml: expected a mapping"]),
    "evil.yaml": (
        "name: !!python/object/apply:os.system ['echo hi']\ntiles: abu\n",
        ["evil.yaml:1: tags (!!python/object/apply:os.system) are not allowed"],
    ),
}


def test_stages_check_reports_every_problem(tmp_path, capsys):
    for name, (text, _) in BAD.items():
        (tmp_path / name).write_text(text)
    (tmp_path / "good.yaml").write_text("name: Fine\ntiles: abcdefghijklmnopqrstu\n")
    assert main(["stages", "check", *sorted(BAD), "good.yaml", "missing.yaml"]) == 2
    out = capsys.readouterr().out.splitlines()
    for name, (_, expected) in BAD.items():
        mine = [line for line in out if line.startswith(name)]
        assert len(mine) == len(expected), (name, mine)
        for line, want in zip(mine, expected):
            assert line.startswith(want), (line, want)
            assert LINE.match(line), line
    assert "good.yaml: ok: Fine" in "\n".join(out)
    assert "missing.yaml: file not found" in out
    assert out[-1] == f"{len(BAD) + 1} of {len(BAD) + 2} stage files with problems"


def test_stages_check_folder(user_stages, capsys):
    (user_stages / "z-bad.yml").write_text("name: Z\ntiles: abcdefghijklmnopqrstuu\n")
    assert main(["stages", "check", str(user_stages)]) == 2
    out = capsys.readouterr().out
    assert "my-hill.yaml: ok" in out and "z-bad.yml:2: tiles: tile 'u' used twice" in out


def test_stages_check_nothing(tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    assert main(["stages", "check", str(tmp_path / "empty")]) == 2


def test_race_on_a_user_stage_by_id_and_path(user_stages, capsys):
    assert main(["race", "--stage", "my-hill", "--teams", "2", "--seed", "3"]) == 0
    by_id = capsys.readouterr().out
    assert by_id.startswith("My Hill · classic, seed 3")
    assert main(["race", "--stage", str(user_stages / "my-hill.yaml"), "--teams", "2", "--seed", "3"]) == 0
    assert capsys.readouterr().out == by_id
    assert main(["race", "--variant", "meteo", "--stage", "my-hill", "--teams", "3"]) == 0


@pytest.mark.parametrize(
    "text, words",
    [
        ("name: X\ntiles: abcQqu\n", "tile 'q' used twice"),
        ("name: X\ntiles: ab0u\n", "'0' at position 3 is not a tile name"),
        ("name: X\ntiles: au\n", "too short"),
    ],
)
def test_race_on_a_bad_stage_is_one_line(tmp_path, capsys, text, words):
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    assert main(["race", "--stage", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err and "bad.yaml:2: tiles: " in err


@pytest.mark.parametrize(
    "argv",
    [["--bogus"], ["race", "--nope"], ["stages", "frobnicate"], ["replay"], ["stages", "check"]],
)
def test_unknown_options_exit_2(argv, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line.endswith("--help)")


def test_no_traceback_from_the_command(tmp_path, data_dir):
    """The real command, in a process: bad stage and damaged save give one line, exit 2."""
    (tmp_path / "bad.yaml").write_text("name: X\ntiles: abcz\n")
    (tmp_path / "save.json").write_text('{"format": "flamme-tui-save", "version": 1, "checksum": "00"}')
    env = dict(os.environ, FLAMME_TUI_DATA_DIR=str(data_dir))
    for argv in (["stages", "check", "bad.yaml"], ["race", "--stage", "bad.yaml"], ["replay", "save.json"],
                 ["--resume", "save.json"], ["--resume"], ["race", "--from", "save.json"]):
        out = subprocess.run([sys.executable, "-m", "flamme_tui", *argv], capture_output=True, text=True,
                             cwd=tmp_path, env=env, timeout=60)
        assert out.returncode == 2, (argv, out.stdout, out.stderr)
        assert "Traceback" not in out.stderr + out.stdout, argv
        text = (out.stdout + out.stderr).strip()
        assert text, argv
        if argv[0] != "stages":
            assert text.count("\n") <= 1 and text.startswith("flamme-tui: "), (argv, text)


def test_stages_or_tours_alone_list_them(capsys):
    """`flamme-tui stages` alone said "the following arguments are required: ACTION"."""
    assert main(["stages"]) == 0
    assert "avenue-corso-paseo" in capsys.readouterr().out
    assert main(["tours"]) == 0
    assert "3-petit-tour" in capsys.readouterr().out
