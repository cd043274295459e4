"""Bots and autosaves run in Textual workers: the screen answers keys while a
(deliberately slow) bot thinks, shows who is thinking, keeps the game to the
UI thread, reports a failing bot, and never writes an older save over a newer.
The bots made up here exist in this process only, so they think in a thread
(`Thinker(processes=False)`); the app's own bots think in another process
(tests/test_thinker.py)."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from flamme_tui import bots, saves
from flamme_tui.bots.easy import easy
from flamme_tui.engine.turns import turns
from flamme_tui.play.flow import RaceFlow
from flamme_tui.play.races import RaceSpec
from flamme_tui.play.session import Session
from flamme_tui.play.thinker import Thinker
from flamme_tui.ui.app import FlammeApp
from flamme_tui.ui.bench import send_key
from flamme_tui.ui.choices import RaceChoices, default_seats
from flamme_tui.ui.textshot import screen_text

THINK = 1.6  # seconds the slow bot sleeps for each action (a UI it blocked would answer no key before)


@pytest.fixture
def slow_bot(monkeypatch):
    """A bot "slow" playing like the easy one after sleeping; records its threads
    and whether the game changed while it thought."""
    seen = {"threads": set(), "calls": 0}

    def slow(view):
        seen["threads"].add(threading.current_thread() is threading.main_thread())
        seen["calls"] += 1
        time.sleep(THINK)
        return easy(view)

    monkeypatch.setitem(bots.POLICIES, "slow", slow)
    return seen


def two_seats(controller: str) -> RaceChoices:
    seats = default_seats(2)
    seats[1].controller = controller
    return RaceChoices(seats=seats, seed=3)


async def wait_for(predicate, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.005)


async def human_plays_round(app) -> None:
    """Seat 0 (the only human) draws and picks with keys, not waiting for idle."""
    screen = app.screen
    for _ in range(6):
        await wait_for(lambda: screen.turn is not None and screen.turn.kind in ("draw", "pick", "bot"))
        if screen.turn.kind == "bot":
            return
        turn = screen.turn
        send_key(app, "1")  # (a number plays at once)
        await wait_for(lambda t=turn: screen.turn is not t)
        if screen.pending is not None:  # the review of the seat's last pick: Enter passes
            send_key(app, "enter")
            await wait_for(lambda: screen.pending is None)


def threaded_app() -> FlammeApp:
    return FlammeApp(seed=3, autoplay=False, autosave=False, thinker=Thinker(processes=False))


async def test_the_screen_answers_keys_while_a_slow_bot_thinks(slow_bot):
    app = threaded_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.start_race(two_seats("slow"))
        await wait_for(lambda: type(app.screen).__name__ == "RaceScreen")
        screen = app.screen
        await human_plays_round(app)
        assert screen.turn.kind == "bot"
        actions = len(screen.flow.game.actions)
        thinking_since = time.monotonic()
        await wait_for(lambda: "Orange (slow bot) is thinking" in screen_text(app), timeout=2)
        # a key that changes the screen is answered at once, while the bot still thinks
        before = screen_text(app)
        t0 = time.monotonic()
        # (the help: `]` pans the track, which in round 1 is at its start and stays: the screen changed
        # only if something else did, and the test passed or failed by chance)
        send_key(app, "question_mark")
        await wait_for(lambda: screen_text(app) != before and app.screen is not screen, timeout=THINK / 2)
        send_key(app, "escape")
        await wait_for(lambda: app.screen is screen, timeout=THINK / 2)
        answered = time.monotonic() - t0
        assert screen.turn.kind == "bot" and answered < THINK / 2
        # a game key does nothing but say why
        cards = screen.cards.cards
        send_key(app, "2")
        send_key(app, "enter")
        await wait_for(lambda: any("is thinking" in str(n.message) for n in app._notifications), timeout=THINK / 2)
        assert screen.cards.cards == cards and screen.turn.kind == "bot"
        with pytest.raises(RuntimeError):  # nor can a human act meanwhile
            screen.flow.act(easy(screen.flow.game.view(0)))
        # quit still asks; the bot's answer waits under the dialog
        send_key(app, "q")
        await wait_for(lambda: type(app.screen).__name__ == "ConfirmQuit", timeout=THINK / 2)
        assert time.monotonic() - thinking_since < THINK
        await wait_for(lambda: len(screen.flow.game.actions) > actions, timeout=10)  # its answer is in
        await asyncio.sleep(THINK + 0.2)
        assert type(app.screen).__name__ == "ConfirmQuit"  # not covered by the next turn
        assert slow_bot["calls"] == 1  # which waits for this screen
        send_key(app, "n")
        await wait_for(lambda: app.screen is screen)
        await wait_for(lambda: screen.turn.kind == "reveal", timeout=10)
    # the bot thought in worker threads only; the game was changed on the UI thread
    assert slow_bot["threads"] == {False}


async def test_leaving_the_race_while_a_bot_thinks_drops_its_answer(slow_bot):
    app = threaded_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.start_race(two_seats("slow"))
        await wait_for(lambda: type(app.screen).__name__ == "RaceScreen")
        screen = app.screen
        await human_plays_round(app)
        actions = len(screen.flow.game.actions)
        send_key(app, "q")
        await wait_for(lambda: type(app.screen).__name__ == "ConfirmQuit")
        send_key(app, "t")
        await wait_for(lambda: type(app.screen).__name__ == "TitleScreen")
        await asyncio.sleep(THINK + 0.3)  # the worker ends meanwhile: nothing is applied
        assert len(screen.flow.game.actions) == actions
        assert type(app.screen).__name__ == "TitleScreen"


async def test_a_failing_bot_is_reported_and_can_try_again(monkeypatch):
    failures = []

    def broken(view):
        if not failures:
            failures.append(1)
            raise ValueError("no idea")
        return easy(view)

    monkeypatch.setitem(bots.POLICIES, "broken", broken)
    app = threaded_app()
    told: list[str] = []  # every notification, as said (a toast may expire before it is looked for)
    notify = app.notify
    monkeypatch.setattr(app, "notify", lambda message, *a, **k: (told.append(str(message)), notify(message, *a, **k)))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.start_race(two_seats("broken"))
        await wait_for(lambda: type(app.screen).__name__ == "RaceScreen")
        screen = app.screen
        await human_plays_round(app)
        await wait_for(lambda: "could not play" in screen_text(app), timeout=5)
        assert "ValueError: no idea" in screen_text(app)  # the panel says why
        assert any("could not play (ValueError: no idea)" in m for m in told)
        assert screen.turn.kind == "bot"
        send_key(app, "enter")  # try again
        await wait_for(lambda: screen.turn.kind == "reveal", timeout=10)


def humans_play_until_a_bot_is_due(flow: RaceFlow) -> None:
    """The human seats play (the easy bot's choices, each review passed) until a bot is due."""
    while flow.current().kind != "bot":
        turn = flow.current()
        if turn.kind == "review":
            flow.pass_review()
        else:
            flow.act(easy(flow.game.view(turn.seat)))


def test_flow_refuses_a_bot_answer_to_a_position_that_is_gone():
    seats = default_seats(2)
    seats[1].controller = "easy"
    flow = RaceFlow(RaceChoices(seats=seats, seed=3).session())
    humans_play_until_a_bot_is_due(flow)
    move = flow.bot_move()
    decision = move.think()
    action, reason = decision.action, decision.public
    flow.play_bot_move(move, action, reason)
    with pytest.raises(RuntimeError):  # the same answer again: the game moved on
        flow.play_bot_move(move, action, reason)


def test_turns_follow_the_seat_order_of_the_engine():
    session = Session.new(RaceSpec(), 5, {s: "easy" for s in range(4)})
    game = session.game
    seen = []
    for seat in turns(game):
        assert game.needs(seat) and not any(game.needs(s) for s in range(seat))
        seen.append(seat)
        session.apply(easy(game.view(seat)))
    assert seen == sorted(seen) and set(seen) == {0, 1, 2, 3} and game.round == 2


def test_autosave_never_writes_an_older_state_over_a_newer(tmp_path):
    session = Session.new(RaceSpec(), 5, {s: "easy" for s in range(4)})
    autosave = saves.attach_autosave(session, tmp_path / "race.json")
    jobs = []
    autosave.defer = jobs.append  # the writes wait, as in busy workers
    session.play_bots()
    assert len(jobs) == len(session.game.actions)
    assert saves.load(autosave.path).game.actions == []  # only the start is on disk yet
    jobs[-1]()  # the newest write runs first ...
    for job in jobs[:-1]:  # ... then the older ones: they find nothing newer to write
        job()
    assert saves.load(autosave.path).game.actions == session.game.actions
    session.play_bots()
    autosave.flush()  # what a quit does: the pending state is written
    assert saves.load(autosave.path).game.actions == session.game.actions


async def test_the_app_writes_autosaves_in_workers_and_flushes_on_quit(tmp_path, monkeypatch):
    monkeypatch.setenv("FLAMME_TUI_DATA_DIR", str(tmp_path))
    threads = set()
    write = saves.write_atomic

    def traced(path, data, keep=saves.KEEP):
        threads.add(threading.current_thread() is threading.main_thread())
        write(path, data, keep)

    monkeypatch.setattr(saves.autosave, "write_atomic", traced)
    seats = default_seats(2)
    seats[1].controller = "easy"
    app = FlammeApp(seed=3, autoplay=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.start_race(RaceChoices(seats=seats, seed=3))
        await wait_for(lambda: type(app.screen).__name__ == "RaceScreen")
        screen = app.screen
        threads.clear()  # the first write, when the race starts, is done at once
        await human_plays_round(app)
        await wait_for(lambda: screen.turn.kind == "reveal", timeout=10)
        session = screen.flow.session
        await pilot.press("q", "y")
    assert threads == {False}  # every write after an action ran in a worker thread
    assert saves.load(session.save_path).game.actions == session.game.actions
