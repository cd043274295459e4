"""The stage editor: lay tiles one by one, see the track and the profile grow,
save the stage in the user stages folder and race it, or share its code.

The build itself (its tiles, its check, its file) is play/stagebuild.py's:
this screen draws it and passes keys and clicks on to it.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.notifications import Notification, Notify, SeverityLevel
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from ...engine.course import TILE_SQUARES
from ...i18n import N_, _, ngettext, pgettext
from ...usertext import NO_CONTROL, clean
from ..keys import key_word
from ..widgets.keybar import KeyBar
from ..widgets.profile import StageProfile
from ..widgets.track import TrackStrip
from .base import BaseScreen
from .stage import boxes_word


def side_text(squares: str) -> Text:
    """A tile side's squares as the track draws their terrain (glyph and colour)."""
    from ..palette import terrain

    text = Text()
    for code in squares:
        look = terrain(TILE_SQUARES[code][0])
        text.append(look.glyph, style=look.fg)
    return text


class TextPrompt(ModalScreen[str | None]):
    """One line of text (a stage's name, a pasted code): Enter gives it, Esc nothing."""

    DEFAULT_CSS = """
    TextPrompt { align: center middle; }
    #prompt-box { width: 70; }
    #prompt-input { margin: 1 0 0 0; }
    """
    BINDINGS = [Binding("escape", "cancel", N_("Cancel"))]

    def __init__(self, title: str, value: str = "", *, max_length: int = 0) -> None:
        super().__init__()
        self.title_text = title
        self.value = value
        self.max_length = max_length

    def compose(self):
        with Vertical(id="prompt-box", classes="dialog"):
            yield Static(Content.from_markup("[b]$title[/b]\n$keys", title=self.title_text, keys=_("Enter: done · Esc: cancel")))
            yield Input(clean(self.value, multiline=False), max_length=self.max_length, restrict=NO_CONTROL,
                        compact=True, id="prompt-input")

    def on_mount(self) -> None:
        field = self.query_one("#prompt-input", Input)
        field.focus()
        field.select_all()  # typing replaces the old text; an arrow key keeps it to edit

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)


class TileList(OptionList):
    """The tile list, its highlight kept in view when its height changes (the
    check line above it grows to two lines when a tile is laid: the list
    scrolled for the height it had, the tile highlighted next was out of view)."""

    def on_resize(self, event: events.Resize) -> None:
        self.scroll_to_highlight()


