"""What a rule set is, for everyone outside the engine: its name, its game
and set-up classes, its view builder and what it has (capability flags).

The registry of every rule set is engine.rules; each rule set's module
(classic, meteo, bmx) defines its own RuleSet, so the flags are written once,
next to the rules they describe.  Ask `rules.uses_tokens`, never
`variant == "bmx"`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the rule sets' modules import this one
    from .bmx import BmxSetup
    from .classic import ClassicSetup
    from .race import Race
    from .view import View


@dataclass(frozen=True, slots=True)
class RuleSet:
    name: str  # "classic", "meteo", "bmx": the variant name in set-ups and saves
    title: str  # the name a player reads
    game: type[Race]  # the game class: game(setup, seed)
    setup: type[ClassicSetup] | type[BmxSetup]  # the set-up class
    uses_tokens: bool  # speed tokens from a bag (bmx), not cards from decks
    has_weather: bool  # weather on the straights, crashes, standing up (meteo)
    scripted_teams: bool  # the Peloton expansion's scripted teams may race (classic)
    grid_choice: bool  # players may place their riders on the grid
    riders_per_seat: int  # 2 (a Sprinteur and a Rouleur) or 1 (bmx)
    max_teams: int  # the most teams (bmx: riders) that race: 6 with the Peloton expansion, 4 in bmx
    catch_up_die: bool  # a die decides how far gaps close (bmx), else slipstream
    exhaustion_word: str  # "exhaustion card" / "fatigue token"
    piece_word: str  # "card" / "token": what a rider plays
    # (view, rider index) -> the pieces of that rider whose place the seat cannot know
    unseen: Callable[[View, int], tuple[int, ...]]

    def new_game(self, setup: ClassicSetup | BmxSetup, seed: int) -> Race:
        """A new race of this rule set (a seat's view: `game.view(seat)`)."""
        return self.game(setup, seed)
