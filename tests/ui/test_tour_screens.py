"""The tour's screens: menus, results, the yellow jersey, saved tours, privacy."""

from __future__ import annotations

import re

import pytest

from flamme_tui import saves
from flamme_tui.play.tours import next_session
from flamme_tui.ui.app import FlammeApp
from flamme_tui.ui.scenarios import SCENARIOS, SEED, advance, settle, tour_after, tour_choices
from flamme_tui.ui.screens.saved import _state, saved_races
from flamme_tui.ui.screens.tour_results import TourTables
from flamme_tui.ui.textshot import screen_text

from .driver import Seen, screen_name
from .test_privacy import check_curtain, check_turn

pytestmark = pytest.mark.usefixtures("fast_pilot")


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("FLAMME_TUI_DATA_DIR", str(tmp_path))
    return tmp_path


def app() -> FlammeApp:
    return FlammeApp(seed=SEED, autoplay=False)


async def test_the_tour_menu_lists_the_tours_and_leaves_a_broken_one_out(data_dir):
    (data_dir / "tours").mkdir()
    (data_dir / "tours" / "mine.yaml").write_text("name: My Tour\nstages:\n  - {stage: la-classicissima}\n")
    (data_dir / "tours" / "broken.yaml").write_text("name: B\nstages:\n  - {stage: nowhere}\n")
    async with app().run_test(size=(80, 24)) as pilot:
        await SCENARIOS["tour-menu"](pilot)
        text = screen_text(pilot.app)
        for name in ("Petit Tour (3 stages)", "Grand Tour (7 stages)", "My Tour (1 stage)", "Pick the stages"):
            assert name in text
        assert "Left out: broken.yaml: stages[0].stage: unknown stage 'nowhere'" in text
        assert "1. Avenue Corso Paseo (classic, 68 squares)" in text  # the highlighted tour's stages
        await pilot.press("enter")
        await pilot.pause()
        assert screen_name(pilot.app) == "TeamsScreen"
        assert "Tour · Petit Tour, 3 stages · teams" in screen_text(pilot.app)
        # every stage of the Petit Tour allows scripted teams (classic and meteo do): seats follow the first's rules
        assert pilot.app.screen.choices.variant == "classic"


async def test_picking_the_stages(data_dir):
    async with app().run_test(size=(80, 24)) as pilot:
        await SCENARIOS["tour-stages"](pilot)
        screen = pilot.app.screen
        assert screen.legs == [("avenue-corso-paseo", "classic"), ("firenze-milano", "meteo"),
                               ("la-haut-montagne", "classic")]
        assert "3. La Haut Montagne · classic" in screen_text(pilot.app)
        await pilot.press("backspace")
        assert len(screen.legs) == 2
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert screen_name(pilot.app) == "TeamsScreen"
        tour = pilot.app.screen.choices.tour
        assert [(leg.stage, leg.variant) for leg in tour.stages] == screen.legs


async def test_no_stage_no_tour(data_dir):
    async with app().run_test(size=(80, 24)) as pilot:
        await SCENARIOS["tour-menu"](pilot)
        await pilot.press("end", "enter")
        await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert screen_name(pilot.app) == "TourStagesScreen"
        assert "Add at least one stage first" in screen_text(pilot.app)


def tables_named_short_and_long(width: int):
    """A tour's tables after two stages, its teams named as set up, then with 30-character names."""
    from flamme_tui.play.races import Team

    session = tour_after(2, n=4)
    tour = session.tour.with_stage(session.game)
    long = tuple(Team("A team name of thirty chars...", t.colour) for t in tour.teams)
    for teams in (tour.teams, long):
        tables = TourTables(tour, width)
        tables.teams = teams
        yield tables


@pytest.mark.parametrize("width", [36, 38, 50, 58, 76, 120])
def test_the_tables_fit_their_column_whatever_the_names(width):
    for tables in tables_named_short_and_long(width):
        for text in (tables.stage(), tables.general(), tables.points(), tables.team_times()):
            assert max(len(line) for line in text.plain.splitlines()) <= width, text.plain


@pytest.mark.parametrize("width", [36, 38, 58])
def test_a_long_stage_name_keeps_the_stage_heading_on_one_line(width):
    """A player's stage named at length is cut on its heading: wrapped, it pushed the stage's
    rows a line below the GC rows beside them."""
    import dataclasses

    session = tour_after(2, n=4)
    tour = session.tour.with_stage(session.game)
    game = tour.done[-1].game
    game.course = dataclasses.replace(game.course, name="../../Col d'Été / test " * 4)
    heading = TourTables(tour, width).stage().plain.splitlines()[0]
    assert len(heading) <= width and heading.endswith("…") and heading.startswith("Stage 2/"), heading


