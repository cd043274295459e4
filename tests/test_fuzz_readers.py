"""Every reader against hostile files: only a clean one-line error or a correct load.

Readers: stage files (load_stage, check_stage_file, `stages check`, `stages
list`, the stage ids and notices, `race --stage`), tiles, variant and
settings files,
saves (peek, load_record, list_saves, `replay --text`), conformance case
files (load_cases, `conformance`) and tour files (check_tour_file,
load_tour, `tours check`, `tours list`, `tour --tour`).  Files: alias
bombs, tags, deep nesting, huge files, bad encodings, FIFOs, devices,
directories, sockets, symlinks (dangling, loops, to devices), permission
errors, and a data directory that is a file, a loop or unreadable.  Then
hypothesis: random YAML made of hostile fragments and random JSON given to
every reader.

Each case checked counts (tests/fuzzing.py: the run ends with the fuzz
suite's count and time).
"""

from __future__ import annotations

import errno
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import fuzzing
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from flamme_tui import bench_readers, config, conformance, files, saves, usertext
from flamme_tui import settings as user_settings
from flamme_tui.cli import main
from flamme_tui.cli import stages as stages_cli
from flamme_tui.cli import tours as tours_cli
from flamme_tui.config import ConfigError
from flamme_tui.conformance import CaseFileError
from flamme_tui.play import tours
from flamme_tui.saves import SaveError

pytestmark = pytest.mark.fuzz
ERRORS = (ConfigError, SaveError, CaseFileError)
# seconds: any single read taking longer counts as a hang (the hangs found took
# minutes).  Not less: PyYAML parses the 42 KB many-keys file in about 1 s on a
# busy 2-core machine, and 2.0 failed there now and then.
SLOW = 5.0
ESC_TITLE = "\x1b]0;pwned\x07"


def count(n: int = 1) -> None:
    fuzzing.count("readers", n)


def printable(line: str) -> bool:
    """One line a terminal shows as it is: no newline, no control character."""
    return not usertext.CONTROL.search(line)


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    folder = tmp_path / "data"
    (folder / "stages").mkdir(parents=True)
    monkeypatch.setenv("FLAMME_TUI_DATA_DIR", str(folder))
    return folder


def outcome(read: Callable[[], object], name: str | None = None,
            clock: Callable[[], float] = time.perf_counter) -> object | None:
    """Run a reader: it returns, or raises one of our errors with one line
    (naming the file when `name` is given).  Anything else fails, as does
    taking longer than SLOW (by `clock`: wall time catches a read that blocks)."""
    count()
    start = clock()
    try:
        return read()
    except ERRORS as exc:
        text = str(exc)
        assert text and "\n" not in text, text
        if name is not None:
            assert name in text, (name, text)
        return None
    finally:
        assert clock() - start < SLOW, f"{read} took too long"


# --------------------------------------------------------------- hostile files


def alias_bomb() -> bytes:
    lines = ["a0: &a0 [x]"] + [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, 9)]
    return ("\n".join(lines) + "\nname: *a8\ntiles: abcdefghijklmnopqrstu\ncases: *a8\n").encode()


GOOD_STAGE = b"name: Fine Stage\ntiles: abcdefghijklmnopqrstu\n"
GOOD_TOUR = b"name: Fine Tour\nstages:\n  - {stage: avenue-corso-paseo}\n  - {stage: firenze-milano, variant: meteo}\n"

