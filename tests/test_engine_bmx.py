"""BMX rules on small positions: bag draws, fatigue and its supply, the
young-children and forecast variants, the jump ramp, catch-up, tie-break."""

from __future__ import annotations

from collections import Counter

import pytest

from flamme_tui.config import compile_bmx_circuit
from flamme_tui.engine.actions import Draw, PlayTokens
from flamme_tui.engine.bmx import FATIGUE, BmxGame, BmxSetup
from flamme_tui.engine.classic import ENERGY, OVER, RuleError, Team
from flamme_tui.engine.course import Course
from flamme_tui.engine.race import Placed
from flamme_tui.play.races import RaceSpec, make_setup, new_game

F = FATIGUE
BAG = Counter([1, 1, 2, 2, 3, 3, 4, 4, 5, 5])


def course(squares: str, finish: int | None = None, single=(), ramp=None) -> Course:
    lanes = tuple(1 if (t == "m" or i in single) else 2 for i, t in enumerate(squares))
    return Course.build("test", squares, len(squares) if finish is None else finish, 0, lanes=lanes, ramp=ramp)


def position(squares, riders, finish=None, single=(), ramp=None, seed=0) -> BmxGame:
    specs = [Placed(r[0], r[1], r[2]) for r in riders]
    return BmxGame.from_position(course(squares, finish, single, ramp), specs, seed=seed)


def rider(game, rid):
    return game.riders[game.index[rid]]


def where(game, rid):
    return tuple(game.pos[game.index[rid]])


def play_round(game, plays: dict[str, tuple[int, ...]], die: int) -> None:
    """Like the conformance runner (Race.resolve): these tokens, this die."""
    game.resolve({rid: tuple(tokens) for rid, tokens in plays.items()}, die)


def fatigue_events(game) -> dict[str, int]:
    return {game.riders[e.rider].id: e.tokens for e in game.events if e.kind == "fatigue"}


def snapshot(game):
    return (
        game.phase, game.round, game.supply, game.die,
        [p.copy() for p in game.pos], game.cells.copy(),
        [(r.bag.copy(), r.hand.copy(), r.played, r.box.copy(), r.fatigue, r.phantom) for r in game.riders],
        list(game.actions), game.rng.state(),
    )


# ------------------------------------------------------------------- draws


def test_draw_three_keep_one_rest_back_in_the_bag():
    game = position("." * 40, [("red", 3, 0), ("blue", 1, 0)])
    game.start_turn()
    red = rider(game, "red")
    assert len(red.hand) == 3 and len(red.bag) == 7
    assert Counter(red.hand) + Counter(red.bag) == BAG
    assert game.keep_size(0) == 1
    legal = game.legal_actions(0)
    assert set(legal) == {PlayTokens("red", (t,)) for t in red.hand} and len(legal) == len(set(legal))
    token = red.hand[0]
    game.apply(PlayTokens("red", (token,)))
    assert red.played == (token,) and red.hand == [] and len(red.bag) == 9
    assert game.legal_actions(0) == [] and not game.needs(0) and game.needs(1)


def test_descent_draws_four_keeps_two_and_moves_their_sum():
    game = position("...vvvv" + "." * 30, [("red", 3, 0), ("blue", 1, 0)])
    game.start_turn()
    red = rider(game, "red")
    assert len(red.hand) == 4 and game.keep_size(0) == 2
    assert len(rider(game, "blue").hand) == 3
    for action in game.legal_actions(0):
        assert len(action.tokens) == 2
        assert not Counter(action.tokens) - Counter(red.hand)
    red.hand = [5, 4, 1, 1]
    pairs = {a.tokens for a in game.legal_actions(0)}
    assert pairs == {(5, 4), (5, 1), (4, 1), (1, 1)}
    before = snapshot(game)
    with pytest.raises(RuleError):
        game.apply("play red 5")  # keep exactly 2
    with pytest.raises(RuleError):
        game.apply("play red 5 5")  # only one 5 drawn
    assert snapshot(game) == before
    game.apply("play red 1 5")
    assert sorted(red.played) == [1, 5]
    game.apply(game.legal_actions(1)[0])
    move = [e for e in game.events if e.kind == "move" and e.rider == 0][0]
    assert move.square == 3 + 6 and move.moves == 6
    assert sorted(red.box) == [1, 5]


