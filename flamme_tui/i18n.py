"""The player's language: gettext catalogs (English is the source text).

Every text a player reads goes through `_` (or `ngettext` for a count,
`pgettext` where one English word has two meanings) when it is shown, never
when a module is imported: the language can change while the app runs (the
settings screen), and a screen drawn again must speak the new one.  A table
of texts built at import time marks its entries with `N_` (extraction only)
and calls `_` on the entry when it is shown.

The catalogs live in flamme_tui/locale/LANG/LC_MESSAGES/flamme_tui.po, with
their compiled .mo beside them (shipped in the wheel); `pybabel` extracts and
compiles them (babel.cfg, README "Languages").  No Textual here: the command
line, the narrator and the screens all use it.

The language chosen, first match wins: `--lang` on the command line, the
`language` setting (the settings screen; "" = from the environment), the
environment (LANGUAGE, LC_ALL, LC_MESSAGES, LANG, as gettext reads them),
English.
"""

from __future__ import annotations

import datetime
import gettext
import os
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

DOMAIN = "flamme_tui"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
LANGUAGES = ("en", "fr", "es")
# each language's name as its speakers write it (the settings screen, --help)
LANGUAGE_NAMES = {"en": "English", "fr": "Français", "es": "Español"}

_translations: gettext.NullTranslations = gettext.NullTranslations()
_language = "en"
_loaded: dict[str, gettext.NullTranslations] = {}
_flag: str | None = None  # --lang as given on the command line: it beats the setting for this run
_here = threading.local()  # `speaking`: another language for this thread only, for a moment


def N_(text: str) -> str:
    """Marks a text for extraction without translating it (translate it with `_` when shown)."""
    return text


def _(text: str) -> str:
    """The text in the active language (as it is when the catalog has none)."""
    return _active().gettext(text) if text else text  # gettext's "" is the catalog's header


def ngettext(one: str, many: str, n: int) -> str:
    """The sentence for `n` things, by the active language's plural rule (French: 0 and 1 are singular)."""
    return _active().ngettext(one, many, n)


def pgettext(context: str, text: str) -> str:
    """A text whose English word has more than one meaning, told apart by `context`."""
    return _active().pgettext(context, text)


def language() -> str:
    """The active language's code: "en", "fr" or "es"."""
    return getattr(_here, "language", None) or _language


def _active() -> gettext.NullTranslations:
    override = getattr(_here, "language", None)
    return _translations if override is None else _catalog(override)


@contextmanager
def speaking(code: str) -> Iterator[None]:
    """Words in `code` in this thread meanwhile, the other threads (the app's
    screens, while a worker reads a save) speaking on as they did."""
    before = getattr(_here, "language", None)
    _here.language = code if code in LANGUAGES else "en"
    try:
        yield
    finally:
        _here.language = before


def _catalog(code: str) -> gettext.NullTranslations:
    if code not in _loaded:
        if code == "en":
            _loaded[code] = gettext.NullTranslations()
        else:  # a missing or unreadable catalog: English, rather than no game at all
            try:
                _loaded[code] = gettext.translation(DOMAIN, LOCALE_DIR, languages=[code])
            except OSError:
                _loaded[code] = gettext.NullTranslations()
    return _loaded[code]


def set_language(code: str) -> str:
    """Speak `code` from now on (an unknown code: English); returns the language used."""
    global _translations, _language
    code = code if code in LANGUAGES else "en"
    _translations, _language = _catalog(code), code
    return code


def supported(value: str) -> str | None:
    """The language a locale name asks for ("fr_FR.UTF-8" -> "fr", "es" -> "es"), None if not ours."""
    code = value.strip().split(".")[0].split("@")[0].split("_")[0].split("-")[0].lower()
    return code if code in LANGUAGES else None


def from_environment(env: Mapping[str, str] | None = None) -> str:
    """The language the environment asks for, as gettext reads it: the first of
    LANGUAGE (a colon-separated list of choices), LC_ALL, LC_MESSAGES, LANG that is
    set; "C" or "POSIX" or a language we do not have means English."""
    env = os.environ if env is None else env
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if not value:
            continue
        if name == "LANGUAGE":  # a list of choices: the first we speak (GNU gettext's way)
            for choice in value.split(":"):
                if supported(choice):
                    return supported(choice) or "en"
            continue
        return supported(value) or "en"
    return "en"


def choose(flag: str | None = None, setting: str = "", env: Mapping[str, str] | None = None) -> str:
    """The language to speak: `--lang` (this one, or the one given before), else the
    setting, else the environment; then made active."""
    global _flag
    if flag:
        _flag = flag
    return set_language(_flag or setting or from_environment(env))


def forget_flag() -> None:
    """The player chose a language in the app: it beats the command line's from now on."""
    global _flag
    _flag = None


# ------------------------------------------------------ numbers, as written


def integer(n: int) -> str:
    """A whole number as the language writes it: 12,345 (en), 12 345 (fr, a narrow
    no-break space), 12.345 (es; four digits stay together: 1234, as the RAE says)."""
    text = f"{n:,}"
    if language() == "fr":
        return text.replace(",", "\u202f")
    if language() == "es":
        return text.replace(",", ".") if abs(n) >= 10_000 else str(n)
    return text


def decimal(x: float, digits: int = 1) -> str:
    """A number with `digits` decimals: 0.35 (en), 0,35 (fr, es)."""
    text = f"{x:.{digits}f}"
    return text.replace(".", ",") if language() in ("fr", "es") else text


def percent(x: float, digits: int = 1) -> str:
    """A share as a per cent: 25.0% (en), 25,0 % (fr, es: a no-break space before the sign)."""
    text = f"{100 * x:.{digits}f}"
    if language() in ("fr", "es"):
        return text.replace(".", ",") + "\u00a0%"
    return text + "%"


# month abbreviations as each language writes them in a date ("02 déc. 21:03")
_MONTHS = {
    "fr": ("janv.", "févr.", "mars", "avr.", "mai", "juin", "juil.", "août", "sept.", "oct.", "nov.", "déc."),
    "es": ("ene.", "feb.", "mar.", "abr.", "may.", "jun.", "jul.", "ago.", "sept.", "oct.", "nov.", "dic."),
    "en": ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"),
}


def day_and_time(when: datetime.datetime) -> str:
    """A date and time, short: "02 Dec 21:03" (en), "02 déc. 21:03" (fr), "02 dic. 21:03" (es)."""
    return f"{when.day:02d} {_MONTHS[language()][when.month - 1]} {when.hour:02d}:{when.minute:02d}"


def short(x: float) -> str:
    """A number as short as it goes (`:g`), with the language's decimal mark: 1.2 / 1,2."""
    text = f"{x:g}"
    return text.replace(".", ",") if language() in ("fr", "es") else text
