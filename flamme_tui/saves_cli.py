"""Commands around save files: `--resume`, `replay`, and the headless race
with autosave (`race --autosave DIR`, `race --from FILE`) used by the kill
tests and handy for bug reports."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from . import saves


def _complain(message: str) -> int:
    print(f"flamme-tui: {message}", file=sys.stderr)
    return 2


def cmd_resume(target: str | None) -> int:
    """Open the app on a saved race (the newest one in progress by default)."""
    if target:
        path = Path(target)
    else:
        path = saves.latest_in_progress()
        if path is None:
            return _complain(f"no race in progress to resume in {saves.saves_dir()}")
    try:
        session = saves.load(path)
    except saves.SaveError as exc:
        return _complain(str(exc))
    if session.over:
        print(f"flamme-tui: {path} holds a finished race; showing its replay", file=sys.stderr)
        return cmd_replay(str(path), text=False)
    saves.attach_autosave(session)
    import inspect

    from .ui.app import run

    params = inspect.signature(run).parameters
    if "session" not in params and not any(p.kind is p.VAR_KEYWORD for p in params.values()):
        return _complain(f"this app cannot open a saved race yet; try `flamme-tui race --from {path}` "
                         f"or `flamme-tui replay {path}`")
    return run(session=session) or 0


def cmd_replay(target: str, text: bool = False) -> int:
    from .replay import load_replay

    try:
        replay = load_replay(target)
    except saves.SaveError as exc:
        return _complain(str(exc))
    if text:
        print(replay.text())
        return 0
    from .ui.replay import run

    return run(replay)


def cmd_race_saved(args, spec, bots: dict[int, str]) -> int:
    """A headless race played through a Session with autosave, every seat by a
    bot (`bots`; a saved race keeps its own bots, the easy one for the other
    seats), printed round by round like `race`."""
    from .races import positions_text, ranking_lines, round_report, track_picture
    from .session import Session

    if args.from_file:
        try:
            session = saves.load(args.from_file)
        except saves.SaveError as exc:
            return _complain(str(exc))
        for seat in range(len(session.setup.teams)):
            if not session.game.script[seat]:
                session.bots.setdefault(seat, "easy")
    else:
        session = Session.new(spec, args.seed, bots)
    game = session.game
    seats = range(len(session.setup.teams))
    out = sys.stdout
    autosave = saves.attach_autosave(session, directory=args.autosave)
    print(f"autosave: {autosave.path}", file=sys.stderr, flush=True)
    trace = args.trace
    pause = args.slow / 1000

    def after(session, action) -> None:
        # runs after the autosave listener: the action is on disk when we say so
        if trace:
            out.write(f"saved {len(session.game.actions)}\n")
            out.flush()
        if pause:
            time.sleep(pause)

    session.listeners.append(after)
    if args.from_file:
        print(f"resumed {game.course.name} ({game.variant}) in round {game.round} after {len(game.actions)} actions")
    else:
        print(f"{game.course.name} ({game.variant}), seed {args.seed}, {len(seats)} teams")
        print(f"start:    {track_picture(game)}")
        print(f"          {positions_text(game)}")
    if trace:
        out.write(f"saved {len(game.actions)}\n")
    out.flush()
    while not session.over:
        if game.round > 500:
            return _complain("race did not end within 500 rounds")
        before = game.round
        session.play_bots()
        if game.round != before or session.over:
            print("\n".join(round_report(game)))
    print("Final ranking")
    for line in ranking_lines(game):
        print(line)
    return 0