HOSTILE: dict[str, bytes] = {
    "alias-bomb": alias_bomb(),
    "alias-simple": b"n: &n Fine\nname: *n\ntiles: abcdefghijklmnopqrstu\n",
    "merge-key": b"base: &b {name: X}\n<<: *b\ntiles: abcdefghijklmnopqrstu\n",
    "python-object": b"name: !!python/object/apply:os.system ['echo pwned']\ntiles: abu\n",
    "python-name": b"name: !!python/name:os.system\ntiles: abu\n",
    "binary-tag": b"name: !!binary aGVsbG8=\ntiles: abu\n",
    "set-tag": b"name: !!set {a, b}\ntiles: abu\n",
    "local-tag": b"name: !mine x\ntiles: abu\n",
    "deep-flow": b"name: " + b"[" * 10000 + b"]" * 10000 + b"\n",
    "deep-flow-unclosed": b"name: " + b"[" * 100000 + b"\n",
    "deep-block": "".join(" " * i + "k:\n" for i in range(200)).encode(),
    "deep-dashes": b"- " * 5000 + b"x\n",
    "deep-mapping": b"{a: " * 5000 + b"1" + b"}" * 5000 + b"\n",
    "long-line": b"name: '" + b"x" * 60000 + b"'\ntiles: abcdefghijklmnopqrstu\n",
    "just-over-64k": b"# " + b"c" * (64 * 1024) + b"\n" + GOOD_STAGE,
    "many-keys": b"".join(b"k%d: %d\n" % (i, i) for i in range(6000)),
    "huge-int": b"name: " + b"9" * 5000 + b"\ntiles: abu\n",
    "bad-date": b"name: 2001-13-45\ntiles: abu\n",
    "float-inf": b"name: .inf\ntiles: .nan\n",
    "duplicate-key": b"name: A\nname: B\ntiles: abcdefghijklmnopqrstu\n",
    "two-documents": b"name: A\n---\nname: B\n",
    "unhashable-key": b"? [a, b]\n: c\nname: X\n",
    "not-utf8": b"name: \xff\xfe caf\xe9\ntiles: abu\n",
    "utf16-bom": "name: X\ntiles: abu\n".encode("utf-16"),
    "utf8-bom": b"\xef\xbb\xbf" + GOOD_STAGE,
    "nul-bytes": b"name: a\x00b\ntiles: abu\n",
    "control-chars": b"name: a\x1b]0;pwned\x07b\ntiles: abu\n",
    "escaped-osc": b'name: "x\\e]0;pwned\\ay"\ntiles: abcdefghijklmnopqrstu\n',
    "markup-name": b"name: '[/] [@click=app.quit]x[/] [b'\ntiles: abcdefghijklmnopqrstu\ndescription: '[red'\n",
    "empty": b"",
    "comments-only": b"# nothing\n",
    "scalar": b"just a string\n",
    "list": b"- a\n- b\n",
    "null-doc": b"~\n",
    "tab-indent": b"name:\n\tX\n",
    "unclosed-quote": b"name: 'oops\ntiles: abu\n",
    "tile-twice": b"name: Twice\ntiles: abcdefghijklmnopqrsbu\n",
    "unknown-letter": b"name: Letter\ntiles: abcdefghijklmnopqrs0u\n",
    "long-name": b"name: " + b"x" * 5000 + b"\ntiles: abcdefghijklmnopqrstu\n",
    "good": GOOD_STAGE,
    "good-tour": GOOD_TOUR,
    "tour-markup": b"name: '[/] [@click=app.quit]x[/]'\nstages: [{stage: avenue-corso-paseo}]\ndescription: '[b'\n",
    "tour-osc": b'name: "x\\e]0;pwned\\ay"\nstages: [{stage: avenue-corso-paseo}]\n',
    "tour-path-stage": b"name: T\nstages: [{stage: ../../etc/passwd}]\n",
    "tour-many-stages": b"name: T\nstages:\n" + b"  - {stage: avenue-corso-paseo}\n" * 5000,
    "tour-deep-stage": b"name: T\nstages: [{stage: [[[[[[[[[[x]]]]]]]]]]}]\n",
}

JSON_HOSTILE: dict[str, bytes] = {
    "deep-list": b"[" * 100000 + b"]" * 100000,
    "deep-object": b'{"a":' * 50000 + b"1" + b"}" * 50000,
    "deep-unclosed": b"[" * 200000,
    "huge-number": b'{"format": "flamme-tui-save", "seed": ' + b"9" * 100000 + b"}",
    "nan": b'{"format": "flamme-tui-save", "seed": NaN, "checksum": 1}',
    "duplicate-key": b'{"format": "flamme-tui-save", "format": "x"}',
    "not-utf8": b'{"format": "\xff"}',
    "a-list": b"[1, 2, 3]",
    "a-string": b'"flamme-tui-save"',
    "brackets-in-strings": b'{"a": "' + b"[" * 100000 + b'"}',
    "five-mb": b'{"format": "flamme-tui-save", "pad": "' + b"x" * (5 * 1024 * 1024) + b'"}',
}


def write(folder: Path, name: str, data: bytes) -> Path:
    path = folder / name
    path.write_bytes(data)
    return path


