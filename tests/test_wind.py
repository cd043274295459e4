"""Who will be in the wind (issue 24, item 9): Preview.wind, from the seat's view.

WIND: the rider takes an exhaustion card (BMX: a fatigue token) at the end of
the round whatever the others play; "": it takes none whatever they play;
MAY: the others' hidden cards (or the die) decide.  The seat's own cards
already down are counted.  The property plays the round with random cards
for every other rider (cards each really holds, a random die face): a WIND
or "" answer is what every such round does.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_previews import choices, position, positions

from flamme_tui.bots import easy
from flamme_tui.engine.actions import Draw, Play
from flamme_tui.engine.events import Exhaustion, Fatigue
from flamme_tui.engine.options import MAY, WIND
from flamme_tui.engine.race import RuleError
from flamme_tui.engine.rng import Replay, Rng
from flamme_tui.engine.turns import next_seat
from flamme_tui.play.races import RaceSpec, make_setup, new_game

FAR = [{"id": "blue.S", "square": 30, "lane": 0}, {"id": "blue.R", "square": 30, "lane": 1}]  # finish at 40


def tired(game, i: int) -> bool:
    return any(isinstance(e, Exhaustion | Fatigue) and e.rider == i for e in game.events)


def moved_with(game, i: int, choice, rng: random.Random):
    """A copy of the game with the round's riders moved: `choice` for rider i,
    the cards already down, and for every other rider a card it really holds
    (BMX: tokens, a die face); its events are the movement's."""
    twin = game.clone()
    twin.narrated = True
    bmx = game.rules.uses_tokens
    for j, rider in enumerate(twin.riders):
        if j == i:
            rider.played = tuple(sorted(choice, reverse=True)) if bmx else choice
        elif rider.played is None:
            if bmx:
                bag = list(rider.bag)
                keep = twin.keep_size(j)
                rider.played = tuple(sorted(rng.sample(bag, min(keep, len(bag))) or [0], reverse=True))
            else:
                rider.played = rng.choice(rider.deck or [0])
    if bmx and twin.die is None:
        twin.die = rng.choice(twin.setup.die_faces)
    twin.move_phase()
    return twin


def round_with(game, i: int, choice, rng: random.Random):
    """The round played with `choice` for rider i (moved_with), to its end."""
    twin = moved_with(game, i, choice, rng)
    twin.events = []
    twin.end_phase()
    return twin


def first_card_down(data, rng: random.Random):
    """A random classic position where a seat's first rider has drawn and played
    a card: (game, the seat's view, its second rider), or None if there is none."""
    game = data.draw(positions("classic"))
    riders = game.riders
    first = data.draw(st.integers(0, len(riders) - 1))
    mates = [j for j, r in enumerate(riders) if r.seat == riders[first].seat and j != first]
    if not mates:
        return None
    second = mates[0]
    try:
        game.apply(Draw(riders[first].id))
        game.apply(Play(riders[first].id, rng.choice(riders[first].hand)))  # the second rider draws then
    except RuleError:
        return None
    view = game.view(riders[second].seat)
    assert first in view.chosen and second in view.hands
    return game, view, second


def check_wind(game, rng: random.Random, i: int, view, hand) -> int:
    certain = 0
    for choice in hand:
        w = view.wind(i, choice)
        p = view.preview(i, choice)
        assert w in (WIND, MAY, "")
        if p.finish:  # over the line: the race is over, what the end phase gives it no longer counts
            assert w == ""
            continue
        if w == WIND:
            assert p.front  # in the wind for sure: at the front with the others still, too
        if w == MAY:
            continue
        certain += 1
        for _ in range(4):
            twin = round_with(game, i, choice, rng)
            assert tired(twin, i) == (w == WIND), (choice, w, twin.events)
    return certain


@pytest.mark.parametrize("variant", ["classic", "meteo", "bmx"])
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_a_certain_wind_is_what_every_round_does(variant, data):
    game = data.draw(positions(variant))
    rng = random.Random(data.draw(st.integers(0, 2**16)))
    for i in range(len(game.riders)):
        check_wind(game, rng, i, game.view(game.riders[i].seat), choices(game, i))


@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_a_certain_wind_counts_the_seats_own_card_down(data):
    rng = random.Random(data.draw(st.integers(0, 2**16)))
    down = first_card_down(data, rng)
    if down is not None:
        game, view, second = down
        check_wind(game, rng, second, view, sorted(set(view.hands[second])))


def _first_card_down(riders, first: str, card: int, second: str, hand: list[int]):
    game = position("classic", "." * 30, riders)
    game.riders[game.index[first]].deck = [card] * 15
    game.riders[game.index[second]].deck = hand * 4
    game.apply(Draw(first))
    game.apply(Play(first, card))  # the second rider draws
    return game, game.view(0), game.index[second]


def winds(view, j) -> dict[int, str]:
    return {o.preview.value: o.preview.wind for o in view.options(wind=True)}


