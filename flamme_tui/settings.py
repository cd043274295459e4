"""The player's settings: one small JSON file in the user config directory.

`load()` never fails: a missing file gives the defaults, an invalid one the
defaults plus one line saying what is wrong (the app shows it once).
`save()` writes atomically.  No Textual here: the app reads `Settings`, and
screens read `app.settings`.

    {"aids": true, "step_speed": "normal", "theme": "textual-dark",
     "bot_reasons": true, "bot_seconds": 1.0, "keys": {"race.confirm": "enter,ctrl+j"}}

`keys` maps a binding id (the settings screen lists them) to the keys that
trigger it, comma-separated, as Textual's keymaps do (Posting's idea).
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StringConstraints, ValidationError

from . import BOT_SECONDS, MAX_BOT_SECONDS, MIN_BOT_SECONDS

FILE_NAME = "settings.json"
MAX_BYTES = 64 * 1024  # a settings file is a few hundred bytes: anything bigger is not one

# seconds between two movement steps when they play by themselves
STEP_DELAYS = {"slow": 1.2, "normal": 0.7, "fast": 0.35}

BindingId = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_.-]{0,39}$")]
# Textual key names, comma-separated: "ctrl+s", "f2,question_mark"
KeyList = Annotated[str, StringConstraints(pattern=r"^[a-z0-9_+]{1,30}(,[a-z0-9_+]{1,30}){0,3}$")]
ThemeName = Annotated[str, StringConstraints(pattern=r"^[a-z0-9-]{1,40}$")]


class Settings(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, defer_build=True)

    aids: StrictBool = True  # the race screen's aids (previews, hints)
    step_speed: Literal["slow", "normal", "fast"] = "normal"
    theme: ThemeName = "textual-dark"
    bot_reasons: StrictBool = True  # the race log says why a bot chose its card
    # the expert bot's thinking time per decision, in seconds
    bot_seconds: float = Field(default=BOT_SECONDS, ge=MIN_BOT_SECONDS, le=MAX_BOT_SECONDS, allow_inf_nan=False)
    keys: dict[BindingId, KeyList] = Field(default_factory=dict, max_length=64)

    @property
    def step_delay(self) -> float:
        return STEP_DELAYS[self.step_speed]


def config_dir() -> Path:
    """$FLAMME_TUI_CONFIG_DIR if set, else the platform's user config directory."""
    override = os.environ.get("FLAMME_TUI_CONFIG_DIR")
    if override:
        return Path(override).expanduser()
    import platformdirs

    return Path(platformdirs.user_config_dir("flamme-tui", appauthor=False))


def settings_path() -> Path:
    return config_dir() / FILE_NAME


def _problem(exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err["loc"]) or "the file"
    return f"{where}: {err['msg']}"


def load(path: Path | None = None) -> tuple[Settings, str | None]:
    """(settings, None), or (the defaults, one line saying why they are used)."""
    path = settings_path() if path is None else path
    try:
        if not path.exists():
            return Settings(), None
        if not path.is_file():
            return Settings(), f"{path} is not a regular file; using the default settings"
        with path.open("rb") as f:
            raw = f.read(MAX_BYTES + 1)
    except OSError as exc:
        return Settings(), f"{path} cannot be read ({exc.strerror or exc}); using the default settings"
    if len(raw) > MAX_BYTES:
        return Settings(), f"{path} is larger than {MAX_BYTES // 1024} KiB; using the default settings"
    try:
        return Settings.model_validate_json(raw), None
    except ValidationError as exc:
        return Settings(), f"{path}: {_problem(exc)}; using the default settings"
    except (ValueError, RecursionError) as exc:  # pragma: no cover - pydantic reports JSON errors as ValidationError
        return Settings(), f"{path}: {exc}; using the default settings"


def save(settings: Settings, path: Path | None = None) -> Path:
    """Write the settings atomically (OSError if the directory cannot be written)."""
    path = settings_path() if path is None else path
    path.parent.mkdir(parents=True, exist_ok=True)
    data = json.dumps(settings.model_dump(), indent=2, sort_keys=True).encode("utf-8") + b"\n"
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    return path
