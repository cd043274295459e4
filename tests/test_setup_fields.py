"""One home for every set-up field (issue 24 item 5): a set-up option is a
field of the engine's set-up class (engine.classic.ClassicSetup,
engine.bmx.BmxSetup) with the kind of value it is; the save format's model,
its codec (setupdata.py) and the player's choices (play/races.py RaceSpec,
copied by name in make_setup) are derived from it."""

from __future__ import annotations

import json
from dataclasses import dataclass, field, fields, replace

import pytest

from flamme_tui import setupdata
from flamme_tui.engine.bmx import BmxSetup
from flamme_tui.engine.classic import ClassicSetup
from flamme_tui.engine.race import Team
from flamme_tui.play.races import RaceSpec, make_setup

TWO = (Team("Ann", "red"), Team("Bob", "blue"))

# a value of each kind other than any default, for a race of TWO (4 riders in classic, 2 in bmx)
CHANGED = {
    "draw": lambda old: old + 1,
    "card": lambda old: old + 1,
    "count": lambda old: old + 1,
    "deck count": lambda old: old + 1,
    "penalty": lambda old: old + 1,
    "bids": lambda old: old + 1,
    "team count": lambda old: old - 1,
    "flag": lambda old: not old,
    "version": lambda old: 1 if old == 2 else 2,
    "grid": lambda old: "choose",
    "classic variant": lambda old: "meteo",
    "bmx variant": lambda old: "bmx",  # the one bmx variant: its round trip is checked unchanged
    "handicaps": lambda old: (1, 2),
    "weather tokens": lambda old: ("wet", "", "tailwind"),
    "scripted": lambda old: ("", "peloton"),
    "cards": lambda old: (6, 7),
    "card pair": lambda old: (3, 8),
    "count pair": lambda old: (2, 1),
    "carried": lambda old: (1, 0, 2, 0),
    "seat order": lambda old: (1, 0),
    "times": lambda old: (10, 20, 30, 40),
    "points": lambda old: (3, 5),
    "bag": lambda old: (1, 2, 3),
    "die": lambda old: (1, 0),
    "young": lambda old: (1, 0),
    "decks": lambda old: {"S": (2, 3, 9), "R": (4, 5, 6)},
    "teams": lambda old: (Team("Cy", "green"), Team("Di", "black")),
}


def base(cls):
    return make_setup(RaceSpec(variant="bmx" if cls is BmxSetup else "classic", teams=TWO))


@pytest.mark.parametrize("cls", [ClassicSetup, BmxSetup])
def test_the_save_model_has_exactly_the_set_up_fields(cls):
    model = setupdata.BmxSetupData if cls is BmxSetup else setupdata.ClassicSetupData
    assert list(model.model_fields) == [f.name for f in fields(cls)]


@pytest.mark.parametrize("cls, name", [(cls, f.name) for cls in (ClassicSetup, BmxSetup) for f in fields(cls)
                                       if f.name != "course"])
def test_every_set_up_field_round_trips_through_the_save_codec(cls, name):
    """Each field changed alone comes back as it went (in the text a save holds)."""
    setup = base(cls)
    kind = next(f for f in fields(cls) if f.name == name).metadata["save"]
    changed = replace(setup, **{name: CHANGED[kind](getattr(setup, name))})
    back = setupdata.setup_from_json(setupdata.setup_json(changed))
    assert getattr(back, name) == getattr(changed, name)
    assert back == changed


@pytest.mark.parametrize("cls", [ClassicSetup, BmxSetup])
def test_the_course_round_trips(cls):
    setup = base(cls)
    assert setupdata.setup_from_json(setupdata.setup_json(setup)).course == setup.course


def test_a_save_without_a_later_field_means_what_it_meant_before():
    """A field added after saves were written takes its `before` value when a save lacks it."""
    data = setupdata.setup_data(base(ClassicSetup))
    for name in ("scripted_readings", "rulings", "breakaway", "carried"):
        del data[name]
    old = setupdata.setup_from_data(setupdata.ClassicSetupData.model_validate_json(json.dumps(data)))  # as a save is read
    assert (old.scripted_readings, old.rulings, old.breakaway, old.carried) == (1, 1, False, ())


def test_the_players_choices_are_copied_by_name():
    """Each RaceSpec field that is a set-up field reaches the set-up as chosen."""
    spec = RaceSpec(teams=TWO, grid="choose", handicap=(1, 0), breakaway=True, variant="meteo",
                    stage="la-classicissima")
    setup = make_setup(spec)
    assert (setup.grid, setup.handicap, setup.breakaway, setup.variant) == ("choose", (1, 0), True, "meteo")
    bmx = make_setup(RaceSpec(variant="bmx", teams=TWO, young=(2, 0), forecast=True))
    assert (bmx.young, bmx.forecast) == ((2, 0), True)
    shared = {f.name for f in fields(RaceSpec)} & ({f.name for f in fields(ClassicSetup)} | {f.name for f in fields(BmxSetup)})
    assert shared == {"variant", "teams", "grid", "handicap", "scripted", "breakaway", "young", "forecast"}


def test_a_new_field_needs_only_its_kind():
    """What a new set-up option takes: a field with its save kind; the save
    model gets it with its bounds (and a field without a kind is refused by name)."""

    @dataclass(frozen=True)
    class Made:
        teams: tuple[Team, ...] = field(metadata={"save": "teams"})
        sprint_bonus: int = field(default=3, metadata={"save": "card", "before": 0})

    schema = setupdata.schema_fields(Made)
    assert list(schema) == ["teams", "sprint_bonus"]
    from pydantic import ValidationError, create_model

    made = create_model("MadeData", __config__=setupdata.MODEL, **schema)
    assert made.model_validate_json('{"teams": [{"name": "Ann", "colour": "red"}]}').sprint_bonus == 0
    with pytest.raises(ValidationError, match="sprint_bonus"):
        made.model_validate_json('{"teams": [{"name": "Ann", "colour": "red"}], "sprint_bonus": 1000000}')

    @dataclass(frozen=True)
    class Unkinded:
        teams: tuple[Team, ...] = field(metadata={"save": "teams"})
        sprint_bonus: int = 3

    with pytest.raises(TypeError, match=r"Unkinded\.sprint_bonus: its metadata names no save kind"):
        setupdata.schema_fields(Unkinded)
