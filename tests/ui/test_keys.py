"""Rebinding keys: only Textual's key names are taken, a text field's typing
comes first (a letter bound to an app-wide action is typed in a name), and
ctrl+q always quits."""

from __future__ import annotations

import pytest

from flamme_tui import settings as user_settings
from flamme_tui.ui.app import FlammeApp
from flamme_tui.ui.keys import key_problem, keymap_problems, rebindable
from flamme_tui.ui.scenarios import settle
from flamme_tui.ui.textshot import screen_text

from .driver import new_race_menus, screen_name

pytestmark = pytest.mark.usefixtures("fast_pilot")


@pytest.fixture
def config_dir(tmp_path, monkeypatch):
    folder = tmp_path / "config"
    monkeypatch.setenv("FLAMME_TUI_CONFIG_DIR", str(folder))
    return folder


def test_only_textuals_key_names_are_keys():
    for key in ("a", "7", "f5", "f12", "escape", "enter", "space", "tab", "pageup", "question_mark", "full_stop",
                "ctrl+s", "ctrl+shift+left", "alt+x", "shift+tab", "ctrl+plus"):
        assert key_problem(key) is None, key
    for key in ("banana", "grinning_face", "f99", "ctrl+banana", "control+s", "ctrl+ctrl+s", "ctrl+", "+", "",
                "snowman", "latin_small_letter_a"):
        assert key_problem(key) is not None, key
    assert keymap_problems("teams.start", "f5,banana") == [key_problem("banana")]


def test_every_default_key_is_a_key():
    for binding in rebindable():
        assert keymap_problems(binding.id, binding.keys) == [], binding


async def test_a_name_that_is_no_key_is_refused_on_the_settings_screen(config_dir):
    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(*["down"] * app.screen.query_one("#title-menu").get_option_index("settings"), "enter")
        assert screen_name(app) == "SettingsScreen"
        field = app.screen.query_one("#key-teams-start")
        field.value = "banana"
        field.focus()
        await pilot.press("enter")
        await pilot.pause()
        message = str(app.screen.query_one("#settings-message").render())
        assert message.startswith("Not changed") and "'banana' is no key" in message
        assert field.value == "ctrl+s"  # the field shows the key as bound
        assert app.settings.keys == {}
        field.value = "ctrl+q"  # ctrl+q is quitting's
        await pilot.press("enter")
        await pilot.pause()
        assert "ctrl+q always quits" in str(app.screen.query_one("#settings-message").render())
        assert app.settings.keys == {}
    assert not (config_dir / "settings.json").exists()


async def test_a_settings_file_with_no_key_is_said_and_not_used(config_dir):
    user_settings.save(user_settings.Settings(keys={"teams.start": "banana", "teams.fill": "f7"}))
    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert any("'banana' is no key" in str(n.message) for n in app._notifications)
        await new_race_menus(pilot, "classic")
        text = screen_text(app)
        assert "\N{BANANA}" not in text and "start race" in text.splitlines()[-1]
        assert app.key_of("teams.fill", "f2") == "f7"  # the good binding is used
        await pilot.press("ctrl+s")  # the default still starts the race
        await settle(pilot)
        assert app.flow is not None


async def test_a_letter_bound_to_an_app_wide_action_is_typed_in_a_name(config_dir):
    user_settings.save(user_settings.Settings(keys={"teams.start": "s", "app.quit": "ctrl+q,x"}))
    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await new_race_menus(pilot, "classic")
        name = app.screen.query_one("#name-0")
        name.focus()
        name.value = ""
        await pilot.press(*"sax")
        await pilot.pause()
        assert name.value == "sax"
        assert app.flow is None and screen_name(app) == "TeamsScreen"  # neither started nor asked to quit
        app.screen.query_one("#colour-0").focus()  # out of the text field: the letter is the key again
        await pilot.press("s")
        await settle(pilot)
        assert app.flow is not None and app.choices.seats[0].name == "sax"  # started, with the name typed


async def test_ctrl_q_always_quits(config_dir):
    user_settings.save(user_settings.Settings(keys={"app.quit": "f10"}))
    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.key_of("app.quit", "ctrl+q") == "f10"
        await pilot.press("ctrl+q")
        await pilot.pause()
    assert app.return_code == 0 and not app.is_running
    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("f10")  # the key bound to quitting quits too
        await pilot.pause()
    assert app.return_code == 0 and not app.is_running


