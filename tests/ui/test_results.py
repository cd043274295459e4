"""Around a race, as a new player finds it: the results screens lead on (title
menu, replay, a quit that asks), their lines fit 80 columns, the help wraps
under its own columns, the set-up's messages stay with the set-up, and the
title and teams screens say what the menus hold."""

from __future__ import annotations

import pytest

from flamme_tui import saves
from flamme_tui.play.flow import RaceFlow
from flamme_tui.ui.app import FlammeApp
from flamme_tui.ui.choices import RaceChoices
from flamme_tui.ui.scenarios import advance, choices, settle, tour_choices
from flamme_tui.ui.screens.variant import variant_title
from flamme_tui.ui.textshot import rendered_text, screen_text

from .driver import new_race_menus, pick_option, screen_name

pytestmark = pytest.mark.usefixtures("fast_pilot")


def finished(race: RaceChoices, folder=None):
    """A race played to its end by the easy policy; saved after every action into `folder`."""
    session = race.session()
    if folder is not None:
        saves.attach_autosave(session, directory=folder)
    advance(session, 200)
    assert session.over
    return session


def rows_of(app, selector: str) -> list[str]:
    """The lines of the screen a widget covers, cut to its columns."""
    region = app.screen.query_one(selector).region
    lines = screen_text(app).splitlines()
    return [lines[y][region.x:region.right].rstrip() for y in range(region.y, region.bottom)]


# ------------------------------------------------------------ the podium

async def test_the_podium_leads_to_the_replay_and_the_title_menu_and_asks_before_quitting(data_dir):
    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        session = finished(choices("classic", 2, seed=5), data_dir)
        app.show_podium(RaceFlow(session))
        await pilot.pause()
        assert screen_name(app) == "PodiumScreen"
        footer = screen_text(app).splitlines()[-1]
        assert "t title menu" in footer and "p replay" in footer

        await pilot.press("p")  # the replay the saved races' list opens, of this race
        await pilot.pause()
        assert screen_name(app) == "ReplayScreen"
        frames = app.screen.replay.frames
        assert frames[-1].title == f"Round {session.game.round}: finish"
        await pilot.press("escape")
        await pilot.pause()
        assert screen_name(app) == "PodiumScreen"

        await pilot.press("q")  # asks, as the race's quit does
        await pilot.pause()
        assert screen_name(app) == "QuitResults"
        assert "Saved races" in screen_text(app)
        await pilot.press("n")  # stay
        await pilot.pause()
        assert screen_name(app) == "PodiumScreen" and app.is_running

        await pilot.press("q", "t")  # the dialog's title menu
        await pilot.pause()
        assert screen_name(app) == "TitleScreen"

        app.show_podium(RaceFlow(session))
        await pilot.pause()
        await pilot.press("escape")  # Esc: the title menu too
        await pilot.pause()
        assert screen_name(app) == "TitleScreen"

        app.show_podium(RaceFlow(session))
        await pilot.pause()
        await pilot.press("q", "y")
        await pilot.pause()
    assert app.return_code == 0


async def test_a_race_not_saved_offers_no_replay():
    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        app.show_podium(RaceFlow(finished(choices("classic", 2, seed=5))))
        await pilot.pause()
        assert "replay" not in screen_text(app).lower()
        await pilot.press("p")
        await pilot.pause()
        assert screen_name(app) == "PodiumScreen"
        await pilot.press("t")
        await pilot.pause()
        assert screen_name(app) == "TitleScreen"


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_ranking_awards_and_buttons_fit_their_columns(size, data_dir):
    """At 80x24 "1. BR Bob Rouleur  square 71 · 3 past the line" took two lines,
    and so did the awards; a wider window has room for the square too."""
    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=size) as pilot:
        race = choices("classic", 4, seed=7)
        race.seats[0].name, race.seats[3].name = "Bob", "Vermillion"
        session = finished(race, data_dir)  # saved: the replay's button too
        app.show_podium(RaceFlow(session))
        await pilot.pause()
        game = session.game
        ranking = [line for line in rows_of(app, "#ranking") if line.strip()]
        assert ranking[0].strip() == "Ranking" and len(ranking) == 1 + len(game.riders)  # a line each
        for place, line in enumerate(ranking[1:], 1):
            assert line.lstrip().startswith(f"{place}.") and (" past" in line or " to go" in line), line
        assert ("square" in " ".join(ranking)) == (size[0] >= 120)
        app.screen.query_one("#awards").scroll_visible(animate=False, immediate=True)
        await pilot.pause()
        awards = [line for line in rows_of(app, "#awards") if line.strip()]
        assert len(awards) == 4 and awards[0].strip() == "Awards", awards  # a line each
        app.screen.query_one("#podium-buttons").scroll_visible(animate=False, immediate=True)
        await pilot.pause()
        buttons = rows_of(app, "#podium-buttons")[0]
        assert "Race again (r)" in buttons and "Quit (q)" in buttons  # every button on its row