@pytest.mark.parametrize("width", [36, 38, 58])
def test_the_gc_names_each_riders_kind_as_the_stage_does(width):
    """The GC said "Orange" for the Orange Sprinteur at 80x24 (a 38-cell column); with
    names too long for the column the team is cut, the kind kept."""
    for tables in tables_named_short_and_long(width):
        for text in (tables.general(), tables.stage()):
            rows = text.plain.splitlines()[1:9]
            assert len(rows) == 8
            for row in rows:
                kind = {"S": "Sprinteur", "R": "Rouleur"}[row[5]]  # " 1.◆BS Blue Sprinteur ...": its label's S or R
                assert f" {kind} " in row, (width, row)
                assert len(row) <= width


@pytest.mark.parametrize("language", ["en", "fr", "es"])
def test_the_stage_times_say_what_a_bonus_is(language):
    """A new player read "0:00 -10s" as two times: under the stage's times, a line
    says what the -10s is, on one line of the 80x24 screen's column (36 cells)."""
    from flamme_tui.i18n import set_language

    set_language(language)
    try:
        tables = next(iter(tables_named_short_and_long(36)))
        lines = tables.stage().plain.splitlines()
        assert "-10s" in lines[1] and len(lines) == 10, lines
        assert lines[-1].startswith("-10s") and len(lines[-1]) <= 36, lines[-1]
    finally:
        set_language("en")


def final_tour():
    session = tour_after(3, n=4)
    return session.tour.with_stage(session.game)


@pytest.mark.parametrize("width", [36, 38, 58])
def test_the_final_tour_points_say_where_the_last_points_came_from(width):
    """After the last stage the Tour Points jumped (7 to 17) with no "+N" at 80x24: the
    final GC's points were said only by the wide screen's stage-by-stage table. Each
    team's gain is now said, the stage's and the GC's apart."""
    from flamme_tui.engine.tour import tour_points

    tour = final_tour()
    assert tour.over
    before = tour_points(tour.results()[:-1], final=False)
    lines = TourTables(tour, width).points().plain.splitlines()
    assert lines[0] == "Tour Points (final: +stage 3, +GC)"
    gained_gc = 0
    for row, team in zip(lines[1:], tour.ranking()):
        assert len(row) <= width, row
        parts = row.split()
        total = team.value
        # " 1.  G  Green   12 ████████ +3 +3 GC": the gains after the bar, the GC's labelled
        gains = [p for p in parts if p.startswith("+")]
        labelled = row.endswith(" GC")
        gained_gc += labelled
        assert sum(int(g[1:]) for g in gains) == total - before.get(team.team, 0), row
    assert gained_gc == 3  # 3/2/1 for the GC's top three teams (four teams: three of them)


def test_the_stage_by_stage_totals_read_as_gaps_like_the_stages():
    """The 120x40 table wrote its stages' gaps `+1:40` and its totals `1:40`."""
    from flamme_tui.engine.tour import gap_text

    tour = final_tour()
    rows = TourTables(tour, 58).times_by_stage(84).plain.splitlines()[2:]
    assert rows.pop() == "Bonuses taken off, as in the GC."  # (under the table: every stage gives bonuses)
    assert len(rows) == 8
    for row, g in zip(rows, tour.gc()):
        times = row.split()[-4:]  # three stages and the total
        assert all(t == "0:00" or t.startswith("+") for t in times), row
        assert times[-1] == gap_text(g.time), row


async def test_the_tour_results_keys_are_rebindable_in_the_settings(data_dir, tmp_path, monkeypatch):
    """The tour's screens give their keys ids, as every other screen: the
    settings list them, and a key bound there works and is shown."""
    from flamme_tui import settings as user_settings
    from flamme_tui.ui.keys import binding_ids

    assert {"tour-result.next", "tour-result.title", "tour-result.quit", "tour-podium.again", "tour-podium.new",
            "tour-podium.replay", "tour-podium.title", "tour-podium.quit", "tour-stages.go"} <= set(binding_ids())
    monkeypatch.setenv("FLAMME_TUI_CONFIG_DIR", str(tmp_path / "config"))
    user_settings.save(user_settings.Settings(keys={"tour-result.next": "f5"}))
    async with app().run_test(size=(80, 24)) as pilot:
        await SCENARIOS["tour-stage-result"](pilot)
        assert screen_name(pilot.app) == "StageResultScreen"
        assert "f5 stage 2" in screen_text(pilot.app).splitlines()[-1]
        await pilot.press("enter")  # bound to f5 now
        await pilot.pause()
        assert screen_name(pilot.app) == "StageResultScreen"
        await pilot.press("f5")
        await settle(pilot)
        assert screen_name(pilot.app) != "StageResultScreen"
        assert pilot.app.flow.stage_text == "stage 2/3"
        pilot.app.show_settings()
        await pilot.pause()
        assert pilot.app.screen.query_one("#key-tour-result-next").value == "f5"
        assert pilot.app.screen.query_one("#key-tour-podium-again").value == "r"


