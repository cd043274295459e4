"""Classic cards and the decks riders start with (players and scripted teams).

A card is an int: its value, EXHAUSTION (value 2, or the set-up's
exhaustion value) or ATTACK (the Peloton team's Attack card).
"""

from __future__ import annotations

from typing import Any, Final

EXHAUSTION: Final = 0
ATTACK: Final = -1
EXHAUSTION_VALUE: Final = 2
SPRINTEUR: Final = "S"
ROULEUR: Final = "R"
# the Peloton expansion's scripted teams (a seat's `scripted` kind; "" is a player)
PELOTON: Final = "peloton"
MUSCLE: Final = "muscle"
SCRIPTED: Final = (PELOTON, MUSCLE)


def card_value(card: int) -> int:
    return card or EXHAUSTION_VALUE


def card_text(card: int) -> str:
    if card == EXHAUSTION:
        return "E"
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
    if script == PELOTON:
        if kind == ROULEUR:
            return ()
        shared: tuple[int, ...] = setup.decks[ROULEUR] + (ATTACK,) * setup.peloton_attacks + (EXHAUSTION,) * (2 * handicap)
        return shared
    deck: tuple[int, ...] = setup.decks[kind] + (EXHAUSTION,) * handicap
    carried = getattr(setup, "carried", ())  # a tour: exhaustion cards carried from the last stage, per rider
    if carried and not script:
        deck += (EXHAUSTION,) * carried[2 * seat + (kind == ROULEUR)]
    if script == MUSCLE and kind == SPRINTEUR:
        deck += setup.muscle_extra
    return deck
