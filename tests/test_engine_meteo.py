"""Meteo rules on small positions: weather dealing, draw sizes, crosswind,
crashes in the wet, blocked squares and standing up."""

from __future__ import annotations

from collections import Counter

import pytest

from flamme_tui import config
from flamme_tui.engine.classic import ClassicSetup, Team
from flamme_tui.engine.course import CROSSWIND, FAIR, HEADWIND, TAILWIND, WET, Course
from flamme_tui.engine.meteo import MeteoGame
from flamme_tui.engine.race import Placed
from flamme_tui.play.races import RaceSpec, make_setup, new_game


def course(squares: str, weather: dict[str, tuple[int, int]] | None = None, finish: int | None = None) -> Course:
    w = [FAIR] * len(squares)
    for kind, (a, b) in (weather or {}).items():
        for sq in range(a, b + 1):
            w[sq] = kind
    return Course.build("test", squares, len(squares) if finish is None else finish, 0, weather=tuple(w))


def position(squares, riders, weather=None, finish=None, seed=0) -> MeteoGame:
    specs = [Placed(r[0], r[1], r[2], bool(r[3]) if len(r) > 3 else False) for r in riders]
    return MeteoGame.from_position(course(squares, weather, finish), specs, seed=seed)


def where(game, rid):
    return tuple(game.pos[game.index[rid]])


def crashed(game) -> list[str]:
    return sorted(r.id for r in game.riders if r.crashed)


def play_round(game, cards):
    game.resolve(cards)


def events(game, kind) -> list[str]:
    return [game.riders[e.rider].id for e in game.events if e.kind == kind]


# ------------------------------------------------------------------ dealing


def meteo_setup(stage="avenue-corso-paseo", teams=2):
    colours = ("red", "blue", "green", "black")[:teams]
    return make_setup(RaceSpec(variant="meteo", stage=stage, teams=tuple(Team(c, c) for c in colours)))


def test_token_pool_comes_from_config():
    setup = meteo_setup()
    assert Counter(setup.weather_tokens) == Counter(config.load_meteo_rules().token_bag())
    assert len(setup.weather_tokens) == 13
    assert Counter(setup.weather_tokens) == {FAIR: 9, CROSSWIND: 1, TAILWIND: 1, HEADWIND: 1, WET: 1}
    assert (setup.tailwind_draw, setup.headwind_draw, setup.standup_penalty) == (5, 3, 2)


@pytest.mark.parametrize("stage", config.stage_ids())
def test_one_token_per_straight_tile_except_start_and_finish(stage):
    setup = meteo_setup(stage)
    seen = set()
    kinds_seen = Counter()
    for seed in range(25):
        game = new_game(setup, seed)
        weather = game.course.weather
        assert len(weather) == len(game.course.terrain)
        dealt = []
        for k, tile in enumerate(game.course.tiles):
            tile_weather = set(weather[tile.first:tile.first + tile.length])
            if tile.kind == "straight" and 0 < k < len(game.course.tiles) - 1:
                assert len(tile_weather) == 1  # covers every square of the tile
                dealt.append(tile_weather.pop())
            else:
                assert tile_weather == {FAIR}
        # 7 straights on every base stage; the Peloton stages have tiles 2-8 as straights too (PELOTON.md)
        straights = sum(1 for t in game.course.tiles[1:-1] if t.kind == "straight")
        assert len(dealt) == straights == (7 if stage in config.STAGE_ORDER[:7] else straights)
        assert straights <= len(setup.weather_tokens)
        assert not Counter(dealt) - Counter(setup.weather_tokens)  # drawn from the pool
        assert set(weather[game.course.length:]) <= {FAIR}
        # same seed, same weather
        assert new_game(setup, seed).course.weather == weather
        seen.add(weather)
        kinds_seen.update(set(dealt))
    assert len(seen) > 10
    assert {CROSSWIND, TAILWIND, HEADWIND, WET} <= set(kinds_seen)


def test_dealing_uses_the_setup_pool():
    base = meteo_setup()
    setup = ClassicSetup(course=base.course, teams=base.teams, decks=base.decks, variant="meteo",
                         weather_tokens=(WET,) * 13)
    game = MeteoGame(setup, 3)
    straights = [t for t in game.course.tiles[1:-1] if t.kind == "straight"]
    assert len(straights) == 7
    for t in straights:
        assert game.weather_at(t.first) == WET and game.weather_at(t.first + t.length - 1) == WET
    assert game.weather_at(0) == FAIR


def test_weather_is_on_the_course_not_the_setup():
    setup = meteo_setup()
    a, b = new_game(setup, 1), new_game(setup, 2)
    assert setup.course.weather == ()
    assert a.course.terrain == b.course.terrain == setup.course.terrain
    assert a.view(0).course.weather == a.course.weather


# --------------------------------------------------------------- draw sizes