async def test_a_tour_resumed_at_start_names_the_keys_as_bound(data_dir, tmp_path, monkeypatch):
    """`flamme-tui --resume` on a tour between two stages: the stage's result was drawn
    before the settings were read, its key bar and its next line with the default keys."""
    from flamme_tui import settings as user_settings

    monkeypatch.setenv("FLAMME_TUI_CONFIG_DIR", str(tmp_path / "config"))
    user_settings.save(user_settings.Settings(keys={"tour-result.next": "f5", "tour-result.coach": "k"}))
    resumed = FlammeApp(seed=SEED, autoplay=False, autosave=False, session=tour_after(1))
    async with resumed.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert screen_name(pilot.app) == "StageResultScreen"
        lines = screen_text(pilot.app).splitlines()
        assert "f5 stage 2" in lines[-1] and "k coach" in lines[-1], lines[-1]
        assert any(line.strip().startswith("f5: stage 2/3") for line in lines)


async def test_the_stage_result_says_which_way_the_random_grid_fills(data_dir):
    """From stage 2 the random grid fills from the back, fewest Tour Points
    first: the result screen says so, and the team with the most starts in front."""
    async with app().run_test(size=(100, 30)) as pilot:
        await SCENARIOS["tour-stage-result"](pilot)
        assert screen_name(pilot.app) == "StageResultScreen"
        told = " ".join(screen_text(pilot.app).split())
        assert "the grid fills from the back, fewest Tour Points first: the team with the most starts in front" in told
        tour = pilot.app.screen.tour
        points = tour.points()
        assert tour.legs[1].grid == "random" and len(set(points.values())) > 1
        await pilot.press("enter")
        await settle(pilot)
        game = pilot.app.flow.game
        front = {seat: max(game.pos[i][0] for i in game.seats[seat]) for seat in points}
        most, fewest = max(points, key=points.get), min(points, key=points.get)
        assert front[most] > front[fewest]


