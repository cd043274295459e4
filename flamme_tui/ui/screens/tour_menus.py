"""Setting up a tour: choose a shipped (or user) tour, or pick the stages in
order, each raced as classic or meteo.  The teams screen comes next."""

from __future__ import annotations

from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ...i18n import N_, _, ngettext
from ...usertext import clean
from ...words import stage_name, tour_name
from ..content import plain
from ..widgets.keybar import KeyBar
from .base import BaseScreen
from .variant import variant_word

PICK = "pick"  # the menu entry that picks the stages by hand
NOTICES = 2  # lines about broken tour files, at most


def tour_lines(spec) -> list[str]:
    """A tour's stages, one line each: "1. Avenue Corso Paseo (classic, 68 squares)"."""
    from .stage import stage_info

    lines = []
    for k, leg in enumerate(spec.stages, 1):
        try:
            name, _description, summary, _course = stage_info(leg.stage)
            about = _("{n} squares").format(n=summary.length)
        except Exception:  # noqa: BLE001 - a stage file broken since: said, not raised
            name, about = leg.stage, _("cannot be read")
        rules = variant_word(leg.variant)
        lines.append(clean(f"{k}. {name} ({rules}, {about})", multiline=False))  # ids are file names
    return lines


def tour_reader():
    """read(entry): (entry, the tour or None, its problems) of a tour file;
    None for a shadowed user tour.  Safe in a worker thread (filling.fill).
    The user's stage folder is listed once, at the first read, for every tour."""
    from ... import config
    from ...play import tours

    listed: list[dict] = []

    def read(entry) -> tuple | None:
        if entry.shadowed:
            return None
        if not listed:
            listed.append(config.user_stage_files())
        spec, problems = tours.check_tour_file(entry.path, listed[0])
        return entry, spec, problems

    return read


