"""Previews: what the engine says a card (token set) would do is what the
round then does, when every other rider stands still.

On random positions (terrain, single-lane squares, meteo weather and crashed
riders, a bmx jump ramp), for each card a rider may play: the preview's
square, lane, blocking, terrain, stand-up, ramp and crash equal what the
round's own movement step does, and `front` says whether the rider then
takes exhaustion (fatigue) when no slipstream (catch-up) moves anyone.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from flamme_tui.engine.actions import Draw, Play, PlayTokens
from flamme_tui.engine.course import CROSSWIND, HEADWIND, TAILWIND, WET, Course
from flamme_tui.engine.events import Crash, Exhaustion, Fatigue, Move, Ramp, StandUp
from flamme_tui.engine.phase import Phase
from flamme_tui.engine.race import Placed
from flamme_tui.engine.rules import find

LENGTH = 40


@st.composite
def positions(draw, variant: str):
    rules = find(variant)
    alphabet = ".bkmv" if rules.uses_tokens else ".^vs"
    terrain = draw(st.text(alphabet, min_size=LENGTH, max_size=LENGTH))
    lanes = [1 if t == "m" else draw(st.sampled_from((1, 2, 2, 2))) for t in terrain]
    weather: tuple[str, ...] = ()
    if rules.has_weather:
        weather = tuple(draw(st.lists(st.sampled_from(("", "", CROSSWIND, TAILWIND, HEADWIND, WET, WET)),
                                      min_size=LENGTH, max_size=LENGTH)))
    ramp = None
    if rules.uses_tokens and draw(st.booleans()):
        ramp = (draw(st.integers(1, LENGTH - 10)), draw(st.integers(1, 5)))
    course = Course.build("random", terrain, LENGTH - 6, 0, lanes=tuple(lanes), weather=weather, ramp=ramp)
    places = [(sq, ln) for sq in range(LENGTH - 12) for ln in range(lanes[sq])]
    n = draw(st.integers(2, 6))
    taken = draw(st.lists(st.sampled_from(places), min_size=n, max_size=n, unique=True))
    colours = ["red", "blue", "green", "black", "white", "pink"]
    riders = []
    for k, (sq, ln) in enumerate(taken):
        if rules.uses_tokens:
            rid = colours[k]
        else:
            rid = f"{colours[k // 2]}.{'SR'[k % 2]}"
        riders.append(Placed(rid, sq, ln, draw(st.booleans()) if rules.has_weather else False))
    seed = draw(st.integers(0, 2**16))
    return rules.game.from_position(course, riders, seed)


def choices(game, i: int):
    if game.rules.uses_tokens:
        return [(a,) for a in range(6)] + [(a, b) for a in range(6) for b in range(a, 6)]
    return sorted(set(game.riders[i].deck))


def check_previews(game) -> int:
    checked = 0
    for i in range(len(game.riders)):
        seat = game.riders[i].seat
        view = game.view(seat)
        for choice in choices(game, i):
            p = view.preview(i, choice)
            assert view.reach(i, choice) == p.moves  # the cheap reach is the preview's moves
            twin = game.clone()
            twin.events = []
            if game.rules.uses_tokens:
                twin.move_rider(i, tuple(sorted(choice, reverse=True)))
            else:
                twin.move_rider(i, twin.card_worth(i, choice), choice)
            (move,) = [e for e in twin.events if isinstance(e, Move)]
            assert (p.square, p.lane) == tuple(twin.pos[i]) == (move.square, move.lane), (choice, p)
            assert p.start == move.start and p.moves == move.moves and p.value == move.value
            assert p.blocked == move.blocked
            assert p.ramp == sum(e.bonus for e in twin.events if isinstance(e, Ramp))
            assert p.crash == any(isinstance(e, Crash) for e in twin.events)
            assert (p.standup > 0) == any(isinstance(e, StandUp) for e in twin.events)
            if p.terrain == "climb":
                assert p.plays_as < p.value
            elif p.terrain:
                assert p.plays_as > p.value
            else:
                assert p.plays_as == p.value
            ahead = {tuple(q)[0] for j, q in enumerate(twin.pos) if j != i}
            assert p.finish == (p.square >= game.course.finish)
            assert p.front == (not p.finish and p.square + 1 not in ahead)  # over the line: "finish", not "front"
            # the end of the round: in the wind means exhaustion (fatigue), unless the pack moved
            twin.end_phase()
            if twin.phase == Phase.OVER or any(e.kind in ("slip", "catchup") for e in twin.events):
                continue
            if game.rules.uses_tokens:
                tired = any(isinstance(e, Fatigue) and e.rider == i for e in twin.events)
                assert not tired or p.front
                assert tired or not p.front or twin.supply == 0  # fatigue while the supply lasts
            else:
                tired = any(isinstance(e, Exhaustion) and e.rider == i for e in twin.events)
                assert tired == p.front
            checked += 1
    return checked


def position(variant: str, terrain: str, riders, **course):
    built = Course.build("test", terrain + "." * 30, len(terrain) + 10, 0, **course)
    return find(variant).game.from_position(built, [Placed(**r) for r in riders])


def test_a_preview_says_what_changes_a_card():
    # a climb from square 4: a 9 from square 0 plays as 5, and lands beside red.R
    two = [{"id": "red.S", "square": 0, "lane": 0}, {"id": "red.R", "square": 5, "lane": 0}]
    game = position("classic", "...." + "^" * 6, two)
    p = game.view(0).preview(0, 9)
    assert (p.value, p.plays_as, p.moves, p.terrain, p.square, p.lane, p.blocked) == (9, 5, 5, "climb", 5, 1, False)
    assert p.front
    # single-lane square 5 taken: the card stops one square short, behind red.R
    game = position("classic", "." * 10, two, lanes=(2,) * 5 + (1,) + (2,) * 34)
    p = game.view(0).preview(0, 5)
    assert (p.square, p.lane, p.blocked, p.front) == (4, 0, True, False)


def _first_card_down(riders, first: str, card: int, second_card: int):
    """Red's `first` rider drew first and played `card`; the game and red's view at its second rider's pick."""
    game = position("classic", "." * 10, riders)
    i, j = game.index[first], game.index["red.S" if first == "red.R" else "red.R"]
    game.riders[i].deck = [card] * 15  # the hands dealt: those cards only
    game.riders[j].deck = [second_card] * 15
    game.apply(Draw(first))
    game.apply(Play(first, card))
    view = game.view(0)
    assert view.chosen == {i: card} and set(view.hands) == {j}
    return game, view, j


