"""`flamme-tui stages list` and `flamme-tui stages check PATH...`."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from .. import config, stagegen
from ..i18n import _, ngettext
from ..pathtext import show_path
from ..usertext import clean
from ..words import source as source_word
from ..words import stage_kind, stage_name


def stage_files(paths: list[str], out: Callable[[str], object] = print) -> list[Path]:
    """The files named, folders expanded to their *.yaml / *.yml entries.
    A folder that cannot be listed is said (one line) and skipped."""
    found: list[Path] = []
    for text in paths:
        path = Path(text)
        if stagegen.is_code(text):
            found.append(path)  # a code, checked as a file is (check)
            continue
        try:
            is_dir = path.is_dir()
        except OSError:
            is_dir = False  # reading it will say what is wrong
        if not is_dir:
            found.append(path)
            continue
        try:
            found.extend(config.stage_files_in(path))
        except OSError as exc:
            out(str(config.ConfigError(_("cannot list folder: {problem}").format(problem=exc.strerror or exc), file=path)))
    return found


def check(paths: list[str], out=print) -> int:
    """Print every problem as `file:line: field: message`; 0 if none, else 2."""
    files = stage_files(paths, out)
    bad = 0
    if not files:
        out(_("flamme-tui: stages check: no stage files found"))
        return 2
    for path in files:
        if stagegen.is_code(str(path)):
            stage, problems = _check_code(str(path))
        else:
            stage, problems = config.check_stage_file(path)
        if stage is not None:
            try:
                summary = config.stage_summary(stage)
            except config.ConfigError as exc:
                problems = [exc]
        if problems:
            bad += 1
            for problem in problems:
                out(clean(problem, multiline=False))
        else:
            where = _("code") if stagegen.is_code(str(path)) else show_path(path)
            out(clean(_("{where}: ok: {name}, {length} squares, {ascent} climb, {descent} descent").format(
                where=where, name=summary.name, length=summary.length, ascent=summary.ascent, descent=summary.descent),
                multiline=False))
    if bad:
        out(ngettext("{bad} of {n} stage file with problems", "{bad} of {n} stage files with problems",
                     len(files)).format(bad=bad, n=len(files)))
        return 2
    return 0


def listing(out=print) -> int:
    """The stages a race can use, built-in and the user's."""
    rows = [(_("id"), _("name"), _("length"), _("climb"), _("descent"), _("kind"), _("boxes"), _("source"))]
    notes: list[str] = []
    for entry in config.stage_entries():
        # names come from files (the id from a file name): every cell is cleaned before it is measured
        source = source_word(entry.source) + (_(" (hidden: a built-in stage has this id)") if entry.shadowed else "")
        try:
            bad_id = config.id_problem(entry)
            if bad_id is not None:
                raise bad_id
            stage = config.load_stage(entry.path)
            summary = config.stage_summary(stage)
        except config.ConfigError as exc:
            rows.append((clean(entry.id, multiline=False), _("(broken)"), "-", "-", "-", "-", "-", source))
            notes.append(clean(exc, multiline=False))
            continue
        boxes = stage.boxes or stagegen.boxes_needed(config.split_tiles(stage.tiles))
        rows.append((clean(entry.id, multiline=False), clean(stage_name(summary.name), multiline=False), str(summary.length),
                     str(summary.ascent), str(summary.descent), stage_kind(stagegen.stage_kind(summary)), "+".join(boxes),
                     source))
    widths = [max(len(r[c]) for r in rows) for c in range(len(rows[0]))]
    for row in rows:
        cells = [cell.rjust(w) if 2 <= c <= 4 else cell.ljust(w) for c, (cell, w) in enumerate(zip(row, widths))]
        out("  ".join(cells).rstrip())
    out(clean(_("user stages: {folder}").format(folder=config.user_stages_dir()), multiline=False))
    problem = config.user_stages_problem()
    if problem is not None:
        notes.insert(0, clean(problem, multiline=False))
    for note in notes:
        out(note)
    return 0


def _check_code(text: str) -> tuple[config.StageSpec | None, list[config.ConfigError]]:
    try:
        return stagegen.stage_from_code(text), []
    except config.ConfigError as exc:
        return None, [exc]


def random_stage(seed: int | None, length: str, kind: str, boxes: str, out=print) -> int:
    """Print a random stage: its code (race it with `race --stage CODE`) and its
    stage file (save it in the user stages folder to keep it)."""
    import secrets

    import yaml

    if seed is None:
        seed = secrets.randbelow(10**6)
    try:
        stage = stagegen.random_stage(seed, length, kind, tuple(b.strip() for b in boxes.split(",")))
        summary = config.stage_summary(stage)
    except config.ConfigError as exc:
        print(clean(_("flamme-tui: stages random: {problem}").format(problem=exc), multiline=False), file=sys.stderr)
        return 2
    out(_("code: {code}").format(code=stagegen.stage_code(stage)))
    out(_("{length} squares, {ascent} climb, {descent} descent, {cobbles} cobbles ({kind}); race it: "
          "flamme-tui race --stage {code}").format(length=summary.length, ascent=summary.ascent, descent=summary.descent,
                                                  cobbles=summary.cobbles, kind=stage_kind(stagegen.stage_kind(summary)),
                                                  code=stagegen.stage_code(stage)))
    out("---")
    data = {"name": stage.name, "tiles": stage.tiles, "boxes": list(stage.boxes), "source": stage.source}
    out(yaml.safe_dump(data, sort_keys=False, allow_unicode=True).rstrip())
    return 0
