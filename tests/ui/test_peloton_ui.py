"""The Peloton expansion in the app: a six-team race (3 humans, 3 bots) on a
Peloton 5-6 stage with the breakaway, from the title menu to the podium with
every screen fitting 80x24; the bids' privacy behind the curtain; snapshots
of a six-team race and of the bidding."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from flamme_tui.ui.app import FlammeApp
from flamme_tui.ui.scenarios import SCENARIOS, SEED, settle
from flamme_tui.ui.screens.teams import SeatRow
from flamme_tui.ui.widgets.board import Boards
from flamme_tui.ui.widgets.cards import CardRow

from .driver import go_to_stage, new_race_menus, pick_option, play_race, screen_name, screenshot_text, set_players, shown_cards

pytestmark = pytest.mark.usefixtures("fast_pilot")

STAGE_DOWNS = 12  # the stage menu: 7 base stages, then Peloton 7, 7 (5-6), 8, 8 (5-6), 9, 9 (5-6)
WIDGETS = ("#status", "#overview", "#track", "#panel-title", "#cards", "#panel-hint", "#boards", "#keys")


def fits(app) -> None:
    """Every part of the screen whole inside the window: nothing cut, nothing off-screen."""
    width, height = app.size
    screen = app.screen
    name = screen_name(app)
    if name == "RaceScreen":
        for wid in WIDGETS:
            region = screen.query_one(wid).region
            assert region.height >= 1 and region.y + region.height <= height, (wid, region)
            assert region.x + region.width <= width, (wid, region)
        assert screen.query_one("#cards").region.height == 4  # a whole card row
        boards = screen.query_one("#boards", Boards)
        assert boards.region.height == Boards.fixed_height(len(boards.rows), boards.columns)
        assert screen.query_one("#keys").region.y == height - 1
        assert screen.query_one("#panel-title").region.y < screen.query_one("#boards").region.y
    elif name == "CurtainScreen":
        for wid in ("#curtain-title", "#lift", "#curtain-boards"):
            region = screen.query_one(wid).region
            assert region.height >= 1 and region.y + region.height <= height, (wid, region)
    text = screenshot_text(app)
    if name in ("RaceScreen", "CurtainScreen"):
        # every rider on the boards: twelve team letters + S/R
        assert len(set(re.findall(r"\b[BOGPVK][SR]\b", text))) == 12


async def setup_six(pilot) -> None:
    """Title -> New race -> Classic -> Peloton 9 (5-6) -> six teams, 3 bots, the breakaway."""
    await new_race_menus(pilot, "classic", stage_downs=STAGE_DOWNS)
    app = pilot.app
    assert "Peloton 9 (2-4 teams)" in screenshot_text(app)  # the version two colours race
    await set_players(pilot, 6)
    assert "Peloton 9 (5-6 teams)" in screenshot_text(app)
    for seat in (3, 4, 5):
        await pick_option(pilot, f"controller-{seat}", 1)  # Bot: easy
    assert app.screen.query_one("#breakaway").value is True  # on with six teams, as its note recommends


async def test_a_six_team_race_with_the_breakaway_from_the_title_menu_to_the_podium():
    app = FlammeApp(seed=SEED, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await setup_six(pilot)
        await pilot.press("ctrl+s")

        async def check(pilot, seen) -> None:
            fits(pilot.app)
            if screen_name(pilot.app) == "RaceScreen":  # its help has the expansion's rules (cobbles, lanes)
                assert "Cobbles (#)" in pilot.app.screen.help_text()

        seen = await play_race(pilot, on_state=check)
        assert screen_name(app) == "PodiumScreen"
        assert seen.bids == 3 * 3  # three humans: the bidder, then two bids each
        assert seen.reveals == 2  # each bid revealed before the next (the result with the second)
        assert set(seen.curtains) == {0, 1, 2} and seen.rounds >= 8
        game = app.screen.flow.game
        assert len(game.riders) == 12 and game.course.name == "Peloton 9 (5-6 teams)"
        assert game.phase == "over"
        assert any(a.startswith("bid ") for a in map(str, game.actions))
        text = screenshot_text(app)
        winner = game.riders[game.winner]
        assert app.screen.query_one("#podium-title").region.y < 3  # the podium opens at its top
        assert app.screen.query_one("#podium-body").scroll_y == 0
        assert "Ranking" in text and game.setup.teams[winner.seat].name in text


async def test_bids_stay_secret_until_revealed():
    """Behind the curtain no hand; at a bid only the acting rider's draw; the
    boards never show another seat's draw or kept bid before the reveal; a
    revealed bid is every bidder's, face up together."""
    app = FlammeApp(seed=SEED, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        app.start_race(SCENARIOS_CHOICES())
        checked = Counter()
        for _ in range(60):
            await settle(pilot)
            name = screen_name(app)
            text = screenshot_text(app)
            if name == "CurtainScreen":
                if app.screen_stack[-2].flow.game.phase != "breakaway":
                    break  # round 1
                checked["curtain"] += 1
                assert shown_cards(app, "hand") == [] and shown_cards(app, "riders") == []
                assert "Breakaway, bid" in text and "keep 1 face down" not in text
                boards_private(app, app.screen_stack[-2].flow.game, seat=None,
                               rows=app.screen.query_one("#curtain-boards", Boards).rows)
                await pilot.press("enter")
                continue
            screen = app.screen
            game = screen.flow.game
            turn = screen.turn
            if game.phase != "breakaway" and turn.kind != "bids":
                break
            boards_private(app, game, turn.seat, screen.query_one(Boards).rows)
            if turn.kind == "bid":
                checked["bid"] += 1
                cards = shown_cards(app, "hand")
                assert {c.data[:2] for c in cards} == {(turn.seat, turn.rider)}
                assert Counter(c.data[2] for c in cards) == Counter(game.riders[turn.rider].hand)
                assert shown_cards(app, "revealed") == []
                await pilot.press("1", "enter")
            elif turn.kind == "bidder":
                checked["bidder"] += 1
                assert {c.data[0] for c in shown_cards(app, "riders")} == {turn.seat}
                await pilot.press("2", "enter")
            elif turn.kind == "bids":
                checked["bids"] += 1
                revealed = shown_cards(app, "revealed")
                assert len(revealed) == 6  # every bidder, face up together
                await pilot.press("enter")
            else:
                raise AssertionError(turn)
        assert checked["curtain"] >= 6 and checked["bid"] == 6 and checked["bidder"] == 3 and checked["bids"] == 2


def SCENARIOS_CHOICES():
    from flamme_tui.ui.scenarios import peloton_choices

    return peloton_choices(humans=3)


def boards_private(app, game, seat, rows) -> None:
    """Other seats' piles as the table saw them before their draw; no kept bid anywhere."""
    for row in rows:
        rider = game.riders[row.index]
        if seat is not None and row.seat == seat:
            continue
        assert not row.own
        shown = rider.shown_recycled is not None
        assert row.deck == (rider.shown_deck if shown else len(rider.deck))
        assert row.recycled == tuple(sorted(rider.shown_recycled if shown else rider.recycled))
    for card in shown_cards(app, "hand"):
        assert seat is not None and card.data[0] == seat


async def test_the_teams_screen_offers_six_teams_and_the_breakaway_only_where_the_stage_has_it():
    app = FlammeApp(seed=SEED, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await new_race_menus(pilot, "classic")  # Avenue Corso Paseo: no tile 2
        assert not app.screen.query("#breakaway")
        await set_players(pilot, 6)
        # the tile as the box numbers it ("_1" is the data's name of one of its sides)
        assert "starts on Peloton tile 1 (" in str(app.screen.query_one("#teams-message").render())
        assert all(app.screen.query_one(f"#seat-{s}").display for s in range(6))
        await set_players(pilot, 2)  # the line said what six players change: it goes
        assert str(app.screen.query_one("#teams-message").render()).strip() == ""
        await set_players(pilot, 6)
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("down", "enter")  # meteo
        await go_to_stage(pilot, "peloton-7")
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen.query("#breakaway")
        await set_players(pilot, 5)
        assert "5 colours race Peloton 7 (5-6 teams)" in str(app.screen.query_one("#teams-message").render())
        # the breakaway follows the count ("recommended with 5-6 teams" beside "no breakaway" read wrong)
        breakaway = app.screen.query_one("#breakaway")
        assert breakaway.value is True
        await set_players(pilot, 3)
        assert breakaway.value is False
        await set_players(pilot, 6)
        assert breakaway.value is True
        await pilot.click("#breakaway")  # until the player chooses it: off, and it stays off
        await pilot.pause()
        await pilot.press("up", "enter")
        await pilot.pause()
        assert breakaway.value is False
        await set_players(pilot, 5)
        assert breakaway.value is False


async def test_the_teams_screen_s_title_names_the_version_the_colours_chosen_will_race():
    """A Peloton stage card has a 2-4 and a 5-6 version, the race takes the one for the colours
    racing: the title says that one as the count changes (it kept the version chosen in the menu)."""
    app = FlammeApp(seed=SEED, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter", "enter")  # New race, Classic
        await pilot.pause()
        await go_to_stage(pilot, "peloton-9")
        await pilot.press("enter")
        await pilot.pause()

        def title() -> str:
            return str(app.screen.query_one("#teams-body > .screen-title").render())

        assert title() == "Classic · Peloton 9 (2-4 teams) · teams"
        await pilot.press("ctrl+f")  # filled up to six teams
        await pilot.pause()
        assert title() == "Classic · Peloton 9 (5-6 teams) · teams"
        assert title() in screenshot_text(app)
        await set_players(pilot, 4)
        assert title() == "Classic · Peloton 9 (2-4 teams) · teams"
        await set_players(pilot, 5)
        assert title() == "Classic · Peloton 9 (5-6 teams) · teams"


def snap_app() -> FlammeApp:
    return FlammeApp(seed=SEED, autoplay=False, autosave=False)


@pytest.mark.parametrize("lang", ["en", "fr", "es"])
async def test_the_bidding_screens_say_what_the_best_bids_win_and_cost(lang):
    """A review: while bidding the screen said only "which rider bids for the
    breakaway?" and "keep 1 face down, 3 go face up"; what the best bids win and
    cost was in the help or after the reveal, and the square was not marked.
    At 80x24 with six teams, both bidding screens say it in a whole line under
    the cards, and ▼▼ marks the breakaway square over the track."""
    from flamme_tui import i18n
    from flamme_tui.play.narrator import label
    from flamme_tui.ui.scenarios import peloton_choices
    from flamme_tui.ui.textshot import screen_text
    from flamme_tui.ui.widgets.track import TrackStrip

    i18n.choose(flag=lang)
    try:
        app = snap_app()
        async with app.run_test(size=(80, 24)) as pilot:
            app.start_race(peloton_choices())
            await settle(pilot)
            await pilot.press("enter")  # the curtain
            await settle(pilot)
            course = app.screen.board.course
            said = i18n.ngettext("top total → square {square} · cost: bid cards +{e} E",
                                 "top {n} totals → square {square} · cost: bid cards +{e} E", 2).format(
                n=2, square=label(course, course.breakaway), e=2)
            for keys in ((), ("2", "enter")):  # the bidder's choice, then the bid
                await pilot.press(*keys)
                await settle(pilot)
                lines = [line.strip() for line in screen_text(app).splitlines()]
                assert any(re.fullmatch(re.escape(said) + r"\s*▏.*", line) for line in lines), (said, lines)
                track = app.screen.query_one("#track", TrackStrip)
                assert track.scene.previews == (course.breakaway,)
                assert any("▼▼" in line for line in lines[:7])
    finally:
        i18n.forget_flag()
        i18n.set_language("en")


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
def test_six_team_race_snapshot(snap_compare, size):
    """Twelve riders on three lanes, cobbles and supply zones, the boards in two columns."""
    assert snap_compare(snap_app(), run_before=SCENARIOS["peloton-race"], terminal_size=size)


def test_twelve_revealed_cards_snapshot(snap_compare):
    """Every rider's card face up at 80x24, narrower cards beside the log."""
    assert snap_compare(snap_app(), run_before=SCENARIOS["peloton-reveal"], terminal_size=(80, 24))


@pytest.mark.parametrize("scenario", ["peloton-bid", "peloton-bids"])
def test_bidding_snapshots(snap_compare, scenario):
    assert snap_compare(snap_app(), run_before=SCENARIOS[scenario], terminal_size=(80, 24))


def test_six_team_race_without_colour(snap_compare, monkeypatch):
    """NO_COLOR: cobbles #, supply s, the lanes a square lacks ░, riders by letter."""
    monkeypatch.setenv("NO_COLOR", "1")
    assert snap_compare(snap_app(), run_before=SCENARIOS["peloton-race"], terminal_size=(80, 24))


async def test_the_track_draws_three_lanes_on_a_peloton_stage():
    app = FlammeApp(seed=SEED, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await SCENARIOS["peloton-race"](pilot)
        track = app.screen.query_one("#track")
        assert track.row_kinds()[-3:] == ("lane2", "lane1", "lane0")
        assert app.screen.query_one("#overview").row_kinds()[:3] == ("lane2", "lane1", "lane0")
        text = screenshot_text(app)
        assert "#" in text and "░" in text and "s" in text
        rows = app.screen.query_one(CardRow).cards
        assert len(rows) == 4


async def test_nine_players_race_one_rider_each_from_the_teams_screen():
    """7 to 12 players: each picks a free rider (two may share a colour); the
    race is played to the podium with every screen whole at 80x24."""
    app = FlammeApp(seed=SEED, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await new_race_menus(pilot, "classic", stage_downs=9)  # Peloton 8 (2-4 teams)
        await set_players(pilot, 9)
        screen = app.screen
        # nine rows shown, none for seats 10-12 (a row is made when the count first reaches it)
        rows = {row.seat: row.display for row in screen.query(SeatRow)}
        assert rows == {s: True for s in range(9)}, rows
        assert str(screen.query_one("#extra-head").render()) == "Rider"
        message = str(screen.query_one("#teams-message").render())
        assert "one rider each" in message and "5 colours race Peloton 8 (5-6 teams)" in message
        # seat 2 takes seat 1's rider (Blue Sprinteur): the two swap
        screen.query_one("#rider-1").value = "S"
        await pilot.pause()
        assert "swap" in str(screen.query_one("#teams-message").render())
        assert (screen.query_one("#rider-0").value, screen.query_one("#rider-1").value) == ("R", "S")
        screen.query_one("#colour-1").value = "sky"  # a free rider: no swap, and the line no longer tells one
        await pilot.pause()
        assert str(screen.query_one("#teams-message").render()).strip() == ""
        screen.query_one("#colour-1").value = "blue"  # (back to Blue Sprinteur, free again)
        await pilot.pause()
        for seat in range(2, 9):
            await pick_option(pilot, f"controller-{seat}", 1)  # Bot: easy
        await pick_option(pilot, "breakaway", 1)
        await pilot.press("ctrl+s")

        async def check(pilot, seen) -> None:
            fits_lone(pilot.app)

        seen = await play_race(pilot, on_state=check)
        assert screen_name(app) == "PodiumScreen"
        game = app.screen.flow.game
        assert [r.id for r in game.riders][:2] == ["blue.R", "blue.S"] and len(game.riders) == 9
        assert game.course.name == "Peloton 8 (5-6 teams)" and seen.draws == 0  # one rider: nothing to choose
        assert seen.bids == 2 * 2 and set(seen.curtains) == {0, 1}


def fits_lone(app) -> None:
    width, height = app.size
    if screen_name(app) == "RaceScreen":
        screen = app.screen
        for wid in WIDGETS:
            region = screen.query_one(wid).region
            assert region.height >= 1 and region.y + region.height <= height, (wid, region)
        assert screen.query_one("#keys").region.y == height - 1
        assert len(screen.query_one(Boards).rows) == 9


def test_a_race_s_help_has_the_peloton_rules_and_its_scripted_teams_only_when_it_uses_them():
    from flamme_tui.engine.race import Team
    from flamme_tui.play.races import COLOURS, RaceSpec, make_setup
    from flamme_tui.ui.texts import help_for

    base = help_for("pick", "classic", setup=make_setup(RaceSpec()))
    assert "Cobbles (#)" not in base and "Muscle team  " not in base
    # a base stage, four teams, one of them the Muscle team: the expansion's rules, that team's line only
    muscle = make_setup(RaceSpec(scripted=("", "", "", "muscle")))
    words = help_for("pick", "classic", setup=muscle)
    assert "Cobbles (#)" in words and "Muscle team  a Sprinteur with a Sprinteur deck" in words
    assert "a lone team of players against a Peloton and a Muscle team starts with 3 exhaustion cards" in words
    assert "Peloton team  two riders" not in words
    # six teams on a Peloton stage, no scripted team
    six = make_setup(RaceSpec(stage="peloton-9-5-6", teams=tuple(Team(c, c) for c in COLOURS)))
    words = help_for("reveal", "meteo", setup=six)
    assert "Cobbles (#)" in words and "Muscle team  " not in words
    assert "Cobbles (#)" not in help_for("pick", "bmx", setup=make_setup(RaceSpec(variant="bmx")))


@pytest.mark.parametrize("lang", ["en", "fr", "es"])
async def test_the_status_line_says_the_breakaway_whole_at_80x24_with_six_teams(lang):
    """The status line, before round 1 on a stage with a breakaway square: "Peloton 9
    (5-6 teams) · Classic · round 1 · Blue: which rider bids for the br…" at 80x24.  It
    says "breakaway" where the round would be and, where the line is short, the question
    shorter (the panel's title under it says it in full): whole for every seat of six (the
    longest colour names), at each bid, each reveal (and the words under the revealed bids)
    and each team's first draw after it."""
    from textual.content import Content

    from flamme_tui import i18n
    from flamme_tui.ui.scenarios import peloton_choices
    from flamme_tui.ui.textshot import screen_text

    i18n.choose(flag=lang)
    try:
        app = snap_app()
        async with app.run_test(size=(80, 24)) as pilot:
            app.start_race(peloton_choices(humans=6))
            seen = Counter()
            for _ in range(80):
                await settle(pilot)
                if screen_name(app) == "CurtainScreen":
                    await pilot.press("enter")
                    continue
                screen = app.screen
                turn = screen.turn
                status = screen.query_one("#status")
                said = Content.from_markup(screen._texts[status]).plain
                assert Content.from_markup(screen._texts[status]).cell_length <= status.size.width, said
                assert "…" not in screen_text(app).splitlines()[0], said
                if turn.kind in ("bidder", "bid", "bids"):
                    assert f" · {i18n._('breakaway')} · " in said, said
                    assert i18n._("round {round}").format(round=1) not in said, said
                if turn.kind == "bids":  # and what the revealed bids say under them, whole ("on pioche … pour la…")
                    hint = screen.query_one("#panel-hint")
                    assert hint.get_content_height(app.size, app.size, hint.size.width) <= hint.size.height, screen.panel.hint
                seen[turn.kind] += 1
                if turn.kind == "draw":
                    if seen["draw"] == 6:
                        break
                    await pilot.press("1")
                elif turn.kind in ("bidder", "bid"):
                    await pilot.press("1", "enter")
                elif turn.kind in ("bids", "review"):
                    await pilot.press("enter")
                elif turn.kind == "pick":
                    await pilot.press("1")
                else:
                    raise AssertionError(turn)
            assert seen["bidder"] == 6 and seen["bid"] == 12 and seen["bids"] == 2 and seen["draw"] == 6, seen
    finally:
        i18n.forget_flag()
        i18n.set_language("en")
