"""Fewer keys (issue 24, item 10): a Classic turn takes at most 5 keys a
player, the review before passing kept: the curtain, the rider that draws
first, each card (a number plays at once: the review catches a slip), the
review.  A whole round for two humans, counting each player's keys."""

from __future__ import annotations

from collections import Counter

from flamme_tui.ui.app import FlammeApp
from flamme_tui.ui.scenarios import settle
from flamme_tui.ui.textshot import screen_text

from .driver import new_race_menus, screen_name


async def test_a_classic_round_takes_at_most_5_keys_per_player():
    app = FlammeApp(seed=9, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await new_race_menus(pilot, "classic")
        await pilot.press("ctrl+s")
        keys: Counter[int] = Counter()
        reviews: list[int] = []
        for _ in range(40):
            await settle(pilot)
            if screen_name(app) == "CurtainScreen":
                seat, key = app.screen.seat, "enter"  # the player comes to the screen
            else:
                turn = app.screen.turn
                if turn.kind == "reveal":
                    break
                seat = turn.seat
                if turn.kind == "review":
                    reviews.append(seat)
                    key = "enter"  # the seat's cards checked: pass
                else:
                    assert turn.kind in ("draw", "pick"), turn
                    key = "1"  # who draws first, then each card: at once
            keys[seat] += 1
            await pilot.press(key)
        screen = app.screen
        assert screen.turn.kind == "reveal" and screen.flow.game.round == 2  # the whole round was played
        assert reviews == [0, 1]  # each player reviewed its cards before passing
        assert keys == {0: 5, 1: 5}, keys


async def test_since_your_last_look_stays_in_view_through_the_turn():
    """Round 2: Blue's recap of round 1 under the rider choice, both picks and the review (80x24)."""
    app = FlammeApp(seed=9, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await new_race_menus(pilot, "classic")
        await pilot.press("ctrl+s")
        for _ in range(2):  # round 1: each player's 5 keys
            await settle(pilot)
            await pilot.press("enter", "1", "1", "1", "enter")
        await settle(pilot)
        await pilot.press("enter", "enter")  # the reveal skipped, on to round 2: Blue's curtain
        await settle(pilot)
        await pilot.press("enter")
        screen = app.screen
        for key, kind in (("1", "draw"), ("1", "pick"), ("1", "pick"), (None, "review")):
            await settle(pilot)
            assert screen.turn.kind == kind and screen.flow.game.round == 2
            assert "Since your last look: round 1:" in screen_text(app), kind
            if key:
                await pilot.press(key)
