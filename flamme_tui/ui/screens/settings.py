"""Settings: language, aids, step speed, theme, bot reasons, the expert bot's
thinking time and key bindings.

Every change is used at once and saved (flamme_tui.settings); the app keeps
the settings as one object, `app.settings`, that every screen reads.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from pydantic import ValidationError
from textual.binding import Binding
from textual.containers import Horizontal
from textual.content import Content
from textual.widgets import Input, Select, Static, Switch

from ... import MAX_BOT_SECONDS, MIN_BOT_SECONDS, i18n, pydantic_words
from ... import settings as user_settings
from ...i18n import N_, _
from ...pathtext import served, show_path
from ..content import plain
from ..keys import key_word
from ..widgets.cycle import CycleSelect
from ..widgets.keybar import KeyBar
from ..widgets.scrolling import OneThumbScroll
from .base import BaseScreen

if TYPE_CHECKING:
    from ..app import FlammeApp

SPEEDS = [(N_("off: keys only"), "off"), (N_("slow ({seconds} s a step)"), "slow"), (N_("normal ({seconds} s)"), "normal"),
          (N_("fast ({seconds} s)"), "fast")]


def speeds() -> list[tuple[str, str]]:
    """The step speeds in words, in the player's language (with its decimal mark)."""
    return [(_(label).format(seconds=i18n.short(user_settings.STEP_DELAYS.get(value, 0))), value)
            for label, value in SPEEDS]


def hint_choices() -> list[tuple[str, str]]:
    """Who may ask for a hint in a race, in words."""
    return [(_("off"), "off"), (_("on: one person racing against bots"), "solo"),
            (_("on: everyone (the log says who asks)"), "all")]


def languages() -> list[tuple[str, str]]:
    """The language choices: the environment's (named), then each language in its own name."""
    env = i18n.LANGUAGE_NAMES[i18n.from_environment()]
    return [(_("as the system says ({language})").format(language=env), ""),
            *((i18n.LANGUAGE_NAMES[code], code) for code in i18n.LANGUAGES)]


