"""Classic rules, one rule at a time, on small positions.

Positions are built with ClassicGame.from_position and resolved by the real
engine methods (apply, draw_hand, move_phase, end_phase, effective_move).
Square 0 is the rearmost square; lane 0 is the right-hand lane.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from flamme_tui import config
from flamme_tui.engine.actions import Action, ActionError, Draw, Place, Play, PlayTokens
from flamme_tui.engine.classic import (
    ENERGY,
    EXHAUSTION,
    GRID,
    OVER,
    ClassicGame,
    ClassicSetup,
    RuleError,
    Team,
    distinct,
    effective_move,
)
from flamme_tui.engine.course import Course
from flamme_tui.engine.race import Placed
from flamme_tui.engine.track import LANES
from flamme_tui.play.races import RaceSpec, make_setup, new_game

SPRINTEUR_DECK = Counter([2, 3, 4, 5, 9] * 3)
ROULEUR_DECK = Counter([3, 4, 5, 6, 7] * 3)


# --------------------------------------------------------------------- helpers


def course(squares: str, finish: int | None = None, grid: int = 0, **kw) -> Course:
    return Course.build("test", squares, len(squares) if finish is None else finish, grid, **kw)


def position(squares: str, riders, finish: int | None = None, seed: int = 0, cls=ClassicGame, **kw):
    """riders: (id, square, lane[, crashed]) tuples."""
    specs = [Placed(r[0], r[1], r[2], bool(r[3]) if len(r) > 3 else False) for r in riders]
    return cls.from_position(course(squares, finish, **kw), specs, seed=seed)


def rider(game, rid):
    return game.riders[game.index[rid]]


def where(game, rid) -> tuple[int, int]:
    return tuple(game.pos[game.index[rid]])


def play_round(game, cards: dict[str, int]) -> None:
    """Resolve one round with the given cards (0 = exhaustion card), as the
    conformance runner does (Race.resolve)."""
    game.resolve(cards)


def moves_in_order(game) -> list[str]:
    return [game.riders[e.rider].id for e in game.events if e.kind == "move"]


def exhausted(game) -> list[str]:
    return sorted(game.riders[e.rider].id for e in game.events if e.kind == "exhaust")


def snapshot(game):
    """Everything an illegal action must leave untouched."""
    return (
        game.phase,
        game.round,
        [p.copy() for p in game.pos],
        game.cells.copy(),
        [(r.deck.copy(), r.recycled, r.hand, r.played, r.history.copy(), r.exhaustion,
          r.supply_played) for r in game.riders],
        dict(game.first_drawn),
        list(game.actions),
        game.rng.state(),
        game.waiting,
    )


# ---------------------------------------------------------------- energy phase


def test_draw_four_keep_one_rest_face_up_to_recycled():
    game = position("." * 20, [("red.S", 0, 0), ("red.R", 1, 0)])
    s = rider(game, "red.S")
    s.deck = [9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 5, 4, 3, 2]  # top is the end of the list
    game.apply("draw red.S")
    assert sorted(s.hand) == [2, 3, 4, 5]
    assert len(s.deck) == 11 and s.recycled == ()
    assert game.legal_actions(0) == [Play("red.S", c) for c in (2, 3, 4, 5)]
    game.apply("play red.S 4")
    assert s.played == 4
    assert s.hand == ()
    assert sorted(s.recycled) == [2, 3, 5]
    assert len(s.deck) == 11
    # only now does the other rider draw
    assert len(rider(game, "red.R").hand) == 4


def test_played_card_leaves_the_game():
    game = position("." * 20, [("red.S", 0, 0), ("blue.S", 5, 0)])
    s = rider(game, "red.S")
    s.deck = [9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 3]
    game.apply("draw red.S")
    game.apply("play red.S 3")
    game.apply("draw blue.S")
    game.apply(game.legal_actions(1)[0])
    assert game.round == 2 and s.history == [3]
    everywhere = Counter(s.deck) + Counter(s.recycled) + Counter(s.hand)
    assert 3 not in everywhere
    assert everywhere[9] == 14 and everywhere[EXHAUSTION] == 1  # it led alone: tired


def test_reshuffle_when_the_deck_runs_out_mid_draw():
    game = position("." * 20, [("red.S", 0, 0)])
    s = rider(game, "red.S")
    s.deck = [5, 9]  # 9 on top
    s.recycled = (2, 2, 3, 3, 4)
    game.draw_hand(0)
    assert s.hand[:2] == (9, 5)  # the old deck first, then the reshuffled recycled cards
    assert len(s.hand) == 4
    assert s.recycled == ()
    assert len(s.deck) == 3
    assert Counter(s.hand[2:]) + Counter(s.deck) == Counter([2, 2, 3, 3, 4])


def test_reshuffle_is_seeded():
    hands = set()
    for seed in range(12):
        game = position("." * 20, [("red.S", 0, 0)], seed=seed)
        s = rider(game, "red.S")
        s.deck = [5]
        s.recycled = (2, 3, 4, 9, 9, 2, 3)
        game.draw_hand(0)
        again = position("." * 20, [("red.S", 0, 0)], seed=seed)
        t = rider(again, "red.S")
        t.deck, t.recycled = [5], (2, 3, 4, 9, 9, 2, 3)
        again.draw_hand(0)
        assert t.hand == s.hand and t.deck == s.deck
        hands.add(tuple(s.hand))
    assert len(hands) > 1  # the recycled cards are really shuffled


def test_no_reshuffle_when_the_deck_is_exactly_used_up():
    game = position("." * 20, [("red.S", 0, 0)])
    s = rider(game, "red.S")
    s.deck = [2, 3, 4, 5]
    s.recycled = (9, 9, 9)
    game.draw_hand(0)
    assert sorted(s.hand) == [2, 3, 4, 5]
    assert s.deck == [] and s.recycled == (9, 9, 9)


def test_no_reshuffle_while_the_deck_has_cards():
    game = position("." * 20, [("red.S", 0, 0)])
    s = rider(game, "red.S")
    s.deck = [2, 2, 3, 4, 5]
    s.recycled = (9,)
    game.draw_hand(0)
    assert s.hand == (5, 4, 3, 2) and s.deck == [2] and s.recycled == (9,)


def test_fewer_than_four_cards_in_all_draws_them_all():
    game = position("." * 20, [("red.S", 0, 0)])
    s = rider(game, "red.S")
    s.deck = [9]
    s.recycled = (EXHAUSTION,)
    game.draw_hand(0)
    assert sorted(s.hand) == [EXHAUSTION, 9]
    assert s.deck == [] and s.recycled == () and s.supply_played == 0


def test_no_cards_at_all_plays_an_exhaustion_card_from_the_supply():
    game = position("." * 20, [("red.S", 0, 0), ("blue.R", 9, 0)])
    s = rider(game, "red.S")
    s.deck, s.recycled = [], ()
    game.apply("draw red.S")
    assert s.hand == (EXHAUSTION,) and s.supply_played == 1
    assert game.legal_actions(0) == [Play("red.S", EXHAUSTION)]
    game.apply("play red.S E")
    game.apply("draw blue.R")
    b = rider(game, "blue.R")
    b.hand = (3,)  # a known card for the other rider
    game.apply("play blue.R 3")
    assert s.history == [EXHAUSTION]
    assert where(game, "red.S") == (2, 0)  # an exhaustion card moves 2
    assert s.deck == [] and s.recycled == (EXHAUSTION,)  # it led its group alone: tired again


def test_exhaustion_received_goes_to_recycled():
    game = position("." * 20, [("red.S", 0, 0), ("blue.R", 5, 0)])
    deck_before = list(rider(game, "blue.R").deck)
    play_round(game, {"red.S": 2, "blue.R": 3})
    b = rider(game, "blue.R")
    assert b.recycled == (EXHAUSTION,) and b.exhaustion == 1
    assert b.deck == deck_before  # not shuffled in, not on top of the deck


def test_handicap_adds_exhaustion_cards_to_the_decks():
    base = make_setup(RaceSpec(teams=(Team("Red", "red"), Team("Blue", "blue"))))
    setup = ClassicSetup(course=base.course, teams=base.teams, decks=base.decks, handicap=(3, 0))
    game = ClassicGame(setup, 5)
    for r in game.riders:
        want = SPRINTEUR_DECK.copy() if r.kind == "S" else ROULEUR_DECK.copy()
        if r.seat == 0:
            want[EXHAUSTION] += 3
        assert Counter(r.deck) == want


# ------------------------------------------------------------------ draw order


def test_seat_chooses_which_rider_draws_first():
    game = position("." * 20, [("red.S", 0, 0), ("red.R", 1, 0), ("blue.S", 4, 0)])
    assert game.legal_actions(0) == [Draw("red.S"), Draw("red.R")]
    game.apply("draw red.R")
    assert game.first_drawn == {0: game.index["red.R"]}
    assert rider(game, "red.S").hand == ()
    # only the rouleur's cards may be played, and the sprinteur may not draw yet
    assert all(a.rider == "red.R" and isinstance(a, Play) for a in game.legal_actions(0))
    card = rider(game, "red.R").hand[0]
    game.apply(Play("red.R", card))
    assert rider(game, "red.R").played == card
    assert len(rider(game, "red.S").hand) == 4
    assert all(a.rider == "red.S" for a in game.legal_actions(0))
    game.apply(game.legal_actions(0)[0])
    assert game.legal_actions(0) == []
    assert not game.needs(0) and game.needs(1)


@pytest.mark.parametrize(
    "action",
    [
        "draw red.S",  # the seat already drew for its rouleur
        "play red.S 4",  # the sprinteur holds no cards
        "place red.S 0 1",  # not the grid phase
        "play green.S 3",  # no such rider
        "play red.R 8",  # a card it did not draw
    ],
)
def test_illegal_actions_raise_and_change_nothing(action):
    game = position("." * 20, [("red.S", 0, 0), ("red.R", 1, 0), ("blue.S", 4, 0)])
    rider(game, "red.R").deck = [3] * 11 + [7, 6, 5, 4]
    game.apply("draw red.R")
    before = snapshot(game)
    with pytest.raises(RuleError):
        game.apply(action)
    assert snapshot(game) == before


def test_play_before_drawing_is_illegal():
    game = position("." * 20, [("red.S", 0, 0), ("red.R", 1, 0)])
    before = snapshot(game)
    with pytest.raises(RuleError):
        game.apply(Play("red.S", rider(game, "red.S").deck[-1]))
    assert snapshot(game) == before


def test_every_legal_action_is_accepted_and_no_other_play_is():
    game = position("." * 20, [("red.S", 0, 0), ("red.R", 1, 0)])
    game.apply("draw red.S")
    legal = set(game.legal_actions(0))
    for card in range(0, 10):
        action = Play("red.S", card)
        twin = game.clone()
        if action in legal:
            twin.apply(action)
        else:
            with pytest.raises(RuleError):
                twin.apply(action)


def test_round_resolves_when_the_last_card_is_chosen():
    game = position("." * 20, [("red.S", 0, 0), ("red.R", 1, 0), ("blue.S", 4, 0), ("blue.R", 4, 1)])
    for seat in (0, 1):
        while game.needs(seat) and game.round == 1:
            game.apply(game.legal_actions(seat)[0])
    assert game.round == 2
    assert all(len(r.history) == 1 and r.played is None for r in game.riders)
    assert game.first_drawn == {}
    assert game.legal_actions(0) == [Draw("red.S"), Draw("red.R")]


@pytest.mark.parametrize(
    "text",
    ["place red.S 3 1", "draw red.S", "play red.S 5", "play blue.R E", "play green 3", "play green 5 F",
     "play black F", "play black F F"],
)
def test_action_text_round_trip(text):
    action = Action.parse(text)
    assert str(action) == text
    assert Action.parse(str(action)) == action


def test_action_kinds_from_text():
    assert Action.parse("play red.R E") == Play("red.R", EXHAUSTION)
    assert Action.parse("play green 5 F") == PlayTokens("green", (5, 0))
    assert Action.parse("place red.S 3 1") == Place("red.S", 3, 1)


@pytest.mark.parametrize("text", ["", "jump red.S", "play red.S 10", "play red.S x", "place red.S a 0",
                                  "draw", "play green 1 2 3"])
def test_bad_action_text(text):
    with pytest.raises(ActionError):
        Action.parse(text)


# ------------------------------------------------------------------------ grid


def _setup(n_teams=4, stage="avenue-corso-paseo", **kw):
    teams = tuple(Team(c.capitalize(), c) for c in ("red", "blue", "green", "black")[:n_teams])
    return make_setup(RaceSpec(stage=stage, teams=teams, **kw))


@pytest.mark.parametrize("stage, places", [("avenue-corso-paseo", 10), ("la-classicissima", 8)])
def test_random_grid_fills_places_behind_the_line(stage, places):
    setup = _setup(4, stage)
    seen = set()
    for seed in range(10):
        game = new_game(setup, seed)
        assert game.phase == ENERGY
        spots = [tuple(p) for p in game.pos]
        assert len(set(spots)) == 8
        assert all(0 <= sq < setup.course.grid and lane in (0, 1) for sq, lane in spots)
        for i, (sq, lane) in enumerate(spots):
            assert game.cells[LANES * sq + lane] == i
        assert spots == [tuple(p) for p in new_game(setup, seed).pos]  # seeded
        seen.add(tuple(spots))
    assert setup.course.grid * 2 == places
    assert len(seen) > 5  # really random


def test_chosen_grid_seats_in_turn_on_free_places_only():
    setup = _setup(3, grid="choose")
    game = new_game(setup, 1)
    assert game.phase == GRID
    assert all(p == [-1, -1] for p in game.pos)
    order = []
    while game.phase == GRID:
        (seat,) = game.to_move()
        order.append(seat)
        for other in range(3):
            if other != seat:
                assert game.legal_actions(other) == []
        legal = game.legal_actions(seat)
        places = [(a.square, a.lane) for a in legal]
        taken = {tuple(p) for p in game.pos if p[0] >= 0}
        assert set(places) == {(sq, ln) for sq in range(5) for ln in (0, 1)} - taken
        nxt = legal[0].rider
        # a taken place, a place past the line, another seat's rider: refused
        before = snapshot(game)
        for bad in ([Place(nxt, *t) for t in taken] + [Place(nxt, 5, 0)]
                    + [Place(r.id, *places[0]) for r in game.riders if r.id != nxt]
                    + [Draw(nxt)]):
            with pytest.raises(RuleError):
                game.apply(bad)
            assert snapshot(game) == before
        game.apply(legal[-1])  # the rearmost free place
    assert order == [0, 0, 1, 1, 2, 2]
    assert game.phase == ENERGY and game.round == 1
    assert sorted(tuple(p) for p in game.pos) == [(sq, ln) for sq in range(3) for ln in (0, 1)]


# -------------------------------------------------------------------- movement


def test_order_highest_square_first_lane_0_before_lane_1():
    game = position("." * 30, [("red.S", 2, 1), ("blue.S", 2, 0), ("red.R", 7, 1), ("blue.R", 1, 0)])
    play_round(game, {"red.S": 3, "blue.S": 3, "red.R": 3, "blue.R": 3})
    assert moves_in_order(game) == ["red.R", "blue.S", "red.S", "blue.R"]


def test_move_exact_value_through_riders_lane_0_then_lane_1():
    game = position("." * 30, [("a.S", 5, 0), ("a.R", 5, 1), ("b.S", 6, 0), ("b.R", 3, 0)])
    play_round(game, {"a.S": 4, "a.R": 4, "b.S": 3, "b.R": 6})
    # b.S moves first to 9 (lane 0), a.S to 9 lane 1, a.R finds 9 full: 8 lane 0,
    # b.R passes through 5..8 and finds 9 full: 8 lane 1
    assert moves_in_order(game) == ["b.S", "a.S", "a.R", "b.R"]
    assert where(game, "b.S") == (9, 0)
    assert where(game, "a.S") == (9, 1)
    assert where(game, "a.R") == (8, 0)
    assert where(game, "b.R") == (8, 1)


def test_blocked_rider_takes_nearest_free_lane_behind():
    game = position("." * 30, [("a.S", 10, 0), ("a.R", 10, 1), ("b.S", 9, 0), ("b.R", 9, 1), ("c.S", 4, 0)])
    play_round(game, {"a.S": 2, "a.R": 2, "b.S": 3, "b.R": 3, "c.S": 8})
    assert where(game, "a.S") == (12, 0) and where(game, "a.R") == (12, 1)
    assert where(game, "b.S") == (11, 0) and where(game, "b.R") == (11, 1)
    assert where(game, "c.S") == (10, 0)  # aimed at 12: 12 and 11 full
    move = [e for e in game.events if e.kind == "move" and e.rider == game.index["c.S"]][0]
    assert (move.start, move.square, move.lane) == (4, 10, 0) and move.moves == 8


def test_blocked_back_to_its_own_square_takes_lane_0():
    # RULES "Fine points": a rider falling back to its own square takes lane 0 if free
    game = position("." * 30, [("a.S", 6, 0), ("a.R", 6, 1), ("b.S", 7, 0), ("b.R", 7, 1), ("c.S", 5, 1)])
    game.move_rider(game.index["c.S"], 2)
    assert where(game, "c.S") == (5, 0)
    assert game.cells[LANES * 5] == game.index["c.S"] and game.cells[LANES * 5 + 1] == -1
    # lane 0 of its square taken: it stays in lane 1
    game = position("." * 30, [("a.S", 6, 0), ("a.R", 6, 1), ("b.S", 7, 0), ("b.R", 7, 1), ("c.S", 5, 1),
                               ("d.S", 5, 0)])
    game.move_rider(game.index["c.S"], 2)
    assert where(game, "c.S") == (5, 1)


def test_lane_kept_by_a_lone_rider_in_lane_1_in_slipstream():
    game = position("." * 30, [("a.S", 4, 1), ("b.S", 6, 0)])
    game.end_phase()
    assert where(game, "a.S") == (5, 1)  # keeps its lane where it can


# ---------------------------------------------------------------- ascent limit


@pytest.mark.parametrize(
    "terrain, start, value, moves",
    [
        ("^^^^^^^^^^^^^^^^^^^^", 2, 9, 5),  # starting on a climb: at most 5
        ("^^^^^^^^^^^^^^^^^^^^", 2, 4, 4),
        ("...^^^^^^^^^^^^^^^^^", 0, 9, 5),  # climb 3 squares ahead (d <= 5): at most 5
        ("....." + "^" * 15, 0, 9, 5),  # d = 5
        ("......" + "^" * 14, 0, 9, 5),  # d = 6: foot of the climb is 5
        ("........" + "^" * 12, 0, 9, 7),  # d = 8: stops at the foot, 7
        ("........" + "^" * 12, 0, 7, 7),  # just reaches the foot
        ("........" + "^" * 12, 0, 6, 6),  # climb out of reach: no limit
        ("...^" + "." * 16, 0, 2, 2),  # climb not reached
        ("vvv" + "." * 17, 0, 2, 5),  # descent: at least 5
        ("vvv" + "." * 17, 1, 9, 9),
        ("vv^" + "^" * 17, 0, 2, 5),  # descent minimum, then the cap (d = 2 -> 5)
        ("vvvvv..." + "^" * 12, 0, 9, 7),  # descent, climb at d = 8 -> foot at 7
        ("ss" + "." * 18, 0, 2, 4),  # supply zone: at least 4
        ("ss" + "." * 18, 0, 3, 4),
        ("ss" + "." * 18, 0, 5, 5),
        ("s^" + "^" * 18, 0, 2, 4),  # supply minimum 4, climb at d = 1: at most 5
        ("^v" + "." * 18, 0, 2, 2),  # the terrain under the rider counts, not the next square
        ("..v" + "." * 17, 0, 2, 2),
    ],
)
def test_effective_move(terrain, start, value, moves):
    assert effective_move(course(terrain), start, value) == moves


def reference_move(terrain: str, start: int, value: int, penalty: int = 0) -> int:
    """RULES.md 'Movement', written out plainly."""
    here = terrain[start]
    if here == "v":
        value = max(value, 5)
    elif here == "s":
        value = max(value, 4)
    value = max(0, value - penalty)
    if here == "^":
        return min(value, 5)
    for d in range(1, value + 1):
        if terrain[start + d] == "^":
            return min(value, max(5, d - 1))
    return value


@settings(max_examples=300, deadline=None)
@given(
    terrain=st.text(alphabet=".^vs", min_size=12, max_size=40),
    data=st.data(),
    value=st.integers(0, 20),
    penalty=st.sampled_from([0, 0, 2]),
)
def test_effective_move_matches_the_written_rule(terrain, data, value, penalty):
    c = course(terrain)
    start = data.draw(st.integers(0, len(terrain) - 1))
    full = c.terrain  # padded with flat squares
    assert effective_move(c, start, value, penalty) == reference_move(full, start, value, penalty)


def test_blocked_at_the_foot_of_the_climb_takes_the_free_lane_behind():
    # climb at 7: from 0 a 9 stops at the foot, 6
    game = position("......." + "^" * 13, [("b.S", 0, 0)], finish=19)
    game.move_rider(0, 9)
    assert where(game, "b.S") == (6, 0)
    # the foot is full: the nearest free lane behind
    game = position("......." + "^" * 13, [("a.S", 6, 0), ("a.R", 6, 1), ("b.S", 0, 0)], finish=19)
    game.move_rider(game.index["b.S"], 9)
    assert where(game, "b.S") == (5, 0)
    # climb at 6: d = 6, at most 5; riders ahead on the climb are not in the way
    game = position("......" + "^" * 14, [("a.S", 4, 0), ("a.R", 4, 1), ("b.S", 0, 0)], finish=19)
    play_round(game, {"a.S": 3, "a.R": 3, "b.S": 9})
    assert where(game, "a.S") == (7, 0) and where(game, "a.R") == (7, 1)
    assert where(game, "b.S") == (5, 0)


# ------------------------------------------------------------------ slipstream


def test_one_square_gap_gives_slipstream_two_squares_do_not():
    game = position("." * 30, [("a.S", 3, 0), ("b.S", 5, 0)])
    game.end_phase()
    assert where(game, "a.S") == (4, 0)
    assert exhausted(game) == ["b.S"]
    game = position("." * 30, [("a.S", 2, 0), ("b.S", 5, 0)])
    game.end_phase()
    assert where(game, "a.S") == (2, 0)
    assert exhausted(game) == ["a.S", "b.S"]


def test_slipstream_chains_forward():
    game = position("." * 30, [("a.S", 0, 0), ("b.S", 2, 0), ("c.S", 4, 0), ("d.S", 4, 1)])
    game.end_phase()
    assert where(game, "a.S") == (2, 0)
    assert where(game, "b.S") == (3, 0)
    assert where(game, "c.S") == (4, 0) and where(game, "d.S") == (4, 1)
    assert exhausted(game) == ["c.S", "d.S"]
    assert rider(game, "a.S").slipstream == 2


def test_whole_pack_moves_front_square_first_keeping_lanes():
    game = position("." * 30, [("a.S", 3, 0), ("a.R", 3, 1), ("b.S", 4, 0), ("b.R", 4, 1), ("c.S", 6, 1)])
    game.end_phase()
    assert [where(game, r) for r in ("a.S", "a.R", "b.S", "b.R", "c.S")] == [
        (4, 0), (4, 1), (5, 0), (5, 1), (6, 1)]
    slips = [(game.riders[e.rider].id, e.start, e.square) for e in game.events if e.kind == "slip"]
    assert slips == [("b.S", 4, 5), ("b.R", 4, 5), ("a.S", 3, 4), ("a.R", 3, 4)]


@pytest.mark.parametrize(
    "terrain, riders, after",
    [
        # the front square of the gap is an ascent: no slipstream
        ("......^^^^^^", [("a.S", 3, 0), ("b.S", 5, 0)], [4, 5]),  # flat on both sides
        ("....." + "^" * 7, [("a.S", 3, 0), ("b.S", 5, 0)], [3, 5]),
        # the rear square of the gap is an ascent: no slipstream
        ("...^........", [("a.S", 3, 0), ("b.S", 5, 0)], [3, 5]),
        # a pack cresting a climb splits: the rider on the ascent stays
        ("...^........", [("a.S", 3, 0), ("c.S", 4, 0), ("b.S", 6, 0)], [3, 5, 6]),
        # the gap square itself may be an ascent
        ("....^.......", [("a.S", 3, 0), ("b.S", 5, 0)], [4, 5]),
    ],
)
def test_slipstream_and_climbs(terrain, riders, after):
    game = position(terrain + "." * 10, riders)
    game.end_phase()
    assert [game.pos[i][0] for i in range(len(riders))] == after


def test_split_pack_does_not_chain_from_behind_the_climb():
    game = position("..^" + "." * 20, [("a.S", 1, 0), ("b.S", 2, 0), ("c.S", 3, 0), ("d.S", 5, 0)])
    game.end_phase()
    # c.S slips to 4; b.S on the ascent stays and stops the pack; a.S stays too
    assert [game.pos[i][0] for i in range(4)] == [1, 2, 4, 5]


# ------------------------------------------------------------------ exhaustion


def test_exhaustion_only_with_an_empty_square_ahead():
    game = position("." * 30, [("a.S", 3, 0), ("b.S", 4, 1), ("c.S", 8, 0), ("d.S", 8, 1)])
    game.end_phase()
    # a.S has b.S (lane 1) ahead: an empty lane ahead is not enough
    assert exhausted(game) == ["b.S", "c.S", "d.S"]
    assert rider(game, "c.S").exhaustion == 1 and rider(game, "c.S").recycled == (EXHAUSTION,)


def test_exhaustion_counted_after_slipstream():
    game = position("." * 30, [("a.S", 3, 0), ("b.S", 5, 0)])
    play_round(game, {"a.S": 3, "b.S": 3})
    assert where(game, "a.S") == (7, 0) and where(game, "b.S") == (8, 0)
    assert exhausted(game) == ["b.S"]


# ------------------------------------------------------------------ end of race


def test_finish_furthest_wins_not_first_to_cross():
    game = position("." * 30, [("a.S", 12, 0), ("b.S", 11, 0), ("c.S", 0, 0)], finish=18)
    play_round(game, {"a.S": 7, "b.S": 9, "c.S": 2})
    assert moves_in_order(game) == ["a.S", "b.S", "c.S"]
    assert game.phase == OVER
    assert game.riders[game.winner].id == "b.S"
    assert [game.riders[i].id for i in game.ranking()] == ["b.S", "a.S", "c.S"]
    # the round stops there: no slipstream, no exhaustion
    assert not [e for e in game.events if e.kind in ("slip", "exhaust")]
    assert where(game, "c.S") == (2, 0)


def test_finish_tie_on_one_square_lane_0_wins():
    game = position("." * 30, [("a.S", 12, 0), ("b.S", 11, 0)], finish=18)
    play_round(game, {"a.S": 9, "b.S": 9})
    assert where(game, "a.S") == (21, 0) and where(game, "b.S") == (20, 0)
    game = position("." * 30, [("a.S", 12, 0), ("b.S", 11, 0)], finish=18)
    play_round(game, {"a.S": 9, "b.S": 2 + 8})
    assert where(game, "b.S") == (21, 1)
    assert game.riders[game.winner].id == "a.S"


def test_reaching_the_finish_square_exactly_ends_the_race():
    game = position("." * 30, [("a.S", 12, 0), ("b.S", 3, 0)], finish=18)
    play_round(game, {"a.S": 5, "b.S": 2})
    assert where(game, "a.S") == (17, 0)
    assert game.phase == ENERGY and game.winner is None
    game = position("." * 30, [("a.S", 13, 0), ("b.S", 3, 0)], finish=18)
    play_round(game, {"a.S": 5, "b.S": 2})
    assert where(game, "a.S") == (18, 0) and game.phase == OVER


def test_riders_past_the_last_tile_are_never_lost():
    game = position("." * 10, [("a.S", 8, 0), ("b.S", 7, 0)], finish=9)
    play_round(game, {"a.S": 9, "b.S": 9})
    assert where(game, "a.S") == (17, 0) and where(game, "b.S") == (16, 0)
    assert game.riders[game.winner].id == "a.S"


def test_full_round_through_apply_resolves_and_counts_rounds():
    game = position("." * 40, [("red.S", 0, 0), ("red.R", 0, 1), ("blue.S", 1, 0), ("blue.R", 1, 1)], finish=35)
    for r in game.riders:
        r.deck = [EXHAUSTION] * 11 + [5, 5, 5, 5] if r.kind == "S" else [3] * 11 + [6, 6, 6, 6]
    for seat in (0, 1):
        game.apply(f"draw {game.riders[game.seats[seat][0]].id}")
        while game.legal_actions(seat):
            game.apply(game.legal_actions(seat)[-1])
    assert game.round == 2
    assert [tuple(p) for p in game.pos] == [(5, 0), (6, 1), (6, 0), (7, 0)]
    assert {r.id: r.history for r in game.riders} == {"red.S": [5], "red.R": [6], "blue.S": [5], "blue.R": [6]}


def test_stage_data_feeds_the_engine():
    """The real start tile: 5 squares behind the line, the finish after tile u's first square."""
    setup = _setup(2)
    assert setup.course.grid == 5 and setup.course.finish == 73
    assert dict(Counter(setup.decks["S"])) == dict(SPRINTEUR_DECK)
    assert dict(Counter(setup.decks["R"])) == dict(ROULEUR_DECK)
    assert setup.hand_size == 4
    assert config.stage_ids()[0] == "avenue-corso-paseo"