def test_the_podium_help_says_what_the_chart_shows():
    from flamme_tui.ui.texts import help_for

    words = help_for("podium", "classic")
    assert "behind the leader" in words and "distance to the line" not in words


def test_a_shared_point_of_the_chart_shows_the_best_placed_rider_underlined():
    """A pack showed "*" in the colour of whoever was drawn last: neither who nor how many."""
    from flamme_tui.bots import POLICIES
    from flamme_tui.play.races import RaceSpec, make_setup, new_game, play_out
    from flamme_tui.ui.screens.podium import History, chart_text

    game = new_game(make_setup(RaceSpec()), 5)
    play_out(game, {seat: POLICIES["easy"] for seat in range(len(game.seats))})
    best, *others = game.ranking()
    n = len(game.riders)
    far = [9] * n
    far[best] = 0
    pack = [9] * n
    pack[best] = pack[others[-1]] = 0  # the winner and the last rider together, the rest 9 behind
    names = [f"Player {k}" for k in range(len(game.seats))]
    text = chart_text(game, names, History([far, pack], [1] * n, [0] * n, [0] * n))
    top = text.plain.splitlines()[1]
    assert "*" not in text.plain
    letter = game.riders[best].id.split(".")[0][0].upper()
    letter = letter.lower() if game.riders[best].kind == "R" else letter
    marks = [ch for ch in top[top.index("┤") + 1:] if ch != " "]
    assert marks == [letter, letter]  # the winner alone, then the pack under the winner's letter
    start = text.plain.index(top)
    points = [start + k for k, ch in enumerate(top) if ch == letter and k > top.index("┤")]
    underlined = {span.start for span in text.spans if "underline" in str(span.style)}
    assert [p in underlined for p in points] == [False, True]  # alone, then with the last rider
    assert "with others" in text.plain


# --------------------------------------------------------------- a tour

async def test_a_tour_s_results_lead_on_too(data_dir):
    from flamme_tui.play.tours import next_session, tour_over

    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        app.choices = tour_choices()
        session = app.choices.session()
        saves.attach_autosave(session, directory=data_dir)
        stages = []
        while True:
            advance(session, 200)
            stages.append(session)
            if tour_over(session):
                break
            session = next_session(session)
            saves.attach_autosave(session)  # the tour's race file, taken over as the app does
        app.show_stage_result(RaceFlow(stages[0]))  # after the first stage
        await pilot.pause()
        assert screen_name(app) == "StageResultScreen"
        await pilot.press("q")
        await pilot.pause()
        assert screen_name(app) == "QuitResults" and "Resume" in screen_text(app)
        await pilot.press("escape", "t")  # stay, then the title menu
        await pilot.pause()
        assert screen_name(app) == "TitleScreen"

        app.show_stage_result(RaceFlow(session))  # the last stage: on to the tour's podium
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert screen_name(app) == "TourPodiumScreen"
        await pilot.press("p")
        await pilot.pause()
        assert screen_name(app) == "ReplayScreen"
        assert app.screen.replay.frames[-1].title == "Stage 3: result"
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("q")
        await pilot.pause()
        assert screen_name(app) == "QuitResults"
        await pilot.press("n", "escape")
        await pilot.pause()
        assert screen_name(app) == "TitleScreen"


# ---------------------------------------------------------------- help

def help_lines(app) -> list[str]:
    """The help as the screen shows it now (its lines as wrapped)."""
    return rows_of(app, "#help-scroll")


def help_words(app) -> str:
    """The whole help, scrolled or not (one line per paragraph or key)."""
    return "\n".join(rendered_text(w.content, 400) for w in app.screen.query("#help-text, #help-keys"))


