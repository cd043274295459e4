"""The stage menu's content: the stages a rule set can race, grouped by box
and kind, narrowed by the player's filter.  No Textual here: the stage
screen draws what this returns.

A stage's box is what a player must own to lay it: "base" (the base box's
tiles only) or "base + Peloton".  Its kind comes from its terrain
(stagegen.stage_kind): flat, hilly, mountain, or cobbles.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .. import config, stagegen
from ..engine.rules import find
from ..i18n import _
from ..words import stage_name

BOX_FILTERS: Final = ("all", "base", "peloton")  # all boxes, base box only, with the Peloton box
KIND_FILTERS: Final = ("all", *stagegen.KINDS)
BOX_TITLES: Final = {("base",): "base", ("base", "peloton"): "base + Peloton"}


@dataclass(frozen=True, slots=True)
class StageRow:
    id: str
    name: str
    boxes: tuple[str, ...]
    kind: str
    length: int
    ascent: int

    @property
    def box_title(self) -> str:
        return BOX_TITLES.get(self.boxes, " + ".join(self.boxes))


def races_stages(variant: str) -> bool:
    """Whether the rule set races a stage of tiles (bmx races its own circuit)."""
    return not find(variant).uses_tokens


def stage_row(sid: str, stage: config.StageSpec) -> StageRow | None:
    """The menu's row of a stage; None if it does not build (its tiles broke)."""
    try:
        summary = config.stage_summary(stage)
    except config.ConfigError:
        return None
    boxes = tuple(stage.boxes) or stagegen.boxes_needed(config.split_tiles(stage.tiles))
    return StageRow(sid, stage_name(stage.name), boxes, stagegen.stage_kind(summary), summary.length, summary.ascent)


def rows_for(variant: str, stages: list[tuple[str, config.StageSpec]]) -> list[StageRow]:
    """The rows of the stages the rule set can race, in the order given."""
    if not races_stages(variant):
        return []
    rows = (stage_row(sid, stage) for sid, stage in stages)
    return [row for row in rows if row is not None]


def grouped(rows: list[StageRow], kind: str = "all", box: str = "all") -> list[tuple[str, list[StageRow]]]:
    """The rows the filter keeps, in groups "box · kind" (base box first, kinds
    in KINDS order; within a group, the order given)."""
    kept = [r for r in rows
            if (kind == "all" or r.kind == kind)
            and (box == "all" or (box == "base" and r.boxes == ("base",)) or (box == "peloton" and "peloton" in r.boxes))]
    order = {k: n for n, k in enumerate(stagegen.KINDS)}
    groups: dict[tuple[int, int], list[StageRow]] = {}
    for row in kept:
        groups.setdefault((len(row.boxes), order.get(row.kind, len(order))), []).append(row)
    out = []
    for key in sorted(groups):
        first = groups[key][0]
        box_word = "Peloton" if "peloton" in first.boxes else "base"  # short: the menu is narrow
        out.append((f"{first.kind} · {box_word}", groups[key]))
    return out


def next_filter(current: str, choices: tuple[str, ...]) -> str:
    """The filter after `current` (round to the first)."""
    return choices[(choices.index(current) + 1) % len(choices)] if current in choices else choices[0]


def random_choices(kind: str, box: str) -> tuple[str, tuple[str, ...], bool | None, bool] | None:
    """What Random stage draws for the menu's filter, so the stage is one the
    filter shows: (climb kind, boxes, cobbles, a Peloton tile) for
    stagegen.random_stage; None when no stage can be both (cobbles from the
    base box alone: the cobbles are the Peloton box's).

    Every kind: hilly.  A climb kind with the Peloton box: no cobbled side,
    or the stage's kind would be cobbles.  With the Peloton box: at least one
    of its tiles, or the stage would need the base box only."""
    if kind == "cobbles" and box == "base":
        return None
    peloton = box == "peloton"
    boxes = ("base", "peloton") if peloton or kind == "cobbles" else ("base",)
    climb = kind if kind in stagegen.CLIMB_KINDS else "hilly"
    cobbles = True if kind == "cobbles" else (False if kind != "all" and peloton else None)
    return climb, boxes, cobbles, peloton


def random_stage_code(seed: int, kind: str, box: str) -> str:
    """The code of a random medium stage the menu's filter shows
    (random_choices); ConfigError when the filter asks for what none can be."""
    choices = random_choices(kind, box)
    if choices is None:
        raise config.ConfigError(_("no stage has cobbles with the base box only: they are on the Peloton tiles"))
    climb, boxes, cobbles, peloton = choices
    return stagegen.stage_code(stagegen.random_stage(seed, "medium", climb, boxes, cobbles=cobbles, peloton=peloton))
