"""Hostile names through the whole app: markup (`[/]`, `[Dad] Tom`,
`[@click=quit]`), control characters (an OSC retitling the terminal), very
long names, combining characters and emoji.  At every screen: no crash, the
name shown literally, and nothing the terminal would obey written to it
(checked on what the real driver would write: the compositor's output)."""

from __future__ import annotations

import json
import os
import re
import time

import fuzzing
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.cells import cell_len
from textual import events
from textual.app import App
from textual.geometry import Region

from flamme_tui import saves, usertext
from flamme_tui.ui.app import FlammeApp
from flamme_tui.ui.scenarios import advance, choices, settle
from flamme_tui.ui.textshot import screen_text

from .driver import go_to_stage, new_race_menus, pick_option, play_race, screen_name, set_players

pytestmark = [pytest.mark.usefixtures("fast_pilot"), pytest.mark.fuzz]

ESC_TITLE = "\x1b]0;pwned\x07"
# the terminal's own sequences (colours, cursor moves): everything else is refused
CSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]")


def terminal_output(app) -> str:
    """What the driver writes for the whole screen now (App._display)."""
    update = app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    return update.render_segments(app.console)


def assert_terminal_safe(app) -> None:
    fuzzing.count("user text")  # one screen checked
    out = CSI.sub("", terminal_output(app))
    bad = sorted({f"U+{ord(c):04X}" for c in usertext.CONTROL.findall(out) if c not in "\r\n"})
    assert not bad, f"{screen_name(app)} writes {bad} to the terminal"
    assert "pwned\x07" not in out and "\x1b]" not in out


def assert_literal(text: str, shown: dict[str, str]) -> None:
    """Each marker word appears only right after the whole of its prefix: the
    markup before it was not eaten (a name cut short by an ellipsis is fine)."""
    for word, prefix in shown.items():
        for found in re.finditer(re.escape(word), text):
            before = text[max(0, found.start() - len(prefix)):found.start()]
            if before != prefix and "\n" in before:  # wrapped: the word starts a line, its prefix is on screen
                assert prefix.split()[-1] in text, f"{word!r} shown without {prefix!r}"
                continue
            assert before == prefix, f"{word!r} shown without {prefix!r}: {text[max(0, found.start() - 30):found.end()]!r}"


async def until(pilot, ready, timeout: float = 60.0) -> None:
    """Wait until `ready()`: a toast is mounted a moment later (a busy machine can take seconds: the
    caller's assertion follows, so a time-out only bounds how long a failing test takes)."""
    deadline = time.monotonic() + timeout
    while not ready() and time.monotonic() < deadline:
        await pilot.pause(0.02)


async def paste(pilot, selector: str, text: str) -> None:
    widget = pilot.app.screen.query_one(selector)
    widget.value = ""
    widget.post_message(events.Paste(text))
    await pilot.pause()


# names typed (pasted) on the teams screen: 16 characters at most
TYPED = ["[Dad] Tom", "[/]", "[@click=quit]Ann", "[b red]Zed\\"]
TYPED_MARKERS = {"Tom": "[Dad] ", "Ann": "[@click=quit]", "Zed": "[b red]"}


