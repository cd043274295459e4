"""`flamme-tui tours list`, `flamme-tui tours check PATH...` and `flamme-tui tour`."""

from __future__ import annotations

from ..engine import tour as rules
from ..pathtext import show_path
from ..play import tours
from ..usertext import clean
from .stages import stage_files


def check(paths: list[str], out=print) -> int:
    """Print every problem as `file:line: field: message`; 0 if none, else 2."""
    files = stage_files(paths)
    if not files:
        out("flamme-tui: tours check: no tour files found")
        return 2
    bad = 0
    for path in files:
        spec, problems = tours.check_tour_file(path)
        if problems or spec is None:
            bad += 1
            for problem in problems:
                out(clean(problem, multiline=False))
        else:  # the name and the path come from the file system: cleaned before they reach the terminal
            out(clean(f"{show_path(path)}: ok: {spec.name}, {len(spec.stages)} stages", multiline=False))
    if bad:
        out(f"{bad} of {len(files)} tour file{'s' * (len(files) > 1)} with problems")
        return 2
    return 0


def listing(out=print) -> int:
    """The tours `flamme-tui tour --tour ID` can race, built-in and the user's."""
    rows = [("id", "name", "stages", "source")]
    notes: list[str] = []
    for entry in tours.tour_entries():
        source = entry.source + (" (hidden: a built-in tour has this id)" if entry.shadowed else "")
        spec, problems = tours.check_tour_file(entry.path)
        if spec is None:
            rows.append((clean(entry.id, multiline=False), "(broken)", "-", source))
            notes += [clean(p, multiline=False) for p in problems[:1]]
            continue
        # ids and names come from files: every cell is cleaned before it is measured
        rows.append((clean(entry.id, multiline=False), clean(spec.name, multiline=False), str(len(spec.stages)), source))
    widths = [max(len(r[c]) for r in rows) for c in range(len(rows[0]))]
    for row in rows:
        out("  ".join(cell.rjust(w) if c == 2 else cell.ljust(w) for c, (cell, w) in enumerate(zip(row, widths))).rstrip())
    out(clean(f"user tours: {tours.user_tours_dir()}", multiline=False))
    for note in notes:
        out(note)
    return 0


def tour_report(tour: tours.Tour, done: tours.StageDone, name) -> list[str]:
    """What the headless `tour` command prints after a stage."""
    k = len(tour.done)
    game = done.game
    lines = [f"Stage {k}/{len(tour.spec.stages)}: {game.course.name} ({game.variant}), {game.round} rounds"]
    for line in done.result:
        lines.append(f"  {line.place:>2}. {name(game, line.rider):<24} {rules.gap_text(line.time):>7}")
    lines.append(f"GC after stage {k}")
    for g in tour.gc():
        lines.append(f"  {g.place:>2}. {name(game, g.rider):<24} {rules.gap_text(g.gap):>7}")
    teams = tour.teams
    ranked = rules.tp_ranking(tour.points(), tour.gc())
    final = " (with the final GC points)" if tour.over else ""
    lines.append(f"TP after stage {k}{final}: " + ", ".join(f"{teams[t.team].name} {t.value}" for t in ranked))
    return lines


def final_report(tour: tours.Tour) -> list[str]:
    teams = tour.teams
    ranked = rules.tp_ranking(tour.points(), tour.gc())
    lines = [f"Tour winner: {teams[ranked[0].team].name} ({ranked[0].value} TP)"]
    lines.append("Team classification: " + ", ".join(
        f"{teams[t.team].name} {rules.gap_text(t.value - rules.team_classification(tour.gc())[0].value)}"
        for t in rules.team_classification(tour.gc())))
    return lines
