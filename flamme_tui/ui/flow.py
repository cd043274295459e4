"""The hot-seat flow of a race: whose turn it is, and the round replayed step by step.

`RaceFlow.current()` plays the bot seats that are due and says what a human
must do now (place a rider, pass the curtain, choose the rider that draws
first, pick a card) or that a resolved round waits to be shown.
`build_frames` turns the engine's events of the last round into frames the
track can show one by one.  No Textual here: the flow is tested directly too.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..engine.actions import Action, Draw, Place, Play, PlayTokens
from ..engine.classic import ENERGY, GRID, OVER
from ..races import describe_round, played_text
from ..session import Session


@dataclass(frozen=True, slots=True)
class Turn:
    kind: str  # "place", "curtain", "draw", "pick", "reveal", "over"
    seat: int | None = None
    rider: int | None = None


@dataclass(frozen=True, slots=True)
class Frame:
    """One step of a resolved round, as the track shows it."""

    kind: str  # reveal, move, slip, exhaust, die, catchup, fatigue, finish
    pos: tuple[tuple[int, int], ...]
    crashed: tuple[bool, ...]
    active: tuple[int, ...] = ()  # riders this step is about
    lines: tuple[str, ...] = ()  # the race log in words for this step
    trail: tuple[int, int] | None = None  # squares (from, to) of a move
    die: int | None = None
    marks: tuple[int, ...] = ()  # squares to mark (exhaustion, fatigue)


GROUPED = {"slip", "exhaust", "catchup", "fatigue"}
ATTACHED = {"crash", "standup", "ramp"}


def build_frames(game, start_pos, start_crashed) -> list[Frame]:
    """The last resolved round of `game` as frames, from the positions before it."""
    words = describe_round(game)
    events = [e for e in game.events if e[0] != "reveal"]
    if len(words) != len(events):  # cannot pair words with events: show them all at the end
        words_for = [()] * len(events)
        tail_words = tuple(words)
    else:
        words_for = [(w,) for w in words]
        tail_words = ()
    pos = [tuple(p) for p in start_pos]
    crashed = list(start_crashed)
    lanes = game.course.lanes
    cells = {p: i for i, p in enumerate(pos)}
    frames: list[Frame] = [Frame("reveal", tuple(pos), tuple(crashed))]

    def push(kind, active, lines, trail=None, die=None, marks=()):
        frames.append(Frame(kind, tuple(pos), tuple(crashed), tuple(active), tuple(lines), trail, die, tuple(marks)))

    def amend(**changes):
        last = frames[-1]
        fields = {name: getattr(last, name) for name in Frame.__slots__}
        fields.update(changes)
        frames[-1] = Frame(**fields)

    def move_to(i, square, lane):
        cells.pop(pos[i], None)
        pos[i] = (square, lane)
        cells[pos[i]] = i

    for k, e in enumerate(events):
        kind, lines = e[0], words_for[k]
        if kind == "move":
            _, i, frm, to, lane = e[:5]
            move_to(i, to, lane)
            push("move", (i,), lines, trail=(frm, to))
        elif kind in ATTACHED and len(frames) > 1:
            i = e[1]
            if kind == "crash":
                crashed[i] = True
            elif kind == "standup":
                crashed[i] = False
            amend(pos=tuple(pos), crashed=tuple(crashed), lines=frames[-1].lines + lines)
        elif kind in ("slip", "catchup"):
            _, i, frm, to = e
            old_lane = pos[i][1]
            cells.pop(pos[i], None)
            choices = [old_lane, 1 - old_lane] if lanes[to] == 2 else [0]
            lane = next((ln for ln in choices if (to, ln) not in cells), choices[0])
            pos[i] = (to, lane)
            cells[pos[i]] = i
            if frames[-1].kind == kind:
                last = frames[-1]
                amend(pos=tuple(pos), active=last.active + (i,), lines=last.lines + lines)
            else:
                push(kind, (i,), lines, trail=None)
        elif kind in ("exhaust", "fatigue"):
            i = e[1]
            if frames[-1].kind == kind:
                last = frames[-1]
                amend(active=last.active + (i,), lines=last.lines + lines,
                      marks=last.marks + (pos[i][0],))
            else:
                push(kind, (i,), lines, marks=(pos[i][0],))
        elif kind == "die":
            push("die", (), lines, die=e[1])
        elif kind == "finish":
            push("finish", (e[1],), lines)
        else:
            push(kind, (), lines)
    # the engine has the last word on where everyone stands
    final = tuple(tuple(p) for p in game.pos)
    final_crashed = tuple(bool(getattr(r, "crashed", False)) for r in game.riders)
    amend(pos=final, crashed=final_crashed, lines=frames[-1].lines + tail_words)
    return frames


@dataclass(slots=True)
class Replay:
    """A resolved round being shown: its frames and the step on screen."""

    round: int
    frames: list[Frame]
    revealed: tuple  # (rider, played) for every rider
    step: int = 0
    logged: int = 0  # frames whose lines went to the log already

    @property
    def frame(self) -> Frame:
        return self.frames[self.step]

    @property
    def at_end(self) -> bool:
        return self.step >= len(self.frames) - 1


@dataclass(slots=True)
class Stats:
    catchup: list[int] = field(default_factory=list)  # bmx catch-up squares per rider


class RaceFlow:
    """Turn order for hot-seat play over a Session."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.log: list[str] = []
        self.passed: int | None = None  # seat whose curtain is lifted
        self.replay: Replay | None = None
        n = len(session.game.riders)
        self.stats = Stats(catchup=[0] * n)
        self._start_round = -1
        self._reasons: list[str] = []  # bots' reasons, logged once the cards are revealed
        self.show_reasons = True  # the player's setting (app.settings.bot_reasons)
        self._start_pos: list[tuple[int, int]] = []
        self._start_crashed: list[bool] = []
        name = self.game.course.name
        self.log.append(f"{name}: {self.variant_name} race")  # the seed waits for the podium
        self._snapshot()

    # ------------------------------------------------------------- facts

    @property
    def game(self):
        return self.session.game

    @property
    def variant_name(self) -> str:
        return {"bmx": "BMX"}.get(self.game.variant, self.game.variant.capitalize())

    @property
    def n_seats(self) -> int:
        return len(self.game.setup.teams)

    def humans(self) -> list[int]:
        return [s for s in range(self.n_seats) if not self.session.is_bot(s) and not self.game.script[s]]

    @property
    def hot_seat(self) -> bool:
        """Curtains are needed only when two or more people share the screen."""
        return len(self.humans()) > 1

    def team_name(self, seat: int) -> str:
        return self.game.setup.teams[seat].name

    def team_id(self, seat: int) -> str:
        return self.game.setup.teams[seat].colour

    def kind_name(self, i: int) -> str:
        kind = self.game.riders[i].kind
        return {"S": "Sprinteur", "R": "Rouleur"}.get(kind, "rider")

    # -------------------------------------------------------------- turns

    def current(self) -> Turn:
        """Play the bots that are due; then what a human has to do now."""
        game = self.game
        while True:
            if self.replay is not None:
                return Turn("reveal")
            if game.phase == OVER:
                return Turn("over")
            if game.phase == GRID:
                seat = game.to_move()[0]
                if self.session.is_bot(seat):
                    self._play_bot(seat)
                    continue
                return Turn("place", seat, game.to_place())
            seat = next((s for s in range(self.n_seats) if game.needs(s)), None)
            if seat is None:  # cannot happen: the last play resolves the round
                raise RuntimeError("nobody to play and the round is not resolved")
            if self.session.is_bot(seat):
                self._play_bot(seat)
                continue
            if self.hot_seat and self.passed != seat:
                return Turn("curtain", seat)
            view = game.view(seat)
            if view.hands:
                return Turn("pick", seat, next(iter(view.hands)))
            return Turn("draw", seat)

    def lift_curtain(self, seat: int) -> None:
        self.passed = seat

    def act(self, action: Action) -> None:
        """A human's action (raises RuleError if illegal)."""
        self._snapshot()
        before = (self.game.round, self.game.phase)
        self.session.apply(action)
        self._note(action, bot=False)
        self._after(before)

    def _play_bot(self, seat: int) -> None:
        self._snapshot()
        before = (self.game.round, self.game.phase)
        policy = self.session.bots[seat]
        start = self.game.round
        played: list[Action] = []
        while self.game.phase == before[1] and self.game.round == start and self.game.needs(seat):
            action, reason = self._bot_action(seat, policy)
            self.session.apply(action)
            played.append(action)
            if isinstance(action, Place):
                self._note(action, bot=True)
            elif reason and self.show_reasons and not isinstance(action, Draw):
                # a reason may name the card: it waits for the reveal
                self._reasons.append(f"{self.team_name(seat)} (bot, {policy}): {reason}")
        drew = [a for a in played if isinstance(a, Draw)]
        if any(isinstance(a, (Play, PlayTokens)) for a in played):
            who = f"{self.team_name(seat)} (bot)"
            if drew:
                first = self.kind_name(self.game.index[drew[0].rider])
                self.log.append(f"{who}: {first} draws first; cards chosen")
            else:
                what = "token" if self.game.variant == "bmx" else "card"
                self.log.append(f"{who} has chosen its {what}s")
        self._after(before)

    def _bot_action(self, seat: int, policy_name: str) -> tuple[Action, str]:
        from .. import bots

        view = self.game.view(seat)
        explainer = getattr(bots, "EXPLAINERS", {}).get(policy_name)
        if explainer is not None:
            return explainer(view)
        return bots.POLICIES[policy_name](view), ""

    def _note(self, action: Action, bot: bool) -> None:
        """The public side of a human's action (or a bot's placement), in words."""
        game = self.game
        i = game.index[action.rider]
        seat_name = self.team_name(game.riders[i].seat)
        who = f"{seat_name} (bot)" if bot else seat_name
        if isinstance(action, Place):
            self.log.append(f"{who} places the {self.kind_name(i)} on square {action.square}, lane {action.lane}")
        elif isinstance(action, Draw):
            self.log.append(f"{who}: {self.kind_name(i)} draws first")

    def _snapshot(self) -> None:
        game = self.game
        if game.phase == ENERGY and self._start_round != game.round:
            self._start_round = game.round
            self._start_pos = [tuple(p) for p in game.pos]
            self._start_crashed = [bool(getattr(r, "crashed", False)) for r in game.riders]
            self.log.append(f"── Round {game.round} ──")

    def _after(self, before: tuple[int, str]) -> None:
        game = self.game
        if before[1] == GRID and game.phase == ENERGY:
            self._snapshot()
            return
        resolved = game.round != before[0] or (game.phase == OVER and before[1] != OVER)
        if not resolved:
            return
        done = before[0]
        for e in game.events:
            if e[0] == "catchup":
                self.stats.catchup[e[1]] += e[3] - e[2]
        revealed = next((e[1] for e in game.events if e[0] == "reveal"), ())
        frames = build_frames(game, self._start_pos, self._start_crashed)
        if self._reasons:
            first = frames[0]
            frames[0] = Frame(**{**{f: getattr(first, f) for f in Frame.__slots__},
                                 "lines": first.lines + tuple(self._reasons)})
            self._reasons = []
        self.replay = Replay(done, frames, revealed)
        self.passed = None

    # ------------------------------------------------------------- replay

    def step(self, delta: int = 1) -> None:
        replay = self.replay
        if replay is None:
            return
        replay.step = max(0, min(len(replay.frames) - 1, replay.step + delta))
        self._log_frames(replay.step + 1)

    def skip(self) -> None:
        if self.replay is not None:
            self.replay.step = len(self.replay.frames) - 1
            self._log_frames(len(self.replay.frames))

    def _log_frames(self, upto: int) -> None:
        replay = self.replay
        while replay.logged < upto:
            self.log.extend("  " + line.strip() if line.startswith(" ") else line
                            for line in replay.frames[replay.logged].lines)
            replay.logged += 1

    def finish_replay(self) -> None:
        """The players have seen the round: on to the next one."""
        if self.replay is not None:
            self.skip()
            self.replay = None
            self._snapshot()

    def played_text(self, played) -> str:
        return played_text(self.game, played)
