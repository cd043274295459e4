"""The expert bot in the app: it thinks in its own process within the
player's time setting, the screen answering keys meanwhile, and the race
log hears only public facts; the settings screen takes a valid thinking
time and refuses any other."""

from __future__ import annotations

import re
import time

from flamme_tui import settings as user_settings
from flamme_tui.play import thinker
from flamme_tui.ui.app import FlammeApp
from flamme_tui.ui.bench import send_key
from flamme_tui.ui.textshot import screen_text

from .test_workers import human_plays_round, two_seats, wait_for

BUDGET = 1.4  # the expert's seconds a decision (the setting)


async def test_the_expert_thinks_in_its_process_within_the_setting(monkeypatch):
    # a budget long enough that a UI the expert blocked could not answer a key within half of it,
    # even on a machine busy with other tests
    user_settings.save(user_settings.Settings(bot_seconds=BUDGET))
    asked: list[tuple[str, float, float]] = []  # (bot, its budget, when) for each question to the thinking process
    question = thinker.question

    def watched(session, move):
        q = question(session, move)
        asked.append((q.policy, q.seconds, time.perf_counter()))
        return q

    monkeypatch.setattr(thinker, "question", watched)
    app = FlammeApp(seed=3, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.start_race(two_seats("expert"))
        await wait_for(lambda: type(app.screen).__name__ == "RaceScreen")
        screen = app.screen
        await human_plays_round(app)
        assert screen.turn.kind == "bot"
        await wait_for(lambda: "(expert bot) is thinking" in screen_text(app), timeout=2)
        before = screen_text(app)
        t0 = time.monotonic()
        send_key(app, "question_mark")  # the help, answered while the expert thinks
        await wait_for(lambda: screen_text(app) != before and app.screen is not screen, timeout=BUDGET / 2)
        send_key(app, "escape")
        await wait_for(lambda: app.screen is screen, timeout=BUDGET / 2)
        assert time.monotonic() - t0 < BUDGET / 2 and screen.turn.kind == "bot"
        await wait_for(lambda: screen.turn.kind == "reveal", timeout=20)
        done = time.perf_counter()
        log = "\n".join(app.flow.log)
        assert app.thinker.processes  # it thought in its own process, not a thread of the app's
    assert asked and all(bot == "expert" and budget == BUDGET for bot, budget, _ in asked)
    assert done - asked[0][2] < (BUDGET + 0.9) * len(asked)  # within its time, each decision
    said = [line for line in log.splitlines() if "(bot, expert)" in line]
    assert said
    for line in said:  # public facts only: no number but the cards it played
        assert re.search(r"plays [0-9E]", line) or "draws first" in line


async def test_the_settings_screen_takes_a_valid_thinking_time_only():
    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.show_settings()  # as the title menu and the palette open it
        await pilot.pause()
        assert type(app.screen).__name__ == "SettingsScreen"
        await pilot.pause()
        field = app.screen.query_one("#bot_seconds")
        assert field.value == "1"
        for bad in ("abc", "0", "61", "nan", "-1"):
            field.focus()
            field.value = bad
            await pilot.press("enter")
            await pilot.pause()
            assert app.settings.bot_seconds == 1.0
            assert "Not changed" in str(app.screen.query_one("#settings-message").render())
            assert any("0.01 to 60 seconds" in str(n.message) for n in app._notifications)  # shown at 80x24
            assert field.value == "1"
        field.value = "0.25"
        await pilot.press("enter")
        await pilot.pause()
        assert app.settings.bot_seconds == 0.25
    assert user_settings.load()[0].bot_seconds == 0.25
