"""`flamme-tui` alone opens the app without building the command line's
parser (issue 24 item 14: start-up to the title menu): only a command line
that asks for the app and nothing else takes that way; every other one is
the parser's, as before."""

from __future__ import annotations

import subprocess
import sys

import pytest

from flamme_tui.launch import app_only


@pytest.mark.parametrize("argv, expected", [
    ([], (True, None)),
    (["--lang", "fr"], (True, "fr")),
    (["--lang=es"], (True, "es")),
    (["--lang", "xx"], (False, None)),  # the parser refuses it in one line
    (["--lang"], (False, None)),
    (["--lang", "fr", "race"], (False, None)),
    (["--resume"], (False, None)),
    (["--help"], (False, None)),
    (["race", "--lang", "fr"], (False, None)),
    (["--lang=fr", "--lang=es"], (False, None)),
])
def test_only_a_command_line_that_asks_for_the_app_skips_the_parser(argv, expected):
    assert app_only(argv) == expected


def test_the_app_starts_without_the_command_lines_modules():
    """What `flamme-tui` imports to open the app: no argparse, no cli/ (every
    subcommand's options), no OpenSSL hashes.  Before, the parser was built
    first (flamme_tui.cli.main), whatever the command line."""
    code = ("import sys, flamme_tui.launch, flamme_tui.ui.app\n"
            "print(sorted(m for m in ('argparse', 'flamme_tui.cli', 'hashlib') if m in sys.modules))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"


def test_a_wrong_language_is_still_refused_by_the_parser(capsys):
    from flamme_tui.launch import main

    with pytest.raises(SystemExit) as stop:
        main(["--lang", "xx"])
    assert stop.value.code == 2 and "--lang" in capsys.readouterr().err
