"""The Peloton expansion's scripted teams: the Muscle team and the Peloton team.

Muscle: a Sprinteur deck with an extra 5 and a normal Rouleur deck; each
round each rider plays the top card of its deck, no choice.  Peloton: one
Rouleur deck with two Attack cards for both riders; each round its top card
moves both riders, an Attack card moves the front rider 2 and the rear 9.
They start at the front of the grid and take no exhaustion cards (a data
switch gives them exhaustion like any team: the Peloton's into its one deck).
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest

from flamme_tui import saves
from flamme_tui.bots import POLICIES
from flamme_tui.cli import main
from flamme_tui.engine.actions import Draw
from flamme_tui.engine.classic import (
    ATTACK,
    ENERGY,
    EXHAUSTION,
    MUSCLE,
    PELOTON,
    RuleError,
    card_text,
)
from flamme_tui.engine.track import LANES
from flamme_tui.engine.turns import turns
from flamme_tui.play.narrator import describe_round
from flamme_tui.play.races import RaceSpec, make_setup, new_game, play_out
from flamme_tui.play.session import Session

TEAMS = RaceSpec().teams


def race(scripted, seed=1, stage="avenue-corso-paseo", grid="random", n=None, **rules):
    n = n or len(scripted)
    setup = make_setup(RaceSpec(stage=stage, teams=TEAMS[:n], scripted=tuple(scripted), grid=grid))
    return new_game(dataclasses.replace(setup, **rules), seed)


def move_to(game, places: dict[int, tuple[int, int]]) -> None:
    """Put riders where a test wants them (every other rider stays)."""
    for i in places:
        sq, lane = game.pos[i]
        game.cells[LANES * sq + lane] = -1
    for i, (sq, lane) in places.items():
        game.place(i, sq, lane)


def play_round(game) -> None:
    """The players' seats play their round with the easy bot."""
    for seat in turns(game):
        game.apply(POLICIES["easy"](game.view(seat)))


def test_muscle_decks_have_an_extra_five():
    game = race([MUSCLE, ""])
    s, r = (game.riders[i] for i in game.seats[0])
    sprinteur = Counter(s.deck + [s.played])
    assert sprinteur == Counter(game.setup.decks["S"]) + Counter([5])
    assert Counter(r.deck + [r.played]) == Counter(game.setup.decks["R"])
    assert sprinteur[5] == 4 and sum(sprinteur.values()) == 16


def test_muscle_plays_its_top_cards_without_choosing():
    game = race([MUSCLE, ""], seed=4)
    a, b = game.seats[0]
    for _ in range(6):
        assert game.phase == ENERGY and not game.needs(0) and game.legal_actions(0) == []
        tops = [game.riders[i].deck[-1] if game.riders[i].deck else None for i in (a, b)]
        played = [game.riders[i].played for i in (a, b)]
        play_round(game)
        assert [game.riders[i].history[-1] for i in (a, b)] == played
        if game.phase == ENERGY:
            # the next cards are the ones that were on top of each deck
            assert [game.riders[i].played for i in (a, b)] == tops
            assert not game.riders[a].hand and not game.riders[b].hand


def test_peloton_races_two_riders_on_one_deck():
    game = race([PELOTON, ""])
    s, r = (game.riders[i] for i in game.seats[0])
    assert r.deck is s.deck and r.recycled is s.recycled
    cards = Counter(s.deck + [s.played])
    assert cards == Counter(game.setup.decks["R"]) + Counter([ATTACK, ATTACK])
    for _ in range(5):
        assert s.played == r.played
        card = s.played
        play_round(game)
        assert s.history[-1] == r.history[-1] == card
    # conserved: the deck, the recycled pile and one history hold every card once
    have = Counter(s.deck) + Counter(s.recycled) + Counter(s.history) + Counter([s.played])
    want = cards + Counter({EXHAUSTION: s.exhaustion + r.exhaustion})
    assert have == want