def special_files(folder: Path) -> dict[str, Path]:
    """Paths that are not regular files, or lead nowhere (named *.yaml)."""
    out: dict[str, Path] = {}
    fifo = folder / "fifo.yaml"
    os.mkfifo(fifo)
    out["fifo"] = fifo
    (folder / "dir.yaml").mkdir()
    out["directory"] = folder / "dir.yaml"
    sock_path = folder / "sock.yaml"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.bind(str(sock_path))
    sock.close()
    out["socket"] = sock_path
    for name, target in (("zero", "/dev/zero"), ("null", "/dev/null"), ("urandom", "/dev/urandom"),
                         ("dangling", "nowhere"), ("loop", "loop.yaml"), ("to-dir", "dir.yaml")):
        link = folder / f"{name}.yaml"
        link.symlink_to(target)
        out[f"symlink-{name}"] = link
    loop_a, loop_b = folder / "loop-a.yaml", folder / "loop-b.yaml"
    loop_a.symlink_to(loop_b.name)
    loop_b.symlink_to(loop_a.name)
    out["symlink-loop-of-two"] = loop_a
    sparse = folder / "sparse.yaml"
    with open(sparse, "wb") as fh:
        fh.truncate(60 * 1024 * 1024)  # a 60 MB file, read in no time if it were read
    out["60-mb"] = sparse
    out["missing"] = folder / "missing.yaml"
    out["nul-in-name"] = Path(str(folder / "a") + "\x00.yaml")
    return out


# ---------------------------------------------------------------- the readers


def stage_readers(path: Path) -> list[Callable[[], object]]:
    def check_cli() -> object:
        lines: list[str] = []
        code = stages_cli.check([str(path)], out=lines.append)
        assert code in (0, 2) and lines and all(printable(line) for line in lines)
        return code

    return [
        lambda: config.load_stage(path),
        lambda: config.check_stage_file(path),
        lambda: config.load_course(path),
        check_cli,
    ]


def yaml_readers(path: Path) -> list[Callable[[], object]]:
    """Tiles, variants and case files, read from `path`."""
    models = (config.TileCatalog, config.ClassicRules, config.MeteoRules, config.BmxRules)
    return [*(lambda m=m: config._validate(m, path) for m in models), lambda: conformance.load_cases(path)]


def save_readers(path: Path) -> list[Callable[[], object]]:
    return [lambda: saves.peek(path), lambda: saves.load_record(path)]


def tour_readers(path: Path) -> list[Callable[[], object]]:
    def check_cli() -> object:
        lines: list[str] = []
        code = tours_cli.check([str(path)], out=lines.append)
        assert code in (0, 2) and lines and all(printable(line) for line in lines)
        return code

    return [lambda: tours.check_tour_file(path), lambda: tours.load_tour(str(path)), check_cli]


def settings_readers(path: Path) -> list[Callable[[], object]]:
    """The settings file never fails to load: the defaults and one line."""
    def read() -> object:
        got, problem = user_settings.load(path)
        assert isinstance(got, user_settings.Settings)
        assert problem is None or (printable(problem) and shown_name(path) in problem), problem
        return got

    return [read]


def every_reader(path: Path) -> list[Callable[[], object]]:
    return stage_readers(path) + yaml_readers(path) + save_readers(path) + tour_readers(path) + settings_readers(path)


def shown_name(path: Path) -> str:
    return path.name.split("\x00")[0][:10]


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_yaml_every_reader(tmp_path, name):
    path = write(tmp_path, f"{name}.yaml", HOSTILE[name])
    for read in every_reader(path):
        outcome(read, path.name)


@pytest.mark.parametrize("name", sorted(JSON_HOSTILE))
def test_hostile_json_every_reader(tmp_path, name):
    path = write(tmp_path, f"{name}.json", JSON_HOSTILE[name])
    for read in every_reader(path):
        outcome(read, path.name)


def test_special_files_every_reader(tmp_path):
    for path in special_files(tmp_path).values():
        for read in every_reader(path):
            outcome(read, shown_name(path))


def test_good_stage_loads_through_a_symlink(tmp_path):
    good = write(tmp_path, "real.yaml", GOOD_STAGE)
    link = tmp_path / "link.yaml"
    link.symlink_to(good)
    assert outcome(lambda: config.load_stage(link)).name == "Fine Stage"


