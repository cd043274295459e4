"""The stage menu (issue 28): the library by kind and box, a filter (k kind,
x boxes), only the stages the rule set races, and Random stage, which races
a new stage by its code."""

from __future__ import annotations

import pytest

from flamme_tui import config, stagegen
from flamme_tui.ui.app import FlammeApp
from flamme_tui.ui.textshot import screen_text

from .driver import screen_name

pytestmark = pytest.mark.usefixtures("fast_pilot")

ENTRIES = ("random-stage", "build-stage")  # the menu's entries that are no stage


def shown(menu) -> list:
    return [menu.get_option_at_index(k) for k in range(menu.option_count)]


async def to_stage_menu(pilot) -> None:
    await pilot.press("enter", "enter")  # New race, Classic
    await pilot.pause()
    assert screen_name(pilot.app) == "StageScreen"


async def test_the_menu_groups_the_library_and_filters_it():
    app = FlammeApp(seed=1, autoplay=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await to_stage_menu(pilot)
        menu = app.screen.query_one("#stage-menu")
        options = shown(menu)
        # Random stage first, then a line per group that cannot be chosen, then its stages
        assert options[0].id == "random-stage"
        headers = [str(o.prompt) for o in options if o.disabled]
        assert headers[:2] == ["── flat · base", "── hilly · base"] and "── cobbles · Peloton" in headers
        assert options[1].id == "build-stage"  # the stage editor
        assert sorted(o.id for o in options if o.id and o.id not in ENTRIES) == sorted(config.stage_ids())
        assert menu.highlighted_option.id == "avenue-corso-paseo"  # the first-race stage, as before
        assert "flat · needs the base box" in screen_text(app)
        # k: every kind, then flat, hilly, mountain, cobbles
        await pilot.press("k", "k", "k", "k")
        kept = [o.id for o in shown(menu) if o.id and o.id not in ENTRIES]
        assert kept and all(stagegen.stage_kind(config.stage_summary(config.load_stage(sid))) == "cobbles"
                            for sid in kept)
        assert "peloton-9" in kept and f"Showing cobbles, every box: {len(kept)} of " in screen_text(app)
        # x: every box, base only (no cobbles: they are the Peloton box's), with the Peloton box
        await pilot.press("x")
        assert [o.id for o in shown(menu)] == ["random-stage", "build-stage"]
        assert "Showing cobbles, base box only: 0 of" in screen_text(app)
        await pilot.press("k", "x")  # every kind, with the Peloton box
        kept = [o.id for o in shown(menu) if o.id and o.id not in ENTRIES]
        assert all("peloton" in config.load_stage(sid).boxes for sid in kept) and "peloton-7" in kept
        await pilot.press("down", "down", "enter")  # under Random stage and Build a stage
        await pilot.pause()
        assert screen_name(app) == "TeamsScreen"


async def test_the_stage_list_has_a_help_of_its_own():
    app = FlammeApp(seed=1, autoplay=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await to_stage_menu(pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        assert screen_name(app) == "HelpScreen" and "Choose the stage" in screen_text(app)
        told = " ".join(app.screen_stack[-2].help_text().split())
        assert "upper case: the tile's other side" in told and "Kind (k)" in told and "Edit a copy (e)" in told


async def test_random_stage_races_a_new_stage_by_its_code():
    app = FlammeApp(seed=1, autoplay=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter", "enter")  # New race, Classic
        await pilot.press("k", "k", "k")  # mountain
        await pilot.press("home")
        await pilot.pause()
        assert "A new mountain stage" in screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
        assert screen_name(app) == "TeamsScreen"
        code = app.choices.stage
        stage = config.load_stage(code)
        assert stagegen.is_code(code) and code in screen_text(app).replace("\n", "")
        summary = config.stage_summary(stage)
        assert stagegen.climb_kind(summary.ascent) == "mountain" and stage.boxes == ("base",)
        await pilot.press("ctrl+f", "ctrl+s")  # bots everywhere, start: the race is on the code's tiles
        await pilot.pause()
        assert screen_name(app) == "RaceScreen"
        # the code's tiles (the start side may change to give every rider a place: PELOTON.md)
        assert [t.letter for t in app.screen.flow.game.course.tiles][1:] == config.split_tiles(stage.tiles)[1:]


def test_random_stage_draws_a_stage_the_filter_shows():
    """Review: with "cobbles, every box" shown, Random stage raced a base stage with no
    cobbles.  For every filter the stage drawn is one the filter keeps, or none can be."""
    from flamme_tui.play import stagemenu

    for kind in stagemenu.KIND_FILTERS:
        for box in stagemenu.BOX_FILTERS:
            if stagemenu.random_choices(kind, box) is None:
                assert (kind, box) == ("cobbles", "base")  # the cobbles are on the Peloton tiles
                with pytest.raises(config.ConfigError, match="cobbles with the base box only"):
                    stagemenu.random_stage_code(1, kind, box)
                continue
            for seed in range(12):
                code = stagemenu.random_stage_code(seed, kind, box)
                row = stagemenu.stage_row(code, config.load_stage(code))
                assert row is not None and stagemenu.grouped([row], kind, box), (kind, box, code, row)


async def test_random_stage_with_cobbles_says_so_and_races_cobbles():
    app = FlammeApp(seed=1, autoplay=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await to_stage_menu(pilot)
        await pilot.press("k", "k", "k", "k", "home")  # cobbles, every box; Random stage
        await pilot.pause()
        text = " ".join(screen_text(app).split())
        assert "A new hilly stage with cobbles, of medium length, from the base and Peloton tiles" in text
        await pilot.press("x")  # base box only: no stage can have cobbles
        await pilot.pause()
        assert "No random stage for this filter" in " ".join(screen_text(app).split())
        await pilot.press("enter", "e")  # nothing raced, nothing edited: a line says why
        await pilot.pause()
        assert screen_name(app) == "StageScreen"
        assert any("No random stage has cobbles with the base box only" in n.message for n in app._notifications)
        await pilot.press("x", "enter")  # with the Peloton box: a stage with cobbles
        await pilot.pause()
        assert screen_name(app) == "TeamsScreen"
        stage = config.load_stage(app.choices.stage)
        summary = config.stage_summary(stage)
        assert summary.cobbles > 0 and stagegen.stage_kind(summary) == "cobbles" and "peloton" in stage.boxes


def test_the_menu_offers_no_stage_to_a_rule_set_that_races_none():
    from flamme_tui.play import stagemenu

    stages = [(sid, config.load_stage(sid)) for sid in config.stage_ids()[:3]]
    assert len(stagemenu.rows_for("classic", stages)) == 3 == len(stagemenu.rows_for("meteo", stages))
    assert stagemenu.rows_for("bmx", stages) == []


async def test_the_stage_chosen_before_is_highlighted_in_view_when_the_menu_comes_back():
    from .driver import go_to_stage

    app = FlammeApp(seed=1, autoplay=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter", "enter")  # New race, Classic
        await pilot.pause()
        menu = app.screen.query_one("#stage-menu")
        far = [o for o in shown(menu) if o.id and o.id not in ENTRIES][-1]  # the last stage, far below
        await go_to_stage(pilot, far.id)
        await pilot.press("enter")
        await pilot.pause()
        assert screen_name(app) == "TeamsScreen"
        for _ in range(4):  # back to the rule sets, then Classic again: a new stage menu
            await pilot.press("escape")
            await pilot.pause()
            if screen_name(app) == "VariantScreen":
                break
        await pilot.press("enter")
        def in_menu() -> str:  # the menu's own lines on the screen (the preview beside it names the stage too)
            menu = app.screen.query_one("#stage-menu")
            r = menu.region
            return "\n".join(line[r.x:r.x + r.width] for line in screen_text(app).splitlines()[r.y:r.y + r.height])

        for _ in range(50):
            await pilot.pause(0.01)
            menu = app.screen.query_one("#stage-menu")
            if menu.highlighted_option is not None and str(far.prompt) in in_menu():
                break
        assert menu.highlighted_option.id == far.id
        assert str(far.prompt) in in_menu()  # in view, not scrolled away below the menu's end


@pytest.mark.parametrize("lang", ["fr", "es"])
async def test_the_filter_line_keeps_its_count_in_every_language(lang):
    """At 80x24 the French line ran past the screen and lost its second line: one line, cut
    with "…" after the count (its keys are in the footer too)."""
    from flamme_tui import i18n

    i18n.choose(flag=lang)
    try:
        app = FlammeApp(seed=1, autoplay=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("enter", "enter")  # New race, Classic
            await pilot.pause()
            line = next(row for row in screen_text(app).splitlines()
                        if row.strip().startswith(("Affichées", "Se ven")))
            n = len(config.stage_ids())
            assert (f"{n} sur {n} (" if lang == "fr" else f"{n} etapa") in line, line  # the count, whole
            assert line.rstrip().endswith(("…", ")")), line
    finally:
        i18n.forget_flag()
        i18n.set_language("en")


@pytest.mark.parametrize(("lang", "teams", "stage"), [("fr", "(5-6 équipes)", "Prats 2018, étape 9"),
                                                      ("es", "(5-6 equipos)", "Prats 2018, etapa 9")])
async def test_stage_names_are_said_in_the_player_s_language(lang, teams, stage):
    """The French and Spanish stage menus listed "Peloton 9 (5-6 teams)" and "Prats 2018,
    stage 9": the words of the shipped names are said in the player's language (the files
    keep their names), in the menu and in the race's heading."""
    from flamme_tui import i18n
    from flamme_tui.ui.scenarios import choices, settle

    i18n.choose(flag=lang)
    try:
        app = FlammeApp(seed=1, autoplay=False, autosave=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await to_stage_menu(pilot)
            await pilot.press("k", "k", "k", "k")  # cobbles: the Peloton stages 9 to 11, three of Prats
            await pilot.pause()
            names = [str(option.prompt) for option in shown(app.screen.query_one("#stage-menu"))]
            assert f"Peloton 9 {teams}" in names and stage in names, names
            assert not [name for name in names if "teams" in name or "stage " in name], names
            race = choices("classic", 5, seed=3)
            race.stage = "peloton-9-5-6"
            app.start_race(race)
            await settle(pilot)
            await pilot.press("enter")  # the curtain
            await settle(pilot)
            assert f"Peloton 9 {teams}" in screen_text(app).splitlines()[0]
    finally:
        i18n.forget_flag()
        i18n.set_language("en")
    assert config.load_stage("peloton-9-5-6").name == "Peloton 9 (5-6 teams)"  # the file as written