async def test_hostile_names_typed_on_the_teams_screen_race_to_the_podium():
    app = FlammeApp(seed=3, autoplay=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await new_race_menus(pilot, "classic")
        await set_players(pilot, 4)
        # a control character cannot be typed or pasted into a name
        await paste(pilot, "#name-0", f"x{ESC_TITLE}")
        assert app.screen.query_one("#name-0").value == ""
        for seat, name in enumerate(TYPED):
            await paste(pilot, f"#name-{seat}", name)
            assert app.screen.query_one(f"#name-{seat}").value == name
        for seat in (2, 3):  # two bots: fewer curtains, the same names everywhere
            await pick_option(pilot, f"controller-{seat}", 1)
        assert_terminal_safe(app)
        await pilot.press("ctrl+s")
        await settle(pilot)
        seen_screens: set[str] = set()
        seen_names: set[str] = set()

        async def look(pilot, seen) -> None:
            name = screen_name(app)
            seen_screens.add(name)
            text = screen_text(app)
            assert_terminal_safe(app)
            assert_literal(text, TYPED_MARKERS)
            if name == "CurtainScreen":
                player = TYPED[app.screen.seat]
                assert f"{player}, press Enter" in text.replace("\u200b", "")
                seen_names.add(player)
            if name == "RaceScreen" and seen.rounds == 1 and app.screen.turn.kind == "pick":
                await pilot.press("question_mark")  # the help dialog over a hostile name
                assert screen_name(app) == "HelpScreen"
                assert_terminal_safe(app)
                await pilot.press("escape")
                await pilot.press("q")  # the quit dialog
                assert screen_name(app) == "ConfirmQuit"
                assert_terminal_safe(app)
                await pilot.press("n")

        await play_race(pilot, on_state=look)
        assert seen_screens >= {"CurtainScreen", "RaceScreen", "PodiumScreen"}
        assert seen_names == set(TYPED[:2])
        game = app.screen.flow.game
        assert [t.name for t in game.setup.teams] == TYPED
        text = screen_text(app)
        assert_literal(text, TYPED_MARKERS)
        assert "[Dad] Tom" in text  # the podium's ranking and statistics
        log = app.screen.flow.log
        assert any("[Dad] Tom" in line for line in log)
        assert app.is_running  # `[@click=quit]` never became a link that quits


async def test_a_name_of_zero_width_spaces_on_the_teams_screen_is_taken_as_empty():
    """Issue 23: only invisible characters showed a blank name everywhere; now
    the seat gets its colour's name, as an empty name does."""
    app = FlammeApp(seed=3, autoplay=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await new_race_menus(pilot, "classic")
        await paste(pilot, "#name-0", "\u200b\u200b\u2060")
        await paste(pilot, "#name-1", "\u200bAnn")
        assert app.screen.query_one("#name-0").value == "\u200b\u200b\u2060"
        seats = app.screen.set_up().seats  # what ctrl+s starts the race with
        assert seats[0].name == app.screen.query_one("#colour-0").selection.capitalize()
        assert seats[1].name == "\u200bAnn"


# names from a file (a save, a user stage): no length limit, any script
LONG = "[Dad] Tom " + "x" * 30  # as long as a save allows (limits.MAX_TEAM_NAME)
FILED = [LONG, "[/] Zoe\u0301\u0301 🚴‍♀️ 👨‍👩‍👧", "[@click=app.quit]李小龙", "end\\"]
STAGE = "[@click=app.quit]Col [/]"
DESCRIPTION = "[Dad] climbs [b]and[/b] \\[x]"


def hostile_stage(data_dir) -> None:
    folder = data_dir / "stages"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "hostile.yaml").write_text(json.dumps({
        "name": STAGE, "tiles": "abcdefghijklmnopqrstu", "description": DESCRIPTION}))


def hostile_save(path, names=FILED, rounds=8):
    from flamme_tui.engine.classic import Team
    from flamme_tui.play.races import RaceSpec
    from flamme_tui.play.session import Session

    teams = tuple(Team(n, c) for n, c in zip(names, ("blue", "orange", "green", "purple")))
    session = Session.new(RaceSpec(stage="hostile", teams=teams), 21, {})
    advance(session, rounds)
    return saves.save(session, path)


async def test_hostile_stage_in_the_menus(data_dir):
    hostile_stage(data_dir)
    app = FlammeApp(seed=1, autoplay=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("enter", "enter")  # New race, Classic
        assert screen_name(app) == "StageScreen"
        await go_to_stage(pilot, "hostile")
        await pilot.pause()
        text = screen_text(app)
        assert STAGE in text  # the menu entry and the preview's title
        assert "[Dad] climbs [b]and[/b] \\[x]" in text
        assert_terminal_safe(app)
        await pilot.press("enter")
        assert screen_name(app) == "TeamsScreen"
        assert STAGE in screen_text(app)
        assert_terminal_safe(app)


async def test_race_resumed_from_a_save_with_hostile_names_to_the_podium(data_dir, tmp_path):
    hostile_stage(data_dir)
    session = saves.load(hostile_save(tmp_path / "race.json"))
    app = FlammeApp(seed=1, autoplay=False, session=session)
    markers = {"Tom": "[Dad] ", "李小龙": "[@click=app.quit]", "Zoe": "[/] "}
    async with app.run_test(size=(120, 50)) as pilot:  # the podium whole, its title included
        await settle(pilot)
        shown = set()

        async def look(pilot, seen) -> None:
            shown.add(screen_name(app))
            assert_terminal_safe(app)
            assert_literal(screen_text(app), markers)

        await play_race(pilot, on_state=look)
        assert shown >= {"CurtainScreen", "RaceScreen", "PodiumScreen"}
        text = screen_text(app)
        assert STAGE in text  # the podium's title
        assert_literal(text, markers)
        assert app.is_running


async def test_notifications_show_hostile_paths_literally(tmp_path):
    app = FlammeApp(seed=1, autoplay=False)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        bad = tmp_path / f"[Dad] [/] {ESC_TITLE}.json"  # a folder "[Dad] [" and a file "] ....json"
        bad.parent.mkdir()
        bad.write_text("{}")
        app.resume_path(bad)  # the title menu's Resume on a file that is not a save
        await until(pilot, lambda: "[Dad] [/]" in screen_text(app))
        assert "[Dad] [/]" in screen_text(app)
        assert_terminal_safe(app)
        app._save_failed(OSError(f"[/] disk {ESC_TITLE}"))  # autosave's on_error
        await until(pilot, lambda: "Could not save the race" in screen_text(app))
        assert "Could not save the race: [/] disk" in screen_text(app)
        assert_terminal_safe(app)


async def test_replay_app_with_hostile_names(data_dir, tmp_path):
    from flamme_tui.saves import load_replay
    from flamme_tui.ui.replay import ReplayApp

    hostile_stage(data_dir)
    path = hostile_save(tmp_path / "race.json", rounds=40)
    app = ReplayApp(load_replay(path))
    async with app.run_test(size=(100, 30)) as pilot:
        for key in ("right", "right", "end"):
            await pilot.press(key)
            text = screen_text(app)
            assert "[Dad] Tom" in text and "[@click=app.quit]李小龙" in text
            assert_terminal_safe(app)


async def test_control_characters_that_bypass_the_checks_are_never_written(tmp_path):
    """Defence in depth: a name that reached the race without the checks (no
    reader lets one through) is still shown cleaned on every screen."""
    names = [f"Ann{ESC_TITLE}", "Bob\u202e\x9b[2J"]
    app = FlammeApp(seed=2, autoplay=False)
    async with app.run_test(size=(100, 30)) as pilot:
        race = choices(n=2)
        for seat, name in zip(race.seats, names):
            seat.name = name
        app.start_race(race)
        seen: set[str] = set()

        async def look(pilot, _seen) -> None:
            seen.add(screen_name(app))
            assert_terminal_safe(app)

        await play_race(pilot, on_state=look)
        assert seen >= {"CurtainScreen", "RaceScreen", "PodiumScreen"}
        assert "Ann\\x1b]0;pwned\\x07" in screen_text(app)


# ------------------------------------------------- renderers, random names

NAMES = st.text(st.one_of(st.sampled_from("[]/\\$@=# "), st.characters()), min_size=0, max_size=30)


class Parts(App):
    def compose(self):
        from flamme_tui.ui.widgets.board import Boards
        from flamme_tui.ui.widgets.racelog import RaceLog

        yield Boards(id="boards")
        yield RaceLog(id="log")


def strip_text(strips) -> str:
    return "".join(seg.text for strip in strips for seg in strip)


async def test_boards_log_and_podium_render_any_name_without_control_characters():
    from flamme_tui.play.races import RaceSpec, Team, make_setup, new_game
    from flamme_tui.ui.screens.podium import Ranking, rider_text
    from flamme_tui.ui.widgets.board import board_rows
    from flamme_tui.ui.widgets.racelog import RaceLog

    game = new_game(make_setup(RaceSpec(teams=tuple(Team(c, c) for c in ("red", "blue", "green", "black")))), 4)
    app = Parts()
    runs = []
    async with app.run_test(size=(90, 30)):
        boards = app.query_one("#boards")
        log = app.query_one("#log", RaceLog)

        @settings(max_examples=500, deadline=None)
        @given(st.lists(NAMES, min_size=4, max_size=4), st.sampled_from([40, 64, 90]))
        def draw(names, width):
            log.clear()
            boards.show(board_rows(game.view(0), names), "classic")
            strips = boards.render_lines(Region(0, 0, width, 9))
            log.write_lines([f"{n} plays 5, 3 → 8" for n in names] + [f"  slipstream: {names[0]} 8 → 9"])
            lines = [log.render_line(y) for y in range(log.size.height)]
            # each line of the log takes exactly its width, whatever the names' characters
            assert {sum(cell_len(seg.text) for seg in line) for line in lines} == {log.size.width}
            strips += lines
            for i in range(len(game.riders)):
                strips.append(list(app.console.render(rider_text(game, i, names))))
            strips.append(list(app.console.render(Ranking(game, names))))
            out = strip_text(strips)
            assert not [c for c in usertext.CONTROL.findall(out) if c != "\n"], repr(out)
            runs.append(1)
            fuzzing.count("user text")

        draw()
    assert len(runs) >= 500


async def test_replay_app_never_writes_control_characters_it_is_given():
    """Defence in depth for `flamme-tui replay`: frames holding control characters."""
    from flamme_tui.play.replay import Frame, Replay
    from flamme_tui.ui.replay import ReplayApp

    frame = Frame(f"Round 1{ESC_TITLE}", "|..|", f"red.S 1/0{ESC_TITLE}", (f"Tom{ESC_TITLE} plays 5",),
                  (f" 1. Tom{ESC_TITLE}\u202e",))
    app = ReplayApp(Replay(f"[Dad] {ESC_TITLE}", (frame, frame), True))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("right")
        assert "[Dad] \\x1b]0;pwned\\x07" in screen_text(app)
        assert_terminal_safe(app)


# ------------------------------------------ saved races, toasts, settings

async def wait_for_screen(pilot, name: str) -> None:
    await until(pilot, lambda: screen_name(pilot.app) == name)
    assert screen_name(pilot.app) == name
    await pilot.pause()


async def saved_races(pilot) -> None:
    await wait_for_screen(pilot, "TitleScreen")
    pilot.app.show_saved_races()
    await wait_for_screen(pilot, "SavedRacesScreen")


async def test_saved_races_with_hostile_names_and_file_names(data_dir, tmp_path):
    """The saved races screen, its toasts and its dialogs: names from save
    files and the files' own names (a damaged save named with an OSC and a
    `[@click=...]`) are shown as they are; deleting a race named `[/]`
    crashed the app (its toast was read as markup)."""
    hostile_stage(data_dir)
    folder = data_dir / "saves"
    folder.mkdir(parents=True)
    good = hostile_save(folder / "good.json", names=["[/] Zed", "[@click=app.quit]Ann"], rounds=3)
    odd = folder / f"t{ESC_TITLE}[@click=app.quit]x[b.json"  # damaged, no backup
    odd.write_text("")
    lost = folder / "lost.json"  # damaged, with a usable backup
    hostile_save(lost, names=["Lou", "Max"], rounds=2)
    hostile_save(folder / "lost.json.1", names=["Lou", "Max"], rounds=1)
    lost.write_text(lost.read_text()[:-30])
    for age, path in enumerate((good, odd, lost)):  # newest first: lost, odd, good
        os.utime(path, (1_700_000_000 + age, 1_700_000_000 + age))
    app = FlammeApp(seed=1, autoplay=False)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await saved_races(pilot)
        screen = app.screen
        assert [r.path.name for r in screen.races] == ["lost.json", odd.name, "good.json"]
        table = screen.query_one("#saved-table")
        for row in range(3):
            table.move_cursor(row=row)
            await pilot.pause()
            assert_terminal_safe(app)
        text = screen_text(app)
        assert "[/] Zed, [@click=app.quit]Ann" in text and STAGE in text
        assert "t\\x1b]0;pwned\\x07[@click=app.quit]x[b.json" in text
        # a damaged race with a backup: Enter says what was lost and offers the backup
        table.move_cursor(row=0)
        await pilot.press("enter")
        await wait_for_screen(pilot, "DamagedSave")
        assert "Go on from lost.json.1 (round 2" in screen_text(app)
        await pilot.press("escape")
        # one without: the same dialog, nothing to go on from; its name written out, no link
        await wait_for_screen(pilot, "SavedRacesScreen")
        table.move_cursor(row=1)
        await pilot.press("enter")
        await wait_for_screen(pilot, "DamagedSave")
        text = screen_text(app)
        assert "t\\x1b]0;pwned\\x07[@click=app.quit]x[b.json, is damaged" in text
        assert "No backup of it can be used" in text
        assert_terminal_safe(app)
        await pilot.press("escape")
        await wait_for_screen(pilot, "SavedRacesScreen")
        # delete the race named [/]: asked, deleted, said in a toast shown as it is
        table.move_cursor(row=2)
        await pilot.press("d")
        await wait_for_screen(pilot, "ConfirmDelete")
        assert "[/] Zed, [@click=app.quit]Ann" in screen_text(app)
        await pilot.press("y")
        await until(pilot, lambda: "Deleted" in screen_text(app))
        text = screen_text(app)  # the toast wraps after "Zed,"
        assert f"Deleted {STAGE} ([/] Zed," in text and "[@click=app.quit]Ann) (1 file)" in text
        assert_terminal_safe(app)
        assert not good.exists() and app.is_running


async def test_a_saves_folder_that_cannot_be_read_is_not_shown_as_empty(tmp_path, monkeypatch):
    data = tmp_path / "data"
    data.write_text("a file where the data folder should be")
    monkeypatch.setenv("FLAMME_TUI_DATA_DIR", str(data))
    app = FlammeApp(seed=1, autoplay=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await saved_races(pilot)
        text = screen_text(app)
        assert "No saved race can be shown: cannot list the saves folder" in text.replace("\n", " ")
        assert "No saved race yet" not in text


async def test_a_settings_file_with_hostile_text_is_said_as_it_is(tmp_path, monkeypatch):
    """A settings file's bad key went into a markup toast at start-up: `[/]`
    crashed the app on its title screen, an OSC reached the terminal."""
    config = tmp_path / "config"
    config.mkdir()
    (config / "settings.json").write_text(json.dumps({"keys": {f"[/]{ESC_TITLE}": "x"}}))
    monkeypatch.setenv("FLAMME_TUI_CONFIG_DIR", str(config))
    app = FlammeApp(seed=1, autoplay=False)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        def toast() -> str:  # its words, however the toast wraps them (its left border between two lines)
            return " ".join(screen_text(app).replace("\u258c", " ").split())

        await until(pilot, lambda: "left out" in toast())
        assert "keys.[/]\\x1b]0;pwned\\x07: " in toast()  # the key as written, without pydantic's '[key]'
        assert_terminal_safe(app)
        await pilot.press("enter")  # the app goes on: New race
        await wait_for_screen(pilot, "VariantScreen")


async def test_toasts_are_plain_text_unless_asked():
    """Every toast of the app, from the app or a screen: no markup unless a
    caller asks for it, control characters written out."""
    app = FlammeApp(seed=1, autoplay=False)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        # (toasts that stay: on a busy machine they could time out before they are drawn)
        app.notify(f"a [/] b [@click=app.quit]c[/] {ESC_TITLE}", timeout=600)
        app.screen.notify("d [Dad] e", title="[b", timeout=600)
        app.notify("[b]bold[/b] asked for", markup=True, timeout=600)
        await until(pilot, lambda: "asked for" in screen_text(app))
        text = screen_text(app)
        assert "a [/] b [@click=app.quit]c[/] \\x1b]0;pwned\\x07" in text
        assert "d [Dad] e" in text and "[b" in text and "bold asked for" in text
        assert_terminal_safe(app)
        assert app.is_running


async def test_a_broken_stage_file_named_with_an_osc_is_left_out_safely(data_dir):
    """The stage menu's "Left out: FILE: reason" line wrote a broken user
    stage's file name as it was: an OSC in it retitled the terminal."""
    folder = data_dir / "stages"
    folder.mkdir(parents=True)
    (folder / f"t{ESC_TITLE}[@click=app.quit]x.yaml").write_text("name: X\ntiles: abu\n")
    app = FlammeApp(seed=1, autoplay=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("enter", "enter")  # New race, Classic
        await wait_for_screen(pilot, "StageScreen")
        text = "".join(line.strip() for line in screen_text(app).splitlines())  # the long line wraps
        assert "Left out:" in text and "t\\x1b]0;pwned\\x07[@click=app.quit]x.yaml:2: tiles: too short" in text
        assert_terminal_safe(app)


async def test_the_settings_screen_writes_out_a_hostile_config_path(tmp_path, monkeypatch):
    monkeypatch.setenv("FLAMME_TUI_CONFIG_DIR", str(tmp_path / f"c{ESC_TITLE}[/]"))
    app = FlammeApp(seed=1, autoplay=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for_screen(pilot, "TitleScreen")
        app.show_settings()
        await wait_for_screen(pilot, "SettingsScreen")
        app.screen.query_one("#settings-path").scroll_visible(animate=False)  # below the key bindings
        await pilot.pause()
        assert "c\\x1b]0;pwned\\x07[/]" in "".join(line.strip() for line in screen_text(app).splitlines())
        assert_terminal_safe(app)


async def test_tours_with_hostile_names_and_file_names(data_dir):
    """The tour menu: a tour's name from its file shown as it is, a broken
    tour file named with an OSC left out with its name written out."""
    folder = data_dir / "tours"
    folder.mkdir(parents=True)
    (folder / "mine.yaml").write_text(json.dumps({"name": "[/] [@click=app.quit]Tour", "description": "[Dad] [b",
                                                  "stages": [{"stage": "avenue-corso-paseo"}]}))
    (folder / f"t{ESC_TITLE}.yaml").write_text("name: [\n")
    app = FlammeApp(seed=1, autoplay=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for_screen(pilot, "TitleScreen")
        app.new_tour()
        await wait_for_screen(pilot, "TourScreen")
        text = "".join(line.strip() for line in screen_text(app).splitlines())
        assert "Left out: t\\x1b]0;pwned\\x07.yaml" in text
        assert_terminal_safe(app)
        menu = app.screen.query_one("#tour-menu")
        ids = [menu.get_option_at_index(k).id for k in range(menu.option_count)]
        await pilot.press(*["down"] * ids.index("mine"))
        await pilot.pause()
        text = screen_text(app)  # the tour's name and description beside the menu
        assert "[/] [@click=app.quit]Tour" in text
        assert "[Dad] [b" in text
        assert_terminal_safe(app)
        assert app.is_running


async def test_a_stage_file_named_with_bytes_that_are_not_utf8_is_left_out(data_dir):
    """Such a file name reached the tour's stage picker as an id of lone
    surrogates, and Ctrl+S crashed the app (TourStage refuses them).  It is
    left out, and the picker says so, as the stage menu does, with every
    other broken stage file."""
    import os

    folder = os.fsencode(data_dir / "stages")
    os.makedirs(folder)
    with open(os.path.join(folder, b"\xff\x9b.yaml"), "w") as f:
        f.write(json.dumps({"name": "Not an id", "tiles": "abcdefghijklmnopqrstu"}))
    (data_dir / "stages" / "fine.yaml").write_text(json.dumps({"name": "Fine", "tiles": "abcdefghijklmnopqrstu"}))
    app = FlammeApp(seed=1, autoplay=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for_screen(pilot, "TitleScreen")
        app.new_tour()
        await wait_for_screen(pilot, "TourScreen")
        await pilot.press("end", "enter")  # Pick the stages…
        await wait_for_screen(pilot, "TourStagesScreen")
        text = "".join("".join(line.split()) for line in screen_text(app).splitlines())  # wrapped anywhere
        assert "Leftout:" in text and "\\udcff\\udc9b.yaml:thefilenameisnotUTF-8text" in text
        assert_terminal_safe(app)
        menu = app.screen.query_one("#pick-menu")
        ids = [menu.get_option_at_index(k).id for k in range(menu.option_count)]
        assert "fine" in ids and os.fsdecode(b"\xff\x9b") not in ids
        await pilot.press("end", "enter", "ctrl+s")  # the last stage: the user's good one
        await wait_for_screen(pilot, "TeamsScreen")
        assert app.is_running
