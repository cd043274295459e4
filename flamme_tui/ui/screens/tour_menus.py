"""Setting up a tour: choose a shipped (or user) tour, or pick the stages in
order, each raced as classic or meteo.  The teams screen comes next."""

from __future__ import annotations

from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ...usertext import clean, plain
from ...words import plural
from ..widgets.keybar import KeyBar
from .base import BaseScreen

PICK = "pick"  # the menu entry that picks the stages by hand
NOTICES = 2  # lines about broken tour files, at most


def tour_lines(spec) -> list[str]:
    """A tour's stages, one line each: "1. Avenue Corso Paseo (classic, 68 squares)"."""
    from .stage import stage_info

    lines = []
    for k, leg in enumerate(spec.stages, 1):
        try:
            name, _, summary, _ = stage_info(leg.stage)
            about = f"{summary.length} squares"
        except Exception:  # noqa: BLE001 - a stage file broken since: said, not raised
            name, about = leg.stage, "cannot be read"
        lines.append(clean(f"{k}. {name} ({leg.variant}, {about})", multiline=False))  # ids are file names
    return lines


class TourScreen(BaseScreen):
    """The tours to race (built-in, then the user's), and "pick the stages"."""

    HELP_TOPIC = "tour"
    DEFAULT_CSS = """
    #tour-top { height: 1fr; }
    #tour-menu { width: 30; height: auto; max-height: 100%; }
    #tour-about { width: 1fr; height: auto; padding: 0 1; }
    #tour-notice { height: auto; color: $warning; }
    """
    BINDINGS = [Binding("escape", "app.pop_screen", "Back", id="tour.back")]

    def compose(self):
        from ...play import tours

        self.specs = {}
        # every tour file read, good or broken: on resume, read again if they changed
        self.read_ids = {e.id for e in tours.tour_entries() if not e.shadowed}
        notices = []
        for entry in tours.tour_entries():
            if entry.shadowed:
                continue
            spec, problems = tours.check_tour_file(entry.path)
            if spec is None:  # a broken tour file is left out, with a line saying why
                first = problems[0] if problems else None
                where = f": {first.field}" if first is not None and first.field else ""
                # the file's name as it is on disk: its control characters written out
                notices.append(clean(f"{entry.path.name}{where}: {first.message if first else 'cannot be read'}",
                                     multiline=False))
                continue
            self.specs[entry.id] = spec
        yield from self.compose_notice()
        with Vertical(classes="menu-body"):
            yield Static("[b]New tour[/b] · stages raced in turn by the same teams: times, the general "
                         "classification and Tour Points", classes="screen-title")
            if notices:
                lines = [f"Left out: {note}" for note in notices[:NOTICES]]
                if len(notices) > NOTICES:
                    lines.append(f"and {len(notices) - NOTICES} more: see `flamme-tui tours check`")
                yield Static(Content("\n".join(lines)), id="tour-notice")
            with Horizontal(id="tour-top"):
                options = [Option(plain(f"{spec.name} ({plural(len(spec.stages), 'stage')})"), id=tid)
                           for tid, spec in self.specs.items()]
                options.append(Option("Pick the stages…", id=PICK))
                yield OptionList(*options, id="tour-menu")
                yield Static("", id="tour-about")
        yield KeyBar([("↑↓", "move"), ("⏎", "choose"), (self.help_key, "help"), (self.key_of("tour.back", "escape"), "back")])

    def on_screen_resume(self) -> None:
        """Back from picking the stages: a tour saved there is in the menu."""
        from ...play import tours

        super().on_screen_resume()
        if {e.id for e in tours.tour_entries() if not e.shadowed} != self.read_ids:
            self.call_later(self._read_again)

    async def _read_again(self) -> None:
        await self.recompose()
        self.on_mount()

    def on_mount(self) -> None:
        super().on_mount()
        menu = self.query_one("#tour-menu", OptionList)
        menu.focus()
        menu.highlighted = 0
        self.describe(menu.get_option_at_index(0).id)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self.describe(event.option.id)

    def describe(self, tid: str | None) -> None:
        about = self.query_one("#tour-about", Static)
        if tid == PICK or tid not in self.specs:
            about.update("Choose the stages yourself, in the order they are raced, each as classic or "
                         "meteo (the weather expansion).")
            return
        spec = self.specs[tid]
        # names and descriptions come from files: plain text, never markup
        text = Content.from_markup("[b]$name[/b]\n$description\n\n", name=spec.name, description=spec.description)
        about.update(text + Content("\n".join(tour_lines(spec))))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id == PICK:
            self.app.pick_tour_stages()
        elif event.option.id in self.specs:
            self.app.choose_tour(self.specs[event.option.id])


