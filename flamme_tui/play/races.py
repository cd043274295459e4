"""Building races from the data files, playing seats with policies, and the
race log in words.  Used by the headless commands, the app and the tests."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .. import DEFAULT_STAGE, VARIANTS, config  # noqa: F401  (VARIANTS: re-exported)
from ..engine.actions import Action
from ..engine.bmx import BmxSetup, token_text
from ..engine.cards import ROULEUR, SCRIPTED, SPRINTEUR, card_text
from ..engine.classic import ClassicSetup
from ..engine.events import Reveal
from ..engine.phase import Phase
from ..engine.race import Race, Team
from ..engine.rules import find
from ..engine.seating import check_riders
from ..engine.turns import turns
from ..engine.view import View

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
    return tuple(Team(f"Player {k}", colour, kind) for k, (colour, kind) in enumerate(riders[:n], 1))


def make_setup(spec: RaceSpec):
    """The engine's set-up for the spec: ValueError in one line when two seats
    race one rider (the game's constructor checks the rest), ConfigError for bad data."""
    ruleset = find(spec.variant)
    check_riders(spec.teams, ruleset.riders_per_seat)  # first: the course's version counts the colours
    if ruleset.uses_tokens:
        rules = config.load_bmx_rules()
        course = config.compile_bmx_circuit(spec.circuit, len(spec.teams), spec.ramp)
        return BmxSetup(
            course=course,
            teams=spec.teams,
            bag=tuple(rules.bag),
            fatigue_supply=rules.fatigue_supply,
            die_faces=tuple(f or 0 for f in rules.die),
            draw=rules.draw.normal.draw,
            descent_draw=rules.draw.descent.draw,
            descent_keep=rules.draw.descent.keep,
            fatigue=rules.fatigue_taken.normal,
            bumpy_fatigue=rules.fatigue_taken.bumpy,
            young=spec.young,
            forecast=spec.forecast,
        )
    classic = config.load_classic_rules()
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
    return ClassicSetup(
        course=course,
        teams=spec.teams,
        decks={SPRINTEUR: classic.deck("S"), ROULEUR: classic.deck("R")},
        hand_size=classic.hand_size,
        exhaustion_value=classic.exhaustion_value,
        grid=spec.grid,
        handicap=spec.handicap,
        variant=spec.variant,
        scripted=(spec.scripted + ("",) * len(spec.teams))[: len(spec.teams)] if any(spec.scripted) else (),
        muscle_extra=classic.scripted_teams.muscle.sprinteur_extra,
        peloton_attacks=classic.scripted_teams.peloton.attack_cards,
        attack=(classic.scripted_teams.peloton.attack_front, classic.scripted_teams.peloton.attack_rear),
        scripted_exhaustion=classic.scripted_teams.exhaustion,
        out_of_cards=classic.scripted_teams.out_of_cards,
        solo_handicap=(classic.scripted_teams.solo_handicap.sprinteur, classic.scripted_teams.solo_handicap.rouleur),
        breakaway=spec.breakaway,
        breakaway_bids=classic.breakaway.bids,
        breakaway_exhaustion=classic.breakaway.exhaustion,
        breakaway_pair_from=classic.breakaway.pair_from,
        **extra,
    )


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
        for seat in turns(game):
            policy = plays[seat]
            if policy is None:
                raise KeyError(seat)
            game.apply(policy(game.view(seat)))
        if on_round is not None and (game.round != before or game.phase == Phase.OVER):
            on_round(game)


# ------------------------------------------------------------------- words


def rider_name(game, i: int) -> str:
    r = game.riders[i]
    seat = game.setup.teams[r.seat]
    if game.rules.uses_tokens:
        return seat.name
    kind = "Sprinteur" if r.kind == SPRINTEUR else "Rouleur"
    if len(seat.riders) == 1:  # a player racing one rider: its name, and which rider
        return f"{seat.name} ({seat.colour.capitalize()} {kind})"
    return f"{seat.name} {kind}"


def played_text(game, played) -> str:
    if game.rules.uses_tokens:
        return "+".join(token_text(t) for t in played)
    return card_text(played)


def describe_round(game, square: Callable[[int], str] = str) -> list[str]:
    """The last resolved round in words, one line per event; `square` names a
    square (the engine's index by default; the UI counts from the start line)."""
    return [e.text(lambda i: rider_name(game, i), square) for e in game.events if not isinstance(e, Reveal)]


def round_report(game, extra: Sequence[str] = ()) -> list[str]:
    """The headless log of the round just resolved: its number, any bot reasons
    (`extra`), the events in words, a one-line track picture and the positions."""
    return (
        [f"Round {game.rounds_done}"]
        + [f"  {line}" for line in extra]
        + [f"  {line}" for line in describe_round(game)]
        + [f"  track: {track_picture(game)}", f"         {positions_text(game)}"]
    )


def track_picture(game) -> str:
    """One line: the track from the grid to past the finish, riders per square as a count."""
    course = game.course
    last = max(course.finish + 2, max(p[0] for p in game.pos) + 1)
    count = [0] * (last + 1)
    for p in game.pos:
        if p[0] >= 0:  # a tour: a rider across the line has left the track
            count[p[0]] += 1
    chars = []
    for sq in range(last + 1):
        if sq == course.grid:
            chars.append("|")
        if sq == course.finish:
            chars.append("|")
        chars.append(str(count[sq]) if count[sq] else course.terrain[sq])
    return "".join(chars)


def positions_text(game) -> str:
    crossed = getattr(game, "crossed", {})
    return "  ".join(f"{game.riders[i].id} " + ("across" if i in crossed else f"{game.pos[i][0]}/{game.pos[i][1]}")
                     for i in game.ranking())


def ranking_lines(game) -> list[str]:
    crossed = getattr(game, "crossed", {})  # a tour stage: riders across the line, where they crossed

    def where(i: int) -> str:
        if i in crossed:
            rnd, square, lane = crossed[i]
            return f"across the line in round {rnd}, square {square}, lane {lane}"
        return f"square {game.pos[i][0]}, lane {game.pos[i][1]}"

    return [f"{place:>2}. {rider_name(game, i):<24} {where(i)}" for place, i in enumerate(game.ranking(), 1)]
