"""Riders in the way (Preview.crowd) and a crash (Preview.fall), from the seat's view.

crowd: BLOCKED, the rider is blocked (stopped short of its move) whatever
the others play; "": it is not, whatever they play; MAY: the others' hidden
cards decide (the riders ahead move first: they may leave the squares in
front of it, fill the one it aims at, or crash on its way and close it).
fall: CRASH, it crashes (meteo: blocked onto a wet square) whatever they
play; "": it does not; MAY: their cards decide.  The seat's own cards
already down are counted.  The property plays the round with random cards
for every other rider (cards each really holds, a random die face): a sure
answer is what every such round does.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_previews import choices, position, positions
from test_wind import first_card_down, moved_with

from flamme_tui.engine.actions import Draw, Play
from flamme_tui.engine.course import WET
from flamme_tui.engine.events import Crash, Move
from flamme_tui.engine.options import BLOCKED, CLEAR, CRASH, MAY

FAR = [{"id": "blue.S", "square": 30, "lane": 0}, {"id": "blue.R", "square": 30, "lane": 1}]  # finish at 40


def moved(game, i: int, choice, rng: random.Random) -> tuple[Move, bool]:
    """Rider i's move in a round of random cards for the others (moved_with), and whether it crashed."""
    twin = moved_with(game, i, choice, rng)
    (move,) = [e for e in twin.events if isinstance(e, Move) and e.rider == i]
    return move, any(isinstance(e, Crash) and e.rider == i for e in twin.events)


def check_crowd(game, rng: random.Random, i: int, view, hand) -> None:
    for choice in hand:
        c, fall = view.road(i, choice)
        p = view.preview(i, choice)
        assert c in (BLOCKED, MAY, CLEAR, "") and fall in (CRASH, MAY, "")
        if c == BLOCKED:  # sure: the others standing still agree (not when it is sure they leave)
            assert p.blocked and fall != MAY and (fall == CRASH) == p.crash
        if c in ("", CLEAR):
            assert fall == ""  # never blocked: never crashes
        for _ in range(6):
            move, crashed = moved(game, i, choice, rng)
            if c != MAY:
                assert move.blocked == (c == BLOCKED), (choice, c)
            if fall != MAY:
                assert crashed == (fall == CRASH), (choice, fall)


@pytest.mark.parametrize("variant", ["classic", "meteo", "bmx"])
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_a_certain_crowd_is_what_every_round_does(variant, data):
    game = data.draw(positions(variant))
    rng = random.Random(data.draw(st.integers(0, 2**16)))
    for i in range(len(game.riders)):
        check_crowd(game, rng, i, game.view(game.riders[i].seat), choices(game, i))


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_a_certain_crowd_counts_the_seats_own_card_down(data):
    rng = random.Random(data.draw(st.integers(0, 2**16)))
    down = first_card_down(data, rng)
    if down is not None:
        game, view, second = down
        check_crowd(game, rng, second, view, sorted(set(view.hands[second])))


def crowds(view) -> dict[int, str]:
    """Each card's Preview.crowd, as the table gets the options."""
    return {o.preview.value: o.preview.crowd for o in view.options(wind=True)}


def test_riders_ahead_move_first_and_may_fill_or_leave_a_square():
    # blue.S and blue.R on 3 move first, each at least 2 squares, with nothing to stop them
    riders = [{"id": "red.S", "square": 0, "lane": 0}, {"id": "red.R", "square": 20, "lane": 0},
              {"id": "blue.S", "square": 3, "lane": 0}, {"id": "blue.R", "square": 3, "lane": 1}]
    game = position("classic", "." * 30, riders)
    s = game.index["red.S"]
    game.riders[s].deck = [2, 3, 5, 9] * 4
    game.apply(Draw("red.S"))
    view = game.view(0)
    assert view.preview(s, 3).blocked  # the others still: square 3 is full
    # but they leave it; both may end on 5 (a 2 each); on 9 only blue.R may (a 6: no Sprinteur card is 6)
    assert crowds(view) == {2: "", 3: CLEAR, 5: MAY, 9: ""}
    assert {o.preview.crowd for o in view.options()} == {""}  # bots' options: not computed


