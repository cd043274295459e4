"""The decision aids on the race screen: what the screen shows for a card is
what the round does with it.

While picking, every card of the hand is selected in turn; the square the
track previews (▼▼) and the square written on the card must be where the
engine's own movement step takes the rider with every other rider still
(a copy of the game moves it).  Riders in the way are said as the engine
says them (Preview.crowd, tests/test_crowd.py): "blocked" on the card and XX
on the track only when it is blocked whatever the others play, and in words
when the others' cards decide.  Then, once the cards are revealed, each
rider that nothing got in the way of ends exactly where its card's preview
said.  The aids setting off (the real table) shows none of it.
"""

from __future__ import annotations

import contextlib
import re

import pytest
from rich.text import Text

from flamme_tui import settings as user_settings
from flamme_tui.bots.easy import easy
from flamme_tui.engine.events import Move
from flamme_tui.engine.options import BLOCKED, CLEAR, MAY
from flamme_tui.play.narrator import label
from flamme_tui.ui.app import FlammeApp
from flamme_tui.ui.scenarios import settle
from flamme_tui.ui.textshot import screen_text

from .driver import new_race_menus, play_race, set_players

pytestmark = pytest.mark.usefixtures("fast_pilot")


def moved_alone(game, i: int, card: int) -> tuple[int, int, bool]:
    """Where the round's movement step takes rider i with `card`: its seat's
    other rider moves first if its card is down and it is ahead (the round's
    order, furthest first), every other rider still."""
    twin = game.clone()
    order = twin.movement_order()
    seat = game.riders[i].seat
    for j in order[:order.index(i)]:
        played = game.riders[j].played
        if j != i and game.riders[j].seat == seat and played is not None:
            twin.move_rider(j, twin.card_worth(j, played), played)
    twin.events = []
    twin.move_rider(i, twin.card_worth(i, card), card)
    (move,) = [e for e in twin.events if isinstance(e, Move)]
    return move.square, move.lane, move.blocked


class Enough(Exception):
    """The race has shown all a test looks for."""


