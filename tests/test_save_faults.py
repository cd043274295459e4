"""Disk faults, locks and planted files around the save writer.

A full disk, a read-only saves folder and a data dir that is a file: the
race goes on, the failure is told once with its reason, and the last good
save is never damaged.  Real faults where the machine allows them (a tiny
tmpfs, mounted read-only; needs root), the same faults by monkeypatching
everywhere.  Locks are tried with two real processes.
"""

from __future__ import annotations

import errno
import os
import re
import shutil
import signal
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

import pytest
from test_saves import new_session, play

from flamme_tui import saves, usertext
from flamme_tui.cli import main
from flamme_tui.saves import SaveLocked


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    folder = tmp_path / "data"
    monkeypatch.setenv("FLAMME_TUI_DATA_DIR", str(folder))
    return folder


def files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file() and not p.name.endswith(".lock")}


# ------------------------------------------------------------ real faults


@contextmanager
def tmpfs(where: Path, size: str = "2m"):
    """A tiny file system of its own at `where` (skips where mounting is not allowed)."""
    if sys.platform != "linux" or os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a tmpfs needs root on Linux")
    where.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
                          capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode(errors='replace').strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True)


def fill(folder: Path) -> None:
    """Take every free byte of the file system `folder` is on."""
    with open(folder / "filler", "wb", buffering=0) as fh:
        try:
            while True:
                fh.write(b"\0" * 4096)
                fh.flush()
        except OSError as exc:
            assert exc.errno == errno.ENOSPC


def check_goes_on_and_keeps_the_last_save(session, autosave, errors, folder, expected_problem):
    kept = files(folder)
    last = saves.peek(autosave.path).actions
    play(session, 6)
    assert len(session.game.actions) == last + 6  # the race goes on
    assert len(errors) == 1  # told once
    assert saves.save_problem(errors[0]) == f"{expected_problem} ({folder})"
    assert not autosave.saved and autosave.saved_actions in (last, None)
    assert files(folder) == kept  # the last good save and its backups untouched, no temporary file left
    assert saves.load(autosave.path).game.actions == session.game.actions[:last]


def test_real_full_disk(tmp_path):
    with tmpfs(tmp_path / "disk") as disk:
        session = new_session("classic", seed=3)
        errors: list = []
        autosave = saves.attach_autosave(session, disk / "race.json", on_error=errors.append)
        play(session, 4)
        fill(disk)
        check_goes_on_and_keeps_the_last_save(session, autosave, errors, disk, "the disk is full")
        (disk / "filler").unlink()
        play(session, 1)
        assert autosave.saved and saves.load(autosave.path).game.actions == session.game.actions


def test_real_read_only_folder(tmp_path):
    """A race resumed on a disk that became read-only since it was saved."""
    with tmpfs(tmp_path / "disk") as disk:
        session = new_session("meteo", seed=3)
        autosave = saves.attach_autosave(session, disk / "race.json")
        play(session, 4)
        autosave.detach()
        subprocess.run(["mount", "-o", "remount,ro", str(disk)], check=True)
        try:
            session = saves.load(disk / "race.json")
            errors: list = []
            autosave = saves.attach_autosave(session, on_error=errors.append)
            assert len(errors) == 1 and autosave.saved_actions is None
            check_goes_on_and_keeps_the_last_save(session, autosave, errors, disk, "the disk is read-only")
        finally:
            subprocess.run(["mount", "-o", "remount,rw", str(disk)], check=True)


def test_real_read_only_disk_without_a_saves_folder(tmp_path):
    """The data dir on a read-only disk, its saves folder not made yet: the
    reason given is the read-only disk, not a missing lock file."""
    with tmpfs(tmp_path / "disk") as disk:
        subprocess.run(["mount", "-o", "remount,ro", str(disk)], check=True)
        try:
            session = new_session("classic", seed=4)
            errors: list = []
            autosave = saves.attach_autosave(session, disk / "saves" / "race.json", on_error=errors.append)
            play(session, 3)
            assert len(errors) == 1 and autosave.saved_actions is None
            assert saves.save_problem(errors[0]) == f"the disk is read-only ({disk})"
        finally:
            subprocess.run(["mount", "-o", "remount,rw", str(disk)], check=True)