def test_exhaustion_value_comes_from_the_config():
    rules = config.load_classic_rules().model_copy(update={"exhaustion_value": 3})
    teams = tuple(Team(c.capitalize(), c) for c in ("red", "blue"))
    game = new_game(make_setup(RaceSpec(teams=teams), classic=rules), 1)
    i = game.index["red.S"]
    start = game.pos[i][0]
    events = game.resolve({r.id: EXHAUSTION if j == i else 9 for j, r in enumerate(game.riders)})
    move = [e for e in events if e.kind == "move" and e.rider == i][0]
    assert move.value == 3 and move.start == start


def _state(game) -> dict:
    """Every data attribute of a game (compiled games have no __dict__: dir() lists them)."""
    return {name: getattr(game, name) for name in dir(game)
            if not name.startswith("__") and not callable(getattr(game, name))}


@pytest.mark.parametrize("spec", [
    RaceSpec(), RaceSpec(variant="meteo"), RaceSpec(variant="bmx"), RaceSpec(scripted=("", "peloton", "muscle", "")),
], ids=["classic", "meteo", "bmx", "scripted"])
def test_a_copy_has_every_attribute_and_shares_no_pile(spec):
    from flamme_tui.bots import easy

    game = new_game(make_setup(spec), 3)
    for _ in range(9):  # mid-round: some hands drawn, some cards chosen
        seat = next(s for s in range(len(game.seats)) if game.needs(s))
        game.apply(easy(game.view(seat)))
    twin = game.clone()
    original, copied = _state(game), _state(twin)
    assert copied.keys() == original.keys()
    for name, value in original.items():
        if name == "rng":
            assert twin.rng.random() == game.rng.random()
        elif name == "riders":
            assert len(twin.riders) == len(game.riders)
            for a, b in zip(game.riders, twin.riders):
                mate = getattr(a, "pile_mate", None)  # classic: the Peloton rider sharing its piles, in its own game
                if mate is not None:
                    assert b.pile_mate is twin.riders[game.riders.index(mate)] and b.pile_mate.pile_mate is b
                assert a is not b and {**_state(a), "pile_mate": 0} == {**_state(b), "pile_mate": 0}
                for pile, held in _state(a).items():
                    if isinstance(held, list):
                        assert getattr(b, pile) is not held, f"{a.id}.{pile} is shared with the copy"
        else:
            assert copied[name] == value, name
            if isinstance(value, (list, dict)):
                assert copied[name] is not value, f"{name} is shared with the copy"


