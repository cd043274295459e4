"""`flamme-tui coach SAVE [--stage K]`: the coach's lessons from a finished race,
or from a finished stage of a tour, as text.

Only a finished race is coached: the expert's choice at a decision names a
card the seat held, which no other player may learn while the race goes on.
A tour's stage is a race of its own (every stage deals new decks), so each
stage is coached once it is over, the tour going on or not; the stage being
raced is not."""

from __future__ import annotations

import sys

from .. import saves
from ..i18n import _, ngettext, short
from ..usertext import clean
from ..words import tour_name


def _fail(text: str) -> int:
    print(clean(_("flamme-tui: {problem}").format(problem=text), multiline=False), file=sys.stderr)
    return 2


def finished_stages(record) -> list[tuple]:
    """A tour save's finished stages, in order: (set-up, seed, log, course name) each."""
    from ..engine.phase import Phase
    from ..play.session import Session

    stages = [(d.game.setup, d.game.seed, d.entries, d.game.course.name) for d in record.tour.done]
    # the save's race: the stage being raced, or one just over (the next is not begun until a key is pressed)
    if Session(record.setup, record.seed, None, record.actions).game.phase == Phase.OVER:
        stages.append((record.setup, record.seed, record.actions, record.setup.course.name))
    return stages


def cmd_coach(target: str, budget, stage: int | None = None) -> int:
    from ..play.coach import coach, humans, report_lines

    try:
        record = saves.load_record(target)
    except saves.SaveError as exc:
        return _fail(str(exc))
    if record.tour is None:
        if stage is not None:
            return _fail(_("{file} holds a race, not a tour: --stage is for tours").format(file=target))
        if record.data.summary.phase != "over":
            return _fail(_("{file} holds a race in progress: the coach looks at finished races only (its answers "
                           "name cards a seat held)").format(file=target))
        setup, seed, actions, heading = record.setup, record.seed, record.actions, record.info.describe()
    else:
        stages = finished_stages(record)
        if not stages:
            return _fail(_("{file} holds a tour whose first stage is not over: the coach looks at finished "
                           "stages only").format(file=target))
        k = len(stages) if stage is None else stage
        if k > len(stages):
            return _fail(_("{file}: stage {k} of the tour is not over (finished: 1 to {n})").format(
                file=target, k=k, n=len(stages)))
        setup, seed, actions, name = stages[k - 1]
        heading = _("{tour}, stage {k} of {n}: {stage}").format(tour=tour_name(record.tour.name), k=k, n=record.tour.stages,
                                                               stage=name)
    from ..engine.rules import find
    from ..play.coach import worlds_for

    seats = humans(setup, seed, record.bots)
    spent = (ngettext("{n} simulated race", "{n} simulated races", budget.rollouts).format(n=budget.rollouts)
             if budget.rollouts is not None else _("{s} s of simulated races").format(s=short(budget.seconds)))
    # the budget as the lessons spend it (each lesson's "of M sampled races")
    said = (_("Coach: {race} (the expert chooses in {budget}, then its tokens and the tokens played race on in "
              "the same {m} sampled races)") if find(setup.variant).uses_tokens else
            _("Coach: {race} (the expert chooses in {budget}, then its card and the card played race on in the "
              "same {m} sampled races)"))
    print(clean(said.format(race=heading, budget=spent, m=worlds_for(budget))))
    print()
    lessons = coach(setup, seed, actions, seats, budget)
    print(clean("\n".join(report_lines(lessons))))
    return 0