# ------------------------------------------------------ the same, patched


def failing_writes(monkeypatch, code: int) -> None:
    """Every write into a save's temporary file fails with `code` (as the disk would)."""
    real_write = os.write

    def write(fd, data):
        if os.readlink(f"/proc/self/fd/{fd}").endswith(".tmp"):
            raise OSError(code, os.strerror(code))
        return real_write(fd, data)

    monkeypatch.setattr(os, "write", write)


def failing_creates(monkeypatch, folder: Path, code: int) -> None:
    """Nothing new can be made in `folder` (a read-only folder, even for root)."""
    real_open = os.open

    def opener(path, flags, *args, **kwargs):
        if Path(path).parent == folder and flags & os.O_CREAT:
            raise OSError(code, os.strerror(code), str(path))
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", opener)


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc")
def test_full_disk(tmp_path, monkeypatch):
    session = new_session("bmx", seed=3)
    errors: list = []
    autosave = saves.attach_autosave(session, tmp_path / "race.json", on_error=errors.append)
    play(session, 4)
    failing_writes(monkeypatch, errno.ENOSPC)
    check_goes_on_and_keeps_the_last_save(session, autosave, errors, tmp_path, "the disk is full")


def test_read_only_folder(tmp_path, monkeypatch):
    session = new_session("classic", seed=5)
    errors: list = []
    autosave = saves.attach_autosave(session, tmp_path / "race.json", on_error=errors.append)
    play(session, 4)
    failing_creates(monkeypatch, tmp_path, errno.EROFS)
    check_goes_on_and_keeps_the_last_save(session, autosave, errors, tmp_path, "the disk is read-only")


def test_no_permission(tmp_path, monkeypatch):
    session = new_session("classic", seed=5)
    errors: list = []
    autosave = saves.attach_autosave(session, tmp_path / "race.json", on_error=errors.append)
    play(session, 2)
    failing_creates(monkeypatch, tmp_path, errno.EACCES)
    check_goes_on_and_keeps_the_last_save(session, autosave, errors, tmp_path, "no permission to write there")


@pytest.mark.parametrize("where", ["data", "saves"])
def test_data_dir_or_saves_folder_that_is_a_file(data_dir, where):
    blocker = data_dir if where == "data" else data_dir / "saves"
    blocker.parent.mkdir(parents=True, exist_ok=True)
    blocker.write_text("a file where a folder should be")
    session = new_session("classic")
    errors: list = []
    autosave = saves.attach_autosave(session, on_error=errors.append)
    play(session, 5)
    assert len(session.game.actions) == 5 and len(errors) == 1
    assert saves.save_problem(errors[0]) == f"the saves folder is not a folder ({blocker} is a file)"
    assert autosave.saved_actions is None and not autosave.saved
    assert blocker.read_text() == "a file where a folder should be"
    assert saves.list_saves() == [] and saves.latest_in_progress() is None


@pytest.mark.parametrize("kind, words", [("loop", "the saves folder is a symlink loop"),
                                         ("dangling", "the saves folder is a symbolic link to nothing")])
def test_a_saves_folder_that_is_a_bad_symlink_is_said_as_such(data_dir, kind, words):
    """A saves folder that is a symlink loop or a link to nothing was told as
    "the saves folder is not a folder (DATA_DIR's parent)": mkdir said the
    link exists, and nothing in its way was a file."""
    data_dir.mkdir()
    (data_dir / "saves").symlink_to("saves" if kind == "loop" else "nowhere")
    session = new_session("classic", seed=4)
    errors: list = []
    autosave = saves.attach_autosave(session, on_error=errors.append)
    play(session, 3)
    assert len(errors) == 1 and autosave.saved_actions is None and len(session.game.actions) == 3
    assert saves.save_problem(errors[0]) == f"{words} ({data_dir / 'saves'})"


@pytest.mark.parametrize("code, words", [(errno.EROFS, "the disk is read-only"),
                                         (errno.EACCES, "no permission to write there")])
