"""The README's "Saves, resume and replay" says exactly what a damaged save,
a backup, a branch and a lock do, and what the readers accept: each
statement that names a file, a message or a number is checked here against
what the code does, so the two cannot drift apart."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_save_faults import holder
from test_saves import new_session, play

from flamme_tui import files, saves
from flamme_tui.cli import main
from flamme_tui.cli.saves import finish_path

README = (Path(__file__).resolve().parent.parent / "README.md").read_text()
SAVES = README[README.index("## Saves, resume and replay"):README.index("## Custom stages")]


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("FLAMME_TUI_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


def words(text: str) -> str:
    return " ".join(text.split())


def a_race(folder: Path, actions: int = 12) -> Path:
    session = new_session("classic", seed=3, teams=2)
    autosave = saves.attach_autosave(session, folder / "save.json")
    play(session, actions)
    autosave.detach()
    return autosave.path


def test_the_bounds_of_every_reader_are_the_ones_said():
    said = words(README)
    assert f"of at most {files.STAGE_FILE.max_bytes // 1024} KB" in said
    assert f"nested at most {files.STAGE_FILE.max_depth} levels" in said
    assert files.DATA_FILE[1:] == files.STAGE_FILE[1:]  # tours are read as stage files are
    assert f"saves: {files.SAVE_FILE.max_bytes // 1024 // 1024} MB and {files.SAVE_FILE.max_depth} levels" in said
    assert (f"conformance case files: {files.CASE_FILE.max_bytes // 1024} KB and {files.CASE_FILE.max_depth} levels"
            in said)


def test_a_damaged_save_is_said_as_the_readme_shows(tmp_path, capsys):
    path = a_race(tmp_path)
    path.write_text(path.read_text().replace('"seed"', '"seeds"', 1))  # a checksum that no longer matches
    example = re.search(r"e\.g\. `(save\.json is damaged[^`]*)`", words(SAVES))[1]
    shape = re.escape(example).replace(r"round\ 7", r"round\ \d+")
    assert main(["--resume", str(path)]) == 2
    err = capsys.readouterr().err
    assert re.search(shape, err), (example, err)
    assert "goes on from that backup as a new race file" in err  # "says how to go on from the newest"
    assert path.read_text().count('"seeds"') == 1  # never written over


def test_a_backup_is_the_file_before_the_last_write(tmp_path):
    path = a_race(tmp_path, actions=6)
    assert saves.peek(path.with_name("save.json.1")).actions == 5
    assert saves.peek(path.with_name("save.json.2")).actions == 4
    session = saves.load(path)
    autosave = saves.attach_autosave(session)  # "and once when a race is opened"
    assert saves.peek(path.with_name("save.json.1")).actions == 6
    assert saves.peek(path.with_name("save.json.2")).actions == 5
    autosave.detach()


def test_a_branch_is_named_and_placed_as_said(tmp_path):
    assert "`NAME-branch-2.json` (`NAME-branch-2-2.json`, ... when taken)" in words(SAVES)
    path = a_race(tmp_path)
    kept = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    first = saves.load(path.with_name("save.json.2"))
    saves.attach_autosave(first).detach()
    assert first.save_path.name == "save-branch-2.json"
    again = saves.load(path.with_name("save.json.2"))
    assert again.save_path.name == "save-branch-2-2.json"
    assert {name: data for name, data in ((p.name, p.read_bytes()) for p in tmp_path.iterdir()) if name in kept} == kept
    assert "finishes the race in `NAME-bots.json`" in words(SAVES)
    assert finish_path(path).name == "save-bots.json"


def test_the_lock_message_is_the_one_said(tmp_path):
    said = re.search(r"refused with `NAME\.json (is open in another flamme-tui \(pid 123 on HOST, since \.\.\.\): "
                     r"close it there first)`", words(SAVES))
    assert said is not None
    shape = re.escape(said[1]).replace("123", r"\d+").replace("HOST", r"\S+").replace(r"\.\.\.", ".+")
    path = a_race(tmp_path)
    with holder(path):  # another flamme-tui process has it open
        with pytest.raises(saves.SaveLocked) as err:
            saves.attach_autosave(saves.load(path))
        assert re.search("save.json " + shape, str(err.value)), str(err.value)
        assert Path(f"{path}.lock").exists()