@pytest.mark.parametrize("variant, stage_downs, seed", [("classic", 3, 11), ("meteo", 4, 5)])
async def test_every_preview_shown_is_what_the_round_does(variant, stage_downs, seed):
    app = FlammeApp(seed=seed, autoplay=False, autosave=False)
    promised: dict[int, tuple[int, bool]] = {}  # rider -> (square, blocked) shown for the card it plays
    counts = {"cards": 0, "blocked now": 0, "maybe": 0, "checked moves": 0, "first riders": 0, "aims": 0}

    async def on_state(pilot, seen) -> None:
        if counts["cards"] > 100 and counts["checked moves"] > 50 and counts["first riders"] > 40 and counts["maybe"] > 10 \
                    and counts["blocked now"]:
            raise Enough  # all that was to be seen is seen: the rest of the race would take as long again
        screen = app.screen
        if type(screen).__name__ != "RaceScreen":
            return
        turn = screen.turn
        game = screen.flow.game
        if turn.kind == "reveal" and screen.flow.replay is not None and screen.flow.replay.step == 0:
            moves = [e for e in game.events if isinstance(e, Move)]
            for k, e in enumerate(moves):
                square, blocked = promised.pop(e.rider)
                if k == 0 or not (e.blocked or blocked):  # nobody in its way: exactly as shown
                    assert e.square == square, (game.round, e)
                    counts["checked moves"] += 1
            return
        if turn.kind != "pick" or screen.pending is not None:
            return
        i = turn.rider
        for k, card in enumerate(list(screen.options)):
            await pilot.press("right")  # card k selected (a number would play it)
            assert screen.sel == k
            square, lane, blocked = moved_alone(game, i, card)
            crowd = game.view(turn.seat).road(i, card)[0]
            # the riders on the square it aims at all move first and leave it: the card lands there
            aim = game.pos[i][0] + game.reach(i, card) if crowd == CLEAR else square
            scene = screen.track.scene
            assert scene.previews[0] == aim, (card, scene.previews)
            for j, down in game.view(turn.seat).chosen.items():  # the first rider's mark counts this card
                twin = game.clone()
                for r in twin.movement_order():
                    if r in (i, j):
                        c = card if r == i else down
                        twin.move_rider(r, twin.card_worth(r, c), c)
                assert twin.pos[j][0] in scene.previews[1:], (card, down, scene.previews)
                counts["first riders"] += 1
            shown = screen.cards.cards[k]
            assert shown.lines[0].endswith(f"→{label(game.course, aim)}"), shown.lines
            assert (shown.lines[1] == "blocked") is (crowd == BLOCKED) or shown.lines[1] in ("crash!", "finish")
            assert bool(scene.blocked) is (crowd == BLOCKED)
            if crowd == BLOCKED:
                assert "XX" in screen_text(app)
                assert max(scene.blocked) > square
            hint = " ".join(Text.from_markup(screen._texts[screen.hint_w]).plain.split())
            said = ("riders ahead may leave it" if blocked else "riders ahead may fill") in hint
            assert said is (crowd == MAY and square < game.course.finish), (card, crowd)
            counts["maybe"] += crowd == MAY
            if crowd == MAY and blocked:
                # short of its aim only if the riders there stay: the card says the aim ("→G1?"), unless
                # a word that comes first has the line
                aim_word = f"→{label(game.course, game.pos[i][0] + game.reach(i, card))}?"
                assert shown.lines[1] == aim_word or re.fullmatch(r"moves \d+|crash\?|finish", shown.lines[1]), \
                    shown.lines
                counts["aims"] += shown.lines[1] == aim_word
            counts["blocked now"] += blocked
            counts["cards"] += 1
        played = easy(game.view(turn.seat)).card
        promised[i] = moved_alone(game, i, played)[::2]

    async with app.run_test(size=(100, 30)) as pilot:
        await new_race_menus(pilot, variant, stage_downs=stage_downs)
        await set_players(pilot, 4)
        await pilot.press("ctrl+s")
        with contextlib.suppress(Enough):
            await play_race(pilot, on_state=on_state)
    assert counts["cards"] > 100 and counts["checked moves"] > 50 and counts["first riders"] > 40
    assert counts["maybe"] > 10 and counts["blocked now"] > 0, "no card in a pack in this race: pick another seed"
    assert counts["aims"] > 0  # a card that stops short only if the riders in its way stay, its aim said


