"""The Textual app: title menu -> variant -> stage or BMX circuit -> teams -> race -> podium.

`run()` is what `flamme-tui` (no arguments) calls.  The engine is imported
only once a race is being set up (and preloaded in the background while the
title menu waits), so the title appears fast.

Work that takes a while runs in Textual thread workers, never on the UI
thread: the preload, looking for a save to resume, the autosave's fsync'ed
writes (here) and the bots' thinking (the race screen).  A worker that fails
is reported (`on_worker_state_changed`), never swallowed.
"""

from __future__ import annotations

import gc
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.events import DeliveryComplete, DeliveryFailed
from textual.message import Message
from textual.notifications import SeverityLevel
from textual.worker import Worker, WorkerState

from ..i18n import N_, _, ngettext
from ..usertext import clean
from .keys import ALWAYS_QUITS, shown_key
from .screens.title import TitleScreen

if TYPE_CHECKING:
    from ..play.flow import RaceFlow
    from ..play.thinker import Thinker
    from ..saves import Autosave, SavedRace
    from ..settings import Settings
    from .choices import RaceChoices


class SaveFailed(Message):
    """An autosave write failed (posted from the thread that wrote: posting is thread-safe)."""

    def __init__(self, error: Exception) -> None:
        super().__init__()
        self.error = error


# The themes offered (settings screen, palette): each checked readable, and
# under NO_COLOR too (the ansi-* themes are not: black on black).
THEMES = ("textual-dark", "textual-light", "nord", "gruvbox", "solarized-light")


