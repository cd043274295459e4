"""The key bindings a player can change: every Binding with an id.

The settings file maps an id to new keys (`{"keys": {"teams.start": "f5"}}`,
applied with Textual's keymap, as Posting does); the settings screen lists
them with this module.  A screen that wants its keys rebindable gives its
Bindings ids and is named in `_screens`.
"""

from __future__ import annotations

from typing import Any, NamedTuple


class Rebindable(NamedTuple):
    id: str
    description: str
    keys: str  # the default keys, comma-separated
    where: str  # the screen, in words


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

    return [("everywhere", FlammeApp), ("every screen", BaseScreen), ("title menu", TitleScreen),
            ("teams", TeamsScreen), ("curtain", CurtainScreen), ("race", RaceScreen),
            ("saved races", SavedRacesScreen), ("podium", PodiumScreen), ("tour menu", TourScreen),
            ("tour stages", TourStagesScreen), ("tour results", StageResultScreen),
            ("tour podium", TourPodiumScreen), ("settings", SettingsScreen)]


def rebindable() -> list[Rebindable]:
    out: dict[str, Rebindable] = {}
    for where, cls in _screens():
        for binding in cls.BINDINGS:
            if getattr(binding, "id", None) and binding.id not in out:
                out[binding.id] = Rebindable(binding.id, binding.description or binding.action, binding.key, where)
    return list(out.values())


def binding_ids() -> list[str]:
    return [b.id for b in rebindable()]