class StageBuildScreen(BaseScreen):
    HELP_TOPIC = "editor"
    DEFAULT_CSS = """
    #build-check { height: auto; color: $warning; }
    #build-check.-ready { color: $success; }
    #build-top { height: 1fr; min-height: 6; }
    #build-tiles { width: 38; height: 100%; }
    #build-side { width: 1fr; height: auto; padding: 0 1; }
    #build-about { height: auto; }
    #build-actions { height: auto; margin: 1 0 0 0; }
    #build-profile { margin: 1 0 0 0; }
    #build-track { margin: 1 0 0 0; }
    """
    BINDINGS = [
        Binding("escape", "leave", N_("Back")),
        Binding("space", "turn", N_("Turn tile")),
        Binding("backspace", "take_back", N_("Take back")),
        Binding("f", "flip_last", N_("Flip last")),
        Binding("x", "boxes", N_("Boxes")),
        Binding("n", "rename", N_("Name")),
        Binding("s", "save", N_("Save and race")),
        Binding("c", "copy_code", N_("Copy code")),
        Binding("p", "paste_code", N_("Paste code")),
    ]

    def __init__(self, variant: str, build=None) -> None:
        from ... import config
        from ...play.stagebuild import StageBuild

        super().__init__()
        self.variant = variant
        self.build = build or StageBuild(config.load_tiles())
        self.saved: tuple[str, str, str] | None = None  # (name, tiles, id) of the last save
        self.shown_code = ""  # the code copied, shown until the stage changes
        self.toast: Notification | None = None  # the editor's last message (a paste, a save), replaced by the next
        # the stage as it was opened or last saved: leaving with anything else asks first
        self.kept = self.state()

    def compose(self):
        yield from self.compose_notice()
        with Vertical(classes="menu-body"):
            yield Static("", id="build-title", classes="screen-title")
            yield Static("", id="build-check")
            with Horizontal(id="build-top"):
                yield TileList(*self.options(), id="build-tiles")
                with Vertical(id="build-side"):
                    yield Static("", id="build-about")
                    yield Static(self.actions(), id="build-actions")
            yield StageProfile(None, bars=2, id="build-profile")
            yield TrackStrip(None, mini=True, end=True, id="build-track")
        # (n names the stage, c copies its code: said by the words to click beside the tiles and by
        # the help; the bar keeps what is used most, to fit 80 columns in French and Spanish too)
        yield KeyBar([("⏎", _("lay")), (key_word("space"), _("turn")), ("⌫", _("undo")), ("f", _("flip")),
                      ("s", _("save")), (self.help_key, _("help")), ("esc", _("back"))])

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#build-tiles", OptionList).focus()
        self.redraw()

    def size_changed(self, width: int, height: int) -> None:
        # as the stage menu: the profile grows with the window, the strip takes what is left
        profile = self.query_one("#build-profile", StageProfile)
        profile.set_bars(max(2, min(6, (height - 20) // 2)))
        self.query_one("#build-track", TrackStrip).max_lines = max(2, height - 18 - profile.bars)

    # ------------------------------------------------------------ drawing

    def options(self, here: int | None = None) -> list[Option]:
        """A row per physical tile: both sides (the one laid next in bold), its
        kind, whether it is on the stage already, its box when not owned; the
        row at index `here` with the pointer."""
        used = self.build.used()
        rows = []
        box = ""
        for row in self.build.inventory():
            if row.box != box:  # a line per box, which cannot be chosen
                box = row.box
                owned = "" if box in self.build.boxes else _(" · not owned (x)")
                title = _("base box") if box == "base" else _("Peloton box")
                rows.append(Option(Content.styled(f"── {title}{owned}", "dim"), disabled=True))
            rows.append(Option(self.tile_prompt(row, used, len(rows) == here), id=f"tile-{row.tile}"))
        return rows

    def tile_prompt(self, row, used: dict[str, int], here: bool) -> Text:
        """A tile's row; `here`: the highlighted one, with ▶ as the teams screen
        points at its field (under NO_COLOR its background is a grey among greys)."""
        up = self.build.side_up(row.tile)
        text = Text(no_wrap=True, overflow="ellipsis")
        count = used.get(row.tile, 0)
        text.append("▶" if here else " ", style="bold")
        text.append("✓ " if count == 1 else "✗ " if count > 1 else "  ", style="bold")
        for side, squares in zip(row.sides, row.squares):
            chosen = side == up
            text.append(f"{side:>2} ", style="bold reverse" if chosen else "dim")
            text.append_text(side_text(squares) if chosen else Text(squares_glyphs(squares), style="dim"))
            text.append(" " * (7 - len(squares)))
        text.append(tile_kind(row.kind), style="dim" if count or row.box not in self.build.boxes else "")
        return text

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        """The pointer follows the highlight (the two rows' prompts drawn again, not the list)."""
        menu = event.option_list
        rows = {f"tile-{row.tile}": row for row in self.build.inventory()}
        used = self.build.used()
        for k in range(menu.option_count):
            option = menu.get_option_at_index(k)
            pointed = isinstance(option.prompt, Text) and option.prompt.plain.startswith("▶")
            if option.id in rows and pointed != (k == event.option_index):
                menu.replace_option_prompt_at_index(k, self.tile_prompt(rows[option.id], used, k == event.option_index))

    @staticmethod
    def actions() -> Content:
        """The editor's actions, each its key and words to click (the mouse's way to every key;
        the key bar has room for the most used only: a new player found no way to name a stage)."""
        words = [(key_word("space"), _("turn"), "turn"), ("⌫", _("take back"), "take_back"),
                 ("f", _("flip last"), "flip_last"), ("x", _("boxes"), "boxes"), ("n", _("name"), "rename"),
                 ("s", _("save and race"), "save"), ("c", _("copy code"), "copy_code"),
                 ("p", _("paste code"), "paste_code")]
        content = Content(" · ")
        return content.join(Content.from_markup(f"[b]$key[/b] [@click=screen.{action}][u]$word[/u][/]",
                                                key=key, word=word) for key, word, action in words)

    def redraw(self) -> None:
        """Everything that follows the build: title, check line, inventory marks, facts, drawings."""
        from ...words import stage_kind
        from ..screens.variant import variant_title

        build = self.build
        self.query_one("#build-title", Static).update(Content.from_markup(
            "[b]$rules[/b] · $what · $name", rules=variant_title(self.variant), what=_("build a stage"), name=build.name))
        problem = build.problem()
        check = self.query_one("#build-check", Static)
        check.set_class(problem is None, "-ready")
        check.update(Content(_("✓ a stage: s saves it and races it, c copies its code") if problem is None
                             else f"✗ {problem}"))
        menu = self.query_one("#build-tiles", OptionList)
        at = menu.highlighted if menu.highlighted is not None else 1  # the first tile, under the base box's line
        menu.clear_options()
        menu.add_options(self.options(at))
        menu.highlighted = at
        climbs = build.climbs()
        boxes = boxes_word(build.boxes)
        code = self.shown_code or (build.code() if problem is None else "")
        lines = [
            ngettext("{n} square start to finish", "{n} squares start to finish", build.length()).format(
                n=build.length()) + " · " + stage_kind(build.kind()),
            ngettext("{n} climb of {squares} ascent squares", "{n} climbs of {squares} ascent squares",
                     len(climbs)).format(n=len(climbs), squares=", ".join(map(str, climbs))) if climbs
            else _("no climb"),
            ngettext("{n} descent square", "{n} descent squares", build.descent()).format(n=build.descent()),
            _("Boxes you own: {boxes} (x)").format(boxes=boxes),
        ]
        about = Content.from_markup(
            "[b]$head[/b] ($count): $tiles\n$lines\n$code_is", head=_("Tiles"), lines="\n".join(lines),
            count=str(len(build.names)), tiles=" ".join(build.names) or _("none yet"),
            code_is=_("Code: {code}").format(code=code or _("(once it is a stage)")))
        self.query_one("#build-about", Static).update(about)
        course = build.course()
        self.query_one("#build-profile", StageProfile).set_course(course)
        self.query_one("#build-track", TrackStrip).set_course(course)

    def highlighted_tile(self) -> str | None:
        option = self.query_one("#build-tiles", OptionList).highlighted_option
        return option.id.removeprefix("tile-") if option is not None and option.id else None

    # ------------------------------------------------------------ actions

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Enter or a click on a tile: lay it, then move on to the next tile not on the stage."""
        event.stop()
        tile = (event.option.id or "").removeprefix("tile-")
        if not tile:
            return
        if self.build.lay(tile) is None:
            self.notify(_("a stage holds no more tiles"), severity="warning")
            return
        self.changed()
        menu = self.query_one("#build-tiles", OptionList)
        used = self.build.used()
        for k in range(event.option_index + 1, menu.option_count):
            option = menu.get_option_at_index(k)
            if not option.disabled and (option.id or "").removeprefix("tile-") not in used:
                menu.highlighted = k
                break

    def changed(self) -> None:
        self.shown_code = ""
        self.redraw()

    def state(self) -> tuple[str, str, tuple[str, ...]]:
        """What a save writes (name, tiles, boxes): the side a tile in the list shows next is no change."""
        return self.build.name, self.build.tiles, self.build.boxes

    def unsaved(self) -> bool:
        """Whether the stage has changes not saved (leaving asks first: Esc, quit, the palette)."""
        return self.state() != self.kept

    def action_leave(self) -> None:
        """Esc: back to the stage menu; with changes not saved, only once the
        player says to discard them (a stage of many tiles went at one key)."""
        if not self.unsaved():
            self.app.pop_screen()
            return
        self.ask_discard(self.app.pop_screen)

    def ask_discard(self, then: Callable[[], object]) -> None:
        """The discard dialog: `then` once the player says to throw the changes away."""
        from .dialogs import ConfirmDiscard

        if isinstance(self.app.screen, ConfirmDiscard):
            return

        def answer(discard: bool | None) -> None:
            if discard:
                then()

        self.app.push_screen(ConfirmDiscard(clean(self.build.name, multiline=False)), answer)

    def action_turn(self) -> None:
        tile = self.highlighted_tile()
        if tile is not None:
            self.build.turn(tile)
            self.redraw()

    def action_take_back(self) -> None:
        if self.build.take_back() is not None:
            self.changed()

    def action_flip_last(self) -> None:
        if self.build.flip_last() is not None:
            self.changed()

    def say(self, message: str | None, severity: SeverityLevel = "information", timeout: float = 6) -> None:
        """The editor's message as a toast, in place of its last one (a paste
        refused, then a good one: the refusal beside the ✓ read as about the
        new stage); None: the last one taken away.  Posted as Textual's
        notify does, to be taken away alone (clearing every toast would also
        take one another screen said).  Its words are plain text: a pasted
        code or a name may hold a [."""
        if self.toast is not None and self.toast in self.app._notifications:  # (Textual 8.2.8, pinned)
            self.app._unnotify(self.toast)
        self.toast = None
        if message is not None:
            self.toast = Notification(message, "", severity, timeout, markup=False)
            self.app.post_message(Notify(self.toast))

    def action_boxes(self) -> None:
        self.build.next_boxes()
        self.changed()

    def action_rename(self) -> None:
        from ... import limits as lim

        def renamed(name: str | None) -> None:
            if name is None:
                return
            refused = self.build.rename(name)
            if refused is not None:
                self.say(_("Not renamed: {why}").format(why=refused), "warning", 8)
                return
            self.say(None)
            self.changed()

        self.app.push_screen(TextPrompt(_("Name of the stage"), self.build.name, max_length=lim.MAX_STAGE_NAME),
                             renamed)

    def action_save(self) -> None:
        """Save the stage in the user stages folder, then race it (the teams
        next).  Saved already, unchanged: race the file saved."""
        from ...config import ConfigError
        from ...play.stagebuild import said

        key = (self.build.name, self.build.tiles)
        if self.saved is not None and self.saved[:2] == key:
            self.app.choose_stage(self.saved[2])
            return
        try:
            sid, path = self.build.save()
        except ConfigError as exc:
            self.say(_("Not saved: {why}").format(why=said(exc)), "error", 8)
            return
        except OSError as exc:
            self.say(_("Not saved: {why}: {file}").format(why=exc.strerror or exc, file=clean(exc.filename or "",
                                                                                            multiline=False)), "error", 8)
            return
        self.saved = (*key, sid)
        self.kept = self.state()
        self.say(_("Saved as {id} ({path})").format(id=sid, path=clean(path, multiline=False)))
        self.app.choose_stage(sid)

    def action_copy_code(self) -> None:
        from ...config import ConfigError
        from ...play.stagebuild import said

        try:
            code = self.build.code()
        except ConfigError as exc:
            self.say(_("No code yet: {why}").format(why=said(exc)), "warning")
            return
        self.app.copy_to_clipboard(code)
        self.shown_code = code
        self.redraw()
        self.say(_("Copied: {code}").format(code=code))

    def action_paste_code(self) -> None:
        from ... import stagegen
        from ...config import ConfigError
        from ...play.stagebuild import StageBuild, said

        def pasted(text: str | None) -> None:
            if not text:
                return
            try:
                build = StageBuild.from_code(text, self.build.catalog)
            except ConfigError as exc:  # checked as a file is: one line says why
                self.say(_("Not a stage: {why}").format(why=said(exc)), "error", 8)
                return
            owned = self.build.boxes
            if len(owned) > len(build.boxes):  # the boxes the player said they own stay: a code only adds
                build.boxes = owned
            added = [box for box in build.boxes if box not in owned]
            self.build = build
            self.changed()
            # the boxes the player owns follow the code: said, not changed behind their back
            self.say(_("The code uses the Peloton box's tiles: Boxes you own is now {boxes} (x changes it)").format(
                boxes=boxes_word(build.boxes)) if "peloton" in added else None)

        self.app.push_screen(TextPrompt(_("Paste a stage code (fr1:...)"), max_length=stagegen.MAX_CODE + 8), pasted)


def tile_kind(kind: str) -> str:
    """A tile's kind (config.models.TileKind) in the player's language, in the inventory."""
    words = {"start": pgettext("tile", "start"), "finish": pgettext("tile", "finish"),
             "straight": pgettext("tile", "straight"), "sharp": pgettext("tile", "sharp"),
             "soft": pgettext("tile", "soft"), "short": pgettext("tile", "short")}
    return words.get(kind, kind)


def squares_glyphs(squares: str) -> str:
    from ..palette import terrain

    return "".join(terrain(TILE_SQUARES[code][0]).glyph for code in squares)

