"""A stage in tour mode (GRAND-TOUR.md "A stage in a tour"): the engine's
ClassicGame with `tour=True` in its set-up."""

from __future__ import annotations

from dataclasses import replace

import pytest

from flamme_tui.bots import POLICIES
from flamme_tui.engine.cards import EXHAUSTION
from flamme_tui.engine.classic import ClassicGame, ClassicSetup
from flamme_tui.engine.events import Crossed, Exhaustion, Slipstream
from flamme_tui.engine.phase import Phase
from flamme_tui.engine.race import Placed
from flamme_tui.engine.track import EMPTY, LANES
from flamme_tui.engine.turns import turns
from flamme_tui.play.narrator import describe_round
from flamme_tui.play.races import RaceSpec, make_setup, new_game, play_out


def tour_setup(variant: str = "classic", scripted: tuple[str, ...] = (), **kw) -> ClassicSetup:
    setup = make_setup(RaceSpec(variant=variant, stage="avenue-corso-paseo", scripted=scripted))
    return replace(setup, tour=True, **kw)


def position(riders, **kw) -> ClassicGame:
    base = tour_setup(**kw)
    return ClassicGame.from_position(base.course, [Placed(**r) for r in riders], rules=base)


def play_round(game: ClassicGame, cards: dict[str, int]) -> None:
    """Resolve one round with the given cards (every rider on the track)."""
    for i, r in enumerate(game.riders):
        if i not in game.crossed:
            r.played = cards[r.id]
    game.resolve_round()


def race(setup: ClassicSetup, seed: int) -> ClassicGame:
    game = new_game(setup, seed)
    bots = {seat: POLICIES["medium"] for seat in range(len(setup.teams)) if not (setup.scripted and setup.scripted[seat])}
    play_out(game, bots)
    return game


def test_a_tour_stage_goes_on_until_every_rider_has_crossed():
    game = race(tour_setup(), 3)
    assert game.phase == Phase.OVER
    assert set(game.crossed) == set(range(len(game.riders)))
    finish = game.course.finish
    assert all(sq >= finish for _, sq, _ in game.crossed.values())
    # nobody is left on the track, and the ranking is the stage placing
    assert all(c == EMPTY for c in game.cells)
    order = game.ranking()
    keys = [(game.crossed[i][0], -game.crossed[i][1], game.crossed[i][2]) for i in order]
    assert keys == sorted(keys)
    assert game.winner == order[0]
    assert game.outcome().ranking == tuple(order)
    # it lasted longer than the first crossing
    assert max(c[0] for c in game.crossed.values()) >= min(c[0] for c in game.crossed.values())


def test_every_round_of_a_tour_stage_is_told_in_words():
    # the race log names squares with the UI's namer: every event takes it, a crossing too
    setup = tour_setup()
    game = new_game(setup, 3)
    told: list[str] = []
    play_out(game, {seat: POLICIES["medium"] for seat in range(len(setup.teams))},
             on_round=lambda g: told.extend(describe_round(g, lambda sq: f"square {sq}")))
    crossings = [line for line in told if "crosses the line" in line]
    assert len(crossings) == len(game.riders)  # every rider crosses once
    # the stage has a winner, not the race: the tour goes on
    assert sum("wins the stage!" in line for line in told) == 1
    assert not any("wins the race" in line for line in told)


def test_a_stage_is_its_setup_seed_and_actions():
    a, b = race(tour_setup(), 11), race(tour_setup(), 11)
    assert a.crossed == b.crossed and a.state_key() == b.state_key()
    again = new_game(a.setup, 11)
    for action in a.actions:
        again.apply(action)
    assert again.crossed == a.crossed and again.state_key() == a.state_key()


def test_meteo_and_scripted_teams_race_a_tour_stage():
    for setup in (tour_setup("meteo"), tour_setup(scripted=("", "", "peloton", "muscle"))):
        for seed in range(4):
            game = race(setup, seed)
            assert len(game.crossed) == len(game.riders)