def test_each_refusal_says_what_is_wrong(tmp_path):
    """Not just any error: the reason a person can act on."""
    expected = {
        "alias-bomb": "anchors (&a0) are not allowed",
        "python-object": "tags (!!python/object/apply:os.system) are not allowed",
        "deep-flow": "nested too deeply",
        "deep-block": "nested too deeply",
        "just-over-64k": "too big for a stage file",
        "duplicate-key": "duplicate key",
        "not-utf8": "not UTF-8",
        "huge-int": "bad value",
        "two-documents": "invalid YAML",
    }
    for name, words in expected.items():
        path = write(tmp_path, f"{name}.yaml", HOSTILE[name])
        with pytest.raises(ConfigError) as err:
            config.load_stage(path)
        assert path.name in str(err.value) and words in str(err.value), (name, str(err.value))
        count()
    (tmp_path / "special").mkdir()
    specials = special_files(tmp_path / "special")
    reasons = {
        "fifo": "not a regular file (a FIFO)",
        "directory": "not a regular file (a directory)",
        "socket": "not a regular file (a socket)",
        "symlink-zero": "not a regular file (a character device)",
        "symlink-dangling": "file not found",
        "symlink-loop": "symbolic links",
        "60-mb": "too big for a stage file (60.0 MB",
    }
    for kind, words in reasons.items():
        with pytest.raises(ConfigError) as err:
            config.load_stage(specials[kind])
        assert words in str(err.value), (kind, str(err.value))
        count()


def test_a_settings_file_that_cannot_be_used_is_said_not_taken_for_missing(tmp_path):
    """A settings file that is a loop, a FIFO, a device, too big or too deep:
    the defaults and one line saying why (a loop was taken for no file)."""
    specials = special_files(tmp_path)
    deep = write(tmp_path, "deep.json", b'{"keys":' + b"[" * 30000 + b"]" * 30000 + b"}")
    expected = {specials["symlink-loop"]: "symbolic links", specials["fifo"]: "not a regular file (a FIFO)",
                specials["symlink-zero"]: "a character device", specials["60-mb"]: "too big for a settings file",
                deep: "nested too deeply", specials["directory"]: "not a regular file (a directory)"}
    for path, words in expected.items():
        got, problem = user_settings.load(path)
        assert got == user_settings.Settings() and problem is not None and words in problem, (path, problem)
        assert problem.endswith("using the default settings") and printable(problem)
        count()
    assert user_settings.load(specials["missing"]) == (user_settings.Settings(), None)


def test_json_depth_is_checked_before_parsing(tmp_path):
    path = write(tmp_path, "deep.json", JSON_HOSTILE["deep-list"])
    with pytest.raises(SaveError, match=r"is damaged \(nested too deeply"):
        saves.peek(path)
    count()


def test_permission_errors(tmp_path, monkeypatch):
    """Reading may be refused by the system (as root nothing is, so the refusal
    is simulated at os.open, where it happens)."""
    good = write(tmp_path, "locked.yaml", GOOD_STAGE)
    real_open = os.open

    def denied(path, *args, **kwargs):
        if str(path).endswith("locked.yaml"):
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", denied)
    for read in every_reader(good):
        outcome(read, "locked.yaml")
    with pytest.raises(ConfigError, match="permission denied"):
        config.load_stage(good)
    if os.geteuid() != 0:  # a real chmod, where it means something
        monkeypatch.setattr(os, "open", real_open)
        good.chmod(0)
        try:
            for read in every_reader(good):
                outcome(read, "locked.yaml")
        finally:
            good.chmod(0o644)


# --------------------------------------------------------- the user data dir


def listing_lines() -> list[str]:
    lines: list[str] = []
    assert stages_cli.listing(out=lines.append) == 0
    assert all(printable(line) for line in lines)
    return lines


def test_every_hostile_file_in_the_user_stages_folder(data_dir):
    stages = data_dir / "stages"
    for name, data in HOSTILE.items():
        write(stages, f"{name}.yaml", data)
    write(stages, f"osc{ESC_TITLE}.yaml", GOOD_STAGE)  # its id is its file name: written out
    special_files(stages)
    builtin = config._builtin_stage_ids()
    ids = outcome(config.stage_ids)
    assert isinstance(ids, list)
    assert ids[: len(builtin)] == builtin  # the built-in stages are all still there
    # good files are listed, broken ones left out, each with one notice naming it
    notices = outcome(config.stage_notices)
    assert isinstance(notices, list)
    for status in config.stage_statuses():
        count()
        if status.stage is None:
            assert status.entry.id not in ids
            assert sum(status.entry.path.name in note for note in notices) >= 1
        else:
            assert status.entry.id in ids
    assert "good" in ids and "utf8-bom" in ids and "alias-bomb" not in ids and "fifo" not in ids
    lines = outcome(listing_lines)
    assert isinstance(lines, list) and any("(broken)" in line for line in lines)
    # every stage-id lookup: a correct load or one line naming the file
    for sid in [p.stem for p in stages.iterdir()]:
        outcome(lambda sid=sid: config.load_stage(sid), sid[:10])
    # a whole stage list is read once: then only stat'ed
    start = time.perf_counter()
    for _ in range(20):
        config.stage_ids()
    assert time.perf_counter() - start < 2


