"""The README's picture of a seat in a phone-sized browser (screenshots/join-phone.png)
is made by the documented command, `python -m flamme_tui.ui.screenshots` (issue 25):
without Chromium, one line says it was skipped and the
other pictures are made."""

from __future__ import annotations

import os
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from flamme_tui.ui.browser import CHROMIUM

ROOT = Path(__file__).resolve().parent.parent.parent


def shots(out: Path, only: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "flamme_tui.ui.screenshots", str(out), "--only", only],
                          cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT), **env), capture_output=True,
                          text=True, timeout=240)


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed: no browser to take the picture in")
def test_the_command_makes_the_phone_picture(tmp_path):
    done = shots(tmp_path, "join-phone")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "join-phone.png (412x915 CSS pixels" in done.stdout
    png = (tmp_path / "join-phone.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", png[16:24]) == (824, 1830)  # 412x915 CSS pixels, two device pixels each
    assert not list(tmp_path.glob("*.svg"))  # --only: that picture only


def test_without_chromium_the_phone_picture_is_skipped_in_one_line(tmp_path):
    no_browser = tmp_path / "bin"  # a PATH with no chromium on it
    no_browser.mkdir()
    done = shots(tmp_path / "out", "join-phone,title", PATH=str(no_browser))
    lines = done.stdout.splitlines()
    assert "join-phone.png skipped: chromium is not installed (Debian: apt-get install chromium)" in lines
    assert [line for line in lines if "join-phone" in line] == lines[-1:]
    assert (tmp_path / "out" / "title.svg").exists()  # the others are made all the same
    assert not (tmp_path / "out" / "join-phone.png").exists()
    assert done.returncode == 1  # asked for by name (--only) and not made
    assert not done.stderr