def test_a_rider_ahead_may_be_blocked_back_onto_the_square():
    # square 12 single file; blue.R on 6 moves first and may end on 8 to 13; blue.S on 3 may
    # aim at 5 to 8 or 12 (no Sprinteur card is 6 to 8), and where 12 is full it settles on 11:
    # red.S's 9 from 2 aims at 11, where both blue riders may end
    lanes = (2,) * 12 + (1,) + (2,) * 27
    riders = [{"id": "red.S", "square": 2, "lane": 0}, {"id": "red.R", "square": 25, "lane": 0},
              {"id": "blue.S", "square": 3, "lane": 0}, {"id": "blue.R", "square": 6, "lane": 0}]
    game = position("classic", "." * 30, riders, lanes=lanes)
    s = game.index["red.S"]
    assert game.view(0).road(s, 9) == (MAY, "")
    # blue.R out of the way: 12 stays free for blue.S, which then cannot end on 11
    riders[3] = {"id": "blue.R", "square": 20, "lane": 0}
    game = position("classic", "." * 30, riders, lanes=lanes)
    assert game.view(0).road(s, 9) == ("", "")


def test_a_single_file_square_ahead_may_be_filled_by_one_rider():
    riders = [{"id": "red.S", "square": 0, "lane": 0}, {"id": "red.R", "square": 20, "lane": 0},
              {"id": "blue.S", "square": 2, "lane": 0}, {"id": "blue.R", "square": 25, "lane": 0}]
    game = position("classic", "." * 30, riders, lanes=(2,) * 5 + (1,) + (2,) * 34)
    view = game.view(0)
    s = game.index["red.S"]
    assert view.road(s, 5) == (MAY, "")  # blue.S, on 2, may end on the single-file square 5
    assert view.road(s, 4) == view.road(s, 6) == ("", "")  # squares of two lanes: it cannot fill them


def test_the_seat_s_own_card_down_ahead_blocks_for_sure():
    # red.R on 4 plays 2 and lands on the single-file square 6 before red.S moves
    riders = [{"id": "red.S", "square": 0, "lane": 0}, {"id": "red.R", "square": 4, "lane": 0}] + FAR
    game = position("classic", "." * 30, riders, lanes=(2,) * 6 + (1,) + (2,) * 33)
    game.riders[game.index["red.R"]].deck = [2] * 15
    game.riders[game.index["red.S"]].deck = [5, 6, 7, 9] * 4
    game.apply(Draw("red.R"))
    game.apply(Play("red.R", 2))
    view = game.view(0)
    assert crowds(view) == {5: "", 6: BLOCKED, 7: "", 9: ""}


def test_the_crowd_never_reads_another_seats_hidden_cards():
    riders = [{"id": "red.S", "square": 0, "lane": 0}, {"id": "red.R", "square": 4, "lane": 0},
              {"id": "blue.S", "square": 5, "lane": 0}, {"id": "blue.R", "square": 6, "lane": 0}]
    answers = set()
    for blue in ([2, 2, 2, 2], [9, 9, 9, 9], [3, 4, 5, 6]):
        game = position("classic", "." * 30, riders)
        game.riders[game.index["blue.S"]].deck = blue * 4  # what blue holds: hidden from red
        game.riders[game.index["red.R"]].deck = [5] * 15
        game.riders[game.index["red.S"]].deck = [3, 4, 7, 8] * 4
        game.apply(Draw("blue.S"))
        game.apply(Play("blue.S", blue[0]))
        game.apply(Draw("red.R"))
        game.apply(Play("red.R", 5))
        answers.add(tuple(sorted(crowds(game.view(0)).items())))
    assert len(answers) == 1, answers