def tour_listing_lines() -> list[str]:
    lines: list[str] = []
    assert tours_cli.listing(out=lines.append) == 0
    assert all(printable(line) for line in lines)
    return lines


def test_every_hostile_file_in_the_user_tours_folder(data_dir):
    """The same for tours: each hostile file is a broken tour, listed with one
    line naming it; the shipped tours and a good user tour still race."""
    folder = data_dir / "tours"
    folder.mkdir()
    for name, data in HOSTILE.items():
        write(folder, f"{name}.yaml", data)
    write(folder, f"osc{ESC_TITLE}.yaml", GOOD_TOUR)  # its id is its file name: written out
    special_files(folder)
    entries = outcome(tours.tour_entries)
    assert isinstance(entries, list)
    user = {e.id: e for e in entries if e.source == "user"}
    assert {"alias-bomb", "fifo", "zero", "loop", "good-tour"} <= set(user)
    lines = outcome(tour_listing_lines)
    assert isinstance(lines, list)
    for entry in user.values():
        spec, problems = outcome(lambda e=entry: tours.check_tour_file(e.path))
        if spec is None:
            assert any(entry.path.name in line for line in lines if ".yaml" in line), entry.id
        assert all(isinstance(p, ConfigError) and "\n" not in str(p) for p in problems)
    for tid in user:  # every lookup by id: a tour or one line naming its file
        outcome(lambda tid=tid: tours.load_tour(tid), tid[:10])
    assert outcome(lambda: tours.load_tour("good-tour")).name == "Fine Tour"
    assert outcome(lambda: tours.load_tour("3-petit-tour")).name


@pytest.mark.parametrize("kind", ["file", "loop", "stages-file", "stages-loop", "stages-dangling", "missing"])
def test_hostile_data_dir(tmp_path, monkeypatch, kind):
    root = tmp_path / "root"
    root.mkdir()
    data = root / "data"
    if kind == "file":
        data.write_text("not a folder")
    elif kind == "loop":
        data.symlink_to("data")
    elif kind == "missing":
        pass
    else:
        data.mkdir()
        stages = data / "stages"
        if kind == "stages-file":
            stages.write_text("not a folder")
        elif kind == "stages-loop":
            stages.symlink_to("stages")
        else:
            stages.symlink_to("nowhere")
    monkeypatch.setenv("FLAMME_TUI_DATA_DIR", str(data))
    builtin = config._builtin_stage_ids()
    assert outcome(config.stage_ids) == builtin
    notices = outcome(config.stage_notices)
    assert isinstance(notices, list) and len(notices) <= 1
    outcome(listing_lines)
    # the tours beside the stages: the shipped ones, at most one line about the folder
    shipped = [e.id for e in tours.tour_entries() if e.source == "built-in"]
    assert [e.id for e in outcome(tours.tour_entries) if e.source == "built-in"] == shipped
    assert [e for e in tours.tour_entries() if e.source == "user"] == []
    outcome(tour_listing_lines)
    assert outcome(lambda: tours.load_tour(shipped[0])).stages
    # the saves folder: nothing listed, and why when it cannot be read
    problem = outcome(saves.folder_problem)
    assert problem is None or ("\n" not in problem and "cannot list the saves folder" in problem)
    assert (problem is None) == (kind in ("missing", "stages-file", "stages-loop", "stages-dangling"))
    # a file that cannot be read whole is listed as damaged (never hidden, never a crash)
    listed = outcome(saves.list_saves)
    assert all(race.status == saves.DAMAGED and race.reason and "\n" not in race.reason for race in listed)
    assert outcome(saves.latest_in_progress) in {None, *(race.path for race in listed)}


