"""A tour's standings during a stage (issue 24, item 11): the race screen's
`g` and the palette's Standings; the boards give a finished rider its stage time."""

from __future__ import annotations

import pytest

from flamme_tui.play.standings import Standings
from flamme_tui.ui.app import FlammeApp
from flamme_tui.ui.scenarios import SCENARIOS, SEED
from flamme_tui.ui.screens.standings import StandingsScreen, stage_words
from flamme_tui.ui.textshot import screen_text
from flamme_tui.ui.widgets.board import stage_time_text

pytestmark = pytest.mark.usefixtures("fast_pilot")


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("FLAMME_TUI_DATA_DIR", str(tmp_path))
    return tmp_path


def app() -> FlammeApp:
    return FlammeApp(seed=SEED, autoplay=False, autosave=False)  # (no Resume entry from one app to the next)


async def test_g_shows_the_standings_mid_stage_and_the_boards_show_stage_times():
    async with app().run_test(size=(80, 24)) as pilot:
        await SCENARIOS["tour-standings"](pilot)
        screen = pilot.app.screen
        assert isinstance(screen, StandingsScreen)
        standings: Standings = screen.standings
        text = screen_text(pilot.app)
        for words in ("standings, stage 2/3", "Before", "Stage", "Live GC", f"Across the line ({len(standings.finished)} of 8)"):
            assert words in text, words
        assert "Before: the GC before this stage" in str(screen.query_one("#standings-legend").render())
        finished = [line for line in standings.lines if line.finished]
        road = [line for line in standings.lines if not line.finished]
        assert len(finished) >= 3 and road
        for line in standings.lines:  # every rider, with its stage as it stands
            assert stage_words(line) in text
        assert any(line.before_place for line in standings.lines)  # the GC before the stage (stage 2)
        await pilot.press("escape")
        race = pilot.app.screen
        assert type(race).__name__ == "RaceScreen"
        rows = {row.index: row for row in race.boards.rows}
        board_text = "\n".join(race.boards.lines())
        for line in finished:
            assert rows[line.rider].stage_time == line.road  # the gap the standings and the stage result give
            row = next(r for r in race.boards.lines() if rows[line.rider].label in r)
            assert stage_time_text(line.road) in row and " in " not in row
        assert " in " not in board_text
        assert "g standings" in screen_text(pilot.app)  # the key bar says the key
        # the palette's entry
        titles = [c.title for c in pilot.app.get_system_commands(race)]
        assert "Standings" in titles