def test_fewer_tokens_than_the_draw_draws_them_all():
    game = position("...vvvv" + "." * 30, [("red", 0, 0), ("blue", 3, 0)])
    rider(game, "red").bag = [2, 5]
    rider(game, "blue").bag = [4]  # on the descent: draws its only token, keeps it
    game.start_turn()
    assert sorted(rider(game, "red").hand) == [2, 5] and rider(game, "red").bag == []
    assert rider(game, "blue").hand == [4] and game.keep_size(1) == 1
    assert game.legal_actions(1) == [PlayTokens("blue", (4,))]
    assert game.supply == 15


def test_empty_bag_plays_a_fatigue_token_from_the_supply_and_returns_it():
    game = position("." * 40, [("red", 0, 0), ("blue", 10, 0)])
    rider(game, "red").bag = []
    game.start_turn()
    red = rider(game, "red")
    assert red.hand == [F] and not red.phantom
    assert game.supply == 14
    assert game.legal_actions(0) == [PlayTokens("red", (F,))]
    game.apply("play red F")
    rider(game, "blue").hand = [2]
    rider(game, "blue").bag = [3, 3]
    game.die = 0
    game.apply("play blue 2")
    assert where(game, "red") == (1, 0)
    assert red.box == [] and red.history == [(F,)]
    # the token went back, then both riders (alone) took one each from the supply
    assert fatigue_events(game) == {"red": 1, "blue": 1}
    assert game.supply == 15 - 2
    assert red.bag + red.hand == [F]  # the next turn has begun: drawn from its bag


def test_empty_bag_and_empty_supply_phantom_token_moves_one_and_creates_nothing():
    game = position("." * 40, [("red", 0, 0), ("blue", 10, 0)])
    game.supply = 0
    rider(game, "red").bag = []
    game.start_turn()
    red = rider(game, "red")
    assert red.hand == [F] and red.phantom and game.supply == 0
    game.apply("play red F")
    rider(game, "blue").hand = [2]
    game.die = 0
    game.apply("play blue 2")
    assert where(game, "red") == (1, 0)
    assert game.supply == 0  # the phantom token did not go "back"
    assert fatigue_events(game) == {}  # nobody receives fatigue from an empty supply
    # the next turn has begun: still nothing anywhere, another phantom token
    assert red.bag == [] and red.hand == [F] and red.phantom and game.round == 2


def test_fatigue_supply_running_out_front_rider_served_first():
    game = position("." * 40, [("back", 2, 0), ("front", 10, 0)])
    game.supply = 1
    play_round(game, {"back": (2,), "front": (2,)}, 0)
    assert fatigue_events(game) == {"front": 1}
    assert game.supply == 0 and rider(game, "back").fatigue == 0


def test_bumpy_rider_gets_what_is_left():
    game = position("....bbbb" + "." * 30, [("back", 2, 0), ("front", 10, 0)])
    game.supply = 2
    play_round(game, {"back": (3,), "front": (2,)}, 0)  # back ends on 5: bumpy
    assert where(game, "back") == (5, 0)
    assert fatigue_events(game) == {"front": 1, "back": 1}
    assert game.supply == 0
    game = position("....bbbb" + "." * 30, [("back", 2, 0), ("front", 10, 0)])
    play_round(game, {"back": (3,), "front": (2,)}, 0)
    assert fatigue_events(game) == {"front": 1, "back": 2}
    assert game.supply == 12
    assert Counter(rider(game, "back").bag + rider(game, "back").hand)[F] == 2  # bag or the next turn's draw


def test_fatigue_only_when_both_lanes_ahead_are_empty():
    game = position("." * 40, [("a", 5, 0), ("b", 6, 1), ("c", 8, 0)])
    game.die = 0
    game.end_phase()
    assert fatigue_events(game) == {"b": 1, "c": 1}
    # a single-lane square ahead holding a rider is not empty
    game = position("....mmmm" + "." * 30, [("a", 5, 0), ("b", 6, 0)])
    game.die = 0
    game.end_phase()
    assert fatigue_events(game) == {"b": 1}


# ------------------------------------------------------------------ variants


def test_young_children_fatigue_moved_from_the_supply_into_a_bag():
    teams = tuple(Team(c, c) for c in ("red", "blue", "green"))
    setup = BmxSetup(course=compile_bmx_circuit("ABCD", 3), teams=teams, young=(3, 0, 1))
    game = BmxGame(setup, 4)
    bags = [Counter(r.bag) + Counter(r.hand) + Counter(r.played or ()) for r in game.riders]
    assert bags[0] == BAG + Counter({F: 3})
    assert bags[1] == BAG
    assert bags[2] == BAG + Counter({F: 1})
    assert game.supply == 15 - 4
    # through the race spec as well
    spec_setup = make_setup(RaceSpec(variant="bmx", teams=teams, young=(2,)))
    assert spec_setup.young == (2,)
    assert new_game(spec_setup, 1).supply == 13


