"""What every rule set's game shares: riders on the track, the RNG, the log.

The engine is typed for mypyc, which compiles it for the installed package
(see pyproject.toml): the types are what make the compiled code fast.
"""

from __future__ import annotations

from typing import Any, ClassVar, Generic, Protocol, TypeVar

from ..course import Course
from .actions import Action
from .rng import Rng
from .track import EMPTY, ranking
from .view import Board, View


class RuleError(ValueError):
    """An action that the rules do not allow now."""


class _Rider(Protocol):
    def copy(self) -> Any: ...


RiderT = TypeVar("RiderT", bound=_Rider)
SetupT = TypeVar("SetupT")


class Race(Generic[RiderT, SetupT]):
    """Base of ClassicGame and BmxGame: positions, cells, actions and copies.

    Subclasses keep their rule-specific state in more attributes and copy
    them in `_clone_into`, every list and dict copied, so a copy never shares a pile.
    """

    variant: ClassVar[str] = ""

    def __init__(self, setup: Any, seed: int, *, _blank: bool = False) -> None:
        self.setup: SetupT = setup
        self.course: Course = setup.course
        self.seed = seed
        self.rng = Rng(seed)
        self.phase = ""  # each rule set starts its own
        self.riders: list[RiderT] = []
        self.pos: list[list[int]] = []  # rider index -> [square, lane]
        self.cells: list[int] = [EMPTY] * (2 * len(self.course.terrain))
        self.round = 1
        self.events: list[tuple] = []  # what happened in the last resolved round
        self.winner: int | None = None
        self.actions: list = []
        self.index: dict[str, int] = {}  # rider id -> rider index (set by each rule set)
        self.public_cache: Board | None = None  # see view.board
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

    def needs(self, seat: int) -> bool:
        raise NotImplementedError

    def apply(self, action: Action | str) -> None:
        raise NotImplementedError

    def _actor(self, action: Action | str) -> tuple[Action, int]:
        """The action (parsed from its text form if need be) and its rider's index."""
        if isinstance(action, str):
            action = Action.parse(action)
        i = self.index.get(action.rider)
        if i is None:
            raise RuleError(f"no rider {action.rider!r} in this race")
        return action, i

    def clone(self, rng: Rng | None = None) -> Any:
        """An independent copy; with `rng`, the copy draws from that RNG instead
        of a copy of this game's (bots simulating a sampled future)."""
        # compiled (mypyc) classes cannot be made by __new__ alone: a blank game
        twin = type(self)(self.setup, self.seed, _blank=True)
        twin.course = self.course  # meteo: with this race's weather
        twin.rng = rng or self.rng.clone()
        twin.riders = [r.copy() for r in self.riders]
        twin.pos = [p.copy() for p in self.pos]
        twin.cells = self.cells.copy()
        twin.round = self.round
        twin.events = self.events.copy()
        twin.winner = self.winner
        twin.actions = self.actions.copy()
        twin.public_cache = self.public_cache
        self._clone_into(twin)
        return twin

    def _clone_into(self, twin) -> None:
        """Hook: copy the rule set's own attributes (each list and dict copied)."""