def closed_road(wet: tuple[int, ...]):
    """Meteo, squares 6 and 7 single file, the `wet` squares wet: red.R on 5 has played
    its 2 (to 7), red.S on 0 holds 9s, blue.S on 4 and blue.R on 20 have not drawn."""
    lanes = (2,) * 6 + (1, 1) + (2,) * 32
    weather = tuple(WET if sq in wet else "" for sq in range(40))
    riders = [{"id": "red.S", "square": 0, "lane": 0}, {"id": "red.R", "square": 5, "lane": 0},
              {"id": "blue.S", "square": 4, "lane": 0}, {"id": "blue.R", "square": 20, "lane": 0}]
    game = position("meteo", "." * 10, riders, lanes=lanes, weather=weather)
    game.riders[game.index["red.R"]].deck = [2] * 15
    game.riders[game.index["red.S"]].deck = [9] * 15
    game.apply(Draw("red.R"))
    game.apply(Play("red.R", 2))
    return game


def test_a_rider_that_may_crash_ahead_may_close_the_road():
    # meteo: squares 6 and 7 single file, 6 wet; red.R on 5 plays 2 (to 7) before
    # red.S moves; blue.S on 4 may be blocked onto 6 and crash there, which closes
    # square 6: red.S's 9 (to 9, a square blue.S alone cannot fill) may stop on 5
    game = closed_road(wet=(6,))
    ix = game.index
    s = ix["red.S"]
    assert not game.view(0).preview(s, 9).blocked  # the others still, the road is open
    twin = game.clone()
    twin.riders[s].played, twin.riders[ix["blue.S"]].played, twin.riders[ix["blue.R"]].played = 9, 3, 5
    twin.move_phase()
    assert twin.pos[s][0] == 5 and any(isinstance(e, Crash) and e.rider == ix["blue.S"] for e in twin.events)
    # stopped behind the closed 6, it ends on 5, a dry square: it cannot crash (it never ends on 6)
    assert game.view(0).road(s, 9) == (MAY, "")


def test_stopped_behind_a_closed_square_onto_a_wet_one_may_crash():
    # as above, 5 wet too: red.S stopped behind the closed 6 ends on the wet 5 and crashes
    game = closed_road(wet=(5, 6))
    ix = game.index
    s = ix["red.S"]
    twin = game.clone()
    twin.riders[s].played, twin.riders[ix["blue.S"]].played, twin.riders[ix["blue.R"]].played = 9, 3, 5
    twin.move_phase()
    assert twin.pos[s][0] == 5 and any(isinstance(e, Crash) and e.rider == s for e in twin.events)
    assert game.view(0).road(s, 9) == (MAY, MAY)


def test_one_rider_ahead_can_neither_fill_nor_close_a_wet_square_of_two_lanes():
    # the Meteo lesson, round 3: blue.R on a wet straight, in the left lane; only red.S, in the
    # right lane of its square, moves before it.  Alone it cannot fill a square of two lanes
    # (nor close one: that takes a crashed rider in each lane), so no card of blue.R's is blocked
    weather = ("",) * 4 + (WET,) * 12 + ("",) * 24
    riders = [{"id": "red.S", "square": 3, "lane": 0}, {"id": "red.R", "square": 0, "lane": 0},
              {"id": "blue.S", "square": 1, "lane": 0}, {"id": "blue.R", "square": 3, "lane": 1}]
    game = position("meteo", "." * 10, riders, weather=weather)
    b = game.index["blue.R"]
    game.riders[b].deck = [3, 4, 5, 6, 7] * 3
    game.apply(Draw("blue.R"))
    view = game.view(1)
    assert view.seat == game.riders[b].seat
    falls = {o.preview.value: (o.preview.crowd, o.preview.fall) for o in view.options(wind=True)}
    assert falls and set(falls.values()) == {("", "")}, falls


def test_a_crash_is_only_where_the_rider_may_end_blocked():
    # blue.R on the wet 4 aims at the dry 9; red.S and red.R, on 7, move first and may both end on 9:
    # blocked, blue.R ends on 8 (nobody else may end there), dry: it may be blocked, it cannot crash
    weather = ("",) * 4 + (WET, WET) + ("",) * 34
    riders = [{"id": "red.S", "square": 7, "lane": 0}, {"id": "red.R", "square": 7, "lane": 1},
              {"id": "blue.S", "square": 0, "lane": 0}, {"id": "blue.R", "square": 4, "lane": 0}]
    game = position("meteo", "." * 10, riders, weather=weather)
    b = game.index["blue.R"]
    game.riders[b].deck = [5] * 15
    game.apply(Draw("blue.R"))
    assert game.view(1).road(b, 5) == (MAY, "")


