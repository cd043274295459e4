"""The Textual app: title menu -> variant -> stage or BMX circuit -> teams -> race -> podium.

`run()` is what `flamme-tui` (no arguments) calls.  The engine is imported
only once a race is being set up (and preloaded in the background while the
title menu waits), so the title appears fast.
"""

from __future__ import annotations

import os
import threading

from textual.app import App
from textual.binding import Binding

from .screens.title import TitleScreen


class FlammeApp(App[int]):
    CSS_PATH = "app.tcss"
    TITLE = "Flamme Rouge"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [Binding("ctrl+q", "request_quit", "Quit", show=False, priority=True)]

    def __init__(self, *, autoplay: bool | None = None, step_delay: float = 0.7, seed: int | None = None) -> None:
        super().__init__()
        if autoplay is None:
            autoplay = os.environ.get("TEXTUAL_ANIMATIONS", "").lower() != "none"
        self.autoplay = autoplay  # movement steps play by themselves (any key still steps)
        self.step_delay = step_delay
        self.seed = seed  # offered on the teams screen instead of a random seed (tests, screenshots)
        self.choices = None  # the last race set up (RaceChoices), reused by "race again"
        self.flow = None  # the race in progress

    def on_mount(self) -> None:
        self.push_screen(TitleScreen())

    def preload(self) -> None:
        """Import the engine in the background while the title menu waits."""

        def load() -> None:
            try:
                from .. import races  # noqa: F401
                from . import flow  # noqa: F401
            except Exception:  # the real import will report it
                pass

        threading.Thread(target=load, daemon=True).start()

    # ------------------------------------------------------------ the menus

    def _choices(self):
        from .choices import RaceChoices

        if self.choices is None:
            self.choices = RaceChoices()
        return self.choices

    def new_race(self, from_podium: bool = False) -> None:
        from .screens.variant import VariantScreen

        if from_podium:
            self.back_to_title()
        self._choices().seed = self.fresh_seed()
        self.push_screen(VariantScreen())

    def fresh_seed(self) -> int:
        from .choices import random_seed

        return self.seed if self.seed is not None else random_seed()

    def choose_variant(self, variant: str) -> None:
        choices = self._choices()
        choices.variant = variant
        if variant == "bmx":
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

        self.push_screen(TeamsScreen(self._choices()))

    # ------------------------------------------------------------- the race

    def start_race(self, choices) -> None:
        from .flow import RaceFlow

        self.choices = choices
        self.start_flow(RaceFlow(choices.session()))

    def start_flow(self, flow) -> None:
        """Show a race (a new one, or one rebuilt from a save)."""
        from .screens.race import RaceScreen

        self.flow = flow
        self.back_to_title()
        self.push_screen(RaceScreen(flow))

    def show_podium(self, flow) -> None:
        from .screens.podium import PodiumScreen

        self.flow = None
        self.back_to_title()
        self.push_screen(PodiumScreen(flow))

    def race_again(self) -> None:
        choices = self.choices.copy()
        choices.seed = self.fresh_seed()
        self.start_race(choices)

    def back_to_title(self) -> None:
        while len(self.screen_stack) > 2 or (len(self.screen_stack) == 2 and not isinstance(self.screen, TitleScreen)):
            self.pop_screen()

    # ------------------------------------------------------------- quitting

    def action_request_quit(self) -> None:
        """Quit; a race in progress asks first."""
        if self.flow is None:
            self.exit(0)
            return
        from .screens.dialogs import ConfirmQuit

        if isinstance(self.screen, ConfirmQuit):
            return

        def answer(what: str | None) -> None:
            if what == "app":
                self.exit(0)
            elif what == "title":
                self.flow = None
                self.back_to_title()

        self.push_screen(ConfirmQuit(), answer)


def run() -> int:
    """Run the app; returns the exit code."""
    app = FlammeApp()
    result = app.run()
    return int(app.return_code or 0) if result is None else int(result)
