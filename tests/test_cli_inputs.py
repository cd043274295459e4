"""Every command line a user can type: every `--help` renders, and every
option and argument of every command, given a bad value, ends in exit status
2 with one line that says what is wrong, never a traceback.

The commands are found by walking the parsers, so a new command or option is
covered (or, for a new free-text option, this file says it needs bad values).
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

import flamme_tui
from flamme_tui import cli
from flamme_tui.cli import Whole, build_parser, main, milliseconds, seconds
from flamme_tui.ui import bench as ui_bench
from flamme_tui.ui import choices

BENCH = ("python -m flamme_tui.ui.bench",)  # the UI speed tool: its own parser


def walk(parser: argparse.ArgumentParser, prefix: tuple[str, ...] = ()):
    """(words before the options, parser) for a parser and all its sub-commands."""
    yield prefix, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from walk(sub, (*prefix, name))


PARSERS = [*walk(build_parser()), (BENCH, ui_bench.build_parser())]


def run_main(prefix: tuple[str, ...], argv: list[str]) -> int:
    """The command in this process; its exit status."""
    entry = ui_bench.main if prefix[:1] == BENCH else main
    words = [*prefix[1:], *argv] if prefix[:1] == BENCH else [*prefix, *argv]
    try:
        return entry(words)
    except SystemExit as exc:
        return 0 if exc.code is None else exc.code


def run(*args: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "flamme_tui", *args], capture_output=True, text=True,
                          timeout=120, **kw)


# ----------------------------------------------------------------------- help


def name(prefix: tuple[str, ...]) -> str:
    return " ".join(prefix) or "flamme-tui"


@pytest.mark.parametrize("prefix, parser", PARSERS, ids=[name(p) for p, _ in PARSERS])
def test_every_help_renders(prefix, parser, capsys):
    assert run_main(prefix, ["--help"]) == 0
    out = capsys.readouterr()
    assert out.out.startswith("usage: ") and out.err == ""
    assert "%%" not in out.out  # a description is not %-formatted: its %% would be printed as it is
    documented = [a for a in parser._actions if a.help != argparse.SUPPRESS and a.dest != "help"]
    for action in documented:  # every visible option and argument is in the help
        assert (action.option_strings[-1] if action.option_strings else action.metavar or action.dest) in out.out


def test_a_percent_sign_in_a_help_text_is_written_twice():
    # argparse expands %(...)s in help texts: "95% intervals" crashed `flamme-tui --help`
    assert "95% intervals" in build_parser().format_help()


@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_top_level_help_in_a_real_process(flag):
    proc = run(flag)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("usage: flamme-tui") and "tournament" in proc.stdout
    assert proc.stderr == ""


def test_version_in_a_real_process():
    """`flamme-tui --version` prints the package's version (it was refused: issue 23)."""
    import tomllib

    version = tomllib.loads((Path(__file__).parent.parent / "pyproject.toml").read_text())["project"]["version"]
    proc = run("--version")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == f"flamme-tui {version}\n" and proc.stderr == ""