def test_a_card_blocked_for_sure_onto_a_wet_square_crashes_for_sure():
    # red.R on 4 plays 2 and takes the single-file square 6, wet: red.S's 6 stops on 5, wet too
    riders = [{"id": "red.S", "square": 0, "lane": 0}, {"id": "red.R", "square": 4, "lane": 0}] + FAR
    lanes = (2,) * 6 + (1,) + (2,) * 33
    game = position("meteo", "." * 30, riders, lanes=lanes, weather=("",) * 5 + (WET, WET) + ("",) * 33)
    game.riders[game.index["red.R"]].deck = [2] * 15
    game.riders[game.index["red.S"]].deck = [5, 6, 7, 9] * 4
    game.apply(Draw("red.R"))
    game.apply(Play("red.R", 2))
    view = game.view(0)
    assert {o.preview.value: (o.preview.crowd, o.preview.fall) for o in view.options(wind=True)} == {
        5: ("", ""), 6: (BLOCKED, CRASH), 7: ("", ""), 9: ("", "")}


def test_a_full_square_whose_riders_all_move_first_and_leave_it_is_where_the_card_lands():
    # a new player's Meteo race, round 5: red.S on 18 (shown 19), 20 full with blue.R and green.R,
    # who move first, each at least 2 squares, with nothing ahead to block them back: the 2 lands on 20
    riders = [{"id": "red.S", "square": 18, "lane": 0}, {"id": "red.R", "square": 5, "lane": 0},
              {"id": "blue.S", "square": 10, "lane": 0}, {"id": "blue.R", "square": 20, "lane": 0},
              {"id": "green.S", "square": 12, "lane": 0}, {"id": "green.R", "square": 20, "lane": 1}]
    game = position("meteo", "." * 40, riders)
    s = game.index["red.S"]
    game.riders[s].deck = [2, 3, 4, 9] * 4
    game.apply(Draw("red.S"))
    view = game.view(0)
    assert view.preview(s, 2).square == 19  # the others still
    (two,) = [o.preview for o in view.options(wind=True) if o.preview.value == 2]
    assert (two.crowd, two.square, two.blocked, two.front) == (CLEAR, 20, False, True)
    assert crowds(view) == {2: CLEAR, 3: "", 4: MAY, 9: MAY}


def test_a_teammate_certainly_just_ahead_shelters_for_sure():
    # a lesson, round 6: red.S's card is down (26 -> 30), red.R on 25 picks: its 4 ends on 29,
    # right behind red.S whatever blue plays; a 3 or a 5 does not
    riders = [{"id": "red.S", "square": 26, "lane": 0}, {"id": "red.R", "square": 25, "lane": 0},
              {"id": "blue.S", "square": 24, "lane": 0}, {"id": "blue.R", "square": 27, "lane": 0}]
    game = position("classic", "." * 40, riders)
    ix = game.index
    game.riders[ix["red.S"]].deck = [4] * 15
    game.riders[ix["red.R"]].deck = [3, 4, 5, 6] * 4
    game.apply(Draw("red.S"))
    game.apply(Play("red.S", 4))
    winds = {o.preview.value: o.preview.wind for o in game.view(0).options(wind=True)}
    assert winds == {3: MAY, 4: "", 5: MAY, 6: MAY}
    # on a climb the pair may be parted (red.R on the climb held back, red.S carried on): no sure answer
    game = position("classic", "." * 29 + "^" + "." * 10, riders)
    game.riders[ix["red.S"]].deck = [4] * 15
    game.riders[ix["red.R"]].deck = [3, 4, 5, 6] * 4
    game.apply(Draw("red.S"))
    game.apply(Play("red.S", 4))
    assert game.view(0).wind(ix["red.R"], 4) == MAY
