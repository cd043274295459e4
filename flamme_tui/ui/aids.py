"""The decision aids of the race screen, in words, from the engine's previews.

A preview (engine.options.Preview) says where a card (BMX: tokens) would take
a rider if every other rider stood still: the square, what the terrain makes
of the card, and whether the rider would then be at the front of its group
(nobody on the square just ahead: an exhaustion card, BMX a fatigue token,
unless slipstream or catch-up carries it on).  What the others' hidden
cards leave open is said as the engine says it: whether riders in the way
stop it short and whether it crashes (Preview.crowd, Preview.fall: the
riders ahead move first, so "blocked" only when it is sure), and who ends
in the wind (Preview.wind).  Nothing is computed here: the engine's code
made the preview; this module only says it.  No Textual here.

With the aids off (the "real table" setting) a card shows its value only.
"""

from __future__ import annotations

from ..engine.cards import card_text
from ..engine.events import token_text
from ..engine.options import BLOCKED, CLEAR, CRASH, MAY, WIND, Preview
from ..i18n import _
from ..play.narrator import chance_tens, label, terrain_word, to_go, wind_chance
from .widgets.board import token_str


def value_text(preview: Preview, bmx: bool, shown: object) -> str:
    """The card's (tokens') face: "9", "E", "A"; BMX "3", "F", "3+2"."""
    if bmx:
        return token_str(shown) if isinstance(shown, tuple) else token_text(int(shown))  # type: ignore[call-overload]
    return card_text(int(shown))  # type: ignore[call-overload]


def flag(preview: Preview, bmx: bool) -> str:
    """The one word a card has room for (7 cells), the most important first:
    it would crash whatever the others play, riders in the way stop it short
    whatever they play, it may crash (the riders ahead, who move first, may
    block it on a wet road), the terrain (or standing up, or the ramp)
    changes how far it goes.  A card the others' cards may block has no
    word: in a pack that is most cards (`sentence` says it; `card_lines`
    marks those whose square is short of their aim).  Who will be in
    the wind is the card's own mark (wind_mark), in its bottom border."""
    # (each translation fits the card's 7 cells too)
    if preview.fall == CRASH:
        return _("crash!")
    if preview.finish:
        return _("finish")
    if preview.crowd == BLOCKED:
        return _("blocked")
    if preview.fall == MAY:
        return _("crash?")
    if preview.moves != preview.value or preview.terrain or preview.standup or preview.ramp:
        return _("moves {n}").format(n=preview.moves)
    return ""


def wind_mark(preview: Preview, bmx: bool) -> str:
    """The card's wind mark (engine.options.Preview.wind), as the reveal marks
    the riders who take one: "+E" an exhaustion card (BMX "+F" a fatigue
    token) whatever the others play; if their cards decide, its chance
    ("+E 60%", "+E<10%", "+E>90%"; "+E?" when not worked out); "" none."""
    mark = "+F" if bmx else "+E"
    if preview.wind == WIND:
        return mark
    if preview.wind != MAY:
        return ""
    odds = preview.wind_odds
    if odds < 0:
        return mark + "?"
    tens = chance_tens(odds)
    return mark + ("<10%" if tens == 0 else ">90%" if tens == 100 else f" {tens}%")


def wind_legend(bmx: bool) -> str:
    """What the cards' wind marks say, for the hint under them."""
    return _("+F: a fatigue token, +F 30%: its chance") if bmx else _("+E: an exhaustion card, +E 30%: its chance")


def card_lines(preview: Preview, course, bmx: bool, shown: object, aids: bool) -> tuple[str, ...]:
    """A hand card's body: "9 →12" and a flag ("blocked", "moves 5", `flag`;
    "→14?" where riders in the way may leave the square it aims at), or the
    value alone with the aids off."""
    value = value_text(preview, bmx, shown)
    if not aids:
        return (value,)
    word = flag(preview, bmx)
    if not word and preview.crowd == MAY and preview.blocked:
        # the square it stops on if the riders in the way stay ("3 →G4" on a full grid read as a card
        # that does not move): under it, the square it aims at, which they may leave first ("→G1?")
        word = f"→{label(course, preview.start + preview.moves)}?"
    return (f"{value} →{label(course, preview.square)}", word)


