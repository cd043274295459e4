"""Grand Tour classification (engine.tour): every ruling of GRAND-TOUR.md."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from flamme_tui.config import load_course
from flamme_tui.engine.tour import (
    Crossing,
    StageLine,
    carried,
    fill_from_back,
    finish_cap,
    gap_text,
    general,
    grid_order,
    placing,
    stage_result,
    team_classification,
    tour_points,
    tp_ranking,
)

FINISH = 100  # first square past the line in these tests
CAP = 5  # a `u` finish tile


def past(rider: str, team: int, rnd: int, s: int, lane: int = 0) -> Crossing:
    """A crossing `s` squares past the line (1 = the first square past it)."""
    return Crossing(rider, team, rnd, FINISH + s - 1, lane)


def times(lines: list[StageLine]) -> dict[str, int]:
    return {line.rider: line.time for line in lines}


def line(rider: str, team: int, place: int, time: int) -> StageLine:
    return StageLine(rider, team, place, time, 0, time)


def test_worked_example_of_grand_tour_md():
    crossings = [
        past("red.S", 0, 12, 4),
        past("blue.R", 1, 12, 3),
        past("blue.S", 1, 12, 1),
        past("green.R", 2, 13, 4),
    ]
    result = stage_result(crossings, FINISH, CAP)
    assert [r.rider for r in result] == ["red.S", "blue.R", "blue.S", "green.R"]
    assert {r.rider: r.raw for r in result} == {"red.S": -40, "blue.R": -40, "blue.S": -10, "green.R": 20}
    assert {r.rider: r.raw - r.bonus for r in result} == {"red.S": -50, "blue.R": -50, "blue.S": -10, "green.R": 20}
    assert times(result) == {"red.S": 0, "blue.R": 0, "blue.S": 40, "green.R": 70}
    assert [gap_text(r.time) for r in result] == ["0:00", "0:00", "+0:40", "+1:10"]


def test_raw_time_is_a_minute_a_round_less_ten_seconds_a_square():
    result = stage_result([past("a.S", 0, 5, 1), past("b.S", 1, 7, 2)], FINISH, CAP)
    assert {r.rider: r.raw for r in result} == {"a.S": -10, "b.S": 120 - 20}


def test_s_is_capped_at_the_finish_tiles_squares_after_the_line():
    # 7 squares past on a `u` tile (5 after the line) counts as 5; a `U` tile counts 4
    far = [past("a.S", 0, 3, 7), past("b.S", 1, 4, 9)]
    assert {r.rider: r.raw for r in stage_result(far, FINISH, 5)} == {"a.S": -50, "b.S": 60 - 50}
    assert {r.rider: r.raw for r in stage_result(far, FINISH, 4)} == {"a.S": -40, "b.S": 60 - 40}


def test_finish_cap_from_the_stage_data():
    flat = load_course("avenue-corso-paseo")  # ends on u
    hill = load_course("la-haut-montagne")  # ends on U
    for course, cap in ((flat, 5), (hill, 4)):
        last = course.tiles[-1]
        assert finish_cap(last.first + last.length, course.finish) == cap


def test_placing_round_then_furthest_then_right_hand_lane():
    crossings = [past("a.S", 0, 9, 2, 1), past("b.S", 1, 9, 2, 0), past("c.S", 2, 8, 1), past("d.S", 3, 9, 5)]
    assert [c.rider for c in placing(crossings)] == ["c.S", "d.S", "b.S", "a.S"]


def test_pack_time_runs_over_both_lanes_and_stops_at_a_gap():
    crossings = [
        past("a.S", 0, 4, 5), past("a.R", 0, 4, 4, 0), past("b.S", 1, 4, 4, 1), past("b.R", 1, 4, 3),
        # square 2 past is empty: a new run
        past("c.S", 2, 4, 1, 0), past("c.R", 2, 4, 1, 1),
    ]
    raw = {r.rider: r.raw for r in stage_result(crossings, FINISH, CAP)}
    assert raw == {"a.S": -50, "a.R": -50, "b.S": -50, "b.R": -50, "c.S": -10, "c.R": -10}


def test_pack_time_only_within_one_round():
    # b.S crossed a round later, right behind where a.S stood: no pack time
    crossings = [past("a.S", 0, 4, 2), past("b.S", 1, 5, 1)]
    raw = {r.rider: r.raw for r in stage_result(crossings, FINISH, CAP)}
    assert raw == {"a.S": -20, "b.S": 60 - 10}


def test_pack_time_capped_front_rider():
    # the front rider stands beyond the cap: the whole run takes the capped time
    crossings = [past("a.S", 0, 4, 8), past("b.S", 1, 4, 7), past("c.S", 2, 4, 6)]
    assert {r.raw for r in stage_result(crossings, FINISH, CAP)} == {-50}


def test_bonus_with_tied_times():
    # 1st and 2nd in one pack: both 0:00; the 3rd of that pack has no bonus: +0:10
    crossings = [past("a.S", 0, 4, 3), past("b.S", 1, 4, 2), past("c.S", 2, 4, 1)]
    result = stage_result(crossings, FINISH, CAP)
    assert [r.bonus for r in result] == [10, 10, 0]
    assert times(result) == {"a.S": 0, "b.S": 0, "c.S": 10}


def test_bonus_goes_to_the_first_two_placings_only():
    crossings = [past("a.S", 0, 4, 5), past("b.S", 1, 5, 1), past("c.S", 2, 6, 5)]
    result = stage_result(crossings, FINISH, CAP)
    assert [r.bonus for r in result] == [10, 10, 0]
    # a: -50-10 = -60; b: 60-10-10 = 40; c: 120-50 = 70
    assert times(result) == {"a.S": 0, "b.S": 100, "c.S": 130}


def test_gap_text():
    assert [gap_text(s) for s in (0, 10, 40, 60, 70, 80, 3725)] == ["0:00", "+0:10", "+0:40", "+1:00", "+1:10", "+1:20",
                                                                   "+62:05"]


def test_gc_sums_stage_times_and_breaks_ties_by_the_last_stage():
    s1 = [line("a.S", 0, 1, 0), line("b.S", 1, 2, 30), line("c.S", 2, 3, 60)]
    s2 = [line("c.S", 2, 1, 0), line("a.S", 0, 2, 60), line("b.S", 1, 3, 70)]
    gc = general([s1, s2])
    assert [(g.rider, g.time, g.gap) for g in gc] == [("c.S", 60, 0), ("a.S", 60, 0), ("b.S", 100, 40)]
    # the tie between c.S and a.S goes to c.S, placed better in stage 2
    s2_swapped = [line("a.S", 0, 1, 60), line("c.S", 2, 2, 0), line("b.S", 1, 3, 70)]
    assert [g.rider for g in general([s1, s2_swapped])][:2] == ["a.S", "c.S"]


def test_tour_points_stage_and_final_gc():
    s1 = [line("a.S", 0, 1, 0), line("a.R", 0, 2, 0), line("b.S", 1, 3, 10), line("c.S", 2, 4, 20)]
    s2 = [line("c.S", 2, 1, 0), line("b.S", 1, 2, 40), line("a.S", 0, 3, 50), line("a.R", 0, 4, 200)]
    assert tour_points([s1], final=False) == {0: 5, 1: 1, 2: 0}
    assert tour_points([s1, s2], final=False) == {0: 6, 1: 3, 2: 3}
    # GC after both: a.S 50, b.S 50 (b placed better in stage 2), c.S 20 -> c.S, b.S, a.S
    assert [g.rider for g in general([s1, s2])][:3] == ["c.S", "b.S", "a.S"]
    assert tour_points([s1, s2], final=True) == {0: 7, 1: 5, 2: 6}


def test_tp_tie_goes_to_the_team_of_the_better_gc_rider():
    s1 = [line("a.S", 0, 1, 0), line("b.S", 1, 2, 20), line("c.S", 2, 3, 30)]
    s2 = [line("b.S", 1, 1, 0), line("a.S", 0, 2, 30), line("c.S", 2, 3, 40)]
    gc = general([s1, s2])  # a.S 30, b.S 20 -> b.S leads
    points = tour_points([s1, s2], final=False)  # a: 3+2, b: 2+3, c: 1+1
    assert points == {0: 5, 1: 5, 2: 2}
    assert [(t.team, t.value) for t in tp_ranking(points, gc)] == [(1, 5), (0, 5), (2, 2)]


def test_team_classification_sums_both_riders():
    s1 = [line("a.S", 0, 1, 0), line("b.S", 1, 2, 10), line("b.R", 1, 3, 10), line("a.R", 0, 4, 90)]
    teams = team_classification(general([s1]))
    assert [(t.team, t.value) for t in teams] == [(1, 20), (0, 90)]


def test_carry_over_is_half_rounded_up():
    assert [carried(n) for n in range(7)] == [0, 1, 1, 2, 2, 3, 3]


def test_grid_order_reverse_tp_and_tie_to_the_team_behind_in_gc():
    s1 = [line("a.S", 0, 1, 0), line("b.S", 1, 2, 20), line("c.S", 2, 3, 30), line("d.S", 3, 4, 40)]
    gc = general([s1])
    assert grid_order({0: 3, 1: 2, 2: 1, 3: 0}, gc) == [3, 2, 1, 0]
    # teams 1 and 3 tie on TP: team 3's best rider is behind in the GC, it places first
    assert grid_order({0: 3, 1: 1, 2: 2, 3: 1}, gc) == [3, 1, 2, 0]


def test_random_grid_fills_from_the_back_in_grid_order():
    places = [(4, 0), (4, 1), (3, 0), (3, 1), (2, 0), (2, 1), (1, 0), (1, 1), (0, 0), (0, 1)]
    filled = fill_from_back([2, 0, 1], places, 2)
    # three teams: the six places nearest the line; team 2 (first) at the back of them
    assert filled == {2: [(2, 1), (2, 0)], 0: [(3, 1), (3, 0)], 1: [(4, 1), (4, 0)]}


# ------------------------------------------------------------- properties


@st.composite
def stages(draw):
    """A random stage: riders crossing over a few rounds, each on its own place past the line."""
    places = draw(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 9), st.integers(0, 1)),
                           min_size=1, max_size=12, unique=True))
    first = draw(st.integers(1, 30))
    crossings = [Crossing(f"t{k // 2}.{'SR'[k % 2]}", k // 2, first + rnd, FINISH + square, lane)
                 for k, (rnd, square, lane) in enumerate(places)]
    return crossings, draw(st.integers(1, 5))


@given(stages())
def test_stage_times_are_never_negative_and_the_winner_has_zero(stage):
    crossings, cap = stage
    result = stage_result(crossings, FINISH, cap)
    assert len(result) == len(crossings)
    assert result[0].time == 0
    assert all(r.time >= 0 for r in result)
    assert [r.place for r in result] == list(range(1, len(result) + 1))


@given(st.lists(stages(), min_size=1, max_size=4))
def test_gc_leader_has_no_gap_and_gaps_grow(tour):
    results = [stage_result(c, FINISH, cap) for c, cap in tour]
    riders = set.intersection(*({r.rider for r in res} for res in results))
    results = [[r for r in res if r.rider in riders] for res in results]
    gc = general(results)
    assert gc[0].gap == 0
    assert all(a.gap <= b.gap for a, b in zip(gc, gc[1:]))
    assert all(g.time >= 0 for g in gc)


@given(st.integers(0, 10_000))
def test_carry_over_never_exceeds_the_rule(n):
    kept = carried(n)
    assert kept * 2 - 1 <= n <= kept * 2
    assert kept <= n
