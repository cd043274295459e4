"""Review and undo before passing, through the UI: the seat's last pick is
played at once and reviewed before anything it led to is shown; taking it
back is an `undo` in the log, allowed only for that pick during its review
(never the first rider's card once the second drew, never after a pass, a
curtain or a reveal), and a race with undos saves, loads and replays exactly."""

from __future__ import annotations

import pytest

from flamme_tui.engine.actions import Play
from flamme_tui.play.flow import RaceFlow
from flamme_tui.play.session import UNDO, UndoRefused, effective
from flamme_tui.ui.app import FlammeApp
from flamme_tui.ui.choices import RaceChoices, default_seats
from flamme_tui.ui.scenarios import settle
from flamme_tui.ui.textshot import screen_text

from .driver import new_race_menus, screen_name, screenshot_text, shown_cards
from .test_privacy import check_curtain
from .test_workers import humans_play_until_a_bot_is_due

pytestmark = pytest.mark.usefixtures("fast_pilot")


async def start_classic(pilot) -> None:
    await new_race_menus(pilot, "classic")
    await pilot.press("ctrl+s")  # Blue and Orange, both human: a curtain between them
    await settle(pilot)


async def test_the_last_card_is_played_reviewed_and_taken_back_by_an_undo_in_the_log():
    app = FlammeApp(seed=9, autoplay=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await start_classic(pilot)
        await pilot.press("enter", "1")  # Blue: the curtain, the Sprinteur draws first
        await settle(pilot)
        screen = app.screen
        session = screen.flow.session
        await pilot.press("u")  # nothing to change yet: the first pick is not reviewed
        assert screen.turn.kind == "pick" and UNDO not in session.entries
        first = screen.options[0]
        await pilot.press("1")  # the Sprinteur's card is played, the Rouleur draws
        await settle(pilot)
        assert screen.flow.game.riders[0].played == first and screen.turn.rider == 1
        hand = list(screen.options)
        second = hand[1]
        await pilot.press("2")  # the Rouleur's card: played at once, then the review
        assert screen.turn.kind == "review" and screen.pending == Play("blue.R", second)
        assert session.entries[-1] == Play("blue.R", second) and screen.flow.game.riders[1].played == second
        text = screen_text(app)
        assert f"Sprinteur {first if first else 'E'} · Rouleur {second}" in text
        assert "change the Rouleur's card" in text.splitlines()[-1]
        await pilot.press("u")  # taken back: an undo in the log, the same cards, its card still selected
        assert screen.turn.kind == "pick" and screen.turn.rider == 1 and screen.sel == 1
        assert session.entries[-2:] == [Play("blue.R", second), UNDO]
        assert screen.options == hand and screen.flow.game.riders[1].played is None
        assert screen.flow.game.riders[0].played == first  # the first card stays down: never offered again
        assert "Blue took their last card back" in screen.log_w.text()
        third = hand[2]
        await pilot.press("3")
        assert screen.turn.kind == "review"
        await pilot.press("backspace")  # the other key for it
        assert screen.turn.kind == "pick" and session.entries.count(UNDO) == 2
        await pilot.press("3", "enter")  # picked again, and passed: the curtain
        await settle(pilot)
        assert screen_name(app) == "CurtainScreen"
        assert screen.flow.game.riders[1].played == third and screen.flow.game.riders[0].played == first
        assert effective(session.entries) == screen.flow.game.actions


async def test_after_the_curtain_no_undo_can_show_or_change_a_hidden_card():
    app = FlammeApp(seed=9, autoplay=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await start_classic(pilot)
        await pilot.press("enter", "1", "1", "2")  # Blue's cards, the review
        screen = app.screen
        flow = screen.flow
        entries = list(flow.session.entries)
        await pilot.press("enter")  # passed: the curtain for Orange
        await settle(pilot)
        assert screen_name(app) == "CurtainScreen"
        for key in ("u", "backspace", "1", "left"):  # no key on the curtain reaches Blue's cards
            await pilot.press(key)
            assert screen_name(app) == "CurtainScreen"
        check_curtain(app)
        assert flow.session.entries == entries
        with pytest.raises(UndoRefused):  # nor can the flow take it back: it was passed
            flow.take_back()
        await pilot.press("enter")  # Orange's turn
        await settle(pilot)
        assert screen.turn.kind == "draw" and screen.turn.seat == 1
        await pilot.press("u", "backspace")
        assert screen.turn.kind == "draw" and flow.session.entries == entries
        text = screenshot_text(app)
        assert "Blue" in text and "changed" not in text  # Blue changed nothing
        await pilot.press("1", "1")  # Orange's Sprinteur, then its Rouleur's pick
        assert screen.turn.kind == "pick" and screen.turn.rider == 3
        await pilot.press("u")  # the first card is down: the second rider has drawn
        assert screen.turn.kind == "pick" and flow.session.entries[-1] != UNDO
        with pytest.raises(UndoRefused):
            flow.take_back()
        with pytest.raises(UndoRefused):  # the session says so too: the seat has a card left to play
            flow.session.undo()
        assert screen.flow.game.riders[2].played is not None


async def test_the_round_resolved_by_the_last_pick_waits_for_the_review_and_no_undo_follows_a_reveal():
    app = FlammeApp(seed=9, autoplay=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await start_classic(pilot)
        await pilot.press("enter", "1", "1", "1", "enter")  # Blue, passed
        await settle(pilot)
        await pilot.press("enter", "1", "1", "1")  # Orange's last card
        screen = app.screen
        flow = screen.flow
        assert screen.turn.kind == "review"
        assert screen.flow.game.round == 2 and flow.replay is not None  # the engine resolved round 1 ...
        assert shown_cards(app, "revealed") == []  # ... and the screen shows none of it
        text = screen_text(app)
        assert "round 1" in text and "cards revealed" not in text
        await pilot.press("u")  # taken back: round 1 again, nothing of its resolution kept
        assert screen.turn.kind == "pick" and screen.flow.game.round == 1 and flow.replay is None
        await pilot.press("2")
        assert screen.turn.kind == "review" and screen.flow.game.round == 2
        orange_r = screen.flow.game.riders[3].history[-1]
        await pilot.press("enter")  # passed: the reveal, with the card picked last
        await settle(pilot)
        assert screen.turn.kind == "reveal"
        revealed = {c.data[0]: c for c in shown_cards(app, "revealed")}
        assert revealed[3].lines[0] == str(orange_r)
        entries = list(flow.session.entries)
        await pilot.press("u", "backspace")  # no undo after a reveal
        assert screen.turn.kind == "reveal" and flow.session.entries == entries
        with pytest.raises(UndoRefused):
            flow.take_back()


def test_a_bots_card_is_never_taken_back():
    seats = default_seats(2)
    seats[1].controller = "easy"
    flow = RaceFlow(RaceChoices(seats=seats, seed=3).session())
    humans_play_until_a_bot_is_due(flow)
    flow.play_bots()
    assert flow.session.entries[-1].rider.startswith("orange")
    with pytest.raises(UndoRefused, match="bot"):
        flow.session.undo()
    with pytest.raises(UndoRefused):
        flow.take_back()


async def test_a_race_with_undos_saves_loads_and_replays_exactly(tmp_path, monkeypatch):
    """The log with its undos is what is saved (format 3); loading it gives
    the very same game (hidden cards included), round checks and replay, and
    the replay viewer says who changed a card, never which."""
    from flamme_tui import saves
    from flamme_tui.saves import load_replay
    from flamme_tui.ui.replay import ReplayScreen

    monkeypatch.setenv("FLAMME_TUI_DATA_DIR", str(tmp_path / "data"))
    app = FlammeApp(seed=9, autoplay=False)  # autosaving, as in real play
    async with app.run_test(size=(80, 24)) as pilot:
        await start_classic(pilot)
        for _ in range(3):  # three rounds, each seat changing its mind at every review
            for _seat in range(2):
                await settle(pilot)
                await pilot.press("enter", "1", "1", "2")  # curtain, draw, two cards
                screen = app.screen
                assert screen.turn.kind == "review"
                await pilot.press("u", "3", "u", "4")  # changed twice: the 4th card
                rider, wanted = screen.flow.game.riders[screen.turn.rider].id, screen.pending.card
                await pilot.press("enter")  # pass
                assert screen.flow.game.actions[-1] == Play(rider, wanted)  # the card chosen last
            await settle(pilot)
            await pilot.press("enter", "enter")  # the reveal, on to the next round
        await settle(pilot)
        live = app.flow.session
        path = live.save_path
        app.flush_saves()
        assert path is not None
        game = live.game
        assert live.entries.count(UNDO) == 2 * 2 * 3
        loaded = saves.load_record(path)
        assert loaded.data.version == saves.UNDO_VERSION
        assert [str(e) for e in loaded.actions] == live.actions_text()
        again = saves.load(path)
        assert again.game.state_key() == game.state_key() and again.entries == live.entries
        assert [c.state for c in loaded.data.rounds] == [saves.state_digest(_replayed(live, n)) for n in (1, 2, 3)]
        replay = load_replay(path)
        assert replay.frames[-1].pos == tuple(tuple(p) for p in game.pos)
        changed = [line for f in replay.frames for line in f.log if "took their last" in line]
        assert len(changed) == 12 and set(changed) == {"Blue took their last card back",
                                                       "Orange took their last card back"}
        app.push_screen(ReplayScreen(replay))
        await settle(pilot)
        await pilot.press("right")  # round 1
        await settle(pilot)
        assert "took their last card back" in screen_text(app)


def _replayed(session, rounds: int):
    """The game of `session`'s effective actions up to the end of round `rounds`."""
    from flamme_tui.play.races import new_game

    game = new_game(session.setup, session.seed)
    for action in session.game.actions:
        game.apply(action)
        if game.rounds_done == rounds:
            return game
    raise AssertionError(rounds)