BLUE_AWAY = [{"id": "blue.S", "square": 20, "lane": 0}, {"id": "blue.R", "square": 20, "lane": 1}]


def test_the_second_riders_preview_counts_the_first_riders_card_ahead():
    # red.R, ahead on 4, plays 5 (to 9) before red.S moves: red.S's 3 lands on 3 with
    # nobody on 4 any more (in the wind), and its 4 takes the lane red.R left
    riders = [{"id": "red.S", "square": 0, "lane": 0}, {"id": "red.R", "square": 4, "lane": 0}] + BLUE_AWAY
    game, view, j = _first_card_down(riders, "red.R", 5, 3)
    still = view.board.position().preview(j, 3)  # as if red.R stood still on 4
    assert (still.square, still.front) == (3, False)
    p = view.preview(j, 3)
    assert (p.square, p.lane, p.front) == (3, 0, True)
    assert [o.preview for o in view.options()] == [p]  # the options say the same
    assert (view.preview(j, 4).square, view.preview(j, 4).lane) == (4, 0)  # red.R's lane is free
    assert view.board.position().preview(j, 4).lane == 1
    # what the round does, the others still: red.S ends in the wind
    twin = game.clone()
    twin.move_rider(game.index["red.R"], 5, 5)
    twin.move_rider(j, 3, 3)
    assert tuple(twin.pos[j]) == (3, 0) and all(q[0] != 4 for q in twin.pos)


def test_the_second_riders_preview_counts_the_first_riders_card_behind():
    # red.S (second) is ahead on 6 and moves first; red.R, behind on 0, plays 9 and
    # lands on 9, just ahead of red.S's 2 (to 8): not in the wind after all
    riders = [{"id": "red.S", "square": 6, "lane": 0}, {"id": "red.R", "square": 0, "lane": 0}] + BLUE_AWAY
    game, view, j = _first_card_down(riders, "red.R", 9, 2)
    assert view.board.position().preview(j, 2).front  # as if red.R stood still
    p = view.preview(j, 2)
    assert (p.square, p.front, p.blocked) == (8, False, False)
    assert [o.preview for o in view.options()] == [p]


