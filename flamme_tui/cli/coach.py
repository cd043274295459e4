"""`flamme-tui coach SAVE`: the coach's lessons from a finished race, as text.

Only a finished race is coached: the expert's choice at a decision names a
card the seat held, which no other player may learn while the race goes on."""

from __future__ import annotations

import sys

from .. import saves
from ..usertext import clean


def cmd_coach(target: str, budget) -> int:
    from ..play.coach import coach, humans, report_lines

    try:
        record = saves.load_record(target)
    except saves.SaveError as exc:
        print(clean(f"flamme-tui: {exc}", multiline=False), file=sys.stderr)
        return 2
    if record.data.summary.phase != "over":
        print(clean(f"flamme-tui: {target} holds a race in progress: the coach looks at finished races only "
                    f"(its answers name cards a seat held)", multiline=False), file=sys.stderr)
        return 2
    seats = humans(record.setup, record.seed, record.bots)
    print(clean(f"Coach: {record.info.describe()} (the expert on {budget})"))
    print()
    lessons = coach(record.setup, record.seed, record.actions, seats, budget)
    print(clean("\n".join(report_lines(lessons))))
    return 0
