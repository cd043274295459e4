"""Counts and places in words, for every text a player reads: "1 action",
"2 actions", never "1 actions" or "3 pick(s)"; "1st" / "1er" / "1.º".
Pure Python (saves, the command line and the replay use it as well as the
screens), in the active language (i18n)."""

from __future__ import annotations

from . import i18n


def plural(n: int, word: str, many: str = "") -> str:
    """English only, for developers' tools (the ladder, the tournament's
    measures): "1 pick", "0 picks"; `many` for a plural that is not word + s.
    A text a player reads uses i18n.ngettext with the whole phrase instead."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def stage_kind(kind: str) -> str:
    """A kind of stage in words ("flat", "hilly", "mountain", "cobbles"): a stage
    is "flat", French "plate" where the terrain is "plat" (hence the context)."""
    words = {"flat": i18n.pgettext("stage kind", "flat"), "hilly": i18n.pgettext("stage kind", "hilly"),
             "mountain": i18n.pgettext("stage kind", "mountain"), "cobbles": i18n.pgettext("stage kind", "cobbles")}
    return words.get(kind, kind)


def source(where: str) -> str:
    """Where a stage or tour comes from, in words: "built-in" or "user"."""
    return {"built-in": i18n._("built-in"), "user": i18n._("user")}.get(where, where)


def variant_word(variant: str) -> str:
    """A rule set as a word in a sentence or a list: "classic", "meteo" (French "classique", "météo")."""
    return {"classic": i18n._("classic"), "meteo": i18n._("meteo")}.get(variant, variant)


def ordinal(n: int) -> str:
    """A place in the active language: "1st", "2nd", "11th", "21st" (en);
    "1er", "2e" (fr); "1.º", "2.º" (es)."""
    lang = i18n.language()
    if lang == "fr":
        return f"{n}er" if n == 1 else f"{n}e"
    if lang == "es":
        return f"{n}.º"
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