async def test_the_yellow_jersey_is_plain_without_colour(data_dir, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    async with app().run_test(size=(80, 24)) as pilot:
        await SCENARIOS["tour-race"](pilot)
        flow = pilot.app.screen.flow
        leader = flow.session.tour.leader()
        text = screen_text(pilot.app)
        # the boards: ◆ between the jersey's label and its name; the track: ◆◆ over its square
        row = next(r for r in pilot.app.screen.boards.rows if r.jersey)
        assert flow.game.riders[row.index].id == leader
        assert f"{row.label}◆" in text
        assert "◆◆" in text
        assert "yellow jersey" in text  # and the race log names it


async def test_saved_tours_are_listed_and_resume_mid_stage(data_dir):
    folder = saves.saves_dir()
    folder.mkdir(parents=True)
    running = next_session(tour_after(1))
    advance(running, 2)
    saves.save(running, folder / "running.json")
    over = tour_after(3)
    saves.save(over, folder / "over.json")
    async with app().run_test(size=(100, 30)) as pilot:
        pilot.app.show_saved_races()
        await pilot.pause()
        text = screen_text(pilot.app)
        assert "Petit Tour: Firenze - Milano" in text and "stage 2/3, round 3" in text
        assert "Tour" in text and "won by" in text
        screen = pilot.app.screen
        k = next(n for n, race in enumerate(screen.races) if race.path.name == "running.json")
        screen.query_one("DataTable").move_cursor(row=k)
        await pilot.press("enter")
        await settle(pilot)
        flow = pilot.app.flow
        assert flow is not None and len(flow.session.tour.done) == 1 and flow.game.round == 3
        assert flow.session.actions_text() == running.actions_text()


async def test_resumed_between_stages_the_stage_result_comes_first(data_dir):
    folder = saves.saves_dir()
    folder.mkdir(parents=True)
    path = saves.save(tour_after(1), folder / "between.json")
    async with app().run_test(size=(80, 24)) as pilot:
        pilot.app.resume_path(path)
        await pilot.pause()
        assert screen_name(pilot.app) == "StageResultScreen"
        assert "Stage 1/3 times" in screen_text(pilot.app)
        await pilot.press("enter")
        await settle(pilot)
        assert pilot.app.flow.stage_text == "stage 2/3"
    assert len(saves.load(path).tour.done) == 1  # the second stage goes on in the same file


async def test_the_title_menu_names_a_finished_stage_as_finished(data_dir):
    """A new player's report: after stage 2 ended, Resume said "Petit Tour, stage
    2/3, round 19", as if a round were left to play.  Resume opens the stage's
    result (then stage 3): the line says the stage is finished, on one line at
    80x24, and so does Saved races; a stage in progress keeps its round (the
    title menu offers the newest save: the finished stage's)."""
    folder = saves.saves_dir()
    folder.mkdir(parents=True)
    running = next_session(tour_after(1))
    advance(running, 2)
    saves.save(running, folder / "running.json")
    assert not saves.peek(folder / "running.json").stage_over
    between = tour_after(2)
    assert between.over and len(between.tour.done) == 1
    path = saves.save(between, folder / "between.json")  # the newest: the one Resume offers
    info = saves.peek(path)
    assert info.stage_over and (info.stage, info.stages, info.over) == (2, 3, False)
    assert "stage 2/3 (Firenze - Milano) finished" in info.describe() and "round" not in info.describe()
    states = {race.path.name: _state(race).plain for race in saved_races(folder)}  # Saved races' State column
    assert states == {"between.json": "stage 2/3 finished", "running.json": "stage 2/3, round 3"}
    async with app().run_test(size=(80, 24)) as pilot:
        for _ in range(100):
            await pilot.pause(0.05)
            if pilot.app.screen.resume_info is not None:
                break
        text = screen_text(pilot.app)
        teams = ", ".join(info.teams)
        assert f"Resume: Petit Tour, stage 2/3 finished ({teams})" in text, text
        assert "round" not in text and "Quit" in text  # one line: the whole menu still shown
        await pilot.press("enter")  # what Resume opens: the stage's result, then stage 3
        await settle(pilot)
        assert screen_name(pilot.app) == "StageResultScreen" and "Stage 2/3 times" in screen_text(pilot.app)
        await pilot.press("enter")
        await settle(pilot)
        assert pilot.app.flow.stage_text == "stage 3/3"


@pytest.mark.parametrize("autosave", [True, False])
async def test_quitting_a_tour_stage_says_the_tour_is_left(data_dir, autosave):
    """`q` in a tour's stage asked "Leave this race?": what is left is the tour,
    and (saved) Resume brings it back at this stage."""
    from flamme_tui.play.flow import RaceFlow

    session = next_session(tour_after(1))
    advance(session, 2)
    async with FlammeApp(seed=SEED, autoplay=False, autosave=autosave).run_test(size=(80, 24)) as pilot:
        pilot.app.start_flow(RaceFlow(session))
        await settle(pilot)
        await pilot.press("q")
        await pilot.pause()
        assert screen_name(pilot.app) == "ConfirmQuit"
        text = " ".join(line.strip("█ ") for line in screen_text(pilot.app).splitlines())  # (the dialog's box)
        assert "Leave this tour?" in text and "Leave this race?" not in text
        if autosave:
            assert "The tour is saved: Resume on the title menu brings it back, at stage 2/3 where you left it." in text
        else:
            assert "The tour in progress will be lost." in text


async def test_a_rider_s_stage_time_shows_once_the_steps_take_it_across_the_line(data_dir):
    """The reveal of a round in which riders cross the line (the Petit Tour's third
    stage): at "cards revealed" the boards showed a crossing rider's stage time while
    it still stood before the line. Its time shows from the step that takes it across."""
    from flamme_tui.play.flow import RaceFlow

    from .test_board_steps import play_round

    flow = RaceFlow(next_session(tour_after(2)))
    finish = flow.game.course.finish
    for _ in range(60):
        play_round(flow)
        frames = flow.replay.frames
        crossing = [e.rider for e in flow.game.events if e.kind == "crossed" and frames[0].pos[e.rider][0] >= 0]
        if crossing:
            break
        flow.finish_replay()
    else:
        raise AssertionError("nobody crossed the line")
    async with FlammeApp(seed=SEED, autoplay=False, autosave=False).run_test(size=(80, 24)) as pilot:
        pilot.app.start_flow(flow)
        await settle(pilot)
        boards = pilot.app.screen.boards
        for step, frame in enumerate(frames):
            assert flow.replay.step == step
            for row in boards.rows:
                across = not 0 <= frame.pos[row.index][0] < finish  # past the line, or off the track
                assert row.finished == (across and row.index in flow.game.crossed), (step, row.label)
                assert (row.stage_time is not None) == row.finished, (step, row.label)
            if step == 0:
                assert not any(row.finished for row in boards.rows if row.index in crossing)
                lines = screen_text(pilot.app).splitlines()[boards.region.y:boards.region.bottom]
                for row in boards.rows:
                    if row.index in crossing:  # its place on the boards: label, squares to go ("2", no "+0:40");
                        # (four teams at 80x24: two riders a line, a team's name first)
                        line = next(line for line in lines if re.search(rf"\b{row.label}[ _◆]", line))
                        at = line.index(row.label)
                        assert ":" not in line[at:at + 10], line
            await pilot.press("space")
            await pilot.pause()
        assert all(row.finished for row in boards.rows if row.index in crossing)


async def test_a_tour_stage_shows_no_hidden_card(data_dir):
    """Three humans through a whole tour stage: riders across the line leave
    the track, the curtain and every turn still show only what they may."""
    choices = tour_choices(n=3)
    from flamme_tui.play.tours import TourSpec, TourStage

    choices.tour = TourSpec(name="Short", stages=(TourStage(stage="avenue-corso-paseo"),))
    async with app().run_test(size=(80, 24)) as pilot:
        pilot.app.start_race(choices)

        seen = Seen()
        crossed = 0
        for _ in range(6000):
            await settle(pilot)
            name = screen_name(pilot.app)
            if name == "StageResultScreen":
                break
            if name == "CurtainScreen":
                check_curtain(pilot.app)
            elif pilot.app.screen.turn.kind in ("pick", "draw"):
                check_turn(pilot.app)
                crossed = max(crossed, len(pilot.app.screen.flow.game.crossed))
            await one_step(pilot, seen)
        else:
            raise AssertionError("the stage did not end")
    assert seen.curtains and seen.picks
    assert crossed > 0  # turns were checked with riders across the line, off the track


async def one_step(pilot, seen) -> None:
    """One key (or two) of a human's turn, the easy policy's choice from its own view."""

    from flamme_tui.bots.easy import easy

    app = pilot.app
    if screen_name(app) == "CurtainScreen":
        seen.curtains.append(app.screen.seat)
        await pilot.press("enter")
        return
    screen = app.screen
    turn = screen.turn
    game = screen.flow.game
    if turn.kind == "place":
        await pilot.press("enter")
    elif turn.kind == "draw":
        action = easy(game.view(turn.seat))
        await pilot.press(str(screen.options.index(game.index[action.rider]) + 1))
    elif turn.kind == "review":
        await pilot.press("enter")
    elif turn.kind == "pick":
        seen.picks += 1
        action = easy(game.view(turn.seat))
        await pilot.press(str(screen.options.index(action.card) + 1))
    elif turn.kind == "reveal":
        await pilot.press("enter")
        if screen.flow.replay is not None:
            await pilot.press("enter")



async def test_six_teams_at_80x24_scroll_the_stage_result_to_every_team(data_dir):
    """A new player's team was fifth of six in the Tour Points and the teams'
    times, below the 80x24 window, and no key showed it: the result scrolls
    (focused on arrival: the page keys reach it)."""
    from flamme_tui.play.flow import RaceFlow

    def last_teams(text: str) -> list[str]:  # the rows of the 5th and 6th teams (Tour Points, teams' times)
        return [row for row in text.split("\n") if re.match(r"\s+[56]\.\s+\w\s+\S.*\s[56]\.\s+\w\s", row)]

    async with app().run_test(size=(80, 24)) as pilot:
        pilot.app.choices = tour_choices(n=6)
        pilot.app.show_stage_result(RaceFlow(tour_after(1, n=6)))
        await pilot.pause()
        assert last_teams(screen_text(pilot.app)) == []  # below the window
        await pilot.press("end")
        await pilot.pause()
        assert len(last_teams(screen_text(pilot.app))) == 2, screen_text(pilot.app)


def test_the_times_stage_by_stage_give_the_names_the_room_the_columns_leave():
    """At 120x40 the names were cut ("Vermill… Sprinteur") beside 50 free cells."""
    session = tour_after(2, n=4)
    tables = TourTables(session.tour.with_stage(session.game), 58)
    tables.names = [f"{name} of a longer name" for name in tables.names]  # 18 cells and more with the kind
    for width in (50, 60, 84, 120):
        lines = tables.times_by_stage(width).plain.splitlines()
        assert max(len(line) for line in lines) <= width, (width, lines)
        cut = [line for line in lines if "…" in line]
        assert (cut == []) == (width >= 84), (width, lines)  # whole where the columns leave the room
        # the stage winners' bonuses are in these gaps, not in the stage's table: said under the table
        assert lines[-1] == "Bonuses taken off, as in the GC.", lines
