"""Choosing the stage (classic, meteo), with a preview of its terrain and length."""

from __future__ import annotations

from functools import cache
from typing import Any

from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ..content import plain
from ..widgets.keybar import KeyBar
from ..widgets.profile import StageProfile
from ..widgets.track import TrackStrip
from .base import BaseScreen


def stage_info(stage_id: str):
    """(name, description, summary, course) of a stage (config.ConfigError if
    its file is broken).  The file is read again only when it changed."""
    from ... import config

    return _compiled(config.load_stage(stage_id))


@cache
def _compiled(spec: Any) -> tuple[str, str, Any, Any]:
    from ... import config

    return spec.name, spec.description, config.stage_summary(spec), config.compile_stage(spec)


NOTICES = 2  # lines about broken stage files, at most (then a count)


def left_out(notices: list[str]) -> Content | None:
    """The lines saying which stage files a stage menu leaves out and why
    (config.stage_notices), at most NOTICES and a count; None if none."""
    if not notices:
        return None
    lines = [f"Left out: {note}" for note in notices[:NOTICES]]
    if len(notices) > NOTICES:
        lines.append(f"and {len(notices) - NOTICES} more: see `flamme-tui stages list`")
    return Content("\n".join(lines))


class StageScreen(BaseScreen):
    HELP_TOPIC = "menus"
    DEFAULT_CSS = "#stage-notice { height: auto; color: $warning; margin: 0 0 1 0; }"
    BINDINGS = [Binding("escape", "app.pop_screen", "Back")]

    def __init__(self, variant: str, current: str | None = None) -> None:
        super().__init__()
        self.variant = variant
        self.current = current

    def compose(self):
        from ... import config
        from .variant import variant_title

        # a broken stage file is left out of the menu, with a line saying why
        statuses = config.stage_statuses()
        usable = [s for s in statuses if s.stage is not None]
        self.ids = [s.entry.id for s in usable]
        notices = config.stage_notices(statuses)
        yield from self.compose_notice()
        with Vertical(classes="menu-body"):
            yield Static(f"[b]{variant_title(self.variant)}[/b] · choose the stage", classes="screen-title")
            notice = left_out(notices)
            if notice is not None:
                yield Static(notice, id="stage-notice")
            with Horizontal(id="stage-top"):
                names = [(s.entry.id, s.stage.name if s.stage else s.entry.id) for s in usable]
                yield OptionList(*(Option(plain(name), id=sid) for sid, name in names), id="stage-menu")
                yield Static("", id="stage-about")
            yield StageProfile(None, bars=3, id="stage-profile")
            yield TrackStrip(None, mini=True, id="stage-preview")
            yield Static("", id="stage-legend")
        yield KeyBar([("↑↓", "move"), ("⏎", "choose"), (self.help_key, "help"), ("esc", "back")])

    def on_mount(self) -> None:
        super().on_mount()
        menu = self.query_one("#stage-menu", OptionList)
        index = self.ids.index(self.current) if self.current in self.ids else 0
        menu.focus()
        if self.ids:
            menu.highlighted = index
            self.preview(self.ids[index])

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

        try:
            name, description, summary, course = stage_info(stage_id)
        except config.ConfigError as exc:  # the file broke since the menu was drawn
            self.query_one("#stage-about", Static).update(Content(f"Cannot use this stage: {exc}"))
            return
        # names and descriptions come from files: $variables are never read as markup
        peloton = ""
        if summary.supply or summary.cobbles:
            peloton = f"{summary.supply} supply (s) · {summary.cobbles} cobble (#) squares\n"
        if summary.breakaway >= 0:
            peloton += "breakaway offered (tile 2 second)\n"
        about = Content.from_markup(
            "[b]$name[/b]\n$description\n\n"
            f"{summary.length} squares from start to finish\n"
            f"{summary.ascent} ascent (^) · {summary.descent} descent (v) squares\n"
            f"{peloton}"
            "tiles: $tiles",
            name=name, description=description, tiles=summary.tiles,
        )
        self.query_one("#stage-about", Static).update(about)
        self.query_one("#stage-profile", StageProfile).set_course(course)
        self.query_one("#stage-preview", TrackStrip).set_course(course)
        legend = "  ".join(f"{g} {n}" for g, n in legend_terrain("classic"))
        self.query_one("#stage-legend", Static).update(f"{legend}  ║ start  ▓ finish")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id is not None:  # every option has one: the stage's id
            self.app.choose_stage(event.option.id)
