"""Race.resolve: the engine's one entry point for a made-up round (conformance
cases and tests), and what it refuses."""

from __future__ import annotations

import pytest

from flamme_tui.engine.bmx import BmxGame
from flamme_tui.engine.classic import ClassicGame, RuleError
from flamme_tui.engine.course import Course
from flamme_tui.engine.events import Die, Move
from flamme_tui.engine.race import Placed


def classic() -> ClassicGame:
    course = Course.build("test", "." * 40, 30, 0)
    return ClassicGame.from_position(course, [Placed("red.S", 3, 0), Placed("blue.S", 5, 0)])


def bmx() -> BmxGame:
    course = Course.build("test", "." * 40, 30, 0)
    return BmxGame.from_position(course, [Placed("red", 3, 0), Placed("blue", 5, 0)])


def test_a_round_is_resolved_as_the_game_does_it():
    game = classic()
    events = game.resolve({"red.S": 4, "blue.S": 3})
    assert [(e.rider, e.square) for e in events if isinstance(e, Move)] == [(1, 8), (0, 7)]
    assert game.pos == [[7, 0], [8, 0]] and game.round == 2  # the next round has begun
    assert events == tuple(game.events)


def test_the_die_is_the_one_given():
    game = bmx()
    events = game.resolve({"red": (1,), "blue": (1,)}, die=2)
    assert [e.face for e in events if isinstance(e, Die)] == [2]
    assert game.pos[0] == [5, 0]  # caught up to the rider ahead: gap 1, die 2


@pytest.mark.parametrize("plays, die, message", [
    ({"red.S": 4}, None, r"missing \['blue.S'\]"),
    ({"red.S": 4, "blue.S": 3, "green.S": 3}, None, r"unknown \['green.S'\]"),
    ({"red.S": (4,), "blue.S": 3}, None, "a card, not tokens"),
    ({"red.S": 4, "blue.S": 3}, 1, "Classic has no die"),
])
def test_what_a_classic_round_refuses(plays, die, message):
    game = classic()
    with pytest.raises(RuleError, match=message):
        game.resolve(plays, die)
    assert game.round == 1 and game.pos == [[3, 0], [5, 0]]  # nothing changed


@pytest.mark.parametrize("plays, die, message", [
    ({"red": 4, "blue": (1,)}, 1, "tokens, not a card"),
    ({"red": (1,), "blue": (1,)}, 3, "the die has no face 3"),
])
def test_what_a_bmx_round_refuses(plays, die, message):
    game = bmx()
    with pytest.raises(RuleError, match=message):
        game.resolve(plays, die)
    assert game.round == 1