def test_ui_bench_help_in_a_real_process():
    proc = subprocess.run([sys.executable, "-m", "flamme_tui.ui.bench", "--help"], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0 and proc.stdout.startswith("usage: python -m flamme_tui.ui.bench")


# ------------------------------------------------------------------ bad values

# Bad values for the options and arguments that take free text (ids, paths,
# lists): the command must refuse them itself.  {loop} is a symlink loop,
# {dir} a folder, {long} a name too long for the system, {missing} nothing;
# hostile files: {fifo}, {zero} (/dev/zero), {big} (60 MB), {bomb} (a YAML
# alias bomb), {deep} (10,000 levels of nesting).  "bomb" and "deep" are
# also a user stage's and a user tour's ids.
# Each entry: the words to put before the bad value (the option itself, and
# what makes the rest of the command line valid), then the bad values.
HOSTILE_FILES = ["{fifo}", "{zero}", "{big}", "{bomb}", "{deep}"]
FREE_TEXT: dict[tuple[tuple[str, ...], str], tuple[list[str], list[str]]] = {
    (("conformance",), "paths"): ([], ["{missing}", "{loop}", "{long}", *HOSTILE_FILES]),
    (("race",), "stage"): (["--stage"], ["no-such-stage", "{missing}.yaml", "{loop}", "{dir}", "{long}.yaml",
                                         "{long}", *HOSTILE_FILES, "bomb", "deep"]),
    (("race",), "circuit"): (["--variant", "bmx", "--circuit"], ["zz", "ABCDE", ""]),
    (("race",), "bots"): (["--bots"], ["nobody", "easy,easy", "easy,medium,hard,easy,easy", "peloton",
                                       "hard-before,easy,easy,easy"]),
    (("race",), "from_file"): (["--from"], ["{missing}", "{loop}", "{dir}", "{long}", *HOSTILE_FILES]),
    # what a failing autosave does is the save tests' business (tests/test_saves.py)
    (("race",), "autosave"): (["--autosave"], []),
    # a host that is no address of this machine, or that no resolver takes: said before serving
    (("serve",), "host"): (["--host"], ["999.1.1.1", "no-such-host.invalid", "x\x1b]0;pwned\x07", "a" * 300, "",
                                        "192.0.2.1"]),
    (("serve",), "port"): (["--port"], ["0", "65536", "http", "-1"]),
    # host takes race's set-up options (its --bots also `device`), serve's --host and --port: each refused
    # before anything listens
    (("host",), "stage"): (["--stage"], ["no-such-stage", "{missing}.yaml", "{loop}", "{dir}", "{long}.yaml",
                                         "{long}", *HOSTILE_FILES, "bomb", "deep"]),
    (("host",), "circuit"): (["--variant", "bmx", "--circuit"], ["zz", "ABCDE", ""]),
    (("host",), "bots"): (["--bots"], ["nobody", "easy,easy", "easy,medium,hard,easy,easy", "peloton",
                                       "hard-before,easy,easy,easy", "easy,easy,easy,easy", "device,device,nobody,easy",
                                       "device,device,device,device,device", "x\x1b]0;pwned\x07"]),
    (("host",), "from_file"): (["--from"], ["{missing}", "{loop}", "{dir}", "{long}", *HOSTILE_FILES]),
    (("host",), "saves"): (["--saves"], ["{loop}", "{long}", "{zero}", "{fifo}", "{big}"]),
    (("host",), "host"): (["--host"], ["999.1.1.1", "no-such-host.invalid", "x\x1b]0;pwned\x07", "a" * 300, "",
                                       "192.0.2.1"]),
    (("host",), "port"): (["--port"], ["0", "65536", "http", "-1", ""]),
    (("host",), "web_port"): (["--web-port"], ["65536", "http", "-1", ""]),
    # join: an address or a code not of the form the host prints, refused before the app opens
    (("join",), "address"): ([], ["", "nohost", "ftp://127.0.0.1:9", "http://:9", "127.0.0.1:99999", "127.0.0.1:x",
                                  "x\x1b]0;pwned\x07:9", "a" * 300 + ":9", "127.0.0.1:9/" + "a" * 5000,
                                  "127.0.0.1:9\n"]),
    (("join",), "code"): (["127.0.0.1:9"], ["", "ABC", "ABCDEF", "K7QM-4XPD-9RT", "K7QM-4XPD-9RTAA", "IIIII",
                                            "x\x1b]0;pwned\x07", "A" * 300, "ÀBCDE"]),
    (("replay",), "file"): ([], ["{missing}", "{loop}", "{dir}", "{long}", *HOSTILE_FILES]),
    (("coach",), "file"): ([], ["{missing}", "{loop}", "{dir}", "{long}", *HOSTILE_FILES]),
    (("tutorial",), "lesson"): ([], ["no-such-lesson", "", "x\x1b]0;pwned\x07", "a" * 300, "../classic"]),
    (("stages", "check"), "paths"): ([], ["{missing}", "{loop}", "{long}", *HOSTILE_FILES, "fr1:abcb",
                                          "fr1:" + "b" * 5000, "fr1:a\x1b]0;pwned\x07u"]),
    (("stages", "random"), "boxes"): (["--boxes"], ["peloton", "base,meteo", "", ",", "x" * 300, "base\x1b[2J"]),
    (("bench",), "stage"): (["--stage"], ["no-such-stage", "{loop}", "{dir}", "{bomb}", "bomb"]),
    (("bench",), "circuit"): (["--variant", "bmx", "--circuit"], ["zz"]),
    (("tournament",), "bots"): ([], ["easy nobody", "easy", "easy easy easy easy easy easy easy", "peloton muscle",
                                     "expert hard-after"]),
    (("tournament",), "stage"): (["--stage"], ["no-such-stage", "{loop}", "bomb"]),
    ((), "resume"): (["--resume"], ["{missing}", "{loop}", "{dir}", "{long}", *HOSTILE_FILES]),
    (("tours", "check"), "paths"): ([], ["{missing}", "{loop}", "{long}", *HOSTILE_FILES]),
    (("tour",), "tour"): (["--tour"], ["no-such-tour", "{missing}.yaml", "{loop}", "{dir}", "{long}", *HOSTILE_FILES,
                                       "bomb", "deep"]),
    (("tour",), "stages"): (["--stages"], ["no-such-stage", "", ",", "avenue-corso-paseo:bmx", "{loop}", "bomb",
                                           "avenue-corso-paseo,deep:meteo"]),
    (("tour",), "bots"): (["--bots"], ["nobody", "easy,nobody", "easy,easy,easy,easy,easy", "peloton,muscle"]),
    (("tour",), "from_file"): (["--from"], ["{missing}", "{loop}", "{dir}", "{long}", *HOSTILE_FILES]),
    (("tour",), "autosave"): (["--autosave"], []),  # as race --autosave: the save tests' business
    (("tournament",), "tour"): (["--tour"], ["no-such-tour", "{missing}.yaml", "{loop}", "{dir}", "{long}"]),
    # a missing results file is a new ladder; anything but a ladder's results is refused, untouched
    (("ladder",), "file"): (["--file"], ["{loop}", "{dir}", "{long}", *HOSTILE_FILES]),
    (("ladder",), "bots"): (["--bots"], ["nobody", "", ",", "easy,easy", "medium,hard", "easy,medium,banana",
                                         "x\x1b]0;pwned\x07"]),
    (("ladder",), "only"): (["--only"], ["alps", "", ",", "flat,alps"]),
}

# what a command needs to run at all (a bad value is added to it)
BASE = {("tournament",): ["easy", "easy", "-n", "1", "-j", "1"], ("bench",): ["-n", "1"],
        ("conformance",): ["{missing}"], ("replay",): ["{missing}"], ("stages", "check"): ["{missing}"],
        ("tours", "check"): ["{missing}"], ("ladder",): ["--bots", "easy,medium", "--only", "bmx", "-n", "1", "-j", "1",
                                                         "--file", "{missing}"]}

# options valid only in some variants: given in the wrong one they are refused
BMX_ONLY = {"circuit": "ABCD", "ramp": "10:3", "young": "1:2", "forecast": None}


def typed_bad_values(action: argparse.Action) -> list[str]:
    """Values argparse itself must refuse, from the option's type and choices."""
    kind = action.type
    if isinstance(kind, Whole):
        return [str(kind.low - 1), str(kind.high + 1), "x", "1.5", "", "9" * 5000]
    if kind is milliseconds:
        return ["-1", "60001", "nan", "inf", "x"]
    if kind is seconds:  # a bot's thinking time
        return ["0", "0.001", "-1", "61", "nan", "inf", "x", ""]
    if kind is cli._pair:
        return ["x", "1:2:3", "a:b", "10"]
    if kind is ui_bench.terminal_size:
        return ["foo", "39x24", "80x201", "80x", "80x24x3"]
    if action.choices is not None:
        numbers = [str(max(action.choices) + 1), "x"] if kind is int else []
        return ["no-such-choice", *numbers]
    return []


def bad_cases():
    """(id, prefix, argv, needs the fixture paths) for every option and argument."""
    cases = []
    for prefix, parser in PARSERS:
        base = BASE.get(prefix, [])
        for action in parser._actions:
            if isinstance(action, (argparse._HelpAction, argparse._SubParsersAction)):
                continue
            flag = action.option_strings[-1] if action.option_strings else None
            label = f"{name(prefix)} {flag or action.dest}"
            values: list[list[str]] = []
            if flag and action.nargs == 0:
                values.append([f"{flag}=oops"])  # a switch given a value
            elif flag:
                if action.nargs != "?":
                    values.append([flag])  # the value is missing
                values += [[flag, v] for v in typed_bad_values(action)]
            if (prefix, action.dest) in FREE_TEXT:
                before, texts = FREE_TEXT[(prefix, action.dest)]
                values += [[*before, v] for v in texts] if flag or before else [[v] for v in texts]
            if flag and action.dest in BMX_ONLY and prefix in (("race",), ("bench",)):
                good = BMX_ONLY[action.dest]
                values.append([flag] if good is None else [flag, good])  # in a classic race
            for k, argv in enumerate(values):
                words = argv if action.dest in ("paths", "file", "bots") and not flag else [*base, *argv]
                if prefix == ("tournament",) and action.dest == "bots":
                    words = [*argv[0].split(), "-n", "1", "-j", "1"]
                cases.append(pytest.param(prefix, words, id=f"{label} #{k + 1}"))
    return cases


CASES = bad_cases()


def covered_actions() -> set[str]:
    return {re.sub(r" #\d+$", "", p.id) for p in CASES}


def test_every_option_and_argument_has_bad_values():
    missing = []
    for prefix, parser in PARSERS:
        for action in parser._actions:
            if isinstance(action, (argparse._HelpAction, argparse._SubParsersAction)):
                continue
            flag = action.option_strings[-1] if action.option_strings else None
            label = f"{name(prefix)} {flag or action.dest}"
            if label not in covered_actions():
                missing.append(label)
            free = flag is None or (action.nargs != 0 and not typed_bad_values(action))
            if free and (prefix, action.dest) not in FREE_TEXT:
                missing.append(f"{label} (free text: add bad values to FREE_TEXT)")
    assert not missing
    assert len(CASES) > 100


BOMB = "\n".join(["a0: &a0 [x]"] + [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, 9)])
DEEP = "name: " + "[" * 10_000 + "]" * 10_000 + "\n"