@pytest.mark.parametrize("front_is_sprinteur", [True, False])
def test_attack_moves_the_front_rider_2_and_the_rear_rider_9(front_is_sprinteur):
    game = race([PELOTON, ""], seed=2)
    s, r = game.seats[0]
    x, y = game.seats[1]
    front, rear = (s, r) if front_is_sprinteur else (r, s)
    move_to(game, {front: (20, 0), rear: (12, 0), x: (3, 0), y: (3, 1)})
    game.riders[s].played = game.riders[r].played = ATTACK
    play_round(game)
    moves = {e.rider: (e.start, e.square, e.value) for e in game.events if e.kind == "move"}
    assert moves[front] == (20, 22, 2)
    assert moves[rear] == (12, 21, 9)
    lines = describe_round(game, str)  # (engine squares)
    assert any("plays A (Attack, moves 9), 12 → 21" in line for line in lines)


def test_attack_obeys_the_terrain():
    # La Haut Montagne climbs: a 9 on the foot of a climb is cut to 5
    game = race([PELOTON, ""], seed=2, stage="la-haut-montagne")
    terrain = game.course.terrain
    climb = terrain.index("^")
    s, r = game.seats[0]
    x, y = game.seats[1]
    move_to(game, {s: (climb - 1, 0), r: (climb - 3, 0), x: (1, 0), y: (1, 1)})
    game.riders[s].played = game.riders[r].played = ATTACK
    play_round(game)
    moves = {e.rider: e.moves for e in game.events if e.kind == "move"}
    assert moves[s] == 2
    assert moves[r] == max(5, terrain[climb - 3 + 1: climb - 3 + 10].index("^"))


def breakaway_round(game) -> list[int]:
    """Every rider alone on its square, so each one ends the round at the
    front of a pack: the riders that took an exhaustion card."""
    for seat, riders in enumerate(game.seats):
        for k, i in enumerate(riders):
            move_to(game, {i: (60 - 12 * seat - 6 * k, 0)})
    play_round(game)
    return sorted(e.rider for e in game.events if e.kind == "exhaust")


def test_scripted_teams_take_no_exhaustion():
    game = race([PELOTON, "", MUSCLE], seed=5)
    tired = breakaway_round(game)
    assert tired == game.seats[1]  # only the player's riders
    for seat in (0, 2):
        for i in game.seats[seat]:
            assert game.riders[i].exhaustion == 0 and EXHAUSTION not in game.riders[i].recycled


def test_with_exhaustion_switched_on_the_peloton_takes_it_into_its_one_deck():
    game = race([PELOTON, ""], seed=5, scripted_exhaustion=True)
    s, r = game.seats[0]
    before = Counter(game.riders[s].recycled)
    assert breakaway_round(game) == [0, 1, 2, 3]
    assert Counter(game.riders[s].recycled) - before == Counter({EXHAUSTION: 2})
    assert game.riders[r].exhaustion == game.riders[s].exhaustion == 1
    # a copy keeps the two riders on one deck
    twin = game.clone()
    assert twin.riders[r].deck is twin.riders[s].deck and twin.riders[r].deck is not game.riders[s].deck


def test_scripted_riders_refuse_actions():
    game = race([MUSCLE, ""])
    rid = game.riders[game.seats[0][0]].id
    with pytest.raises(RuleError):
        game.apply(Draw(rid))
    assert game.legal_actions(0) == [] and game.to_move() == [1]


@pytest.mark.parametrize("grid", ["random", "choose"])
def test_scripted_teams_start_at_the_front(grid):
    game = race(["", MUSCLE, PELOTON, ""], grid=grid, seed=6)
    g = game.course.grid
    # the Peloton first, then the Muscle team (PELOTON.md, Grid): each front rider (the
    # Sprinteur) in the lowest free lane of the front square, its Rouleur on the square behind
    places = [tuple(game.pos[i]) for seat in (2, 1) for i in game.seats[seat]]
    assert places == [(g - 1, 0), (g - 2, 0), (g - 1, 1), (g - 2, 1)]
    if grid == "choose":
        assert game.phase == "grid" and game.to_move() == [0]
        while game.phase == "grid":
            seat = game.to_move()[0]
            game.apply(POLICIES["easy"](game.view(seat)))
    assert game.phase == ENERGY and game.riders[game.seats[1][0]].played is not None
    assert all(p[0] < g for p in game.pos[:2] + game.pos[6:]) and len({tuple(p) for p in game.pos}) == 8