def test_a_position_with_a_lone_rider_plays_round_after_round():
    game = position("." * 40, [("red.S", 0, 0), ("blue.S", 1, 0), ("blue.R", 1, 1)])
    for _ in range(3):
        start = game.round
        for seat in (0, 1):
            while game.needs(seat) and game.round == start:
                game.apply(game.legal_actions(seat)[0])
        assert game.round == start + 1


@given(st.lists(st.integers(min_value=-2, max_value=9), max_size=8))
def test_a_riders_plays_are_its_distinct_cards_lowest_first(hand):
    assert distinct(tuple(hand)) == sorted(set(hand))
    game = new_game(make_setup(RaceSpec()), 1)
    seat = next(iter(game.to_move()))
    i = game.seats[seat][0]
    game.riders[i].hand = tuple(hand)
    if hand:
        assert [a.card for a in game.legal_actions(seat)] == sorted(set(hand))


@pytest.mark.parametrize("spec", [RaceSpec(), RaceSpec(variant="meteo"), RaceSpec(scripted=("", "peloton", "muscle", ""))],
                         ids=["classic", "meteo", "scripted"])
def test_a_view_stays_as_it_was_shown_while_the_race_goes_on(spec):
    """A view shares the riders' piles rather than copying them (recycled cards are
    tuples, replaced when they change): what a seat was shown never changes later."""
    from flamme_tui.bots import easy
    from flamme_tui.engine.phase import Phase
    from flamme_tui.engine.turns import next_seat

    game = new_game(make_setup(spec), 11)
    shown, longest = [], 0
    while game.phase != Phase.OVER:
        seat = next_seat(game)
        view = game.view(seat)
        shown.append((view, repr(view), repr(view.own), repr(view.hands)))
        longest = max([longest] + [len(pile) for _deck, pile in view.own.values()])
        game.apply(easy(view))
    assert game.round > 5 and longest >= 5  # piles that changed many times
    for view, board, own, hands in shown:
        assert (repr(view), repr(view.own), repr(view.hands)) == (board, own, hands)


