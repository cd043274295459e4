"""The hot-seat controller between the engine and the UI.

A session is a race spec, a seed and the list of actions so far: replaying
them rebuilds the game exactly.  Every committed action goes through
`apply`, so listeners (autosave, the UI) hear of each one.  Bot seats are
played here, from their views only.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from .bots import decide
from .engine.actions import Action
from .engine.classic import OVER
from .races import RaceSpec, make_setup, new_game


class Session:
    """Build with `Session.new(spec, seed)`; a saved race comes back with its
    embedded setup: `Session(setup, seed, bots, actions)`."""

    def __init__(self, setup, seed: int, bots: dict[int, str] | None = None, actions=()) -> None:
        self.seed = seed
        self.bots = dict(bots or {})  # seat -> policy name
        self.setup = setup  # ClassicSetup or BmxSetup: the course and rules data, embedded
        self.game = new_game(setup, seed)
        self.listeners: list[Callable[[Session, Action], None]] = []
        # set by saves.load / saves.attach_autosave: the race file this session writes to,
        # its race id and first save time, and the backup it was continued from (a branch)
        self.save_path: Path | None = None
        self.race_id: str | None = None
        self.created: str | None = None
        self.branch_of: Path | None = None
        for action in actions:
            self.game.apply(action)

    @classmethod
    def new(cls, spec: RaceSpec, seed: int, bots: dict[int, str] | None = None) -> Session:
        return cls(make_setup(spec), seed, bots)

    @property
    def over(self) -> bool:
        return self.game.phase == OVER

    def is_bot(self, seat: int) -> bool:
        return seat in self.bots

    def apply(self, action: Action | str) -> None:
        """Commit one action (raises RuleError if illegal, changing nothing)."""
        if isinstance(action, str):
            action = Action.parse(action)
        self.game.apply(action)
        for listener in self.listeners:
            listener(self, action)

    def play_bot(self, seat: int) -> list[tuple[Action, str]]:
        """Let a bot seat do everything it has to do now; returns its actions,
        each with the bot's full reason ("" for bots that give none): it may
        name hidden cards, so it is for headless output, never the table."""
        name = self.bots[seat]
        done: list[tuple[Action, str]] = []
        start = self.game.round
        while not self.over and self.game.round == start and self.game.needs(seat):
            view = self.game.view(seat)
            decision = decide(name, view)
            self.apply(decision.action)
            done.append((decision.action, decision.full))
        return done

    def actions_text(self) -> list[str]:
        return [str(a) for a in self.game.actions]
