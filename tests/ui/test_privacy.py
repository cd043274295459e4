"""Hot-seat privacy: no screen shows another player's drawn or unrevealed cards,
and the curtain shows no hand at all.  Checked at every curtain and every
pick of a whole 3-player race, on the screenshot text and the widget tree."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from textual.screen import ModalScreen

from flamme_tui.ui.app import FlammeApp
from flamme_tui.ui.palette import rider_label
from flamme_tui.ui.scenarios import settle
from flamme_tui.ui.textshot import svg_text
from flamme_tui.ui.widgets.board import Boards

from .driver import new_race_menus, play_race, screenshot_text, set_players, shown_cards

pytestmark = pytest.mark.usefixtures("fast_pilot")

CARD_TITLE = re.compile(r"[╭┏]─+ ?\d ")  # the top border of a hand card: "╭─ 1 ───╮"
PRIVATE_WORDS = ("pick a card", "pick your token", "draws first?", "face down", "keep 2", "bag:")


def check_curtain(app) -> None:
    screen = app.screen
    assert not isinstance(screen, ModalScreen), "the curtain must be opaque (a plain Screen)"
    assert shown_cards(app, "hand") == []
    assert shown_cards(app, "riders") == []
    text = screenshot_text(app)
    assert "Pass to" in text
    assert not CARD_TITLE.search(text)
    for word in PRIVATE_WORDS:
        assert word not in text
    # the public table: every seat's piles as the table saw them before this round's draws
    game = app.screen_stack[-2].flow.game
    table = screen.query_one("#curtain-boards", Boards).rows
    assert len(table) == len(game.riders)
    for row in table:
        rider = game.riders[row.index]
        shown = rider.shown_recycled is not None
        assert not row.own
        assert row.deck == (rider.shown_deck if shown else len(rider.deck))
        assert row.recycled == tuple(sorted(rider.shown_recycled if shown else rider.recycled))
        assert row.played == tuple(rider.history)


def check_turn(app) -> None:
    screen = app.screen
    turn = screen.turn
    game = screen.flow.game
    seat = turn.seat
    cards = shown_cards(app, "hand")
    if turn.kind == "pick":
        # exactly the acting rider's own drawn cards, nothing else
        assert {c.data[:2] for c in cards} == {(seat, turn.rider)}
        assert Counter(c.data[2] for c in cards) == Counter(game.riders[turn.rider].hand)
    elif turn.kind == "review":
        # the pick's screen stays (its card played): that rider's own cards, and the boards as
        # they were at the pick, never what the pick led to (a round it resolved is not shown yet)
        assert {c.data[:2] for c in cards} == {(seat, turn.rider)}
        assert screen.query_one(Boards).rows == check_turn.rows
    else:
        assert cards == []
    if turn.kind == "draw":
        assert {c.data[0] for c in shown_cards(app, "riders")} == {seat}
    # the boards: other seats' piles as the table saw them before this round's draws
    rows = screen.query_one(Boards).rows
    check_turn.rows = rows
    for row in rows if turn.kind != "review" else ():
        rider = game.riders[row.index]
        if row.seat == seat:
            continue
        assert not row.own
        shown = rider.shown_recycled is not None
        assert row.deck == (rider.shown_deck if shown else len(rider.deck))
        assert row.recycled == tuple(sorted(rider.shown_recycled if shown else rider.recycled))
        assert row.played == tuple(rider.history)  # revealed cards only
    # the recap "since your last look": rounds already revealed, each card in it the
    # one its rider played face up in that round (never a card of the round in progress)
    labels = {rider_label(r.id, r.kind): r for r in game.riders}
    for line in screen.recap:
        if not line.startswith("round "):  # a card changed before passing: whose, never which
            assert re.fullmatch(r"[^:]+ took their last (card|token) back", line), line
            continue
        number, _, moves = line.partition(": ")
        done = int(number.removeprefix("round "))
        assert done < game.round and "face down" not in line and "(bot, " not in line
        for label, card, _ in re.findall(r"\b([A-Z][SR]) (\w) (\S+→\S+)", moves):
            assert card == ("E" if labels[label].history[done - 1] == 0 else str(labels[label].history[done - 1]))
    text = screenshot_text(app)
    # a "plays N (face down)" note is only ever about the acting player's own choice
    view = game.view(seat)
    for value in re.findall(r"plays (\w) \(face down\)", text):
        assert value in {("E" if c == 0 else str(c)) for c in view.chosen.values()}
    for other in range(len(game.setup.teams)):
        if other != seat:
            assert f"{game.setup.teams[other].name}: pick" not in text


async def test_no_screen_shows_another_players_cards():
    app = FlammeApp(seed=92, autoplay=False)
    checks = Counter()

    async def on_state(pilot, seen) -> None:
        name = type(app.screen).__name__
        if name == "CurtainScreen":
            check_curtain(app)
            checks["curtain"] += 1
        elif name == "RaceScreen" and app.screen.turn.kind in ("draw", "pick", "review"):
            check_turn(app)
            checks[app.screen.turn.kind] += 1
            if app.screen.turn.kind == "draw" and app.screen.recap:
                checks["recap"] += 1
                checks["changed"] += sum("took their last card back" in line for line in app.screen.recap)
                assert "Since your last look" in screenshot_text(app)

    async with app.run_test(size=(80, 24)) as pilot:
        await new_race_menus(pilot, "meteo")
        await set_players(pilot, 3)
        await pilot.press("ctrl+s")
        seen = await play_race(pilot, on_state=on_state, undo_every=4)  # a last card changed now and then
        rounds = app.screen.flow.game.round
        assert app.screen.flow.session.entries.count("undo") == seen.undos > 0
    assert checks["curtain"] == 3 * rounds
    assert checks["draw"] == 3 * rounds
    assert checks["pick"] == 6 * rounds + seen.undos  # each card taken back picked again
    assert checks["review"] == 3 * rounds + seen.undos  # each seat's cards reviewed before passing
    assert checks["recap"] >= 3 * (rounds - 1)  # after each curtain from round 2 on, a recap
    assert checks["changed"] > 0  # and in it, the cards changed before passing (whose, never which)


async def test_help_over_a_curtain_shows_no_hand():
    app = FlammeApp(seed=7, autoplay=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await new_race_menus(pilot, "classic")
        await pilot.press("ctrl+s")
        await settle(pilot)
        await pilot.press("enter", "1", "2", "1", "enter")  # Blue plays both riders
        await settle(pilot)
        assert type(app.screen).__name__ == "CurtainScreen"
        await pilot.press("question_mark")
        await pilot.pause()
        assert shown_cards(app, "hand") == []
        text = screenshot_text(app)
        assert not CARD_TITLE.search(text)


async def test_the_screenshot_text_is_the_svg_screenshots_text():
    """The checks above read the screen with driver.screenshot_text (drawing no SVG): it is
    the text of the SVG screenshot, on every kind of screen they look at."""
    app = FlammeApp(seed=7, autoplay=False)
    async with app.run_test(size=(80, 24)) as pilot:
        looked = []

        def same() -> None:
            looked.append(type(app.screen).__name__)
            assert screenshot_text(app) == svg_text(app.export_screenshot()), looked[-1]

        same()  # the title menu
        await new_race_menus(pilot, "meteo")
        same()  # the teams screen
        await pilot.press("ctrl+s")
        await settle(pilot)
        same()  # the curtain over the race
        await pilot.press("enter")
        await settle(pilot)
        same()  # a draw
        await pilot.press("1")
        await pilot.pause()
        same()  # a pick
        await pilot.press("question_mark")
        await pilot.pause()
        same()  # the help over the race
    assert looked == ["TitleScreen", "TeamsScreen", "CurtainScreen", "RaceScreen", "RaceScreen", "HelpScreen"]
