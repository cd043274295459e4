"""The stage editor (issue 28 item 3), as a player reaches it: "Build a stage"
in the stage menu, tiles laid with keys and the mouse, the stage saved in the
user stages folder and raced at once; e on a stage edits a copy of it; a
pasted code is checked as a file is."""

from __future__ import annotations

import pytest

from flamme_tui import config
from flamme_tui.ui.app import FlammeApp
from flamme_tui.ui.textshot import screen_text

from .driver import go_to_stage, screen_name
from .test_workers import wait_for

pytestmark = pytest.mark.usefixtures("fast_pilot")


def built(app) -> list[str]:
    return list(app.screen.build.names)


async def open_editor(pilot) -> None:
    await pilot.press("enter", "enter")  # New race, Classic
    await pilot.pause()
    await go_to_stage(pilot, "build-stage")
    assert "Build a stage" in screen_text(pilot.app)
    await pilot.press("enter")
    await pilot.pause()
    assert screen_name(pilot.app) == "StageBuildScreen"


async def edit_copy(pilot, stage_id: str) -> None:
    """New race, Classic, the stage highlighted, e: the builder on a copy of it."""
    await pilot.press("enter", "enter")
    await go_to_stage(pilot, stage_id)
    await pilot.press("e")
    await pilot.pause()
    assert screen_name(pilot.app) == "StageBuildScreen"


