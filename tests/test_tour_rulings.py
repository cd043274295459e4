"""The Grand Tour rulings added 2026-12-04 (GRAND-TOUR.md, RULES.md), one
test each for the set-ups that crashed: scripted riders left alone, players
placing the grid with bots, five and six teams saved, 7-12 players, handicaps
dealt once; and the random grid on the front-most places."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from flamme_tui import saves
from flamme_tui.bots.budget import Budget
from flamme_tui.engine.actions import Place
from flamme_tui.engine.cards import EXHAUSTION
from flamme_tui.engine.phase import Phase
from flamme_tui.engine.race import Team
from flamme_tui.play import tours
from flamme_tui.play.races import COLOURS, RaceSpec, make_setup, new_game, one_rider_seats

DATA = Path(__file__).parent / "data" / "saves"


def teams(n: int) -> tuple[Team, ...]:
    return tuple(Team(c.capitalize(), c) for c in COLOURS[:n])


def finish(session):
    while True:
        while not session.over:
            assert session.game.round <= 200
            session.play_bots()
        if tours.tour_over(session):
            return tours.standing(session)
        session = tours.next_session(session)


def test_scripted_riders_left_alone_play_the_stage_out():
    # the repro: `tour --stages avenue-corso-paseo --bots easy,muscle --seed 1`
    tour = tours.Tour.new(tours.stages_option("avenue-corso-paseo"), teams(2), 1, ("", "muscle"))
    done = finish(tours.stage_session(tour, {0: "easy"}))
    game = done.done[0].game
    assert game.phase == Phase.OVER and len(game.crossed) == 4
    # the Muscle riders crossed after the last rider of the players: rounds nobody was asked anything
    players = max(game.crossed[i][0] for i in game.seats[0])
    assert max(game.crossed[i][0] for i in game.seats[1]) > players


def test_a_tour_saved_stuck_with_scripted_riders_alone_loads_and_finishes(tmp_path):
    # written by flamme-tui before the fix (commit dda662e): `tour --stages
    # avenue-corso-paseo,firenze-milano --bots easy,muscle --seed 3 --autosave`,
    # which stopped in stage 2 with 'nobody to play in round 15'
    path = tmp_path / "stuck.json"
    shutil.copy(Path(__file__).parent / "data" / "legacy" / "tour-scripted-stuck.json", path)
    session = saves.load(path)
    assert session.tour is not None and len(session.tour.done) == 1
    assert session.over  # the Muscle riders played the stage out
    attached = saves.attach_autosave(session)
    attached.write()
    again = saves.load(path)  # and the stage, finished, saves and loads
    assert again.over and tours.tour_over(again)
    assert tours.standing(again).results() == tours.standing(session).results()


# short stages (start, a straight or a climb, finish): every stage starts with the grid to place
# as a long one does, and the hard bot's searches (rollouts to the finish) take seconds, not half a minute
SHORT_STAGES = {"sprint": "name: Sprint\ntiles: abcu\n", "windy": "name: Windy Straights\ntiles: abfu\n",
                "hill": "name: Hill\ntiles: aCdU\n"}


def test_bots_place_the_rider_the_engine_asks_for_at_every_stage(tmp_path, monkeypatch):
    monkeypatch.setenv("FLAMME_TUI_DATA_DIR", str(tmp_path))
    (tmp_path / "stages").mkdir()
    for sid, text in SHORT_STAGES.items():
        (tmp_path / "stages" / f"{sid}.yaml").write_text(text)
    spec = tours.stages_option("sprint,windy,hill")
    for seed in range(3):
        tour = tours.Tour.new(spec, teams(4), seed, grid="choose")
        session = tours.stage_session(tour, {0: "easy", 1: "medium", 2: "hard", 3: "expert"})
        session.budget = Budget(rollouts=4)  # the expert on a fixed small budget: quick, the same every run
        done = finish(session)
        assert done.over
        # every stage began with each bot placing its two riders (not the random grid)
        assert [sorted(str(a).split()[1].split(".")[0] for a in d.game.actions if isinstance(a, Place)) for d in done.done] \
            == [sorted(c for c in COLOURS[:4] for _ in range(2))] * 3, seed


@pytest.mark.parametrize("n", [5, 6])
def test_tours_of_five_and_six_teams_save_and_load_after_stage_one(tmp_path, n):
    spec = tours.stages_option("peloton-7-5-6,peloton-8-5-6")
    session = tours.stage_session(tours.Tour.new(spec, teams(n), 2), {seat: "easy" for seat in range(n)})
    while not session.over:
        session.play_bots()
    following = tours.next_session(session)
    path = saves.save(following, tmp_path / "tour.json")  # stage 2's set-up: carry-over of 2n riders
    loaded = saves.load(path)
    assert len(loaded.tour.done) == 1 and len(loaded.setup.carried) == 2 * n
    assert finish(loaded).over


@pytest.mark.parametrize("n", [7, 12])
def test_seven_to_twelve_players_race_every_stage(tmp_path, n):
    spec = tours.stages_option("peloton-7-5-6,peloton-8-5-6")
    session = tours.stage_session(tours.Tour.new(spec, one_rider_seats(n), 3), {seat: "easy" for seat in range(n)})
    while not session.over:
        session.play_bots()
    following = tours.next_session(session)
    assert len(following.setup.carried) == n
    for rider in following.game.riders:  # each player's rider carried its own exhaustion cards
        held = session.game.riders[session.game.index[rider.id]]
        exhausted = (held.deck + list(held.hand) + list(held.recycled)).count(EXHAUSTION)
        assert following.setup.carried[following.game.index[rider.id]] == (exhausted + 1) // 2
    loaded = saves.load(saves.save(following, tmp_path / "tour.json"))
    assert finish(loaded).over


def test_handicaps_are_dealt_once_at_the_first_stage():
    spec = tours.stages_option("avenue-corso-paseo,firenze-milano")
    tour = tours.Tour.new(spec, teams(3), 5, handicap=(3, 0, 2))
    first = tour.new_stage()
    assert [r.deck.count(EXHAUSTION) for r in first.riders] == [3, 3, 0, 0, 2, 2]
    session = tours.stage_session(tour, {0: "easy", 1: "easy", 2: "easy"})
    while not session.over:
        session.play_bots()
    second = tours.next_session(session)
    # stage 2: whole decks plus the carried half, no handicap again
    assert [r.deck.count(EXHAUSTION) for r in second.game.riders] == list(second.setup.carried)


def test_a_solo_teams_handicap_is_dealt_once():
    spec = tours.stages_option("avenue-corso-paseo,firenze-milano")
    tour = tours.Tour.new(spec, teams(3), 5, ("", "peloton", "muscle"))
    assert [r.deck.count(EXHAUSTION) for r in tour.new_stage().riders[:2]] == [1, 2]
    session = tours.stage_session(tour, {0: "easy"})
    while not session.over:
        session.play_bots()
    second = tours.next_session(session)
    assert [r.deck.count(EXHAUSTION) for r in second.game.riders[:2]] == list(second.setup.carried[:2])


@pytest.mark.parametrize("n", [2, 3, 4])
def test_a_random_grid_takes_the_front_most_places(n):
    for seed in range(30):
        game = new_game(make_setup(RaceSpec(teams=teams(n))), seed)
        taken = {tuple(p) for p in game.pos}
        places = [(sq, lane) for sq in range(game.course.grid - 1, -1, -1) for lane in range(game.course.lanes[sq])]
        assert taken == set(places[: 2 * n]), (seed, sorted(taken))


def test_a_race_saved_before_the_ruling_replays_its_old_grid():
    # classic-round6.json: a random grid of flamme-tui 0.1.0, with an empty place ahead of a rider
    session = saves.load(DATA / "classic-round6.json")
    assert session.setup.rulings == 1
