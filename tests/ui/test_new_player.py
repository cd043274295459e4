"""What a new player found on the race screen in a real 80x24 terminal: every
revealed card on screen with the largest field (twelve riders), Enter with
nothing selected says what to press (and selects nothing), the prompt, the
review and the movement's cue lines whole, and the curtain's legend of the
symbols, never pushing anything off the screen."""

from __future__ import annotations

import pytest
from textual.content import Content

from flamme_tui.ui.app import FlammeApp
from flamme_tui.ui.choices import default_seats, one_rider_seats
from flamme_tui.ui.scenarios import SEED, choices, settle
from flamme_tui.ui.textshot import screen_text
from flamme_tui.ui.widgets.cards import CardRow
from flamme_tui.ui.widgets.lines import TextLines

from .driver import new_race_menus, screen_name, shown_cards

pytestmark = pytest.mark.usefixtures("fast_pilot")

LONG_NAME = "Les Forçats de la Route du Nord"[:30]  # a name as long as the teams screen takes


def six_teams(humans: int = 6):
    """Six teams (twelve riders) on a Peloton 5-6 stage, the first seats human."""
    c = choices("classic", 6, stage="peloton-9-5-6")
    for seat in c.seats[humans:]:
        seat.controller = "easy"
    return c


def twelve_players():
    """Twelve players racing one rider each (PELOTON.md), all human."""
    c = choices("classic", 2, stage="peloton-9-5-6")
    c.seats = one_rider_seats(12)
    return c


def four_teams():
    """Four human teams (eight riders) on the first classic stage, one with a long name."""
    c = choices("classic", 4)
    c.seats = default_seats(4)
    c.seats[3].name = LONG_NAME
    return c


async def play_round(pilot, check=None, until: str = "reveal") -> None:
    """Every human's turn of one round with keys (curtain, first rider, cards,
    review), `check(app)` at each screen, up to the turn `until`."""
    app = pilot.app
    for _ in range(200):
        await settle(pilot)
        if check is not None:
            check(app)
        if screen_name(app) == "CurtainScreen":
            await pilot.press("enter")
            continue
        turn = app.screen.turn
        if turn.kind == until:
            return
        if turn.kind in ("draw", "pick"):
            await pilot.press("1")
        elif turn.kind == "review":
            await pilot.press("enter")
        elif turn.kind == "place":
            await pilot.press("enter")
        else:
            raise AssertionError(turn)
    raise AssertionError("the round did not end")


# ------------------------------------------------------------- the reveal

