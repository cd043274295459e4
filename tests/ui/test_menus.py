"""Help, teams, palette, settings and saved races, through the UI."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from flamme_tui import saves
from flamme_tui import settings as user_settings
from flamme_tui.ui.app import FlammeApp
from flamme_tui.ui.keys import binding_ids
from flamme_tui.ui.scenarios import SCENARIOS, _play_round_by_keys, advance, choices, settle
from flamme_tui.ui.textshot import rendered_text, screen_text

from .driver import new_race_menus, screen_name

pytestmark = pytest.mark.usefixtures("fast_pilot")


@pytest.fixture
def config_dir(tmp_path, monkeypatch):
    folder = tmp_path / "config"
    monkeypatch.setenv("FLAMME_TUI_CONFIG_DIR", str(folder))
    return folder


def help_words(app) -> str:
    return "\n".join(rendered_text(w.content) for w in app.screen.query("#help-text, #help-keys"))


# ------------------------------------------------------------------- help

async def test_help_scrolls_at_80x24_and_speaks_of_tokens_in_bmx():
    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await SCENARIOS["bmx-pick"](pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        assert screen_name(app) == "HelpScreen"
        scroll = app.screen.query_one("#help-scroll")
        assert scroll.max_scroll_y > 0  # longer than the box: it must scroll, not be cut
        await pilot.press("end")
        await pilot.pause()
        assert scroll.scroll_y == scroll.max_scroll_y
        words = help_words(app)
        assert "token" in words and "bag" in words
        for classic_word in ("card", "Sprinteur", "Rouleur", "Tour standings", "stage profile"):
            assert classic_word not in words, classic_word
        await pilot.press("escape")
        assert screen_name(app) == "RaceScreen"


@pytest.mark.parametrize("size", [(80, 24), (100, 30)])
async def test_help_of_every_menu_scrolls_to_its_end_and_lists_its_keys(size):
    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=size) as pilot:
        await new_race_menus(pilot, "classic")
        await pilot.press("f1")  # F1 as well as ?
        await pilot.pause()
        assert screen_name(app) == "HelpScreen"
        words = help_words(app)
        assert "Keys on this screen" in words and "Start race" in words and "^s" in words
        # the palette's key once, in the help's own words (Textual's binding added "^p  palette",
        # in English whatever the language)
        assert words.count("^p") == 1 and "the command palette" in words
        assert "Young children" not in words  # classic: the BMX option is not explained
        assert "Peloton" in words
        scroll = app.screen.query_one("#help-scroll")
        await pilot.press("end")
        await pilot.pause()
        assert scroll.scroll_y == scroll.max_scroll_y
        assert "^p" in screen_text(app) or scroll.max_scroll_y > 0


async def test_curtain_and_reveal_say_tokens_in_bmx():
    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await SCENARIOS["bmx-builder"](pilot)
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert screen_name(app) == "CurtainScreen"
        text = screen_text(app)
        assert "Show my tokens" in text and "cards" not in text


# ------------------------------------------------------------------ teams

async def test_the_teams_key_bar_names_a_help_key_a_name_does_not_take():
    """The name field takes `?` as a letter: the key bar names f1, which opens
    the help from the name field; a screen without text fields names `?`."""
    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        assert "? help" in screen_text(app).splitlines()[-1]  # the title menu: no text field
        await new_race_menus(pilot, "classic")
        bar = screen_text(app).splitlines()[-1]
        assert "f1 help" in bar and "? help" not in bar
        app.screen.query_one("#name-0").focus()
        await pilot.pause()
        await pilot.press("question_mark")
        assert app.focused.value.endswith("?") and screen_name(app) == "TeamsScreen"  # typed, as a name's letter
        await pilot.press("f1")
        await pilot.pause()
        assert screen_name(app) == "HelpScreen"


async def test_enter_enter_from_the_stage_list_never_starts_a_race():
    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter", "enter", "enter")  # title, rules, stage
        await pilot.pause()
        assert screen_name(app) == "TeamsScreen"
        assert app.focused.id == "players"
        for _ in range(12):  # Enter on the Players list opens it, Enter in it picks: no race
            await pilot.press("enter")
            await pilot.pause()
        assert app.flow is None
        assert "TeamsScreen" in [type(s).__name__ for s in app.screen_stack]
        app.screen.query_one("#name-0").focus()  # Enter in a name goes from field to field, never onto Start
        for _ in range(12):
            await pilot.press("enter")
            await pilot.pause()
        assert app.flow is None
        assert "TeamsScreen" in [type(s).__name__ for s in app.screen_stack]


async def test_two_humans_set_up_with_the_keyboard_alone():
    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter", "enter", "enter")
        await pilot.pause()
        await pilot.press("tab", "tab")  # from Players, past the grid, to the first name
        assert app.focused.id == "name-0"
        await pilot.press(*"Anna", "enter")  # the name (selected: typing replaces it), then the next field
        assert app.focused.id == "colour-0"
        assert app.flow is None
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.flow is not None
        assert [t.name for t in app.flow.game.setup.teams] == ["Anna", "Orange"]


async def test_the_focus_pointer_never_fails_once_the_race_has_started():
    """The pointer is moved after a refresh: a key that leaves a field as the
    race starts found the teams screen gone (a crash seen in a terminal)."""
    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("enter", "enter", "enter")
        await pilot.pause()
        teams = app.screen
        teams.query_one("#name-0").focus()
        await pilot.pause()
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.flow is not None and teams not in app.screen_stack
        teams._point_at(None)  # what the blur of its name field schedules
        teams._point_at(teams.query_one("#name-0") if teams.query("#name-0") else None)


async def test_colour_swap_and_seat_type_change_are_said():
    from flamme_tui.ui.choices import RaceChoices, SeatChoice
    from flamme_tui.ui.screens.teams import TeamsScreen

    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        bmx = RaceChoices(variant="bmx", seats=[SeatChoice("Blue", "blue"),
                                                SeatChoice("Purple", "purple", "peloton")])
        app.push_screen(TeamsScreen(bmx))
        await pilot.pause()
        message = str(app.screen.query_one("#teams-message").render())
        assert "Seat 2" in message and "human" in message and "classic and meteo only" in message
        assert app.screen.query_one("#controller-1").value == "human"
        app.screen.query_one("#colour-1").value = "blue"
        await pilot.pause()
        message = str(app.screen.query_one("#teams-message").render())
        assert "swap" in message and "seat 1 is now Purple" in message


async def test_seed_field_says_what_it_accepts_and_names_are_not_cut():
    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await new_race_menus(pilot, "classic")
        screen = app.screen
        long_name = "Grandma Josephine Van Damme"
        screen.query_one("#name-0").value = long_name
        seed = screen.query_one("#seed")
        seed.value = "12ab"
        await pilot.pause()
        assert "digits only" in str(screen.query_one("#seed-note").render())
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.flow is None and "whole number" in str(screen.query_one("#teams-message").render())
        seed.value = "123456"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.flow.session.seed == 123456
        assert app.flow.game.setup.teams[0].name == long_name


# ------------------------------------------------- palette, quit, themes

async def test_palette_has_the_apps_commands_on_every_screen():
    from textual.command import CommandPalette

    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        titles = [c.title for c in app.get_system_commands(app.screen)]
        for wanted in ("New race", "Saved races", "Rules reference", "Settings", "Theme", "Screenshot", "Quit"):
            assert wanted in titles
        await SCENARIOS["curtain"](pilot)
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette)
        await pilot.press(*"rules ref", "enter")
        await pilot.pause()
        await pilot.pause()
        assert screen_name(app) == "RulesScreen"


async def test_hosting_a_table_from_a_race_says_why_it_asks_to_leave(data_dir):
    """From a race, the palette's "Host a table" asked "Leave this race?" and no more:
    the dialog says that hosting a table leaves the race (saved: Resume brings it back),
    and its key on names where it leads."""
    app = FlammeApp(seed=7, autoplay=False)  # autosaving, as in real play
    async with app.run_test(size=(80, 24)) as pilot:
        await SCENARIOS["curtain"](pilot)
        next(c for c in app.get_system_commands(app.screen) if c.title == "Host a table").callback()
        await settle(pilot)
        assert screen_name(app) == "ConfirmQuit"
        said = " ".join(screen_text(app).split())
        assert "Hosting a table leaves this race. It is saved" in said, said
        assert "Host a table (t)" in said and "Title menu (t)" not in said, said
        await pilot.press("t")
        await settle(pilot)
        assert app.flow is None and screen_name(app) == "VariantScreen" and app.hosting


async def test_the_dialog_before_hosting_keeps_its_buttons_whole_in_french(data_dir):
    """ "Héberger une table (t)" pushed "Continuer (n)" off the dialog's edge at 80x24."""
    from flamme_tui import i18n

    app = FlammeApp(seed=7, autoplay=False)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            i18n.set_language("fr")
            await SCENARIOS["curtain"](pilot)
            next(c for c in app.get_system_commands(app.screen) if c.title == "Héberger une table").callback()
            await settle(pilot)
            row = next(line for line in screen_text(app).splitlines() if "Quitter (q)" in line)
            assert "Héberger une table (t)" in row and "Continuer (n)" in row, row
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("command", ["New race", "Saved races"])
async def test_leaving_a_race_from_the_palette_asks_then_saves_and_lets_go(data_dir, command):
    app = FlammeApp(seed=7, autoplay=False)  # autosaving, as in real play
    async with app.run_test(size=(80, 24)) as pilot:
        await SCENARIOS["curtain"](pilot)
        saver = app.autosaver
        assert saver is not None and saver.lock is not None
        next(c for c in app.get_system_commands(app.screen) if c.title == command).callback()
        await settle(pilot)
        assert screen_name(app) == "ConfirmQuit"
        assert "saved" in screen_text(app).lower()
        await pilot.press("t")  # back to the title
        await settle(pilot)
        assert app.flow is None and app.autosaver is None and saver.lock is None  # the race file is let go
        assert screen_name(app) == ("VariantScreen" if command == "New race" else "SavedRacesScreen")


