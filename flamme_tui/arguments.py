"""argparse helpers shared by the command line (cli/) and the developers'
tools (ui.bench): kept out of cli/ so that no other layer imports the
command line (tests/test_imports.py)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import NoReturn

from .i18n import LANGUAGE_NAMES, LANGUAGES, _, ngettext, pgettext
from .usertext import clean

# argparse's own words ("usage:", "options", "invalid choice: ...") go through its module's `_`,
# read when each is said: ours, so that they are in the player's language too (argparse_words.py
# lists them for the catalogs)
argparse._ = _  # type: ignore[attr-defined]
argparse.ngettext = ngettext  # type: ignore[attr-defined]


class Parser(argparse.ArgumentParser):
    """argparse with every error on one line, the problem then where to read
    more; what the user typed is shown with control characters escaped."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, _("{prog}: {problem} (see {prog} --help)").format(prog=self.prog, problem=clean(message, multiline=False))
                  + "\n")


class Whole:
    """An argparse type: a whole number from `low` to `high`."""

    def __init__(self, low: int, high: int) -> None:
        self.low, self.high = low, high

    def __call__(self, text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = self.low - 1
        if not self.low <= value <= self.high:
            raise argparse.ArgumentTypeError(_("expected a whole number from {low} to {high}, got {text!r}").format(
                low=self.low, high=self.high, text=text))
        return value


def lang_asked(argv: Sequence[str]) -> str | None:
    """The language `--lang X` (or `--lang=X`) asks for, wherever it stands, read before
    the parser is built (its help texts are in that language); None if not given
    or not a language we speak (the parser then refuses it in one line)."""
    asked = None
    for k, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == "--lang" and k + 1 < len(argv):
            asked = argv[k + 1]
        elif arg.startswith("--lang="):
            asked = arg.split("=", 1)[1]
    return asked if asked in LANGUAGES else None


def add_lang(parser: argparse.ArgumentParser, top: bool = False) -> None:
    """--lang en|fr|es on a parser (every command has it; the language was read before, see lang_asked)."""
    names = ", ".join(f"{code} ({LANGUAGE_NAMES[code]})" for code in LANGUAGES)
    parser.add_argument("--lang", choices=LANGUAGES, metavar=pgettext("metavar", "LANG"),
                        # a subcommand's own default would overwrite the one given before it
                        default=None if top else argparse.SUPPRESS,
                        help=_("the language to speak: {languages} (default: the settings, "
                               "else LANGUAGE, LC_ALL, LC_MESSAGES or LANG)").format(languages=names))