@pytest.mark.parametrize("kind, size", [(TAILWIND, 5), (HEADWIND, 3), (CROSSWIND, 4), (WET, 4), (FAIR, 4)])
def test_draw_size_by_weather_under_the_rider(kind, size):
    weather = {kind: (2, 7)} if kind else {}
    game = position("." * 20, [("red.S", 3, 0), ("blue.S", 9, 0)], weather)
    assert game.draw_size(0) == size
    assert game.draw_size(1) == 4
    game.apply("draw red.S")
    assert len(game.riders[0].hand) == size
    assert len(game.riders[0].deck) == 15 - size


def test_draw_size_uses_the_start_square_of_each_rider():
    game = position("." * 20, [("red.S", 1, 0), ("red.R", 3, 0)], {TAILWIND: (2, 7)})
    game.apply("draw red.S")
    assert len(game.riders[0].hand) == 4
    game.apply(game.legal_actions(0)[0])
    assert len(game.riders[1].hand) == 5  # the rouleur stands on the tailwind


# ---------------------------------------------------------------- crosswind


@pytest.mark.parametrize(
    "wind, slipped",
    [((3, 3), False), ((5, 5), False), ((4, 4), True), ((8, 12), True)],
    ids=["rear-square", "front-square", "gap-square", "elsewhere"],
)
def test_no_slipstream_to_or_from_crosswind(wind, slipped):
    game = position("." * 20, [("a.S", 3, 0), ("b.S", 5, 0)], {CROSSWIND: wind})
    game.end_phase()
    assert where(game, "a.S") == ((4, 0) if slipped else (3, 0))


def test_crosswind_splits_a_pack():
    game = position("." * 20, [("a.S", 2, 0), ("c.S", 3, 0), ("b.S", 5, 0)], {CROSSWIND: (2, 2)})
    game.end_phase()
    assert [where(game, r)[0] for r in ("a.S", "c.S", "b.S")] == [2, 4, 5]


# --------------------------------------------------------------------- wet


def test_blocked_rider_ending_on_wet_crashes():
    game = position("." * 20, [("a.S", 6, 0), ("a.R", 6, 1), ("b.S", 3, 0)], {WET: (0, 7)})
    play_round(game, {"a.S": 2, "a.R": 2, "b.S": 5})
    assert where(game, "b.S") == (7, 0)
    assert crashed(game) == ["b.S"]
    assert events(game, "crash") == ["b.S"]
    assert game.riders[game.index["b.S"]].crashes == 1


def test_no_crash_without_blocking_or_off_the_wet():
    # not blocked, ends on the wet
    game = position("." * 20, [("a.S", 6, 0), ("b.S", 3, 0)], {WET: (0, 7)})
    play_round(game, {"a.S": 2, "b.S": 4})
    assert where(game, "b.S") == (7, 0) and crashed(game) == []
    # lands in lane 1 of a square with one rider: not blocked
    game = position("." * 20, [("a.S", 5, 0), ("b.S", 3, 0)], {WET: (0, 7)})
    play_round(game, {"a.S": 2, "b.S": 4})
    assert where(game, "b.S") == (7, 1) and crashed(game) == []
    # blocked, but stops on a dry square
    game = position("." * 20, [("a.S", 6, 0), ("a.R", 6, 1), ("b.S", 3, 0)], {WET: (8, 12)})
    play_round(game, {"a.S": 2, "a.R": 2, "b.S": 5})
    assert where(game, "b.S") == (7, 0) and crashed(game) == []


def test_blocked_into_the_wet_from_a_dry_target():
    # the full square is dry, the square behind it is wet: the stopping square counts
    game = position("." * 20, [("a.S", 6, 0), ("a.R", 6, 1), ("b.S", 3, 0)], {WET: (7, 7)})
    play_round(game, {"a.S": 2, "a.R": 2, "b.S": 5})
    assert where(game, "b.S") == (7, 0) and crashed(game) == ["b.S"]


def test_crashed_rider_lies_in_its_lane():
    game = position("." * 20, [("a.S", 6, 0), ("a.R", 6, 1), ("c.S", 5, 0), ("b.S", 3, 0)], {WET: (0, 7)})
    play_round(game, {"a.S": 2, "a.R": 2, "c.S": 2, "b.S": 5})
    assert where(game, "c.S") == (7, 0)
    assert where(game, "b.S") == (7, 1) and crashed(game) == ["b.S"]


def test_fully_crashed_square_blocks_the_road():
    game = position("." * 20, [("x.S", 6, 0, True), ("x.R", 6, 1, True), ("b.S", 3, 0)], {WET: (10, 12)})
    game.move_rider(game.index["b.S"], 5)
    assert where(game, "b.S") == (5, 0)  # could not pass square 6
    assert crashed(game) == ["x.R", "x.S"]  # dry square: no crash