class SettingsScreen(BaseScreen):
    HELP_TOPIC = "settings"
    TEXT_FIELDS = True
    REDRAW_ON_LANGUAGE = True
    BINDINGS = [Binding("escape", "app.pop_screen", N_("Back"), id="settings.back")]

    @property
    def flamme(self) -> FlammeApp:
        return cast("FlammeApp", self.app)

    def compose(self) -> Any:
        from ..app import THEMES
        from ..keys import rebindable

        s = self.flamme.settings
        yield from self.compose_notice()  # type: ignore[no-untyped-call]
        with OneThumbScroll(classes="menu-body", id="settings-body"):
            yield Static(_("[b]Settings[/b] · saved at once"), classes="screen-title")
            with Horizontal(classes="form-row"):
                # the word "Language" in every language: a player who cannot read the current one finds it
                yield Static(_("Language") + ("" if i18n.language() == "en" else " · Language"), classes="settings-label")
                yield CycleSelect(languages(), value=s.language, allow_blank=False, compact=True, id="language")
            with Horizontal(classes="form-row"):
                yield Static(_("Aids on the race screen"), classes="settings-label")
                yield Switch(s.aids, id="aids")
                yield Static(self.on_off(s.aids, *self.DETAILS["aids"]), id="aids-word", classes="switch-word")
            with Horizontal(classes="form-row"):
                yield Static(_("Movement steps play by themselves"), classes="settings-label")
                yield CycleSelect(speeds(), value=s.step_speed, allow_blank=False, compact=True, id="step_speed")
            with Horizontal(classes="form-row"):
                yield Static(_("Theme"), classes="settings-label")
                # (← → step through each list, as on the teams screen)
                yield CycleSelect([(t, t) for t in THEMES], value=s.theme if s.theme in THEMES else THEMES[0],
                             allow_blank=False, compact=True, id="theme")
            with Horizontal(classes="form-row"):
                yield Static(_("Bots say why (race log)"), classes="settings-label")
                yield Switch(s.bot_reasons, id="bot_reasons")
                yield Static(self.on_off(s.bot_reasons), id="bot_reasons-word", classes="switch-word")
            with Horizontal(classes="form-row"):
                yield Static(_("Hint key in races"), classes="settings-label")
                yield CycleSelect(hint_choices(), value=s.hints, allow_blank=False, compact=True, id="hints")
            with Horizontal(classes="form-row"):
                # on two lines: what it is, then its unit and the key that applies it (a label of
                # the column's width cut it with an ellipsis)
                yield Static(_("Expert bot's thinking time (seconds; Enter applies)"),
                             classes="settings-label -wraps", id="bot_seconds-label")
                yield Input(i18n.short(s.bot_seconds), compact=True, max_length=8, id="bot_seconds",
                            classes="seconds-input")
            yield Static(_("[b]Keys[/b] (comma-separated Textual key names; Enter applies, empty = default)"),
                         id="keys-head")
            for b in rebindable():
                with Horizontal(classes="key-row"):
                    yield Static(Content(_("{where}: {what}").format(where=_(b.where), what=_(b.description))),
                                 classes="settings-label")
                    yield Input(s.keys.get(b.id, b.keys), placeholder=b.keys, compact=True,
                                id=f"key-{b.id.replace('.', '-')}", classes="key-input")
                    yield Static(Content(b.id), classes="key-id")
        # under the scrolling list, always in view: a refused key was said below thirty
        # rows of keys, out of sight, and the file's path with it
        yield Static("", id="settings-message")
        path = user_settings.settings_path()  # a browser player is shown no absolute path of the server
        shown = show_path(path) if served() else str(path)
        yield Static(plain(_("File: {path}").format(path=shown)), id="settings-path")  # a path of the user's
        yield KeyBar([("tab", _("next field")), (key_word("space"), _("switch")), (self.help_key, _("help")),
                      (self.key_of("settings.back", "escape"), _("back"))])

    # what a switch's state means, beside its on/off (N_: translated when shown)
    DETAILS = {"aids": (N_("where each card goes"), N_("the real table"))}

    @staticmethod
    def on_off(value: bool, on: str = "", off: str = "") -> str:
        """A switch's state in words beside it (its knob alone is a shade of grey under NO_COLOR)."""
        word = _("on") if value else _("off")
        detail = on if value else off
        return _("{state}: {detail}").format(state=word, detail=_(detail)) if detail else word

    _ready = False  # lists and switches post "changed" as they are first shown: not the player's doing

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#language", Select).focus()  # the first row: Enter opens its list, changing nothing yet
        self.call_after_refresh(setattr, self, "_ready", True)

    def on_descendant_focus(self, event: Any) -> None:
        """The focused field's label in reverse video: visible in every theme and without colour."""
        for row in self.query("#settings-body > Horizontal"):
            row.set_class(event.widget.parent is row, "-focused")

    def say(self, message: str, warning: bool = False) -> None:
        line = self.query_one("#settings-message", Static)
        line.update(Content(message))
        line.set_class(warning, "-warning")

    def change(self, **update: Any) -> None:
        """Validate, use and save a change (a bad value is refused with a message)."""
        data = self.flamme.settings.model_dump()
        data.update(update)
        try:
            new = user_settings.Settings.model_validate(data)
        except ValidationError as exc:
            err = exc.errors()[0]
            self.say(_("Not changed: {field}: {problem}").format(field=pydantic_words.where(err),
                                                                 problem=pydantic_words.message(err)), warning=True)
            return
        if not self._ready or new == self.flamme.settings:
            return
        old = self.flamme.settings
        problems = self.flamme.apply_settings(new)
        if problems:
            self.flamme.apply_settings(old)
            self.say(_("Not changed: {problems}").format(problems="; ".join(problems)), warning=True)
            return
        if self.flamme.save_settings(new):
            self.say(_("Saved."))

    def on_switch_changed(self, event: Switch.Changed) -> None:
        if event.value != getattr(self.flamme.settings, event.switch.id or ""):
            self.change(**{event.switch.id or "": event.value})
        for word in self.query(f"#{event.switch.id}-word").results(Static):
            word.update(self.on_off(getattr(self.flamme.settings, event.switch.id or ""),
                                    *self.DETAILS.get(event.switch.id or "", ("", ""))))

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "language" and self._ready and event.value != self.flamme.settings.language:
            i18n.forget_flag()  # the player's choice beats --lang from now on
            self.change(language=event.value)  # the app draws every screen again in it (use_language)
            return
        if event.select.id in ("step_speed", "theme", "hints") and \
                event.value != getattr(self.flamme.settings, event.select.id):
            self.change(**{event.select.id or "": event.value})

    def redrawn(self) -> None:
        """Composed again in the new language: the language list keeps the focus, as the player left it."""
        self._ready = False
        self.query_one("#language", Select).focus()
        self.call_after_refresh(setattr, self, "_ready", True)
        self.say(_("Saved."))

    def change_seconds(self, field: Input) -> None:
        """The expert's thinking time typed: a number of seconds in range, else refused (and shown as it is)."""
        text = field.value.strip()
        try:
            value = float(text.replace(",", "."))  # 0,5 as French and Spanish write it
        except ValueError:
            value = None
        if value is None or not MIN_BOT_SECONDS <= value <= MAX_BOT_SECONDS:  # NaN fails too
            message = _("Not changed: the expert's thinking time is {low} to {high} seconds").format(
                low=i18n.short(MIN_BOT_SECONDS), high=i18n.short(MAX_BOT_SECONDS))
            self.say(message, warning=True)
            self.notify(message, severity="warning", timeout=6, markup=False)  # the message line may be scrolled off
            field.value = i18n.short(self.flamme.settings.bot_seconds)
            return
        self.change(bot_seconds=value)
        field.value = i18n.short(self.flamme.settings.bot_seconds)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        from ..keys import rebindable

        event.stop()
        wid = event.input.id or ""
        if wid == "bot_seconds":
            self.change_seconds(event.input)
            return
        binding = next((b for b in rebindable() if f"key-{b.id.replace('.', '-')}" == wid), None)
        if binding is None:
            return
        keys = dict(self.flamme.settings.keys)
        value = event.value.strip().replace(" ", "")
        if not value or value == binding.keys:
            keys.pop(binding.id, None)
            event.input.value = binding.keys
        else:
            keys[binding.id] = value
        self.change(keys=keys)
        event.input.value = self.flamme.settings.keys.get(binding.id, binding.keys)  # as bound now (refused: as before)