def test_a_finished_rider_gives_no_slipstream_and_takes_no_exhaustion():
    course = tour_setup().course
    f = course.finish
    # red.S crosses onto the first square past the line; blue.S lands two behind it
    game = position([{"id": "red.S", "square": f - 3, "lane": 0}, {"id": "blue.S", "square": f - 6, "lane": 0}])
    play_round(game, {"red.S": 3, "blue.S": 4})
    assert game.crossed == {0: (1, f, 0)}
    assert Crossed(0, 1) in game.events
    # no slipstream towards the finished rider, and blue.S in the wind takes exhaustion; red.S takes none
    assert not [e for e in game.events if isinstance(e, Slipstream)]
    assert [e.rider for e in game.events if isinstance(e, Exhaustion)] == [1]
    assert game.riders[0].exhaustion == 0
    # red.S has left the track: its square is free, it plays no more
    assert game.pos[0] == [-1, -1] and game.cells[LANES * f] == EMPTY
    assert game.phase == Phase.ENERGY and not game.needs(0) and game.needs(1)
    # the seats' options, from their views: nothing for red, blue.S draws
    assert game.view(0).options() == []
    assert [str(o.action) for o in game.view(1).options()] == ["draw blue.S"]


def test_a_rider_just_behind_a_finisher_is_sheltered_that_round():
    f = tour_setup().course.finish
    game = position([{"id": "red.S", "square": f - 3, "lane": 0}, {"id": "blue.S", "square": f - 5, "lane": 0}])
    play_round(game, {"red.S": 3, "blue.S": 4})
    assert game.pos[1] == [f - 1, 0]
    assert not [e for e in game.events if isinstance(e, Exhaustion)]


def test_a_finished_rider_no_longer_blocks():
    f = tour_setup().course.finish
    game = position([
        {"id": "red.S", "square": f - 2, "lane": 0}, {"id": "red.R", "square": f - 2, "lane": 1},
        {"id": "blue.S", "square": f - 8, "lane": 0},
    ])
    play_round(game, {"red.S": 2, "red.R": 2, "blue.S": 3})  # red's riders end on the first square past the line
    assert set(game.crossed) == {0, 1}
    # blue.S lands on that square next round: free again
    game.riders[2].played = 5
    game.waiting = 0
    game.resolve_round()
    assert game.phase == Phase.OVER
    assert game.crossed[2] == (2, f, 0)
    assert game.ranking() == [0, 1, 2]


def test_the_others_still_slipstream_among_themselves():
    f = tour_setup().course.finish
    game = position([
        {"id": "red.S", "square": f - 2, "lane": 0},
        {"id": "blue.S", "square": f - 12, "lane": 0}, {"id": "green.S", "square": f - 14, "lane": 0},
    ])
    play_round(game, {"red.S": 5, "blue.S": 3, "green.S": 3})  # blue on f-9, green on f-11: one gap
    assert [(e.rider, e.square) for e in game.events if isinstance(e, Slipstream)] == [(2, f - 10)]


def test_carried_exhaustion_goes_into_the_players_decks_only():
    carried = (1, 2, 0, 3, 4, 4, 2, 5)
    setup = tour_setup(scripted=("", "", "peloton", "muscle"), carried=carried)
    game = new_game(setup, 5)
    for i, r in enumerate(game.riders):
        cards = r.deck + list(r.recycled) + list(r.hand) + ([r.played] if r.played is not None else [])
        expected = 0 if setup.scripted[r.seat] else carried[i]
        assert cards.count(EXHAUSTION) == expected, r.id
    with pytest.raises(ValueError):
        new_game(tour_setup(carried=(1, 2)), 1)


def test_grid_order_places_teams_in_that_order():
    setup = tour_setup(grid="choose", grid_order=(2, 0, 3, 1))
    game = new_game(setup, 1)
    seats = []
    while game.phase == Phase.GRID:
        nxt = game.to_place()
        seats.append(game.riders[nxt].seat)
        game.apply(game.legal_actions(game.riders[nxt].seat)[0])
    assert seats == [2, 2, 0, 0, 3, 3, 1, 1]
    with pytest.raises(ValueError):
        new_game(tour_setup(grid_order=(0, 0, 1, 2)), 1)


def test_a_random_grid_in_grid_order_fills_from_the_back():
    setup = tour_setup(grid_order=(2, 0, 3, 1))
    for seed in range(5):
        game = new_game(setup, seed)
        squares = {seat: sorted(game.pos[i][0] for i in game.seats[seat]) for seat in range(4)}
        # the first in the order stands rearmost; each team on one square here (two lanes)
        assert squares[2][1] < squares[0][0] and squares[0][1] < squares[3][0] and squares[3][1] < squares[1][0]


def test_a_tour_round_is_told_in_words():
    """Every event of a tour stage has its line in the race log (the Crossed event too)."""
    game = new_game(tour_setup(), 4)
    lines: list[str] = []
    play_out(game, {seat: POLICIES["easy"] for seat in range(4)}, on_round=lambda g: lines.extend(describe_round(g)))
    crossed = [line for line in lines if "crosses the line" in line]
    assert len(crossed) == len(game.riders)
    assert all("past it" in line for line in crossed)


