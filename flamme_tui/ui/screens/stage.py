"""Choosing the stage (classic, meteo), with a preview of its terrain and length."""

from __future__ import annotations

from functools import cache
from typing import Any

from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ...i18n import N_, _, integer, ngettext
from ..content import plain
from ..widgets.keybar import KeyBar
from ..widgets.profile import StageProfile
from ..widgets.track import TrackStrip
from .base import BaseScreen


def stage_info(stage_id: str):
    """(name, description, summary, course) of a stage (config.ConfigError if
    its file is broken).  The file is read again only when it changed."""
    from ... import config

    return _info(config.load_stage(stage_id))


def _info(spec: Any) -> tuple[str, str, Any, Any]:
    """(name, description, summary, course): the description in the language spoken now."""
    from ...words import stage_name

    return (stage_name(spec.name), spec.description_said, *_compiled(spec))


@cache
def _compiled(spec: Any) -> tuple[Any, Any]:
    from ... import config

    return config.stage_summary(spec), config.compile_stage(spec)


NOTICES = 2  # lines about broken stage files, at most (then a count)


def kind_word(kind: str) -> str:
    """A kind of stage in words (words.stage_kind)."""
    from ...words import stage_kind

    return stage_kind(kind)


def boxes_word(boxes: tuple[str, ...]) -> str:
    """The boxes a stage needs, in words: "base", "base + Peloton"."""
    return " + ".join(_("base") if box == "base" else box.capitalize() for box in boxes)


def left_out(notices: list[str]) -> Content | None:
    """The lines saying which stage files a stage menu leaves out and why
    (config.stage_notices), at most NOTICES and a count; None if none."""
    if not notices:
        return None
    lines = [_("Left out: {problem}").format(problem=note) for note in notices[:NOTICES]]
    if len(notices) > NOTICES:
        lines.append(_("and {n} more: see `flamme-tui stages list`").format(n=len(notices) - NOTICES))
    return Content("\n".join(lines))


def random_about(kind: str, box: str) -> str:
    """What Random stage draws for the filter (stagemenu.random_choices), in
    words (markup); or, when the filter asks for what no stage can be, why not."""
    from ...play import stagemenu

    choices = stagemenu.random_choices(kind, box)
    if choices is None:
        return _("[b]Random stage[/b]\nNo random stage for this filter: no stage has cobbles with the base box "
                 "only, as the cobbles are on the Peloton tiles. x shows the stages with the Peloton box.")
    climb, boxes, cobbles, peloton = choices
    if cobbles:
        text = _("[b]Random stage[/b]\nA new {kind} stage with cobbles, of medium length, from the base and "
                 "Peloton tiles, each tile once (k and x choose its kind and boxes). Its code, fr1:..., "
                 "races it again: flamme-tui race --stage CODE")
    elif peloton and cobbles is False:
        text = _("[b]Random stage[/b]\nA new {kind} stage of medium length from the base and Peloton tiles, "
                 "at least one Peloton tile and no cobbles, each tile once (k and x choose its kind and boxes). "
                 "Its code, fr1:..., races it again: flamme-tui race --stage CODE")
    elif peloton:
        text = _("[b]Random stage[/b]\nA new {kind} stage of medium length from the base and Peloton tiles, "
                 "at least one Peloton tile, each tile once (k and x choose its kind and boxes). Its code, "
                 "fr1:..., races it again: flamme-tui race --stage CODE")
    else:
        text = _("[b]Random stage[/b]\nA new {kind} stage of medium length from the base tiles, "
                 "each tile once (k and x choose its kind and boxes). Its code, fr1:..., "
                 "races it again: flamme-tui race --stage CODE")
    return text.format(kind=kind_word(climb))


def reading_line(total: int, kind: str, done: int = 0) -> Content:
    """What a menu says while it reads the user's files (filling.fill)."""
    text = _("Reading your stage files… {done} of {total}") if kind == "stage" else \
        _("Reading your tour files… {done} of {total}")
    return Content(text.format(done=integer(done), total=integer(total)))