def test_unreadable_stages_folder_is_said(data_dir, monkeypatch):
    stages = data_dir / "stages"
    write(stages, "mine.yaml", GOOD_STAGE)
    real = os.listdir

    def denied(path="."):
        if Path(path) == stages:
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real(path)

    monkeypatch.setattr(os, "listdir", denied)
    monkeypatch.setattr(os, "scandir", lambda path=".": (_ for _ in ()).throw(
        PermissionError(errno.EACCES, "Permission denied", str(path))) if Path(path) == stages else real_scandir(path))
    assert outcome(config.stage_ids) == config._builtin_stage_ids()
    (notice,) = config.stage_notices()
    assert "cannot list folder" in notice and "stages" in notice
    assert any("cannot list folder" in line for line in listing_lines())


real_scandir = os.scandir


def test_hostile_files_in_the_saves_folder(data_dir):
    folder = data_dir / "saves"
    folder.mkdir()
    for name, data in JSON_HOSTILE.items():
        write(folder, f"{name}.json", data)
    for name in ("alias-bomb", "deep-flow"):
        write(folder, f"{name}.json", HOSTILE[name])
    os.mkfifo(folder / "fifo.json")
    (folder / "zero.json").symlink_to("/dev/zero")
    (folder / "loop.json").symlink_to("loop.json")
    (folder / "dir.json").mkdir()
    # a file that cannot be read whole is listed as damaged (never hidden, never a crash)
    listed = outcome(saves.list_saves)
    assert all(race.status == saves.DAMAGED and race.reason and "\n" not in race.reason for race in listed)
    assert outcome(saves.latest_in_progress) in {None, *(race.path for race in listed)}


# ------------------------------------------------------------------ commands


def run_cli(argv: list[str], capsys) -> tuple[int, list[str]]:
    count()
    code = main(argv)
    out = capsys.readouterr()
    text = out.out + out.err
    assert "Traceback" not in text
    lines = [line for line in text.splitlines() if line.strip()]
    assert all(printable(line) for line in lines), lines
    return code, lines


def test_commands_on_hostile_files(tmp_path, capsys):
    paths = {name: write(tmp_path, f"{name}.yaml", data) for name, data in HOSTILE.items() if name != "good"}
    paths.update(special_files(tmp_path))
    paths.pop("nul-in-name")  # argparse hands it on, but no shell can type it
    for name, path in paths.items():
        code, lines = run_cli(["race", "--stage", str(path)], capsys)
        if code != 0:  # a stage that loads races; any other: one line, status 2
            assert code == 2 and len(lines) == 1 and shown_name(path) in lines[0], (name, lines)
        code, lines = run_cli(["stages", "check", str(path)], capsys)
        assert code in (0, 2) and lines
        code, lines = run_cli(["conformance", str(path)], capsys)
        assert code == 2
        code, lines = run_cli(["replay", "--text", str(path)], capsys)
        assert code == 2 and len(lines) == 1, (name, lines)
        code, lines = run_cli(["tours", "check", str(path)], capsys)
        assert code in (0, 2) and lines
        code, lines = run_cli(["tour", "--tour", str(path)], capsys)
        if code != 0:  # a tour that loads races; any other: one line, status 2
            assert code == 2 and len(lines) == 1 and shown_name(path) in lines[0], (name, lines)


def test_commands_on_hostile_saves(tmp_path, capsys):
    for name, data in JSON_HOSTILE.items():
        path = write(tmp_path, f"{name}.json", data)
        code, lines = run_cli(["replay", "--text", str(path)], capsys)
        assert code == 2 and len(lines) == 1 and path.name in lines[0], (name, lines)


def real_process(*argv: str, env: dict | None = None) -> subprocess.CompletedProcess:
    count()
    return subprocess.run([sys.executable, "-m", "flamme_tui", *argv], capture_output=True, text=True,
                          timeout=30, env={**os.environ, **(env or {})})


@pytest.mark.slow  # the long run: only with --slow (the README's test command, first) or -m slow
def test_in_real_processes_nothing_hangs(tmp_path, data_dir):
    """The issue's examples, each in its own process: a FIFO or /dev/zero
    would hang a process that opened it for reading; an alias bomb hung
    `stages check`, `stages list` and `race --stage`."""
    bomb = write(data_dir / "stages", "bomb.yaml", alias_bomb())
    specials = special_files(tmp_path)
    deep = write(tmp_path, "deep.json", JSON_HOSTILE["deep-list"])
    for argv in (
        ["stages", "check", str(bomb)],
        ["race", "--stage", "bomb"],
        ["race", "--stage", str(specials["fifo"])],
        ["stages", "check", str(specials["symlink-zero"])],
        ["conformance", str(specials["fifo"])],
        ["replay", "--text", str(deep)],
        ["replay", "--text", str(specials["fifo"])],
        ["tours", "check", str(specials["fifo"])],
        ["tour", "--tour", str(specials["symlink-zero"])],
        ["tour", "--tour", str(bomb)],
        ["tour", "--stages", "avenue-corso-paseo,bomb"],
    ):
        proc = real_process(*argv)
        assert proc.returncode == 2, (argv, proc.stderr)
        lines = [line for line in (proc.stdout + proc.stderr).splitlines() if line.strip()]
        # `stages check` and `conformance` end with their count line
        lines = [line for line in lines if not line.endswith(("with problems", "0 passed, 0 failed"))]
        assert "Traceback" not in proc.stderr and len(lines) == 1, (argv, lines)
    proc = real_process("stages", "list")
    assert proc.returncode == 0 and "Traceback" not in proc.stderr
    assert "bomb.yaml:1: anchors (&a0) are not allowed" in proc.stdout