def test_young_children_limited_by_the_supply():
    teams = (Team("red", "red"), Team("blue", "blue"))
    setup = BmxSetup(course=compile_bmx_circuit("ABCD", 2), teams=teams, young=(3, 3), fatigue_supply=4)
    game = BmxGame(setup, 1)
    total = [sum(1 for t in r.bag + r.hand if t == F) for r in game.riders]
    assert total == [3, 1] and game.supply == 0


def test_forecast_die_rolled_before_drawing_visible_and_used():
    teams = (Team("red", "red"), Team("blue", "blue"))
    for seed in range(20):
        setup = BmxSetup(course=compile_bmx_circuit("ABCD", 2), teams=teams, forecast=True)
        game = BmxGame(setup, seed)
        while game.phase != OVER:
            die = game.die
            assert die in (0, 1, 2)
            assert game.view(0).board.die == die and game.view(1).board.die == die
            for seat in (0, 1):
                if game.phase != OVER and game.needs(seat):
                    game.apply(game.legal_actions(seat)[0])
            assert [e.face for e in game.events if e.kind == "die"] == [die]


def test_without_forecast_the_die_is_rolled_after_moving_and_not_shown():
    teams = (Team("red", "red"), Team("blue", "blue"))
    game = BmxGame(BmxSetup(course=compile_bmx_circuit("ABCD", 2), teams=teams), 3)
    rolls = []
    for _ in range(8):
        assert game.die is None and game.view(0).board.die is None
        for seat in (0, 1):
            game.apply(game.legal_actions(seat)[0])
        rolls += [e.face for e in game.events if e.kind == "die"]
        if game.phase == OVER:
            break
    assert set(rolls) <= {0, 1, 2} and len(set(rolls)) > 1


# --------------------------------------------------------------- movement


def test_front_first_inner_lane_first_and_blocking():
    game = position("." * 40, [("blue", 15, 0), ("green", 14, 0), ("red", 14, 1), ("yellow", 13, 0)])
    play_round(game, {"blue": (F,), "green": (3,), "red": (2,), "yellow": (3,)}, 0)
    order = [game.riders[e.rider].id for e in game.events if e.kind == "move"]
    assert order == ["blue", "green", "red", "yellow"]
    assert [where(game, r) for r in ("blue", "green", "red", "yellow")] == [(16, 0), (17, 0), (16, 1), (15, 0)]


def test_single_lane_squares():
    game = position("...kkkkkk" + "." * 30, [("a", 3, 0), ("b", 2, 0)], single=(5, 6, 7))
    play_round(game, {"a": (3,), "b": (4,)}, 0)
    assert where(game, "a") == (6, 0)
    assert where(game, "b") == (5, 0)  # 6 has one lane only: blocked
    game = position("..mmmm" + "." * 30, [("a", 1, 0), ("b", 1, 1)])
    play_round(game, {"a": (2,), "b": (2,)}, 0)
    assert where(game, "a") == (3, 0) and where(game, "b") == (2, 0)


def test_played_speed_tokens_leave_the_game():
    game = position("." * 40, [("a", 1, 0), ("b", 5, 0)])
    play_round(game, {"a": (4,), "b": (F,)}, 0)
    assert rider(game, "a").box == [4] and rider(game, "b").box == []


# ---------------------------------------------------------------- jump ramp


@pytest.mark.parametrize(
    "start, tokens, to, bonus",
    [
        (8, (3,), 14, 3),  # passes through the ramp (10) with a 3
        (7, (3,), 13, 3),  # ends on the ramp
        (10, (3,), 13, 0),  # starts on the ramp: not passing it
        (8, (4,), 12, 0),  # another number
        (6, (2,), 8, 0),  # falls short of the ramp
    ],
)
def test_jump_ramp(start, tokens, to, bonus):
    game = position("." * 40, [("a", start, 0)], ramp=(10, 3))
    play_round(game, {"a": tokens}, 0)
    assert where(game, "a") == (to, 0)
    ramps = [e.bonus for e in game.events if e.kind == "ramp"]
    assert ramps == ([bonus] if bonus else [])


