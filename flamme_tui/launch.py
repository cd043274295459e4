"""The `flamme-tui` command's first step: the app at once when the command
line asks for nothing else.

`flamme-tui` alone (or with only `--lang X`) opens the title menu, and the
start-up time is what a player waits for.  The command line's parser (every
subcommand's options, argparse, the limits its numbers check) is built only
when there is something to parse: `flamme_tui.cli.main` then does all of it,
as before, errors and help included.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence


def app_only(argv: Sequence[str]) -> tuple[bool, str | None]:
    """(True, the --lang given or None) when `argv` asks for the app and
    nothing else: no argument, or `--lang X` / `--lang=X` with X a language
    we speak.  Anything else (an unknown language too) is the parser's."""
    from .i18n import LANGUAGES

    args = list(argv)
    if not args:
        return True, None
    if len(args) == 2 and args[0] == "--lang" and args[1] in LANGUAGES:
        return True, args[1]
    if len(args) == 1 and args[0].startswith("--lang=") and args[0].split("=", 1)[1] in LANGUAGES:
        return True, args[0].split("=", 1)[1]
    return False, None


def main(argv: list[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else argv
    plain, lang = app_only(words)
    if not plain:
        from .cli import main as cli_main

        return cli_main(argv)
    try:
        from .ui.app import run

        return run(lang=lang)
    except KeyboardInterrupt:  # ctrl+c while starting: as the command line does (cli.main)
        import signal

        from .i18n import _

        signal.signal(signal.SIGINT, signal.SIG_IGN)
        print(_("flamme-tui: interrupted"), file=sys.stderr)
        return 130