@pytest.fixture
def odd_paths(tmp_path, monkeypatch):
    loop = tmp_path / "loop"
    loop.symlink_to(tmp_path / "loop2")
    (tmp_path / "loop2").symlink_to(loop)
    folder = tmp_path / "folder.yaml"
    folder.mkdir()
    os.mkfifo(tmp_path / "fifo.yaml")
    (tmp_path / "zero.yaml").symlink_to("/dev/zero")
    with open(tmp_path / "big.yaml", "wb") as fh:
        fh.truncate(60 * 1024 * 1024)  # sparse: 60 MB that take no room
    data = tmp_path / "data"
    for sub in ("stages", "tours"):  # hostile user stages and tours, by id
        (data / sub).mkdir(parents=True)
        (data / sub / "bomb.yaml").write_text(BOMB + "\nname: *a8\n")
        (data / sub / "deep.yaml").write_text(DEEP)
    monkeypatch.setenv("FLAMME_TUI_DATA_DIR", str(data))
    monkeypatch.chdir(tmp_path)
    return {"{loop}": str(loop), "{dir}": str(folder), "{long}": str(tmp_path / ("a" * 300)),
            "{missing}": str(tmp_path / "no-such-file"), "{fifo}": str(tmp_path / "fifo.yaml"),
            "{zero}": str(tmp_path / "zero.yaml"), "{big}": str(tmp_path / "big.yaml"),
            "{bomb}": str(data / "stages" / "bomb.yaml"), "{deep}": str(data / "stages" / "deep.yaml")}