def test_blocked_square_sends_back_further_when_behind_is_full():
    game = position("." * 20, [("x.S", 6, 0, True), ("x.R", 6, 1, True), ("y.S", 5, 0), ("y.R", 5, 1),
                               ("b.S", 2, 0)], {WET: (0, 5)})
    game.move_rider(game.index["b.S"], 9)
    assert where(game, "b.S") == (4, 0)
    assert game.riders[game.index["b.S"]].crashed  # lost squares, stopped on the wet


def test_half_crashed_square_does_not_block():
    game = position("." * 20, [("x.S", 6, 0, True), ("x.R", 6, 1), ("b.S", 3, 0)])
    game.move_rider(game.index["b.S"], 5)
    assert where(game, "b.S") == (8, 0)
    game = position("." * 20, [("x.S", 6, 0, True), ("b.S", 3, 0)])
    game.move_rider(game.index["b.S"], 3)
    assert where(game, "b.S") == (6, 1)


def test_crashed_riders_give_and_take_no_slipstream_but_spare_exhaustion():
    game = position("." * 20, [("a.S", 3, 0), ("x.S", 5, 0, True), ("c.S", 8, 0, True), ("d.S", 10, 0)])
    game.end_phase()
    assert where(game, "a.S") == (3, 0)  # no slipstream from a crashed rider
    assert where(game, "c.S") == (8, 0)  # a crashed rider receives none
    exhausted = sorted(game.riders[e.rider].id for e in game.events if e.kind == "exhaust")
    assert exhausted == ["a.S", "c.S", "d.S", "x.S"]
    game = position("." * 20, [("a.S", 4, 0), ("x.S", 5, 1, True)])
    game.end_phase()
    exhausted = sorted(game.riders[e.rider].id for e in game.events if e.kind == "exhaust")
    assert exhausted == ["x.S"]  # the crashed rider ahead spares a.S


# ----------------------------------------------------------------- stand-up


@pytest.mark.parametrize(
    "squares, start, card, to",
    [
        ("." * 20, 3, 5, 6),  # minus 2
        ("." * 20, 3, 9, 10),
        ("vvvvvv" + "." * 14, 3, 2, 6),  # descent minimum 5 first, then minus 2 -> 3
        ("ss" + "." * 18, 1, 2, 3),  # supply minimum 4, minus 2 -> 2
        ("^" * 20, 3, 9, 8),  # 9 - 2 = 7, the ascent cap still holds -> 5
        ("^" * 20, 3, 6, 7),  # 6 - 2 = 4
        ("." * 7 + "^" * 13, 0, 9, 6),  # 7 after the penalty, climb at d = 7: the foot
    ],
)
def test_stand_up_costs_two_after_terrain_minimums(squares, start, card, to):
    game = position(squares, [("a.S", start, 1, True)])
    play_round(game, {"a.S": card})
    assert where(game, "a.S")[0] == to
    assert crashed(game) == []
    assert events(game, "standup") == ["a.S"]


def test_stand_up_with_value_zero_stays_and_takes_lane_0():
    game = position("." * 20, [("a.S", 5, 1, True)])
    play_round(game, {"a.S": 0})  # an exhaustion card: 2 - 2 = 0
    assert where(game, "a.S") == (5, 0) and crashed(game) == []
    game = position("." * 20, [("a.S", 5, 1, True), ("b.S", 5, 0, True)])
    game.move_rider(game.index["a.S"], 2)
    assert where(game, "a.S") == (5, 1)  # lane 0 is not free
    assert crashed(game) == ["b.S"]


def test_a_rider_standing_up_may_crash_again():
    game = position("." * 20, [("a.S", 6, 0), ("a.R", 6, 1), ("b.S", 3, 0, True)], {WET: (0, 9)})
    play_round(game, {"a.S": 2, "a.R": 2, "b.S": 7})  # 7 - 2 = 5 -> 8 full -> 7
    assert where(game, "b.S") == (7, 0)
    assert crashed(game) == ["b.S"]
    assert events(game, "standup") == ["b.S"] and events(game, "crash") == ["b.S"]
    ev = [e.kind for e in game.events if e.kind in ("standup", "crash")]
    assert ev == ["standup", "crash"]


def test_crashed_rider_still_draws_and_plays():
    game = position("." * 20, [("red.S", 3, 0, True), ("blue.S", 9, 0)])
    assert game.legal_actions(0) and game.draw_size(0) == 4
    game.apply("draw red.S")
    game.apply(game.legal_actions(0)[-1])
    game.apply("draw blue.S")
    game.apply(game.legal_actions(1)[0])
    assert game.round == 2
    assert not game.riders[0].crashed


def test_view_shows_weather_and_crashes():
    game = position("." * 20, [("red.S", 3, 0, True), ("blue.S", 9, 0)], {WET: (2, 7)})
    v = game.view(1)
    assert v.riders[0].crashed and not v.riders[1].crashed
    assert v.course.weather[3] == WET