def test_a_saves_folder_that_cannot_be_made_says_why(data_dir, monkeypatch, code, words):
    """No saves folder yet, and none can be made: said with its reason (it
    was "No such file or directory": the lock file's, in a folder never made)."""
    data_dir.mkdir()
    real_mkdir = Path.mkdir

    def mkdir(self, *args, **kwargs):
        if self == data_dir / "saves":
            raise OSError(code, os.strerror(code), str(self))
        return real_mkdir(self, *args, **kwargs)

    monkeypatch.setattr(Path, "mkdir", mkdir)
    session = new_session("classic", seed=4)
    errors: list = []
    autosave = saves.attach_autosave(session, on_error=errors.append)
    play(session, 3)
    assert len(errors) == 1 and autosave.saved_actions is None and len(session.game.actions) == 3
    assert saves.save_problem(errors[0]) == f"{words} ({data_dir})"


@pytest.mark.parametrize("kind", ["file", "loop", "saves-file", "unreadable"])
def test_a_saves_folder_that_cannot_be_listed_is_said_not_taken_for_empty(data_dir, monkeypatch, capsys, kind):
    """`--resume` said "no race in progress" (and the app "No saved race
    yet") when the saves folder could not even be read."""
    if kind == "file":
        data_dir.write_text("not a folder")
    elif kind == "loop":
        data_dir.symlink_to(data_dir.name)
    else:
        (data_dir / "saves").parent.mkdir(parents=True)
        if kind == "saves-file":
            (data_dir / "saves").write_text("not a folder")
        else:  # root reads anything: the refusal is made where it happens
            (data_dir / "saves").mkdir()
            real = os.scandir

            def scandir(path="."):
                if Path(path) == data_dir / "saves":
                    raise PermissionError(errno.EACCES, "Permission denied", str(path))
                return real(path)

            monkeypatch.setattr(os, "scandir", scandir)
    expected = {"file": f"not a folder ({data_dir} is a file)", "loop": "too many levels of symbolic links",
                "saves-file": f"not a folder ({data_dir / 'saves'} is a file)", "unreadable": "permission denied"}[kind]
    problem = saves.folder_problem()
    assert problem is not None and problem.startswith(f"cannot list the saves folder {data_dir / 'saves'}: ")
    assert expected in problem and "\n" not in problem
    assert main(["--resume"]) == 2
    err = capsys.readouterr().err
    assert err == f"flamme-tui: {problem}\n" and "no race in progress" not in err


def test_an_empty_or_missing_saves_folder_is_no_problem(data_dir, capsys):
    assert saves.folder_problem() is None  # not made yet: no race was ever saved
    (data_dir / "saves").mkdir(parents=True)
    assert saves.folder_problem() is None
    assert main(["--resume"]) == 2
    assert "no race in progress to resume" in capsys.readouterr().err


def test_save_problem_is_one_printable_line(tmp_path):
    """A folder name is the user's: its control characters are written out."""
    folder = tmp_path / "d\x1b]0;pwned\x07\u202e"
    text = saves.save_problem(OSError(errno.ENOSPC, "No space", str(folder / ".race.json.1-ab.tmp")))
    assert text.startswith("the disk is full (") and "\\x1b]0;pwned\\x07\\u202e" in text
    assert not usertext.CONTROL.search(text)
    blocker = tmp_path / "f\x1b[2J"
    blocker.write_text("x")
    text = saves.save_problem(NotADirectoryError(errno.ENOTDIR, "not a folder", str(blocker / "saves")))
    assert "f\\x1b[2J is a file" in text and not usertext.CONTROL.search(text)


def test_save_problem_never_fails():
    assert saves.save_problem(OSError(errno.ENOSPC, "No space", "/x/.race.json.1-ab.tmp")) == "the disk is full (/x)"
    assert saves.save_problem(OSError("odd\x1b]0;title\x07")) == "odd?]0;title?"
    assert saves.save_problem(ValueError()) == "ValueError"

    class Hostile(OSError):
        def __str__(self):
            raise RuntimeError

        @property
        def errno(self):  # noqa: D401
            raise RuntimeError

    assert saves.save_problem(Hostile()) == "Hostile"


# --------------------------------------------------------- headless races