async def test_g_shows_the_standings_on_the_curtain_too():
    """The standings are public: the next player may look before lifting the curtain."""
    from flamme_tui.play.flow import RaceFlow
    from flamme_tui.play.tours import next_session
    from flamme_tui.ui.scenarios import advance, settle, tour_after
    from flamme_tui.ui.screens.curtain import CurtainScreen

    async with app().run_test(size=(80, 24)) as pilot:
        session = next_session(tour_after(1))
        advance(session, 3)
        pilot.app.start_flow(RaceFlow(session))
        await settle(pilot)
        curtain = pilot.app.screen
        assert isinstance(curtain, CurtainScreen)
        assert "g standings" in screen_text(pilot.app)
        await pilot.press("g")
        await pilot.pause()
        assert isinstance(pilot.app.screen, StandingsScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert pilot.app.screen is curtain  # back behind the curtain: no hand shown


async def test_no_standings_outside_a_tour():
    async with app().run_test(size=(80, 24)) as pilot:
        await SCENARIOS["card-pick"](pilot)
        race = pilot.app.screen
        await pilot.press("g")
        await pilot.pause()
        assert pilot.app.screen is race
        assert "Standings" not in [c.title for c in pilot.app.get_system_commands(race)]
        assert "standings" not in screen_text(pilot.app)


def test_a_finished_riders_time_fits_its_column():
    assert [stage_time_text(s) for s in (0, 80, 599, 600, 754)] == ["▓0:00", "▓1:20", "▓9:59", "▓10'", "▓12'"]


async def test_the_rules_reference_has_a_grand_tour_section():
    async with app().run_test(size=(80, 24)) as pilot:
        pilot.app.show_rules()
        await pilot.pause()
        group = pilot.app.screen.query_one("#rules-text").content  # the help's layout: a Group of Texts
        rules = "\n".join(getattr(part, "plain", "") for part in group.renderables)
        for words in ("Grand Tour", "every rider has crossed the line", "pack time", "yellow jersey",
                      "Tour Points", "half of its exhaustion cards", "live GC"):
            assert words in rules, words


async def test_the_rules_reference_says_each_symbol_once():
    """Its legend: the track, the no-lane squares, the weather, BMX's track, each line once."""
    from flamme_tui.ui.texts import track_legend

    async with app().run_test(size=(80, 24)) as pilot:
        pilot.app.show_rules()
        await pilot.pause()
        group = pilot.app.screen.query_one("#rules-text").content
        rules = "\n".join(getattr(part, "plain", "") for part in group.renderables)
    lines = [line for line in rules.split("\n") if line.strip()]
    for variant in ("classic", "meteo", "bmx"):  # every line of every legend is there
        for line in track_legend(variant).split("\n"):
            assert any(line in shown for shown in lines), line
    legend = [line for line in lines if line.startswith(("Track:", "░", "Weather:", "Riders:", "BMX:"))]
    assert len(legend) == len(set(legend)) and len([line for line in legend if line.startswith("░")]) == 2, legend


async def test_a_tour_replay_is_drawn_like_a_race_replay_with_the_gc_after_each_stage(data_dir):
    """Each stage on its own track (the meteo stage with its weather), the
    yellow jersey on the track from stage 2, the GC after each stage."""
    from flamme_tui import saves
    from flamme_tui.play.tours import next_session
    from flamme_tui.saves import load_replay
    from flamme_tui.ui.replay import ReplayScreen
    from flamme_tui.ui.scenarios import advance, tour_after
    from flamme_tui.ui.widgets.track import TrackStrip

    session = next_session(tour_after(1))  # stage 2 of the Petit Tour
    advance(session, 3)
    path = data_dir / "tour.json"
    saves.save(session, path)
    replay = load_replay(path)
    courses = [f.course for f in replay.frames]
    assert all(c is not None for c in courses) and len({id(c) for c in courses}) == 2
    second = next(k for k, f in enumerate(replay.frames) if f.course is not courses[0])
    result = replay.frames[second - 1]
    assert "result" in result.title and any("GC after stage 1" in line for line in result.log)
    assert replay.frames[0].jersey == -1 and replay.frames[second].jersey >= 0
    async with app().run_test(size=(100, 40)) as pilot:
        pilot.app.push_screen(ReplayScreen(replay))
        await pilot.pause()
        screen = pilot.app.screen
        first_course = screen.query_one(TrackStrip).course
        assert first_course is courses[0]
        screen.action_go(second + 1)
        await pilot.pause()
        await pilot.pause()
        strip = screen.query_one(TrackStrip)
        assert strip.course is courses[second]
        assert any(mark.jersey for mark in strip.scene.riders)
        assert "◆◆" in screen_text(pilot.app)
        screen.action_go(second - 1)  # the first stage's result: its GC, on its own track again
        await pilot.pause()
        await pilot.pause()
        assert screen.query_one(TrackStrip).course is courses[0]
        assert "GC after stage 1" in screen_text(pilot.app)


async def test_the_help_of_a_tour_stage_has_the_grand_tour_rules_and_a_race_does_not():
    async with app().run_test(size=(80, 24)) as pilot:
        await SCENARIOS["tour-race"](pilot)
        assert "[b]Grand Tour[/b]" in pilot.app.screen.help_text()
    async with app().run_test(size=(80, 24)) as pilot:
        await SCENARIOS["card-pick"](pilot)
        assert "Grand Tour" not in pilot.app.screen.help_text()


async def test_the_standings_say_the_round_the_header_says_during_a_reveal():
    """After round 1's movement the header says "round 1 · reveal and movement":
    the standings (`g`) say round 1 too, not the round the board counts next."""
    from flamme_tui.play import table as t
    from flamme_tui.play.flow import RaceFlow
    from flamme_tui.ui.scenarios import tour_choices

    flow = RaceFlow(tour_choices(n=2).session())
    table = t.Table(flow)
    while not isinstance(turn := table.turn(), t.Revealing):  # round 1 played through the table
        table.choose(t.PassReview() if isinstance(turn, t.Reviewing) else turn.options[0])
    async with app().run_test(size=(100, 30)) as pilot:
        pilot.app.start_flow(flow)
        await pilot.pause()
        assert "round 1 · reveal and movement" in screen_text(pilot.app)
        await pilot.press("g")
        await pilot.pause()
        screen = pilot.app.screen
        assert isinstance(screen, StandingsScreen)
        assert screen.standings.round == 1 and "stage 1/3, round 1" in screen_text(pilot.app)


async def test_a_group_on_one_square_shows_one_gap_and_the_bonus_of_the_second():
    """A new player saw GR +1:00 and BS +1:10 on one square (right and left
    lane) and the riders right behind at +1:10, with a legend saying a group
    takes its front rider's time.  The numbers are the rules' (the second as
    the stage stands takes the 10 seconds' bonus): the stage column shows the
    group's one gap, as the stage result will, the bonus beside it (-10s),
    and the legend says both, all of it at 80x24.  At the first stage there
    is no GC before it: no column of dashes for it (a later review)."""
    from test_standings import road_game

    from flamme_tui.play.standings import standings

    game = road_game({"red.S": 28, "green.R": 22, "blue.S": (22, 1), "blue.R": 21, "red.R": 20, "green.S": 19})
    board = game.view(0).board
    live = standings(board, "Petit Tour", 1, 3, [])
    async with app().run_test(size=(80, 24)) as pilot:
        pilot.app.push_screen(StandingsScreen(live, board))
        await pilot.pause()
        text = screen_text(pilot.app)
        rows = {rid: next(row for row in text.split("\n") if f" {label} " in row)
                for rid, label in (("green.R", "GR"), ("blue.S", "BS"), ("blue.R", "BR"), ("red.S", "RS"))}
        heading = next(row for row in text.split("\n") if "Rider" in row)
        assert heading.strip("█ ").split() == ["Rider", "Stage", "Live", "GC"], heading
        assert "~ +1:00 -10s" in rows["green.R"] and "-10s" not in rows["blue.S"] + rows["blue.R"]
        assert "~ +1:00" in rows["blue.S"] and "~ +1:00" in rows["blue.R"] and "~ 0:00 -10s" in rows["red.S"]
        legend = " ".join(str(pilot.app.screen.query_one("#standings-legend").render()).split())
        for words in ("Stage: the gap to the stage's first (a group at its front rider's time)",
                      "-10s: the bonus of the first two, off the GC time"):
            assert words in legend
        assert "Before" not in text
        flat = " ".join(" ".join(row.strip("█ ") for row in text.split("\n")).split())  # the box's rows, unwrapped
        assert legend in flat and "Esc or g close" in text  # the whole legend on screen
        assert not pilot.app.screen.query_one("#standings-scroll").show_vertical_scrollbar
