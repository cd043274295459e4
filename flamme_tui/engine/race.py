"""What every rule set's game shares: riders on the track, the RNG, the log."""

from __future__ import annotations

from .rng import Rng
from .track import EMPTY, ranking
from .view import View


class Race:
    """Base of ClassicGame and BmxGame: positions, cells, actions and copies.

    Subclasses keep their rule-specific state in more attributes; `clone`
    copies every list and dict attribute, so a copy never shares a pile.
    """

    def __init__(self, setup, seed: int) -> None:
        self.setup = setup
        self.course = setup.course
        self.seed = seed
        self.rng = Rng(seed)
        self.riders: list = []
        self.pos: list[list[int]] = []  # rider index -> [square, lane]
        self.cells: list[int] = [EMPTY] * (2 * len(self.course.terrain))
        self.round = 1
        self.events: list[tuple] = []  # what happened in the last resolved round
        self.winner: int | None = None
        self.actions: list = []
        self.public_cache = None  # see view.board
        self.script: tuple[str, ...] = ("",) * len(setup.teams)  # per seat: "" or a scripted team (classic)

    def _put(self, i: int, square: int, lane: int) -> None:
        self.cells[square + square + lane] = i
        self.pos[i] = [square, lane]

    def ranking(self) -> list[int]:
        """Rider indices, furthest first; on one square lane 0 first."""
        return ranking(self.pos)

    def view(self, seat: int) -> View:
        """What that seat may see (engine.view); each rule set binds its own builder."""
        raise NotImplementedError

    def clone(self, rng: Rng | None = None):
        """An independent copy; with `rng`, the copy draws from that RNG instead
        of a copy of this game's (bots simulating a sampled future)."""
        twin = self.__class__.__new__(self.__class__)
        for name, value in self.__dict__.items():
            if isinstance(value, (list, dict)):
                value = value.copy()
            twin.__dict__[name] = value
        twin.rng = rng or self.rng.clone()
        twin.riders = [r.copy() for r in self.riders]
        twin.pos = [p.copy() for p in self.pos]
        return twin