async def test_ctrl_c_says_how_to_quit_and_ctrl_q_asks_during_a_race():
    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert any("ctrl+q" in str(n.message) or "^q" in str(n.message) for n in app._notifications)
        await SCENARIOS["curtain"](pilot)
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert screen_name(app) == "ConfirmQuit"
        # the button names q, the app's quit key, which "quitter" starts with too (it said y: oui is o)
        assert "Quit (q)" in screen_text(app) and "(y)" not in screen_text(app)
        await pilot.press("n")
        await pilot.pause()
        await pilot.press("ctrl+q")
        await pilot.pause()
        await pilot.press("q")
        await pilot.pause()
        assert not app.is_running


async def test_light_theme_from_the_settings_is_used_and_saved(config_dir):
    user_settings.save(user_settings.Settings(theme="textual-light"))
    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.theme == "textual-light"
        assert "ansi-dark" not in app.available_themes  # black on black under NO_COLOR
        app.theme = "nord"
        await pilot.pause()
    assert user_settings.load()[0].theme == "nord"


# --------------------------------------------------------------- settings

def test_invalid_settings_give_one_line_and_the_defaults(config_dir):
    config_dir.mkdir()
    path = config_dir / "settings.json"
    path.write_text(json.dumps({"aids": "yes please", "colour": 3}))
    got, problem = user_settings.load()
    assert got == user_settings.Settings()
    assert problem is not None and "\n" not in problem and "settings.json" in problem
    path.write_text(json.dumps([1, 2]))  # not an object
    got, problem = user_settings.load()
    assert got == user_settings.Settings() and problem.endswith("using the default settings")
    path.write_text("{" * 100_000)
    got, problem = user_settings.load()
    assert got == user_settings.Settings() and "too big for a settings file" in problem
    path.write_text("{not json")
    assert user_settings.load()[1] is not None
    path.unlink()
    assert user_settings.load() == (user_settings.Settings(), None)


