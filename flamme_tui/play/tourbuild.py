"""Building a tour in the app (issue 28 item 4): stages from the library,
the user's own and random ones, in race order, saved as a user tour file.
No Textual here: the tour screens (ui/screens/tour_menus.py) ask this.

A random stage joins a tour by its one-line code (`fr1:...`), which a tour
file may name as it names a stage id: the code says the whole course.  A tour
is checked as a tour file is (tours.TourSpec, then every stage loaded) before
it is written, and the file written is read back through check_tour_file.
"""

from __future__ import annotations

import secrets
from pathlib import Path

import yaml

from .. import config, stagegen
from ..config import ConfigError
from ..i18n import _
from . import tours
from .stagebuild import write_new

RANDOM_KINDS = stagegen.CLIMB_KINDS


def random_leg(kind: str = "hilly", seed: int | None = None) -> str:
    """The code of a new random stage of medium length from the base box (a
    tour's stages race with any number of teams and boxes)."""
    seed = secrets.randbelow(10**6) if seed is None else seed
    return stagegen.stage_code(stagegen.random_stage(seed, "medium", kind, ("base",)))


def leg_name(stage: str) -> str:
    """A tour leg in words: its stage's name, or "Random stage fr1:..." for a code."""
    if stagegen.is_code(stage):
        return _("Random stage {code}").format(code=stage)
    try:
        return config.load_stage(stage).name
    except ConfigError:
        return stage


def tour_spec(name: str, legs: list[tuple[str, str]], description: str = "") -> tours.TourSpec:
    """The tour of those legs (stage id or code, variant), checked as a tour
    file is: ConfigError in one line naming the field if it is not a tour."""
    data = {"name": name, "stages": [{"stage": sid, "variant": variant} for sid, variant in legs]}
    if description:
        data["description"] = description
    spec: tours.TourSpec = config.from_data(tours.TourSpec, data)
    for k, leg in enumerate(spec.stages):
        try:
            config.stage_summary(config.load_stage(tours._stage_ref(leg.stage)))
        except ConfigError as exc:
            raise ConfigError(exc.message, field=f"stages[{k}].stage") from None
    return spec


def tour_id(name: str) -> str:
    """The id (file name) a tour is saved as; ConfigError if the name gives
    none or is a shipped tour's id (a user tour of that id would be hidden)."""
    tid = config.slugify(name)
    if not tid:
        raise ConfigError(_("the name needs a letter or a digit (the file is named after it)"), field="name")
    if (tours.builtin_tours_dir() / f"{tid}.yaml").exists():
        raise ConfigError(_("{id} is a shipped tour's id: choose another name").format(id=repr(tid)), field="name")
    return tid


def tour_yaml(spec: tours.TourSpec) -> str:
    data: dict = {"name": spec.name}
    if spec.description:
        data["description"] = spec.description
    for lang in ("fr", "es"):  # its description in French, Spanish, as its file gave them
        words = getattr(spec, lang)
        if words is not None:
            data[lang] = words.model_dump(exclude_defaults=True)
    data["stages"] = [{"stage": leg.stage, "variant": leg.variant} for leg in spec.stages]
    head = "# " + _("A tour built in flamme-tui: stage ids (or codes, fr1:...) in race order, each classic or meteo.") + "\n"
    return head + yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=1000)


def save_tour(spec: tours.TourSpec, folder: Path | None = None) -> tuple[str, Path]:
    """Write the tour to the user tours folder as `ID.yaml` (never over a
    file: ConfigError then); (id, path).  OSError if the folder cannot be written."""
    folder = folder or tours.user_tours_dir()
    tid = tour_id(spec.name)
    path = folder / f"{tid}.yaml"
    for taken in (path, folder / f"{tid}.yml"):
        if taken.is_symlink() or taken.exists():
            raise ConfigError(_("a tour file {name} is already there: choose another name").format(name=repr(taken.name)),
                              field="name")
    write_new(path, tour_yaml(spec).encode())
    read, problems = tours.check_tour_file(path)  # what the tour menu will read
    if read is None:  # cannot happen for a spec checked above; said rather than hidden
        raise ConfigError(_("saved, but the file does not read back: {problem}").format(problem=problems[0]), field="name")
    return tid, path
