"""Counts and places in words, for every text a player reads: "1 action",
"2 actions", never "1 actions" or "3 pick(s)"; "1st" / "1er" / "1.º".
Pure Python (saves, the command line and the replay use it as well as the
screens), in the active language (i18n)."""

from __future__ import annotations

import functools
import re
from typing import Any

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


# Every team colour's name (N_: translated when shown): the board game's (play.races.COLOURS, the
# command line's and the engine's ids) and the app's palette (ui.palette).  The one home of these
# words: a team's default name, a lone rider's colour, a rider told by its colour and kind.
COLOUR_NAMES = {"red": i18n.N_("Red"), "blue": i18n.N_("Blue"), "green": i18n.N_("Green"), "black": i18n.N_("Black"),
                "white": i18n.N_("White"), "pink": i18n.N_("Pink"), "orange": i18n.N_("Orange"),
                "purple": i18n.N_("Purple"), "vermillion": i18n.N_("Vermillion"), "yellow": i18n.N_("Yellow"),
                "sky": i18n.N_("Sky blue")}


def colour_name(colour: str) -> str:
    """A team colour in the player's language, as a team's name: "Red" / "Rouge" / "Rojo"."""
    return i18n._(COLOUR_NAMES[colour]) if colour in COLOUR_NAMES else colour.capitalize()


# Meteo's weather by its engine kind (N_: translated when shown): the track's legend (ui.palette)
# and the narrator's "weather: ..." lines say the same words
WEATHER_NAMES = {"tailwind": i18n.N_("tailwind"), "headwind": i18n.N_("headwind"),
                 "crosswind": i18n.N_("crosswind"), "wet": i18n.N_("wet road")}


# Meteo's weather as the track draws it, and what it does: the one home of these symbols, for the
# app's track and legends (ui.palette adds the colours) and the race log's key to them (play.narrator)
WEATHER_GLYPHS = {"tailwind": "»", "headwind": "«", "crosswind": "≡", "wet": "~"}
WEATHER_EFFECTS = {"tailwind": i18n.N_("draw 5 cards"), "headwind": i18n.N_("draw 3 cards"),
                   "crosswind": i18n.N_("no slipstream"), "wet": i18n.N_("crash if blocked")}


def weather_name(kind: str) -> str:
    """A weather kind in the player's language ("tailwind" / "vent arrière" / "viento a favor")."""
    return i18n._(WEATHER_NAMES[kind]) if kind in WEATHER_NAMES else kind


# The symbol of each terrain code (engine.terrain) as the app's track draws it: the one home of
# these symbols, for the app's track, legend and builder (ui.palette adds the colours and names)
# and the text outputs' one-line track (`race`, `replay --text`: play.narrator.track_picture)
TERRAIN_GLYPHS = {".": "·", "^": "^", "v": "v", "s": "s", "c": "#", "b": "~", "k": "#", "m": '"'}


def terrain_glyph(code: str) -> str:
    """A square's terrain as the track draws it (an unknown code: flat)."""
    return TERRAIN_GLYPHS.get(code, TERRAIN_GLYPHS["."])


# the Peloton expansion's scripted teams (classic) by their names on the box, in every language
SCRIPTED_NAMES = {"peloton": "Peloton", "muscle": "Muscle"}


def bot_level(policy: str) -> str:
    """Who plays a seat that is not a person, as a player reads it: a bot's level
    ("easy" / "facile" / "fácil") or a scripted team's box name ("Peloton").
    The one home of these words: the teams screen, the race screen, the race
    log, the host and the command line's headings all ask it; the command
    line's options still take the ids (`--bots easy,hard`)."""
    words = {"easy": i18n.pgettext("bot level", "easy"), "medium": i18n.pgettext("bot level", "medium"),
             "hard": i18n.pgettext("bot level", "hard"), "expert": i18n.pgettext("bot level", "expert"),
             "hard-before": i18n.pgettext("bot level", "hard-before")}
    return words.get(policy) or SCRIPTED_NAMES.get(policy, policy)