def test_bad_or_unknown_settings_are_left_out_and_the_others_kept(config_dir):
    """A setting from a newer version, a bad value, an action bound to no
    key: each is left out, said in one line; the other settings stay."""
    config_dir.mkdir()
    path = config_dir / "settings.json"
    path.write_text(json.dumps({"theme": "nord", "aids": False, "colour_blind": True, "step_speed": "warp",
                                "keys": {"teams.start": "f5", "title.quit": "F 6!"}}))
    got, problem = user_settings.load()
    assert got == user_settings.Settings(theme="nord", aids=False, keys={"teams.start": "f5"})
    assert problem is not None and "\n" not in problem and "settings.json" in problem
    assert "(and 2 more); left out, the other settings are used" in problem


def test_a_change_keeps_the_files_other_keys_and_another_apps_change(config_dir):
    """Issue 23: the first change rewrote the file from memory, erasing a newer
    version's keys and a bad value's line, and two apps undid each other's change.
    Now only the changed setting (or key binding) is written into the file as it is."""
    config_dir.mkdir()
    path = config_dir / "settings.json"
    path.write_text(json.dumps({"aids": False, "step_speed": "warp", "colour_blind": True,
                                "keys": {"teams.start": "f5", "future.binding": "f9"}}))
    one, _ = user_settings.load()  # two apps started on the same file
    two, _ = user_settings.load()
    assert one.keys == {"teams.start": "f5", "future.binding": "f9"}
    user_settings.save(one.model_copy(update={"theme": "nord", "keys": {**one.keys, "race.change": "x"}}), before=one)
    # the second app knows nothing of the first's change: it unbinds teams.start and binds teams.fill
    keys = {"teams.fill": "f7", "future.binding": "f9"}
    user_settings.save(two.model_copy(update={"bot_reasons": False, "keys": keys}), before=two)
    assert json.loads(path.read_text()) == {
        "aids": False, "step_speed": "warp", "colour_blind": True, "theme": "nord", "bot_reasons": False,
        "keys": {"teams.fill": "f7", "future.binding": "f9", "race.change": "x"}}


def test_a_change_never_replaces_a_mistyped_settings_file(config_dir):
    config_dir.mkdir()
    path = config_dir / "settings.json"
    path.write_text('{"aids": false, "theme": "nord",}')  # a trailing comma
    got, problem = user_settings.load()
    assert got == user_settings.Settings() and problem is not None
    with pytest.raises(OSError) as err:
        user_settings.save(got.model_copy(update={"bot_reasons": False}), before=got)
    assert "settings.json: not valid JSON" in err.value.strerror and "\n" not in err.value.strerror
    assert path.read_text() == '{"aids": false, "theme": "nord",}'


async def test_the_app_changes_only_the_setting_changed(config_dir):
    config_dir.mkdir()
    path = config_dir / "settings.json"
    path.write_text(json.dumps({"aids": False, "from_a_newer_version": [1, 2]}))
    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.theme = "nord"
        await pilot.pause()
    assert json.loads(path.read_text()) == {"aids": False, "from_a_newer_version": [1, 2], "theme": "nord"}