def test_race_autosave_reports_a_failed_save(tmp_path, monkeypatch, capsys):
    failing_creates(monkeypatch, tmp_path / "out", errno.ENOSPC)
    (tmp_path / "out").mkdir()
    assert main(["race", "--variant", "bmx", "--seed", "4", "--autosave", str(tmp_path / "out")]) == 1
    out, err = capsys.readouterr()
    assert "Final ranking" in out  # the race was played to its end
    lines = err.strip().splitlines()
    assert len([line for line in lines if "could not save the race: the disk is full" in line]) == 1
    assert "the race was not fully saved" in lines[-1] and "holds nothing" in lines[-1]
    assert "Traceback" not in err


def test_tour_autosave_says_a_failed_save_once(tmp_path, monkeypatch, capsys):
    """Each stage of a tour has its own Autosave: a disk full from the start
    was said once per stage (three times), not once as for a race."""
    failing_creates(monkeypatch, tmp_path / "out", errno.ENOSPC)
    (tmp_path / "out").mkdir()
    assert main(["tour", "--seed", "2", "--autosave", str(tmp_path / "out")]) == 1
    out, err = capsys.readouterr()
    assert "GC after stage 3" in out  # the tour was raced to its end
    assert err.count("could not save the tour: the disk is full") == 1
    assert "the tour was not fully saved" in err.strip().splitlines()[-1]
    assert "Traceback" not in err