def test_jump_ramp_fatigue_token_is_not_a_speed_token():
    game = position("." * 40, [("a", 9, 0)], ramp=(10, 1))
    play_round(game, {"a": (F,)}, 0)
    assert where(game, "a") == (10, 0)
    game = position("." * 40, [("a", 9, 0)], ramp=(10, 1))
    play_round(game, {"a": (1,)}, 0)
    assert where(game, "a") == (11, 0)


def test_jump_ramp_two_tokens_of_its_number_give_one_bonus():
    game = position("vvvvvv" + "." * 40, [("a", 4, 0)], ramp=(7, 2))
    play_round(game, {"a": (2, 2)}, 0)
    assert where(game, "a") == (4 + 4 + 2, 0)
    game = position("vvvvvv" + "." * 40, [("a", 4, 0)], ramp=(7, 2))
    play_round(game, {"a": (2, F)}, 0)
    assert where(game, "a") == (4 + 3 + 2, 0)


def test_jump_ramp_bonus_target_is_blocked_as_usual():
    game = position("." * 40, [("x", 20, 0), ("y", 20, 1), ("w", 19, 0), ("v", 19, 1), ("a", 14, 0)],
                    ramp=(15, 3))
    play_round(game, {"x": (1,), "y": (1,), "w": (1,), "v": (1,), "a": (3,)}, 0)
    # x, y -> 21; w, v -> 20; a aims at 14 + 3 + 3 = 20 (full) -> 19
    assert where(game, "w") == (20, 0) and where(game, "v") == (20, 1)
    assert where(game, "a") == (19, 0)
    assert [e.bonus for e in game.events if e.kind == "ramp"] == [3]


def test_no_ramp_bonus_during_catch_up():
    game = position("." * 40, [("a", 8, 0), ("b", 10, 0)], ramp=(9, 1))
    game.die = 1
    game.end_phase()
    assert where(game, "a") == (9, 0)
    assert not [e for e in game.events if e.kind == "ramp"]


def test_ramp_on_a_real_circuit():
    c = compile_bmx_circuit("ABCD", 4, ramp=(5, 4))
    assert c.ramp == (c.grid + 5, 4)
    game = BmxGame.from_position(c, [Placed("a", c.grid + 3, 0)])
    play_round(game, {"a": (4,)}, 0)
    assert where(game, "a") == (c.grid + 3 + 4 + 4, 0)


# ----------------------------------------------------------------- catch-up


@pytest.mark.parametrize(
    "squares, die, after",
    [
        ([0, 2], 1, [1, 2]),
        ([0, 3], 1, [0, 3]),
        ([0, 3], 2, [2, 3]),
        ([0, 4], 2, [0, 4]),
        ([0, 2], 0, [0, 2]),  # the "no catch-up" face
        ([0, 2, 5], 2, [3, 4, 5]),  # chains: 0 joins 2, then the group 1-2 closes its 2-square gap
        ([0, 2, 4, 6], 1, [3, 4, 5, 6]),
        ([0, 1, 3], 1, [1, 2, 3]),  # a two-square group moves as one, front first
    ],
)
def test_catch_up(squares, die, after):
    game = position("." * 40, [(f"r{i}", sq, 0) for i, sq in enumerate(squares)])
    game.die = die
    game.end_phase()
    assert [p[0] for p in game.pos] == after
    assert [e.face for e in game.events if e.kind == "die"] == [die]


def test_catch_up_keeps_lanes_and_respects_single_lane_squares():
    game = position("." * 40, [("a", 3, 0), ("b", 3, 1), ("c", 5, 0)])
    game.die = 1
    game.end_phase()
    assert where(game, "a") == (4, 0) and where(game, "b") == (4, 1)
    game = position("....m" + "." * 30, [("a", 3, 0), ("b", 3, 1), ("c", 5, 0)])
    game.die = 1
    game.end_phase()
    assert where(game, "a") == (4, 0)
    assert where(game, "b") == (3, 0)  # no room on the single-lane square: nearest free lane behind
    assert len({tuple(p) for p in game.pos}) == 3


def test_catch_up_and_climb_free_bmx_terrain():
    # no terrain stops a bmx catch-up (there are no ascents)
    game = position("..kkkk" + "." * 30, [("a", 2, 0), ("b", 4, 0)], single=(2, 3, 4, 5))
    game.die = 1
    game.end_phase()
    assert where(game, "a") == (3, 0)


# --------------------------------------------------------------- end of race