async def test_help_rows_wrap_under_their_own_column_and_leave_textual_s_keys_out():
    """At 80 columns "? or F1  this help (... scroll" went on with "it)" at
    column 0; the menus' keys listed Textual's "Focus Next" and "Copy selected text"."""
    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 40)) as pilot:  # 80 columns; tall enough to show it all
        await pilot.press("enter")  # the rule-set menu
        await pilot.press("question_mark")
        await pilot.pause()
        lines = help_lines(app)
        checked = ""
        for key, words in (("? or f1", "this help"), ("^p", "the command palette")):
            row = next(k for k, line in enumerate(lines) if key in line)
            column = lines[row].index(words)
            follow = lines[row + 1]
            if not follow.startswith("  " + " " * len(key)):  # the next row of keys: this one fitted
                continue
            assert follow[:column].strip() == "" and follow[column] != " ", lines[row:row + 2]  # a hanging indent
            checked = key
        assert checked == "^p"  # its words take two lines at 80 columns
        assert not any(line.lstrip().startswith("it)") for line in lines)
        words = help_words(app)
        for textual in ("Focus Next", "Focus Previous", "Copy selected text"):
            assert textual not in words


async def test_help_paragraphs_reflow_and_fields_are_named_once():
    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await new_race_menus(pilot, "classic")
        await pilot.press("f1")
        await pilot.pause()
        # one line at this width: the text had a hard break after "(the"
        assert any("Colours stay unique: choosing another seat's colour swaps the two (the screen says so)." in line
                   for line in help_lines(app))
        words = help_words(app)
        assert words.count("Move between fields") == 1 and "tab / shift+tab" in words
        assert "Focus Next" not in words


# ---------------------------------------------------------- set-up to race

async def test_the_set_up_s_messages_do_not_follow_into_the_race():
    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await new_race_menus(pilot, "classic")
        app.screen.query_one("#colour-1").value = "blue"  # seat 1's colour: the two swap
        await pilot.pause()
        # said on the message line, in sight: no toast over it
        assert "swap" in str(app.screen.query_one("#teams-message").render())
        assert not list(app._notifications)
        # a window too small for the form (its notice hides the form, the line with it): a toast says it too.
        # (At 80x24 and more the form, twelve players included, never scrolls the line out of sight.)
        await pilot.resize_terminal(80, 16)
        for _ in range(200):  # (the resize is laid out in its own time)
            if not app.screen.query_one("#teams-message").region.area:
                break
            await pilot.pause(0.01)
        app.screen.query_one("#colour-0").value = "blue"
        await pilot.pause()
        await pilot.pause()
        assert "swap" in str(app.screen.query_one("#teams-message").render())
        assert any("swap" in n.message for n in app._notifications)
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert screen_name(app) == "CurtainScreen"
        assert not list(app._notifications)
        assert "swap" not in screen_text(app)


async def test_the_tagline_names_the_rule_sets_of_the_menu():
    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        tagline = str(app.screen.query_one("#tagline").render())
        await pilot.press("enter")
        await pilot.pause()
        menu = app.screen.query_one("#variant-menu")
        sets = [variant_title(menu.get_option_at_index(k).id) for k in range(menu.option_count)]
        assert sets == ["Classic", "Meteo", "BMX"]
        assert "▊    rulebooks' stages and the players' own." in screen_text(app)  # a description's lines under its own column
        assert "Classic, Meteo and BMX" in tagline and "Peloton expansion" in tagline
        assert "BMX, Peloton" not in tagline  # not a fourth rule set


async def test_a_scripted_team_is_described_where_it_is_chosen():
    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await new_race_menus(pilot, "classic")
        controllers = [str(p) for p, _ in app.screen.query_one("#controller-1")._options]
        await pick_option(pilot, "controller-1", controllers.index("Peloton team"))
        message = str(app.screen.query_one("#teams-message").render())
        assert "Peloton team" in message and "Attack" in message
        await pick_option(pilot, "controller-1", 1)  # the next one: the Muscle team
        message = str(app.screen.query_one("#teams-message").render())
        assert "Muscle team" in message and "extra 5" in message
        await pilot.press("f1")
        await pilot.pause()
        text = help_words(app)
        assert "Peloton team" in text and "Muscle team" in text


# --------------------------------------------------------------- wording

