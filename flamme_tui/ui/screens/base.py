"""What every screen of the app shares: the "terminal too small" notice and help."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.binding import Binding
from textual.geometry import Region
from textual.notifications import SeverityLevel
from textual.screen import Screen
from textual.strip import Strip
from textual.widgets import Static

from ...i18n import N_, _
from ..widgets.lines import LineWidget

HELP_KEYS = "question_mark,f1"  # the help's keys unless the player's keymap says others

if TYPE_CHECKING:
    from textual import getters

    from ..app import FlammeApp

MIN_WIDTH, MIN_HEIGHT = 80, 24
# At least this tall, a screen gets the class -tall (richer layouts).
TALL = 32
WIDE = 110
# the keys that still work behind the too-small notice (ctrl+q is an app-wide binding)
QUIT_KEYS = ("q", "ctrl+q", "ctrl+c")


class TooSmall(Static):
    """Shown instead of everything else while the terminal is below the minimum."""

    def update_size(self, width: int, height: int) -> None:
        self.update(_(
            "[b]Terminal too small[/b]\n\n"
            "This window is {width}×{height}.\n"
            "Flamme Rouge needs at least {min_width}×{min_height}.\n\n"
            "Enlarge the window or make the font smaller:\n"
            "the game comes back as soon as it fits.\n\n"
            "To quit: {key}."
        ).format(key="q", width=width, height=height, min_width=MIN_WIDTH, min_height=MIN_HEIGHT))


class BaseScreen(Screen):
    """A screen with the too-small notice, size classes and `?` help."""

    HELP_TOPIC = "menus"
    BINDINGS = [Binding(HELP_KEYS, "help", N_("Help"), id="help")]
    TEXT_FIELDS = False  # a screen with text fields: its key bar names a help key they do not take (help_key)
    # drawn again (composed anew) when the player changes the language (FlammeApp.language_changed);
    # a screen holding what a player typed, or a race, redraws its words its own way or on its next showing
    REDRAW_ON_LANGUAGE = False

    if TYPE_CHECKING:
        # for the type checker only: these screens run in FlammeApp, whose
        # methods they call (at run time Textual's own `app` property answers)
        app = getters.app(FlammeApp)

    def compose_notice(self):
        yield TooSmall("", classes="too-small")

    def render_lines(self, crop: Region) -> list[Strip]:
        """The screen's own lines, under its widgets, are its background only (an
        opaque screen, no border): one line drawn, the same for every row.  Textual
        draws all of them again each time the screen comes back (a curtain
        lifted: 60 lines at 200x60, each cut again at every widget's edge)."""
        if crop.height <= 1:
            return super().render_lines(crop)
        return super().render_lines(Region(crop.x, crop.y, crop.width, 1)) * crop.height

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information", timeout: float | None = None,
               markup: bool = False) -> None:
        """A toast: plain text unless asked for markup, as the app's (FlammeApp.notify)."""
        self.app.notify(message, title=title, severity=severity, timeout=timeout, markup=markup)

    def on_mount(self) -> None:
        self.apply_size(*self.app.size)

    def on_screen_resume(self) -> None:
        for widget in self.query(LineWidget):  # what changed while another screen covered this one
            widget.show_changes()
        self.apply_size(*self.app.size)

    def on_resize(self, event) -> None:
        self.apply_size(event.size.width, event.size.height)

    def apply_size(self, width: int, height: int) -> None:
        small = width < MIN_WIDTH or height < MIN_HEIGHT
        was_small = self.has_class("-too-small")
        if small and not was_small:
            self._focus_before_small = self.focused
            # no hidden widget keeps the focus: every key reaches on_key below
            self.set_focus(None)
        self.set_class(small, "-too-small")
        if was_small and not small:
            # hidden widgets lost the focus: give it back once they show again
            self.call_after_refresh(self._restore_focus)
        self.set_class(height >= TALL, "-tall")
        self.set_class(width >= WIDE, "-wide")
        if small:
            for notice in self.query(TooSmall):
                notice.update_size(width, height)
        self.size_changed(width, height)

    def _restore_focus(self) -> None:
        if self.focused is None:
            before = getattr(self, "_focus_before_small", None)
            if before is not None and before.is_attached and before.focusable:
                self.set_focus(before)
            else:
                self.focus_next()

    def on_key(self, event) -> None:
        """While the too-small notice is up, no key reaches the game behind it
        (a card played or a curtain passed blind): only quitting goes through."""
        if self.has_class("-too-small") and event.key not in QUIT_KEYS:
            event.stop()
            event.prevent_default()

    def size_changed(self, width: int, height: int) -> None:
        """Hook for screens whose layout depends on the size."""

    def relanguage(self) -> None:
        """The language changed: a screen that says so (REDRAW_ON_LANGUAGE) is composed again in it."""
        if self.REDRAW_ON_LANGUAGE:
            self.call_later(self._compose_again)

    async def _compose_again(self) -> None:
        await self.recompose()
        self.apply_size(*self.app.size)
        self.redrawn()

    def redrawn(self) -> None:
        """Hook: the screen was composed again (another language); give the focus back."""
        if self.focused is None:
            self.focus_next()

    def help_text(self) -> str:
        from ..texts import help_for

        return help_for(self.HELP_TOPIC, key=self.keys_text)

    def action_help(self) -> None:
        self.app.open_help(self.help_text(), screen_keys(self))

    def never_here(self, action: str) -> bool:
        """Whether a key's action can never be used on this screen as it is
        (a tour's standings in a single race): the help leaves the key out."""
        return False

    @property
    def help_key(self) -> str:
        """The help key as it is bound now, for key bars; on a screen with
        text fields (TEXT_FIELDS) one that no field takes as text, when it
        has one: `?` pressed in a name would type itself there."""
        if self.TEXT_FIELDS:
            from ..keys import typed_keys

            bound_keys = getattr(self.app, "bound_keys", None)
            keys = bound_keys("help", HELP_KEYS) if bound_keys is not None else HELP_KEYS.split(",")
            free = [key for key in keys if key not in typed_keys()]
            if free:
                return self.app.get_key_display(Binding(free[0], ""))
        return self.key_of("help", "question_mark")

    def keys_text(self, binding_id: str, default: str) -> str:
        """Every key a binding has now, in words ("? or f1"), for the help."""
        keys_of = getattr(self.app, "keys_of", None)
        keys = keys_of(binding_id, default) if keys_of is not None else default.split(",")
        return _(" or ").join(keys)

    def key_of(self, binding_id: str, default: str) -> str:
        """The key a binding has now (see FlammeApp.key_of), for key bars."""
        key_of = getattr(self.app, "key_of", None)
        return key_of(binding_id, default) if key_of is not None else default