class FlammeApp(App[int]):
    CSS_PATH = "app.tcss"
    TITLE = "Flamme Rouge"
    # ctrl+p: the palette holds the app's own commands (get_system_commands)
    ENABLE_COMMAND_PALETTE = True
    COMMAND_PALETTE_DISPLAY = "^p"
    BINDINGS = [
        Binding("ctrl+q", "request_quit", N_("Quit"), show=False, priority=True, id="app.quit"),
        Binding("ctrl+c", "help_quit", show=False, priority=True, system=True),
    ]

    def __init__(self, *, autoplay: bool | None = None, seed: int | None = None,
                 autosave: bool = True, session=None, thinker: Thinker | None = None) -> None:
        from .hangup import Hangup

        # (before Textual's constructor: it asks get_driver_class)
        self._hangup = Hangup(self._end_by_signal, self._last_resort)
        super().__init__()
        self._thinker = thinker
        self._helps: list[str] = []  # the help screens kept built (show_help), oldest first
        # the player's settings (flamme_tui.settings), read by every screen as app.settings;
        # loaded once the title menu is drawn (pydantic takes a while to import), or
        # at once by whoever needs them first
        self._settings: Settings | None = None
        self._settings_saved: Settings | None = None  # as last read or written: a save writes what differs
        self.settings_problem: str | None = None
        self.autosave = autosave  # save every race after every action (saves.attach_autosave)
        self.resume_session = session  # a saved race to open at once (flamme-tui --resume)
        if autoplay is None:
            autoplay = os.environ.get("TEXTUAL_ANIMATIONS", "").lower() != "none"
        # False: the step-through never starts by itself (tests, screenshots); its
        # pace is the settings' step_speed (`p` on the race screen), `a` starts it
        self.autoplay = autoplay
        self.seed = seed  # offered on the teams screen instead of a random seed (tests, screenshots)
        self.choices: RaceChoices | None = None  # the last race set up (RaceChoices), reused by "race again"
        self.flow: RaceFlow | None = None  # the race in progress
        self.autosaver: Autosave | None = None  # the race in progress's autosave, if it is saved

    @property
    def thinker(self) -> Thinker:
        """Where the bots think: a process of their own (started on first
        use), so the screen answers keys meanwhile."""
        if self._thinker is None:
            from ..play.thinker import Thinker

            self._thinker = Thinker()
        return self._thinker

    HELPS_KEPT = 8

    def open_help(self, text: str, keys: str) -> None:
        """The help (dialogs.HelpScreen).  A help shown before is kept built,
        so it comes back within a frame: building it took longer."""
        import hashlib  # (here: loading OpenSSL's hashes is no part of the start-up)

        from .screens.dialogs import HelpScreen

        name = "help " + hashlib.sha256(f"{text}\0{keys}".encode()).hexdigest()
        if name in self._helps:
            self._helps.remove(name)
        else:
            self.install_screen(HelpScreen(text, keys), name)
            while len(self._helps) >= self.HELPS_KEPT and self.get_screen(self._helps[0]) not in self.screen_stack:
                self.uninstall_screen(self._helps.pop(0))
        self._helps.append(name)
        self.push_screen(name)

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information", timeout: float | None = None,
               markup: bool = False) -> None:
        """A toast, plain text unless a caller asks for markup (Textual's
        default is markup): messages carry file names, settings values and
        players' names, where `[/]` would crash the app and `[@click=...]`
        become a link.  Control characters are written out (usertext)."""
        super().notify(clean(message), title=clean(title, multiline=False), severity=severity, timeout=timeout,
                       markup=markup)

    def on_mount(self) -> None:
        self._end_on_signals()
        self.push_screen(TitleScreen())  # the settings come once it is drawn (preload)
        if self.resume_session is not None:
            session, self.resume_session = self.resume_session, None
            # the settings first: the race's screens name the keys as the player binds them
            # (read after the title menu is drawn otherwise, the race already composed with the defaults)
            self.load_settings()
            self.resume(session)

    async def _check_bindings(self, key: str, priority: bool = False) -> bool:
        """ctrl+q quits whatever app.quit is bound to (keys.ALWAYS_QUITS: a
        player cannot lock themselves in; a keymap drops every binding of a
        key it moves, so a second binding would not do).  A key that types a
        character, pressed in a text field (a name, the seed, the palette's
        search), is typed there, even if a player bound it to an app-wide
        action: priority bindings would take it first."""
        if priority and key == ALWAYS_QUITS:
            self.action_request_quit()
            return True
        if priority and self._typing_into_field():
            from .keys import types_a_character

            if types_a_character(key):
                return False
        return await super()._check_bindings(key, priority)

    def _typing_into_field(self) -> bool:
        from textual.widgets import Input

        return isinstance(self.focused, Input)

    def get_driver_class(self):
        """Textual's driver, but for its writes to a terminal that is gone (hangup.GuardedOutput)."""
        from .hangup import guarded_driver

        default = super().get_driver_class()
        guarded = guarded_driver(self._hangup)
        return guarded if guarded is not None and issubclass(guarded, default) else default

    def _end_on_signals(self) -> None:
        """SIGTERM, SIGHUP and the terminal gone (a window closed: see
        hangup.py for why this needs a thread of its own) end the app as a
        quit does: the pending save written, then Textual's exit gives the
        terminal back (raw mode, alternate screen, mouse reporting undone),
        if it is still there.  Python's default for the signals killed the
        app on the spot, the terminal left raw.  Not under tests (headless):
        the test runner's signals."""
        if self.is_headless:
            return
        import asyncio

        self._hangup.start(asyncio.get_running_loop())

    def _end_by_signal(self, code: int) -> None:
        self.flush_saves()
        self.exit(code)  # 128 + the signal's number: the shell's code for "ended by this signal"

    def _last_resort(self) -> None:
        """The app did not end in time after a signal (hangup.Hangup, from its
        thread, just before the process is ended): write the pending save,
        let the race file go, stop the bots' process."""
        saver = self.autosaver
        if saver is not None:
            saver.flush()
            saver.close()
        if self._thinker is not None:
            self._thinker.close()

    def on_unmount(self) -> None:
        self._hangup.stop()
        if self._thinker is not None:
            self._thinker.close()
        self.flush_saves()
        self._let_go_of_save()  # the race file's lock: nobody holds it once the app is gone

    def preload(self) -> None:
        """Import the engine in the background while the title menu waits
        (and read the settings now: the title menu is on screen)."""
        self.load_settings()

        def load() -> None:
            from .. import saves  # noqa: F401
            from ..play import flow, races  # noqa: F401
            from .screens import curtain, dialogs, race  # noqa: F401

            if self.autosave:
                self._call_from_thread(self._offer_resume, self._latest_save())
            self._call_from_thread(self.tidy_memory)

        self.run_worker(load, name="preload", group="preload", thread=True, exit_on_error=False)

    def look_for_resume(self) -> None:
        """Bring the title menu's Resume entry up to date (in a worker thread:
        reading the saves takes a moment)."""
        if not self.autosave:
            return
        self.run_worker(lambda: self._call_from_thread(self._offer_resume, self._latest_save()),
                        name="look for resume", group="resume", thread=True, exclusive=True, exit_on_error=False)

    def _call_from_thread(self, callback, *args) -> None:
        """From a worker: run `callback` on the UI thread, unless the app has gone meanwhile."""
        try:
            self.call_from_thread(callback, *args)
        except RuntimeError:
            if self.is_running:
                raise

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """Say when a worker of the app failed (the bots' workers belong to the race screen)."""
        if event.state == WorkerState.ERROR:
            error = event.worker.error
            self.notify(clean(f"{event.worker.name} failed: {type(error).__name__}: {error}"), severity="error",
                        timeout=10, markup=False)

    def _post_save_failed(self, exc: Exception) -> None:
        """The autosave's on_error, from whichever thread wrote (never blocks:
        a flush on the UI thread may be waiting for that write)."""
        self.post_message(SaveFailed(exc))

    def on_save_failed(self, message: SaveFailed) -> None:
        self._save_failed(message.error)

    def tidy_memory(self, full: bool = True) -> None:
        """Collect garbage now, then freeze what lives on (the app, the race screen).

        Python's full garbage collection walks every object: with a Textual app
        that takes 15-45 ms, at a random key press.  Frozen objects are not
        walked, so later collections stay short.  Called while nobody waits for
        a key: the title menu and the first curtain (or turn) of a race once
        shown (full: the previous race's objects are unfrozen first, so they
        go), and the reveal of every round (only what is new since: 5-10 ms)."""
        if full:
            gc.unfreeze()
        gc.collect()
        gc.freeze()

    @staticmethod
    def _latest_save():
        """The newest race not finished (a saves.SavedRace: it may be damaged), or None."""
        try:
            from .. import saves

            return next((race for race in saves.list_saves() if not race.over), None)
        except Exception:  # no saves folder: no Resume entry
            return None

    def _offer_resume(self, info) -> None:
        for screen in self.screen_stack:
            if isinstance(screen, TitleScreen):
                screen.offer_resume(info)

    def resume_path(self, path) -> None:
        """Open a saved race (the title menu's Resume).  A damaged one shows
        what was lost and the backups it can go on from; a backup goes on as
        a new race file (a branch); a race open in another flamme-tui is
        refused."""
        from .. import saves

        try:
            session = saves.load(path)
        except Exception as exc:  # saves.SaveError and friends: say so, stay on the menu
            race = next((r for r in saves.list_saves(saves._base_of(path).parent)
                         if r.path == saves._base_of(path) and r.status == saves.DAMAGED), None)
            if race is not None and saves._base_of(path) == path:
                self.show_damaged(race)
            else:
                self.notify(clean(exc), severity="error", timeout=8, markup=False)
            return
        if self.autosave:
            try:
                saves.attach_autosave(session, on_error=self._save_failed)
            except saves.SaveLocked as exc:
                self.notify(clean(exc), severity="error", timeout=10, markup=False)
                return
        self.resume(session)

    def show_damaged(self, race: SavedRace) -> None:
        """A race whose newest file cannot be used: say so, offer its backups."""
        from .screens.dialogs import DamagedSave

        def answer(backup: str | None) -> None:
            if backup:  # once the dialog is gone
                self.call_later(self.resume_path, backup)

        self.push_screen(DamagedSave(race), answer)

    def resume(self, session) -> None:
        from ..play.flow import RaceFlow

        if session.tour is not None and session.over:
            # a tour saved between two stages: the stage's result first, then the next stage
            self.show_stage_result(RaceFlow(session))
            return
        hosted = self._hosted(session)
        if hosted is not None:  # a race hosted from this app: hosted again, its devices' codes the same
            room, codes, here = hosted
            self.host_table(session, here, codes, room)
            return
        flow = RaceFlow(session)
        from ..play.narrator import Branched, Resumed

        flow.notes.append(Resumed(session.game.round))
        if getattr(session, "branch_of", None) is not None:
            # said in the race log, and on the first curtain if the race opens on one: never a
            # toast (at the bottom right it hid the rider table at every size)
            flow.notes.append(Branched(session.branch_of.name, session.save_path.name))
        self.start_flow(flow)

    # ------------------------------------------------------------ the menus

    def _choices(self) -> RaceChoices:
        from .choices import RaceChoices

        if self.choices is None:
            self.choices = RaceChoices()
        return self.choices

    def new_race(self, from_podium: bool = False, hosting: bool = False) -> None:
        from .screens.variant import VariantScreen

        self.hosting = hosting  # "Host a table": the human seats play on their own devices
        if from_podium:
            self.back_to_title()
        self._choices().seed = self.fresh_seed()
        self._choices().tour = None
        self.push_screen(VariantScreen())

    # ------------------------------------------------------------- tours

    def new_tour(self, from_podium: bool = False) -> None:
        """A tour: choose a shipped (or user) tour or pick the stages, then the teams."""
        from .screens.tour_menus import TourScreen

        self.hosting = False  # (a table is hosted for one race, not a tour)
        if from_podium:
            self.back_to_title()
        self._choices().seed = self.fresh_seed()
        self.push_screen(TourScreen())

    def pick_tour_stages(self) -> None:
        from .screens.tour_menus import TourStagesScreen

        self.push_screen(TourStagesScreen())

    def choose_tour(self, spec) -> None:
        """The tour is chosen: its teams (scripted teams only if every stage is classic)."""
        choices = self._choices()
        choices.tour = spec
        choices.variant = choices.tour_variant
        self._teams()

    def show_stage_result(self, flow) -> None:
        """A tour's stage is over: its times, the GC, the TP.  The race file
        stays this app's (the tour goes on in it); after the last stage the
        tour's podium follows."""
        from ..play.tours import standing, tour_over
        from .screens.tour_results import StageResultScreen

        self.flush_saves()
        self.flow = None
        if tour_over(flow.session):
            self._let_go_of_save()
        self.back_to_title()
        self.push_screen(StageResultScreen(standing(flow.session), flow.session))

    def next_stage(self, session) -> None:
        """On to the tour's next stage, in the same race file."""
        from ..play.flow import RaceFlow
        from ..play.tours import next_session

        following = next_session(session)
        if self.autosave:
            from .. import saves

            try:  # takes the race file over from the stage before (its lock included)
                saves.attach_autosave(following, on_error=self._post_save_failed)
            except Exception as exc:  # noqa: BLE001 - the tour goes on without saves
                self._save_failed(exc)
        self.start_flow(RaceFlow(following))

    def show_tour_podium(self, tour, saved=None) -> None:
        """The tour is over (`saved`: its race file, for its replay)."""
        from .screens.tour_results import TourPodiumScreen

        self._let_go_of_save()
        self.back_to_title()
        self.push_screen(TourPodiumScreen(tour, saved))

    def tour_again(self, tour) -> None:
        """The same tour and teams again, with a new seed."""
        choices = self._choices().copy()
        if choices.tour is None:
            self.new_tour(from_podium=True)
            return
        choices.seed = self.fresh_seed()
        self.start_race(choices)

    def fresh_seed(self) -> int:
        from .choices import random_seed

        return self.seed if self.seed is not None else random_seed()

    def choose_variant(self, variant: str) -> None:
        choices = self._choices()
        choices.variant = variant
        from ..engine.rules import find

        if find(variant).uses_tokens:
            from .screens.bmx_builder import BmxBuilderScreen

            self.push_screen(BmxBuilderScreen(choices.circuit, choices.ramp, choices.forecast))
        else:
            from .screens.stage import StageScreen

            self.push_screen(StageScreen(variant, choices.stage))

    def choose_stage(self, stage: str) -> None:
        self._choices().stage = stage
        self._teams()

    def choose_circuit(self, circuit: str, ramp, forecast: bool) -> None:
        choices = self._choices()
        choices.circuit, choices.ramp, choices.forecast = circuit, ramp, forecast
        self._teams()

    def _teams(self) -> None:
        from .screens.teams import TeamsScreen

        self.push_screen(TeamsScreen(self._choices(), hosting=getattr(self, "hosting", False)))

    # ------------------------------------------------------------- the race

    def start_race(self, choices) -> None:
        from ..config import ConfigError
        from ..play.flow import RaceFlow
        from ..play.session import secret_seed

        self.choices = choices
        hosting = getattr(self, "hosting", False)
        try:
            # a hosted table's seed is one nobody is told: a device that knew it could deal every hand
            # (play.session.secret_seed); the set-up screen shows no seed then.  (An app given its
            # seed, as tests and screenshots are, races that one: the same race every time.)
            seed = self.seed if self.seed is not None else secret_seed()
            session = choices.with_seed(seed).session() if hosting else choices.session()
        except ConfigError as exc:  # the stage file broke after it was chosen
            self.notify(clean(exc), severity="error", timeout=8, markup=False)
            return
        # what the set-up said (a colour swap, a seat changed) stays with the set-up:
        # its toast covered the standings on the race's first curtain
        self.clear_notifications()
        if hosting:
            self.host_table(session, choices.here())
            return
        self.start_flow(RaceFlow(session))

    def host_a_table(self) -> None:
        """The title menu's and the palette's "Host a table": a race set up as any, then hosted (screens/host.py)."""
        self.new_race(from_podium=True, hosting=True)

    def host_table(self, session, here: tuple[int, ...] | set[int] = (), codes: dict[int, str] | None = None,
                   room: str = "") -> None:
        from .screens.host import HostScreen

        self.hosting = False
        self.flush_saves()
        self._let_go_of_save()
        if self.autosave:
            self._attach_autosave(session)
        self.back_to_title()
        self.push_screen(HostScreen(session, here, codes, room))

    @staticmethod
    def _hosted(session) -> tuple[str, dict[int, str], set[int]] | None:
        """(room, seat codes, seats played here) of a race in progress that a host
        left (its seats file beside the race file, or beside the race a branch comes
        from), else None: resumed or branched, it is hosted again, never played at
        one screen (its devices' hands would show there)."""
        path = getattr(session, "save_path", None)
        if path is None or session.over or session.tour is not None:
            return None
        from ..net.host import read_codes, read_here, seats_file
        from ..saves import race_file

        seats = seats_file(path)
        branch_of = getattr(session, "branch_of", None)
        if not seats.exists() and branch_of is not None:
            seats = seats_file(race_file(branch_of))  # the table branches together: the same room and codes
        if not seats.exists():
            return None
        teams = len(session.setup.teams)
        try:
            room, codes = read_codes(seats, teams)
        except ValueError:  # unreadable: hosted again with new codes, every human seat on a device of its own
            return "", {}, set()
        return room, codes, read_here(seats, teams)

    def start_flow(self, flow) -> None:
        """Show a race (a new one, or one rebuilt from a save)."""
        from .screens.race import RaceScreen

        self.flush_saves()  # the race left behind, if any
        self._let_go_of_save()
        self.flow = flow
        flow.show_reasons = self.settings.bot_reasons
        self._set_budget(flow)
        if self.autosave:
            self._attach_autosave(flow.session)
        self.back_to_title()
        self.push_screen(RaceScreen(flow))

    def _attach_autosave(self, session) -> None:
        from .. import saves

        self.autosaver = None
        try:  # attached already for a resumed race: the same autosave
            self.autosaver = saves.attach_autosave(session, on_error=self._post_save_failed)
            # after each action the game changes on the UI thread: the save is encoded
            # there, and written (fsync'ed) in a worker; see saves.Autosave for the order
            self.autosaver.defer = lambda store: self.run_worker(store, name="autosave", group="autosave",
                                                                 thread=True, exit_on_error=False)
        except Exception as exc:  # the race goes on without saves
            self._save_failed(exc)

    def _let_go_of_save(self) -> None:
        """The race in progress is left: release its race file (its lock)."""
        if self.autosaver is not None:
            self.autosaver.detach()
            self.autosaver = None

    def _save_failed(self, exc) -> None:
        """Said once for each run of failed saves (saves.Autosave calls it on the first)."""
        if threading.get_ident() != self._thread_id:  # a save written off the UI thread
            self._call_from_thread(self._save_failed, exc)
            return
        from ..saves import save_problem

        # a tour's race file holds the whole tour: said so, the stage going on
        if self._stage_of_tour() is not None:
            title = _("Tour not saved")
            text = _("Could not save the tour: {problem}. The stage goes on; what is already on disk is kept as it was.")
        else:
            title = _("Not saved")
            text = _("Could not save the race: {problem}. The race goes on; what is already on disk is kept as it was.")
        self.notify(text.format(problem=clean(save_problem(exc))), title=title, severity="error", timeout=12,
                    markup=False)

    def _stage_of_tour(self) -> int | None:
        """The stage of a tour being raced (1-based), None in a race that is no tour's."""
        tour = self.flow.session.tour if self.flow is not None else None
        return None if tour is None else len(tour.done) + 1

    def save_state(self) -> str:
        """For the quit dialog: "saved", "" (no saves) or why the race is not all on disk."""
        saver = self.autosaver
        if not self.autosave:
            return ""
        # in a tour: the whole tour at its first stage; later, the stage being raced (those before are on disk)
        stage = self._stage_of_tour()
        if saver is None:
            return (_("Saving is not working: the race in progress will be lost.") if stage is None else
                    _("Saving is not working: the tour in progress will be lost.") if stage == 1 else
                    _("Saving is not working: what was played in this stage will be lost."))
        if saver.saved or saver.writing:  # (writing: leaving flushes it first, and asks again if that fails)
            return "saved"
        from ..saves import save_problem

        why = save_problem(saver.error) if saver.error is not None else _("not saved yet")
        if saver.saved_actions is None:
            return (_("It could not be saved ({why}): the race in progress will be lost.") if stage is None else
                    _("The tour could not be saved ({why}): it will be lost.") if stage == 1 else
                    _("This stage could not be saved ({why}): what was played in it will be lost.")).format(why=why)
        n = saver.saved_actions
        if stage is not None:
            return ngettext("The tour's last save ({n} action into this stage) is behind ({why}): what was played "
                            "since will be lost.",
                            "The tour's last save ({n} actions into this stage) is behind ({why}): what was played "
                            "since will be lost.", n).format(n=n, why=why)
        return ngettext("The last save ({n} action) is behind the race ({why}): what was played since will be lost.",
                        "The last save ({n} actions) is behind the race ({why}): what was played since will be lost.",
                        n).format(n=n, why=why)

    def flush_saves(self) -> bool:
        """Wait for the race's pending autosave write (before quitting or leaving
        the race); False if a write failed (said once by `_save_failed`)."""
        flow = self.flow
        if flow is None:
            return True
        from .. import saves

        good = True
        for listener in flow.session.listeners:
            if isinstance(listener, saves.Autosave):
                good = listener.flush() and good
        return good

    def show_podium(self, flow) -> None:
        from .screens.podium import PodiumScreen

        if flow.session.tour is not None:
            self.show_stage_result(flow)
            return
        self.flush_saves()
        self.flow = None
        self._let_go_of_save()
        self.back_to_title()
        self.push_screen(PodiumScreen(flow))

    def race_again(self) -> None:
        choices = self._choices().copy()
        choices.seed = self.fresh_seed()
        self.start_race(choices)

    def back_to_title(self) -> None:
        while len(self.screen_stack) > 2 or (len(self.screen_stack) == 2 and not isinstance(self.screen, TitleScreen)):
            self.pop_screen()

    # ------------------------------------------- after a race: the results

    def to_title(self) -> None:
        """From a results screen to the title menu.  A tour between two stages
        lets its race file go: Resume on the title menu goes on with it."""
        self._let_go_of_save()
        self.back_to_title()
        self._race_left()

    def _race_left(self) -> None:
        """Back on the title menu from a race: its Resume goes under the cursor (README: "first, and under
        the cursor"); the cursor stayed on New race, and Enter started another race."""
        if isinstance(self.screen, TitleScreen):
            self.screen.race_left()

    def show_replay(self, path) -> None:
        """The replay of a saved race (the saved races' list and the results
        screens open it); a save that cannot be read is said in one line."""
        from ..saves import SaveError, load_replay
        from .replay import ReplayScreen

        try:
            replay = load_replay(path)
        except SaveError as exc:
            self.notify(str(exc), severity="error", timeout=8)
            return
        self.push_screen(ReplayScreen(replay))

    def ask_quit(self, note: str) -> None:
        """`q` on a results screen: quit, the title menu or stay, as the race's
        quit asks (`note`: what is saved, in words)."""
        from .screens.dialogs import ConfirmQuit, QuitResults

        if isinstance(self.screen, ConfirmQuit):
            return

        def answer(what: str | None) -> None:
            if what == "app":
                self.exit(0)
            elif what == "title":
                self.to_title()

        self.push_screen(QuitResults(note), answer)

    # --------------------------------- settings, palette, themes and keys

    @property
    def settings(self) -> Settings:
        return self.load_settings()

    @settings.setter
    def settings(self, value: Settings) -> None:
        self._settings = value

    def load_settings(self) -> Settings:
        """Read the settings file (once) and use it; an invalid one is said in one line."""
        if self._settings is not None:
            return self._settings
        from .. import i18n
        from .. import settings as user_settings

        before = i18n.language()
        settings, self.settings_problem = user_settings.load()
        self._settings = self._settings_saved = settings
        problems = self.apply_settings(settings)
        if i18n.language() != before:  # the file chose the language: what is wrong with it, said in it
            if self.settings_problem is not None:
                _again, self.settings_problem = user_settings.load()
            problems = self.apply_settings(settings)
        for problem in filter(None, [self.settings_problem, *problems]):
            self.notify(problem, severity="warning", timeout=10)
        for screen in self.screen_stack:  # key bars drawn before: the keys as bound now
            keys_changed = getattr(screen, "keys_changed", None)
            if keys_changed is not None:
                keys_changed()
        return settings

    def apply_settings(self, settings: Settings) -> list[str]:
        """Use these settings now (theme, keys); returns what was
        refused, in words (an unknown theme or binding id)."""
        problems = []
        self.settings = settings
        for name in list(self.available_themes):
            if name not in THEMES:
                self.unregister_theme(name)
        if settings.theme in THEMES:
            self.theme = settings.theme
        else:
            problems.append(_("unknown theme {theme!r} (themes: {themes})").format(theme=settings.theme,
                                                                                  themes=", ".join(THEMES)))
        known = set()
        if settings.keys:  # (the screens are imported only then: start-up time counts)
            from .keys import binding_ids

            known = set(binding_ids())
        keymap = {k: v for k, v in settings.keys.items() if k in known}
        problems += [_("unknown key binding id {id!r}").format(id=k) for k in settings.keys if k not in known]
        if keymap:
            from .keys import keymap_problems

            refused = {k: keymap_problems(k, v, keymap) for k, v in keymap.items()}
            problems += [p for k in refused for p in refused[k]]
            keymap = {k: v for k, v in keymap.items() if not refused[k]}
        self.set_keymap(keymap)
        self.use_language(settings.language)
        if getattr(self, "flow", None) is not None:  # a race in progress: its bots think as now set
            self._set_budget(self.flow)
        return problems

    def use_language(self, setting: str) -> None:
        """Speak the language the settings (or --lang, or the environment) ask for;
        if it changed, every screen is drawn again in it."""
        from .. import i18n

        before = i18n.language()
        if i18n.choose(setting=setting) != before:
            self.language_changed()

    def language_changed(self) -> None:
        """Draw every screen of the stack again in the new language: each screen
        that can be composed again is (`relanguage`, BaseScreen), the help screens
        kept built are dropped (they are built again on demand); the teams the
        next New race offers, still named by default, are named again (a race's
        teams are named when shown: words.team_name)."""
        if self.choices is not None:
            self.choices.name_defaults_again()
        shown = [name for name in self._helps if self.get_screen(name) in self.screen_stack]
        for name in self._helps:
            if name not in shown:
                self.uninstall_screen(name)
        self._helps = shown
        for screen in self.screen_stack:
            relanguage = getattr(screen, "relanguage", None)
            if relanguage is not None:
                relanguage()

    def _set_budget(self, flow) -> None:
        """The expert bot's thinking time, from the settings (the bots are imported once a race exists)."""
        from ..bots.budget import Budget

        flow.session.budget = Budget(seconds=self.settings.bot_seconds)

    def key_of(self, binding_id: str, default: str) -> str:
        """The key shown for a binding (the user's keymap, else the default),
        so key bars and help always agree with what the keys do.  Before the
        settings are read (the title menu is drawn first: reading them imports
        pydantic) the keymap is not in use yet: the default is the key."""
        return (self.keys_of(binding_id, default) or [default])[0]

    def keys_of(self, binding_id: str, default: str) -> list[str]:
        """Every key of a binding as shown (see key_of), for the help's words."""
        return [self.get_key_display(Binding(key, "")) for key in self.bound_keys(binding_id, default)]

    def bound_keys(self, binding_id: str, default: str) -> list[str]:
        """Every key of a binding as Textual names it (question_mark, f1): the
        user's keymap, else the default (see key_of)."""
        keys = self._keymap.get(binding_id, default) if self._settings is not None else default
        return [key.strip() for key in keys.split(",") if key.strip()]

    def get_key_display(self, binding: Binding) -> str:
        """A key as Textual shows it (⏎, ←, esc), a word among them in the player's language (space)."""
        from .keys import key_word

        return key_word(super().get_key_display(binding))

    def get_system_commands(self, screen):
        """The palette (ctrl+p): the app's own commands, on every screen."""
        # (Textual's own system commands are not offered: only these, in the player's language)
        yield SystemCommand(_("New race"), _("Set up a new race (a race in progress asks first)"),
                            lambda: self.leave_race_then(lambda: self.new_race(from_podium=True)))
        yield SystemCommand(_("Host a table"), _("Set up a race whose players each play on their own device "
                                                 "(flamme-tui join)"),
                            lambda: self.leave_race_then(self.host_a_table, self._hosting_leaves(), _("Host a table")))
        yield SystemCommand(_("New tour"), _("Set up a tour: stages raced in turn, with times and Tour Points"),
                            lambda: self.leave_race_then(lambda: self.new_tour(from_podium=True)))
        yield SystemCommand(_("Saved races"), _("Every race in progress and finished: resume, replay, delete"),
                            lambda: self.leave_race_then(self.show_saved_races))
        yield SystemCommand(_("Rules reference"), _("The rules of Classic, Meteo and BMX, short"), self.show_rules)
        yield SystemCommand(_("Settings"), _("Language, aids, step speed, theme, bot reasons, keys"), self.show_settings)
        yield SystemCommand(_("Theme"), _("Change the colours (saved in the settings)"), self.search_themes)
        yield SystemCommand(_("Help"), _("The keys and rules of this screen"), self.show_help)
        if getattr(getattr(screen, "table", None), "in_tour", False):  # a tour's stage on screen
            yield SystemCommand(_("Standings"), _("The tour: the GC before this stage, who has finished, the live GC"),
                                screen.action_standings)
        from .hints import commands as hint_commands

        yield from hint_commands(self, screen)
        yield SystemCommand(_("Screenshot"), _("Save an SVG picture of this screen (in Downloads, else the data folder)"),
                            lambda: self.set_timer(0.1, self.take_screenshot))
        yield SystemCommand(_("Quit"), _("Leave flamme-tui (a race in progress asks first)"), self.action_request_quit)

    def action_command_palette(self) -> None:
        """ctrl+p: the palette of the app's commands, in the player's language."""
        from textual.command import CommandPalette

        from .commandpalette import commands_palette

        if self.use_command_palette and not CommandPalette.is_open(cast(Any, self)):
            self.push_screen(commands_palette())

    def search_themes(self) -> None:
        """The "Theme" command: the themes to choose from, searched in the player's language."""
        from .commandpalette import themes_palette

        self.push_screen(themes_palette())

    def screenshot_folder(self) -> tuple[Path, str]:
        """Where a screenshot goes, and that place in words: the Downloads
        folder if there is one, else flamme-tui's data folder (made if
        missing), where the player's saves are too."""
        from platformdirs import user_downloads_path

        from ..config import user_data_dir

        try:
            downloads = user_downloads_path()
            if downloads.is_dir():
                return downloads, _("your Downloads folder")
        except Exception:  # noqa: BLE001 - no home folder, say: the data folder then
            pass
        return user_data_dir(), _("the flamme-tui data folder")

    def take_screenshot(self) -> None:
        """The palette's Screenshot: an SVG of this screen, saved where the
        player can find it (Textual's own saved to ~/Downloads only, and
        failed without saying why when there is none); in a browser tab
        (serve) the browser gets it.  Said in words when done."""
        from ..pathtext import show_path

        folder, words = self.screenshot_folder()
        self._screenshot_words = f"{words} ({show_path(folder)})"
        if not self.is_web:
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                self.notify(_("The screenshot was not saved: cannot make {folder}: {problem}").format(
                    folder=self._screenshot_words, problem=exc.strerror or exc), title=_("Screenshot"), severity="error",
                    timeout=10)
                return
        self.deliver_screenshot(path=str(folder))

    _screenshot_words = ""

    def on_delivery_complete(self, event: DeliveryComplete) -> None:
        """A screenshot saved: where, in plain words (Textual's message showed markup)."""
        if event.name != "screenshot":
            return
        event.prevent_default()  # not Textual's message too
        if event.path is None:  # in a browser tab: the browser has it
            self.notify(_("The screenshot was sent to your browser"), title=_("Screenshot"))
        else:
            self.notify(_("Screenshot saved as {file} in {folder}").format(file=event.path.name,
                                                                          folder=self._screenshot_words),
                        title=_("Screenshot"), timeout=10)

    def on_delivery_failed(self, event: DeliveryFailed) -> None:
        """A screenshot not saved: why, and where it was to go."""
        if event.name != "screenshot":
            return
        event.prevent_default()
        exc = event.exception
        why = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
        self.notify(_("The screenshot was not saved in {folder}: {problem}").format(folder=self._screenshot_words,
                                                                                     problem=why),
                    title=_("Screenshot"), severity="error", timeout=10)

    def watch_theme(self, theme: str) -> None:
        """A theme picked in the palette is kept in the settings."""
        current = getattr(self, "_settings", None)
        if current is not None and theme in THEMES and current.theme != theme:
            self.save_settings(current.model_copy(update={"theme": theme}))

    def save_settings(self, settings) -> bool:
        from .. import settings as user_settings

        self.settings = settings
        try:  # only what changed: the file's other keys stay (a newer version's, another app's change)
            user_settings.save(settings, before=self._settings_saved)
            self._settings_saved = settings
        except OSError as exc:
            # plain text: the message holds the file's path, which may hold brackets
            self.notify(_("Could not save the settings: {problem}").format(problem=exc.strerror or exc), severity="warning",
                        markup=False)
            return False
        return True

    def _hosting_leaves(self) -> str:
        """What "Host a table" leaves, said in the dialog that asks first: the race, or the tour."""
        in_tour = self.flow is not None and self.flow.session.tour is not None
        return _("Hosting a table leaves this tour.") if in_tour else _("Hosting a table leaves this race.")

    def leave_race_then(self, then: Callable[[], None], why: str = "", go: str = "") -> None:
        """Run `then` at once, or once the player agrees to leave the race (or to
        discard a stage being built); `why`: what leaves the race, in words, said
        first in the dialog, and `go` the name of its key that goes on to `then`."""
        if self.flow is None:
            self._unless_unsaved_stage(then)
            return
        self._confirm_leaving(then, why, go)

    def show_rules(self) -> None:
        from .screens.rules import RulesScreen

        self.push_screen(RulesScreen())

    def show_settings(self) -> None:
        from .screens.settings import SettingsScreen

        if not isinstance(self.screen, SettingsScreen):
            self.push_screen(SettingsScreen())

    def show_saved_races(self) -> None:
        from .screens.saved import SavedRacesScreen

        self.push_screen(SavedRacesScreen())

    def show_help(self) -> None:
        action = getattr(self.screen, "action_help", None)
        if action is not None:
            action()

    def action_help_quit(self) -> None:
        """ctrl+c does not quit (players press it by reflex): say what does."""
        key = self.key_of("app.quit", "ctrl+q")
        self.notify(_("To quit, press {key} (a race in progress asks first)").format(key=key) if self.flow is not None
                    else _("To quit, press {key}").format(key=key),
                    title=_("{key} does not quit").format(key=shown_key("ctrl+c")))

    # ------------------------------------------------------------- quitting

    def action_request_quit(self) -> None:
        """Quit; a race in progress asks first, as does a stage being built with changes not saved."""
        if self.flow is None:
            self._unless_unsaved_stage(lambda: self.exit(0))
            return
        self._confirm_leaving()

    def _unless_unsaved_stage(self, then: Callable[[], None]) -> None:
        """Run `then` at once, or, with the stage editor open on changes not saved, once
        the player says to discard them (quitting or the palette lost a stage being built)."""
        from .screens.stagebuild import StageBuildScreen

        editor = next((s for s in self.screen_stack if isinstance(s, StageBuildScreen) and s.unsaved()), None)
        if editor is None:
            then()
        else:
            editor.ask_discard(then)

    def _confirm_leaving(self, then: Callable[[], None] | None = None, why: str = "", go: str = "") -> None:
        """The quit dialog (it says what is on disk): quit the app, or leave the
        race for the title menu and then run `then`; either way the pending
        save is written first and the race file let go."""
        from .screens.dialogs import ConfirmQuit

        if isinstance(self.screen, ConfirmQuit):
            return

        def answer(what: str | None) -> None:
            if what in ("app", "title") and not self.flush_saves() and state == "saved":
                # the write the dialog counted on failed (told once): asked again, now saying so
                self._confirm_leaving(then, why, go)
                return
            if what == "app":
                self.exit(0)
            elif what == "title":
                self.flow = None
                self._let_go_of_save()
                self.back_to_title()
                self._race_left()
                if then is not None:
                    then()

        state = self.save_state()
        tour = self.flow.session.tour if self.flow is not None else None
        stage = None if tour is None else (len(tour.done) + 1, tour.stages)  # leaving a stage leaves the tour
        self.push_screen(ConfirmQuit(saved=state == "saved", problem="" if state == "saved" else state, stage=stage,
                                     why=why, go=go), answer)


def run(session=None, lang: str | None = None, seed: int | None = None) -> int:
    """Run the app; returns the exit code.  With a Session (a loaded save),
    open it at once, behind the curtain of the player whose turn it is.
    `lang`: --lang, which beats the language setting (i18n.choose); `seed`:
    --seed, the seed the teams screen offers every new race."""
    from .. import i18n

    i18n.choose(lang)
    app = FlammeApp(session=session, seed=seed)
    result = app.run()
    return int(app.return_code or 0) if result is None else int(result)
