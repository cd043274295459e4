"""The boards in words, against the engine: exhaustion cards held (received
and handicap, not yet played) and played, recycled cards summarised by value
without cutting, and the ✓ of a rider whose card for the round is down."""

from __future__ import annotations

import pytest

from flamme_tui.ui.app import FlammeApp
from flamme_tui.ui.scenarios import advance, choices, settle
from flamme_tui.ui.widgets.board import board_rows, summary

pytestmark = pytest.mark.usefixtures("fast_pilot")


def test_exhaustion_held_counts_received_and_handicap_cards_not_yet_played():
    race = choices("classic", 3, seed=21)
    race.seats[1].extra = 3  # a handicap: three exhaustion cards in each of Orange's decks
    session = race.session()
    game = session.game
    checked = 0
    for _ in range(12):
        advance(session, 1)
        if game.phase == "over":
            break
        for seat in range(3):
            view = game.view(seat)
            for row in board_rows(view, [t.name for t in game.setup.teams]):
                if row.seat != seat:
                    continue
                r = game.riders[row.index]
                held = (r.deck + r.recycled + r.hand).count(0) + (r.played == 0)
                assert row.exhaustion_held == held, (game.round, row.label)
                assert row.exhaustion_played == list(r.history).count(0)
                checked += 1
    assert checked > 50
    assert any(row.handicap == 3 for row in board_rows(game.view(1), ["a", "b", "c"]))


def test_recycled_cards_summarised_by_value_never_cut():
    assert summary([3, 3, 4, 0, 9, 0]) == "1×9 1×4 2×3 2×E"
    assert summary([]) == "-"


async def test_a_rider_whose_card_is_down_is_marked_for_everybody():
    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(100, 30)) as pilot:
        from .driver import new_race_menus

        await new_race_menus(pilot, "classic")
        await pilot.press("ctrl+s")
        await settle(pilot)
        await pilot.press("enter", "1", "enter", "1", "enter", "1", "enter", "enter")  # Blue plays both riders
        await settle(pilot)
        rows = app.screen.query_one("#curtain-boards").rows  # the public table behind Orange's curtain
        assert [r.ready for r in rows] == [r.seat == 0 for r in rows]
        assert "✓" in str(app.screen.query_one("#curtain-boards").render())
        await pilot.press("enter", "1", "enter", "1", "enter")  # Orange's first card down
        await settle(pilot)
        game = app.screen.flow.game
        rows = app.screen.boards.rows
        assert [r.ready for r in rows] == [game.riders[r.index].played is not None for r in rows]
        assert sum(r.ready for r in rows if r.seat == 1) == 1