async def test_the_real_table_setting_shows_no_aid(tmp_path, monkeypatch):
    monkeypatch.setenv("FLAMME_TUI_CONFIG_DIR", str(tmp_path / "config"))
    user_settings.save(user_settings.Settings(aids=False))
    app = FlammeApp(seed=11, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await new_race_menus(pilot, "classic", stage_downs=3)
        await pilot.press("ctrl+s", "enter", "1")  # the curtain, the Sprinteur draws first
        await pilot.pause()
        screen = app.screen
        assert screen.turn.kind == "pick"
        await pilot.press("right", "right")
        assert all(len(card.lines) == 1 and "→" not in card.lines[0] for card in screen.cards.cards)
        assert screen.track.scene.previews == () and "▼" not in screen_text(app)
        assert "to go)" not in screen_text(app)  # no sentence on what the card does
        await pilot.press("enter", "right")  # the Rouleur: the Sprinteur's card is not previewed either
        assert screen.track.scene.previews == ()


async def test_the_cards_wind_marks_are_the_engines_and_the_reveal_marks_who_took_exhaustion():
    """Item 9: before the reveal each card's bottom border says who will be in
    the wind (+E for sure, else its chance: +E 30%), the engine's Preview.wind counting the
    first rider's card down; after it, "+E" under the card of each rider that
    took an exhaustion card (none other)."""
    from flamme_tui.engine.events import Exhaustion
    from flamme_tui.ui.aids import wind_mark
    from flamme_tui.ui.scenarios import SCENARIOS, SEED

    app = FlammeApp(seed=SEED, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await SCENARIOS["wind"](pilot)
        screen = app.screen
        turn = screen.table.turn()
        assert turn.kind == "pick" and turn.view.chosen  # the second rider, the first one's card down
        shown = [card.foot for card in screen.cards.cards]
        want = {o.preview.value: wind_mark(o.preview, False) for o in turn.options}
        assert shown == [want[c] for c in screen.options] and all(shown)
        assert re.search(r"\+E( [1-9]0|<10|>90)%", screen_text(app))  # a chance, not "+E?": the engine's odds
        await pilot.press("1")  # the card plays; the review
        await pilot.press("enter")
        for _ in range(20):  # the other seat's turn by keys, then the reveal to its end
            await pilot.pause()
            kind = getattr(getattr(app.screen, "turn", None), "kind", None)
            if kind == "reveal":
                break
            await pilot.press({"draw": "1", "pick": "1", "review": "enter"}.get(kind, "enter"))
        assert app.screen.turn.kind == "reveal"
        await pilot.press(*["space"] * (len(screen.table.turn().frames) - 1))  # step by step to the last
        await pilot.pause()
        assert screen.table.turn().step == len(screen.table.turn().frames) - 1
        tired = {e.rider for e in screen.flow.game.events if isinstance(e, Exhaustion)}
        marked = {card.data[0] for card in screen.cards.cards if card.foot == "+E"}
        assert tired and marked == tired


# ---------------------------------------------------- the words at 80x24

PANEL = 47  # the hint's width at 80 columns (the log's 30 cells and the paddings off; checked below)


def every_preview():
    """A card's preview with each set of things the aids may have to say of it:
    riders in the way (none, blocked, a full square its riders leave, the
    riders ahead may fill it or leave it), a crash for sure or maybe (meteo),
    the terrain, standing up (meteo), who will be in the wind.  (meteo: whether
    the words may have to say what only a meteo stage has.)"""
    from flamme_tui.engine.options import CRASH, WIND, Preview

    for crowd, fall in [("", ""), (CLEAR, ""), (BLOCKED, ""), (BLOCKED, CRASH), (MAY, ""), (MAY, MAY)]:
        for blocked in ((True, False) if crowd == MAY else (crowd == BLOCKED,)):
            for terrain in ("", "climb", "descent", "supply"):
                for standup in (0, 2):
                    for wind, front, odds in [(WIND, True, -1), (MAY, True, -1), (MAY, False, -1), (MAY, True, 50),
                                               (MAY, False, 5), (MAY, True, 100), ("", False, -1)]:
                        moves = (5 if terrain else 9) - standup
                        yield bool(standup or fall), Preview(0, 12, 9, moves, 5 if terrain else 9, 12 + moves - blocked,
                                                             0, blocked, terrain, standup, 0, fall == CRASH, front,
                                                             False, wind, crowd, fall, odds)


@pytest.mark.parametrize("lang", ["en", "fr", "es"])
def test_every_card_s_words_fit_the_lines_the_screen_keeps_for_them_at_80_columns(lang):
    """A playtest at 80x24: the words under the cards of a card with several
    things to say were cut with "…" ("3 → square 18 (55 to go) · sheltered for
    now: the others' cards decide · it aims at 21, full…").  Said briefly, every
    set of them fits in the lines the race screen keeps for them under the
    cards (three, four on a meteo stage: RaceScreen's HINT_LINES), wrapped as
    the screen wraps them, in the three languages."""
    from textual.content import Content

    from flamme_tui import i18n
    from flamme_tui.engine.course import Course
    from flamme_tui.ui.aids import sentence
    from flamme_tui.ui.screens.race import HINT_LINES

    course = Course.build("test", "." * 90, 80, 4)
    with i18n.speaking(lang):
        for meteo, preview in every_preview():
            said = sentence(preview, course, False, 9)
            assert len(Content(said).wrap(PANEL)) <= HINT_LINES[meteo], said


def made_up_race(lanes: int = 3, teams: int = 4):
    """Round 1 of a race from a made-up position (engine Race.from_position), red to play: its
    Sprinteur's 2 on a descent plays as 5 and aims at a square three riders fill now, who move
    first and surely leave it (nothing ahead of them), and it ends in the wind for now: four
    things to say.  Three lanes and four teams: on a Peloton stage at 80x24 the boards in a row
    each left the words no line at all."""
    from flamme_tui.engine.course import Course
    from flamme_tui.engine.race import Placed
    from flamme_tui.engine.rules import find
    from flamme_tui.play.flow import RaceFlow
    from flamme_tui.play.session import Session

    terrain = "...." + "vvv" + "." * 40
    course = Course.build("Descent", terrain, 44, 4, lanes=(lanes,) * len(terrain))
    riders = [Placed("red.S", 4, 0), Placed("red.R", 20, 0), Placed("blue.S", 9, 0), Placed("blue.R", 9, 1),
              Placed("green.S", 9, 2), Placed("green.R", 25, 0), Placed("black.S", 30, 0), Placed("black.R", 30, 1),
              Placed("white.S", 33, 0), Placed("white.R", 33, 1), Placed("pink.S", 36, 0), Placed("pink.R", 36, 1)]
    game = find("classic").game.from_position(course, riders[:2 * teams], 3)
    game.riders[game.index["red.S"]].deck = [2, 3, 5, 9] * 4
    session = Session(game.setup, 3)
    session.game = game
    return RaceFlow(session)


@pytest.mark.parametrize("lang", ["en", "fr", "es"])
@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
async def test_a_card_with_four_things_to_say_is_said_whole_under_the_cards(lang, size):
    """The made-up race's card: every word of what the aids say of it on the screen, under the
    cards, nothing cut; the boards (two columns at 80x24: a row each left the words no line),
    the cards, the track and the key bar whole in the window.  A larger window keeps the boards
    in a row each and has the notes and the keys under the words too."""
    from textual.content import Content

    from flamme_tui import i18n
    from flamme_tui.ui.aids import sentence
    from flamme_tui.ui.widgets.board import Boards

    with i18n.speaking(lang):
        app = FlammeApp(seed=3, autoplay=False, autosave=False)
        async with app.run_test(size=size) as pilot:
            screen = await sprinteurs_2_selected(pilot, made_up_race())
            turn = screen.turn
            picked = next(o.preview for o in turn.options if o.preview.value == 2)
            assert (picked.crowd, picked.terrain, picked.wind) == (CLEAR, "descent", MAY)
            said = sentence(picked, screen.board.course, False, 2)
            lines = screen_text(app).splitlines()
            hint = screen.hint_w.region
            assert screen.hint_w.size.width == PANEL or size != (80, 24)
            shown = " ".join(line[hint.x:hint.right] for line in lines[hint.y:hint.bottom]).split()
            assert shown[:len(said.split())] == said.split(), (said, shown)
            width, height = size
            # (the stage of 44 squares in one band of the strip at 120 columns: no overview, it said it again)
            whole = screen.query_one("#track").one_band(width)
            assert screen.query_one("#overview").display is not whole and whole == (width == 120)
            for part in ("#status", "#track", "#panel-title", "#cards", "#panel-hint", "#boards", "#keys") + (
                    () if whole else ("#overview",)):
                region = screen.query_one(part).region
                assert region.height >= 1 and region.bottom <= height and region.right <= width, (part, region)
            boards = screen.query_one("#boards", Boards)
            assert boards.region.height == Boards.fixed_height(8, boards.columns) and boards.columns == (
                2 if height < 32 else 1)
            assert screen.query_one("#cards").region.height == 4 and screen.query_one("#keys").region.y == height - 1
            if height >= 40:  # the notes and keys under the words
                rest = Content.from_markup(screen.panel.pick_notes).plain.split() + \
                    Content.from_markup(screen.panel.pick_keys).plain.split()
                assert shown[len(said.split()):] == rest, shown


@pytest.mark.parametrize("variant, stage, teams", [
    ("classic", "avenue-corso-paseo", 3), ("classic", "avenue-corso-paseo", 4), ("meteo", "avenue-corso-paseo", 3),
    ("meteo", "avenue-corso-paseo", 4), ("classic", "peloton-9", 3), ("classic", "peloton-9", 4),
    ("meteo", "peloton-9", 3)])
async def test_the_race_screen_keeps_the_words_their_lines_at_80x24(variant, stage, teams):
    """Three and four teams at 80x24: the boards, a row a rider, left two lines under
    the cards (a meteo stage one, a Peloton stage with four teams none); the boards go to
    two columns there and the words of the selected card have their lines (HINT_LINES)."""
    from flamme_tui.ui.scenarios import choices
    from flamme_tui.ui.screens.race import HINT_LINES

    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        app.start_race(choices(variant, teams, stage=stage))
        await settle(pilot)
        await pilot.press("enter", "1")  # the curtain, the Sprinteur draws first
        await settle(pilot)
        screen = app.screen
        assert screen.turn.kind == "pick"
        assert screen.hint_w.region.height >= HINT_LINES[variant == "meteo"]
        assert screen.query_one("#boards").region.bottom == 23  # whole, over the key bar


@pytest.mark.parametrize("lang", ["en", "fr", "es"])
async def test_six_teams_on_three_lanes_say_whole_parts_of_a_card_at_80x24(lang):
    """Six teams on three lanes at 80x24 leave the words under the cards two lines: the card
    with four things to say took three and its last line was lost off the panel ("… · 21 full,"
    and no more).  What does not fit is left out by whole parts, the least important last, and
    the lines shown are the words wrapped between words."""
    from flamme_tui import i18n
    from flamme_tui.ui.aids import sentence_parts

    with i18n.speaking(lang):
        app = FlammeApp(seed=3, autoplay=False, autosave=False)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await sprinteurs_2_selected(pilot, made_up_race(lanes=3, teams=6))
            picked = next(o.preview for o in screen.turn.options if o.preview.value == 2)
            parts = sentence_parts(picked, screen.board.course, False, 2)
            hint = screen.hint_w.region
            assert hint.height == 2 and len(parts) == 4
            lines = screen_text(app).splitlines()[hint.y:hint.bottom]
            shown = " ".join(line[hint.x:hint.right] for line in lines).split()
            whole = [" · ".join(parts[:k]).split() for k in range(1, len(parts) + 1)]
            assert shown in whole, (shown, parts)  # whole parts, the first ones
            assert len(shown) >= len(whole[1])  # (and as many as the lines hold: two of four here)


async def sprinteurs_2_selected(pilot, flow):
    """The race screen of `flow` (made_up_race), the curtain lifted, the Sprinteur drawn
    first and its first card, the 2, selected."""
    pilot.app.start_flow(flow)
    await settle(pilot)
    await pilot.press("enter")  # the curtain
    await settle(pilot)
    await pilot.press("1")  # the Sprinteur draws first
    await settle(pilot)
    await pilot.press("right")
    return pilot.app.screen


def test_a_card_short_of_its_aim_only_if_the_riders_there_stay_says_its_aim():
    """On a full grid "3 →G4" read as a card that does not move: it stops there
    only if the riders on the square it aims at stay, and they move first.  Its
    second line says the aim ("→21?"); a card sure to be blocked says
    "blocked"; one the others may only fill in front of it has no word."""
    from flamme_tui.engine.course import Course
    from flamme_tui.engine.options import Preview
    from flamme_tui.ui.aids import card_lines

    course = Course.build("test", "." * 90, 80, 4)

    def preview(crowd: str, blocked: bool) -> Preview:  # the 9 from square 12: it aims at 21
        return Preview(0, 12, 9, 9, 9, 18 if blocked else 21, 0, blocked, "", 0, 0, False, False, False, "", crowd, "",
                       -1)

    aim, short = label(course, 21), label(course, 18)
    assert card_lines(preview(MAY, True), course, False, 9, True) == (f"9 →{short}", f"→{aim}?")
    assert card_lines(preview(MAY, False), course, False, 9, True) == (f"9 →{aim}", "")
    assert card_lines(preview(BLOCKED, True), course, False, 9, True) == (f"9 →{short}", "blocked")
    assert card_lines(preview(MAY, True), course, False, 9, False) == ("9",)  # the aids off: the value alone
