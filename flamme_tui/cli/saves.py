"""Commands around save files: `--resume`, `replay`, and the headless race
with autosave (`race --autosave DIR`, `race --from FILE`) used by the kill
tests and handy for bug reports.

A failed save in a headless race is said once on stderr, when it happens,
and the command then ends with exit status 1 (the race was played to its
end, but not all of it is on disk), naming what the file holds."""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from .. import saves
from ..engine.rules import find
from ..i18n import N_, _, ngettext
from ..usertext import clean
from ..words import team_name

if TYPE_CHECKING:
    from ..play.session import Session


def _complain(message: str) -> int:
    print(clean(_("flamme-tui: {problem}").format(problem=message), multiline=False), file=sys.stderr)
    return 2


def _branch_note(session: Session) -> str:
    """The line that says a backup goes on as a new race file."""
    backup = session.branch_of
    assert backup is not None
    base = saves._base_of(backup)
    return _("{backup} is an older version of {base}: going on from it as the new race file {path} ({base} and "
             "its backups are left as they are)").format(backup=backup.name, base=base.name, path=session.save_path)


def cmd_resume(target: str | None) -> int:
    """Open the app on a saved race (the newest one not finished by default)."""
    path: Path | None = Path(target) if target else saves.latest_in_progress()
    if path is None:  # a folder that cannot be listed is not an empty one
        return _complain(saves.folder_problem() or _("no race in progress to resume in {folder}").format(
            folder=saves.saves_dir()))
    try:
        session = saves.load(path)
    except saves.SaveError as exc:
        hint = ""
        race = exc.race_file()
        if race is not None:
            hint = _("; `flamme-tui --resume {race}` resumes the race file").format(race=race[0])
        elif exc.backups:
            hint = _("; `flamme-tui --resume {backup}` goes on from that backup as a new race file").format(
                backup=exc.backups[0][0])
        return _complain(f"{exc}{hint}")
    if session.over and (session.tour is None or len(session.tour.done) + 1 == session.tour.stages):
        held = (_("{path} holds a finished race; showing its replay") if session.tour is None
                else _("{path} holds a finished tour; showing its replay")).format(path=path)
        print(clean(_("flamme-tui: {problem}").format(problem=held), multiline=False), file=sys.stderr)
        return cmd_replay(str(path), text=False)
    if session.branch_of is not None:
        print(clean(_("flamme-tui: {problem}").format(problem=_branch_note(session)), multiline=False), file=sys.stderr)
    try:
        autosave = saves.attach_autosave(session)
    except saves.SaveLocked as exc:
        return _complain(str(exc))
    if autosave.error is not None:
        print(_("flamme-tui: warning: could not save the race: {problem}").format(
            problem=saves.save_problem(autosave.error)), file=sys.stderr)
    import inspect

    from ..ui.app import run

    params = inspect.signature(run).parameters
    if "session" not in params and not any(p.kind is p.VAR_KEYWORD for p in params.values()):
        autosave.detach()
        return _complain(_("this app cannot open a saved race yet; try `flamme-tui race --from {path}` "
                           "or `flamme-tui replay {path}`").format(path=path))
    return run(session=session) or 0


def cmd_replay(target: str, text: bool = False) -> int:
    from ..saves import load_replay

    try:
        replay = load_replay(target)
    except saves.SaveError as exc:
        return _complain(str(exc))
    if text:
        print(clean(replay.text()))
        return 0
    from ..ui.replay import run

    return run(replay)


# ------------------------------------------------------------ race --from

# what `race` options mean next to --from: a saved race keeps its setup
_KEPT = {
    "seed": N_("a saved race keeps its seed"),
    "stage": N_("a saved race keeps its course"),
    "circuit": N_("a saved race keeps its course"),
    "ramp": N_("a saved race keeps its course"),
    "young": N_("a saved race keeps its rules"),
    "forecast": N_("a saved race keeps its rules"),
}


def _given(args: argparse.Namespace) -> set[str]:
    """The `race` options given on the command line (not left to their default)."""
    argv = getattr(args, "argv", None)
    if argv is None:
        return set()
    from . import build_parser

    parser = build_parser()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                for option in sub._actions:
                    option.default = argparse.SUPPRESS
    return set(vars(parser.parse_args(argv))) - {"command"}