def test_the_wind_counts_the_first_riders_card_and_is_exact_alone():
    # red.R on 4 plays 5 (to 9) before red.S moves: red.S's 3 (to 3) and 4 (to 4)
    # are in the wind for sure; its 7 ends on 7, one empty square behind red.R
    # on 9, and slipstream carries it to 8: no exhaustion; its 8 lands behind red.R
    riders = [{"id": "red.S", "square": 0, "lane": 0}, {"id": "red.R", "square": 4, "lane": 0}] + FAR
    game, view, j = _first_card_down(riders, "red.R", 5, "red.S", [3, 4, 7, 8])
    assert winds(view, j) == {3: WIND, 4: WIND, 7: "", 8: ""}
    assert view.board.position().preview(j, 3).front is False  # as if red.R stood still on 4: sheltered
    assert view.options()[0].preview.wind == ""  # bots' options: not computed


def test_the_wind_says_may_where_another_seats_card_decides():
    # blue.S on 10 may land anywhere from 12 to 19 (its hidden card): just ahead of red.S's
    # 7 or not; red.S's 8 ends right behind red.R (on 9) whatever blue plays: sheltered for sure
    riders = [{"id": "red.S", "square": 0, "lane": 0}, {"id": "red.R", "square": 4, "lane": 0},
              {"id": "blue.S", "square": 10, "lane": 0}, {"id": "blue.R", "square": 30, "lane": 0}]
    game, view, j = _first_card_down(riders, "red.R", 5, "red.S", [3, 4, 7, 8])
    assert winds(view, j) == {3: MAY, 4: MAY, 7: MAY, 8: ""}
    # a rider that may cross the line may end the race (no exhaustion): may
    riders = riders[:2] + [{"id": "blue.S", "square": 36, "lane": 0}, {"id": "blue.R", "square": 36, "lane": 1}]
    game, view, j = _first_card_down(riders, "red.R", 5, "red.S", [3, 4, 7, 8])
    assert winds(view, j) == {3: MAY, 4: MAY, 7: "", 8: ""}


def test_the_wind_never_reads_another_seats_hidden_cards():
    riders = [{"id": "red.S", "square": 0, "lane": 0}, {"id": "red.R", "square": 4, "lane": 0},
              {"id": "blue.S", "square": 12, "lane": 0}, {"id": "blue.R", "square": 30, "lane": 0}]
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
        shown = game.view(0).options(wind=True)  # the chances too (Preview.wind_odds): worked out from red's view
        answers.add(tuple(sorted((o.preview.value, o.preview.wind, o.preview.wind_odds) for o in shown)))
    assert len(answers) == 1, answers


def test_a_cards_chance_of_the_wind_is_the_share_of_rounds_in_which_it_takes_one():
    # red.S on 0 plays 5 (to 5); blue.S on 1 moves first, its card hidden from red, any of its 15:
    # 2, 3, 4 land behind or beside red.S, 9 two squares ahead (no slipstream): red.S in the wind;
    # a 5 lands just ahead of it (6): sheltered.  Three 5s of 15 cards: in the wind in 80% of rounds
    riders = [{"id": "red.S", "square": 0, "lane": 0}, {"id": "red.R", "square": 20, "lane": 0},
              {"id": "blue.S", "square": 1, "lane": 0}, {"id": "blue.R", "square": 20, "lane": 1}]
    game, view, j = _first_card_down(riders, "red.R", 5, "red.S", [3, 4, 5, 9])
    shown = {o.preview.value: o.preview for o in view.options(wind=True)}
    assert shown[5].wind == MAY and 60 <= shown[5].wind_odds <= 100  # 48 rounds: a sampling error of 6 points
    assert 75 <= view.wind_odds(j, [5], worlds=2000)[0] <= 85  # (an error of 1 point)
    # the same view asks again, or a view of another game of that position: the same chance
    assert view.wind_odds(j, [5]) == [shown[5].wind_odds]
    assert _first_card_down(riders, "red.R", 5, "red.S", [3, 4, 5, 9])[1].wind_odds(j, [5]) == [shown[5].wind_odds]
    # a chance only where the others' cards decide: none for sure wind or shelter, nor bots' options
    assert all(p.wind_odds == -1 for p in shown.values() if p.wind != MAY)
    assert all(o.preview.wind_odds == -1 for o in view.options())


def test_the_cards_of_a_hand_are_counted_over_the_same_rounds_together_or_one_by_one():
    # each world is played up to the card once and copied for each card, the copies drawing the
    # same numbers (rng.Replay): asked together, each card's chance is what it is asked alone
    setup = make_setup(RaceSpec(variant="classic"))
    game = new_game(setup, 0)
    checked = 0
    while game.round <= 6:  # the decks run out in round 4: the rest of a round shuffles recycled piles
        seat = next_seat(game)
        view = game.view(seat)
        i, hand, _keep = view.held()
        if i >= 0 and game.round >= 3:
            cards = sorted(set(hand))
            assert view.wind_odds(i, cards, worlds=12) == [view.wind_odds(i, [c], worlds=12)[0] for c in cards]
            checked += 1
        game.apply(easy(view))
    assert checked > 20


def test_replays_of_one_list_draw_what_their_source_draws_each():
    source, alone = Rng(7), Rng(7)
    drawn: list[float] = []
    first, second = Replay(drawn, source), Replay(drawn, source)
    numbers = [first.random() for _ in range(5)]
    assert numbers == [alone.random() for _ in range(5)]
    assert [second.random() for _ in range(8)] == numbers + [alone.random() for _ in range(3)]
    assert [first.below(1000) for _ in range(3)] == [int(x * 1000) for x in drawn[5:8]]
