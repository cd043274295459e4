"""files.py, the one bounded reader, and the stage file cache."""

from __future__ import annotations

import os

import pytest

from flamme_tui import config, files

STAGE = "name: Mine\ntiles: abcdefghijklmnopqrstu\n"


@pytest.fixture
def user_stages(tmp_path, monkeypatch):
    monkeypatch.setenv("FLAMME_TUI_DATA_DIR", str(tmp_path))
    (tmp_path / "stages").mkdir()
    return tmp_path / "stages"


def test_stage_files_are_read_once_until_they_change(user_stages, monkeypatch):
    path = user_stages / "mine.yaml"
    path.write_text(STAGE)
    reads: list[str] = []
    real = files.read_bytes

    def counting(p, kind):
        reads.append(os.path.basename(p))
        return real(p, kind)

    monkeypatch.setattr(files, "read_bytes", counting)
    assert "mine" in config.stage_ids()
    first = reads.count("mine.yaml")
    assert first == 1
    for _ in range(5):
        config.stage_ids()
        config.load_stage("mine")
    assert reads.count("mine.yaml") == first  # only stat'ed since
    path.write_text(STAGE.replace("Mine", "Mine, longer"))  # another size
    assert config.load_stage("mine").name == "Mine, longer"
    assert reads.count("mine.yaml") == 2
    path.write_text(STAGE.replace("Mine", "Mind"))  # same size, another mtime
    os.utime(path, ns=(10**18, 10**18))
    assert config.load_stage("mine").name == "Mind"


def test_broken_stage_is_cached_too_and_says_the_same(user_stages):
    (user_stages / "bad.yaml").write_text("name: X\ntiles: abu\n")
    first = config.stage_notices()
    assert first == config.stage_notices() and "bad.yaml:2: tiles: too short" in first[0]


def test_read_bytes_refuses_before_reading(tmp_path):
    fifo = tmp_path / "f"
    os.mkfifo(fifo)
    with pytest.raises(files.ReadError, match=r"not a regular file \(a FIFO\)"):
        files.read_bytes(fifo, files.STAGE_FILE)
    big = tmp_path / "big"
    big.write_bytes(b"x" * (files.STAGE_FILE.max_bytes + 1))
    with pytest.raises(files.ReadError, match="too big for a stage file"):
        files.read_bytes(big, files.STAGE_FILE)
    ok = tmp_path / "ok"
    ok.write_bytes(b"x" * files.STAGE_FILE.max_bytes)
    assert len(files.read_bytes(ok, files.STAGE_FILE)[0]) == files.STAGE_FILE.max_bytes


def test_load_yaml_depth_cap_is_exact(tmp_path):
    kind = files.STAGE_FILE
    ok = tmp_path / "ok.yaml"
    ok.write_text("[" * kind.max_depth + "]" * kind.max_depth)
    files.load_yaml(ok, kind)
    deep = tmp_path / "deep.yaml"
    deep.write_text("[" * (kind.max_depth + 1) + "]" * (kind.max_depth + 1))
    with pytest.raises(files.ReadError, match="nested too deeply"):
        files.load_yaml(deep, kind)


def test_json_depth(tmp_path):
    files.check_json_depth('{"a": [[1]], "s": "[[[[[[[[[[[[[[[[[[[[[[[["}', files.SAVE_FILE)
    with pytest.raises(files.ReadError, match="nested too deeply"):
        files.check_json_depth("[" * 13 + "]" * 13, files.SAVE_FILE)
    # an unterminated string hides nothing before it, and escaped quotes never close a string
    with pytest.raises(files.ReadError, match="nested too deeply"):
        files.check_json_depth("[" * 13 + '"\\"\\"\\"', files.SAVE_FILE)
    files.check_json_depth('["\\"[[[[[[[[[[[[[[[[", 1]', files.SAVE_FILE)


@pytest.mark.parametrize("loader", sorted({files._Loader, files.LOADER}, key=lambda c: c.__name__))
def test_both_yaml_loaders_refuse_the_same(tmp_path, monkeypatch, loader):
    """libyaml makes the events when PyYAML has it; the pure-Python parser
    otherwise: the same checks either way."""
    monkeypatch.setattr(files, "LOADER", loader)
    cases = {
        "a: &x 1\nb: *x\n": "anchors (&x) are not allowed",
        "a: !!python/name:os.system x\n": "tags (!!python/name:os.system) are not allowed",
        "a: [" + "[" * 20 + "]" * 21 + "\n": "nested too deeply",
        "a: [" * 2000: "nested too deeply",
        "a: 1\na: 2\n": "duplicate key",
        # a merge key brings in keys that the duplicate check and the models' unknown-key check never see
        "name: X\n<<: [{name: Y}, {name: Z}]\n": "merge keys are not allowed",
        "a: 99999999999999999999999999e99999\n": "",
        "a: 2001-13-45\n": "bad value",
        "a: [1, 2\n": "invalid YAML",
    }
    for text, words in cases.items():
        path = tmp_path / "x.yaml"
        path.write_text(text)
        if not words:
            files.load_yaml(path, files.STAGE_FILE)
            continue
        with pytest.raises(files.ReadError) as err:
            files.load_yaml(path, files.STAGE_FILE)
        assert words in err.value.reason, (loader, text[:20], err.value.reason)
    path.write_text(STAGE)
    data, node, _ = files.load_yaml(path, files.STAGE_FILE)
    assert data == {"name": "Mine", "tiles": "abcdefghijklmnopqrstu"} and node.start_mark.line == 0