def test_board_history_stays_as_shown() -> None:
    """A board's riders show their histories as they stood when it was built, though
    each reads its rider's own (growing) list of cards played (RiderView.history)."""
    from flamme_tui.bots.easy import easy
    from flamme_tui.engine.turns import next_seat

    game = new_game(make_setup(RaceSpec(variant="classic")), 5)
    seat = next_seat(game)
    shown = game.view(seat if seat is not None else 0).board
    before = [tuple(r.history) for r in game.riders]
    while game.round < shown.round + 3:
        seat = next_seat(game)
        assert seat is not None
        game.apply(easy(game.view(seat)))
    assert [r.history for r in shown.riders] == before
    assert all(len(r.history) > len(b) for r, b in zip(game.riders, before))


@settings(max_examples=20, deadline=None)
@given(st.integers(min_value=0, max_value=10**6), st.integers(min_value=0, max_value=60))
def test_a_teams_view_reads_as_the_view_of_its_riders_piles(seed, actions):
    """A seat racing two riders gets a TeamView (its riders' piles held as its own
    attributes): at every point of a race it says what a View built from the same
    riders' `seen` entries says (hands, chosen cards, piles, who holds cards, its riders)."""
    from flamme_tui.bots import easy
    from flamme_tui.engine.turns import next_seat
    from flamme_tui.engine.view import TeamView, View

    game = new_game(make_setup(RaceSpec()), seed)
    for _ in range(actions):
        seat = next_seat(game)
        if seat is None:
            break
        game.apply(easy(game.view(seat)))
    for seat, mine in enumerate(game.seats):
        view = game.view(seat)
        assert isinstance(view, TeamView)
        seen: tuple = ()
        for i in mine:
            r = game.riders[i]
            seen += (i, r.hand, r.played, len(r.deck), r.recycled, None)
        plain = View(view.board, seat, None, None, None, view.first_drawn, None, seen)
        assert view == plain and plain == view
        assert view.held() == plain.held() and view.in_hand() == plain.in_hand()
        assert view.mine() == plain.mine() and view.pair() == plain.pair()
        assert (view.hands, view.chosen, view.own, view.keep) == (plain.hands, plain.chosen, plain.own, plain.keep)
        assert view.replace(seat=seat) == view