class TourStagesScreen(BaseScreen):
    """Pick a tour's stages in order: Enter adds the highlighted stage as
    classic, `m` as meteo, Backspace takes the last one off."""

    HELP_TOPIC = "tour-stages"
    DEFAULT_CSS = """
    #pick-top { height: 1fr; }
    #pick-menu { width: 30; height: auto; max-height: 100%; }
    #pick-chosen { width: 1fr; height: auto; padding: 0 1; }
    #pick-message { height: auto; color: $text-muted; }
    #pick-notice { height: auto; color: $warning; }
    """
    BINDINGS = [
        Binding("m", "add('meteo')", "Add as meteo", id="tour-stages.meteo"),
        Binding("r", "add_random", "Add a random stage", id="tour-stages.random"),
        Binding("w", "save", "Save the tour", id="tour-stages.save"),
        Binding("backspace,delete", "drop", "Take the last off", id="tour-stages.drop"),
        Binding("ctrl+s", "go", "On to the teams", priority=True, id="tour-stages.go"),
        Binding("escape", "app.pop_screen", "Back", id="tour-stages.back"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.legs: list[tuple[str, str]] = []  # (stage id or a random stage's code, variant)
        self.tour_name = "Your tour"  # the name it was saved under, if it was

    def compose(self):
        from ... import config
        from .stage import left_out

        statuses = config.stage_statuses()
        self.names = {s.entry.id: s.stage.name for s in statuses if s.stage is not None}
        yield from self.compose_notice()
        with Vertical(classes="menu-body"):
            yield Static("[b]New tour[/b] · pick the stages in race order", classes="screen-title")
            # a broken stage file is left out of the list, with a line saying why (as in the stage menu)
            notice = left_out(config.stage_notices(statuses))
            if notice is not None:
                yield Static(notice, id="pick-notice")
            with Horizontal(id="pick-top"):
                yield OptionList(*(Option(plain(name), id=sid) for sid, name in self.names.items()), id="pick-menu")
                yield Static("", id="pick-chosen")
            yield Static("", id="pick-message")
        go = self.key_of("tour-stages.go", "ctrl+s")
        yield KeyBar([("⏎", "add"), (self.key_of("tour-stages.meteo", "m"), "meteo"),
                      (self.key_of("tour-stages.random", "r"), "random"),
                      (self.key_of("tour-stages.drop", "backspace"), "take off"),
                      (self.key_of("tour-stages.save", "w"), "save"), (go, "teams"),
                      (self.help_key, "help"), (self.key_of("tour-stages.back", "escape"), "back")])

    def on_mount(self) -> None:
        super().on_mount()
        menu = self.query_one("#pick-menu", OptionList)
        menu.focus()
        menu.highlighted = 0
        self.show()

    def show(self, message: str = "") -> None:
        from ...play.tours import MAX_STAGES

        if self.legs:
            lines = [clean(f"{k}. {self.names.get(sid, sid)} · {variant}", multiline=False)
                     for k, (sid, variant) in enumerate(self.legs, 1)]
            chosen = Content.from_markup(f"[b]$name: {plural(len(self.legs), 'stage')}[/b]\n", name=self.tour_name)
            chosen += Content("\n".join(lines))
        else:
            meteo = self.key_of("tour-stages.meteo", "m")
            random = self.key_of("tour-stages.random", "r")
            chosen = Content(f"No stage yet: Enter adds the highlighted stage (classic), {meteo} adds it as meteo, "
                             f"{random} adds a new random stage.")
        self.query_one("#pick-chosen", Static).update(chosen)
        go = self.key_of("tour-stages.go", "ctrl+s")
        self.query_one("#pick-message", Static).update(
            Content(message or f"Up to {MAX_STAGES} stages, a stage may come back · {go}: on to the teams"))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_add("classic")

    def action_add(self, variant: str) -> None:
        from ...play.tours import MAX_STAGES

        menu = self.query_one("#pick-menu", OptionList)
        if menu.highlighted is None:
            return
        if len(self.legs) >= MAX_STAGES:
            self.show(f"A tour has at most {MAX_STAGES} stages.")
            return
        sid = menu.get_option_at_index(menu.highlighted).id
        if sid is None:
            return
        self.legs.append((sid, variant))
        self.show()

    def action_add_random(self) -> None:
        """A new random stage (medium, hilly, base box), by its code."""
        from ...play import tourbuild
        from ...play.tours import MAX_STAGES

        if len(self.legs) >= MAX_STAGES:
            self.show(f"A tour has at most {MAX_STAGES} stages.")
            return
        code = tourbuild.random_leg()
        self.names[code] = tourbuild.leg_name(code)
        self.legs.append((code, "classic"))
        self.show()

    def action_save(self) -> None:
        """Save the tour in the user tours folder under a name asked for (never
        over a file); it is then in the tour menu, and races as before."""
        from ... import limits as lim
        from ...config import ConfigError
        from ...play import tourbuild
        from .stagebuild import TextPrompt

        if not self.legs:
            self.show("Add at least one stage first (Enter or m).")
            return

        def named(name: str | None) -> None:
            if not name:
                return
            try:
                spec = tourbuild.tour_spec(name.strip(), self.legs)
                tid, path = tourbuild.save_tour(spec)
            except ConfigError as exc:
                self.notify(f"Not saved: {exc}", severity="error", timeout=8)
                return
            except OSError as exc:
                self.notify(f"Not saved: {exc.strerror or exc}: {exc.filename or ''}", severity="error", timeout=8)
                return
            self.tour_name = spec.name
            self.show(f"Saved as {tid} ({clean(path, multiline=False)}): in the tour menu from now on")

        self.app.push_screen(TextPrompt("Name of the tour", self.tour_name, max_length=lim.MAX_TOUR_NAME), named)

    def action_drop(self) -> None:
        if self.legs:
            self.legs.pop()
        self.show()

    def action_go(self) -> None:
        from ...play.tours import TourSpec, TourStage

        if not self.legs:
            self.show("Add at least one stage first (Enter or m).")
            return
        spec = TourSpec(name=self.tour_name, stages=tuple(TourStage.model_validate({"stage": sid, "variant": v})
                                                       for sid, v in self.legs))
        self.app.choose_tour(spec)