def test_settings_round_trip(config_dir):
    s = user_settings.Settings(aids=False, step_speed="fast", theme="nord", bot_reasons=False,
                               keys={"teams.start": "f5"})
    user_settings.save(s)
    assert user_settings.load() == (s, None)


def test_a_settings_file_from_before_the_hint_choices_keeps_its_meaning(config_dir):
    """The hint key was an on/off switch (on: one person racing): a file
    holding true or false still reads, as "solo" or "off"."""
    import json

    for old, new in ((True, "solo"), (False, "off")):
        user_settings.settings_path().parent.mkdir(parents=True, exist_ok=True)
        user_settings.settings_path().write_text(json.dumps({"hints": old}))
        assert user_settings.load() == (user_settings.Settings(hints=new), None)
    user_settings.save(user_settings.Settings(hints="all"))
    assert user_settings.load()[0].hints == "all"


async def test_the_settings_offer_hints_to_everyone_at_the_table(config_dir):
    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        app.show_settings()
        await pilot.pause(0.3)
        hints = app.screen.query_one("#hints")
        hints.focus()
        await pilot.pause()
        assert "off" in screen_text(app)
        for shown, value in (("on: one person racing against bots", "solo"),
                             ("on: everyone (the log says who asks)", "all")):
            await pilot.press("right")
            await pilot.pause()
            assert app.settings.hints == value and shown in screen_text(app)
    assert user_settings.load()[0].hints == "all"


async def test_a_rebound_key_works_and_the_key_bar_says_so(config_dir):
    user_settings.save(user_settings.Settings(keys={"teams.start": "f5"}))
    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await new_race_menus(pilot, "classic")
        assert "f5 start race" in screen_text(app)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.flow is None
        await pilot.press("f5")
        await settle(pilot)
        assert app.flow is not None


async def test_the_help_names_the_keys_as_bound(config_dir):
    """The help's words name the keys the player bound, not the default ones."""
    user_settings.save(user_settings.Settings(keys={"teams.start": "f5", "teams.fill": "f7", "app.quit": "ctrl+w"}))
    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await new_race_menus(pilot, "classic")
        await pilot.press("f1")
        await pilot.pause()
        assert screen_name(app) == "HelpScreen"
        words = rendered_text(app.screen.query_one("#help-text").content)
    rows = [" ".join(line.split()) for line in words.splitlines()]
    assert "f5 start the race (or Tab to Start race and press Enter)" in rows
    assert "f7 fill the free seats with bots (or the Fill with bots button)" in rows
    assert "^w quit (a race in progress asks first); ^c only says how" in rows
    assert "? or f1 this help (Esc, ? or q closes it; ↑ ↓ PgUp PgDn scroll it)" in rows
    assert "ctrl+s" not in words and "^s" not in words and "ctrl+f" not in words and "ctrl+q" not in words


@pytest.mark.parametrize("lang, either", [("en", "or"), ("fr", "ou"), ("es", "o")])
async def test_the_help_names_keys_one_way(lang, either):
    """The help wrote "? or f1" in its words and "?, f1" in the keys of the
    screen, "ctrl+p" and "^p": every key as the key bars show it (^p), several
    keys joined by the language's "or", in every language."""
    from flamme_tui import i18n

    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    i18n.choose(flag=lang)  # as --lang
    try:
        async with app.run_test(size=(80, 60)) as pilot:
            await pilot.press("question_mark")
            await pilot.pause()
            assert screen_name(app) == "HelpScreen"
            rows = [" ".join(line.split()) for line in help_words(app).splitlines()]
    finally:
        i18n.forget_flag()
        i18n.set_language("en")
    words = "\n".join(rows)
    assert "ctrl+" not in words and "?, f1" not in words and "q, ^q" not in words
    assert sum(row.startswith(f"? {either} f1 ") for row in rows) == 2  # everywhere, and this screen's keys
    assert any(row.startswith(f"q {either} ^q ") for row in rows)
    assert sum(row.startswith("^p ") for row in rows) == 1  # among every screen's keys only (not Textual's "palette")


async def test_keys_written_without_an_app_are_shown_as_the_app_shows_them():
    from textual.binding import Binding

    from flamme_tui.ui.keys import shown_key

    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)):
        for key in ("ctrl+p", "ctrl+c", "question_mark", "f1", "enter", "escape", "backspace", "shift+tab", "space"):
            assert shown_key(key) == app.get_key_display(Binding(key, "")), key


def test_the_tour_stages_help_names_its_keys_as_bound():
    from flamme_tui.ui.texts import help_for

    bound = {"tour-stages.go": "f9", "tour-stages.meteo": "x"}
    words = help_for("tour-stages", key=lambda binding_id, default: bound.get(binding_id, default))
    assert "  f9           on to the teams" in words and "  x            add it as meteo" in words
    assert "ctrl+s" not in words


