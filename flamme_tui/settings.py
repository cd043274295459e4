"""The player's settings: one small JSON file in the user config directory.

`load()` never fails: a missing file gives the defaults, an invalid one the
defaults plus one line saying what is wrong (the app shows it once).  The
file is read as every user file is (files.py: a regular file, bounded).
`save()` changes only the settings that changed, in the file as it is on
disk (other keys, unknown ones included, stay), atomically and under a lock.  No Textual here: the app reads `Settings`, and
screens read `app.settings`.

    {"aids": true, "step_speed": "off", "theme": "textual-dark",
     "bot_reasons": true, "bot_seconds": 1.0, "keys": {"race.confirm": "enter,ctrl+j"},
     "language": "fr"}

`keys` maps a binding id (the settings screen lists them) to the keys that
trigger it, comma-separated, as Textual's keymaps do (Posting's idea).
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StringConstraints, ValidationError, field_validator

from . import BOT_SECONDS, MAX_BOT_SECONDS, MIN_BOT_SECONDS, files, pydantic_words, usertext
from .i18n import N_, _
from .pathtext import show_path

FILE_NAME = "settings.json"
# a settings file is a few hundred bytes: anything bigger is not one
SETTINGS_FILE = files.FileKind(N_("settings file"), 64 * 1024, 8)

# seconds between two movement steps when they play by themselves ("off": each
# step waits for a key); the race screen's `p` key goes through them in order
STEP_DELAYS = {"slow": 1.2, "normal": 0.7, "fast": 0.35}
STEP_SPEEDS = ("off", *STEP_DELAYS)

BindingId = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_.-]{0,39}$")]
# Textual key names, comma-separated: "ctrl+s", "f2,question_mark"
KeyList = Annotated[str, StringConstraints(pattern=r"^[a-z0-9_+]{1,30}(,[a-z0-9_+]{1,30}){0,3}$")]
ThemeName = Annotated[str, StringConstraints(pattern=r"^[a-z0-9-]{1,40}$")]


class Settings(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, defer_build=True)

    aids: StrictBool = True  # the race screen's aids (previews, hints)
    step_speed: Literal["off", "slow", "normal", "fast"] = "off"  # the step-through's pace
    theme: ThemeName = "textual-dark"
    bot_reasons: StrictBool = True  # the race log says why a bot chose its card
    # the expert bot's thinking time per decision, in seconds
    bot_seconds: float = Field(default=BOT_SECONDS, ge=MIN_BOT_SECONDS, le=MAX_BOT_SECONDS, allow_inf_nan=False)
    keys: dict[BindingId, KeyList] = Field(default_factory=dict, max_length=64)
    # the language the app speaks: "" = the environment's (i18n.from_environment); --lang beats it
    language: Literal["", "en", "fr", "es"] = ""
    # the race's hint key (what the expert would play): "off", "solo" (one person racing against bots)
    # or "all" (every person at the table: the race log says each hint asked for)
    hints: Literal["off", "solo", "all"] = "off"

    @field_validator("hints", mode="before")
    @classmethod
    def _hints_were_a_switch(cls, value: object) -> object:
        """Settings files before the three choices held true (one person only) or false."""
        if value is True:
            return "solo"
        return "off" if value is False else value

    @property
    def step_delay(self) -> float | None:
        """Seconds between two steps playing by themselves (None: they wait for keys)."""
        return STEP_DELAYS.get(self.step_speed)


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
    where = pydantic_words.where(err) or _("the file")
    return f"{where}: {pydantic_words.message(err)}"  # the key as written, the words in the player's language


def load(path: Path | None = None) -> tuple[Settings, str | None]:
    """(settings, None), or (the defaults, one line saying why they are used)."""
    path = settings_path() if path is None else path
    try:  # no file there (nor any that could be: a file on its path): the defaults, silently
        if not path.exists() and not path.is_symlink():  # a symlink loop is said below
            return Settings(), None
    except OSError:
        pass  # reading it says why
    try:
        raw, _stat = files.read_bytes(path, SETTINGS_FILE)
        files.check_json_depth(raw.decode("utf-8", "replace"), SETTINGS_FILE)
    except files.ReadError as exc:  # a loop, a FIFO, a device, too big, too deep: said, never hidden
        if exc.code == files.MISSING:
            return Settings(), None
        return Settings(), _defaults_because(path, exc.reason)
    try:
        return Settings.model_validate_json(raw), None
    except ValidationError as exc:
        return _salvaged(raw, exc, path)
    except (ValueError, RecursionError) as exc:  # pragma: no cover - pydantic reports JSON errors as ValidationError
        return Settings(), _defaults_because(path, str(exc))


def _salvaged(raw: bytes, exc: ValidationError, path: Path) -> tuple[Settings, str]:
    """A settings file with some bad or unknown settings (one from a newer
    version, say, or a key bound to nothing): the others are used, and one
    line says what was left out.  The defaults if the file is no JSON object."""
    try:
        data = json.loads(raw)
    except ValueError:
        data = None
    if not isinstance(data, dict):
        return Settings(), _defaults_because(path, _problem(exc))
    left_out = []
    for err in exc.errors():
        loc = err["loc"]
        if len(loc) >= 2 and loc[0] == "keys" and isinstance(data.get("keys"), dict):
            data["keys"].pop(loc[1], None)  # one key binding, not the whole keymap
        elif loc:
            data.pop(loc[0], None)
        left_out.append(pydantic_words.where(err))
    try:
        kept = Settings.model_validate_json(json.dumps(data))
    except ValidationError:
        return Settings(), _defaults_because(path, _problem(exc))
    more = _(" (and {n} more)").format(n=len(left_out) - 1) if len(left_out) > 1 else ""
    why = _("{problem}{more}; left out, the other settings are used").format(problem=_problem(exc), more=more)
    return kept, usertext.clean(f"{show_path(path)}: {why}", multiline=False)


def _defaults_because(path: Path, why: str) -> str:
    """The one line the app shows: the file, what is wrong with it, what is done
    (control characters, of a key in the file or of its name, written out)."""
    return usertext.clean(_("{file}: {why}; using the default settings").format(file=show_path(path), why=why),
                          multiline=False)


class SettingsFileError(OSError):
    """The settings file is there but cannot be merged into: it is left as it is."""


def save(settings: Settings, path: Path | None = None, *, before: Settings | None = None) -> Path:
    """Write the settings that differ from `before` (every setting when None)
    into the file as it is on disk now: read, merge, write atomically, under a
    lock.  Every other key stays as the file has it: one this version does not
    know (a newer version's), one with a bad value, one another running
    flamme-tui changed meanwhile.  OSError if the directory cannot be written;
    SettingsFileError (an OSError) if the file is there but holds no JSON object
    (a typo): it is left for the player to fix, never replaced by the defaults."""
    path = settings_path() if path is None else path
    path.parent.mkdir(parents=True, exist_ok=True)
    new = settings.model_dump()
    old = None if before is None else before.model_dump()
    with _lock(path):
        data = _on_disk(path)
        for name, value in new.items():
            if old is None:
                data[name] = value
            elif name == "keys" and isinstance(data.get("keys"), dict):
                for binding in set(old["keys"]) | set(value):  # only the bindings changed
                    if old["keys"].get(binding) != value.get(binding):
                        if binding in value:
                            data["keys"][binding] = value[binding]
                        else:
                            data["keys"].pop(binding, None)
            elif old[name] != value:
                data[name] = value
        _write(path, json.dumps(data, indent=2, sort_keys=True).encode("utf-8") + b"\n")
    return path


def _on_disk(path: Path) -> dict:
    """The settings file's JSON object ({} when there is none), or SettingsFileError."""
    try:
        raw, _stat = files.read_bytes(path, SETTINGS_FILE)
        if not raw.strip():
            return {}
        text = raw.decode("utf-8")
        files.check_json_depth(text, SETTINGS_FILE)
        data = json.loads(text)
    except files.ReadError as exc:
        if exc.code == files.MISSING:
            return {}
        why = exc.reason
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        why = _("not valid JSON ({problem})").format(problem=str(exc).split(":")[0][:60])
    else:
        if isinstance(data, dict):
            return data
        why = _("not a JSON object")
    raise SettingsFileError(
        errno.EINVAL,
        usertext.clean(f"{show_path(path)}: {why}; fix or delete it (the change holds until you quit)", multiline=False),
    )


@contextlib.contextmanager
def _lock(path: Path) -> Iterator[None]:
    """An exclusive lock beside the file (.settings.json.lock) while it is read,
    merged and written, so two running apps never undo each other's change.
    Waits at most 2 s (a lock held longer is a stuck process: then unlocked)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: the merge alone
        yield
        return
    fd = os.open(path.with_name(f".{path.name}.lock"), os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o600)
    try:
        for _attempt in range(200):
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                time.sleep(0.01)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def _write(path: Path, data: bytes) -> None:
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
