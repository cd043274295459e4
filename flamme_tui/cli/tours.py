"""`flamme-tui tours list`, `flamme-tui tours check PATH...` and `flamme-tui tour`
(a whole tour headless; with --autosave or --from saved after every action,
as the kill tests need)."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from ..i18n import _, ngettext
from ..pathtext import show_path
from ..play import tours
from ..usertext import clean
from ..words import source as source_word
from ..words import team_name, tour_name
from .saves import _complain
from .stages import stage_files


def check(paths: list[str], out=print) -> int:
    """Print every problem as `file:line: field: message`; 0 if none, else 2.
    Names come from files: every line is cleaned of control characters."""
    files = stage_files(paths, out)
    if not files:
        out(_("flamme-tui: tours check: no tour files found"))
        return 2
    bad = 0
    for path in files:
        spec, problems = tours.check_tour_file(path)
        if problems or spec is None:
            bad += 1
            for problem in problems:
                out(clean(problem, multiline=False))
        else:  # the name and the path come from the file system: cleaned before they reach the terminal
            stages = ngettext("{n} stage", "{n} stages", len(spec.stages)).format(n=len(spec.stages))
            out(clean(_("{file}: ok: {name}, {stages}").format(file=show_path(path), name=spec.name, stages=stages),
                      multiline=False))
    if bad:
        out(ngettext("{bad} of {n} tour file with problems", "{bad} of {n} tour files with problems",
                     len(files)).format(bad=bad, n=len(files)))
        return 2
    return 0


def listing(out=print) -> int:
    """The tours `flamme-tui tour --tour ID` can race, built-in and the user's."""
    rows = [(_("id"), _("name"), _("stages"), _("source"))]
    notes: list[str] = []
    for entry in tours.tour_entries():
        source = source_word(entry.source) + (_(" (hidden: a built-in tour has this id)") if entry.shadowed else "")
        spec, problems = tours.check_tour_file(entry.path)
        # the id is a file name, the name from the file: cleaned before they are measured
        tid = clean(entry.id, multiline=False)
        if spec is None:
            rows.append((tid, _("(broken)"), "-", source))
            notes += [clean(p, multiline=False) for p in problems[:1]]
            continue
        rows.append((tid, clean(tour_name(spec.name), multiline=False), str(len(spec.stages)), source))
    widths = [max(len(r[c]) for r in rows) for c in range(len(rows[0]))]
    for row in rows:
        out("  ".join(cell.rjust(w) if c == 2 else cell.ljust(w) for c, (cell, w) in enumerate(zip(row, widths))).rstrip())
    out(clean(_("user tours: {folder}").format(folder=tours.user_tours_dir()), multiline=False))
    problem = tours.user_tours_problem()
    if problem is not None:
        notes.insert(0, clean(problem, multiline=False))
    for note in notes:
        out(note)
    return 0


# ------------------------------------------------------------------ tour


def _new_tour(args):
    """The tour and bots the options ask for, or a problem in one line."""
    from ..engine.race import Team
    from ..play.races import COLOURS, RaceSpec, seat_plan
    from ..words import bot_level, colour_name
    from . import _seat_names, checked

    if args.tour is not None and args.stages is not None:
        return None, _("tour: give --tour or --stages, not both")
    spec = tours.stages_option(args.stages) if args.stages is not None else tours.load_tour(args.tour or "3-petit-tour")
    names = [b for b in args.bots.split(",") if b] or ["easy"]
    if len(names) == 1:
        names *= 4
    variant = tours.seat_rules(spec)
    problem = None if 2 <= len(names) <= 4 else _("tour: --bots: give 2 to 4 seats")
    problem = problem or _seat_names(names, variant, len(names), "tour: --bots")
    if problem:
        return None, problem
    bots, scripted = seat_plan(names)
    teams = tuple(Team(colour_name(c), c) for c in COLOURS[: len(names)])
    for leg in spec.stages:  # the engine's word on these seats, before the first stage is raced
        checked(RaceSpec(variant=leg.variant, stage=leg.stage, teams=teams, scripted=scripted))
    stages = ngettext("{n} stage", "{n} stages", len(spec.stages)).format(n=len(spec.stages))
    seats = _(", ").join(_("{seat} ({bot})").format(seat=t.name, bot=bot_level(names[s])) for s, t in enumerate(teams))
    print(clean(_("{tour}, {stages}, seed {seed}: {seats}").format(tour=tour_name(spec.name), stages=stages, seed=args.seed,
                                                                  seats=seats), multiline=False))
    return tours.stage_session(tours.Tour.new(spec, teams, args.seed, scripted), bots), None