def test_counts_are_singular_or_plural_as_they_are():
    from pathlib import Path

    from flamme_tui.bots.easy import easy
    from flamme_tui.play.replay import frames

    info = saves.SaveInfo(Path("x.json.1"), "x", "Stage", "classic", ("A", "B"), 1, False, None,
                          "2026-12-01T10:00:00", 1, "Tour", 2, 3)
    assert "1 action," in saves.Backup(Path("x.json.1"), info).describe()
    session = choices("classic", 2, seed=5).session()
    first = easy(session.game.view(0))  # the first rider drawn: no card chosen yet
    session.apply(first)
    card = easy(session.game.view(0))  # its card: one card face down
    shown = frames(session.setup, session.seed, [first, card])
    assert any("1 card chosen this round" in line for line in shown[-1].log), shown[-1].log
    assert not any("(s)" in line for f in shown for line in f.log)



def test_most_in_the_wind_counts_the_fatigue_tokens_taken_not_the_rounds():
    """"9 fatigue tokens" for a rider who took 11: a bumpy passage gives 2 a round."""
    from flamme_tui.ui.screens.podium import awards_text, podium_data

    for seed in range(40):
        race = choices("bmx", 4, seed=seed)
        race.circuit = "abcd"  # every back side: the bumpy passage among them
        session = finished(race)
        taken = _fatigue_taken(session)  # per rider, each event's tokens, from the engine's events
        if sum(n for per_rider in taken for n in per_rider) == sum(len(per_rider) for per_rider in taken):
            continue  # every round gave one token: rounds and tokens agree, nothing to tell apart
        history = podium_data(RaceFlow(session))
        assert history.wind == [sum(per_rider) for per_rider in taken]
        names = [t.name for t in session.setup.teams]
        words = " ".join(_plain(awards_text(session.game, names, history)))
        assert f"{max(history.wind)} fatigue tokens at the front" in words
        return
    raise AssertionError("no race with a round of 2 fatigue tokens")


def _fatigue_taken(session) -> list[list[int]]:
    from flamme_tui.engine.events import Fatigue
    from flamme_tui.play.races import new_game

    game = new_game(session.setup, session.seed)
    out: list[list[int]] = [[] for _ in game.riders]
    for action in session.game.actions:
        rounds = game.rounds_done
        game.apply(action)
        if game.rounds_done > rounds:
            for e in game.events:
                if isinstance(e, Fatigue):
                    out[e.rider].append(e.tokens)
    return out


def _plain(group) -> list[str]:
    from rich.console import Console

    console = Console(width=200, record=True, color_system=None)
    console.print(group)
    return console.export_text().splitlines()


def test_the_chart_round_axis_is_whole_within_its_width():
    """Issue 24 item 13: the podium chart's round axis was cut (its last label
    and "round" ran past the chart's width, a label cut to its first digit)."""
    from flamme_tui.bots import POLICIES
    from flamme_tui.play.races import RaceSpec, make_setup, new_game, play_out
    from flamme_tui.ui.screens.podium import History, chart_text
    from flamme_tui.usertext import cells

    game = new_game(make_setup(RaceSpec()), 5)
    play_out(game, {seat: POLICIES["easy"] for seat in range(len(game.seats))})
    n = len(game.riders)
    names = [f"P{k}" for k in range(len(game.seats))]
    for width in (60, 76, 116):
        for rounds in range(2, 41):
            history = History([[(k * (i + 1)) % 7 for i in range(n)] for k in range(rounds)], [1] * n, [0] * n, [0] * n)
            lines = chart_text(game, names, history, width=width).plain.splitlines()
            assert all(cells(line) <= width for line in lines), (width, rounds, max(map(cells, lines)))
            axis = next(line for line in lines if "round" in line and "┤" not in line and "Race chart" not in line)
            labels = [int(w) for w in axis.split() if w.isdigit()]
            spacing = labels[1] - labels[0] if len(labels) > 1 else rounds
            assert labels[0] == 0 and labels == sorted(labels) and rounds - 1 - labels[-1] < spacing, (width, rounds, axis)