def test_the_saved_races_podium_and_stage_result_helps_name_their_keys_as_bound():
    """Their prose wrote "p replays", "Coach (c)" whatever the player had bound."""
    from flamme_tui.ui.texts import help_for

    bound = {"saved.open": "o", "saved.replay": "f6", "saved.branch": "f7", "saved.delete": "f8",
             "podium.coach": "k", "tour-result.coach": "x"}
    key = lambda binding_id, default: bound.get(binding_id, default)  # noqa: E731
    saved = help_for("saved", key=key)
    for said in ("o resumes a race", "f6 replays", "f7 goes on from a backup", "o shows what was lost",
                 "f8 deletes a race"):
        assert said in saved, said
    assert "Enter" not in saved and "p replays" not in saved and "b goes on" not in saved
    assert "Coach (k)" in help_for("podium", key=key) and "Coach (c)" not in help_for("podium", key=key)
    assert "Coach (x)" in help_for("tour-result", key=key)
    assert "Coach (c)" in help_for("podium") and "d or del deletes" in help_for("saved")  # the defaults


async def test_rebinding_a_key_changes_the_saved_races_help_and_line(config_dir, data_dir):
    user_settings.save(user_settings.Settings(keys={"saved.replay": "f6", "saved.open": "o"}))
    folder = data_dir / "saves"
    folder.mkdir(parents=True)
    session = choices("classic", 2, seed=3).session()
    advance(session, 2)
    saves.save(session, folder / "race.json")
    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        app.show_saved_races()
        await pilot.pause()
        line = rendered_text(app.screen.query_one("#saved-detail").render())
        assert "o resumes it, f6 replays the rounds played, b goes on" in " ".join(line.split())
        await pilot.press("f1")
        await pilot.pause()
        words = " ".join(help_words(app).split())
        assert "o resumes a race in progress or replays a finished one; f6 replays; b goes on" in words
        assert "Enter resumes" not in words


async def test_settings_screen_changes_are_saved(config_dir):
    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(*["down"] * app.screen.query_one("#title-menu").get_option_index("settings"), "enter")
        assert screen_name(app) == "SettingsScreen"
        assert app.focused.id == "language"  # the first row; the Enter that opened the screen, again, changes nothing
        await pilot.press("enter", "enter")
        await pilot.pause()
        assert app.settings == user_settings.load()[0] == user_settings.Settings()
        assert "on: where each card goes" in screen_text(app)  # the state in words, not in grey shades
        await pilot.press("tab")
        assert app.focused.id == "aids"
        await pilot.press("space")  # aids off
        await pilot.pause()
        assert app.settings.aids is False
        assert "off: the real table" in screen_text(app)
        key = app.screen.query_one("#key-teams-start")
        key.value = "not a key!"
        key.focus()
        await pilot.press("enter")
        await pilot.pause()
        assert "Not changed" in str(app.screen.query_one("#settings-message").render())
        # said where the player looks: the message (and the file's path) stay in view, not under
        # the key list, whichever row the focus scrolled to
        assert "Not changed" in screen_text(app) and "File: " in screen_text(app)
        key.value = "f6"
        await pilot.press("enter")
        await pilot.pause()
    saved, problem = user_settings.load()
    assert problem is None and saved.aids is False and saved.keys == {"teams.start": "f6"}


# ------------------------------------------------------ saved races, title

def make_saves(folder: Path) -> dict[str, Path]:
    folder.mkdir(parents=True, exist_ok=True)
    running = choices("classic", 2, seed=3).session()
    advance(running, 2)
    done = choices("bmx", 2, seed=4).session()
    advance(done, 200)
    paths = {"running": saves.save(running, folder / "running.json"),
             "done": saves.save(done, folder / "done.json")}
    damaged = folder / "damaged.json"
    damaged.write_text(paths["running"].read_text()[:-40])
    paths["damaged"] = damaged
    return paths


async def test_saved_races_lists_resumes_replays_and_deletes(data_dir):
    paths = make_saves(data_dir / "saves")
    app = FlammeApp(seed=7, autoplay=False, autosave=True)
    async with app.run_test(size=(100, 30)) as pilot:
        for _ in range(50):  # the Resume entry is found in the background, then goes first
            await pilot.pause(0.02)
            if app.screen.resume_info is not None:
                break
        menu = app.screen.query_one("#title-menu")
        assert menu.get_option_at_index(0).id == "resume"
        app.show_saved_races()
        await pilot.pause()
        screen = app.screen
        assert screen_name(app) == "SavedRacesScreen"
        by_name = {r.path.name: r for r in screen.races}
        assert set(by_name) == {"running.json", "done.json", "damaged.json"}
        text = screen_text(app)
        assert f"round {by_name['running.json'].round}  " in text and "won by" in text and "damaged" in text
        # delete the damaged one: asked first, "n" keeps it
        table = screen.query_one("#saved-table")
        table.move_cursor(row=[r.path.name for r in screen.races].index("damaged.json"))
        await pilot.press("enter")  # a damaged race: what was lost, the backups (none here)
        await pilot.pause()
        assert screen_name(app) == "DamagedSave" and "cannot be resumed" in screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("d")
        await pilot.pause()
        assert screen_name(app) == "ConfirmDelete"
        await pilot.press("n")
        await pilot.pause()
        assert paths["damaged"].exists()
        await pilot.press("d", "y")
        await pilot.pause()
        assert not paths["damaged"].exists()
        assert {r.path.name for r in screen.races} == {"running.json", "done.json"}
        # replay the finished race, then resume the one in progress
        table.move_cursor(row=[r.path.name for r in screen.races].index("done.json"))
        await pilot.press("enter")
        await pilot.pause()
        assert screen_name(app) == "ReplayScreen"
        await pilot.press("escape")
        await pilot.pause()
        table.move_cursor(row=[r.path.name for r in screen.races].index("running.json"))
        await pilot.press("enter")
        await settle(pilot)
        assert app.flow is not None and app.flow.game.round == 3