class TourScreen(BaseScreen):
    """The tours to race (built-in, then the user's), and "pick the stages"."""

    HELP_TOPIC = "tour"
    DEFAULT_CSS = """
    #tour-top { height: 1fr; }
    #tour-menu { width: 30; height: auto; max-height: 100%; }
    #tour-about { width: 1fr; height: auto; padding: 0 1; }
    #tour-notice { height: auto; color: $warning; }
    """
    BINDINGS = [Binding("escape", "app.pop_screen", N_("Back"), id="tour.back")]

    def compose(self):
        from ...play import tours
        from ..filling import now_or_later
        from .stage import reading_line

        # the shipped tours now, the user's too if few (filling.now_or_later); more are read in a worker (on_mount)
        entries = tours.tour_entries()
        now, self.pending = now_or_later([e for e in entries if e.source == "user"])
        self.reading_files = bool(self.pending)  # user tour files still being read
        self.files_read = 0  # of them
        self.specs = {}
        # every tour file there is, good or broken: on resume, read again if they changed
        self.read_ids = {e.id for e in entries if not e.shadowed}
        self.notices: list[str] = []
        read = tour_reader()
        for entry in entries:
            if entry.source != "user" or entry in now:
                self.take(read(entry))
        yield from self.compose_notice()
        with Vertical(classes="menu-body"):
            yield Static(_("[b]New tour[/b] · stages raced in turn by the same teams: times, the general "
                           "classification and Tour Points"), classes="screen-title")
            notice = reading_line(len(self.pending), "tour") if self.reading_files else self.notice()
            yield Static(notice or "", id="tour-notice").set_styles(display="block" if notice else "none")
            with Horizontal(id="tour-top"):
                options = [self.option(tid, spec) for tid, spec in self.specs.items()]
                options.append(Option(_("Pick the stages…"), id=PICK))
                yield OptionList(*options, id="tour-menu")
                yield Static("", id="tour-about")
        yield KeyBar([("↑↓", _("move")), ("⏎", _("choose")), (self.help_key, _("help")),
                      (self.key_of("tour.back", "escape"), _("back"))])

    @staticmethod
    def option(tid: str, spec) -> Option:
        stages = ngettext("{n} stage", "{n} stages", len(spec.stages)).format(n=len(spec.stages))
        return Option(plain(f"{tour_name(spec.name)} ({stages})"), id=tid)

    def take(self, read: tuple | None) -> bool:
        """A tour file read (tour_reader): its tour kept, or a line saying why it is left out."""
        if read is None:
            return False
        entry, spec, problems = read
        if spec is None:  # a broken tour file is left out, with a line saying why
            first = problems[0] if problems else None
            where = f": {first.field}" if first is not None and first.field else ""
            # the file's name as it is on disk: its control characters written out
            self.notices.append(clean(f"{entry.path.name}{where}: {first.message if first else _('cannot be read')}",
                                      multiline=False))
            return False
        self.specs[entry.id] = spec
        return True

    def notice(self) -> Content | None:
        if not self.notices:
            return None
        lines = [_("Left out: {problem}").format(problem=note) for note in self.notices[:NOTICES]]
        if len(self.notices) > NOTICES:
            lines.append(_("and {n} more: see `flamme-tui tours check`").format(n=len(self.notices) - NOTICES))
        return Content("\n".join(lines))

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
        from ..filling import fill

        super().on_mount()
        menu = self.query_one("#tour-menu", OptionList)
        menu.focus()
        menu.highlighted = 0
        self.describe(menu.get_option_at_index(0).id)
        fill(self, self.pending, tour_reader(), self.add_tours, self.tours_read)

    def add_tours(self, batch: list) -> None:
        """A batch of user tours read (filling.fill): onto the menu, before "Pick the stages"."""
        from .stage import reading_line

        self.files_read += len(batch)
        added = [read[0].id for read in batch if self.take(read)]
        if added:
            menu = self.query_one("#tour-menu", OptionList)
            highlighted = menu.highlighted_option.id if menu.highlighted_option is not None else None
            menu.remove_option(PICK)
            menu.add_options([*(self.option(tid, self.specs[tid]) for tid in added), Option("Pick the stages…", id=PICK)])
            if highlighted is not None:
                menu.highlighted = menu.get_option_index(highlighted)  # the player's place kept
        self.query_one("#tour-notice", Static).update(reading_line(len(self.pending), "tour", self.files_read))

    def tours_read(self) -> None:
        """Every user tour read: the lines saying which files are left out and why."""
        self.reading_files = False
        notice = self.query_one("#tour-notice", Static)
        lines = self.notice()
        notice.update(lines or "")
        notice.display = lines is not None

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self.describe(event.option.id)

    def describe(self, tid: str | None) -> None:
        about = self.query_one("#tour-about", Static)
        if tid == PICK or tid not in self.specs:
            about.update(_("Choose the stages yourself, in the order they are raced, each as classic or "
                           "meteo (the weather expansion)."))
            return
        spec = self.specs[tid]
        # names and descriptions come from files: plain text, never markup
        text = Content.from_markup("[b]$name[/b]\n$description\n\n", name=tour_name(spec.name), description=spec.description_said)
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
        Binding("m", "add('meteo')", N_("Add as meteo"), id="tour-stages.meteo"),
        Binding("r", "add_random", N_("Add a random stage"), id="tour-stages.random"),
        Binding("w", "save", N_("Save the tour"), id="tour-stages.save"),
        Binding("backspace,delete", "drop", N_("Take the last off"), id="tour-stages.drop"),
        Binding("ctrl+s", "go", N_("On to the teams"), priority=True, id="tour-stages.go"),
        Binding("escape", "app.pop_screen", N_("Back"), id="tour-stages.back"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.legs: list[tuple[str, str]] = []  # (stage id or a random stage's code, variant)
        self.tour_name = _("Your tour")  # the name it was saved under, if it was

    def compose(self):
        from ... import config
        from ..filling import now_or_later
        from .stage import left_out, reading_line

        # the shipped stages now, the user's too if few (filling.now_or_later); more are read in a worker (on_mount)
        entries = config.stage_entries()
        now, self.pending = now_or_later([e for e in entries if e.source == "user"])
        self.statuses = [s for e in entries if e.source != "user" or e in now if (s := config.stage_status(e)) is not None]
        self.reading_files = bool(self.pending)  # user stage files still being read
        self.files_read = 0  # of them
        self.names = {s.entry.id: stage_name(s.stage.name) for s in self.statuses if s.stage is not None}
        yield from self.compose_notice()
        with Vertical(classes="menu-body"):
            yield Static(_("[b]New tour[/b] · pick the stages in race order"), classes="screen-title")
            # a broken stage file is left out of the list, with a line saying why (as in the stage menu)
            notice = (reading_line(len(self.pending), "stage") if self.reading_files
                      else left_out(config.stage_notices(self.statuses)))
            yield Static(notice or "", id="pick-notice").set_styles(display="block" if notice else "none")
            with Horizontal(id="pick-top"):
                yield OptionList(*(Option(plain(name), id=sid) for sid, name in self.names.items()), id="pick-menu")
                yield Static("", id="pick-chosen")
            yield Static("", id="pick-message")
        go = self.key_of("tour-stages.go", "ctrl+s")
        yield KeyBar([("⏎", _("add")), (self.key_of("tour-stages.meteo", "m"), _("meteo")),
                      (self.key_of("tour-stages.random", "r"), _("random")),
                      (self.key_of("tour-stages.drop", "backspace"), _("take off")),
                      (self.key_of("tour-stages.save", "w"), _("save")), (go, _("teams")),
                      (self.help_key, _("help")), (self.key_of("tour-stages.back", "escape"), _("back"))])

    def on_mount(self) -> None:
        from ... import config
        from ..filling import fill

        super().on_mount()
        menu = self.query_one("#pick-menu", OptionList)
        menu.focus()
        menu.highlighted = 0
        self.show()
        fill(self, self.pending, config.stage_status, self.add_stages, self.stages_read)

    def add_stages(self, batch: list) -> None:
        """A batch of user stages read (filling.fill): onto the menu."""
        from .stage import reading_line

        self.files_read += len(batch)
        statuses = [s for s in batch if s is not None]  # None: a shadowed stage (no id names it)
        self.statuses += statuses
        usable = [s for s in statuses if s.stage is not None]
        self.names.update((s.entry.id, stage_name(s.stage.name)) for s in usable)
        menu = self.query_one("#pick-menu", OptionList)
        menu.add_options(Option(plain(stage_name(s.stage.name)), id=s.entry.id) for s in usable)
        if menu.highlighted is None and menu.option_count:
            menu.highlighted = 0
        self.query_one("#pick-notice", Static).update(reading_line(len(self.pending), "stage", self.files_read))

    def stages_read(self) -> None:
        """Every user stage read: the lines saying which files are left out and why."""
        from ... import config
        from .stage import left_out

        self.reading_files = False
        notice = self.query_one("#pick-notice", Static)
        lines = left_out(config.stage_notices(self.statuses))
        notice.update(lines or "")
        notice.display = lines is not None

    def show(self, message: str = "") -> None:
        from ...play.tours import MAX_STAGES

        if self.legs:
            lines = [clean(f"{k}. {self.names.get(sid, sid)} · {variant_word(variant)}", multiline=False)
                     for k, (sid, variant) in enumerate(self.legs, 1)]
            chosen = Content.from_markup("[b]$head[/b]\n", head=_("{name}: {stages}").format(
                name=self.tour_name, stages=ngettext("{n} stage", "{n} stages", len(self.legs)).format(n=len(self.legs))))
            chosen += Content("\n".join(lines))
        else:
            meteo = self.key_of("tour-stages.meteo", "m")
            random = self.key_of("tour-stages.random", "r")
            chosen = Content(_("No stage yet: Enter adds the highlighted stage (classic), {key} adds it as meteo, "
                               "{random} adds a new random stage.").format(key=meteo, random=random))
        self.query_one("#pick-chosen", Static).update(chosen)
        go = self.key_of("tour-stages.go", "ctrl+s")
        self.query_one("#pick-message", Static).update(
            Content(message or _("Up to {n} stages, a stage may come back · {key}: on to the teams").format(
                n=MAX_STAGES, key=go)))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_add("classic")

    def action_add(self, variant: str) -> None:
        from ...play.tours import MAX_STAGES

        menu = self.query_one("#pick-menu", OptionList)
        if menu.highlighted is None:
            return
        if len(self.legs) >= MAX_STAGES:
            self.show(_("A tour has at most {n} stages.").format(n=MAX_STAGES))
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
            self.show(_("A tour has at most {n} stages.").format(n=MAX_STAGES))
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
            self.show(_("Add at least one stage first (Enter or {key}).").format(key=self.key_of("tour-stages.meteo", "m")))
            return

        def named(name: str | None) -> None:
            if not name:
                return
            try:
                spec = tourbuild.tour_spec(name.strip(), self.legs)
                tid, path = tourbuild.save_tour(spec)
            except ConfigError as exc:
                self.notify(_("Not saved: {problem}").format(problem=exc), severity="error", timeout=8)
                return
            except OSError as exc:
                self.notify(_("Not saved: {problem}").format(problem=f"{exc.strerror or exc}: {exc.filename or ''}"),
                            severity="error", timeout=8)
                return
            self.tour_name = spec.name
            self.show(_("Saved as {id} ({path}): in the tour menu from now on").format(
                id=tid, path=clean(path, multiline=False)))

        self.app.push_screen(TextPrompt(_("Name of the tour"), self.tour_name, max_length=lim.MAX_TOUR_NAME), named)

    def action_drop(self) -> None:
        if self.legs:
            self.legs.pop()
        self.show()

    def action_go(self) -> None:
        from ...play.tours import TourSpec, TourStage

        if not self.legs:
            self.show(_("Add at least one stage first (Enter or {key}).").format(key=self.key_of("tour-stages.meteo", "m")))
            return
        spec = TourSpec(name=self.tour_name, stages=tuple(TourStage.model_validate({"stage": sid, "variant": v})
                                                       for sid, v in self.legs))
        self.app.choose_tour(spec)
