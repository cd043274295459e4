"""Setting up the teams in a few keys: the fill key, left/right on a list, the
last set-up offered again (a new player's review at 80x24 counted about forty
keys to seat five bots)."""

from __future__ import annotations

import pytest

from flamme_tui.ui.app import FlammeApp
from flamme_tui.ui.textshot import rendered_text, screen_text

from .driver import new_race_menus, pick_option, screen_name, set_players

pytestmark = pytest.mark.usefixtures("fast_pilot")


def plays(screen) -> list[str]:
    """Each shown seat's Plays, as the race would get it."""
    choices = screen.gather()
    assert choices is not None
    return [seat.controller for seat in choices.seats]


async def test_one_key_seats_a_hard_bot_in_every_free_seat_up_to_six_teams():
    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await new_race_menus(pilot, "classic")
        screen = app.screen
        assert "fill with bots" in screen_text(app)  # the key bar says it, in words
        # (Tab, Tab: from Players past the grid to the first name) 1 human + 5 bots: one key after the name
        await pilot.press("tab", "tab", *"Ann", "ctrl+f")
        await pilot.pause()
        assert screen.count == 6
        assert plays(screen) == ["human"] + ["hard"] * 5
        assert screen.gather().seats[0].name == "Ann"
        text = screen_text(app)
        assert "6 players, the most: seats 2 to 6 are now hard bots" in text and "Fewer players" in text
        await pilot.press("ctrl+f")  # nothing left to fill: said, nothing changed
        await pilot.pause()
        assert plays(screen) == ["human"] + ["hard"] * 5
        assert "6 players: no free seat to fill" in screen_text(app)
        await pilot.press("f1")
        await pilot.pause()
        assert screen_name(app) == "HelpScreen"
        keys = "\n".join(rendered_text(w.content) for w in app.screen.query("#help-keys"))
        assert any(line.split() == ["^f", "Fill", "with", "bots"] for line in keys.splitlines())  # from the bindings


async def test_the_fill_keeps_what_the_player_set_and_takes_the_last_level_chosen():
    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await new_race_menus(pilot, "classic")
        screen = app.screen
        await set_players(pilot, 4)  # the number chosen: the fill keeps it
        await pick_option(pilot, "controller-1", 2)  # seat 2: Bot: medium, with the mouse
        screen.query_one("#name-2").value = "Zoe"  # seat 3: a name typed, a human
        await pilot.pause()
        await pilot.press("ctrl+f")
        await pilot.pause()
        assert screen.count == 4
        assert plays(screen) == ["human", "medium", "human", "medium"]
        assert "seat 4 is now a medium bot" in screen_text(app)


async def test_the_fill_seats_four_in_bmx_and_the_button_does_what_the_key_does():
    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await new_race_menus(pilot, "bmx")
        await pilot.click("#fill")
        await pilot.pause()
        assert app.screen.count == 4
        assert plays(app.screen) == ["human", "hard", "hard", "hard"]


async def test_the_screen_opens_on_players_where_left_and_right_change_the_choice():
    """A new player's first arrows change something: the screen opens on its first
    choice, the Players list, where → adds a player; a seat's name is typed once Tab
    reaches it, Shift+Tab goes back, the mouse works as before.  (The first name had
    the focus: ← → moved its text cursor, and nothing a player noticed changed.)"""
    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await new_race_menus(pilot, "classic")
        screen = app.screen
        assert app.focused.id == "players"
        await pilot.press("right")
        assert screen.count == 3 and screen.query_one("#seat-2").display
        await pilot.press("left")
        assert screen.count == 2 and not screen.query_one("#seat-2").display
        assert [screen.query_one(f"#name-{seat}").value for seat in range(2)] == ["Blue", "Orange"]  # no name touched
        await pilot.press("tab", "right")  # the grid, a list too
        assert screen.query_one("#grid").value == "choose"
        await pilot.press("tab")  # seat 1's name: typed now (its text selected: typing replaces it)
        assert app.focused.id == "name-0"
        await pilot.press(*"Ann", "tab")
        assert app.focused.id == "colour-0"
        await pilot.press("right")  # the row's colour: past Orange (seat 2's)
        assert screen.query_one("#colour-0").value not in ("blue", "orange")
        await pilot.press("shift+tab", "shift+tab")
        assert app.focused.id == "grid"
        await pilot.click("#name-1")
        await pilot.pause()
        assert app.focused.id == "name-1"
        assert [seat.name for seat in screen.gather().seats] == ["Ann", "Orange"]