async def test_a_swap_said_goes_with_the_next_colour_change_and_a_long_name_brought_back_says_nothing():
    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await new_race_menus(pilot, "classic")
        line = app.screen.query_one("#teams-message")
        app.screen.query_one("#colour-1").value = "blue"  # seat 2 takes seat 1's colour: a swap, said
        await pilot.pause()
        assert "swap" in str(line.render())
        app.screen.query_one("#colour-1").value = "green"  # no swap: the line no longer tells the last one
        await pilot.pause()
        assert str(line.render()).strip() == ""
        name = app.screen.query_one("#name-0")
        name.focus()
        await pilot.pause()
        name.value = "A" * 30  # typed up to the limit: said
        await pilot.pause()
        assert "up to 30 characters" in str(line.render())
        for _ in range(6):  # back to the title menu
            if screen_name(app) == "TitleScreen":
                break
            await pilot.press("escape")
            await pilot.pause()
        await new_race_menus(pilot, "classic")  # the same names come back: nothing to say of them
        assert app.screen.query_one("#name-0").value == "A" * 30
        assert "up to 30" not in str(app.screen.query_one("#teams-message").render())


async def test_the_replay_names_home_and_end_as_the_keyboard_of_the_language_does(data_dir):
    """The Spanish replay's key bar said "home end inicio, final": the keys' English names."""
    from flamme_tui import i18n

    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            i18n.set_language("es")
            session = finished(choices("classic", 2, seed=5), data_dir)
            app.show_podium(RaceFlow(session))
            await pilot.pause()
            await pilot.press("p")
            await pilot.pause()
            assert screen_name(app) == "ReplayScreen"
            footer = screen_text(app).splitlines()[-1]
            assert "inicio fin" in footer and "home" not in footer, footer
            # and what they do is not those same words again ("inicio fin inicio, final")
            assert "inicio fin al inicio, al final" in footer, footer
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("language", ["es", "fr", "en"])
async def test_long_team_names_leave_the_podium_s_numbers_whole_at_80_columns(language, data_dir):
    """Spanish at 80x24 with long typed names: the ranking took two lines a
    rider and the statistics' crash column went onto a line of its own. A name
    is cut with "…" now, never a number, and every team's line keeps its columns."""
    import re

    from flamme_tui import i18n

    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            i18n.set_language(language)
            race = choices("meteo", 4, seed=7)
            race.seats[0].name = "Los Escaladores del Norte Unidos"
            race.seats[1].name = "Équipe Très Longue de Bretagne"
            session = finished(race)
            app.show_podium(RaceFlow(session))
            await pilot.pause()
            ranking = [line for line in rows_of(app, "#ranking") if line.strip()]
            assert len(ranking) == 1 + len(session.game.riders), ranking  # a line each
            for place, line in enumerate(ranking[1:], 1):
                assert re.match(rf"\s*{place}\. \S\S ", line) and re.search(r"\d", line.strip().split("  ")[-1])
            assert any("…" in line for line in ranking)
            app.screen.query_one("#stats").scroll_visible(animate=False, immediate=True)
            await pilot.pause()
            stats = [line for line in rows_of(app, "#stats") if line.strip()]
            teams = [line for line in stats if re.match(r"\s+[A-Z]  ", line)]
            assert len(teams) == 4, stats
            ends = {tuple(m.end() for m in re.finditer(r"\d+", line)) for line in teams}
            assert len(ends) == 1 and len(next(iter(ends))) == 4, stats  # four numbers, in columns
            heading = stats[-5]
            assert max(ends)[-1] >= len(heading.rstrip()) - 1, stats  # the last heading above its numbers
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("language", ["en", "es"])
@pytest.mark.parametrize("scenario", ["help-teams", "help-bmx"])
async def test_help_words_keep_a_blank_cell_before_the_scroll_bar(language, scenario):
    """The help's words ran up to the scroll bar's first cell: a cell of padding now, on every page."""
    from flamme_tui import i18n
    from flamme_tui.ui.scenarios import SCENARIOS

    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            i18n.set_language(language)
            await SCENARIOS[scenario](pilot)
            scroll = app.screen.query_one("#help-scroll")
            region = scroll.content_region
            edge = region.right - 1 - scroll.scrollbar_size_vertical  # the cell left of the scroll bar
            assert scroll.scrollbar_size_vertical and scroll.max_scroll_y > 0  # a help longer than the box
            seen = 0
            while True:
                lines = screen_text(app).splitlines()
                for y in range(region.y, region.bottom):
                    assert lines[y][edge] == " ", lines[y]
                    seen += bool(lines[y][region.x:edge].strip())
                if scroll.scroll_y >= scroll.max_scroll_y:
                    break
                await pilot.press("pagedown")
                await pilot.pause()
            assert seen > 20
    finally:
        i18n.set_language("en")
