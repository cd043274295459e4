"""A tour's standings during a stage (play.standings, Table.standings): the GC
before it, who has finished and in what time, the live GC from the road."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

from flamme_tui.bots import POLICIES
from flamme_tui.engine import tour as rules
from flamme_tui.engine.classic import ClassicGame
from flamme_tui.engine.race import Placed
from flamme_tui.play import tours
from flamme_tui.play.races import COLOURS, RaceSpec, Team, make_setup, play_out
from flamme_tui.play.standings import standings
from flamme_tui.play.table import Table

TEAMS = (Team("Red", COLOURS[0]), Team("Blue", COLOURS[1]), Team("Green", COLOURS[2]))


def test_standings_follow_a_whole_tour_round_by_round():
    """At every round: a finished rider's stage time is already its final one;
    at the end of each stage the stage times and the live GC are the engine's
    (the stage's result and the GC after it), whatever the road estimated."""
    tour = tours.Tour.new(tours.stages_option("avenue-corso-paseo,firenze-milano:meteo"), TEAMS, 5)
    seen_road = seen_finished = 0
    while not tour.over:
        game = tour.new_stage()
        before = tour.gc()
        snapshots = []

        def look(game: ClassicGame, snapshots=snapshots, before=before) -> None:
            snapshots.append(standings(game.view(0).board, tour.name, len(tour.done) + 1, tour.stages, before))

        play_out(game, {seat: POLICIES["easy"] for seat in range(len(game.seats))}, on_round=look)
        done = tour.finish_stage(game)
        final = {game.index[line.rider]: line.time for line in done.result}
        road = {game.index[line.rider]: line.road for line in done.result}
        for s in snapshots:
            assert s.stage == len(tour.done) and s.stages == 2
            for line in s.lines:
                # the stage time is the gap before the bonus, 10 seconds more without it (the first takes it)
                assert line.stage is None or line.stage == line.road + rules.BONUS[0] - line.bonus
                if line.finished:
                    seen_finished += 1
                    assert line.stage == final[line.rider] and line.road == road[line.rider]
                elif line.stage is not None:
                    seen_road += 1
            assert [line.place for line in s.lines] == list(range(1, len(game.riders) + 1))
            assert s.lines[0].gap == 0 and all(a.total <= b.total for a, b in zip(s.lines, s.lines[1:]))
            assert [line.rider for line in s.finished] == sorted((i for i in game.crossed if i in {
                line.rider for line in s.finished}), key=lambda i: game.ranking().index(i))
        last = snapshots[-1]
        assert all(line.finished for line in last.lines)
        assert {line.rider: line.stage for line in last.lines} == final
        assert [(game.riders[line.rider].id, line.total, line.gap) for line in last.lines] == \
            [(g.rider, g.time, g.gap) for g in tour.gc()]
        if before:
            by_id = {g.rider: g for g in before}
            for line in last.lines:
                g = by_id[game.riders[line.rider].id]
                assert (line.before, line.before_place, line.before_gap) == (g.time, g.place, g.gap)
    assert seen_road > 20 and seen_finished > 5


def road_game(squares: dict[str, int | tuple[int, int]]) -> ClassicGame:
    """Riders on their squares (lane 0, the right, unless given as (square, lane))."""
    setup = replace(make_setup(RaceSpec(variant="classic", stage="avenue-corso-paseo")), tour=True)
    riders = [Placed(rid, *(sq if isinstance(sq, tuple) else (sq, 0))) for rid, sq in squares.items()]
    return ClassicGame.from_position(setup.course, riders, rules=setup)


def test_the_live_gc_counts_the_gaps_on_the_road_and_the_gc_before():
    # a group of two (squares 40 and 39), an empty square, then one alone on 33
    game = road_game({"red.S": 40, "blue.R": 39, "green.S": 33})
    board = game.view(0).board
    live = standings(board, "T", 2, 3, [])
    by = {game.riders[line.rider].id: line for line in live.lines}
    # the group takes its front's time; 7 squares behind: 70 s, the first two 10 s off, the third not
    assert (by["red.S"].stage, by["blue.R"].stage, by["green.S"].stage) == (0, 0, 80)
    assert [game.riders[line.rider].id for line in live.lines] == ["red.S", "blue.R", "green.S"]
    assert not any(line.finished for line in live.lines) and live.finished == ()
    # with a GC before the stage: green led by 2 minutes, red was 2nd at 1:00
    before = [rules.GcLine("green.S", 2, 1, 0, 0), rules.GcLine("red.S", 0, 2, 60, 60),
              rules.GcLine("blue.R", 1, 3, 120, 120)]
    live = standings(board, "T", 2, 3, before)
    assert [(game.riders[line.rider].id, line.total, line.gap, line.before_place) for line in live.lines] == \
        [("red.S", 60, 0, 2), ("green.S", 80, 20, 1), ("blue.R", 120, 60, 3)]


def example_board(after_round: int, green_square: int | None = None):
    """GRAND-TOUR.md's example on a board: in round 12 red.S crosses 4 squares
    past the line, blue.R 3 past, blue.S 1 past; in round 13 green.R 4 past
    (`green_square`: still on the road there after round 12)."""
    course = make_setup(RaceSpec(variant="classic", stage="avenue-corso-paseo")).course  # ends on u: 5 count
    f = course.finish
    riders = [SimpleNamespace(id=rid, seat=seat, square=-1, lane=-1) for rid, seat in
              (("red.S", 0), ("blue.R", 1), ("blue.S", 1), ("green.R", 2))]
    crossed = {0: (12, f + 3, 0), 1: (12, f + 2, 0), 2: (12, f, 0)}
    if green_square is None:
        crossed[3] = (13, f + 3, 0)
    else:
        riders[3].square, riders[3].lane = green_square, 0
    return SimpleNamespace(course=course, riders=riders, crossed=crossed, round=after_round + 1)


def test_the_worked_example_of_grand_tour_md_gap_bonus_and_stage_time():
    """Each line keeps its gap before the bonus and its bonus apart from its
    stage time: the example's times are +0:40 and +1:10 from gaps of 30 and
    60 seconds, red.S and blue.R taking the bonus."""
    live = standings(example_board(13), "T", 2, 3, [])
    by = {example_board(13).riders[line.rider].id: line for line in live.lines}
    assert {r: (line.road, line.bonus, line.stage) for r, line in by.items()} == {
        "red.S": (0, 10, 0), "blue.R": (0, 10, 0), "blue.S": (30, 0, 40), "green.R": (60, 0, 70)}
    assert all(line.finished for line in live.lines)
    # mid-stage, after round 12: green.R 2 squares before the line is a minute and 20 s behind red.S
    board = example_board(12, green_square=example_board(12).course.finish - 2)
    live = standings(board, "T", 2, 3, [])
    by = {board.riders[line.rider].id: line for line in live.lines}
    # (10 s a square: 4 squares from red.S's to the line's, 1 to green.R's; no bonus: 10 s more)
    assert (by["green.R"].road, by["green.R"].bonus, by["green.R"].stage, by["green.R"].finished) == (50, 0, 60, False)
    assert {r: (by[r].road, by[r].bonus, by[r].stage) for r in ("red.S", "blue.R", "blue.S")} == {
        "red.S": (0, 10, 0), "blue.R": (0, 10, 0), "blue.S": (30, 0, 40)}


def test_two_riders_of_one_group_differ_by_the_bonus_alone():
    """A new player's report: on one square (right and left lane) and with
    riders right behind, the group had stage gaps of +1:00 and +1:10.  The
    second of the stage as it stands takes the bonus: its gap before the
    bonus is the group's, and the bonus says the 10 seconds."""
    game = road_game({"red.S": 28, "green.R": 22, "blue.S": (22, 1), "blue.R": 21, "red.R": 20, "green.S": 19})
    board = game.view(0).board
    live = standings(board, "T", 2, 3, [])
    by = {game.riders[line.rider].id: line for line in live.lines}
    group = ("green.R", "blue.S", "blue.R", "red.R", "green.S")
    assert {by[r].road for r in group} == {60}  # 6 squares behind red.S, one group
    assert (by["green.R"].bonus, by["green.R"].stage) == (10, 60)  # 2nd on the road (right lane)
    assert all((by[r].bonus, by[r].stage) == (0, 70) for r in group[1:])
    assert (by["red.S"].road, by["red.S"].bonus, by["red.S"].stage) == (0, 10, 0)


def test_the_table_gives_standings_in_a_tour_only():
    from flamme_tui.play.session import Session

    tour = tours.Tour.new(tours.stages_option("avenue-corso-paseo,la-haut-montagne"), TEAMS, 3)
    session = tours.stage_session(tour, {0: "easy", 1: "easy", 2: "easy"})
    table = Table(session)
    s = table.standings()
    assert s is not None and (s.tour, s.stage, s.stages) == (tour.name, 1, 2)
    assert all(line.before_place == 0 for line in s.lines)
    plain = Session(make_setup(RaceSpec(variant="classic", stage="avenue-corso-paseo", teams=TEAMS)), 1, {})
    assert Table(plain).standings() is None


def test_before_anyone_has_moved_nobody_has_a_gap_or_a_bonus():
    """At round 1, the riders still on the grid, the standings gave the front row the
    bonus and everybody else +0:10: the stage has not started, nobody is timed yet."""
    grid = road_game({"red.S": 3, "blue.R": (3, 1), "green.S": 2, "red.R": 1}).view(0).board
    live = standings(grid, "T", 2, 3, [])
    assert all(line.stage is None and line.road is None and line.bonus == 0 for line in live.lines)
    started = road_game({"red.S": 7, "blue.R": 3, "green.S": 2, "red.R": 1}).view(0).board  # one across the start
    assert [line.bonus for line in standings(started, "T", 2, 3, []).lines][:2] == [10, 10]
