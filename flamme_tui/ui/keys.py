"""The key bindings a player can change: every Binding with an id.

The settings file maps an id to new keys (`{"keys": {"teams.start": "f5"}}`,
applied with Textual's keymap, as Posting does); the settings screen lists
them with this module.  A screen that wants its keys rebindable gives its
Bindings ids and is named in `_screens`.
"""

from __future__ import annotations

import string
from functools import cache
from typing import Any, NamedTuple

from ..i18n import N_, _, pgettext

QUIT_ID = "app.quit"
ALWAYS_QUITS = "ctrl+q"  # never taken from quitting, nor given to another action
MODIFIERS = ("ctrl", "alt", "shift", "meta", "super", "hyper")


class Rebindable(NamedTuple):
    id: str
    description: str
    keys: str  # the default keys, comma-separated
    where: str  # the screen, in words (N_: translated when shown)


def _screens() -> list[tuple[str, Any]]:
    from .app import FlammeApp
    from .screens.base import BaseScreen
    from .screens.curtain import CurtainScreen
    from .screens.podium import PodiumScreen
    from .screens.race import RaceScreen
    from .screens.saved import SavedRacesScreen
    from .screens.settings import SettingsScreen
    from .screens.teams import TeamsScreen
    from .screens.title import TitleScreen
    from .screens.tour_menus import TourScreen, TourStagesScreen
    from .screens.tour_results import StageResultScreen, TourPodiumScreen

    return [(N_("everywhere"), FlammeApp), (N_("every screen"), BaseScreen), (N_("title menu"), TitleScreen),
            (N_("teams"), TeamsScreen), (N_("curtain"), CurtainScreen), (N_("race"), RaceScreen),
            (N_("saved races"), SavedRacesScreen), (N_("podium"), PodiumScreen), (N_("tour menu"), TourScreen),
            (N_("tour stages"), TourStagesScreen), (N_("tour results"), StageResultScreen),
            (N_("tour podium"), TourPodiumScreen), (N_("settings"), SettingsScreen)]


def rebindable() -> list[Rebindable]:
    out: dict[str, Rebindable] = {}
    for where, cls in _screens():
        for binding in cls.BINDINGS:
            if getattr(binding, "id", None) and binding.id not in out:
                out[binding.id] = Rebindable(binding.id, binding.description or binding.action, binding.key, where)
    return list(out.values())


def key_word(display: str) -> str:
    """A key as a player reads it, in their language: the keys Textual (or a
    key bar) names with an English word, as keyboards in the player's language
    label them (a French keyboard says "Échap", "Entrée"; a Spanish one
    "Intro", "Inicio"); any other key as given (the symbols, ⏎ ⌫ ← →, need no
    words)."""
    match display:
        case "space":
            return pgettext("key name", "space")
        case "esc":
            return pgettext("key name", "esc")
        case "Esc":
            return pgettext("key name", "Esc")
        case "tab":
            return pgettext("key name", "tab")
        case "Enter":
            return pgettext("key name", "Enter")
        case "home":
            return pgettext("key name", "home")
        case "end":
            return pgettext("key name", "end")
        case "pgup":
            return pgettext("key name", "pgup")
        case "pgdn":
            return pgettext("key name", "pgdn")
        case "del":
            return pgettext("key name", "del")
    return display


def shown_key(key: str) -> str:
    """A Textual key name as the app shows it in key bars and the help
    (FlammeApp.get_key_display, without an app): "ctrl+p" -> "^p"."""
    from textual.binding import Binding
    from textual.keys import format_key

    modifiers, name = Binding(key, "").parse_key()
    name = format_key(name)
    if "ctrl" in modifiers:  # Textual's caret, as in every key bar
        modifiers.remove("ctrl")
        name = f"^{name}"
    return key_word("+".join([*modifiers, name]))


def binding_ids() -> list[str]:
    return [b.id for b in rebindable()]


@cache
def key_names() -> frozenset[str]:
    """Textual's names of keys, without modifiers: its named keys (escape,
    f5, pageup, space...) and the printable ASCII characters as it names
    them (a, 7, question_mark, full_stop...).  Not any Unicode name: Textual
    would take "banana" for the banana emoji, which is no key to press."""
    from textual.keys import Keys

    named = {key.value for key in Keys if key.value.replace("_", "").isalnum()}
    return frozenset(named | typed_keys())


@cache
def typed_keys() -> frozenset[str]:
    """Textual's names of the keys that type a character (a, 7, question_mark,
    space...): a text field takes them as text, before any binding."""
    from textual.keys import _character_to_key

    return frozenset(_character_to_key(c) for c in string.ascii_lowercase + string.digits + string.punctuation + " ")


