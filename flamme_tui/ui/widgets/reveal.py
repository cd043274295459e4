"""A resolved round on the race screen, step by step (play.table.Revealing):
the cards face up, the track and boards as they stand at the step on screen,
and what the step does in words (the narrator's).  Public: drawn from the
turn's frames and public view only."""

from __future__ import annotations

import textwrap
from dataclasses import replace
from typing import Any

from textual.content import Content

from ...engine.cards import card_text
from ...engine.phase import Phase
from ...i18n import _
from ...play.narrator import frame_forms, frame_title
from ...usertext import cells, escape_markup
from ..palette import rider_style, team_of_rider
from .board import token_str
from .cards import Card
from .track import Scene


def revealed_cards(turn, drawing) -> tuple[Card, ...]:
    """Every rider's card (tokens) face up, in rider order."""
    cards = []
    for i, played in sorted(turn.revealed, key=lambda p: p[0]):
        value = token_str(played) if drawing.bmx else card_text(played)
        colour = rider_style(team_of_rider(drawing.board.riders[i].id).hex)
        cards.append(Card(drawing.label(i), (value,), big=value, title_style=colour, data=(i,)))
    return tuple(cards)


def fitting(forms: list[str], width: int, height: int) -> str:
    """The first of `forms` (the longest first) that fits in `height` lines of
    `width` cells wrapped between words, else the shortest."""
    for form in forms:
        if len(textwrap.wrap(form, max(8, width), break_long_words=False, break_on_hyphens=False)) <= max(1, height):
            return form
    return forms[-1]


def show_reveal(panel: Any, turn, keys: str) -> None:
    """The step `turn.step` of the round: `keys` say what Enter (and the other keys) do now."""
    drawing = panel.drawing
    frame = turn.frames[turn.step]
    title = frame_title(frame.kind, drawing.bmx)
    before = turn.frames[turn.step - 1].pos if turn.step > 0 else None
    width, height = panel.hint_w.size
    words = fitting(frame_forms(frame, before, drawing.label, turn.view.board), width or 48, height or 1)
    # (the round is on the status line; the keys, said in the key bar too, left out if the step's name
    # would not fit whole: "espace suite · ⏎ sauter · 1/15 : cartes révélé…" in French at 80 columns)
    n, steps = turn.step + 1, len(turn.frames)
    heading = _("{keys} · step {n}/{steps}: [b]{title}[/b]").format(keys=keys, n=n, steps=steps, title=title)
    if cells(Content.from_markup(heading).plain) > (panel.title_w.size.width or 49):
        heading = _("step {n}/{steps}: [b]{title}[/b]").format(n=n, steps=steps, title=title)
    panel.panel(heading, escape_markup(words))
    # who took an exhaustion card (fatigue token) so far: "+E" under its card, from that step on
    tired = {i for f in turn.frames[: turn.step + 1] if f.kind in ("exhaust", "fatigue") for i in f.active}
    mark = "+F" if drawing.bmx else "+E"
    cards = [replace(c, active=c.data[0] in frame.active, foot=mark if c.data[0] in tired else "")
             for c in panel.base_cards]
    die = None
    if drawing.bmx:
        rolled = next((f.die for f in turn.frames[: turn.step + 1] if f.kind == "die"), None)
        die = " " if rolled is None else (str(rolled) if rolled else "-")
    panel.cards.show("revealed", cards, die=die)
    focus = frame_focus(frame, turn.view.board.course)
    slips = tuple(frame.pos[i][0] for i in frame.active) if frame.kind in ("slip", "catchup") else ()
    drawing.show_track(Scene(drawing.marks(frame.pos, frame.crashed, set(frame.active)), trail=frame.trail,
                             marks=frame.marks, mark_glyph="+F" if drawing.bmx else "+E", slips=slips, focus=focus))
    drawing.show_boards(turn.view, public=True, positions=frame.pos, crashed=frame.crashed, tally=frame.tally)
    drawing.set_status(_("reveal and movement"))


def after_words(turn) -> str:
    """What Enter leads to after the round: "on to the results" or "on to round 4"."""
    board = turn.view.board
    return _("on to the results") if board.phase == Phase.OVER else _("on to round {n}").format(n=board.round)


def frame_focus(frame, course) -> tuple[int, ...]:
    """The squares a reveal step keeps in view: its rider's trail, or where its
    riders stand; the finish line for riders across it that have left the
    track (a tour's last step showed the start, nobody on it)."""
    focus = tuple(frame.trail[::-1]) if frame.trail else tuple(frame.pos[i][0] for i in frame.active)
    if focus and all(square < 0 for square in focus):
        return (course.finish,)
    return focus
