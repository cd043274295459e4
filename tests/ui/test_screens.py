"""Menus, dialogs, sizes and the race screen's keys, through the UI."""

from __future__ import annotations

import pytest

from flamme_tui import MAX_SEED
from flamme_tui.play.races import VARIANTS
from flamme_tui.ui.app import FlammeApp
from flamme_tui.ui.scenarios import settle
from flamme_tui.ui.textshot import screen_text

from .driver import go_to_stage, new_race_menus, pick_option, screen_name, set_players, shown_cards

pytestmark = pytest.mark.usefixtures("fast_pilot")


async def test_title_menu_rules_and_back():
    app = FlammeApp(seed=1, autoplay=False)
    async with app.run_test(size=(80, 24)) as pilot:
        text = screen_text(app)
        for entry in ("New race", "New tour", "Host a table", "Saved races", "Rules reference", "Settings",
                      "Learn to play", "Quit"):
            assert entry in text
        await pilot.press("down", "down", "down", "down", "enter")
        assert screen_name(app) == "RulesScreen"
        assert "Slipstream" in screen_text(app) or "slipstream" in screen_text(app)
        await pilot.press("escape")
        assert screen_name(app) == "TitleScreen"
        await pilot.press("down", "down", "down", "enter")  # Quit (the menu still points at Rules reference)
        await pilot.pause()
    assert app.return_code == 0