def _finish_plan(args: argparse.Namespace, session: Session) -> str | None:
    """Check the `race` options against the saved race and set the bots of
    the seats; what is wrong, in one line (None if nothing)."""
    from ..bots import POLICIES

    given = _given(args)
    setup, game = session.setup, session.game
    for name, why in _KEPT.items():
        if name in given:
            return _("race --from: --{option} cannot be used: {why}").format(option=name, why=_(why))
    if "variant" in given and find(args.variant) is not game.rules:
        return _("race --from: --variant {variant}: the saved race is {saved}").format(
            variant=args.variant, saved=game.variant)
    # --teams and --players say who races, --breakaway how it starts: each must agree with the saved race
    n = len(setup.teams)
    seats_of = ngettext("{n} team", "{n} teams", n).format(n=n)
    one_rider = not game.rules.uses_tokens and all(len(t.riders) == 1 for t in setup.teams)
    if one_rider:
        seats_of = ngettext("{n} player racing one rider each", "{n} players racing one rider each", n).format(n=n)
    if "teams" in given and (one_rider or args.teams != len(setup.teams)):
        return _("race --from: --teams {n}: the saved race has {seats}").format(n=args.teams, seats=seats_of)
    if "players" in given and (not one_rider or args.players != len(setup.teams)):
        return _("race --from: --players {n}: the saved race has {seats}").format(n=args.players, seats=seats_of)
    if "breakaway" in given and not getattr(setup, "breakaway", False):
        return _("race --from: --breakaway: the saved race has no breakaway (a saved race keeps its rules)")
    seats = range(len(setup.teams))
    scripted = [bool(game.script[seat]) for seat in seats]
    humans = [seat for seat in seats if not scripted[seat] and seat not in session.bots]
    names = [b for b in args.bots.split(",") if b] if "bots" in given else []
    if len(names) == 1:
        names = [names[0] if not scripted[seat] else game.script[seat] for seat in seats]
    if names:
        if len(names) != len(setup.teams):
            return _("race --from: --bots: give {n} names, one per seat of the saved race").format(n=len(setup.teams))
        for seat, name in zip(seats, names, strict=True):
            if scripted[seat] and name != game.script[seat]:
                return _("race --from: --bots: seat {seat} is the scripted {team} team").format(
                    seat=seat + 1, team=game.script[seat])
            if not scripted[seat] and name not in POLICIES:
                return _("race --from: --bots: seat {seat} needs a bot ({bots}), got {name}").format(
                    seat=seat + 1, bots=", ".join(POLICIES), name=repr(name))
    if humans and not args.bots_for_humans:
        who = ", ".join(team_name(setup, seat) for seat in humans)
        return _("race --from: {file} has human seats ({who}): add --bots-for-humans to let bots finish it in a "
                 "new race file (the save is left as it is)").format(file=args.from_file, who=who)
    for seat in seats:
        if not scripted[seat]:
            session.bots[seat] = names[seat] if names else session.bots.get(seat, "easy")
    return None


_BOTS_SUFFIX = re.compile(r"-bots(-\d+)?$")


def finish_path(source: Path, folder: Path | None = None) -> Path:
    """The new race file a bot finish of `source` goes to: NAME-bots.json
    (NAME-bots-2.json, ... when taken), beside it or in `folder`."""
    base = saves._base_of(source)
    stem = base.name[: -len(saves.SUFFIX)] if base.name.endswith(saves.SUFFIX) else base.name
    stem = _BOTS_SUFFIX.sub("", stem)
    return saves._free_name(folder if folder is not None else base.parent, f"{stem}-bots")


def _bids_before(session: Session) -> int:
    """Choices made in the breakaway so far (a race saved while its bids were being made)."""
    from ..play.races import new_game

    game = new_game(session.setup, session.seed)
    made = 0
    for action in session.game.actions:
        made += game.phase == "breakaway"
        game.apply(action)
    return made if game.phase == "breakaway" else 0