def sentence(preview: Preview, course, bmx: bool, shown: object) -> str:
    """All the preview says, in words, for the selected card (tokens)."""
    return " · ".join(sentence_parts(preview, course, bmx, shown))


def sentence_parts(preview: Preview, course, bmx: bool, shown: object) -> list[str]:
    """What the preview says, a part each, the most important first (the
    move and where it ends first; last what the riders ahead may do)."""
    value = value_text(preview, bmx, shown)
    gone = to_go(course, preview.square)
    where = _("{n} to go").format(n=gone) if gone > 0 else _("over the line")
    words = [_("{value} → {square} ({where})").format(value=value, square=label(course, preview.square), where=where)]
    if preview.crowd == CLEAR:
        words.append(_("{square} full, but its riders leave first").format(square=label(course, preview.square)))
    if preview.terrain:  # (the engine's word for it, told in the player's language)
        words.append(_("{value} plays as {plays_as}: {terrain}").format(value=preview.value, plays_as=preview.plays_as,
                                                                        terrain=terrain_word(preview.terrain)))
    if preview.standup:
        words.append(_("standing up costs {n}").format(n=preview.standup))
    if preview.ramp:
        words.append(_("the ramp adds {n}").format(n=preview.ramp))
    aim = label(course, preview.start + preview.moves)
    if preview.crowd == BLOCKED:
        words.append(_("blocked: full up to {square}").format(square=aim))
    if preview.fall == CRASH:
        words.append(_("it would crash on the wet road"))
    if gone > 0:
        words.append(wind_words(preview, bmx))
    # last: in a pack most cards have it
    if preview.crowd == MAY and not preview.finish:
        if preview.blocked:  # with the others still: but the riders ahead move first
            words.append(_("{square} full: riders ahead may leave it").format(square=aim))
        else:
            words.append(_("riders ahead may fill {square}").format(square=aim))
        if preview.fall == MAY:
            words.append(_("if blocked, it crashes (wet road)"))
    return words


def fit_parts(parts: list[str], width: int, height: int) -> str:
    """`parts` joined by " · ", as many as fit in `height` lines of `width`
    cells wrapped between words (as the panel wraps them, never inside a
    word): the parts that do not fit are left out whole, the least important
    (last) first, so that no line is lost off the panel's end half said.  The
    first part is always kept."""
    import textwrap

    width, height = max(8, width), max(1, height)
    for k in range(len(parts), 1, -1):
        said = " · ".join(parts[:k])
        if len(textwrap.wrap(said, width, break_long_words=False, break_on_hyphens=False)) <= height:
            return said
    return parts[0] if parts else ""


def wind_words(preview: Preview, bmx: bool) -> str:
    """Who will be in the wind, in words (engine.options.Preview.wind): for sure
    whatever the others play, or "for now" (at the front of its group or not
    with the others still: their cards, BMX their tokens and the die, decide)
    and its chance (Preview.wind_odds)."""
    if preview.wind == WIND:
        return _("a fatigue token for sure") if bmx else _("an exhaustion card for sure")
    if preview.wind == MAY:
        if preview.wind_odds >= 0:  # its chance, which says more than where it stands with the others still
            return _("in the wind: {chance}").format(chance=wind_chance(preview.wind_odds))
        return _("in the wind for now") if preview.front else _("sheltered for now")
    return _("no fatigue token for sure") if bmx else _("no exhaustion card for sure")


def down_squares(view, but: int = -1, selected: tuple = ()) -> tuple[int, ...]:
    """Where the seat's cards already down this round take its riders (but rider
    `but`), for the track's ▼▼ marks: both picks shown together, counting
    `selected` (rider, card) not yet down (View.preview)."""
    return tuple(view.preview(j, card, selected).square for j, card in view.chosen.items() if j != but)


def blocked_squares(preview: Preview) -> tuple[int, ...]:
    """The full squares a move blocked whatever the others play could not
    enter (between where it ends and where the card would take it), for the
    track's XX marks."""
    if preview.crowd != BLOCKED:
        return ()
    return tuple(range(preview.square + 1, preview.start + preview.moves + 1))