async def test_variant_menu_lists_the_engine_variants_and_stage_preview():
    app = FlammeApp(seed=1, autoplay=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        menu = app.screen.query_one("#variant-menu")
        assert [menu.get_option_at_index(k).id for k in range(menu.option_count)] == list(VARIANTS)
        await pilot.press("enter")  # classic
        assert screen_name(app) == "StageScreen"
        from flamme_tui import config

        menu = app.screen.query_one("#stage-menu")
        shown = [menu.get_option_at_index(k).id for k in range(menu.option_count)]
        assert shown[:2] == ["random-stage", "build-stage"] and sorted(filter(None, shown[2:])) == sorted(config.stage_ids())
        await go_to_stage(pilot, "la-haut-montagne")
        text = screen_text(app)
        assert "La Haut Montagne" in text and "squares from start to finish" in text
        assert "^" in text and "v" in text  # terrain preview
        await pilot.press("escape", "escape")
        assert screen_name(app) == "TitleScreen"


async def test_a_random_seed_is_not_shown_before_the_race():
    """Nobody at a hot-seat table sees the seed a race will get (who knew it could
    work out every deck): the field is empty, "random", and the race gets one."""
    app = FlammeApp(autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await new_race_menus(pilot, "classic")
        screen = app.screen
        field = screen.query_one("#seed")
        assert field.value == "" and field.placeholder == "random"
        assert str(app.choices.seed) not in screen_text(app)
        choices = screen.gather()
        assert choices is not None and 0 <= choices.seed <= MAX_SEED


async def test_teams_screen_players_colours_and_seed():
    app = FlammeApp(seed=4242, autoplay=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await new_race_menus(pilot, "classic")
        screen = app.screen
        assert screen.query_one("#seed").value == "4242"
        await set_players(pilot, 3)
        assert screen.count == 3
        # seat 2 takes Blue (seat 1's colour): the colours swap, default names follow
        await pick_option(pilot, "colour-1", -0)  # opening and closing keeps Orange
        await pilot.click("#colour-1")
        await pilot.pause()
        await pilot.press("up", "enter")  # Orange -> Blue
        await pilot.pause()
        assert screen.query_one("#colour-1").value == "blue"
        assert screen.query_one("#colour-0").value == "orange"
        assert screen.query_one("#name-0").value == "Orange"
        assert screen.query_one("#name-1").value == "Blue"
        # a name and a seed typed by the players
        await pilot.click("#name-2")
        await pilot.press("end", *["backspace"] * 8, *"Anna")
        await pilot.click("#seed")
        await pilot.press("end", *["backspace"] * 6, "1", "2", "3")
        choices = screen.gather()
        assert [s.name for s in choices.seats] == ["Orange", "Blue", "Anna"]
        assert choices.seed == 123
        await pilot.press("enter")  # Enter in the seed field goes on, it never starts the race
        await pilot.pause()
        assert screen_name(app) == "TeamsScreen" and app.flow is None
        assert app.focused.id != "start"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.flow.session.seed == 123
        assert [t.colour for t in app.flow.game.setup.teams] == ["orange", "blue", "green"]


async def test_terminal_too_small_notice_comes_and_goes():
    app = FlammeApp(seed=1, autoplay=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await _shrink(pilot, (60, 18), small=True)
        assert "New race" not in screen_text(app)
        assert "To quit: q." in screen_text(app)  # (the keys that still work: a new player did not know)
        await _shrink(pilot, (80, 24), small=False)
        await pilot.press("enter")  # the menu has its focus back
        assert screen_name(app) == "VariantScreen"


async def _shrink(pilot, size, small: bool) -> None:
    await pilot.resize_terminal(*size)
    for _ in range(20):  # the resize reaches the screen within a few frames
        await pilot.pause(0.01)
        if ("Terminal too small" in screen_text(pilot.app)) == small:
            return
    raise AssertionError(f"the too-small notice did not {'come' if small else 'go'}")


async def test_terminal_too_small_swallows_every_key_but_quit():
    app = FlammeApp(seed=9, autoplay=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await new_race_menus(pilot, "classic")
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert screen_name(app) == "CurtainScreen"
        await _shrink(pilot, (60, 18), True)
        await pilot.press("enter", "space", "1")  # a curtain is never passed blind
        await settle(pilot)
        assert screen_name(app) == "CurtainScreen"
        await _shrink(pilot, (80, 24), False)
        await pilot.press("enter", "1")
        await settle(pilot)
        screen = app.screen
        assert screen.turn.kind == "pick"
        actions = len(screen.flow.game.actions)
        await _shrink(pilot, (60, 18), True)
        await pilot.press("1", "enter", "2", "right", "enter", "a")  # no card is played blind
        await settle(pilot)
        assert len(screen.flow.game.actions) == actions and screen.sel is None
        await pilot.press("q")  # quitting still works
        assert screen_name(app) == "ConfirmQuit"


async def test_resizing_during_a_race_never_crashes():
    app = FlammeApp(seed=9, autoplay=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await new_race_menus(pilot, "classic")
        await pilot.press("ctrl+s")
        await settle(pilot)
        await pilot.press("enter", "1")
        for size in [(120, 40), (50, 10), (80, 24), (200, 60), (81, 25), (100, 30)]:
            await pilot.resize_terminal(*size)
            small = size[0] < 80 or size[1] < 24
            want = "Terminal too small" if small else "pick a card"
            for _ in range(20):  # the resize reaches the screen within a few frames
                await pilot.pause(0.01)
                text = screen_text(app)
                if ("Terminal too small" in text) == small and want in text:
                    break
            assert want in text
        assert len(shown_cards(app, "hand")) == 4


async def test_quit_mid_race_asks_first():
    app = FlammeApp(seed=9, autoplay=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await new_race_menus(pilot, "classic")
        await pilot.press("ctrl+s")
        await settle(pilot)
        await pilot.press("q")
        assert screen_name(app) == "ConfirmQuit"
        await pilot.press("n")
        assert screen_name(app) == "CurtainScreen"
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("ctrl+q")
        assert screen_name(app) == "ConfirmQuit"
        await pilot.press("t")  # back to the title menu
        await pilot.pause()
        assert screen_name(app) == "TitleScreen"
        await pilot.press("q")  # no race any more: quits at once
        await pilot.pause()
    assert app.return_code == 0


async def test_help_shows_the_keys_of_the_current_phase():
    app = FlammeApp(seed=9, autoplay=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await new_race_menus(pilot, "classic")
        await pilot.press("ctrl+s")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("question_mark")
        assert screen_name(app) == "HelpScreen"
        assert "Which rider draws first?" in screen_text(app)
        await pilot.press("escape", "1")
        await pilot.press("question_mark")
        assert "Pick a card" in screen_text(app)
        await pilot.press("escape")
        keys = screen_text(app).splitlines()[-1]
        assert "select" in keys and "play" in keys  # the footer: the keys that apply now


async def test_pick_can_change_until_confirmed_and_reveal_steps_back_and_forth():
    app = FlammeApp(seed=9, autoplay=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await new_race_menus(pilot, "classic")
        await pilot.press("ctrl+s")
        await settle(pilot)
        await pilot.press("enter", "2")  # Blue: the Rouleur draws first
        await settle(pilot)
        screen = app.screen
        assert screen.turn.kind == "pick"
        assert screen.flow.game.riders[screen.turn.rider].kind == "R"
        await pilot.press("enter")  # nothing selected yet: nothing happens
        assert screen.turn.kind == "pick"
        await pilot.press("right", "right", "right", "left")  # (a number would play)
        assert screen.sel == 1
        selected = [k for k, c in enumerate(shown_cards(app, "hand")) if c.selected]
        assert selected == [1]
        card = screen.options[1]
        await pilot.press("enter")
        await settle(pilot)
        assert screen.flow.game.riders[0 + 1].played == card  # blue.R
        await pilot.press("1", "enter")  # the Sprinteur, and pass
        await settle(pilot)
        await pilot.press("enter", "1", "1", "1", "enter")  # Orange
        await settle(pilot)
        assert screen.turn.kind == "reveal"
        replay = screen.flow.replay
        await pilot.press("space", "space", "left")
        assert replay.step == 1
        await pilot.press("right")
        assert replay.step == 2
        await pilot.press("enter")  # skip to the end
        assert replay.at_end
        await pilot.press("enter")  # on to round 2
        await settle(pilot)
        assert screen.flow.replay is None and screen.flow.game.round == 2


async def test_grid_placement_with_keys_and_mouse():
    app = FlammeApp(seed=2, autoplay=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await new_race_menus(pilot, "classic")
        await pick_option(pilot, "grid", 1)
        await pilot.press("ctrl+s")
        await settle(pilot)
        screen = app.screen
        assert screen.turn.kind == "place"
        first = screen.cursor
        await pilot.press("left", "enter")  # one place back
        assert screen.flow.game.pos[0] != [-1, -1] and tuple(screen.flow.game.pos[0]) != first
        # click a free place on the track twice: select, then place
        track = screen.query_one("#track")
        target = screen.places[0]
        x = y = None
        for yy in [k for k, kind in enumerate(track.row_kinds()) if kind.startswith("lane")]:
            for xx in range(track.size.width):
                hit = track.square_at(xx, yy)
                if hit == target:
                    x, y = xx, yy
                    break
            if x is not None:
                break
        assert x is not None
        await pilot.click(track, offset=(x, y))
        assert screen.cursor == target
        await pilot.click(track, offset=(x, y))
        await settle(pilot)
        assert tuple(screen.flow.game.pos[1]) == target
        await pilot.press("r", "r")  # Orange places at random
        await settle(pilot)
        assert screen.flow.game.phase == "energy"


async def test_bmx_builder_keys():
    app = FlammeApp(seed=2, autoplay=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter", "down", "down", "enter")
        screen = app.screen
        assert screen_name(app) == "BmxBuilderScreen"
        await pilot.press("a", "d", "r", "right_square_bracket", "left_square_bracket", "left_square_bracket",
                          "minus", "f")
        assert "".join(screen.circuit) == "aBCd"
        assert screen.ramp == (9, 2)
        assert screen.forecast
        text = screen_text(app)
        assert "bumpy" in text and "marsh" in text and "/2" in text
        await pilot.press("r")
        assert screen.ramp is None
        await pilot.press("enter")
        assert screen_name(app) == "TeamsScreen"
        assert app.choices.circuit == "aBCd" and app.choices.ramp is None


async def test_races_are_autosaved_and_resume_behind_the_curtain(tmp_path, monkeypatch):
    monkeypatch.setenv("FLAMME_TUI_DATA_DIR", str(tmp_path))
    from flamme_tui import saves

    app = FlammeApp(seed=21, autoplay=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await new_race_menus(pilot, "classic")
        await pilot.press("ctrl+s")
        await settle(pilot)
        await pilot.press("enter", "1", "1", "1", "enter")  # Blue's turn
        await settle(pilot)
        assert screen_name(app) == "CurtainScreen" and app.screen.seat == 1
    path = saves.latest_in_progress()
    assert path is not None and path.parent == tmp_path / "saves"
    session = saves.load(path)
    assert len(session.game.actions) == 3
    resumed = FlammeApp(autoplay=False, session=session)
    async with resumed.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert screen_name(resumed) == "CurtainScreen" and resumed.screen.seat == 1  # Orange's turn
        assert shown_cards(resumed, "hand") == [] and shown_cards(resumed, "riders") == []
        await pilot.press("enter")
        await settle(pilot)
        assert resumed.screen.turn.kind == "draw" and resumed.screen.turn.seat == 1
    # the title menu offers the race in progress
    app = FlammeApp(autoplay=False)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(40):
            await pilot.pause(0.05)
            if app.screen.resume_info is not None:
                break
        menu = app.screen.query_one("#title-menu")
        assert menu.get_option_at_index(0).id == "resume"  # first: what a player coming back wants
        assert menu.highlighted == 0  # and the cursor on it (issue 24, item 13)
        await pilot.press("down", "enter")  # New race, then back with Esc
        await pilot.pause()
        assert screen_name(app) != "TitleScreen"
        await pilot.press("escape")
        for _ in range(20):  # the saves are looked at again, Resume offered again
            await pilot.pause(0.05)
        assert screen_name(app) == "TitleScreen"
        race = app.screen.resume_info
        app.screen.offer_resume(race._replace(changed=race.changed + 1))  # the save written again meanwhile
        assert menu.get_option_at_index(menu.highlighted).id == "new"  # not one item low (New tour)
        await pilot.press("up", "enter")
        await settle(pilot)
        assert screen_name(app) == "CurtainScreen" and app.screen.seat == 1


async def test_leaving_a_race_for_the_title_menu_offers_to_resume_it(tmp_path, monkeypatch):
    monkeypatch.setenv("FLAMME_TUI_DATA_DIR", str(tmp_path))
    app = FlammeApp(seed=7, autoplay=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await new_race_menus(pilot, "classic")
        await pilot.press("ctrl+s")
        await settle(pilot)
        await pilot.press("enter", "1")  # Blue's Sprinteur draws
        await settle(pilot)
        for _ in range(100):  # the draw's save is written in a worker (a full run once pressed q before it landed)
            if app.autosaver is not None and app.autosaver.saved:
                break
            await pilot.pause(0.01)
        await pilot.press("q")
        assert "It is saved" in screen_text(app)
        await pilot.press("t")
        # the saves are read in the background (once more when the menu comes back), then the menu is laid
        # out again: a frame read in between shows it blank, so Resume must be seen twice in a row
        resume, seen = "Resume: Avenue Corso Paseo, round 1", 0
        for _ in range(200):
            await pilot.pause(0.05)
            seen = seen + 1 if app.screen.resume_info is not None and resume in screen_text(app) else 0
            if seen == 2:
                break
        assert seen == 2, screen_text(app)
        await pilot.press("enter")  # Resume, first in the menu, under the cursor
        await settle(pilot)
        assert screen_name(app) == "CurtainScreen" and app.screen.seat == 0  # never a hand first
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen.turn.kind == "pick" and len(shown_cards(app, "hand")) == 4


async def test_leaving_a_race_puts_resume_under_the_cursor(tmp_path, monkeypatch):
    """A race already offered for resuming, New race chosen below it: leaving that
    new race (q, t) brought the menu back with the cursor on New race, and Enter
    started yet another race instead of resuming the one just left."""
    from flamme_tui import saves
    from flamme_tui.ui.scenarios import advance, choices

    monkeypatch.setenv("FLAMME_TUI_DATA_DIR", str(tmp_path))
    session = choices().session()
    advance(session, 1)
    saves.save(session, tmp_path / "saves" / "older.json")
    app = FlammeApp(seed=7, autoplay=False)
    async with app.run_test(size=(80, 24)) as pilot:
        menu = app.screen.query_one("#title-menu")
        for _ in range(100):
            await pilot.pause(0.05)
            if app.screen.resume_info is not None:
                break
        older = app.screen.resume_info
        assert older is not None and menu.highlighted == 0
        await pilot.press("down")  # New race
        await new_race_menus(pilot, "classic")
        await pilot.press("ctrl+s")
        await settle(pilot)
        await pilot.press("enter", "1")  # a card drawn: the new race is saved
        await settle(pilot)
        for _ in range(100):
            if app.autosaver is not None and app.autosaver.saved:
                break
            await pilot.pause(0.01)
        left = app.flow.session.save_path
        await pilot.press("q", "t")
        for _ in range(100):  # the saves are read again in the background: the race just left comes first
            await pilot.pause(0.05)
            if app.screen.resume_info is not None and app.screen.resume_info.path == left:
                break
        assert app.screen.resume_info.path == left
        assert menu.get_option_at_index(menu.highlighted).id == "resume"
        await pilot.press("enter")
        await settle(pilot)
        assert screen_name(app) == "CurtainScreen" and app.flow.session.save_path == left


async def test_a_resumed_race_log_is_rebuilt_in_plain_words():
    from flamme_tui.ui.scenarios import advance, choices

    session = choices("classic").session()
    advance(session, 2)
    assert session.game.round == 3
    app = FlammeApp(autoplay=False, autosave=False, session=session)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        lines = app.screen.log_w.lines if screen_name(app) == "RaceScreen" else app.screen_stack[-2].log_w.lines
        text = "\n".join(lines)
        assert "── Round 1 ──" in text and "── Round 2 ──" in text
        assert "plays" in text and "lane 0" not in text and "lane 1" not in text


async def test_a_race_resumed_mid_round_logs_who_drew_first_before_the_save():
    """The round in progress is rebuilt too: what the table heard before the
    save (who drew first; a card changed before passing), never a card."""
    from flamme_tui.bots.easy import easy
    from flamme_tui.engine.actions import Draw
    from flamme_tui.ui.scenarios import advance, choices

    def screen_name_of(screen) -> str:
        return type(screen).__name__

    session = choices("classic").session()
    advance(session, 1)
    game = session.game
    assert session.due() == 0 and not session.bots
    draws = []
    while session.due() == 0:  # Blue: a draw and two cards, the last taken back and played again
        action = easy(game.view(0))
        draws += [action] if isinstance(action, Draw) else []
        session.apply(action)
    session.undo()
    session.apply(action)
    orange = easy(game.view(1))  # Orange: its draw
    assert isinstance(orange, Draw)
    session.apply(orange)
    kinds = {a.rider: ("Sprinteur" if a.rider.endswith("S") else "Rouleur") for a in draws + [orange]}
    app = FlammeApp(autoplay=False, autosave=False, session=session)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        race = next(screen for screen in app.screen_stack if screen_name_of(screen) == "RaceScreen")
        text = "\n".join(race.log_w.lines)
    blue, orange_line = (f"Blue: {kinds[draws[0].rider]} draws first", f"Orange: {kinds[orange.rider]} draws first")
    assert text.index("── Round 2 ──") < text.index(blue) < text.index(orange_line) < text.index("(resumed at round 2)")
    assert "Blue took their last card back" in text
    assert text.count("draws first") == 2 and "plays" not in text.split("── Round 2 ──")[1]


async def test_pace_setting_and_true_key_labels_in_the_step_through():
    app = FlammeApp(seed=9, autoplay=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await new_race_menus(pilot, "classic")
        await pilot.press("ctrl+s")
        await settle(pilot)
        await pilot.press("enter", "1", "1", "1", "enter")  # Blue
        await settle(pilot)
        await pilot.press("enter", "1", "1", "1", "enter")  # Orange
        await settle(pilot)
        screen = app.screen
        assert screen.turn.kind == "reveal"
        assert not screen.playing  # pace "off" by default: nothing moves by itself
        keys = screen_text(app).splitlines()[-1]
        assert "a play" in keys and "pace: off" in keys
        await pilot.press("p")
        assert app.settings.step_speed == "slow" and "pace: slow" in screen_text(app).splitlines()[-1]
        from flamme_tui import settings as user_settings

        assert user_settings.load()[0].step_speed == "slow"  # remembered for the next race
        await pilot.press("a")
        assert screen.playing and "a stop" in screen_text(app).splitlines()[-1]
        await pilot.press("space", "left")  # back: the player takes it in hand, and the bar says so
        assert not screen.playing
        keys = screen_text(app).splitlines()[-1]
        assert "a play" in keys and "stop" not in keys
        await pilot.press("enter")
        assert screen.flow.replay.at_end
        assert "⏎ on to round 2" in screen_text(app)  # on the title line: never pushed out


@pytest.mark.parametrize("size, players", [((80, 24), 2), ((80, 24), 4), ((120, 40), 4)])
async def test_since_your_last_look_is_whole_or_says_where_the_rest_is(size, players):
    """The recap after the curtain: each round revealed since, in short; cut to
    the panel only with "…(log →)" at its end, never silently."""
    from flamme_tui.ui.scenarios import _play_round_by_keys

    from .driver import set_players

    app = FlammeApp(seed=9, autoplay=False, autosave=False)
    async with app.run_test(size=size) as pilot:
        await new_race_menus(pilot, "classic")
        await set_players(pilot, players)
        await pilot.press("ctrl+s")
        await _play_round_by_keys(pilot)
        await pilot.press("enter", "enter")  # skip the movement, on to round 2
        await settle(pilot)
        await pilot.press("enter")  # Blue lifts the curtain
        await settle(pilot)
        screen = app.screen
        assert screen.turn.kind == "draw" and len(screen.recap) == 1
        recap = screen.recap[0]
        assert recap.startswith("round 1: ") and recap.count("→") == 2 * players
        from rich.text import Text

        hint = Text.from_markup(screen._texts[screen.hint_w]).plain
        width, height = screen.hint_w.size
        told = hint.split("\n")[: hint.index("the chosen rider") and hint[: hint.index("the chosen rider")].count("\n")]
        assert told and len(told) <= height and all(len(line) <= width for line in told)  # on screen, whole lines
        assert all(line in screen_text(app) for line in told)
        words = " ".join(" ".join(told).split())
        if words != " ".join(f"Since your last look: {recap}".split()):
            assert words.endswith("…(log →)") and size == (80, 24) and players == 4
            shown = words.removeprefix("Since your last look: ").removesuffix("…(log →)").strip()
            whole = " ".join(recap.split())
            assert whole.startswith(shown) and whole[len(shown)] == " "  # never half a word: "14→1" for 14→18


def test_the_recap_is_cut_between_words():
    from flamme_tui.ui.widgets.actionpanel import cut_words

    line = "round 4: GR 4 14→18 · BS 5 12→17"
    assert cut_words(line, 18) == "round 4: GR 4"  # not "round 4: GR 4 14→1"
    assert cut_words(line, 19) == "round 4: GR 4 14→18"
    assert cut_words(line, 20) == "round 4: GR 4 14→18"
    assert cut_words(line, 100) == line
    assert cut_words("14→18", 3) == ""  # one word too long: nothing rather than half of it


async def test_since_your_last_look_in_bmx_before_a_token_is_selected():
    from flamme_tui.ui.scenarios import _play_round_by_keys

    app = FlammeApp(seed=9, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await new_race_menus(pilot, "bmx")
        await pilot.press("ctrl+s")
        await _play_round_by_keys(pilot)
        await pilot.press("enter", "enter")
        await settle(pilot)
        await pilot.press("enter")  # Blue lifts the curtain: the token pick at once
        await settle(pilot)
        screen = app.screen
        assert screen.turn.kind == "pick" and screen.recap and screen.recap[0].startswith("round 1: ")
        assert "Since your last look: round 1:" in screen_text(app)
        await pilot.press("right")
        assert "Since your last look" not in screen_text(app)  # the token selected, said in words


async def test_a_help_shown_again_is_the_one_built_before_from_its_top():
    """The app keeps a help screen built (it comes back within a frame), and
    shows it again from its top; another help text is another screen."""
    app = FlammeApp(seed=9, autoplay=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await new_race_menus(pilot, "classic")
        await pilot.press("ctrl+s")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("question_mark")
        first = app.screen
        top = screen_text(app)
        await pilot.press("pagedown", "pagedown")
        await settle(pilot)
        assert screen_text(app) != top
        await pilot.press("escape")
        await pilot.press("question_mark")
        await settle(pilot)
        assert app.screen is first and screen_text(app) == top
        await pilot.press("escape", "1")
        await pilot.press("question_mark")
        assert app.screen is not first and "Pick a card" in screen_text(app)


@pytest.mark.parametrize("scenario, header", [
    ("bmx-pick", "BMX AbcD · round 1 · Blue picks"),  # the circuit's name says BMX: said once
    ("card-pick", "Avenue Corso Paseo · Classic · round 1"),
])
async def test_the_race_header_says_the_rules_once(scenario, header):
    from flamme_tui.ui.scenarios import SCENARIOS

    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await SCENARIOS[scenario](pilot)
        first = screen_text(app).splitlines()[0]
    assert first.strip().startswith(header), first


@pytest.mark.parametrize("no_color", [False, True])
async def test_the_profile_legend_names_no_colour_under_no_color(monkeypatch, no_color):
    """Issue 24 item 13: under NO_COLOR the stage profile's legend named colours nobody sees."""
    from flamme_tui.ui.scenarios import SCENARIOS

    if no_color:
        monkeypatch.setenv("NO_COLOR", "1")
    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await SCENARIOS["profile"](pilot)
        legend = str(app.screen.query_one("#profile-legend").render())
        named = [c for c in ("red", "blue", "yellow") if c in legend]
        assert named == ([] if no_color else ["red", "blue", "yellow"]), legend
        assert "start" in legend and "finish" in legend


@pytest.mark.parametrize("teams", [2, 6])
async def test_the_profile_legend_says_the_plus_when_ten_riders_may_share_a_spot(teams):
    """Twelve riders on the grid are drawn "+" under the profile: its legend did not say what that was."""
    from flamme_tui.play.flow import RaceFlow
    from flamme_tui.ui.scenarios import choices, settle
    from flamme_tui.ui.widgets.profile import StageProfile

    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        app.start_flow(RaceFlow(choices("classic", teams, seed=7).session()))
        await settle(pilot)
        await pilot.press("enter", "s")  # the curtain, then the profile
        await settle(pilot)
        legend = str(app.screen.query_one("#profile-legend").render())
        riders = app.screen.query_one(StageProfile).render_line(app.screen.query_one(StageProfile).bars + 1).text
        assert ("+" in riders) is (teams == 6), riders
        assert ("(+: ten or more)" in legend) is (teams == 6), legend

async def test_the_rider_choice_says_the_weather_under_each_rider():
    """Issue 24 item 13: the weather where the seat's riders stand (a tailwind draws 5,
    a headwind 3) was not shown on the rider-choice screen (cut off the card, or never said).
    It is in each rider card's bottom border: "╰─ » draw 5 cards ─╯"."""
    from flamme_tui.play.flow import RaceFlow
    from flamme_tui.ui.palette import WEATHER
    from flamme_tui.ui.scenarios import advance, choices, settle

    app = FlammeApp(seed=92, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        session = choices("meteo", 2, seed=92).session()
        game = session.game

        def weather_of(i: int) -> str:
            square = game.pos[i][0]
            return game.course.weather[square] if 0 <= square < len(game.course.weather) else ""

        advance(session, 12, until=lambda g: all(weather_of(i) for i in g.seats[0]))
        kinds = [weather_of(i) for i in game.seats[0]]
        assert all(kinds)
        app.start_flow(RaceFlow(session))
        await settle(pilot)
        await pilot.press("enter")  # the curtain
        await settle(pilot)
        assert app.screen.turn.kind == "draw" and app.screen.turn.seat == 0
        feet = next(line for line in screen_text(app).splitlines() if "╰─" in line)
        for kind in kinds:
            assert f"╰─ {WEATHER[kind].glyph} {WEATHER[kind].effect} " in feet, (kind, feet)


async def test_the_saved_races_players_fit_the_window_as_it_is_resized(data_dir):
    """Long names are cut with … to the window's width, never a sideways scroll
    bar, after the window has been wider too (a column never narrowed by itself)."""
    from flamme_tui import saves
    from flamme_tui.ui.scenarios import advance, choices

    folder = saves.saves_dir()
    folder.mkdir(parents=True, exist_ok=True)
    race = choices("classic", 4)
    for k, seat in enumerate(race.seats):
        seat.name = f"{'Alexandrina Valentina Longname'[:20]} {k + 1}"
    session = race.session()
    advance(session, 2)
    saves.save(session, folder / "long.json")
    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        app.show_saved_races()
        for width in (80, 160, 80):
            await pilot.resize_terminal(width, 24)
            for _ in range(100):  # (the resize is laid out in its own time)
                await pilot.pause(0.01)
                if app.screen.query_one("#saved-table").size.width == width - 2:  # (the body's padding)
                    break
            await pilot.pause()
            table = app.screen.query_one("#saved-table")
            assert "Avenue Corso Paseo" in screen_text(app)  # every column as wide as its words
            players = str(table.get_cell_at((0, 4)))
            assert table.max_scroll_x == 0, (width, players)
            assert players.endswith("…") == (width == 80), players
            assert players.startswith("Alexandrina Valentin")
            if width > 80:
                assert players.endswith("Alexandrina Valentin 4")