# ---------------------------------------------------------------- hypothesis

FRAGMENTS = [
    "name: ", "tiles: ", "description: ", "cases:", "- ", "  ", "\n", "&a ", "*a", "&b [", "*b, *b]", "!!python/object ",
    "!!str ", "!tag ", "[", "]", "{", "}", ", ", ": ", "? ", "'", '"', "\\e", "#", "---", "...", "|", ">",
    "abcdefghijklmnopqrstu", "AbcDefghijklmnopqrstU", "9" * 30, "1e999", ".nan", "~", "2001-13-45",
    "<<: *a", "\t", "\x00", "\x1b", "[/]", "[@click=app.quit]", "é", "\ufeff", "%YAML 1.1\n",
    "stages:", "- {stage: ", "stage: ", "avenue-corso-paseo", "variant: meteo", "}",
]
yaml_texts = st.lists(st.sampled_from(FRAGMENTS), max_size=40).map("".join)
FAST = settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))


@pytest.mark.slow  # the long run: only with --slow (the README's test command, first) or -m slow
@FAST
@given(text=yaml_texts)
def test_random_hostile_yaml(text):
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = write(Path(folder), "random.yaml", text.encode("utf-8", "surrogatepass"))
        for read in stage_readers(path) + yaml_readers(path) + tour_readers(path) + settings_readers(path):
            outcome(read, "random.yaml")


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**20), 10**20) | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=20,
)


@pytest.fixture(scope="module")
def real_saves(tmp_path_factory) -> list[dict]:
    """A race's save (format 1) and a tour's (format 2: its first stage done)."""
    from flamme_tui.play.races import COLOURS, RaceSpec, Team
    from flamme_tui.play.session import Session

    teams = tuple(Team(c.capitalize(), c) for c in COLOURS[:3])
    session = Session.new(RaceSpec(variant="meteo", teams=teams), 8, {s: "easy" for s in range(3)})
    for _ in range(4):
        session.play_bots()
    race = saves.save(session, tmp_path_factory.mktemp("real") / "real.json")
    tour = tours.stage_session(tours.Tour.new(tours.stages_option("avenue-corso-paseo,la-haut-montagne:meteo"),
                                              teams, 8), {s: "easy" for s in range(3)})
    while not tour.over:
        tour.play_bots()
    tour = tours.next_session(tour)
    for _ in range(3):
        tour.play_bots()
    tour_path = saves.save(tour, tmp_path_factory.mktemp("real") / "tour.json")
    assert saves.peek(tour_path).tour
    return [json.loads(race.read_text()), json.loads(tour_path.read_text())]


def paths_in(doc: object, where: tuple = ()) -> list[tuple]:
    out = [where]
    if isinstance(doc, dict):
        for key, value in doc.items():
            out += paths_in(value, (*where, key))
    elif isinstance(doc, list):
        for i, value in enumerate(doc[:3]):
            out += paths_in(value, (*where, i))
    return out


@pytest.mark.slow  # the long run: only with --slow (the README's test command, first) or -m slow
@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_random_field_of_a_save_with_recomputed_checksum(real_saves, data):
    """Any field replaced by any JSON value, checksum recomputed: the save is
    refused with one line, fast, or loads and replays."""
    import copy
    import tempfile

    doc = copy.deepcopy(data.draw(st.sampled_from(real_saves)))
    where = data.draw(st.sampled_from([p for p in paths_in(doc) if p and p[0] != "checksum"]))
    value = data.draw(json_values | st.integers(-(10**12), 10**12))
    parent = doc
    for part in where[:-1]:
        parent = parent[part]
    parent[where[-1]] = value
    doc["checksum"] = saves._checksum(doc) if _json_ok(doc) else doc["checksum"]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "crafted.json"
        path.write_text(json.dumps(doc))
        for read in save_readers(path):
            outcome(read, "crafted.json")