def test_no_test_leaks_into_the_users_config():
    assert os.environ["FLAMME_TUI_CONFIG_DIR"]


# ----------------------------------------------------------------- podium

async def test_podium_names_in_full_awards_and_chart():
    from flamme_tui.play.flow import RaceFlow
    from flamme_tui.ui.choices import RaceChoices, SeatChoice

    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(120, 60)) as pilot:
        race = RaceChoices(variant="classic", seed=5, seats=[
            SeatChoice("Grandma Josephine Van Damme", "blue", "easy"), SeatChoice("Purple", "purple", "peloton")])
        session = race.session()
        advance(session, 200)
        app.show_podium(RaceFlow(session))
        await pilot.pause()
        text = screen_text(app)
        assert "Grandma Josephine Van Damme" in text and "Purple Peloton" in text
        assert "Most in the wind" in text and "Most slipstream" in text
        assert "Best from the back" in text
        assert "Race chart" in text and "round" in text
        assert app.focused is not app.screen.query_one("#again")  # Enter, Enter never races again
        await pilot.press("enter", "enter")
        assert type(app.screen).__name__ == "PodiumScreen" and app.flow is None


def test_podium_history_follows_the_race_and_ties_are_explained():
    from flamme_tui.play.flow import RaceFlow
    from flamme_tui.ui.screens.podium import podium_data, tie_text

    session = choices("bmx", 3, seed=11).session()
    advance(session, 200)
    game = session.game
    history = podium_data(RaceFlow(session))
    assert len(history.distances) == game.round + 1  # the start and every round
    assert history.distances[-1] == [max(0, game.course.finish - p[0]) for p in game.pos]
    assert 0 < sum(history.wind) <= sum(r.fatigue for r in game.riders)  # rounds taking tokens (1 or 2 each)
    names = [t.name for t in game.setup.teams]
    first, second = game.ranking()[:2]
    game.pos[second] = [game.pos[first][0], 1 - game.pos[first][1]]
    lead = game.ranking()[0]  # the engine decides who ranks ahead on one square
    words = str(tie_text(game, names))
    # in the numbering of every screen (a 28-square lap ends on square 28), lanes in words
    from flamme_tui.play.narrator import label, lane_word

    assert f"same square ({label(game.course, game.pos[lead][0])})" in words
    assert f"in the {lane_word('bmx', game.pos[lead][1])}" in words and "lane 0" not in words


@pytest.mark.parametrize("theme", ["textual-dark", "textual-light", "nord", "gruvbox", "solarized-light"])
async def test_the_focused_field_stands_out_at_256_colours(theme):
    """The focused field's background, brought down to the 256-colour palette,
    differs from an unfocused field's, in every theme offered."""
    from rich.color import Color, ColorSystem

    def at_256(widget) -> int | None:
        bg = widget.styles.background
        return Color.from_rgb(bg.r, bg.g, bg.b).downgrade(ColorSystem.EIGHT_BIT).number

    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        app.apply_settings(app.settings.model_copy(update={"theme": theme}))
        await SCENARIOS["teams-focus"](pilot)
        screen = app.screen
        assert app.focused.id == "colour-0"
        focused = at_256(screen.query_one("#colour-0 SelectCurrent"))
        assert focused != at_256(screen.query_one("#colour-1 SelectCurrent"))
        assert focused != at_256(screen)  # nor the screen behind
        await pilot.press("shift+tab")
        assert app.focused.id == "name-0"
        assert at_256(screen.query_one("#name-0")) != at_256(screen.query_one("#name-1"))
        assert "▶1" in screen_text(app)


def test_default_settings_are_usable_as_they_are():
    from flamme_tui.ui.app import THEMES

    assert user_settings.Settings().theme in THEMES
    assert user_settings.Settings().step_speed == "off" and user_settings.Settings().step_delay is None
    # a settings file of an earlier flamme-tui (its default step speed) still loads
    assert user_settings.Settings.model_validate_json('{"step_speed": "normal"}').step_delay == 0.7