def test_furthest_wins_then_inner_lane_and_step_3_still_played():
    game = position("." * 60, [("a", 27, 0), ("b", 25, 0), ("c", 20, 0)], finish=30)
    play_round(game, {"a": (5,), "b": (5,), "c": (5,)}, 1)
    assert game.phase == OVER
    assert rider(game, "a") is game.riders[game.winner]
    # step 3: c (25) closes the gap to b (30)?  gap 26..29 is 4: no; b at 30 and a at 32: b catches up
    assert where(game, "b") == (31, 0)
    assert fatigue_events(game) == {"a": 1, "c": 1}
    game = position("." * 60, [("a", 27, 0), ("b", 27, 1)], finish=30)
    play_round(game, {"a": (4,), "b": (4,)}, 0)
    assert where(game, "a") == (31, 0) and where(game, "b") == (31, 1)
    assert game.riders[game.winner].id == "a"
    game = position("." * 60, [("a", 27, 0), ("b", 26, 1)], finish=30)
    play_round(game, {"a": (3,), "b": (5,)}, 0)
    assert game.riders[game.winner].id == "b" and game.ranking() == [1, 0]


def test_not_over_before_the_line():
    game = position("." * 60, [("a", 25, 0)], finish=30)
    play_round(game, {"a": (4,)}, 0)
    assert where(game, "a") == (29, 0) and game.phase == ENERGY and game.winner is None


# ------------------------------------------------------------ actions, grid


def test_illegal_bmx_actions_raise_and_change_nothing():
    game = position("." * 40, [("red", 3, 0), ("blue", 1, 0)])
    game.start_turn()
    rider(game, "red").hand = [1, 2, 3]
    before = snapshot(game)
    for bad in ("play red 5", "play red 1 2", "play green 1", "draw red", "play red.S 3", Draw("blue")):
        with pytest.raises(RuleError):
            game.apply(bad)
        assert snapshot(game) == before
    game.apply("play red 2")
    before = snapshot(game)
    with pytest.raises(RuleError):
        game.apply("play red 1")  # already played
    assert snapshot(game) == before


@pytest.mark.parametrize("teams", [2, 3, 4])
def test_random_start_grid(teams):
    setup = make_setup(RaceSpec(variant="bmx", teams=tuple(Team(c, c) for c in ("r", "g", "b", "y")[:teams])))
    grids = set()
    for seed in range(12):
        game = new_game(setup, seed)
        places = [tuple(p) for p in game.pos]
        assert len(set(places)) == teams
        assert all(0 <= sq < setup.course.grid for sq, _ in places)
        assert places == [tuple(p) for p in new_game(setup, seed).pos]
        grids.add(tuple(places))
    assert setup.course.grid == (teams + 1) // 2
    assert len(grids) > 1


def test_normal_fatigue_comes_from_the_config():
    from flamme_tui import config

    rules = config.load_bmx_rules()
    taken = rules.fatigue_taken.model_copy(update={"normal": 2})
    setup = make_setup(RaceSpec(variant="bmx", teams=(Team("red", "red"), Team("blue", "blue"))),
                       bmx=rules.model_copy(update={"fatigue_taken": taken}))
    game = BmxGame.from_position(course("." * 20), [Placed("a", 3, 0)], rules=setup)
    game.resolve({"a": (1,)}, 0)  # alone at the front, on a flat square
    assert fatigue_events(game) == {"a": 2}


# ------------------------------------------------------------------- seats

TWO_BLUES = (Team("Ann", "blue"), Team("Bob", "blue"), Team("Cy", "orange"))


def test_two_seats_of_one_colour_are_refused_by_the_game():
    """A bmx rider's id is its colour: two Blue seats would be two riders with one id."""
    setup = BmxSetup(course=compile_bmx_circuit("ABCD", 3), teams=TWO_BLUES)
    with pytest.raises(ValueError, match=r"^two seats race the same rider \(blue\): each seat needs a colour of its own$"):
        BmxGame(setup, 1)


@pytest.mark.parametrize("variant", ["bmx", "classic", "meteo"])
def test_make_setup_refuses_two_seats_of_one_colour(variant):
    with pytest.raises(ValueError, match="two seats race the same rider"):
        make_setup(RaceSpec(variant=variant, teams=TWO_BLUES))


def test_the_choices_say_why_two_seats_of_one_colour_cannot_race():
    from flamme_tui.ui.choices import RaceChoices, SeatChoice

    seats = [SeatChoice(t.name, t.colour) for t in TWO_BLUES]
    assert RaceChoices(variant="bmx", seats=seats).problem() == (
        "two seats race the same rider (Blue): each seat needs a colour of its own")  # its colour in words
    seats[1].colour = "green"
    assert RaceChoices(variant="bmx", seats=seats).problem() == ""