def test_a_race_outside_a_tour_ends_at_the_first_crossing():
    game = race(replace(tour_setup(), tour=False), 3)
    assert game.crossed == {}
    assert sum(1 for p in game.pos if p[0] >= game.course.finish) >= 1


# ------------------------------------------------- what bots weigh in a tour


def finished(cards: dict[str, int], riders, **setup) -> ClassicGame:
    """A tour stage decided in one round (every rider crosses)."""
    game = position(riders, **setup)
    play_round(game, cards)
    assert game.phase == Phase.OVER
    return game


def test_stage_value_weighs_places_times_and_both_riders():
    from flamme_tui.engine.tour import stage_value

    f = tour_setup().course.finish
    riders = [{"id": "red.S", "square": f - 3, "lane": 0}, {"id": "red.R", "square": f - 4, "lane": 0},
              {"id": "blue.S", "square": f - 3, "lane": 1}, {"id": "blue.R", "square": f - 4, "lane": 1}]
    base = {"red.S": 5, "red.R": 5, "blue.S": 4, "blue.R": 4}
    # red wins the stage: worth more to red than blue winning it
    red_wins = finished(base, riders)
    blue_wins = finished({"red.S": 4, "red.R": 4, "blue.S": 5, "blue.R": 5}, riders)
    assert stage_value(red_wins, 0) > stage_value(blue_wins, 0)
    assert stage_value(red_wins, 1) < stage_value(blue_wins, 1)
    # the same placings, a bigger gap: more (times count, not only places)
    wider = finished({**base, "red.S": 6}, riders)
    assert [wider.riders[i].id for i in wider.ranking()] == [red_wins.riders[i].id for i in red_wins.ranking()]
    assert stage_value(wider, 0) > stage_value(red_wins, 0)
    # the standing before the stage counts: far behind in the GC, the same stage is worth less
    behind = finished(base, riders, tour_times=(600, 600, 0, 0))
    assert stage_value(behind, 0) < stage_value(red_wins, 0)
    assert all(0 <= stage_value(g, seat) <= 1 for g in (red_wins, blue_wins, wider, behind) for seat in (0, 1))


def test_stage_value_counts_the_second_rider_however_far_behind():
    """A rider far behind still gains by going faster (the hard bot once let its Sprinteur crawl)."""
    from flamme_tui.engine.tour import stage_value

    f = tour_setup().course.finish
    riders = [{"id": "red.S", "square": f - 2, "lane": 0}, {"id": "red.R", "square": f - 40, "lane": 0},
              {"id": "blue.S", "square": f - 2, "lane": 1}, {"id": "blue.R", "square": f - 3, "lane": 1}]
    game = position(riders)
    play_round(game, {"red.S": 5, "red.R": 2, "blue.S": 3, "blue.R": 4})
    slow, fast = game.clone(), game.clone()
    for twin, card in ((slow, 2), (fast, 9)):
        while twin.phase != Phase.OVER:
            play_round(twin, {"red.R": card})
    assert stage_value(fast, 0) > stage_value(slow, 0)


def test_the_hard_bot_weighs_a_tour_stage_by_its_value():
    from flamme_tui.bots.search import worth
    from flamme_tui.engine.tour import stage_value

    game = race(tour_setup(), 2)
    assert [worth(game, seat)[1] for seat in range(4)] == [stage_value(game, seat) for seat in range(4)]
    outside = race(replace(tour_setup(), tour=False), 2)
    won, value = worth(outside, outside.riders[outside.winner].seat)
    assert won[0] == 1 and 1.0 <= value <= 1.2  # a win, and a little for the margin


def test_a_sampled_world_knows_where_finished_riders_crossed():
    """Where a rider crossed is public: a bot's sampled world has it, so the stage's times can be worked out."""
    from flamme_tui.engine.rng import Rng
    from flamme_tui.engine.tour import stage_of

    game = new_game(tour_setup(), 6)
    policies = {seat: POLICIES["easy"] for seat in range(4)}
    while not game.crossed or game.phase == Phase.OVER:
        for seat in turns(game):
            game.apply(policies[seat](game.view(seat)))
    assert game.phase == Phase.ENERGY
    seat = next(s for s in range(4) if game.needs(s))
    view = game.view(seat)
    assert view.board.crossed == game.crossed
    world = view.sample(Rng(1))
    assert world.crossed == game.crossed
    while world.phase != Phase.OVER:
        for s in turns(world):
            world.apply(policies[s](world.view(s)))
    lines = stage_of(world)
    assert len(lines) == len(game.riders) and lines[0].time == 0
