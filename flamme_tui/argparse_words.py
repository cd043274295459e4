"""argparse's own words, listed for the catalogs: argparse says them through
its module's `_` and `ngettext`, which arguments.py points at ours (i18n), so
`flamme-tui --lang fr --help` and its error lines are French throughout.
Nothing calls this module: `pybabel extract` reads it (the texts are
argparse's, character for character, Python 3.11-3.13)."""

from __future__ import annotations

from .i18n import N_

ARGPARSE_WORDS = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("unrecognized arguments: %s"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("invalid %(type)s value: %(value)r"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
)


def _plural_words(ngettext) -> tuple[str, ...]:  # (for extraction only: argparse's plural sentence)
    return (ngettext("expected %s argument", "expected %s arguments", 2),)