# the shipped stages' names made of English words: a stage card's version for a number of teams
# ("Peloton 9 (5-6 teams)"), a public stage list's stage ("Prats 2018, stage 9")
_TEAMS_VERSION = re.compile(r"^(?P<stage>.+) \((?P<low>\d+)-(?P<high>\d+) teams\)$")
_LIST_STAGE = re.compile(r"^(?P<list>.+ \d{4}), stage (?P<n>\d+)$")


def stage_name(name: str, short: bool = False) -> str:
    """A stage's (a course's) name as the player reads it: the words the shipped stages' names
    are made of in the player's language ("Peloton 9 (5-6 équipes)", "Prats 2018, etapa 9"),
    any other name as written.  The data files, set-ups and saves keep the name as written.
    `short`: a stage card's version without its number of teams ("Peloton 9"), for a line
    with no room for it."""
    found = _TEAMS_VERSION.match(name)
    if found and short:
        return found["stage"]
    if found:
        return i18n._("{stage} ({low}-{high} teams)").format(stage=found["stage"], low=found["low"], high=found["high"])
    found = _LIST_STAGE.match(name)
    if found:
        return i18n._("{stages}, stage {n}").format(stages=found["list"], n=found["n"])
    return name


# the shipped tours' names that are English words (the others are names in any language:
# "Petit Tour", "Grand Tour", "Tour des Flandres et des Ardennes")
_TOUR_NAMES = frozenset((i18n.N_("Three Weeks"), i18n.N_("A Week of Classics")))


def tour_name(name: str) -> str:
    """A tour's name as the player reads it: a shipped tour's English name in the player's
    language ("Trois semaines"), any other name as written (the tour files and saves keep
    the name as written, as stage_name for stages)."""
    return i18n._(name) if name in _TOUR_NAMES else name


def player_name(seat: int) -> str:
    """A lone rider's default name, "Player 3", in the player's language (seat counted from 0)."""
    return i18n._("Player {n}").format(n=seat + 1)


# A team's name is stored as a string, in the set-up a race is made from and in its saves: a team
# nobody named is stored under its default name in the language of whoever set the race up ("Bleu").
# Every screen and telling of a race shows such a name in the language now, through these two.

@functools.cache
def _default_names(colour: str, seat: int, scripted: str) -> dict[str, str]:
    """Every language's default names of a team (its colour's name; "Player 3" for a player
    racing one rider; "Purple Peloton" for a scripted team), each to the kind of default it is."""
    names: dict[str, str] = {}
    for code in i18n.LANGUAGES:
        with i18n.speaking(code):
            names[player_name(seat)] = "player"
            if scripted in SCRIPTED_NAMES:
                names[f"{colour_name(colour)} {SCRIPTED_NAMES[scripted]}"] = "scripted"
            names[colour_name(colour)] = "colour"
    return names


def default_named(name: str, colour: str, seat: int, scripted: str = "") -> str:
    """`name` as the player reads it: a default name in any language ("Bleu", "Joueur 3", "Violet
    Peloton") is the default in the language now ("Blue", "Player 3", "Purple Peloton"); a name a
    player typed stays as typed (but for one that is the team's default in a language, "Rojo"
    typed for the red team: a set-up or a save cannot tell the two apart)."""
    kind = _default_names(colour, seat, scripted).get(name)
    if kind == "colour":
        return colour_name(colour)
    if kind == "player":
        return player_name(seat)
    if kind == "scripted":
        return f"{colour_name(colour)} {SCRIPTED_NAMES[scripted]}"
    return name


def team_name(setup: Any, seat: int) -> str:
    """The name of a race's team (a set-up's, `seat`: counted from 0) as the player reads it
    now: named by default in the language now, a name typed as typed (default_named).  Saves
    and set-ups keep the name as it was given; this is for the screens and the narrator."""
    team = setup.teams[seat]
    scripted = getattr(setup, "scripted", ())  # (classic and meteo: "", "peloton" or "muscle" a seat)
    return default_named(team.name, team.colour, seat, scripted[seat] if seat < len(scripted) else "")


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
