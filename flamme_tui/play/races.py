"""Building races from the data files and playing seats with policies (the
race in words is play/narrator.py's).  Used by the headless commands, the app
and the tests."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any

from .. import DEFAULT_STAGE, VARIANTS, config  # noqa: F401  (VARIANTS: re-exported)
from ..engine.actions import Action
from ..engine.bmx import BmxSetup
from ..engine.cards import ROULEUR, SCRIPTED, SPRINTEUR
from ..engine.classic import ClassicSetup
from ..engine.phase import Phase
from ..engine.race import Race, Team
from ..engine.rules import find
from ..engine.seating import check_riders
from ..engine.turns import next_seat
from ..engine.view import View
from ..words import player_name

# the board game's team colours, the Peloton expansion's white and pink last (the engine's rider ids)
COLOURS = ("red", "blue", "green", "black", "white", "pink")

Policy = Callable[[View], Action]


@dataclass(frozen=True, slots=True)
class RaceSpec:
    """What the user chose: enough, with a seed, to rebuild the race exactly."""

    variant: str = "classic"
    stage: str = DEFAULT_STAGE  # classic/meteo: stage id or path
    teams: tuple[Team, ...] = tuple(Team(c.capitalize(), c) for c in COLOURS[:4])
    grid: str = "random"
    handicap: tuple[int, ...] = ()
    scripted: tuple[str, ...] = ()  # classic: per seat "", "peloton" or "muscle" (see engine.cards)
    circuit: str = "ABCD"  # bmx
    ramp: tuple[int, int] | None = None  # bmx: (lap square, number)
    young: tuple[int, ...] = ()  # bmx young-children variant
    forecast: bool = False  # bmx weather-forecast variant
    breakaway: bool = False  # classic, meteo: the Peloton breakaway before round 1 (stages with tile 2 second)


def one_rider_seats(n: int) -> tuple[Team, ...]:
    """N players racing one rider each (PELOTON.md, 7 to 12 players), taking the
    riders in seat order: red.S, red.R, blue.S, ... (worked example 4)."""
    riders = [(colour, kind) for colour in COLOURS for kind in (SPRINTEUR, ROULEUR)]
    # named in the player's language as the teams screen names them (a name is data once the race is made)
    return tuple(Team(player_name(k), colour, kind) for k, (colour, kind) in enumerate(riders[:n]))


def make_setup(spec: RaceSpec, *, classic: config.ClassicRules | None = None, bmx: config.BmxRules | None = None):
    """The engine's set-up for the spec: ValueError in one line when two seats
    race one rider (the game's constructor checks the rest), ConfigError for bad data.
    The rule sets' numbers are the data files' (stages/variants/*.yaml) unless
    `classic` or `bmx` gives them (tests of a number that comes from the data)."""
    ruleset = find(spec.variant)
    check_riders(spec.teams, ruleset.riders_per_seat)  # first: the course's version counts the colours
    if ruleset.uses_tokens:
        rules = bmx or config.load_bmx_rules()
        course = config.compile_bmx_circuit(spec.circuit, len(spec.teams), spec.ramp)
        return BmxSetup(
            course=course,
            **chosen(spec, BmxSetup),
            bag=tuple(rules.bag),
            fatigue_supply=rules.fatigue_supply,
            die_faces=tuple(f or 0 for f in rules.die),
            draw=rules.draw.normal.draw,
            descent_draw=rules.draw.descent.draw,
            descent_keep=rules.draw.descent.keep,
            fatigue=rules.fatigue_taken.normal,
            bumpy_fatigue=rules.fatigue_taken.bumpy,
        )
    classic = classic or config.load_classic_rules()
    # the stage card's version for the colours racing, on a start with room for every rider (PELOTON.md)
    riders = sum(len(t.riders) for t in spec.teams)
    course = config.load_course(spec.stage, colours=len({t.colour for t in spec.teams}), riders=riders)
    extra: dict[str, Any] = {}
    if ruleset.has_weather:
        meteo = config.load_meteo_rules()
        extra = dict(
            weather_tokens=meteo.token_bag(),
            tailwind_draw=meteo.draw.tailwind,
            headwind_draw=meteo.draw.headwind,
            standup_penalty=meteo.stand_up_penalty,
        )
    choices = chosen(spec, ClassicSetup)
    if any(spec.scripted):  # one entry per seat
        choices["scripted"] = (spec.scripted + ("",) * len(spec.teams))[: len(spec.teams)]
    else:
        choices["scripted"] = ()
    return ClassicSetup(
        course=course,
        **choices,
        decks={SPRINTEUR: classic.deck("S"), ROULEUR: classic.deck("R")},
        hand_size=classic.hand_size,
        exhaustion_value=classic.exhaustion_value,
        muscle_extra=classic.scripted_teams.muscle.sprinteur_extra,
        peloton_attacks=classic.scripted_teams.peloton.attack_cards,
        attack=(classic.scripted_teams.peloton.attack_front, classic.scripted_teams.peloton.attack_rear),
        scripted_exhaustion=classic.scripted_teams.exhaustion,
        out_of_cards=classic.scripted_teams.out_of_cards,
        solo_handicap=(classic.scripted_teams.solo_handicap.sprinteur, classic.scripted_teams.solo_handicap.rouleur),
        breakaway_bids=classic.breakaway.bids,
        breakaway_exhaustion=classic.breakaway.exhaustion,
        breakaway_pair_from=classic.breakaway.pair_from,
        **extra,
    )


def chosen(spec: RaceSpec, setup_class: type) -> dict[str, Any]:
    """The player's choices that are set-up fields of that name (teams, grid,
    handicap, breakaway, young, forecast, ...): each copied as chosen, so a
    choice is a field of RaceSpec and of the engine's set-up, and nothing more."""
    names = {f.name for f in fields(setup_class)}
    return {f.name: getattr(spec, f.name) for f in fields(RaceSpec) if f.name in names}


def new_game(setup, seed: int):
    return find(setup.variant).new_game(setup, seed)


def seat_plan(names: list[str]) -> tuple[dict[int, str], tuple[str, ...]]:
    """Who plays each seat, from names of bots and scripted teams: the bot
    of each bot seat, and each seat's scripted kind ("" for a bot)."""
    scripted = tuple(name if name in SCRIPTED else "" for name in names)
    bots = {seat: name for seat, name in enumerate(names) if not scripted[seat]}
    return bots, scripted if any(scripted) else ()


def play_out(game: Race, policies: Mapping[int, Policy], on_round: Callable | None = None, max_rounds: int = 500) -> None:
    """Let policies play every seat (scripted teams play themselves) until the race is over."""
    # by seat in a list (a compiled list read, not a Mapping's __getitem__ called through Python)
    plays: list[Policy | None] = [policies.get(seat) for seat in range(len(game.seats))]
    while game.phase != Phase.OVER:
        if game.round > max_rounds:
            raise RuntimeError(f"race did not end within {max_rounds} rounds")
        before = game.round
        # what `turns` yields, without a generator (the per-action cost of every simulated race):
        # the seat next_seat names acts, until the round is resolved or the race is over
        seat = next_seat(game)
        while seat is not None:
            policy = plays[seat]
            if policy is None:
                raise KeyError(seat)
            named_in = game.phase
            game.apply(policy(game.view(seat)))
            # (no seat before it has anything left to do in this energy phase: see next_seat)
            seat = next_seat(game, seat if named_in == Phase.ENERGY else 0) if game.round == before else None
        if on_round is not None and (game.round != before or game.phase == Phase.OVER):
            on_round(game)
