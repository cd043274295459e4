"""A race nobody reads the events of (`Race.narrated` off: the bots' sampled
worlds, the bench, the tournament) is the same race, without its events."""

from __future__ import annotations

import dataclasses

import pytest
from test_previews import position

from flamme_tui.bots import POLICIES
from flamme_tui.engine.options import WIND
from flamme_tui.play.races import RaceSpec, make_setup, new_game, one_rider_seats, play_out

TEAMS = RaceSpec().teams

SPECS = {
    "classic": RaceSpec(),
    "meteo": RaceSpec(variant="meteo"),  # crashes and stand-ups
    "bmx": RaceSpec(variant="bmx", teams=TEAMS[:3]),  # the die, catch-up, fatigue, the ramp
    "scripted-breakaway": RaceSpec(stage="peloton-7", breakaway=True, teams=TEAMS[:3], scripted=("", "peloton", "muscle")),
    "one-rider": RaceSpec(teams=one_rider_seats(7)),
}


def rounds(setup, seed: int, narrated: bool) -> tuple[list[str], list[object], object]:
    """The action log, what every round left on the track and in the piles, and the outcome."""
    game = new_game(setup, seed)
    game.narrated = narrated
    states: list[object] = []

    def seen(g) -> None:
        states.append((g.round, g.phase, [tuple(p) for p in g.pos], g.winner,
                       [(r.exhaustion, r.recycled, list(r.deck)) if hasattr(r, "recycled") else (r.fatigue, list(r.bag))
                        for r in g.riders]))
        if narrated:
            assert g.events, "a narrated round tells what happened"
        else:
            assert not g.events, "a race not narrated makes no events"

    play_out(game, dict.fromkeys(range(len(game.seats)), POLICIES["easy"]), on_round=seen)
    return [str(a) for a in game.actions], states, game.outcome()


@pytest.mark.parametrize("name", list(SPECS))
def test_a_race_not_narrated_is_the_same_race_without_events(name):
    setup = make_setup(SPECS[name])
    setups = [setup]
    if name == "classic":  # a tour stage: riders across the line leave the track
        setups.append(dataclasses.replace(setup, tour=True))
    for s in setups:
        for seed in range(5):
            assert rounds(s, seed, narrated=False) == rounds(s, seed, narrated=True)


@pytest.mark.parametrize("variant", ["classic", "bmx"])
def test_the_wind_of_a_card_is_the_same_on_a_race_not_narrated(variant):
    """A card's wind (`wind`: the round's end phase simulated, read from its events) on a
    game that makes no events, as the bots' worlds are, is what it is on a narrated one.
    Alone at the back, far from the others, every card lands in the wind."""
    ids = ("red.S", "red.R", "blue.S", "blue.R") if variant == "classic" else ("red", "blue")
    riders = [{"id": ids[0], "square": 0, "lane": 0}] + [{"id": rid, "square": 30, "lane": k % 2}
                                                         for k, rid in enumerate(ids[1:])]
    answers = {}
    for narrated in (True, False):
        game = position(variant, "." * 40, riders)  # the line at 50
        game.narrated = narrated
        view = game.view(0)
        pieces = [3, 4, 5] if variant == "classic" else [(3,), (4,), (5,)]
        answers[narrated] = [game.wind(view, 0, p) for p in pieces]
    assert answers[False] == answers[True] == [WIND] * 3