def test_scripted_teams_need_a_player_and_one_peloton_at_most():
    with pytest.raises(ValueError, match="at least one other team"):
        race([MUSCLE, PELOTON])
    with pytest.raises(ValueError, match="at most one Peloton"):
        race([PELOTON, "", PELOTON])
    # any number of Muscle teams
    assert race([MUSCLE, "", MUSCLE, MUSCLE]).script.count(MUSCLE) == 3


def test_other_seats_cannot_see_a_scripted_card():
    """The face-down card a scripted team turned up is hidden until the reveal;
    changing it (and its deck order) changes no view and no bot's choice."""
    game = race([PELOTON, "", MUSCLE], seed=9, stage="la-classicissima")
    for _ in range(3):
        play_round(game)
    view = game.view(1)
    choices = {name: POLICIES[name](view) for name in ("easy", "medium")}
    rnd = random.Random(3)
    for _ in range(4):
        twin = game.clone()
        for seat in (0, 2):
            riders = [twin.riders[i] for i in twin.seats[seat]]
            pool = riders[0].deck + [riders[0].played]
            rnd.shuffle(pool)
            riders[0].played = pool.pop()
            riders[0].deck[:] = pool
            if seat == 0:
                riders[1].played = riders[0].played
            else:
                pool = riders[1].deck + [riders[1].played]
                rnd.shuffle(pool)
                riders[1].played = pool.pop()
                riders[1].deck[:] = pool
        twin.public_cache = None
        assert twin.view(1) == view
        for name, choice in choices.items():
            assert POLICIES[name](twin.view(1)) == choice


def test_unseen_cards_of_scripted_riders_match_the_game():
    game = race([PELOTON, "", MUSCLE], seed=12)
    for _ in range(4):
        play_round(game)
    view = game.view(1)
    for seat in (0, 2):
        for i in game.seats[seat]:
            r = game.riders[i]
            if seat == 0 and r.kind == "R":
                assert view.unseen(i) == ()  # counted with its Sprinteur
                continue
            shown = Counter(view.riders[i].recycled)
            hidden = Counter(r.deck) + Counter(r.recycled) + Counter([r.played]) - shown
            assert Counter(view.unseen(i)) == hidden


def test_hard_bot_plays_against_scripted_teams():
    game = race(["", PELOTON, MUSCLE], seed=3, stage="le-col-du-ballon")
    play_out(game, {0: POLICIES["hard"]})
    assert game.phase == "over" and game.winner is not None


def test_a_race_with_scripted_teams_saves_and_resumes(tmp_path):
    spec = RaceSpec(teams=TEAMS[:3], scripted=("", PELOTON, MUSCLE))
    session = Session.new(spec, 8, bots={0: "easy"})
    for _ in range(3):
        session.play_bots()
    path = tmp_path / "race.json"
    saves.save(session, path)
    back = saves.load(path)
    assert back.setup == session.setup
    assert saves.state_digest(back.game) == saves.state_digest(session.game)
    while not back.over:
        back.play_bots()
    play_out(session.game, {0: POLICIES["easy"]})
    assert saves.state_digest(back.game) == saves.state_digest(session.game)


def test_card_text_of_an_attack():
    assert card_text(ATTACK) == "A" and card_text(EXHAUSTION) == "E" and card_text(7) == "7"


def test_cli_race_with_scripted_teams_is_repeatable(capsys):
    args = ["race", "--bots", "peloton,easy,muscle,medium", "--seed", "5", "--stage", "la-haut-montagne"]
    assert main(args) == 0
    first = capsys.readouterr().out
    assert main(args) == 0
    assert capsys.readouterr().out == first
    assert "Red (Peloton)" in first and "Green (Muscle)" in first and "Final ranking" in first  # the box names
    assert "(Attack, moves" in first


@pytest.mark.parametrize("args", [
    ["race", "--bots", "peloton,muscle", "--teams", "2"],
    ["race", "--bots", "peloton,easy,peloton", "--teams", "3"],
    ["race", "--bots", "easy,gruppetto", "--teams", "2"],
    ["tournament", "peloton", "muscle"],
])
def test_cli_refuses_bad_seats(args, capsys):
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_tournament_against_scripted_teams(capsys):
    assert main(["tournament", "medium", "peloton", "muscle", "-n", "6", "-j", "1"]) == 0
    out = capsys.readouterr().out
    assert "| Peloton |" in out and "| Muscle |" in out  # the scripted teams by their box names