async def test_the_key_bar_says_left_and_right_change_only_where_they_do():
    """"← → change" on the key bar where the focus is on a list; in a name (or the
    seed) the arrows move the text cursor, and the bar does not promise a change.
    The help says where the screen opens and how a name is reached."""
    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await new_race_menus(pilot, "classic")
        screen = app.screen

        def bar() -> str:
            return screen_text(app).splitlines()[-1]

        assert "← → change" in bar() and "tab next field" in bar()  # (on Players)
        for field, on_list in (("name-0", False), ("colour-0", True), ("controller-1", True), ("seed", False),
                               ("extra-1", True), ("name-1", False)):
            screen.query_one(f"#{field}").focus()
            await pilot.pause()
            await pilot.pause()  # (the bar follows the focus after a refresh)
            assert ("← → change" in bar()) is on_list, (field, bar())
            assert "f1 help" in bar() and "esc back" in bar()
        await pilot.press("f1")
        await pilot.pause()
        words = " ".join(" ".join(rendered_text(w.content).split()) for w in app.screen.query("#help-text, #help-keys"))
        assert "The screen opens on Players" in words and "a name is typed once Tab reaches it" in words


async def test_left_and_right_step_through_a_focused_list_without_opening_it():
    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await new_race_menus(pilot, "classic")
        screen = app.screen
        await pilot.press("tab", "tab", "tab", "right")  # seat 1's colour: past Orange, seat 2's (choosing it swaps)
        assert screen.query_one("#colour-0").value not in ("blue", "orange")
        assert screen.query_one("#colour-1").value == "orange" and "swap" not in screen_text(app)
        await pilot.press("tab")  # seat 1's Plays
        plays_list = screen.query_one("#controller-0")
        assert app.focused is plays_list
        await pilot.press("right")
        assert plays_list.value == "easy" and not plays_list.expanded
        await pilot.press("right", "right")
        assert plays_list.value == "hard" and app.focused is plays_list
        await pilot.press("left", "left", "left", "left")  # round past Human to the last choice
        assert plays_list.value == "muscle" and "Seat 1 is the Muscle team" in screen_text(app)
        await pilot.press("left")  # what a step said goes with the next step: no pile of toasts
        assert plays_list.value == "peloton" and "Peloton team, scripted" in screen_text(app)
        # the message line in sight says it: no toast over it, and none left from the step before
        assert "Seat 1 is the Peloton team" in str(screen.query_one("#teams-message").render())
        assert not list(app._notifications)  # (no public list)
        await pilot.press("right", "right")  # back through Muscle to Human: what seat 1 was is said no more
        assert plays_list.value == "human" and "scripted" not in screen_text(app)
        await pilot.press("left", "left")
        assert plays_list.value == "peloton"
        await pilot.press("tab")  # the handicap: a bot level's neighbour steps the same way
        await pilot.press("right")
        assert screen.query_one("#extra-0").value == 1
        await pilot.press("shift+tab", "shift+tab", "shift+tab", "shift+tab", "shift+tab")  # Players
        assert app.focused.id == "players"
        await pilot.press("right", "right", "right", "right")
        assert screen.count == 6 and screen.query_one("#seat-5").display
        await pilot.press("enter")  # Enter still opens the list, and its arrows move in it
        await pilot.pause()
        players = screen.query_one("#players")
        assert players.expanded
        await pilot.press("right", "down", "enter")  # right does nothing while the list is open
        await pilot.pause()
        assert not players.expanded and screen.count == 7
        await pick_option(pilot, "controller-1", 1)  # the mouse as before
        assert screen.query_one("#controller-1").value == "easy"


