"""Tours in the app, through its keys as players would (issue 16's acceptance):
a 3-stage tour with 2 humans and 2 bots from the title menu to the tour's
podium; quit mid-stage and resumed, it ends as the tour played without the
interruption.  The humans play the easy policy from their own views."""

from __future__ import annotations

from pathlib import Path

import pytest

from flamme_tui.bots.easy import easy
from flamme_tui.engine.actions import Draw, Play
from flamme_tui.ui.app import FlammeApp
from flamme_tui.ui.scenarios import settle

from .driver import pick_option, screen_name, set_players

# short stages (start, straights, finish), so that whole stages play quickly
STAGES = {
    "sprint": "name: Sprint\ntiles: abcu\n",
    "windy": "name: Windy Straights\ntiles: abfu\n",
    "hill": "name: Hill\ntiles: aCdU\n",
}
LEGS = [("sprint", "classic"), ("windy", "meteo"), ("hill", "classic")]
SEED = 11


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    """User stages for the tour, and the saves, in a folder of this test's own."""
    monkeypatch.setenv("FLAMME_TUI_DATA_DIR", str(tmp_path))
    (tmp_path / "stages").mkdir()
    for sid, text in STAGES.items():
        (tmp_path / "stages" / f"{sid}.yaml").write_text(text)
    return tmp_path


async def set_up_tour(pilot) -> None:
    """Title -> New tour -> pick the stages -> teams (2 humans, 2 bots) -> start."""
    from flamme_tui import config
    from flamme_tui.play import tours

    app = pilot.app
    await pilot.press("down", "enter")  # New tour
    await pilot.pause()
    assert screen_name(app) == "TourScreen"
    await pilot.press(*["down"] * len(tours.tour_entries()), "enter")  # Pick the stages…
    await pilot.pause()
    assert screen_name(app) == "TourStagesScreen"
    ids = [s.entry.id for s in config.stage_statuses() if s.stage is not None]
    at = 0
    for sid, variant in LEGS:
        k = ids.index(sid)
        await pilot.press(*(["down"] * (k - at) if k >= at else ["up"] * (at - k)))
        at = k
        await pilot.press("enter" if variant == "classic" else "m")
    assert app.screen.legs == LEGS
    await pilot.press("ctrl+s")
    await pilot.pause()
    assert screen_name(app) == "TeamsScreen"
    await set_players(pilot, 4)
    await pick_option(pilot, "controller-2", 1)  # Bot: easy
    await pick_option(pilot, "controller-3", 2)  # Bot: medium
    await pilot.press("ctrl+s")
    await settle(pilot)


async def play_tour(pilot, *, stop_at=None, max_keys: int = 4000) -> dict:
    """Play from the race screen on: races, stage results, to the tour's
    podium (or until `stop_at(screen)` says stop).  Returns what was seen."""
    app = pilot.app
    seen = {"results": 0, "curtains": 0, "jersey": set()}
    for _ in range(max_keys):
        await settle(pilot)
        name = screen_name(app)
        screen = app.screen
        if stop_at is not None and stop_at(screen):
            return seen
        if name == "TourPodiumScreen":
            seen["tour"] = screen.tour
            return seen
        if name == "StageResultScreen":
            seen["results"] += 1
            await pilot.press("enter")
            continue
        if name == "CurtainScreen":
            seen["curtains"] += 1
            await pilot.press("enter")
            continue
        assert name == "RaceScreen", name
        turn = screen.turn
        game = screen.flow.game
        if screen.flow.jersey is not None:
            seen["jersey"].add(len(screen.flow.session.tour.done))
        if turn.kind == "place":
            await pilot.press("enter")
        elif turn.kind == "draw":
            action = easy(game.view(turn.seat))
            assert isinstance(action, Draw)
            await pilot.press(str(screen.options.index(game.index[action.rider]) + 1))
        elif turn.kind == "review":
            await pilot.press("enter")  # the review: pass the keyboard
        elif turn.kind == "pick":
            action = easy(game.view(turn.seat))
            assert isinstance(action, Play)
            await pilot.press(str(screen.options.index(action.card) + 1))
        elif turn.kind == "reveal":
            await pilot.press("enter")
            if screen.flow.replay is not None:
                await pilot.press("enter")
        else:
            raise AssertionError(f"unexpected turn {turn}")
    raise AssertionError("the tour did not end")


def outcome(tour) -> tuple:
    return ([d.result for d in tour.done], tour.gc(), tour.ranking(),
            [[str(a) for a in d.game.actions] for d in tour.done])


def mid_second_stage(screen) -> bool:
    """Stage 2, round 2 begun, a human's turn on the race screen."""
    if type(screen).__name__ != "RaceScreen":
        return False
    flow = screen.flow
    return len(flow.session.tour.done) == 1 and flow.game.round >= 2 and screen.turn.kind in ("pick", "draw")


def uninterrupted(tour):
    """The same tour raced again from its set-up and seed, without the app and
    without a break: every seat plays its policy (the humans in the app play
    the easy policy from their own views, the bots easy and medium)."""
    from flamme_tui.play import tours

    session = tours.stage_session(tours.Tour(tour.name, tour.legs, tour.seed), {0: "easy", 1: "easy", 2: "easy", 3: "medium"})
    while True:
        while not session.over:
            session.play_bots()
        if tours.tour_over(session):
            return tours.standing(session)
        session = tours.next_session(session)


async def test_a_tour_from_the_title_menu_to_its_podium_with_a_quit_and_resume(data_dir, fast_pilot):
    # the tour, quit in the middle of its second stage (its first stage played in the app)
    saves_dir = data_dir / "saves"
    app = FlammeApp(seed=SEED, autoplay=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await set_up_tour(pilot)
        before = await play_tour(pilot, stop_at=mid_second_stage)
        assert app.screen.flow.jersey is not None  # the yellow jersey from the second stage on
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert screen_name(app) == "ConfirmQuit"
        await pilot.press("y")
        await pilot.pause()
    [file] = [p for p in saves_dir.iterdir() if p.name.endswith(".json")]

    # resumed from the title menu: the tour to its podium
    app = FlammeApp(seed=SEED, autoplay=False)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(200):  # the title menu finds the race in the background
            await pilot.pause(0.01)
            if app.screen.resume_info is not None:
                break
        assert app.screen.resume_info.path == Path(file)
        assert "Your tour, stage 2/3" in str(app.screen.query_one("#title-menu").get_option_at_index(0).prompt)
        await pilot.press("home", "enter")  # Resume, on top of the menu
        await settle(pilot)
        assert app.flow is not None, (screen_name(app), [n.message for n in app._notifications])
        assert len(app.flow.session.tour.done) == 1 and app.flow.game.round >= 2
        seen = await play_tour(pilot)
    whole = seen["tour"]
    assert whole.over and whole.stages == 3 and before["results"] + seen["results"] == 3
    assert [d.game.variant for d in whole.done] == ["classic", "meteo", "classic"]
    assert before["curtains"] > 0 and seen["curtains"] > 0  # two humans: the keyboard passes behind a curtain
    assert before["jersey"] == {1} and seen["jersey"] == {1, 2}  # the yellow jersey from the second stage on
    # it ends as the tour raced without the interruption
    assert outcome(whole) == outcome(uninterrupted(whole))