def fill(words: list[str], odd: dict[str, str]) -> list[str]:
    """The words with the odd paths put in."""
    out = []
    for word in words:
        for mark, path in odd.items():
            word = word.replace(mark, path)
        out.append(word)
    return out


SUMMARIES = re.compile(r"^(\d+ passed, \d+ failed|\d+ of \d+ (stage|tour) files? with problems)$")


def check_one_line(out: str, err: str) -> None:
    assert "Traceback" not in out + err
    lines = [line for line in (out + err).splitlines() if not SUMMARIES.match(line)]
    assert len(lines) == 1, lines
    assert "\x1b" not in lines[0]


@pytest.fixture
def never_starts(monkeypatch):
    """A bad value must be refused before a table is hosted or the join app opens:
    either would wait for players, so here it fails at once instead of hanging."""
    from flamme_tui.cli import host
    from flamme_tui.ui import join

    def started(*args, **kw):
        raise AssertionError("started hosting or opened the app with a bad value")

    monkeypatch.setattr(host, "_serve", started)
    monkeypatch.setattr(join, "run", started)


@pytest.mark.parametrize("prefix, argv", CASES)
def test_a_bad_value_is_exit_2_and_one_line(prefix, argv, odd_paths, never_starts, capsys):
    assert run_main(prefix, fill(argv, odd_paths)) == 2
    out = capsys.readouterr()
    check_one_line(out.out, out.err)


