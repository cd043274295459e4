"""Team colours, terrain and weather: glyphs first, colour second.

Team colours come from the Okabe-Ito palette (safe for the common forms of
colour blindness).  Every colour also has a letter, and every terrain and
weather kind a glyph, so the track stays readable under NO_COLOR.
No Textual here (only Rich styles), so this module is cheap to import.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache

from rich.style import Style

from ..i18n import N_, _
from ..usertext import escape_markup
from ..words import COLOUR_NAMES, TERRAIN_GLYPHS, WEATHER_EFFECTS, WEATHER_GLYPHS, WEATHER_NAMES


@dataclass(frozen=True, slots=True)
class TeamColour:
    id: str  # used in rider ids: "blue.S"
    english: str  # its name in English (words.COLOUR_NAMES): `name` is the one players read
    hex: str  # Okabe-Ito
    letter: str  # on the track: "BS", "BR"

    @property
    def name(self) -> str:
        """The colour's name in the player's language, as it is shown (the letter stays)."""
        return _(self.english)


# Okabe-Ito, without black (invisible on a dark terminal), then the Peloton
# expansion's white and pink: white is told from every other by its lightness,
# pink by its letter (I, "pInk") beside a purple that is close in hue.
TEAM_COLOURS: tuple[TeamColour, ...] = (
    TeamColour("blue", COLOUR_NAMES["blue"], "#0072B2", "B"),
    TeamColour("orange", COLOUR_NAMES["orange"], "#E69F00", "O"),
    TeamColour("green", COLOUR_NAMES["green"], "#009E73", "G"),  # Okabe-Ito "bluish green"
    TeamColour("purple", COLOUR_NAMES["purple"], "#CC79A7", "P"),  # Okabe-Ito "reddish purple"
    TeamColour("vermillion", COLOUR_NAMES["vermillion"], "#D55E00", "V"),
    TeamColour("yellow", COLOUR_NAMES["yellow"], "#F0E442", "Y"),
    TeamColour("sky", COLOUR_NAMES["sky"], "#56B4E9", "K"),
    TeamColour("white", COLOUR_NAMES["white"], "#F2F2F2", "W"),
    TeamColour("pink", COLOUR_NAMES["pink"], "#FFB3D9", "I"),
)
BY_ID = {c.id: c for c in TEAM_COLOURS}
# the seats' colours, in order, for up to six teams
DEFAULT_COLOURS = ("blue", "orange", "green", "purple", "vermillion", "sky")


def team_colour(colour_id: str) -> TeamColour:
    """The palette entry of a team id; other ids (the engine's and the command
    line's red, black...) get a grey one with a letter of their own."""
    found = BY_ID.get(colour_id)
    if found is not None:
        return found
    letter = _OTHER_LETTERS.get(colour_id)
    if letter is None:
        letter = _OTHER_LETTERS[colour_id] = _free_letter(colour_id)
    return TeamColour(colour_id, colour_id.capitalize(), "#999999", letter)


# The one place letters are given: a colour outside the palette takes the first
# letter of its name no other colour has (then any free one), and keeps it for
# the whole run, so no two colours ever share a letter, in any race, on any screen.
_OTHER_LETTERS: dict[str, str] = {}
_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


def _free_letter(colour_id: str) -> str:
    taken = {c.letter for c in TEAM_COLOURS} | set(_OTHER_LETTERS.values())
    for letter in colour_id.upper() + _LETTERS:
        if letter in _LETTERS and letter not in taken:
            return letter
    return "?"  # (more than 36 colours in one run: only a fuzz test gets here)


for _engine_colour in ("red", "blue", "green", "black", "white", "pink"):  # play.races.COLOURS, in seat order
    team_colour(_engine_colour)  # their letters do not depend on which screen asks first: Red R, Black L


def team_of_rider(rider_id: str) -> TeamColour:
    return team_colour(rider_id.split(".")[0])


def rider_label(rider_id: str, kind: str) -> str:
    """Two cells on the track: team letter + S/R ("BS"), or "B>" for a BMX rider."""
    return team_of_rider(rider_id).letter + (kind or ">")


def contrast_text(hex_colour: str) -> str:
    """Black or white, whichever reads better on the colour."""
    r, g, b = (int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
    luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b
    return "#000000" if luminance > 110 else "#ffffff"


@cache
def rider_style(hex_colour: str, crashed: bool = False, active: bool = False) -> Style:
    if crashed:
        # lying down: team colour on black, lower-case label
        return Style(color=hex_colour, bgcolor="#000000", italic=True, bold=True, underline=active)
    return Style(color=contrast_text(hex_colour), bgcolor=hex_colour, bold=True, underline=active)


def team_markup(colour_id: str, text: str) -> str:
    c = team_colour(colour_id)
    return f"[bold {contrast_text(c.hex)} on {c.hex}]{escape_markup(text)}[/]"


# ----------------------------------------------------------------- terrain

@dataclass(frozen=True, slots=True)
class Terrain:  # name: marked N_, translated where it is shown
    name: str
    fg: str
    bg: str
    glyph: str = ""  # a terrain code's: words.TERRAIN_GLYPHS' (TERRAIN fills it in)


# each terrain code's name and colours; its glyph is words.TERRAIN_GLYPHS' (the text outputs draw the same)
TERRAIN = {code: replace(look, glyph=TERRAIN_GLYPHS[code]) for code, look in {
    ".": Terrain(N_("flat"), "#6c6c6c", "#262626"),
    "^": Terrain(N_("ascent"), "#ff9a7a", "#4d2419"),
    "v": Terrain(N_("descent"), "#8cc8ff", "#173352"),
    "s": Terrain(N_("supply zone"), "#f0e442", "#3d3a12"),
    "c": Terrain(N_("cobbles"), "#d9b38c", "#3b2a1c"),  # Peloton
    # bmx
    "b": Terrain(N_("bumpy"), "#e69f00", "#3b2c12"),
    "k": Terrain(N_("canyon"), "#cc79a7", "#3a2232"),
    "m": Terrain(N_("marsh"), "#3fd0a5", "#123a2c"),
}.items()}
NO_LANE = Terrain(N_("no lane"), "#4a4a4a", "#101010", "░")


def terrain(code: str) -> Terrain:
    return TERRAIN.get(code, TERRAIN["."])


# ----------------------------------------------------------------- weather

@dataclass(frozen=True, slots=True)
class Weather:
    glyph: str
    name: str
    effect: str
    fg: str
    bg: str


WEATHER = {
    kind: Weather(WEATHER_GLYPHS[kind], WEATHER_NAMES[kind], WEATHER_EFFECTS[kind], fg, bg)
    for kind, fg, bg in (("tailwind", "#000000", "#56B4E9"), ("headwind", "#000000", "#E69F00"),
                         ("crosswind", "#000000", "#bbbbbb"), ("wet", "#ffffff", "#0072B2"))
}

# Lines drawn across the track.
START_GLYPH = "║"
FINISH_GLYPH = "▓"
TILE_GLYPH = "│"


def legend_terrain(variant: str, course=None) -> list[tuple[str, str]]:
    """(glyph, name) pairs for the legend of a variant's track; with a `course`,
    only the terrain it has (a stage without cobbles never shows #)."""
    from ..engine.rules import find

    if find(variant).uses_tokens:
        codes = ["b", "k", "v", "m"]
    else:
        codes = [".", "^", "v", "s", "c"]
    if course is not None:
        codes = [c for c in codes if c in course.terrain[:course.length]]
    return [(TERRAIN[c].glyph, _(TERRAIN[c].name)) for c in codes]