# Textual's own keys for fields and selections, left out of the list by Textual's names for
# them ("Focus Next", "Copy selected text"): tab / shift+tab are said once, in plain words,
# where a screen has several fields
# (the palette's key is said once, among the keys of every screen, in the player's words: Textual's
# own binding was listed again as "palette", in English)
TEXTUAL_KEYS = ("app.focus_next", "app.focus_previous", "screen.copy_text", "command_palette")


def screen_keys(screen) -> str:
    """The keys of a screen as its bindings have them now (the user's keymap
    included), one line per action: the help can never disagree with them."""
    app = screen.app
    rows: dict[str, list[str]] = {}
    fields: list[str] = []  # the keys moving between fields, where there are several
    several = len(screen.focus_chain) > 1
    for active in screen.active_bindings.values():
        binding = active.binding
        if binding.action in ("app.focus_next", "app.focus_previous") and several:
            fields.append(app.get_key_display(binding))
        if active.node not in (screen, app) or not binding.description or binding.system \
                or binding.action in TEXTUAL_KEYS:
            continue
        never_here = getattr(screen, "never_here", None)
        if never_here is not None and never_here(binding.action):
            continue
        label = app.get_key_display(binding)
        # descriptions are marked N_ where the bindings are declared: translated here, when shown
        shown = rows.setdefault(_(binding.description), [])
        if label not in shown:
            shown.append(label)
    if fields:
        rows[_("Move between fields")] = [" / ".join(dict.fromkeys(fields))]
    if not rows:
        return ""
    lines = [_("[b]Keys on this screen[/b]")]
    for description, keys in rows.items():
        # every `[` escaped: the help is markup, and a key shown as `[` (the track's, or
        # one a player bound) opened a tag that swallowed the text up to the next `]`;
        # two spaces at least between the key and its words (dialogs.help_layout: a row of keys);
        # " or " as the help's own rows (keys_text)
        lines.append(f"  {_(' or ').join(keys):<12}  {description}".replace("[", "\\["))
    return "\n".join(lines)