def test_the_first_riders_mark_counts_the_second_riders_card_selected():
    # red.R (behind, on 0) drew first and played 5; square 5 is full (red.S, blue.S):
    # alone it stops on 4.  red.S, ahead, moves first: with its 3 selected (to 8) a
    # lane of square 5 is free, and the screen's mark for red.R's card says 5
    riders = [{"id": "red.S", "square": 5, "lane": 0}, {"id": "blue.S", "square": 5, "lane": 1},
              {"id": "red.R", "square": 0, "lane": 0}, {"id": "blue.R", "square": 30, "lane": 0}]
    game, view, j = _first_card_down(riders, "red.R", 5, 3)
    i = game.index["red.R"]
    assert view.preview(i, 5).square == 4 and view.preview(i, 5).blocked
    p = view.preview(i, 5, ((j, 3),))
    assert (p.square, p.blocked) == (5, False)
    twin = game.clone()  # what the round does, blue standing still
    twin.move_rider(j, 3, 3)
    twin.move_rider(i, 5, 5)
    assert twin.pos[i][0] == 5


def test_a_card_over_the_line_says_finish_not_front():
    from flamme_tui.ui.aids import flag

    riders = [{"id": "red.S", "square": 12, "lane": 0}, {"id": "red.R", "square": 0, "lane": 0}]
    game = position("classic", "." * 10, riders)  # the finish line before square 20
    near, over = game.view(0).preview(0, 5), game.view(0).preview(0, 9)
    assert (near.finish, near.front, flag(near, False), game.view(0).wind(0, 5)) == (False, True, "", "wind")
    assert (over.finish, over.front, flag(over, False), game.view(0).wind(0, 9)) == (True, False, "finish", "")


def test_a_crashed_meteo_rider_stands_up_and_a_wet_block_crashes_it():
    riders = [{"id": "red.S", "square": 0, "lane": 0, "crashed": True},
              {"id": "blue.S", "square": 5, "lane": 0}, {"id": "blue.R", "square": 5, "lane": 1}]
    game = position("meteo", "." * 10, riders, weather=("wet",) * 40)
    p = game.view(0).preview(0, 7)
    assert (p.standup, p.moves, p.square, p.blocked, p.crash, p.front) == (2, 5, 4, True, True, False)


def test_the_jump_ramp_in_a_bmx_preview():
    game = position("bmx", "." * 10, [{"id": "red", "square": 0, "lane": 0}, {"id": "blue", "square": 1, "lane": 0}],
                    ramp=(3, 4))
    p = game.view(0).preview(0, (4,))
    assert (p.value, p.ramp, p.moves, p.square, p.front) == (4, 4, 8, 8, True)
    assert game.view(0).preview(0, (3,)).ramp == 0


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_classic_previews_are_what_the_round_does(data):
    check_previews(data.draw(positions("classic")))


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_meteo_previews_are_what_the_round_does(data):
    check_previews(data.draw(positions("meteo")))


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_bmx_previews_are_what_the_round_does(data):
    check_previews(data.draw(positions("bmx")))


@settings(max_examples=30, deadline=None)
@given(st.data(), st.sampled_from(["classic", "meteo", "bmx"]))
def test_options_are_the_legal_actions_with_their_previews(data, variant):
    game = data.draw(positions(variant))
    if game.rules.uses_tokens:
        game.start_turn()
    for seat in range(len(game.seats)):
        view = game.view(seat)
        options = view.options()
        if not game.rules.uses_tokens:
            # first the choice of who draws first, then that rider's cards
            assert [o.action for o in options] == [Draw(game.riders[i].id) for i in game.seats[seat]]
            assert all(o.preview is None for o in options)
            game.apply(options[0].action)
            view = game.view(seat)
            options = view.options()
        assert sorted(map(str, (o.action for o in options))) == sorted(map(str, game.legal_actions(seat)))
        for o in options:
            i = game.index[o.action.rider]
            choice = o.action.tokens if isinstance(o.action, PlayTokens) else o.action.card
            assert isinstance(o.action, PlayTokens | Play)
            assert o.preview == view.preview(i, choice)
            assert o.preview.moves == view.reach(i, choice)
