"""Random whole tours across every set-up the app and `tour` offer (hypothesis).

2 to 6 teams or 7 to 12 players racing one rider each; scripted teams
(Peloton, Muscle); a random grid or players placing their riders; the
Peloton breakaway; classic and meteo stages; handicaps; every bot.  Each
tour is raced to its end by bots, saved and loaded at every stage boundary
(when a stage is over, and when the next one begins), going on from the
loaded file each time; the tour must end as the same tour raced without
saving.  The rulings of GRAND-TOUR.md are checked on the way: handicaps
dealt once, every rider finishes every stage, random grids on the
front-most places.

The default run races a few tours (a few seconds); the long run
(`-m slow`, FLAMME_TOURS=N tours) hunts for the rare set-up.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from flamme_tui import config, saves
from flamme_tui.bots import POLICIES
from flamme_tui.bots.budget import Budget
from flamme_tui.engine.cards import EXHAUSTION, starting_deck
from flamme_tui.engine.phase import Phase
from flamme_tui.engine.race import Team
from flamme_tui.play import tours
from flamme_tui.play.races import COLOURS, one_rider_seats

BASE = [s for s in config.stage_ids() if not s.startswith("peloton")]
PELOTON = [s for s in config.stage_ids() if s.startswith("peloton")]  # every one with the breakaway square
# the hard bot thinks ~0.5 s a decision in pure Python: one seat at most, in one tour of ten or so
QUICK_BOTS = sorted(set(POLICIES) - {"hard"})
BUDGET = Budget(rollouts=4)  # the expert, deterministic and quick
QUICK = settings(max_examples=int(os.environ.get("FLAMME_TOURS_QUICK", "3")), deadline=None, derandomize=True,
                 database=None, suppress_health_check=list(HealthCheck))
LONG = settings(max_examples=int(os.environ.get("FLAMME_TOURS", "10")), deadline=None, database=None,
                suppress_health_check=list(HealthCheck))


@dataclass(frozen=True)
class SetUp:
    spec: tours.TourSpec
    teams: tuple[Team, ...]
    scripted: tuple[str, ...]
    bots: dict[int, str]
    grid: str
    handicap: tuple[int, ...]
    breakaway: bool
    seed: int

    def tour(self) -> tours.Tour:
        return tours.Tour.new(self.spec, self.teams, self.seed, self.scripted, grid=self.grid,
                              handicap=self.handicap, breakaway=self.breakaway)


@st.composite
def set_ups(draw) -> SetUp:
    lone = draw(st.booleans())  # 7 to 12 players, one rider each
    n = draw(st.integers(7, 12)) if lone else draw(st.integers(2, 6))
    teams = one_rider_seats(n) if lone else tuple(Team(c.capitalize(), c) for c in COLOURS[:n])
    scripted: tuple[str, ...] = ()
    if not lone and draw(st.booleans()):
        kinds = draw(st.lists(st.sampled_from(["", "", "peloton", "muscle"]), min_size=n, max_size=n))
        if "" not in kinds:
            kinds[0] = ""
        if kinds.count("peloton") > 1:  # one Peloton team at most (its two Attack cards)
            kinds = [k if k != "peloton" or j == kinds.index("peloton") else "muscle" for j, k in enumerate(kinds)]
        scripted = tuple(kinds) if any(kinds) else ()
    legs = draw(st.lists(st.tuples(st.sampled_from(BASE + PELOTON), st.sampled_from(["classic", "meteo"])),
                         min_size=1, max_size=3))
    spec = tours.TourSpec(name="Random tour", stages=tuple(tours.TourStage(stage=s, variant=v) for s, v in legs))
    players = [seat for seat in range(n) if not (scripted and scripted[seat])]
    bots = {seat: draw(st.sampled_from(QUICK_BOTS)) for seat in players}
    if draw(st.integers(0, 9)) == 9:  # (not 0: the simplest tours hypothesis tries first stay quick)
        bots[draw(st.sampled_from(players))] = "hard"
    handicap = tuple(draw(st.integers(0, 3)) for _ in range(n)) if draw(st.booleans()) else ()
    return SetUp(spec, teams, scripted, bots, draw(st.sampled_from(["random", "choose"])), handicap,
                 draw(st.booleans()), draw(st.integers(0, 10**6)))


def race_stage(session) -> None:
    while not session.over:
        assert session.game.round <= 200, "a stage did not end"
        session.play_bots()


def reload(session, path):
    """Save the session, load it back, and check it is the same point of the same tour."""
    saves.save(session, path)
    loaded = saves.load(path)
    assert loaded.tour is not None and len(loaded.tour.done) == len(session.tour.done)
    assert saves.state_digest(loaded.game) == saves.state_digest(session.game)
    assert loaded.bots == session.bots
    loaded.budget = session.budget
    return loaded


def check_stage(tour: tours.Tour, k: int, game) -> None:
    """The rulings of GRAND-TOUR.md (added 2026-12-04) on stage k (0-based) as raced."""
    setup = game.setup
    assert game.phase == Phase.OVER and len(game.crossed) == len(game.riders)  # every rider finished
    if k:  # handicaps were dealt at the first stage only: a deck is its type's, what it carried and no more
        for rider in game.riders:
            dealt = starting_deck(setup, rider.seat, rider.kind)
            leg = tour.legs[k]
            assert dealt.count(EXHAUSTION) == (0 if game.script[rider.seat] else setup.carried[game.index[rider.id]]) \
                or starting_deck(leg, rider.seat, rider.kind) == ()  # the Peloton's Rouleur: no deck of its own


def race_and_reload(set_up: SetUp, folder) -> tours.Tour:
    session = tours.stage_session(set_up.tour(), dict(set_up.bots))
    session.budget = BUDGET
    k = 0
    while True:
        session = reload(session, folder / f"start-{k}.json")  # the stage as it begins
        race_stage(session)
        session = reload(session, folder / f"end-{k}.json")  # the stage over, before the next begins
        assert session.over
        tour = tours.standing(session)
        check_stage(tour, k, tour.done[-1].game)
        if tours.tour_over(session):
            return tour
        session = tours.next_session(session)
        k += 1


def straight(set_up: SetUp) -> tours.Tour:
    """The same tour raced without saving."""
    session = tours.stage_session(set_up.tour(), dict(set_up.bots))
    session.budget = BUDGET
    while True:
        race_stage(session)
        if tours.tour_over(session):
            return tours.standing(session)
        session = tours.next_session(session)


def check(set_up: SetUp, folder, *, again: bool = True) -> None:
    """Race the tour, saving and loading at every boundary; with `again`, also
    without saving: the same tour (the loaded files go on as the race did)."""
    if os.environ.get("FLAMME_TOURS_TRACE"):
        print(set_up, flush=True)
    tour = race_and_reload(set_up, folder)
    assert tour.over and len(tour.results()) == len(set_up.spec.stages)
    if again:
        twin = straight(set_up)
        assert tour.results() == twin.results()
        assert [line.team for line in tour.ranking()] == [line.team for line in twin.ranking()]


@QUICK
@given(set_up=set_ups())
def test_random_tours_of_every_set_up_finish_and_reload_at_every_stage(set_up, tmp_path_factory):
    check(set_up, tmp_path_factory.mktemp("tour"))


@pytest.mark.slow
@LONG
@given(set_up=set_ups())
def test_many_random_tours_of_every_set_up(set_up, tmp_path_factory):
    check(set_up, tmp_path_factory.mktemp("tour"), again=False)

