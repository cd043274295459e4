"""The hot-seat controller between the engine and the UI: the one turn loop.

A session is a race spec, a seed and its log: every action so far, and the
`undo` entries of the hot-seat table (a player taking back the last card of
their turn before passing, see `undo`).  The game is the set-up and seed
with the log's effective actions (each undo withdraws the action before
it), so replaying the log rebuilds the game exactly.  Every entry goes
through `apply` or `undo`, so listeners (autosave, the UI) hear of each one.  Whose turn it is
comes from `turns` (`due`); bot seats are played here, from their views only:
`play_bots` plays them at once, and `bot_move` + `play` split a bot's turn in
two so the thinking can run in a worker thread (see `BotMove`).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from .. import limits
from ..bots import DEFAULT, Budget, Decision, decide
from ..engine.actions import Action, Bid, Draw, Play, PlayTokens
from ..engine.phase import Phase
from ..engine.turns import next_seat, turns
from ..engine.view import View
from ..i18n import _
from .races import RaceSpec, make_setup, new_game


def secret_seed() -> int:
    """A seed nobody can guess, from the whole range a save holds: a hosted table's.  The
    race is its set-up, seed and actions, and a device is sent the set-up and sees the grid
    and its own hands: from a seed of the menus' range (a million) it found the seed in half
    a minute by trying them all, then dealt every other hand itself."""
    return 1 + secrets.randbelow(limits.MAX_SEED)


UNDO = "undo"  # the log entry of a take-back: the action before it is withdrawn
Entry = Action | str  # a log entry: an action, or UNDO


class UndoRefused(RuntimeError):
    """An undo the table's rule does not allow (the game is left as it was)."""


def parse_entry(text: str) -> Entry:
    """A log entry from its text form (ActionError if it is neither an action nor `undo`)."""
    return UNDO if text == UNDO else Action.parse(text)


def effective(entries) -> list[Action]:
    """The actions a log leaves in force: each undo withdraws the action before it."""
    actions: list[Action] = []
    for entry in entries:
        if entry == UNDO:
            if actions:
                actions.pop()
        else:
            actions.append(entry)
    return actions


def undone(entries) -> dict[int, list[Action]]:
    """The actions a log's undos withdrew, by the number of effective actions
    the undo left (the withdrawn action's place in the effective log: the
    choice made again there is the one that counts)."""
    actions: list[Action] = []
    out: dict[int, list[Action]] = {}
    for entry in entries:
        if entry == UNDO:
            if actions:
                out.setdefault(len(actions) - 1, []).append(actions.pop())
        else:
            actions.append(entry)
    return out