def test_race_from_reports_a_failed_save(tmp_path, monkeypatch, capsys):
    session = new_session("classic", seed=6)
    path = saves.attach_autosave(session, tmp_path / "r.json").path
    play(session, 20)
    saves.attach_autosave(session).detach()
    kept = files(tmp_path)
    real_write_atomic = saves.write_atomic
    calls = []

    def flaky(target, data, keep=saves.KEEP):  # the first two saves go, then the disk is full
        calls.append(target)
        if len(calls) > 2:
            raise OSError(errno.ENOSPC, "No space left on device", str(target))
        real_write_atomic(target, data, keep)

    monkeypatch.setattr(saves.autosave, "write_atomic", flaky)
    assert main(["race", "--from", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.count("could not save the race: the disk is full") == 1
    assert "r-bots.json holds 21 of" in err.splitlines()[-1]
    assert {name: data for name, data in files(tmp_path).items() if name in kept} == kept
    assert saves.peek(tmp_path / "r-bots.json").actions == 21


# ------------------------------------------------------------ planted files


def test_temporary_file_never_follows_a_planted_symlink(tmp_path, monkeypatch):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    session = new_session("classic", seed=2)
    path = tmp_path / "race.json"
    names = iter(["aaaaaaaaaaaa"])
    real = saves.writing.secrets.token_hex
    monkeypatch.setattr(saves.writing.secrets, "token_hex", lambda n: next(names, None) or real(n))
    # a link at the name this process would take first (and at the old fixed name)
    for name in (f".race.json.{os.getpid()}-aaaaaaaaaaaa.tmp", f".race.json.{os.getpid()}.tmp"):
        (tmp_path / name).symlink_to(victim)
    saves.write_atomic(path, b"{}\n")
    assert victim.read_text() == "precious"
    assert path.read_bytes() == b"{}\n" and not path.is_symlink()
    # the planted links are stale temporary files: cleaned when the race file is taken
    saves.attach_autosave(session, path)
    assert victim.read_text() == "precious"
    assert not list(tmp_path.glob(".race.json.*.tmp"))


def test_a_failed_write_leaves_no_temporary_file(tmp_path, monkeypatch):
    path = tmp_path / "race.json"
    saves.write_atomic(path, b"one\n")

    def broken(fd, data):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(saves.writing, "_write_all", broken)
    with pytest.raises(OSError):
        saves.write_atomic(path, b"two\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["race.json"] and path.read_bytes() == b"one\n"


# ------------------------------------------------------------------ locks

HOLDER = """
import sys
from flamme_tui import saves, usertext
session = saves.load(sys.argv[1])
autosave = saves.attach_autosave(session)
print("ready", autosave.path, flush=True)
sys.stdin.readline()
"""


@contextmanager
def holder(path: Path):
    """Another flamme-tui process with the race file open."""
    proc = subprocess.Popen([sys.executable, "-c", HOLDER, str(path)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert line.startswith("ready"), proc.stderr.read()
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(10)
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            stream.close()


def a_race(tmp_path) -> Path:
    session = new_session("classic", seed=9)
    autosave = saves.attach_autosave(session, tmp_path / "locked.json")
    play(session, 5)
    autosave.detach()
    return autosave.path


def test_a_race_open_in_another_process_is_refused(tmp_path):
    path = a_race(tmp_path)
    with holder(path) as proc:
        session = saves.load(path)  # reading is fine
        with pytest.raises(SaveLocked) as err:
            saves.attach_autosave(session)
        msg = str(err.value)
        assert "locked.json is open in another flamme-tui (pid" in msg and f"pid {proc.pid} on " in msg
        assert "close it there first" in msg and "\n" not in msg
        # the command line says so in one line, and does not open the app
        env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
        done = subprocess.run([sys.executable, "-m", "flamme_tui", "--resume", str(path)],
                              capture_output=True, text=True, timeout=60, env=env)
        assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
        assert "is open in another flamme-tui" in done.stderr
        proc.stdin.write("\n")
        proc.stdin.flush()
        proc.wait(10)
    # once it has ended, the race opens again and goes on in its own file
    back = saves.load(path)
    assert saves.attach_autosave(back).path == path
    play(back, 1)
    assert saves.peek(path).actions == 6


def test_a_lock_left_by_a_killed_process_does_not_block(tmp_path):
    path = a_race(tmp_path)
    with holder(path) as proc:
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
    assert Path(f"{path}.lock").exists()  # what it left behind names a process that is gone
    back = saves.load(path)
    autosave = saves.attach_autosave(back)
    play(back, 2)
    assert saves.peek(path).actions == 7
    autosave.detach()
    assert not Path(f"{path}.lock").exists()


def test_two_headless_races_started_together_get_files_of_their_own(tmp_path):
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    command = [sys.executable, "-m", "flamme_tui", "race", "--variant", "bmx", "--autosave", str(tmp_path),
               "--slow", "2"]
    procs = [subprocess.Popen([*command, "--seed", str(seed)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              text=True, env=env) for seed in (1, 2)]
    errs = [p.communicate(timeout=120)[1] for p in procs]
    assert [p.returncode for p in procs] == [0, 0], errs
    races = saves.list_saves(tmp_path)
    assert len(races) == 2 and {r.status for r in races} == {saves.FINISHED}
    assert {r.info.race for r in races} != 1 and len({r.path for r in races}) == 2
    assert not list(tmp_path.glob("*.lock"))  # a finished race lets its file go


def test_the_same_process_can_take_its_race_file_over(tmp_path):
    """The app leaving a race and resuming it: the earlier autosave stops, no lock error."""
    path = a_race(tmp_path)
    first = saves.load(path)
    old = saves.attach_autosave(first)
    second = saves.load(path)
    new = saves.attach_autosave(second)
    assert old.stopped and not new.stopped
    play(first, 1)  # the old session writes no more
    play(second, 2)
    assert saves.peek(path).actions == 7


def test_tour_on_a_full_disk_says_what_the_file_on_disk_holds(tmp_path, monkeypatch, capsys):
    """The disk fills up in stage 2: the tour goes on, and both messages say
    that the last good save is kept, and which stage and action it holds."""
    out_dir = tmp_path / "out"
    real_write_atomic = saves.write_atomic
    writes = [0]

    def filling(path, data, keep=saves.KEEP):
        second = re.search(rb'"stage": ?2\b', data) is not None
        if second and writes[0] >= 5:  # five writes of stage 2 fit, then the disk is full
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
        writes[0] += second
        return real_write_atomic(path, data, keep)

    monkeypatch.setattr(saves.autosave, "write_atomic", filling)
    assert main(["tour", "--stages", "avenue-corso-paseo,firenze-milano", "--seed", "2",
                 "--autosave", str(out_dir)]) == 1
    out, err = capsys.readouterr()
    assert "GC after stage 2" in out  # raced to its end
    on_disk = saves.peek(next(out_dir.glob("*.json")))
    assert on_disk.stage == 2
    held = f"the last good save: stage 2/2 after {on_disk.actions} actions"
    lines = err.strip().splitlines()
    told = [line for line in lines if "could not save the tour: the disk is full" in line]
    assert len(told) == 1 and held in told[0], told
    assert "the tour was not fully saved" in lines[-1] and held in lines[-1], lines[-1]