def cmd_race_saved(args, spec, bots: dict[int, str]) -> int:
    """A headless race played through a Session with autosave, every seat by a
    bot, printed round by round like `race`.  With --from, a saved race is
    finished in a new race file (its own file is never written), and
    nothing that was face down when it was saved is printed."""
    from ..play.narrator import (
        cli_says,
        hidden_breakaway,
        hidden_round,
        race_heading,
        ranking_lines,
        resumed_words,
        round_report,
        start_lines,
    )
    from ..play.replay import round_cards
    from ..play.session import Session

    hidden = 0  # cards chosen face down before the save, in the round in progress
    hidden_bids = 0  # choices made in the breakaway before the save
    if args.from_file:
        source = Path(args.from_file)
        try:
            session = saves.load(source)
        except saves.SaveError as exc:
            return _complain(str(exc))
        problem = _finish_plan(args, session)
        if session.tour is not None:
            problem = _("race --from: {file} holds a tour: `flamme-tui tour --from {file}` finishes it").format(
                file=args.from_file)
        if problem:
            return _complain(problem)
        if session.over:
            print(clean(_("{path} holds a finished race").format(path=source)))
            for line in ranking_lines(session.game):
                print(clean(line))
            return 0
        hidden = round_cards(session.setup, session.seed, session.game.actions)
        hidden_bids = _bids_before(session)
        target = finish_path(source, Path(args.autosave) if args.autosave else None)
        session.save_path, session.branch_of = None, None
        session.race_id = f"{session.race_id}-bots"
    else:
        session = Session.new(spec, args.seed, bots)
        target = None
    from . import budget_of

    session.budget = budget_of(args)  # the expert thinks as `race` without a save would (--budget, --rollouts)
    game = session.game
    out = sys.stdout

    def failed(exc: Exception) -> None:  # once for each run of failed writes
        print(_("flamme-tui: could not save the race: {problem}; the race goes on").format(
            problem=saves.save_problem(exc)), file=sys.stderr, flush=True)

    try:
        autosave = saves.attach_autosave(session, target, directory=args.autosave, on_error=failed)
    except saves.SaveLocked as exc:
        return _complain(str(exc))
    if args.from_file:
        print(clean(_("flamme-tui: finishing {file} with bots in the new race file {path} ({file} is left as it "
                      "is)").format(file=args.from_file, path=autosave.path), multiline=False), file=sys.stderr,
              flush=True)
    print(clean(_("autosave: {path}").format(path=autosave.path), multiline=False), file=sys.stderr, flush=True)
    trace = args.trace
    pause = args.slow / 1000

    def after(session, action) -> None:
        # runs after the autosave listener: the action is on disk when we say so
        if trace and autosave.saved:
            out.write(f"saved {len(session.entries)}\n")
            out.flush()
        if pause:
            time.sleep(pause)

    session.listeners.append(after)
    first = game.round
    if args.from_file:
        print(clean(resumed_words(game)))
    else:
        print(clean(race_heading(game, args.seed)))
        for line in start_lines(game):
            print(clean(line))
    if trace and autosave.saved:
        out.write(f"saved {len(session.entries)}\n")
    out.flush()
    if game.phase == "breakaway":
        from . import play_breakaway

        lines = play_breakaway(session)
        if args.from_file and hidden_bids:
            # bids were chosen face down before the save: say who broke away, nothing of the cards
            result = next(e for e in game.events if e.kind == "breakaway")
            lines = [hidden_breakaway(game, hidden_bids, result.winners)]
        for line in lines:
            print(clean(line))
    while not session.over:
        if game.round > 500:
            return _complain(_("race did not end within 500 rounds"))
        before = game.round
        session.play_bots()
        if game.round != before or session.over:
            if before == first and hidden:
                # its first cards were face down when the race was saved: say nothing of them
                print(clean(hidden_round(game, before, hidden)))
            else:
                print(clean("\n".join(round_report(game))))
    print(cli_says("final ranking"))
    for line in ranking_lines(game):
        print(clean(line))
    out.flush()
    if not autosave.saved:
        on_disk = autosave.saved_actions
        n = len(session.entries)
        held = _("nothing") if on_disk is None else ngettext("{saved} of {n} action", "{saved} of {n} actions", n).format(
            saved=on_disk, n=n)
        problem = saves.save_problem(autosave.error) if autosave.error else _("not saved")
        print(clean(_("flamme-tui: the race was not fully saved: {path} holds {held} ({problem})").format(
            path=autosave.path, held=held, problem=problem), multiline=False), file=sys.stderr)
        return 1
    return 0
