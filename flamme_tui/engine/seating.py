"""Who races a classic or meteo race: the seats, the riders each one races,
and the limits of the Peloton expansion (PELOTON.md: Teams, Scripted teams,
7 to 12 players).

A seat races both riders of its colour ("SR", a team), or one of them (the
7-12-player game: each player picks a free rider, and two players may share
a colour, one taking the Sprinteur and one the Rouleur).
"""

from __future__ import annotations

from typing import Any, Final

from .cards import MUSCLE, PELOTON, ROULEUR, SPRINTEUR

TEAM = SPRINTEUR + ROULEUR  # a seat racing a whole team
MAX_COLOURS = 6  # red, blue, green, black and the expansion's white and pink


def check_riders(teams: Any, riders_per_seat: int) -> None:
    """ValueError naming the first rider two seats race.  A rider's id is its
    colour (bmx: a seat races one rider) or colour.kind, so two seats of one
    colour would give two riders one id; every rule set refuses that here,
    before a course or a game is built."""
    seen: set[str] = set()
    one_rider = riders_per_seat == 1
    for team in teams:
        for kind in ("",) if one_rider else team.riders:
            rid = team.colour if one_rider else f"{team.colour}.{kind}"
            if rid in seen:
                lone = team.riders in (SPRINTEUR, ROULEUR) and not one_rider  # may share a colour, not a rider
                own = "a rider of its own" if lone else "a colour of its own"
                raise ValueError(f"two seats race the same rider ({rid}): each seat needs {own}")
            seen.add(rid)


# The set-up last found valid: the races of one set-up (a bench, a tournament)
# are checked once.  Set-ups are frozen, their teams and scripted kinds tuples.
_CHECKED: Final[list[Any]] = [None]


def check_seats(setup: Any) -> None:
    """ValueError naming the first rule of PELOTON.md the seats break."""
    if setup is _CHECKED[0]:
        return
    teams = setup.teams
    for team in teams:
        if team.riders not in (TEAM, SPRINTEUR, ROULEUR):
            raise ValueError(f"{team.colour}: a seat races its colour's Sprinteur and Rouleur, or one of them")
    check_riders(teams, 2)
    colours = {team.colour for team in teams}
    if len(colours) > MAX_COLOURS:
        raise ValueError(f"{len(colours)} colours: at most {MAX_COLOURS} race")
    lone = [team.riders != TEAM for team in teams]
    if any(lone) and not all(lone):
        raise ValueError("every seat races a team, or every seat races one rider")
    scripted = tuple(setup.scripted)
    if any(scripted):
        if len(scripted) != len(teams):
            raise ValueError("scripted: one entry per team")
        if all(scripted):
            raise ValueError("a race with scripted teams needs at least one other team")
        if any(lone):
            raise ValueError("the game of one rider per player has no scripted teams")
        if scripted.count(PELOTON) > 1:
            raise ValueError("at most one Peloton team races (there are two Attack cards)")
        if any(s not in (PELOTON, MUSCLE, "") for s in scripted):
            raise ValueError("scripted: a seat is a player, a Peloton or a Muscle team")
    _CHECKED[0] = setup


def colours_racing(setup: Any) -> int:
    """The colours racing, scripted teams included: what picks a stage card's version."""
    return len({team.colour for team in setup.teams})
