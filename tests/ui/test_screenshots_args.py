"""The screenshots command reads its options with a parser: `--help` helps and a
mistyped option is refused, neither ever taken for the folder to write into."""

from __future__ import annotations

import pytest

from flamme_tui.ui import screenshots


@pytest.mark.parametrize("argv, code", [(["--help"], 0), (["--bogus"], 2), (["--onyl", "title"], 2)])
def test_an_option_is_never_the_folder_written_to(argv, code, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as stop:
        screenshots.main(argv)
    assert stop.value.code == code
    assert list(tmp_path.iterdir()) == []  # no folder named after the option, no shot
    said = capsys.readouterr()
    assert "usage: python -m flamme_tui.ui.screenshots" in (said.out if code == 0 else said.err)
