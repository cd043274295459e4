"""The hot-seat controller between the engine and the UI: the one turn loop.

A session is a race spec, a seed and the list of actions so far: replaying
them rebuilds the game exactly.  Every committed action goes through
`apply`, so listeners (autosave, the UI) hear of each one.  Whose turn it is
comes from `turns` (`due`); bot seats are played here, from their views only:
`play_bots` plays them at once, and `bot_move` + `play` split a bot's turn in
two so the thinking can run in a worker thread (see `BotMove`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from ..bots import DEFAULT, Budget, Decision, decide
from ..engine.actions import Action
from ..engine.phase import Phase
from ..engine.view import View
from .races import RaceSpec, make_setup, new_game
from .turns import next_seat, turns


class BotMove(NamedTuple):
    """A bot seat asked for its next action, in the position of `at` actions.

    `think()` reads only `view`, a value built when the move was asked for,
    never the game: it may run in another thread while the game stands still
    or is read.  Its result goes back through `Session.play`, on the thread
    that owns the session, which refuses it if the game moved on meanwhile.
    """

    seat: int
    policy: str  # a name in bots.POLICIES
    view: View
    at: int  # len(game.actions) when the view was taken
    budget: Budget = DEFAULT  # how long a searching bot (expert) may think

    def think(self) -> Decision:
        """The bot's action with its public and full reasons ("" for bots that give none)."""
        return decide(self.policy, self.view, self.budget)


class Session:
    """Build with `Session.new(spec, seed)`; a saved race comes back with its
    embedded setup: `Session(setup, seed, bots, actions)`."""

    def __init__(self, setup: Any, seed: int, bots: dict[int, str] | None = None, actions=()) -> None:
        self.seed = seed
        self.bots = dict(bots or {})  # seat -> policy name
        self.budget: Budget = DEFAULT  # the expert's thinking time (the player's setting, or --budget)
        self.setup = setup  # ClassicSetup or BmxSetup: the course and rules data, embedded
        self.game = new_game(setup, seed)
        self.listeners: list[Callable[[Session, Action], None]] = []
        # set by saves.load / saves.attach_autosave: the race file this session writes to,
        # its race id and first save time, and the backup it was continued from (a branch)
        self.save_path: Path | None = None
        self.race_id: str | None = None
        self.created: str | None = None
        self.branch_of: Path | None = None
        self.tour: Any = None  # a tour's stage: the play.tours.Tour of the stages before it
        for action in actions:
            self.game.apply(action)

    @classmethod
    def new(cls, spec: RaceSpec, seed: int, bots: dict[int, str] | None = None) -> Session:
        return cls(make_setup(spec), seed, bots)

    @property
    def over(self) -> bool:
        return self.game.phase == Phase.OVER

    def is_bot(self, seat: int) -> bool:
        return seat in self.bots

    def due(self) -> int | None:
        """Whose turn it is: the seat that acts next, None once the race is over."""
        return next_seat(self.game)

    def apply(self, action: Action | str) -> None:
        """Commit one action (raises RuleError if illegal, changing nothing)."""
        if isinstance(action, str):
            action = Action.parse(action)
        self.game.apply(action)
        for listener in self.listeners:
            listener(self, action)

    # ------------------------------------------------------------------ bots

    def bot_move(self) -> BotMove:
        """The bot whose turn it is, ready to think about its next action."""
        seat = self.due()
        if seat is None or seat not in self.bots:
            raise RuntimeError(f"no bot to play now (seat {seat} is due)")
        return BotMove(seat, self.bots[seat], self.game.view(seat), len(self.game.actions), self.budget)

    def play(self, move: BotMove, action: Action) -> None:
        """Commit a bot's action thought out from `move`: only in the position
        the bot saw (RuntimeError otherwise: nothing changes)."""
        if len(self.game.actions) != move.at or self.due() != move.seat:
            raise RuntimeError(f"the bot of seat {move.seat} answered a position that is gone")
        self.apply(action)

    def play_bots(self) -> list[tuple[int, Action, str]]:
        """Play the bots, in turn order, until a human is due, the round is
        resolved or the race is over; returns (seat, action, reason) of each
        action ("" for bots that give no reason)."""
        done: list[tuple[int, Action, str]] = []
        for seat in turns(self.game):
            if seat not in self.bots:
                break
            move = self.bot_move()
            decision = move.think()
            self.play(move, decision.action)
            # the full reason may name hidden cards: for headless output, never the table
            done.append((seat, decision.action, decision.full))
        return done

    def actions_text(self) -> list[str]:
        return [str(a) for a in self.game.actions]