def effective_length(entries) -> int:
    """How many actions are in force after a log's entries (each undo takes one back)."""
    n = 0
    for entry in entries:
        n = max(0, n - 1) if entry == UNDO else n + 1
    return n


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
    logged: int = -1  # len(session.entries) then (an undo and a new pick may bring `at` back)

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
        self.entries: list[Entry] = []  # the log: every action and undo, in order
        self.listeners: list[Callable[[Session, Entry], None]] = []
        # set by saves.load / saves.attach_autosave: the race file this session writes to,
        # its race id and first save time, and the backup it was continued from (a branch)
        self.save_path: Path | None = None
        self.race_id: str | None = None
        self.created: str | None = None
        self.branch_of: Path | None = None
        self.tour: Any = None  # a tour's stage: the play.tours.Tour of the stages before it
        # (seat, len(entries) then) of each hint shown (play/coach.py's `hint`): saved, never
        # an action, so replays do not see it; the podium marks those seats "with hints"
        self.hints: list[tuple[int, int]] = []
        for entry in actions:  # a saved log: actions and undos
            if entry == UNDO:
                self.undo(replaying=True)
            else:
                self.apply(entry)

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

    def lone_draw(self) -> Draw | None:
        """The draw a human seat due now has no choice in (None if it has one):
        in a tour stage, once a team's other rider has crossed the line, the
        one rider left draws first, as a player racing one rider does (the
        engine draws for that one: ClassicGame.draw_lone).  Asking "which rider
        draws first?" with one answer is no question: the table plays this for
        the seat (RaceFlow), as the usual `draw` action, so a save and its
        replays read as ever.  (A hosted table and the command line ask as
        before: neither races tours today.)"""
        seat = self.due()
        game = self.game
        if seat is None or self.is_bot(seat) or game.phase != Phase.ENERGY:
            return None
        view = game.view(seat)
        if view.hands:  # a card to pick (even one card: the player plays it)
            return None
        options = view.options()
        if len(options) == 1 and isinstance(options[0].action, Draw):
            return options[0].action
        return None

    def apply(self, action: Action | str) -> None:
        """Commit one action (raises RuleError if illegal, changing nothing)."""
        if isinstance(action, str):
            action = Action.parse(action)
        self.game.apply(action)
        self.entries.append(action)
        for listener in self.listeners:
            listener(self, action)

    # ------------------------------------------------------------------ undo

    def undo_refusal(self, replaying: bool = False) -> str | None:
        """Why the last action cannot be taken back now (None: it can).

        The hot-seat table's rule (not Flamme Rouge's, so not the engine's): a
        human seat may take back the last card (tokens) of its turn in the
        round, the pick after which it has nothing left to choose (or its
        breakaway bid: the review catches a slip there too), and only
        while that pick is the log's last entry.  So never the first rider's
        card once the second rider has drawn (the seat still had a card to
        pick), never a bot's action, never twice in a row (that would reach
        an earlier action).  That the seat has not passed the keyboard and
        that no reveal was shown is the screen's to know: RaceFlow.take_back.
        `replaying` a saved log, who plays a seat now does not count: a seat
        a person played may be a bot's since (`race --from --bots-for-humans`)."""
        last = self.entries[-1] if self.entries else None
        if last is None or last == UNDO:
            return _("there is no card to take back")
        assert isinstance(last, Action)
        if not isinstance(last, (Play, PlayTokens, Bid)):
            return _("only a card (tokens) just played can be taken back")
        game = self.game
        i = game.index[last.rider]
        seat = game.riders[i].seat
        if game.script[seat] or (seat in self.bots and not replaying):
            return _("a bot's card is never taken back")
        # a card lies face down until its round is resolved: none left means the pick resolved it
        resolved = game.phase == Phase.OVER or game.riders[i].played is None
        if not resolved and game.needs(seat):
            return _("the seat has another card to play: only its last card can be taken back")
        return None

    def _rebuilt(self, actions) -> Any:
        game = new_game(self.setup, self.seed)
        for action in actions:
            game.apply(action)
        return game

    def undo(self, replaying: bool = False) -> Action:
        """Take back the last action (UndoRefused, changing nothing, unless
        `undo_refusal` allows it): the game is rebuilt from the set-up, the
        seed and the actions before it, and UNDO joins the log.  Returns the
        action taken back."""
        why = self.undo_refusal(replaying)
        if why is not None:
            raise UndoRefused(why)
        last = self.game.actions[-1]
        self.game = self._rebuilt(self.game.actions[:-1])
        self.entries.append(UNDO)
        for listener in self.listeners:
            listener(self, UNDO)
        return last

    # ------------------------------------------------------------------ bots

    def bot_move(self) -> BotMove:
        """The bot whose turn it is, ready to think about its next action."""
        seat = self.due()
        if seat is None or seat not in self.bots:
            raise RuntimeError(f"no bot to play now (seat {seat} is due)")
        return BotMove(seat, self.bots[seat], self.game.view(seat), len(self.game.actions), self.budget,
                       len(self.entries))

    def play(self, move: BotMove, action: Action) -> None:
        """Commit a bot's action thought out from `move`: only in the position
        the bot saw (RuntimeError otherwise: nothing changes)."""
        stale = move.logged >= 0 and move.logged != len(self.entries)
        if stale or len(self.game.actions) != move.at or self.due() != move.seat:
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

    def took_hint(self, seat: int) -> None:
        """A hint was shown to `seat` now (see `hints`)."""
        self.hints.append((seat, len(self.entries)))

    def hinted(self) -> dict[int, int]:
        """Seat -> hints shown to it."""
        out: dict[int, int] = {}
        for seat, _at in self.hints:
            out[seat] = out.get(seat, 0) + 1
        return out

    def actions_text(self) -> list[str]:
        """The log as text: every action and undo (what a save holds)."""
        return [str(e) for e in self.entries]

    @property
    def has_undo(self) -> bool:
        return UNDO in self.entries