async def test_build_a_stage_save_it_and_race_it(data_dir):
    app = FlammeApp(seed=1, autoplay=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_editor(pilot)
        assert "✗ lay a start tile first" in screen_text(app)
        await pilot.press("enter")  # a: the start tile, first in the list
        await pilot.press("space", "enter")  # b turned over: B, its descent
        await pilot.press("enter", "enter")  # c, d (the highlight moves on to the next tile)
        assert built(app) == ["a", "B", "c", "d"]
        text = screen_text(app)
        assert "✗ tiles: the last tile must be a finish tile, not 'd'" in text
        assert "Tiles (4): a B c d" in text and "19 squares start to finish" in text
        # the track and the profile are drawn as the stage grows
        assert [t.letter for t in app.screen.query_one("#build-track").course.tiles] == ["a", "B", "c", "d"]
        assert app.screen.query_one("#build-profile").course.finish == 24
        assert "▓" not in text  # no finish tile yet: no finish line drawn
        assert " 19…" in text  # the profile's axis: its end left open
        await pilot.press("backspace", "f")  # d taken back, c turned over: C
        assert built(app) == ["a", "B", "C"]
        # a click lays a tile: e, the sixth line of the list (its line of the base box first)
        await pilot.click("#build-tiles", offset=(8, 6))
        await pilot.pause()
        assert built(app) == ["a", "B", "C", "e"]
        # the Peloton box is not owned yet: a tile from it is named at once
        menu = app.screen.query_one("#build-tiles")
        menu.highlighted = next(k for k in range(menu.option_count) if menu.get_option_at_index(k).id == "tile-2")
        await pilot.press("enter")
        assert ("✗ tiles: tile '2' is in the Peloton box, which you have not said you own (x adds it)"
                in " ".join(screen_text(app).split()))
        await pilot.press("backspace")
        await go_to_option(pilot, "tile-u")
        await pilot.press("enter")
        assert built(app) == ["a", "B", "C", "e", "u"]
        assert "▓" in screen_text(app)  # the finish line, with the finish tile
        assert "✓ a stage" in screen_text(app) and "Code: fr1:aBCeu" in screen_text(app)
        await pilot.press("n")
        await pilot.pause()
        await pilot.press(*"Col du Test", "enter")  # typed over the name it had, My stage
        await pilot.pause()
        assert app.screen.build.name == "Col du Test" and "build a stage · Col du Test" in screen_text(app)
        await pilot.press("s")  # saved, then the teams for it
        await pilot.pause()
        assert screen_name(app) == "TeamsScreen" and app.choices.stage == "col-du-test"
        saved = config.load_stage(data_dir / "stages" / "col-du-test.yaml")
        assert saved.tiles == "aBCeu" and saved.name == "Col du Test" and saved.boxes == ("base",)
        await pilot.press("ctrl+f", "ctrl+s")  # bots everywhere, start
        await pilot.pause()
        assert screen_name(app) == "RaceScreen"
        assert [t.letter for t in app.screen.flow.game.course.tiles][1:] == ["B", "C", "e", "u"]


async def go_to_option(pilot, option_id: str) -> None:
    menu = pilot.app.screen.query_one("#build-tiles")
    for _ in range(menu.option_count):
        if menu.highlighted_option is not None and menu.highlighted_option.id == option_id:
            return
        await pilot.press("down")
    assert menu.highlighted_option.id == option_id


async def test_the_menu_lists_a_stage_saved_in_the_editor(data_dir):
    app = FlammeApp(seed=1, autoplay=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_editor(pilot)
        for _ in range(21):  # every base tile, each its first side up: a..u
            await pilot.press("enter")
        assert app.screen.build.tiles == "abcdefghijklmnopqrstu"
        await pilot.press("s")
        await pilot.pause()
        assert screen_name(app) == "TeamsScreen"
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("s")  # unchanged since it was saved: raced again, no second file
        await pilot.pause()
        assert screen_name(app) == "TeamsScreen" and app.choices.stage == "my-stage"
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("backspace", "s")  # changed, the same name: not saved over the file
        await pilot.pause()
        assert screen_name(app) == "StageBuildScreen"
        assert [p.name for p in (data_dir / "stages").iterdir()] == ["my-stage.yaml"]
        await pilot.press("escape")  # changed since it was saved: asked first
        await pilot.pause()
        assert screen_name(app) == "ConfirmDiscard"
        await pilot.press("y")
        await pilot.pause()
        assert screen_name(app) == "StageScreen"
        assert "my-stage" in app.screen.ids
        await go_to_stage(pilot, "my-stage")


async def test_edit_a_copy_of_a_stage_and_share_its_code(data_dir):
    app = FlammeApp(seed=1, autoplay=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await edit_copy(pilot, "la-haut-montagne")
        stage = config.load_stage("la-haut-montagne")
        assert app.screen.build.tiles == stage.tiles and app.screen.build.name == "La Haut Montagne (copy)"
        # every key is named beside the editor's words, and has a word to click too: "take back", then "flip last"
        text = screen_text(app)
        assert all(words in text for words in ("x boxes · n name · s save and race", "c copy code · p paste code"))
        await pilot.click("#build-actions", offset=(16, 0))
        await pilot.click("#build-actions", offset=(30, 0))
        await pilot.pause()
        tiles = config.split_tiles(stage.tiles)
        assert app.screen.build.names == [*tiles[:-2], config.other_side(tiles[-2])]
        await pilot.press("f")  # flipped back with the key; the finish laid again, the side it had up
        await go_to_option(pilot, "tile-u")
        await pilot.press("enter")
        assert app.screen.build.tiles == stage.tiles
        await pilot.press("c")
        assert app.clipboard == f"fr1:{stage.tiles}"
        assert f"Code: fr1:{stage.tiles}" in screen_text(app).replace("\n", "")
        # a pasted code is checked as a file is: a broken one changes nothing
        await pilot.press("p")
        await pilot.pause()
        await pilot.press(*"fr1:abcb", "enter")
        await pilot.pause()
        assert app.screen.build.tiles == stage.tiles
        assert any("Not a stage: tile 'b' used twice" in n.message for n in app._notifications)
        await pilot.press("p")
        await pilot.pause()
        await pilot.press(*"fr1:aBcdu", "enter")
        await pilot.pause()
        assert app.screen.build.tiles == "aBcdu" and app.screen.build.problem() is None


async def test_leaving_with_unsaved_changes_asks_first(data_dir):
    """A playtest: Esc in the editor threw away the tiles laid, without a word.
    Leaving with changes not saved asks "Discard this stage?" (y discards;
    n and Esc go on editing, as the delete dialog's keys); leaving with no
    change, or after saving, asks nothing."""
    app = FlammeApp(seed=1, autoplay=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_editor(pilot)
        await pilot.press("escape")  # nothing laid: no question
        await pilot.pause()
        assert screen_name(app) == "StageScreen"
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("enter", "enter", "enter")
        assert built(app) == ["a", "b", "c"]
        for keep in ("n", "escape"):
            await pilot.press("escape")
            await pilot.pause()
            assert screen_name(app) == "ConfirmDiscard" and "Discard this stage?" in screen_text(app)
            await pilot.press(keep)
            await pilot.pause()
            assert screen_name(app) == "StageBuildScreen" and built(app) == ["a", "b", "c"]
        await pilot.press("space")  # a tile of the list turned over: the stage is the same
        await pilot.press("backspace", "backspace", "backspace", "escape")  # back to what it was: no question
        await pilot.pause()
        assert screen_name(app) == "StageScreen"
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("enter", "escape")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert screen_name(app) == "StageScreen"
        await pilot.press("enter")  # Build a stage again: a new stage
        await pilot.pause()
        assert "Tiles (0): none yet" in screen_text(app)
        for _ in range(21):
            await pilot.press("enter")
        await pilot.press("s")  # saved, the teams for it; back: nothing to lose
        await pilot.pause()
        assert screen_name(app) == "TeamsScreen"
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert screen_name(app) == "StageScreen"


async def test_quitting_or_the_palette_ask_before_a_stage_being_built_is_lost(data_dir):
    """A playtest: Esc asked, but ctrl+q and the palette's New race left the editor
    and its tiles without a word.  Both ask now: n goes on editing, y goes on."""
    app = FlammeApp(seed=1, autoplay=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_editor(pilot)
        await pilot.press("enter", "enter")
        assert built(app) == ["a", "b"]
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert screen_name(app) == "ConfirmDiscard" and app.is_running
        await pilot.press("n")
        await pilot.pause()
        assert screen_name(app) == "StageBuildScreen" and built(app) == ["a", "b"]
        new_race = next(c for c in app.get_system_commands(app.screen) if c.title == "New race")
        new_race.callback()
        await pilot.pause()
        assert screen_name(app) == "ConfirmDiscard"
        await pilot.press("y")  # discarded: the new race's menus
        await pilot.pause()
        assert screen_name(app) == "VariantScreen"
        assert not any(type(s).__name__ == "StageBuildScreen" for s in app.screen_stack)
        await pilot.press("ctrl+q")  # no stage being built: quits at once
        await pilot.pause()
        assert not app.is_running


async def test_leaving_a_changed_copy_asks_first(data_dir):
    """The same for "e edit a copy": the copy as opened leaves at once, a changed one asks."""
    app = FlammeApp(seed=1, autoplay=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter", "enter")
        await go_to_stage(pilot, "la-haut-montagne")
        await pilot.press("e")
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert screen_name(app) == "StageScreen"
        await pilot.press("e")
        await pilot.pause()
        await pilot.press("f", "escape")
        await pilot.pause()
        assert screen_name(app) == "ConfirmDiscard"
        await pilot.press("y")
        await pilot.pause()
        assert screen_name(app) == "StageScreen"


async def test_the_builder_s_track_shows_the_end_of_a_long_stage(data_dir):
    """At 80x24 a whole stage does not fit the strip: it shows the end, where
    tiles are laid, taken back and turned (it showed the start: a new player
    could not see the tiles just changed)."""
    app = FlammeApp(seed=1, autoplay=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await edit_copy(pilot, "avenue-corso-paseo")
        track = app.screen.query_one("#build-track")
        first, last = track.in_view()  # a window over the stage, not the whole of it
        assert first > 0 and last >= app.screen.build.course().finish

        def letters() -> list[str]:  # the tile letters the strip shows (its labels row)
            return screen_text(app).splitlines()[track.region.y].split()

        assert app.screen.build.names[0] not in letters() and app.screen.build.names[-2] in letters()
        await pilot.press("backspace")  # the finish tile taken back: the tile now last is in view
        await pilot.pause()
        assert app.screen.build.names[-1] in letters() and "F" not in letters()


def toasts(app) -> list[str]:
    return [n.message for n in app._notifications]


async def test_a_paste_says_what_it_changed_and_replaces_the_last_paste_s_line(data_dir):
    """Review: a code laying b twice read "(as 'b' and 'b'; ...)"; a code with Peloton
    tiles changed the boxes owned without a word; and a refused paste's line stayed
    beside the ✓ of the good paste after it."""
    app = FlammeApp(seed=1, autoplay=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_editor(pilot)
        await pilot.press("p")
        await pilot.pause()
        await pilot.press(*"fr1:abcbdu", "enter")
        await pilot.pause()
        assert toasts(app) == ["Not a stage: tile 'b' used twice (a stage has each tile once)"]
        assert app.screen.build.boxes == ("base",)
        await pilot.press("p")
        await pilot.pause()
        await pilot.press(*"fr1:a23u", "enter")
        await pilot.pause()
        assert app.screen.build.tiles == "a23u" and app.screen.build.boxes == ("base", "peloton")
        assert toasts(app) == ["The code uses the Peloton box's tiles: Boxes you own is now base + Peloton "
                               "(x changes it)"]
        assert "✓ a stage" in screen_text(app)
        await pilot.press("p")
        await pilot.pause()
        await pilot.press(*"fr1:abcu", "enter")  # nothing to say: the last line goes
        await pilot.pause()
        assert app.screen.build.tiles == "abcu" and toasts(app) == []
        assert app.screen.build.boxes == ("base", "peloton")  # the boxes owned stay: a code only adds


async def test_a_name_with_nothing_to_see_is_refused_and_no_field_name_is_shown(data_dir):
    """Review: three spaces were taken as a name (the title went blank, the line said
    "name: string should have at least 1 character"); a name taken said "name:"."""
    app = FlammeApp(seed=1, autoplay=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_editor(pilot)
        for _ in range(21):
            await pilot.press("enter")
        await pilot.press("n")
        await pilot.pause()
        await pilot.press("space", "space", "space", "enter")
        await pilot.pause()
        assert app.screen.build.name == "My stage" and "build a stage · My stage" in screen_text(app)
        assert toasts(app) == ["Not renamed: a name needs a visible character, not only spaces: the name is "
                               "still 'My stage'"]
        assert "✓ a stage" in screen_text(app)
        await pilot.press("n")
        await pilot.pause()
        await pilot.press(*"Avenue Corso Paseo", "enter", "s")
        await pilot.pause()
        assert screen_name(app) == "StageBuildScreen"
        assert toasts(app) == ["Not saved: 'avenue-corso-paseo' is a shipped stage's id: choose another name"]


async def test_the_tile_list_points_at_its_cursor_without_colour(data_dir, monkeypatch):
    """Review: under NO_COLOR the tile under the cursor was only a lighter grey: ▶
    points at it, as at the teams screen's field."""
    monkeypatch.setenv("NO_COLOR", "1")
    app = FlammeApp(seed=1, autoplay=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_editor(pilot)

        def pointed() -> list[str]:
            return [line.split("▶")[1].split()[0] for line in screen_text(app).splitlines() if "▶" in line]

        # each look waits for the screen to be drawn again (one pause was not always enough on a busy machine)
        await wait_for(lambda: pointed() == ["a"], timeout=5)
        await pilot.press("down", "down")
        await wait_for(lambda: pointed() == ["c"], timeout=5)
        await pilot.press("enter")  # c laid: the list moves on to d, the pointer with it
        await wait_for(lambda: pointed() == ["d"], timeout=5)
        assert app.screen.build.names == ["c"]
        # Peloton tile 1 laid: the line above the list grows to two lines, the list shrinks by
        # one, and the tile highlighted next, 2, stays in view (it was scrolled out of it)
        await go_to_option(pilot, "tile-1")
        await pilot.press("enter")
        await wait_for(lambda: app.screen.query_one("#build-check").size.height == 2 and pointed() == ["2"], timeout=5)
        assert app.screen.build.names == ["c", "1"]