def test_a_key_a_screen_already_uses_is_refused():
    """The race's number keys choose: race.profile bound to 1 took the choice
    away (the bar read "1 2 choose ... 1 profile").  A screen's fixed keys and
    the keys its other bindings have now are refused, saying what has them."""
    (digit,) = keymap_problems("race.profile", "1")
    assert "1 already chooses by number on the race screen" in digit and "race.profile" in digit
    assert "race screen" in keymap_problems("race.profile", "left")[0]
    assert "race.hint's key" in keymap_problems("race.profile", "v,h")[0]
    assert keymap_problems("race.profile", "h", {"race.hint": "i"}) == []  # hint moved away: h is free
    assert "chooses by number" in keymap_problems("help", "3")[0]  # a key of every screen: the race's too
    assert keymap_problems("podium.again", "1") == []  # the podium chooses nothing by number
    assert keymap_problems("race.standings", "v") == []


async def test_a_number_key_is_refused_on_the_settings_screen(config_dir):
    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(*["down"] * app.screen.query_one("#title-menu").get_option_index("settings"), "enter")
        field = app.screen.query_one("#key-race-profile")
        field.value = "1"
        field.focus()
        await pilot.press("enter")
        await pilot.pause()
        message = str(app.screen.query_one("#settings-message").render())
        assert message.startswith("Not changed") and "1 already chooses by number on the race screen" in message
        assert field.value == "s" and app.settings.keys == {}
    assert not (config_dir / "settings.json").exists()


async def test_a_settings_file_binding_a_number_key_leaves_the_number_choosing(config_dir):
    user_settings.save(user_settings.Settings(keys={"race.profile": "1"}))
    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert any("1 already chooses by number" in str(n.message) for n in app._notifications)
        await new_race_menus(pilot, "classic")
        await pilot.press("ctrl+s")
        await settle(pilot)
        await pilot.press("enter")  # the curtain
        await settle(pilot)
        bar = screen_text(app).splitlines()[-1]
        assert "s profile" in bar and "1 profile" not in bar
        turn = app.screen.turn
        await pilot.press("1")  # chooses the rider that draws first
        await settle(pilot)
        assert screen_name(app) == "RaceScreen" and app.screen.turn is not turn


def help_words(app, parts: str = "#help-text, #help-keys") -> str:
    from flamme_tui.ui.textshot import rendered_text

    return "\n".join(rendered_text(w.content) for w in app.screen.query(parts))


async def test_the_help_and_the_profile_name_the_keys_as_bound(config_dir):
    """race.profile on v, race.hint on i, in French: the help's words named h and
    s, the profile said "Échap ou s fermer" and closed with s, not v."""
    from flamme_tui.ui.scenarios import one_human

    user_settings.save(user_settings.Settings(language="fr", hints="solo", keys={
        "race.profile": "v", "race.hint": "i", "race.change": "x", "race.confirm": "enter,o"}))
    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        app.start_race(one_human())
        await settle(pilot)
        await pilot.press("2")  # the Rouleur draws first
        await settle(pilot)
        assert app.screen.turn.kind == "pick"
        await pilot.press("f1")
        await pilot.pause()
        words = help_words(app, "#help-text")  # the phase's words (not the list of the screen's keys under them)
        rows = {line.split()[0]: line for line in words.splitlines() if line.startswith("  ") and line.split()}
        assert rows["i"].split(None, 1)[1].startswith("un indice") and rows["v"].split(None, 1)[1].startswith(
            "le profil")
        assert "h" not in rows and "s" not in rows
        assert "⏎ ou o passe le clavier, x (ou un chiffre)" in " ".join(words.split())
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("v")
        await pilot.pause()
        assert screen_name(app) == "ProfileScreen"
        assert "Échap ou v fermer" in screen_text(app) and "ou s fermer" not in screen_text(app)
        await pilot.press("s")  # no longer its key
        await pilot.pause()
        assert screen_name(app) == "ProfileScreen"
        await pilot.press("v")
        await pilot.pause()
        assert screen_name(app) == "RaceScreen"
    from flamme_tui import i18n

    i18n.choose()  # (the next tests read English)


async def test_the_settings_help_names_the_hint_key_as_bound(config_dir):
    user_settings.save(user_settings.Settings(keys={"race.hint": "i"}))
    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(*["down"] * app.screen.query_one("#title-menu").get_option_index("settings"), "enter")
        await pilot.press("f1")
        await pilot.pause()
        assert "Hint key in races: i (or Hint" in " ".join(help_words(app).split())


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_key_bar_names_the_hint_key_when_hints_are_on(config_dir, size):
    from flamme_tui.ui.scenarios import one_human

    for hints in (True, False):
        user_settings.save(user_settings.Settings(hints=hints, keys={"race.hint": "i"}))
        app = FlammeApp(seed=7, autoplay=False, autosave=False)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            app.start_race(one_human())
            await settle(pilot)
            assert app.screen.turn.kind == "draw"
            assert ("i hint" in screen_text(app).splitlines()[-1]) is hints
            await pilot.press("2")
            await settle(pilot)
            bar = screen_text(app).splitlines()[-1]
            assert ("i hint" in bar) is hints and "? help" in bar and "q quit" in bar
