"""A tour's standings during a stage (play.standings, Table.standings): the GC
before it, who has finished and in what time, the live GC from the road."""

from __future__ import annotations

from dataclasses import replace

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
        for s in snapshots:
            assert s.stage == len(tour.done) and s.stages == 2
            for line in s.lines:
                if line.finished:
                    seen_finished += 1
                    assert line.stage == final[line.rider]
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


def road_game(squares: dict[str, int]) -> ClassicGame:
    setup = replace(make_setup(RaceSpec(variant="classic", stage="avenue-corso-paseo")), tour=True)
    riders = [Placed(rid, sq, 0) for rid, sq in squares.items()]
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
