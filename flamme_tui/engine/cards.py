"""Classic cards and the decks riders start with (players and scripted teams).

A card is an int: its value, EXHAUSTION (value 2, or the set-up's
exhaustion value) or ATTACK (the Peloton team's Attack card).
"""

from __future__ import annotations

from typing import Any, Final

EXHAUSTION: Final = 0
ATTACK: Final = -1
# a scripted rider whose deck has run out moves by a value-2 card from nowhere
# (PELOTON.md, pinned readings): it comes from no pile and goes to none
NOWHERE: Final = -2
EXHAUSTION_VALUE: Final = 2
SPRINTEUR: Final = "S"
ROULEUR: Final = "R"
# the Peloton expansion's scripted teams (a seat's `scripted` kind; "" is a player)
PELOTON: Final = "peloton"
MUSCLE: Final = "muscle"
SCRIPTED: Final = (PELOTON, MUSCLE)


def card_value(card: int) -> int:
    """The printed value of a card other than Attack (an exhaustion card and a card from nowhere: 2)."""
    return card if card > 0 else EXHAUSTION_VALUE


def card_text(card: int) -> str:
    if card == EXHAUSTION:
        return "E"
    if card == NOWHERE:
        return "2"
    return "A" if card == ATTACK else str(card)


def scripted_kind(setup: Any, seat: int) -> str:
    """"" for a player's seat, else PELOTON or MUSCLE."""
    return setup.scripted[seat] if seat < len(setup.scripted) else ""


def starting_deck(setup: Any, seat: int, kind: str) -> tuple[int, ...]:
    """The cards rider `kind` of `seat` starts with: its type's deck, the
    seat's handicap, and what a scripted team adds.  The Peloton team races
    both riders on one deck, kept by its Sprinteur: its Rouleur has none of
    its own, and brings its handicap cards to the shared deck."""
    handicap = setup.handicap[seat] if seat < len(setup.handicap) else 0
    script = scripted_kind(setup, seat)
    if not script and solo_against_scripted(setup):  # PELOTON.md, Solo: 3 exhaustion cards, S 1 and R 2
        handicap += setup.solo_handicap[kind == ROULEUR]
    if script == PELOTON:
        if kind == ROULEUR:
            return ()
        shared: tuple[int, ...] = setup.decks[ROULEUR] + (ATTACK,) * setup.peloton_attacks + (EXHAUSTION,) * (2 * handicap)
        return shared
    deck: tuple[int, ...] = setup.decks[kind] + (EXHAUSTION,) * handicap
    carried = getattr(setup, "carried", ())  # a tour: exhaustion cards carried from the last stage, per rider
    if carried and not script:
        deck += (EXHAUSTION,) * carried[rider_slot(setup.teams, seat, kind)]
    if script == MUSCLE and kind == SPRINTEUR:
        deck += setup.muscle_extra
    return deck


def rider_slot(teams: Any, seat: int, kind: str) -> int:
    """Where rider `kind` of `seat` stands in per-rider tuples (seat by seat,
    each team's riders in order: S then R, or one rider for 7 to 12 players)."""
    slot = 0
    for k in range(seat):
        slot += len(teams[k].riders)
    mine: str = teams[seat].riders
    return slot + max(0, mine.find(kind))


def solo_against_scripted(setup: Any) -> bool:
    """One team of players racing alone against one Peloton team and one Muscle
    team (PELOTON.md, Solo): it starts with the solo handicap.  Races set up
    before the pinned readings (scripted_readings 1) have none."""
    scripted = tuple(setup.scripted)
    return (setup.scripted_readings >= 2 and len(scripted) == 3
            and sorted(scripted) == ["", MUSCLE, PELOTON])