def key_problem(key: str) -> str | None:
    """Why `key` ("ctrl+s", "f5", "question_mark") is no key Textual knows; None if it is one."""
    *modifiers, name = key.split("+")
    if any(m not in MODIFIERS for m in modifiers) or len(set(modifiers)) != len(modifiers):
        return _("{key!r} is no key (modifiers: {modifiers})").format(key=key, modifiers=", ".join(MODIFIERS))
    if name not in key_names():
        return _("{key!r} is no key (key names as Textual writes them: a, 7, f5, escape, space, question_mark...)").format(
            key=key)
    return None


def keymap_problems(binding_id: str, keys: str, keymap: dict[str, str] | None = None) -> list[str]:
    """What is wrong with binding `keys` (comma-separated) to `binding_id`, in
    words; `keymap`: the other bindings' keys as the player binds them (the
    defaults for the others), to refuse a key one of them has on a screen."""
    problems = [p for key in keys.split(",") if (p := key_problem(key.strip())) is not None]
    if binding_id != QUIT_ID and ALWAYS_QUITS in (k.strip() for k in keys.split(",")):
        problems.append(_("{key} always quits: it cannot be given to {binding}").format(key=ALWAYS_QUITS,
                                                                                         binding=binding_id))
    if not problems:
        problems = [p for key in dict.fromkeys(k.strip() for k in keys.split(","))
                    if (p := _clash(binding_id, key, keymap or {})) is not None]
    return problems


class _Keyboard(NamedTuple):
    """One screen's keys (or the app's, on every screen): the rebindable
    bindings' ids, and the keys of its fixed bindings (the race's number keys
    and arrows, tab...) with what they do."""

    where: str  # N_: translated when shown
    ids: frozenset[str]
    fixed: dict[str, str]  # key -> action


@cache
def _keyboards() -> tuple[_Keyboard, ...]:
    """The app's keyboard first, then each screen's (its own bindings and those it inherits)."""
    from textual.binding import Binding

    out = []
    for where, cls in _screens():
        ids: set[str] = set()
        fixed: dict[str, str] = {}
        for klass in reversed(cls.__mro__):
            for binding in klass.__dict__.get("BINDINGS", ()):
                if not isinstance(binding, Binding):
                    continue
                if binding.id:
                    ids.add(binding.id)
                else:
                    fixed.update((key.strip(), binding.action) for key in binding.key.split(","))
        fixed.pop(ALWAYS_QUITS, None)  # said on its own (keymap_problems), and app.quit's own key
        out.append(_Keyboard(where, frozenset(ids), fixed))
    return tuple(out)


def _clash(binding_id: str, key: str, keymap: dict[str, str]) -> str | None:
    """Why `key` cannot be given to `binding_id` on a screen where it already
    does something else (None if it can): a fixed key of that screen (the
    race's number keys choose: a profile bound to 1 took the choice away) or
    another binding's key there, as that binding is bound now."""
    app, *screens = _keyboards()
    everywhere = binding_id in app.ids or all(binding_id in s.ids for s in screens)
    defaults = {b.id: b.keys for b in rebindable()}
    for screen in screens:
        if not (everywhere or binding_id in screen.ids):
            continue
        where = _("on the {screen} screen").format(screen=_(screen.where))
        action = screen.fixed.get(key)
        if action is None and key in app.fixed:
            action, where = app.fixed[key], _("on every screen")
        if action is not None:
            if action.startswith("choose(") or (len(key) == 1 and key.isdigit()):
                return _("{key} already chooses by number {where}: it cannot be given to {binding}").format(
                    key=key, where=where, binding=binding_id)
            return _("{key} is already a fixed key {where}: it cannot be given to {binding}").format(
                key=key, where=where, binding=binding_id)
        for other in sorted((screen.ids | app.ids) - {binding_id}):
            if key in (k.strip() for k in keymap.get(other, defaults.get(other, "")).split(",")):
                return _("{key} is already {other}'s key {where}: it cannot be given to {binding}").format(
                    key=key, other=other, where=where, binding=binding_id)
    return None


def types_a_character(key: str) -> bool:
    """A key that types a character into a text field (a letter, a digit, a
    sign, space), as opposed to ctrl+s, f5, escape."""
    if "+" in key:
        return False
    from textual.keys import key_to_character

    character = key_to_character(key)
    return character is not None and len(character) == 1 and character.isprintable()