async def test_bot_reasons_setting_reaches_the_race_log(config_dir):
    from flamme_tui.ui.choices import RaceChoices, SeatChoice

    for shown in (True, False):
        user_settings.save(user_settings.Settings(bot_reasons=shown))
        app = FlammeApp(seed=7, autoplay=False, autosave=False)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            app.start_race(RaceChoices(variant="classic", seed=3, seats=[
                SeatChoice("Ann", "blue"), SeatChoice("Hal", "orange", "hard")]))
            await settle(pilot)
            assert app.flow.show_reasons is shown
            await _play_round_by_keys(pilot)  # to the reveal, where the reasons are logged
            await pilot.press("enter")
            await settle(pilot)
            log = "\n".join(app.flow.log)
            assert ("(bot, hard)" in log) is shown
            shown_log = "\n".join(app.screen.log_w.lines)  # what the players see
            assert ("(bot, hard)" in shown_log) is shown


async def test_race_keys_are_rebindable_and_the_key_bar_and_help_follow(config_dir):
    user_settings.save(user_settings.Settings(keys={"race.change": "x", "race.profile": "f2"}))
    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await new_race_menus(pilot, "classic")
        await pilot.press("ctrl+s")
        await settle(pilot)
        await pilot.press("enter", "1", "1", "1")  # Blue: both cards, the review
        screen = app.screen
        assert screen.pending is not None
        keys = screen_text(app).splitlines()[-1]
        assert "x change the Rouleur's card" in keys and "f2 profile" in keys and " u " not in keys
        await pilot.press("u")  # the old key does nothing now
        assert screen.pending is not None
        await pilot.press("f1")  # the help lists the keys as bound, u and p included by what they do
        words = help_words(app)
        assert "Change the last card before passing" in words and "Focus Next" not in words
        await pilot.press("escape", "x")
        assert screen.pending is None and screen.turn.kind == "pick"
        await pilot.press("f2")
        await pilot.pause()
        assert screen_name(app) == "ProfileScreen"
        await pilot.press("escape")
        assert {"race.change", "race.confirm", "curtain.lift"} <= set(binding_ids())  # on the settings screen


async def test_saved_races_branch_from_a_backup(data_dir):
    """b on a race: its backups; going on from one starts a new race file from
    that point (a branch) and leaves the race file as it was."""
    from flamme_tui.bots.easy import easy
    from flamme_tui.engine.phase import Phase
    from flamme_tui.engine.turns import turns

    folder = data_dir / "saves"
    folder.mkdir(parents=True)
    session = choices("classic", 2, seed=3).session()
    path = folder / "race.json"
    for _ in range(3):  # three saves, one action apart: the race file and two backups
        saves.save(session, path, keep=3)
        session.apply(easy(session.game.view(next(turns(session.game)))))
    saves.save(session, path, keep=3)
    before = path.read_bytes()
    actions = len(session.game.actions)
    app = FlammeApp(seed=7, autoplay=False, autosave=True)
    async with app.run_test(size=(100, 30)) as pilot:
        app.show_saved_races()
        await pilot.pause()
        assert "b branch" in screen_text(app)
        await pilot.press("b")
        await pilot.pause()
        assert screen_name(app) == "BranchFromBackup"
        assert "race.json.1" in screen_text(app) and "race.json.2" in screen_text(app)
        # two people race it (no bot): a branch reopens turns played, so the dialog says to branch together
        assert saves.peek(path).players == 2
        assert "Several people race here" in screen_text(app)
        await pilot.press("down", "enter")  # the older backup, two actions back
        await settle(pilot)
        assert app.flow is not None and len(app.flow.session.game.actions) == actions - 2
        assert app.flow.session.save_path.name.startswith("race-branch-2")
        assert app.flow.game.phase != Phase.OVER
    assert path.read_bytes() == before  # the race file is as it was


@pytest.mark.parametrize("bots", [{}, {1: "easy"}])
async def test_a_branch_says_its_new_file_without_hiding_the_table_at_80x24(data_dir, bots):
    """A toast said the branch's new file at the bottom right, over the rider
    table: now the first curtain says it (two people), and the race log."""
    from flamme_tui.play.session import Session

    folder = data_dir / "saves"
    folder.mkdir(parents=True)
    session = Session.new(choices("classic", 2, seed=3).spec(), 3, bots=bots)
    path = folder / "race.json"
    saves.save(session, path, keep=3)
    saves.save(session, path, keep=3)
    app = FlammeApp(seed=7, autoplay=False, autosave=True)
    async with app.run_test(size=(80, 24)) as pilot:
        app.show_saved_races()
        await pilot.pause()
        await pilot.press("b")
        await pilot.pause()
        await pilot.press("enter")
        await settle(pilot)
        said = "race.json.1 goes on as the new race file race-branch-1.json"
        assert not list(app._notifications)
        if not bots:
            assert screen_name(app) == "CurtainScreen"
            text = screen_text(app)
            assert said in " ".join(text.split())
            assert "Team    Sq to go   Deck E held/played Recycled  Played" in text  # the table, whole
            await pilot.press("enter")
            await settle(pilot)
        assert screen_name(app) == "RaceScreen"
        text = screen_text(app)
        from flamme_tui.ui.widgets.racelog import RaceLog

        assert any(said in line for line in app.screen.query_one(RaceLog).lines)
        assert "race-branch-1.json;" in text  # the log, on screen
        assert "Team    Sq to go   Deck E held/played Recycled  Played" in text
        if not bots:  # the next player's curtain says it no more
            for _ in range(6):  # the first rider, its card, the other's card, the review
                await pilot.press("enter" if getattr(app.screen, "pending", None) is not None else "1")
                await settle(pilot)
                if screen_name(app) == "CurtainScreen":
                    break
            assert screen_name(app) == "CurtainScreen"
            assert "goes on as" not in screen_text(app)