def _json_ok(doc: dict) -> bool:
    try:
        saves._canonical(doc)
        return True
    except (TypeError, ValueError):
        return False


@pytest.mark.slow  # the long run: only with --slow (the README's test command, first) or -m slow
@FAST
@given(value=json_values)
def test_random_json_as_a_save(value):
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "random.json"
        path.write_text(json.dumps(value))
        for read in save_readers(path) + settings_readers(path):
            outcome(read, "random.json")


def test_files_module_bounds_every_kind():
    """Each kind of file has its caps, and they are well under a megabyte
    except for saves."""
    for kind in (files.STAGE_FILE, files.DATA_FILE, files.CASE_FILE):
        assert kind.max_bytes < 1024 * 1024 and kind.max_depth <= 16
    assert files.SAVE_FILE.max_bytes <= 8 * 1024 * 1024


# ------------------------------------------------- files at the size bound (issue 23)
# Each reader gets files as large as it accepts, of the shapes that were
# slowest for the previous code (flamme_tui/bench_readers.py makes them and
# times them at 1x, 4x and 16x): a JSON string full of escaped quotes and never
# closed (the depth check rescanned from every quote: about 60 s for a 64 KB
# settings file, hours for a 4 MB save), many bad keys (each problem's line was
# looked up by a scan of its mapping), many cases of one name (counted once per
# case).  `outcome` fails any read that takes SLOW seconds of CPU time: the
# largest files take a second or so of it, and a busy machine can make the
# wall time several times that (none of these reads waits on anything).


def at_bound(shapes: dict, shape: str, kind: files.FileKind) -> bytes:
    data = shapes[shape](kind.max_bytes)
    assert kind.max_bytes * 0.9 < len(data) <= kind.max_bytes, (shape, len(data))
    return data


BOUND = [
    # (reader, its file kind, readers of a path, shapes)
    ("save", files.SAVE_FILE, save_readers, bench_readers.JSON_SHAPES,
     ["escaped quotes, unterminated", "open strings and brackets"]),
    ("settings", user_settings.SETTINGS_FILE, settings_readers, bench_readers.JSON_SHAPES,
     ["escaped quotes, unterminated", "open strings and brackets", "many keys"]),
    ("stage", files.STAGE_FILE, stage_readers, bench_readers.YAML_SHAPES, ["many keys"]),
    ("tour", files.DATA_FILE, tour_readers, bench_readers.YAML_SHAPES, ["many keys"]),
    ("case file", files.CASE_FILE, lambda path: [lambda: conformance.load_cases(path)], bench_readers.CASE_SHAPES,
     ["many cases, one name"]),
    ("data file", files.DATA_FILE, lambda path: yaml_readers(path)[:1], bench_readers.YAML_SHAPES, ["many keys"]),
]


@pytest.mark.parametrize("reader, kind, readers, shapes, names", BOUND, ids=[b[0] for b in BOUND])
def test_every_reader_at_its_size_bound(tmp_path, reader, kind, readers, shapes, names):
    suffix = ".json" if shapes is bench_readers.JSON_SHAPES else ".yaml"
    for name in names:
        path = write(tmp_path, name.replace(" ", "-").replace(",", "") + suffix, at_bound(shapes, name, kind))
        for read in readers(path):
            outcome(read, path.name[:10], clock=time.process_time)


def test_a_tour_save_whose_course_lost_its_tiles_is_refused_in_one_line(real_saves, tmp_path):
    """Found by the field fuzz above: a tour's set-up course with no tiles (checksum recomputed)
    made the stage's finish cap read `tiles[-1]`: an IndexError out of the reader."""
    import copy

    doc = copy.deepcopy(real_saves[1])
    found = [p for p in paths_in(doc) if p and p[-1] == "tiles"]
    assert found  # (the tour's set-up names its course's tiles)
    for where in found:
        parent = doc
        for part in where[:-1]:
            parent = parent[part]
        parent[where[-1]] = []
    doc["checksum"] = saves._checksum(doc)
    path = tmp_path / "crafted.json"
    path.write_text(json.dumps(doc))
    for read in save_readers(path):
        outcome(read, "crafted.json")
