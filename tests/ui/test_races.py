"""Whole races played through the UI only: title menu to podium."""

from __future__ import annotations

import pytest

from flamme_tui.ui.app import FlammeApp

from .driver import new_race_menus, pick_option, play_race, screen_name, set_players


async def test_two_player_classic_race_from_title_to_podium():
    app = FlammeApp(seed=7, autoplay=False)
    async with app.run_test(size=(80, 24)) as pilot:
        assert screen_name(app) == "TitleScreen"
        await new_race_menus(pilot, "classic")
        await pilot.press("ctrl+s")
        seen = await play_race(pilot, use_mouse=True, step_every=3)
        game = app.screen.flow.game
        assert game.phase == "over"
        assert seen.rounds == game.round
        assert seen.clicks > 0
        # two humans: a curtain before each player's turn, every round
        assert seen.curtains[:2] == [0, 1]
        assert len(seen.curtains) == 2 * game.round
        assert [r.seat for r in game.riders] == [0, 0, 1, 1]
        assert app.screen.flow.session.seed == 7
