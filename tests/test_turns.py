"""Whose turn it is: `turns.next_seat` asks the engine seat by seat (`needs`);
it must name the first seat of `to_move`, in every phase and rule set."""

from __future__ import annotations

import dataclasses

import pytest

from flamme_tui.bots import POLICIES
from flamme_tui.bots.rollout import greedy, play_to_end
from flamme_tui.engine.phase import Phase
from flamme_tui.engine.turns import next_seat, turns
from flamme_tui.play.races import RaceSpec, make_setup, new_game, one_rider_seats, play_out

TEAMS = RaceSpec().teams

SPECS = [
    RaceSpec(grid="choose"),  # the grid phase too
    RaceSpec(variant="meteo", teams=TEAMS[:3]),
    RaceSpec(variant="bmx", teams=TEAMS[:2]),
    RaceSpec(teams=TEAMS[:3], scripted=("", "peloton", "muscle")),
]


@pytest.mark.parametrize("spec", SPECS, ids=["classic-grid", "meteo", "bmx", "scripted"])
@pytest.mark.parametrize("tour", [False, True])
def test_next_seat_is_the_first_seat_to_move(spec, tour):
    setup = make_setup(spec)
    if tour:
        if spec.variant == "bmx":
            pytest.skip("tours are classic stages")
        if spec.scripted:
            # a known engine bug, not about turns: a tour stage with scripted teams stalls
            # once every player's rider has crossed (no player is left to resolve the round)
            pytest.skip("tour stages with scripted teams can stall (reported)")
        setup = dataclasses.replace(setup, tour=True)
    for seed in range(6):
        game = new_game(setup, seed)
        steps = 0
        while game.phase != Phase.OVER:
            for seat in turns(game):
                seats = game.to_move()
                assert next_seat(game) == seat == seats[0]
                assert [s for s in range(len(game.seats)) if game.needs(s)] == seats
                game.apply(POLICIES["easy"](game.view(seat)))
                steps += 1
        assert next_seat(game) is None and steps > 0


# set-ups whose phases name seats in every way: a grid players choose, the breakaway's bids,
# scripted teams, one rider a seat (7 to 12 players), bmx, a tour stage
LOOPS = SPECS + [
    RaceSpec(stage="peloton-7", grid="choose", breakaway=True, teams=TEAMS[:3]),
    RaceSpec(teams=one_rider_seats(7)),
]


def turns_log(setup, seed: int, policy) -> list[str]:
    """The action log of a race each seat plays as `turns` names it (next_seat from seat 0 every time)."""
    game = new_game(setup, seed)
    while game.phase != Phase.OVER:
        for seat in turns(game):
            game.apply(policy(game, seat))
    return [str(a) for a in game.actions]


@pytest.mark.parametrize("k", range(len(LOOPS)))
def test_the_race_loops_name_the_seats_turns_names(k):
    """`play_out` and the rollouts' `play_to_end` start next_seat's search at the seat that
    has just acted in an energy phase: the same seats act in the same order as `turns` names them."""
    setup = make_setup(LOOPS[k])
    tour = dataclasses.replace(setup, tour=True) if LOOPS[k].variant != "bmx" and not LOOPS[k].scripted else None
    for s in [setup] + ([tour] if tour else []):
        for seed in range(4):
            game = new_game(s, seed)
            play_out(game, dict.fromkeys(range(len(game.seats)), POLICIES["easy"]))
            assert [str(a) for a in game.actions] == turns_log(s, seed, lambda g, seat: POLICIES["easy"](g.view(seat)))
            game = new_game(s, seed)
            while game.phase != Phase.OVER and game.phase != Phase.ENERGY:  # the grid and the bids, as turns names them
                seat = next_seat(game)
                game.apply(POLICIES["easy"](game.view(seat)))
            play_to_end(game, [greedy] * len(game.seats))
            assert [str(a) for a in game.actions] == turns_log(
                s, seed, lambda g, seat: POLICIES["easy"](g.view(seat)) if g.phase != Phase.ENERGY else greedy(g, seat))