def test_bad_values_in_real_processes(odd_paths, tmp_path):
    """The entry point itself: a few cases of each command, each in its own process."""
    seen: set[tuple[str, ...]] = set()
    ran = 0
    for case in CASES:
        prefix, argv = case.values
        if prefix in seen or prefix[:1] == BENCH:
            continue
        seen.add(prefix)
        argv = fill(argv, odd_paths)
        proc = run(*prefix, *argv, cwd=tmp_path)
        assert proc.returncode == 2, (prefix, argv, proc.stdout, proc.stderr)
        check_one_line(proc.stdout, proc.stderr)
        ran += 1
    for argv in (["race", "--stage", odd_paths["{loop}"]], ["replay", odd_paths["{loop}"]],
                 ["--resume", odd_paths["{long}"]], ["race", "--seed", "-3"]):
        proc = run(*argv, cwd=tmp_path)
        assert proc.returncode == 2, (argv, proc.stderr)
        check_one_line(proc.stdout, proc.stderr)
    assert ran >= 6


def test_serve_on_a_port_in_use_is_one_line(capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert run_main(("serve",), ["--port", str(port)]) == 2
    out = capsys.readouterr()
    check_one_line(out.out, out.err)
    assert f"cannot serve on 127.0.0.1:{port}: Address already in use" in out.err


def test_control_characters_typed_are_shown_escaped(capsys):
    assert run_main(("race",), ["--bots", "x\x1b]0;pwned\x07"]) == 2
    assert run_main(("race",), ["--nope\x1b[2J"]) == 2
    out = capsys.readouterr()
    assert "\x1b" not in out.err and "\x07" not in out.err
    assert len(out.err.splitlines()) == 2


def test_a_bot_name_not_known_is_named_as_typed(capsys):
    # one name stands for every seat: the line said (got 'nope,nope,nope,nope')
    for bots in ("nope", "easy,nope,easy,nope"):
        assert run_main(("race",), ["--bots", bots]) == 2
        assert "no bot is named 'nope': name 4 from" in capsys.readouterr().err


@pytest.mark.parametrize("modes", [["--bot", "easy", "--hint"], ["--readers", "--net"], ["--hint", "--net"]])
def test_bench_measures_one_thing_a_run(capsys, modes):
    # each of these ran one measure and dropped the other without a word
    assert run_main(("bench",), modes) == 2
    assert "not allowed with argument" in capsys.readouterr().err


# ----------------------------------------------------------------------- seeds


def test_seeds_are_the_documented_range_shared_with_the_app(capsys):
    assert choices.MAX_SEED is flamme_tui.MAX_SEED  # the teams screen's seed field
    help_text = dict(PARSERS)[("race",)].format_help()
    assert f"0 to {flamme_tui.MAX_SEED}" in help_text
    assert run_main(("race",), ["--seed", str(flamme_tui.MAX_SEED), "--teams", "2"]) == 0
    assert run_main(("race",), ["--seed", "0", "--teams", "2"]) == 0
    capsys.readouterr()
    for bad in ("-1", "-7", str(flamme_tui.MAX_SEED + 1)):  # -N used to give the race of N
        assert run_main(("race",), ["--seed", bad]) == 2
        assert "0 to 999999" in capsys.readouterr().err


def test_app_seed_field_holds_no_more_than_the_bound():
    from flamme_tui.ui.screens import teams

    source = Path(teams.__file__).read_text()
    assert "max_length=len(str(MAX_SEED))" in source
    assert choices.random_seed() <= flamme_tui.MAX_SEED


# -------------------------------------------------------------------- ctrl+c


def interrupt(argv: list[str], ready) -> subprocess.CompletedProcess:
    """Start the command in its own process group, wait until `ready(proc)`, then
    press ctrl+c (SIGINT to the whole group, as a terminal does) until it stops."""
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    # ctrl+c as a terminal's shell starts a command: SIGINT at its default (an ignored
    # signal is inherited through exec, and Python then never raises KeyboardInterrupt)
    proc = subprocess.Popen([sys.executable, "-m", "flamme_tui", *argv], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env, start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + 60
        while not ready(proc):
            assert time.monotonic() < deadline, "the command never got going"
            assert proc.poll() is None, "the command ended before ctrl+c"
            time.sleep(0.05)
        # pressed again if it landed where ctrl+c is ignored (starting the workers); not waiting long
        # for that: a tournament's workers race on both cores meanwhile (10 s of them a run)
        for _ in range(60):
            os.killpg(proc.pid, signal.SIGINT)
            try:
                out, err = proc.communicate(timeout=2)
                break
            except subprocess.TimeoutExpired:
                continue
        else:
            raise AssertionError("ctrl+c did not stop the command")
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    return subprocess.CompletedProcess(argv, proc.returncode, out, err)


def first_line(proc) -> bool:
    return bool(proc.stdout.readline())


def children(proc) -> bool:
    try:
        return len(Path(f"/proc/{proc.pid}/task/{proc.pid}/children").read_text().split()) >= 2
    except OSError:
        return False


def test_ctrl_c_during_a_race_is_one_line_status_130():
    proc = interrupt(["race", "--bots", "hard", "--seed", "3"], first_line)
    assert proc.returncode == 130
    assert proc.stderr == "flamme-tui: interrupted\n"


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs /proc to see the worker processes")
def test_ctrl_c_during_a_tournament_stops_every_process_quietly():
    proc = interrupt(["tournament", "hard", "hard", "-n", "400", "-j", "2"], children)
    assert proc.returncode == 130
    assert proc.stderr == "flamme-tui: interrupted\n"  # nothing from the workers
    assert proc.stdout == ""


@pytest.fixture
def sigint_restored():
    """The commands ignore a second ctrl+c once stopping: give this process its handler back."""
    previous = signal.getsignal(signal.SIGINT)
    yield
    signal.signal(signal.SIGINT, previous)


def test_ctrl_c_in_bench_and_other_commands(monkeypatch, capsys, sigint_restored):
    from flamme_tui import bots

    def pressed(view):
        raise KeyboardInterrupt

    monkeypatch.setitem(bots.POLICIES, "hard", pressed)
    assert main(["bench", "--bot", "hard", "-n", "1"]) == 130
    assert capsys.readouterr().err == "flamme-tui: interrupted\n"
    monkeypatch.setattr(ui_bench, "bench_startup", pressed)
    assert ui_bench.main(["--runs", "1"]) == 130
    assert capsys.readouterr().err == "python -m flamme_tui.ui.bench: interrupted\n"
