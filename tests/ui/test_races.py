"""Whole races played through the UI only (keys and clicks): title menu to podium."""

from __future__ import annotations

import pytest

from flamme_tui.ui.app import FlammeApp
from flamme_tui.ui.textshot import screen_text

from .driver import new_race_menus, pick_option, play_race, screen_name, set_players

pytestmark = pytest.mark.usefixtures("fast_pilot")


async def test_two_player_classic_race_from_title_to_podium():
    app = FlammeApp(seed=7, autoplay=False)
    async with app.run_test(size=(80, 24)) as pilot:
        assert screen_name(app) == "TitleScreen"
        await new_race_menus(pilot, "classic")
        await pilot.press("ctrl+s")
        seen = await play_race(pilot, use_mouse=True, step_every=3)
        flow = app.screen.flow
        game = flow.game
        assert game.phase == "over" and game.winner is not None
        assert seen.rounds == game.round
        assert seen.clicks > 0  # some cards and riders were chosen with the mouse
        # two humans: one curtain before each player's turn, every round
        assert seen.curtains[:2] == [0, 1]
        assert len(seen.curtains) == 2 * game.round
        assert [r.id for r in game.riders] == ["blue.S", "blue.R", "orange.S", "orange.R"]
        assert flow.session.seed == 7
        # the race log in words, round by round
        assert any(line.startswith("── Round 1 ──") for line in flow.log)
        assert any("plays" in line and "→" in line for line in flow.log)
        assert any("wins the race" in line for line in flow.log)
        # the podium offers race again / new race / quit
        await pilot.press("r")
        await pilot.pause()
        assert screen_name(app) in ("RaceScreen", "CurtainScreen")


async def test_four_player_classic_race_with_grid_placement_and_handicap():
    app = FlammeApp(seed=11, autoplay=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await new_race_menus(pilot, "classic", stage_downs=3)  # La Haut Montagne
        await set_players(pilot, 4)
        await pick_option(pilot, "grid", 1)  # players place their riders
        await pick_option(pilot, "extra-3", 2)  # Purple: 2 extra exhaustion cards
        await pilot.click("#start")
        seen = await play_race(pilot)
        game = app.screen.flow.game
        assert game.course.name == "La Haut Montagne"
        assert game.setup.grid == "choose" and seen.places == 8
        assert game.setup.handicap == (0, 0, 0, 2)
        assert len(seen.curtains) == 4 * game.round
        assert seen.curtains[:4] == [0, 1, 2, 3]
        assert {r.id.split(".")[0] for r in game.riders} == {"blue", "orange", "green", "purple"}


async def test_meteo_race():
    app = FlammeApp(seed=92, autoplay=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await new_race_menus(pilot, "meteo")
        await pilot.press("ctrl+s")
        seen = await play_race(pilot, step_every=4)
        game = app.screen.flow.game
        assert game.variant == "meteo" and game.phase == "over"
        assert set(game.course.weather) - {""}  # weather was dealt on the straights
        assert seen.picks == 2 * 2 * game.round


async def test_bmx_race_with_builder_options():
    app = FlammeApp(seed=5, autoplay=False)
    async with app.run_test(size=(80, 24)) as pilot:
        # flip B (canyon) and C (descent), ramp on, forecast on
        await new_race_menus(pilot, "bmx", builder_keys=("b", "c", "r", "plus", "f"))
        await pick_option(pilot, "extra-1", 3)  # young children: 3 fatigue tokens for Orange
        await pilot.press("ctrl+s")
        seen = await play_race(pilot, step_every=2)
        game = app.screen.flow.game
        assert game.variant == "bmx" and game.phase == "over"
        assert game.course.name == "BMX AbcD"
        assert game.course.ramp is not None and game.course.ramp[1] == 4
        assert game.setup.forecast is True
        assert game.setup.young == (0, 3)
        assert seen.picks == 2 * game.round


async def test_race_with_bot_seats():
    app = FlammeApp(seed=3, autoplay=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await new_race_menus(pilot, "classic")
        await set_players(pilot, 4)
        await pick_option(pilot, "controller-1", 1)  # easy
        await pick_option(pilot, "controller-2", 2)  # medium
        await pick_option(pilot, "controller-3", 1)  # easy
        await pilot.press("ctrl+s")
        seen = await play_race(pilot)
        flow = app.screen.flow
        game = flow.game
        assert flow.session.bots == {1: "easy", 2: "medium", 3: "easy"}
        assert seen.curtains == []  # one human: nobody to hide the cards from
        assert seen.picks == 2 * game.round  # the human's two riders only
        # the log says what the bots did (and, after the reveal, what they played)
        assert any(line.startswith("Orange (bot)") for line in flow.log)
        assert any(line.startswith("Green Sprinteur plays") or line.startswith("Green Rouleur plays")
                   for line in flow.log)


async def test_race_against_the_scripted_peloton_and_muscle_teams():
    """Solo against the Peloton expansion's teams, chosen in the teams menu:
    they play themselves (no curtain, no key), and the boards show their cards."""
    app = FlammeApp(seed=4, autoplay=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await new_race_menus(pilot, "classic", stage_downs=3)  # La Haut Montagne
        await set_players(pilot, 3)
        await pick_option(pilot, "controller-1", 5)  # Peloton team (after the 4 bots)
        await pick_option(pilot, "controller-2", 6)  # Muscle team
        # the lone team's solo handicap is said where it comes to be (the boards show its cards)
        assert "Racing alone against both, Blue starts with 3 exhaustion cards (1 for its Sprinteur, 2 for its " \
               "Rouleur)." in " ".join(screen_text(pilot.app).split())
        boards: list[str] = []

        async def look(pilot, seen):
            if screen_name(pilot.app) == "RaceScreen":
                boards.append("\n".join(pilot.app.screen.query_one("Boards").lines()))

        await pilot.press("ctrl+s")
        seen = await play_race(pilot, on_state=look)
        flow = app.screen.flow
        game = flow.game
        assert game.phase == "over" and game.setup.scripted == ("", "peloton", "muscle")
        assert flow.session.bots == {}
        assert [t.name for t in game.setup.teams] == ["Blue", "Orange Peloton", "Green Muscle"]
        assert seen.curtains == []  # one human
        assert seen.picks == 2 * game.round  # only the human's riders pick cards
        assert not [a for a in game.actions if not a.rider.startswith("blue.")]
        assert any(line.startswith("Orange Peloton Sprinteur plays") for line in flow.log)
        assert any(line.startswith("Green Muscle Rouleur plays") for line in flow.log)
        assert any("Orange Peloton" in text for text in boards)


@pytest.mark.parametrize("variant, offered", [("meteo", True), ("bmx", False)])
async def test_scripted_teams_are_offered_in_classic_and_meteo_not_bmx(variant, offered):
    app = FlammeApp(seed=4, autoplay=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await new_race_menus(pilot, variant)
        await pilot.click("#controller-1")
        await pilot.pause()
        options = [str(o.prompt) for o in app.screen.query_one("#controller-1").query("SelectOverlay").first()._options]
        assert options and bool([o for o in options if "Peloton" in o or "Muscle" in o]) == offered
