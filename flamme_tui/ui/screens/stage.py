"""Choosing the stage (classic, meteo), with a preview of its terrain and length."""

from __future__ import annotations

from functools import cache

from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ...usertext import escape_markup, plain
from ..widgets.keybar import KeyBar
from ..widgets.track import TrackStrip
from .base import BaseScreen


@cache
def stage_info(stage_id: str):
    """(name, description, summary, course) of a stage."""
    from ... import config

    spec = config.load_stage(stage_id)
    summary = config.stage_summary(spec)
    course = config.compile_stage(spec)
    return spec.name, spec.description, summary, course


class StageScreen(BaseScreen):
    HELP_TOPIC = "menus"
    BINDINGS = [Binding("escape", "app.pop_screen", "Back")]

    def __init__(self, variant: str, current: str | None = None) -> None:
        super().__init__()
        self.variant = variant
        self.current = current

    def compose(self):
        from ... import config
        from .variant import variant_title

        self.ids = config.stage_ids()
        yield from self.compose_notice()
        with Vertical(classes="menu-body"):
            yield Static(f"[b]{variant_title(self.variant)}[/b] · choose the stage", classes="screen-title")
            with Horizontal(id="stage-top"):
                yield OptionList(*(Option(plain(stage_info(s)[0]), id=s) for s in self.ids), id="stage-menu")
                yield Static("", id="stage-about")
            yield TrackStrip(None, mini=True, id="stage-preview")
            yield Static("", id="stage-legend")
        yield KeyBar([("↑↓", "move"), ("⏎", "choose"), ("?", "help"), ("esc", "back")])

    def on_mount(self) -> None:
        super().on_mount()
        menu = self.query_one("#stage-menu", OptionList)
        index = self.ids.index(self.current) if self.current in self.ids else 0
        menu.highlighted = index
        menu.focus()
        self.preview(self.ids[index])

    def size_changed(self, width: int, height: int) -> None:
        preview = self.query_one("#stage-preview", TrackStrip)
        preview.max_lines = max(2, height - 19)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option.id:
            self.preview(event.option.id)

    def preview(self, stage_id: str) -> None:
        from ..palette import legend_terrain

        name, description, summary, course = stage_info(stage_id)
        summary.length - summary.ascent - summary.descent
        about = (f"[b]{escape_markup(name)}[/b]\n{escape_markup(description)}\n\n"
                 f"{summary.length} squares from start to finish\n"
                 f"{summary.ascent} ascent (^) · {summary.descent} descent (v) squares\n"
                 f"tiles: {summary.tiles}")
        self.query_one("#stage-about", Static).update(about)
        self.query_one("#stage-preview", TrackStrip).set_course(course)
        legend = "  ".join(f"{g} {n}" for g, n in legend_terrain("classic"))
        self.query_one("#stage-legend", Static).update(f"{legend}  ║ S start  ▓ F finish  letters: tiles")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.app.choose_stage(event.option.id)
