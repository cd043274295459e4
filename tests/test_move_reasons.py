"""Why a rider moved other than its card: the rule that changed the move
records it on the engine's Move event (`reason`), and the narrator says it
in words ("plays 3, moves 5: descent"), in every language."""

from __future__ import annotations

import pytest

from flamme_tui import i18n
from flamme_tui.engine.course import Course
from flamme_tui.engine.events import BY_CLIMB, BY_DESCENT, BY_STAND_UP, BY_SUPPLY, Move
from flamme_tui.engine.meteo import METEO
from flamme_tui.engine.race import Placed
from flamme_tui.engine.rules import find
from flamme_tui.net.wire import event_data, event_from
from flamme_tui.play import narrator

#            grid | 0123456789...
TERRAIN = "....." + "....vvvvv.....ssss........^^^^^^^..........." + "." * 20
GRID = 5


def course() -> Course:
    return Course.build("test", TERRAIN, finish=len(TERRAIN) - 10, grid=GRID)


def resolve(start: int, card: int, rules=None, crashed: bool = False) -> Move:
    """The Move of one rider starting alone on engine square `start` with `card`
    (a second rider far behind, so that nobody blocks it)."""
    variant = rules or find("classic")
    riders = [Placed("red.S", start, 0, crashed), Placed("blue.S", 0, 0)]
    game = variant.game.from_position(course(), riders)
    events = game.resolve({"red.S": card, "blue.S": 2})
    return next(e for e in events if isinstance(e, Move) and e.rider == 0)


def square(kind: str) -> int:
    return TERRAIN.index(kind)


def test_a_card_worth_its_value_has_no_reason():
    e = resolve(GRID + 1, 4)
    assert (e.value, e.moves, e.reason) == (4, 4, 0)


def test_a_descent_raises_the_move_and_says_so():
    e = resolve(square("v"), 2)
    assert (e.value, e.moves, e.reason) == (2, 5, BY_DESCENT)
    # a card already worth the minimum: the descent changed nothing
    assert resolve(square("v"), 6).reason == 0


def test_a_supply_zone_raises_the_move_and_says_so():
    e = resolve(square("s"), 2)
    assert (e.value, e.moves, e.reason) == (2, 4, BY_SUPPLY)


def test_a_climb_caps_the_move_and_says_so():
    e = resolve(square("^"), 9)
    assert (e.value, e.moves, e.reason) == (9, 5, BY_CLIMB)
    before = square("^") - 8  # the climb 8 squares ahead: a 9 stops before it
    e = resolve(before, 9)
    assert (e.moves, e.reason) == (7, BY_CLIMB)
    assert resolve(square("^"), 4).reason == 0


def test_standing_up_is_a_reason_too_with_the_terrain_s():
    e = resolve(GRID + 1, 5, METEO, crashed=True)
    assert (e.value, e.moves, e.reason) == (5, 3, BY_STAND_UP)
    e = resolve(square("v"), 2, METEO, crashed=True)  # raised to 5, then 2 for standing up
    assert (e.value, e.moves, e.reason) == (2, 3, BY_DESCENT | BY_STAND_UP)


def test_the_reason_travels_to_a_device():
    e = resolve(square("v"), 2)
    assert event_from(event_data(e)) == e
    assert event_data(e)["reason"] == BY_DESCENT


def label(sq: int) -> str:
    return narrator.label(course(), sq)


@pytest.mark.parametrize("lang, want", [
    ("en", "Red plays 2, moves 5: descent, 5 → 10"),
    ("fr", "Red joue 2, avance de 5\u00a0: descente, 5 → 10"),
    ("es", "Red juega 2, avanza 5: bajada, 5 → 10"),
])
def test_the_log_says_why_in_words(lang, want):
    e = resolve(square("v"), 2)
    i18n.set_language(lang)
    try:
        assert narrator.event_line(e, lambda i: "Red", label) == want
    finally:
        i18n.set_language("en")


def test_the_log_says_every_reason_in_the_rules_order():
    assert narrator.event_line(resolve(square("^"), 9), lambda i: "Red", label).startswith("Red plays 9, moves 5: climb,")
    assert narrator.event_line(resolve(square("s"), 3), lambda i: "Red", label).startswith(
        "Red plays 3, moves 4: supply zone,")
    both = resolve(square("v"), 2, METEO, crashed=True)
    assert narrator.event_line(both, lambda i: "Red", label).startswith(
        "Red plays 2, moves 3: descent and standing up,")
    assert narrator.event_line(resolve(GRID + 1, 4), lambda i: "Red", label) == "Red plays 4, 2 → 6"