async def test_the_last_set_up_comes_back_with_the_next_new_race():
    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await new_race_menus(pilot, "classic")
        await pilot.press("tab", "tab", *"Ann")
        await pick_option(pilot, "controller-0", 1)  # seat 1: Ann, Bot: easy
        app.screen.query_one("#name-1").value = "Grandma Jo"
        await set_players(pilot, 3)
        await pilot.press("escape", "escape", "escape")  # teams, stage, rule set: the title menu
        await pilot.pause()
        assert screen_name(app) == "TitleScreen"
        await new_race_menus(pilot, "meteo")
        screen = app.screen
        assert screen.count == 3
        names = [screen.query_one(f"#name-{seat}").value for seat in range(3)]
        assert names == ["Ann", "Grandma Jo", "Green"]
        assert plays(screen) == ["easy", "human", "human"]
        # filled (the number of players not chosen on this screen: six teams), then Back: kept too
        await pilot.press("ctrl+f")
        await pilot.pause()
        await pilot.click("#back")
        await pilot.pause()
        await pilot.press("escape", "escape")
        await pilot.pause()
        assert screen_name(app) == "TitleScreen"
        await new_race_menus(pilot, "classic")
        assert plays(app.screen) == ["easy", "human", "hard", "hard", "hard", "hard"]


async def test_nine_players_offered_again_in_bmx_become_four_with_a_colour_each():
    """BMX has no game of players racing one rider each: the last set-up's
    players come back with colours of their own (two Blue seats gave two riders one id,
    `blue`, which the engine now refuses)."""
    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await new_race_menus(pilot, "classic")
        await set_players(pilot, 9)
        app.screen.query_one("#name-1").value = "Dee"
        await pilot.press("escape", "escape", "escape")
        await pilot.pause()
        await new_race_menus(pilot, "bmx")
        seats = app.screen.gather().seats
        assert [s.name for s in seats] == ["Blue", "Dee", "Green", "Purple"]
        assert len({s.colour for s in seats}) == 4 and {s.rider for s in seats} == {"SR"}
        assert "a colour each" in screen_text(app)


async def test_rows_made_when_the_count_grows_show_what_the_hidden_seats_became():
    """The screen makes a seat's row only when the count first reaches it: what changed those
    seats before (a colour swapped with a seat not shown, one rider each and back) is what the
    new row shows, and what the race gets."""
    from flamme_tui.ui.screens.teams import SeatRow

    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await new_race_menus(pilot, "classic")
        screen = app.screen
        assert sorted(row.seat for row in screen.query(SeatRow)) == [0, 1]
        fifth = screen.seats[4].colour
        first = screen.query_one("#colour-0").value
        screen.query_one("#colour-0").value = fifth  # seat 1 takes seat 5's colour: seat 5, no row yet, gets seat 1's
        await pilot.pause()
        await set_players(pilot, 5)
        assert sorted(row.seat for row in screen.query(SeatRow)) == [0, 1, 2, 3, 4]
        seats = screen.gather().seats
        assert [seats[0].colour, seats[4].colour] == [fifth, first]
        assert screen.query_one("#name-4").value == seats[4].name != seats[0].name
        await set_players(pilot, 7)  # one rider each, then teams again: every row as the defaults say
        assert screen.lone and len(screen.query(SeatRow)) == 7
        await set_players(pilot, 6)
        seats = screen.gather().seats
        assert len({s.colour for s in seats}) == 6 and all(s.rider == "SR" for s in seats)
        assert [screen.query_one(f"#seat-{s}").display for s in range(7)] == [True] * 6 + [False]
        # a name of its own on a seat with no row yet (a set-up brought back) outlives the switches
        screen.seats[9].name = "Zoé"
        await set_players(pilot, 8)
        await set_players(pilot, 6)
        assert screen.seats[9].name == "Zoé"
        await set_players(pilot, 10)
        assert screen.query_one("#name-9").value == "Zoé"


def test_seats_are_listed_in_words():
    from flamme_tui.ui.screens.teams import seat_list

    assert seat_list([2]) == "seat 3"
    assert seat_list([1, 2]) == "seats 2 and 3"  # (not "seats 2 to 3")
    assert seat_list([1, 2, 3, 4, 5]) == "seats 2 to 6"
    assert seat_list([1, 3, 4]) == "seats 2, 4 and 5"
