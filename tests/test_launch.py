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


def test_the_app_takes_a_seed_for_its_new_races(monkeypatch, capsys):
    """The README says to start the app with `--seed` to race a seed again: it failed
    ("invalid choice: '7'").  The seed goes to the app; before a command it is refused."""
    from flamme_tui import i18n
    from flamme_tui.cli import main as cli_main
    from flamme_tui.launch import main
    from flamme_tui.ui import app

    started = []
    monkeypatch.setattr(app, "run", lambda **kw: started.append(kw) or 0)
    try:
        assert main(["--seed", "7"]) == 0 and started == [{"lang": None, "seed": 7}]
        assert main(["--lang", "fr", "--seed", "12"]) == 0 and started[-1] == {"lang": "fr", "seed": 12}
        i18n.forget_flag()  # (--lang is kept for the run: not for the next test)
        i18n.set_language("en")
        assert cli_main(["--seed", "3", "stages", "list"]) == 2
        assert "--seed before a command is the app's" in capsys.readouterr().err
        with pytest.raises(SystemExit) as stop:
            main(["--seed", "-1"])
        assert stop.value.code == 2
    finally:
        i18n.forget_flag()
        i18n.set_language("en")