async def test_a_branch_of_a_race_against_bots_says_nothing_of_other_players(data_dir):
    """One person against a bot: no curtain, nobody else's cards to reopen."""
    from flamme_tui.play.session import Session

    folder = data_dir / "saves"
    folder.mkdir(parents=True)
    session = Session.new(choices("classic", 2, seed=3).spec(), 3, bots={1: "easy"})
    path = folder / "race.json"
    saves.save(session, path, keep=3)
    saves.save(session, path, keep=3)
    assert saves.peek(path).players == 1
    app = FlammeApp(seed=7, autoplay=False, autosave=True)
    async with app.run_test(size=(100, 30)) as pilot:
        app.show_saved_races()
        await pilot.pause()
        await pilot.press("b")
        await pilot.pause()
        assert screen_name(app) == "BranchFromBackup"
        assert "Several people" not in screen_text(app)


def test_the_title_menu_is_drawn_before_the_settings_are_read(tmp_path):
    """Start-up: the title menu needs neither the settings nor pydantic (slow to
    import); they come once it is on screen (the key bars of the title menu
    then show a rebound key)."""
    import subprocess
    import sys

    config = tmp_path / "config"
    config.mkdir()
    (config / "settings.json").write_text(json.dumps({"keys": {"title.quit": "f10"}}))
    script = """
import asyncio, sys
from flamme_tui.ui.app import FlammeApp
from flamme_tui.ui.textshot import screen_text

preload = FlammeApp.preload

def probe(self):
    print("pydantic at the title:", "pydantic" in sys.modules, flush=True)
    preload(self)

FlammeApp.preload = probe

async def main():
    app = FlammeApp(autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(100):
            await pilot.pause(0.02)
            if "f10 quit" in screen_text(app):
                break
        print(screen_text(app).splitlines()[-1], flush=True)

asyncio.run(main())
"""
    env = dict(os.environ, FLAMME_TUI_CONFIG_DIR=str(config), TEXTUAL_ANIMATIONS="none")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=120)
    out = done.stdout
    assert "pydantic at the title: False" in out, done.stderr[-2000:]
    assert "f10 quit" in out


async def test_help_lists_every_key_of_the_race_screen_even_brackets():
    """The help's key list is markup: the track's `[` `]` keys (and any key a
    player binds to a bracket) made one tag of everything between them, and
    both lines vanished."""
    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await new_race_menus(pilot, "classic")
        await pilot.press("ctrl+s")
        await settle(pilot)
        await pilot.press("enter", "1")  # the curtain, then the Sprinteur draws
        await settle(pilot)
        race = app.screen
        wanted = {a.binding.description for a in race.active_bindings.values()
                  if a.node is race and (a.binding.id or "").startswith("race.")}
        assert {"Scroll the track back", "Scroll the track on"} <= wanted
        standings = "Tour standings: the GC before the stage, who has finished, the live GC"
        await pilot.press("question_mark")
        await pilot.pause()
        keys = rendered_text(app.screen.query_one("#help-keys").content)
        for description in wanted - {standings}:
            assert description in keys
        assert "[" in keys and "]" in keys
        assert standings not in keys  # a single race has no tour standings: its key is not offered


async def test_the_title_says_how_many_can_play_as_the_teams_screen_offers():
    """The tagline said "2 to 4 players" while the teams screen offers up to
    six teams, or twelve players racing one rider each."""
    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        tagline = str(app.screen.query_one("#tagline").render())
        assert all(line in screen_text(app) for line in tagline.split("\n"))  # whole at 80 columns
        await new_race_menus(pilot, "classic")
        counts = [value for _, value in app.screen.query_one("#players")._options]
        assert f"{min(counts)} to {max(counts)} players" in tagline
        assert "Peloton" in tagline  # the expansion the teams screen offers too


def test_the_stage_result_help_says_how_squares_become_seconds():
    """A player saw +0:50 for 4 squares and +1:40 for 9 and found no rule for it
    (GRAND-TOUR.md, Stage time): the stage result's help says it, as the tour's does."""
    from flamme_tui.ui.texts import help_for

    said = " ".join(help_for("tour-result").split())
    assert ("a minute for each round after the first rider crossed, less 10 seconds for each square past the line"
            in said)