class StageScreen(BaseScreen):
    HELP_TOPIC = "stages"
    DEFAULT_CSS = """
    #stage-notice { height: auto; color: $warning; margin: 0 0 1 0; }
    /* one line, cut with …: the count comes first, the keys are in the footer too */
    #stage-filter { height: 1; color: $text-muted; text-wrap: nowrap; text-overflow: ellipsis; }
    """
    BINDINGS = [
        Binding("escape", "app.pop_screen", N_("Back")),
        Binding("k", "kind_filter", N_("Kind")),
        Binding("x", "box_filter", N_("Boxes")),
        Binding("e", "edit_copy", N_("Edit a copy")),
    ]
    RANDOM = "random-stage"  # the menu's "Random stage" entry
    BUILD = "build-stage"  # the menu's "Build a stage" entry: the stage editor

    def __init__(self, variant: str, current: str | None = None) -> None:
        super().__init__()
        self.variant = variant
        self.current = current
        self.kind = "all"  # the filter: a kind of stagemenu.KIND_FILTERS, a box of BOX_FILTERS
        self.box = "all"
        self.rows: list = []
        self.specs: dict = {}  # stage id -> StageSpec, of the rows
        self.read_again = False  # read the stage files again on resume (the editor was opened)

    def compose(self):
        from ... import config
        from ..filling import now_or_later
        from .variant import variant_title

        # the shipped stages now, the user's too if few (filling.now_or_later); more are read in a worker (on_mount)
        entries = config.stage_entries()
        now, self.pending = now_or_later([e for e in entries if e.source == "user"])
        self.statuses = [s for e in entries if e.source != "user" or e in now if (s := config.stage_status(e)) is not None]
        self.reading_files = bool(self.pending)  # user stage files still being read
        self.files_read = 0  # of them
        usable = [s for s in self.statuses if s.stage is not None]
        self.ids = [s.entry.id for s in usable]
        self.usable_ids = list(self.ids)  # the stage files read (on_screen_resume: read again)
        yield from self.compose_notice()
        with Vertical(classes="menu-body"):
            yield Static(_("[b]{rules}[/b] · choose the stage").format(rules=variant_title(self.variant)),
                         classes="screen-title")
            # a broken stage file is left out of the menu, with a line saying why (once all are read)
            notice = (reading_line(len(self.pending), "stage") if self.reading_files
                      else left_out(config.stage_notices(self.statuses)))
            yield Static(notice or "", id="stage-notice").set_styles(display="block" if notice else "none")
            yield Static("", id="stage-filter")
            with Horizontal(id="stage-top"):
                self.set_rows([(s.entry.id, s.stage) for s in usable if s.stage is not None])
                yield OptionList(*self.menu_options(), id="stage-menu")
                yield Static("", id="stage-about")
            yield StageProfile(None, bars=3, id="stage-profile")
            yield TrackStrip(None, mini=True, id="stage-preview")
            yield Static("", id="stage-legend")
        yield KeyBar([("↑↓", _("move")), ("⏎", _("choose")), ("k", _("kind")), ("x", _("boxes")),
                      ("e", _("edit a copy")), (self.help_key, _("help")), ("esc", _("back"))])

    # ------------------------------------------------ the list and its filter

    def set_rows(self, stages: list) -> None:
        """The stages (id, StageSpec) the menu offers: those the rule set can race."""
        from ...play import stagemenu

        self.rows = stagemenu.rows_for(self.variant, stages)
        self.ids = [row.id for row in self.rows]
        # the stages as read: a highlight draws from these, never reading a file on the UI thread
        self.specs = dict(stages)

    def menu_options(self) -> list[Option]:
        """Random stage first, then the stages the filter keeps under a line per
        group (box and kind); a group's line cannot be chosen."""
        from ...play import stagemenu

        options = [Option(_("Random stage"), id=self.RANDOM), Option(_("Build a stage"), id=self.BUILD)]
        for _title, rows in stagemenu.grouped(self.rows, self.kind, self.box):
            # the group's line in words (stagemenu's title is the English one): kind · box
            box_word = "Peloton" if "peloton" in rows[0].boxes else _("base")
            options.append(Option(Content.styled(f"── {kind_word(rows[0].kind)} · {box_word}", "dim"), disabled=True))
            options.extend(Option(plain(row.name), id=row.id) for row in rows)
        return options

    def filter_line(self) -> str:
        kind = _("every kind") if self.kind == "all" else kind_word(self.kind)
        box = {"all": _("every box"), "base": _("base box only"), "peloton": _("with the Peloton box")}[self.box]
        shown = sum(len(rows) for _title, rows in self.grouped())
        return ngettext("Showing {kind}, {box}: {shown} of {n} stage (k kind, x boxes)",
                        "Showing {kind}, {box}: {shown} of {n} stages (k kind, x boxes)",
                        len(self.rows)).format(kind=kind, box=box, shown=shown, n=len(self.rows))

    def grouped(self) -> list:
        from ...play import stagemenu

        return stagemenu.grouped(self.rows, self.kind, self.box)

    def refill(self) -> None:
        """The menu again after the filter changed, the highlight kept when the stage is still shown."""
        menu = self.query_one("#stage-menu", OptionList)
        at = menu.highlighted_option.id if menu.highlighted_option is not None else None
        menu.clear_options()
        menu.add_options(self.menu_options())
        self.query_one("#stage-filter", Static).update(Content(self.filter_line()))
        self.highlight(at)

    def highlight(self, stage_id: str | None) -> None:
        menu = self.query_one("#stage-menu", OptionList)
        try:
            index = menu.get_option_index(stage_id) if stage_id else 0
        except Exception:  # no longer shown: the first entry
            index = 0
        menu.highlighted = index
        # (set before the menu is laid out, the highlight does not scroll itself into view)
        self.call_after_refresh(menu.scroll_to_highlight)
        option = menu.get_option_at_index(index)
        if option.id:
            self.preview(option.id)

    def action_kind_filter(self) -> None:
        from ...play import stagemenu

        self.kind = stagemenu.next_filter(self.kind, stagemenu.KIND_FILTERS)
        self.refill()

    def action_box_filter(self) -> None:
        from ...play import stagemenu

        self.box = stagemenu.next_filter(self.box, stagemenu.BOX_FILTERS)
        self.refill()

    def on_mount(self) -> None:
        from ... import config
        from ..filling import fill

        super().on_mount()
        menu = self.query_one("#stage-menu", OptionList)
        self.query_one("#stage-filter", Static).update(Content(self.filter_line()))
        menu.focus()
        self.highlight(self.current if self.current in self.ids else (self.ids[0] if self.ids else None))
        fill(self, self.pending, config.stage_status, self.add_stages, self.stages_read)

    def add_stages(self, batch: list) -> None:
        """A batch of user stages read (filling.fill): into the menu, under their groups."""
        self.files_read += len(batch)
        statuses = [s for s in batch if s is not None]  # None: a shadowed stage (no id names it)
        self.statuses += statuses
        menu = self.query_one("#stage-menu", OptionList)
        at = menu.highlighted_option.id if menu.highlighted_option is not None else None
        untouched = at in (None, self.RANDOM) or (bool(self.ids) and at == self.ids[0])
        self.set_rows([(s.entry.id, s.stage) for s in self.statuses if s.stage is not None])
        menu.clear_options()
        menu.add_options(self.menu_options())
        self.query_one("#stage-filter", Static).update(Content(self.filter_line()))
        # the stage chosen before: highlighted when it comes, unless the player moved
        self.highlight(self.current if untouched and self.current in self.ids else at)
        self.query_one("#stage-notice", Static).update(reading_line(len(self.pending), "stage", self.files_read))

    def stages_read(self) -> None:
        """Every user stage read: the lines saying which files are left out and why."""
        from ... import config

        self.reading_files = False
        notice = self.query_one("#stage-notice", Static)
        lines = left_out(config.stage_notices(self.statuses))
        notice.update(lines or "")
        notice.display = lines is not None

    def size_changed(self, width: int, height: int) -> None:
        # the profile grows with the window (2 rows of bars at 80x24), the
        # tiles strip takes what is left (wrapped onto bands when it fits)
        self.query_one("#stage-profile", StageProfile).set_bars(max(2, min(8, (height - 20) // 2)))
        preview = self.query_one("#stage-preview", TrackStrip)
        preview.max_lines = max(2, height - 17 - self.query_one("#stage-profile", StageProfile).bars)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option.id:
            self.preview(event.option.id)

    def preview(self, stage_id: str) -> None:
        from ... import config
        from ..palette import legend_terrain

        if stage_id == self.RANDOM:
            self.query_one("#stage-about", Static).update(Content.from_markup(random_about(self.kind, self.box)))
            self.query_one("#stage-profile", StageProfile).set_course(None)
            self.query_one("#stage-preview", TrackStrip).set_course(None)
            return
        if stage_id == self.BUILD:
            self.query_one("#stage-about", Static).update(Content.from_markup(
                _("[b]Build a stage[/b]\nLay the tiles one by one, each side up as you choose, and see the track "
                  "grow; save it among your stages and race it, or share its code. "
                  "e on any stage edits a copy of it.")))
            self.query_one("#stage-profile", StageProfile).set_course(None)
            self.query_one("#stage-preview", TrackStrip).set_course(None)
            return
        try:
            spec = self.specs.get(stage_id)
            name, description, summary, course = _info(spec) if spec is not None else stage_info(stage_id)
        except config.ConfigError as exc:  # the file broke since the menu was drawn
            self.query_one("#stage-about", Static).update(Content(_("Cannot use this stage: {problem}").format(problem=exc)))
            return
        # names and descriptions come from files: $variables are never read as markup
        peloton = ""
        if summary.supply or summary.cobbles:
            peloton = _("{supply} supply (s) · {cobbles} cobble (#) squares").format(
                supply=summary.supply, cobbles=summary.cobbles) + "\n"
        if summary.breakaway >= 0:
            peloton += _("breakaway offered (tile 2 second)") + "\n"
        row = next((r for r in self.rows if r.id == stage_id), None)
        needs = ngettext("{kind} · needs the {boxes} box", "{kind} · needs the {boxes} boxes", len(row.boxes)).format(
            kind=kind_word(row.kind), boxes=boxes_word(row.boxes)) + "\n" if row else ""
        facts = (needs + _("{n} squares from start to finish").format(n=summary.length) + "\n"
                 + _("{ascent} ascent (^) · {descent} descent (v) squares").format(
                     ascent=summary.ascent, descent=summary.descent) + "\n" + peloton + _("tiles: {tiles}"))
        # names and descriptions come from files: $variables are never read as markup (nor the words: no markup)
        about = Content.from_markup("[b]$name[/b]\n$description\n\n$facts", name=name, description=description,
                                    facts=facts.format(tiles=summary.tiles))
        self.query_one("#stage-about", Static).update(about)
        self.query_one("#stage-profile", StageProfile).set_course(course)
        self.query_one("#stage-preview", TrackStrip).set_course(course)
        legend = "  ".join(f"{g} {n}" for g, n in legend_terrain("classic"))
        self.query_one("#stage-legend", Static).update(
            _("{terrain}  {start} start  {finish} finish").format(terrain=legend, start="║", finish="▓"))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id == self.RANDOM:
            code = self.random_code()
            if code is not None:
                self.app.choose_stage(code)
        elif event.option.id == self.BUILD:
            self.open_editor(None)
        elif event.option.id is not None:  # every other option has one: the stage's id
            self.app.choose_stage(event.option.id)

    def random_code(self) -> str | None:
        """The code of a new random stage the filter shows; None, and a line
        saying why, when the filter asks for what no stage can be."""
        import secrets

        from ...play import stagemenu

        if stagemenu.random_choices(self.kind, self.box) is None:
            self.notify(_("No random stage has cobbles with the base box only: x shows the stages with the "
                          "Peloton box."), severity="warning", timeout=8)
            return None
        return stagemenu.random_stage_code(secrets.randbelow(10**6), self.kind, self.box)

    # ------------------------------------------------ the stage editor

    def open_editor(self, stage) -> None:
        """The stage editor, empty or from a copy of `stage` (a StageSpec)."""
        from ... import config
        from ...play.stagebuild import StageBuild
        from .stagebuild import StageBuildScreen

        catalog = config.load_tiles()
        build = StageBuild(catalog) if stage is None else StageBuild.from_stage(stage, catalog)
        self.read_again = True  # a stage saved there joins the menu when it comes back
        self.app.push_screen(StageBuildScreen(self.variant, build))

    def action_edit_copy(self) -> None:
        """e: the editor, from a copy of the highlighted stage (Random stage: a new
        random stage; Build a stage: an empty one)."""
        from ... import config

        option = self.query_one("#stage-menu", OptionList).highlighted_option
        if option is None or option.id is None or option.id == self.BUILD:
            self.open_editor(None)
            return
        try:
            if option.id == self.RANDOM:
                code = self.random_code()
                if code is None:
                    return
                stage = config.load_stage(code)
            else:
                stage = config.load_stage(option.id)
        except config.ConfigError as exc:  # the file broke since the menu was drawn
            self.notify(_("Cannot edit this stage: {problem}").format(problem=exc), severity="error", timeout=8)
            return
        self.open_editor(stage)

    def on_screen_resume(self) -> None:
        """Back from the editor: a stage saved there is in the menu (the files
        are read again then only: 20 ms for the library, more than a frame)."""
        super().on_screen_resume()
        if not self.read_again:
            return
        self.read_again = False
        from ... import config

        usable = [(s.entry.id, s.stage) for s in config.stage_statuses() if s.stage is not None]
        if [sid for sid, _ in usable] != self.usable_ids:
            self.usable_ids = [sid for sid, _ in usable]
            self.set_rows(usable)
            self.refill()