@pytest.mark.parametrize("field", [six_teams, twelve_players], ids=["six-teams", "twelve-players"])
async def test_every_revealed_card_is_on_screen_at_80x24_with_twelve_riders(field):
    app = FlammeApp(seed=SEED, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        app.start_race(field())
        await play_round(pilot)
        screen = app.screen
        assert screen.turn.kind == "reveal"
        revealed = shown_cards(app, "revealed")
        assert len(revealed) == len(screen.flow.game.riders) == 12
        row = screen.query_one("#cards", CardRow)
        log = screen.query_one("#log")
        assert row.region.right <= log.region.x  # the row ends before the log
        for x, width in row.boxes():
            assert x + width <= row.size.width  # every card whole inside the row
        # and on screen: each card's title (its rider) and value, under each other
        lines = screen_text(app).splitlines()
        top, values = lines[row.region.y], lines[row.region.y + 1]
        for card, (x, width) in zip(revealed, row.boxes()):
            left = row.region.x + x
            assert card.title in top[left:left + width], (card.title, top)
            assert card.lines[0] in values[left:left + width], (card.lines[0], values)


async def test_twelve_players_keep_their_numbers_in_the_boards_at_80x24():
    """Two compact columns of boards cut long names: "Player 10", "Player 11"
    and "Player 12" all became "Player …"; the number is kept."""
    from flamme_tui.ui.widgets.board import Boards

    app = FlammeApp(seed=SEED, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        app.start_race(twelve_players())
        await play_round(pilot, until="pick")
        boards = app.screen.query_one("#boards", Boards)
        assert boards.columns == 2
        halves = [half for line in boards.lines()[1:] for half in line.split("│")]
        for n in range(1, 13):
            row = next(r for r in boards.rows if r.name.startswith(f"Player {n} "))
            shown = next(h for h in halves if h[1:3] in (row.label, row.label.lower()))
            assert shown[3:].split()[1] == str(n), shown  # "Player 7", "Play… 10"


# --------------------------------------------- Enter with nothing selected

async def test_enter_with_nothing_selected_says_what_to_press_and_selects_nothing():
    app = FlammeApp(seed=SEED, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await new_race_menus(pilot, "classic")
        await pilot.press("ctrl+s")  # Blue and Orange, both human
        await settle(pilot)
        await pilot.press("enter")  # Blue lifts the curtain
        await settle(pilot)
        screen = app.screen
        entries = list(screen.flow.session.entries)
        assert screen.turn.kind == "draw" and "press 1 or 2" not in screen_text(app)
        await pilot.press("enter")
        assert screen.turn.kind == "draw" and screen.sel is None  # nothing chosen for the player
        assert screen.flow.session.entries == entries
        hint = screen.query_one("#panel-hint", TextLines)
        said = "press 1 or 2 to choose a rider first"
        assert said in screen_text(app).splitlines()[hint.region.y]  # first line under the cards
        await pilot.press("1")  # a selection: the line goes
        assert said not in screen_text(app)
        await pilot.press("enter")
        assert screen.turn.kind == "pick"
        n = len(screen.options)
        await pilot.press("enter")
        assert screen.turn.kind == "pick" and screen.sel is None
        said = f"press 1-{n} to choose a card first"
        assert said in screen_text(app).splitlines()[hint.region.y]
        await pilot.press("enter")  # again: said once, still nothing played
        assert screen.turn.kind == "pick" and screen_text(app).count(said) == 1
        rider = screen.turn.rider
        await pilot.press("right")
        assert said not in screen_text(app) and screen.sel == 0
        await pilot.press("enter")
        assert screen.turn.kind == "pick" and screen.turn.rider != rider  # played: the other rider's pick
        assert len(screen.flow.session.entries) == len(entries) + 2  # a draw and a play, nothing else


# ------------------------------------------------------- the cue lines

def cue_lines_whole(app) -> None:
    """The panel's title on its one line, and the hint within its lines."""
    if screen_name(app) != "RaceScreen":
        return
    screen = app.screen
    title = screen.query_one("#panel-title", TextLines)
    hint = screen.query_one("#panel-hint", TextLines)
    text = Content.from_markup(title.content) if isinstance(title.content, str) else title.content
    assert text.cell_length <= title.size.width, (screen.turn.kind, text.plain)
    needed = hint.get_content_height(app.size, app.size, hint.size.width)
    assert needed <= hint.size.height, (screen.turn.kind, str(hint.content))


@pytest.mark.parametrize("field", [four_teams, six_teams], ids=["four-teams", "six-teams"])
async def test_the_prompt_the_review_and_the_movement_cues_fit_at_80x24(field):
    app = FlammeApp(seed=SEED, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        app.start_race(field())
        seen = set()

        def check(app) -> None:
            if screen_name(app) == "RaceScreen":
                seen.add(app.screen.turn.kind)
                cue_lines_whole(app)

        await play_round(pilot, check)
        assert {"draw", "pick", "review"} <= seen
        screen = app.screen
        replay = screen.flow.replay
        while not replay.at_end:  # every step of the movement, then its end
            cue_lines_whole(app)
            await pilot.press("space")
        cue_lines_whole(app)
        assert "on to round 2" in screen_text(app)


async def test_the_review_says_which_card_can_change_and_why_in_two_lines():
    app = FlammeApp(seed=SEED, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        app.start_race(four_teams())
        await play_round(pilot, until="review")
        screen = app.screen
        game, turn = screen.flow.game, screen.turn
        last = game.riders[turn.rider].kind
        first = next(r.kind for i, r in enumerate(game.riders) if r.seat == turn.seat and i != turn.rider)
        kinds = {"S": "Sprinteur", "R": "Rouleur"}
        text = screen_text(app)
        assert f"⏎ pass · u change the {kinds[last]}'s card" in text
        assert f"(the {kinds[first]} drew first: its card is down)" in text


# ---------------------------------------------------------- the legend

async def test_the_curtain_legend_says_only_what_this_race_shows_and_keeps_the_piles_line():
    """A review, at 80x24 on Avenue Corso Paseo (flat, no cobbles, no supply
    zone) in a late round: the legend listed "s supply zone # cobbles" and
    "G2: grid place 2" (nobody on the grid any more), and dropped for want of
    room the line on Deck and Recycled, which explains why a player who has
    drawn still shows a full deck.  Only the race's terrain, G2 while a rider
    is on the grid, and the piles' line before the terrain's."""
    from flamme_tui.play.flow import RaceFlow
    from flamme_tui.ui.scenarios import advance

    app = FlammeApp(seed=SEED, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        session = choices("meteo", 2, seed=80).session()
        advance(session, 10)
        app.start_flow(RaceFlow(session))
        await settle(pilot)
        assert screen_name(app) == "CurtainScreen"
        text = screen_text(app)
        assert "Others' Deck, Recycled: as before this round's draws, until the reveal" in text
        assert "E 1/0: exhaustion cards held/played" in text and "G2" not in text
        assert "· flat" in text and "supply" not in text and "cobbles" not in text and "ascent" not in text


def test_the_bmx_legend_says_what_g1_is_while_a_rider_starts_there():
    """A BMX rider on the start squares is labelled "G1" on the boards and in
    the log ("plays 5, G1 → 5"); the legend said what G2 is in classic only."""
    from flamme_tui.ui.texts import curtain_legend

    assert any(line.startswith("G1: start place 1 · Bag:") for line in curtain_legend("bmx", on_grid=True))
    assert not any("G1" in line for line in curtain_legend("bmx", on_grid=False))


@pytest.mark.parametrize("lang", ["en", "fr", "es"])
def test_the_bmx_legend_names_the_ramp_of_a_circuit_that_has_one(lang):
    """The lap says "/3 ramp" beside the loop; the curtain's legend, which a new
    player reads between two turns, did not (every line still within 78 cells)."""
    from rich.cells import cell_len

    from flamme_tui import i18n
    from flamme_tui.play.races import COLOURS, RaceSpec, Team, make_setup
    from flamme_tui.ui.texts import curtain_legend

    teams = tuple(Team(f"T{k}", c) for k, c in enumerate(COLOURS[:2]))
    with_ramp = make_setup(RaceSpec(variant="bmx", teams=teams, circuit="abcd", ramp=(10, 3))).course
    without = make_setup(RaceSpec(variant="bmx", teams=teams, circuit="abcd")).course
    with i18n.speaking(lang):
        ramp = f"/3 {i18n.pgettext('lap legend', 'ramp')}"
        legend = curtain_legend("bmx", course=with_ramp, no_lane=True, on_grid=False)
        assert any(ramp in line for line in legend) and all(cell_len(line) <= 78 for line in legend)
        assert not any("/3" in line for line in curtain_legend("bmx", course=without, no_lane=True, on_grid=False))
        # the flat circuit, nothing to name: no gap where its terrain would be ("Track:   ║")
        flat = make_setup(RaceSpec(variant="bmx", teams=teams, circuit="ABCD")).course
        track = curtain_legend("bmx", course=flat, on_grid=False)[-1]
        assert "   " not in track and "║" in track


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
async def test_the_curtain_explains_the_symbols_and_pushes_nothing_off_the_screen(size):
    app = FlammeApp(seed=SEED, autoplay=False, autosave=False)
    async with app.run_test(size=size) as pilot:
        app.start_race(six_teams())
        await settle(pilot)
        assert screen_name(app) == "CurtainScreen"
        screen = app.screen
        width, height = size
        body = screen.query_one("#curtain-body")
        for wid in ("#curtain-round", "#curtain-title", "#curtain-team", "#curtain-text", "#lift"):
            region = screen.query_one(wid).region
            assert region.height >= 1 and body.region.contains_region(region), wid
        boards = screen.query_one("#curtain-boards")
        assert boards.region.bottom == height - 1 and boards.region.height == 1 + 6  # two columns of six
        text = screen_text(app)
        assert "BS BR: a rider, team letter + S (Sprinteur) or R (Rouleur) · ✓: card down" in text
        assert "G2: grid place 2" in text and "E 1/0: exhaustion cards held/played" in text
        assert "Weather" not in text and "~" not in text and "◆" not in text  # a classic race, not a tour
        if height >= 40:  # a tall window: the whole legend (this stage's terrain: no climb)
            assert "s supply zone  # cobbles" in text and "^ ascent" not in text
        legend = screen.query_one("#curtain-legend")
        visible = legend.region.intersection(body.region)
        assert visible.height >= 2  # at 80x24 too, with six teams


async def test_the_legend_of_a_meteo_race_names_the_weather():
    """The weather of the race's stage, and only that (seed 92 deals all four
    kinds on Avenue Corso Paseo, seed 7 wet roads only)."""
    for seed, shown, not_shown in ((92, ("~ wet road", "» tailwind", "≡ crosswind"), ()),
                                   (7, ("~ wet road",), ("» tailwind", "« headwind", "≡ crosswind"))):
        app = FlammeApp(seed=SEED, autoplay=False, autosave=False)
        async with app.run_test(size=(120, 40)) as pilot:
            app.start_race(choices("meteo", 2, seed=seed))
            await settle(pilot)
            assert screen_name(app) == "CurtainScreen"
            text = screen_text(app)
            assert all(w in text for w in shown) and "bs: crashed" in text, (seed, text)
            assert not any(w in text for w in not_shown), (seed, text)


async def test_the_weather_line_under_the_track_names_only_the_weather_of_this_race():
    """The race screen's line under the track (a tall window) listed all four kinds,
    "» tailwind 5 cards  « headwind 3 cards ...", in a race with only a wet road."""
    from flamme_tui.play.flow import RaceFlow
    from flamme_tui.ui.palette import WEATHER

    for seed in range(100):  # a race whose stage lacks some weather
        session = choices("meteo", 2, seed=seed).session()
        course = session.game.course
        here = set(course.weather[:course.length]) - {""}
        if here and len(here) < len(WEATHER):
            break
    assert here and len(here) < len(WEATHER)
    app = FlammeApp(seed=SEED, autoplay=False, autosave=False)
    async with app.run_test(size=(120, 40)) as pilot:
        app.start_flow(RaceFlow(session))
        await settle(pilot)
        await pilot.press("enter")  # the curtain lifted
        await settle(pilot)
        legend = str(app.screen.query_one("#legend").render())
        for kind, weather in WEATHER.items():
            assert (weather.glyph in legend) == (kind in here), (here, legend)
