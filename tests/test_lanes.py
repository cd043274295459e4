"""Squares of one, two or three lanes (the Peloton expansion's wide and
supply squares have three): placement, blocking, ranking, shelter and the
pack moving up onto a narrower square, as PELOTON.md ("Lanes", "Slipstream
onto a narrower square", "Exhaustion") rules them."""

from __future__ import annotations

from flamme_tui.engine.classic import ClassicGame
from flamme_tui.engine.course import Course
from flamme_tui.engine.race import Placed
from flamme_tui.engine.track import LANES, ranking


def game(lanes: str, riders, squares: str | None = None) -> ClassicGame:
    """riders: (id, square, lane); `lanes`: one digit per square."""
    squares = squares or "." * len(lanes)
    course = Course.build("test", squares + "." * 20, len(squares) + 10, 0,
                          lanes=tuple(int(n) for n in lanes) + (2,) * 20)
    return ClassicGame.from_position(course, [Placed(r, s, ln) for r, s, ln in riders])


def where(g: ClassicGame, rid: str) -> tuple[int, int]:
    return tuple(g.pos[g.index[rid]])  # type: ignore[return-value]


def play(g: ClassicGame, cards: dict[str, int]) -> None:
    g.resolve(cards)


def test_three_riders_fill_a_three_lane_square_lane_by_lane():
    g = game("2" * 5 + "3" * 10, [("red.S", 0, 0), ("red.R", 0, 1), ("blue.S", 1, 0)])
    play(g, {"blue.S": 5, "red.S": 5, "red.R": 4})
    # blue.S moves first (further on) to 6 lane 0; red.S to 5 lane 0; red.R to 4 lane 0
    assert where(g, "blue.S") == (6, 0) and where(g, "red.S") == (5, 0) and where(g, "red.R") == (4, 0)
    g = game("3" * 15, [("red.S", 0, 0), ("red.R", 0, 1), ("blue.S", 1, 0), ("blue.R", 1, 1)])
    play(g, {"blue.S": 5, "blue.R": 5, "red.S": 6, "red.R": 6})
    # all four aim at square 6: three lanes there, the fourth is blocked to 5
    assert [where(g, r) for r in ("blue.S", "blue.R", "red.S", "red.R")] == [(6, 0), (6, 1), (6, 2), (5, 0)]


def test_a_full_three_lane_square_is_passed_through():
    g = game("3" * 15, [("red.S", 4, 0), ("red.R", 4, 1), ("blue.S", 4, 2), ("blue.R", 0, 0)])
    g.place(g.index["blue.R"], 0, 0)
    moves, square, lane = g.landing(g.index["blue.R"], 4)
    assert (square, lane) == (3, 0)  # blocked behind the full square
    moves, square, lane = g.landing(g.index["blue.R"], 5)
    assert (square, lane) == (5, 0)  # through it


def test_ranking_and_moving_order_go_lane_0_1_2():
    positions = [[5, 2], [5, 0], [5, 1], [6, 2]]
    assert ranking(positions) == [3, 1, 2, 0]
    assert LANES == 3


def test_one_rider_on_a_three_lane_square_shelters_all_three_behind():
    g = game("3" * 15, [("red.S", 6, 0), ("blue.S", 5, 0), ("blue.R", 5, 1), ("red.R", 5, 2)])
    play(g, {"red.S": 2, "blue.S": 2, "blue.R": 2, "red.R": 2})  # everybody moves 2: same shape
    tired = sorted(g.riders[e.rider].id for e in g.events if e.kind == "exhaust")
    assert tired == ["red.S"]
    g = game("3" * 15, [("red.S", 8, 0), ("blue.S", 5, 0), ("blue.R", 5, 1), ("red.R", 5, 2)])
    assert g.view(1).preview(g.index["blue.S"], 2).front is False  # to 7, behind red.S: sheltered
    assert g.view(1).preview(g.index["blue.S"], 4).front is True  # to 9, in the wind


def test_three_riders_move_up_onto_a_two_lane_square():
    # PELOTON.md's example: three riders on a 3-lane square slipstream onto a 2-lane square;
    # lanes 0 and 1 move up, the rider in lane 2 stays and takes lane 0 of its square
    g = game("3" * 8 + "2" * 12, [("red.S", 9, 0), ("blue.S", 7, 0), ("blue.R", 7, 1), ("red.R", 7, 2)])
    # only the end phase (end_phase alone: nobody moves; an instance's method cannot be
    # replaced in the compiled engine, and needs not be)
    for r in g.riders:
        r.played = None
    g.end_phase()
    assert where(g, "blue.S") == (8, 0) and where(g, "blue.R") == (8, 1) and where(g, "red.R") == (7, 0)
    # the pack stays joined, so nobody behind the front takes exhaustion
    tired = sorted(g.riders[e.rider].id for e in g.events if e.kind == "exhaust")
    assert tired == ["red.S"]


def test_a_rider_alone_in_lane_2_keeps_it_until_it_moves():
    g = game("3" * 15, [("red.S", 9, 0), ("blue.S", 3, 2)])
    play(g, {"red.S": 2, "blue.S": 2})  # red.S to 11, blue.S to 5 lane 0 (the lowest free lane)
    assert where(g, "blue.S") == (5, 0)
    g = game("3" * 15, [("red.S", 5, 0), ("blue.S", 3, 2)])
    g.end_phase()  # blue.S moves up one square by slipstream: lane 2 is free there, it keeps it
    assert where(g, "blue.S") == (4, 2)