def _saved_tour(args):
    """A saved tour to finish with bots (its file is left as it is), or a problem."""
    from .. import saves
    from ..bots import POLICIES
    from .saves import _given, finish_path

    given = _given(args) & {"tour", "stages", "seed", "bots"}
    if given:
        return None, _("tour --from: {options}: a saved tour keeps its stages, seed and seats").format(
            options=", ".join("--" + g for g in sorted(given)))
    source = Path(args.from_file)
    try:
        session = saves.load(source)
    except saves.SaveError as exc:
        return None, str(exc)
    if session.tour is None:
        return None, _("tour --from: {file} holds a race, not a tour: use `flamme-tui race --from`").format(
            file=args.from_file)
    humans = [seat for seat in range(len(session.setup.teams)) if not session.game.script[seat] and seat not in session.bots]
    if humans and not args.bots_for_humans:
        who = ", ".join(team_name(session.setup, seat) for seat in humans)
        return None, _("tour --from: {file} has human seats ({who}): add --bots-for-humans to let the easy bot finish "
                       "it in a new file (the save is left as it is)").format(file=args.from_file, who=who)
    for seat in humans:
        session.bots[seat] = "easy"
    assert all(name in POLICIES for name in session.bots.values())
    session.save_path = finish_path(source, Path(args.autosave) if args.autosave else None)
    session.branch_of = None
    session.race_id = f"{session.race_id}-bots"
    tour = session.tour
    n = len(session.game.actions)
    print(clean(ngettext("resumed {tour}: stage {k}/{stages} ({course}), round {round}, after {n} action",
                         "resumed {tour}: stage {k}/{stages} ({course}), round {round}, after {n} actions", n).format(
        tour=tour_name(tour.name), k=len(tour.done) + 1, stages=tour.stages, course=session.game.course.name,
        round=session.game.round, n=n), multiline=False))
    return session, None


def cmd_tour(args) -> int:
    """Race a whole tour with bots (or finish a saved one, --from): each
    stage's times, the GC and the TP after each stage, then the winner."""
    from .. import saves
    from ..play.narrator import final_report, tour_report
    from . import budget_of

    session, problem = _saved_tour(args) if args.from_file else _new_tour(args)
    if problem:
        return _complain(problem)
    session.budget = budget_of(args)  # every stage's (tours.next_session)
    out = sys.stdout
    saving = bool(args.autosave or args.from_file)
    autosave: saves.Autosave | None = None  # set by attach (a new one for each stage)

    told = False  # a failure was said and no write has worked since
    held: tuple[int, int, bool] | None = None  # what the file holds: (stage, actions, stage over), once written

    def note_held(session) -> None:
        nonlocal held
        if autosave is not None and autosave.saved:
            held = (len(session.tour.done) + 1, len(session.entries), session.over)

    def holds() -> str:
        """What the race file holds, in words: the last good save is kept."""
        if held is None:
            return _("nothing (no save was written)")
        stage, actions, over = held
        if over:
            return _("the last good save: stage {k}/{n} over").format(k=stage, n=session.tour.stages)
        return ngettext("the last good save: stage {k}/{n} after {actions} action",
                        "the last good save: stage {k}/{n} after {actions} actions", actions).format(
            k=stage, n=session.tour.stages, actions=actions)

    def failed(exc: Exception) -> None:
        # once for each run of failed writes: each stage has its own Autosave,
        # and a run of failures goes on from one stage into the next
        nonlocal told
        if not told:
            path = clean(show_path(autosave.path), multiline=False) if autosave is not None else _("the race file")
            print(_("flamme-tui: could not save the tour: {problem}; {file} keeps {held}; the tour goes on").format(
                problem=saves.save_problem(exc), file=path, held=holds()), file=sys.stderr, flush=True)
        told = True

    def after(session, action) -> None:
        nonlocal told
        note_held(session)
        if autosave is not None and autosave.saved:
            told = False  # saving works again: a new failure is said again
        # runs after the autosave listener: the action is on disk when we say so
        if args.trace and autosave is not None and autosave.saved:
            out.write(f"saved {len(session.tour.done) + 1} {len(session.entries)}\n")
            out.flush()
            if args.step:  # the kill test answers each report: it kills where it chose to, not when
                sys.stdin.readline()  # (at end of input: go on)
        if args.slow:
            time.sleep(args.slow / 1000)

    def attach(session) -> None:
        nonlocal autosave
        if saving:
            directory = args.autosave if session.save_path is None else None
            autosave = saves.attach_autosave(session, directory=directory, on_error=failed)
            note_held(session)
        session.listeners.append(after)

    try:
        attach(session)
    except saves.SaveLocked as exc:
        return _complain(str(exc))
    if autosave is not None:
        print(clean(f"autosave: {autosave.path}", multiline=False), file=sys.stderr, flush=True)
    while True:
        while not session.over:
            if session.game.round > 500:
                return _complain(_("a stage did not end within 500 rounds"))
            session.play_bots()
        tour = tours.standing(session)
        print()
        print("\n".join(clean(line) for line in tour_report(tour, tour.done[-1])))
        if tours.tour_over(session):
            break
        session = tours.next_session(session)
        try:
            attach(session)
        except saves.SaveLocked as exc:
            return _complain(str(exc))
    print()
    print("\n".join(clean(line) for line in final_report(tour)))
    out.flush()
    if autosave is not None and not autosave.saved:
        _complain(_("the tour was not fully saved: {file} holds {held} ({problem})").format(
            file=autosave.path, held=holds(), problem=saves.save_problem(autosave.error) if autosave.error else _("not saved")))
        return 1
    return 0
