"""Why keys are fast (see bench.py for the timings): on the race screen a key
changes what fixed-size parts show, in one frame, without a new layout; the
card row and the race log are Line-API widgets that only repaint."""

from __future__ import annotations

import pytest
from textual.app import App
from textual.screen import Screen

from flamme_tui.ui.app import FlammeApp
from flamme_tui.ui.scenarios import settle
from flamme_tui.ui.textshot import screen_text
from flamme_tui.ui.widgets.cards import Card, CardRow
from flamme_tui.ui.widgets.racelog import RaceLog

from .driver import new_race_menus

pytestmark = pytest.mark.usefixtures("fast_pilot")


async def test_race_keys_need_no_layout_and_one_frame(monkeypatch):
    layouts: list[str] = []
    frames: list[str] = []
    refresh_layout = Screen._refresh_layout
    display = App._display

    def counting_layout(self, *args, **kwargs):
        layouts.append(type(self).__name__)
        return refresh_layout(self, *args, **kwargs)

    def counting_display(self, screen, renderable):
        if renderable is not None:
            frames.append(type(screen).__name__)
        return display(self, screen, renderable)

    monkeypatch.setattr(Screen, "_refresh_layout", counting_layout)
    monkeypatch.setattr(App, "_display", counting_display)
    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await new_race_menus(pilot, "classic")
        await pilot.press("ctrl+s")
        await settle(pilot)
        await pilot.press("enter")  # Blue lifts the curtain
        await settle(pilot)
        screen = app.screen

        async def key(name: str, expect: str) -> None:
            layouts.clear()
            frames.clear()
            await pilot.press(name)
            await settle(pilot)
            await pilot.pause()
            assert screen.turn.kind == expect
            assert layouts == [], f"{name}: a new layout ({layouts})"
            assert len(frames) <= 1, f"{name}: {len(frames)} frames"

        await key("right", "draw")  # select a rider
        await key("enter", "pick")  # confirm: the cards appear
        await key("right", "pick")  # select a card
        await key("right", "pick")
        await key("enter", "pick")  # play it: the other rider's cards
        await key("right", "pick")
        await key("enter", "review")  # the review of Blue's cards
        await key("u", "pick")  # the card taken back (an undo): the same cards again
        await key("2", "review")  # a number plays at once
        await pilot.press("enter")  # pass: the curtain for Orange (a new screen)
        await settle(pilot)
        await pilot.press("enter", "1", "1", "1", "enter")
        await settle(pilot)
        assert screen.turn.kind == "reveal"
        await key("space", "reveal")  # next step
        await key("left", "reveal")  # back
        await key("enter", "reveal")  # skip to the end


class Row(App):
    CSS = "CardRow { width: 45; height: 5; } RaceLog { width: 20; height: 4; }"

    def compose(self):
        yield CardRow()
        yield RaceLog()


async def test_card_row_fits_its_place_and_maps_clicks():
    app = Row()
    async with app.run_test(size=(50, 10)) as pilot:
        row = app.query_one(CardRow)
        row.show("hand", [Card(str(k + 1), (str(k + 2), "moves 5"), selected=k == 1) for k in range(5)])
        await pilot.pause()
        lines = screen_text(app).splitlines()
        assert lines[0].startswith("╭─ 1 ───╮┏━ 2 ━━━┓")  # five cards side by side, the second selected
        assert "moves 5" in lines[2]
        boxes = row.boxes()
        assert len(boxes) == 5 and boxes[-1][0] + boxes[-1][1] <= 45
        assert row.card_at(boxes[3][0] + 2) == 3
        # eight revealed cards shrink to fit; the BMX die box stays
        row.show("revealed", [Card("BS", ("9",)) for _ in range(8)])
        await pilot.pause()
        assert screen_text(app).splitlines()[1].count("9") == 8
        row.show("revealed", [Card("B>", ("3",))], die="2")
        await pilot.pause()
        assert "Die" in screen_text(app)
        row.clear()
        await pilot.pause()
        assert row.cards == () and "╭" not in screen_text(app).split("\n")[0]


async def test_race_log_shows_the_newest_lines_wrapped():
    app = Row()
    async with app.run_test(size=(50, 10)) as pilot:
        log = app.query_one(RaceLog)
        log.write_lines([f"line {k}" for k in range(10)])
        log.write("  slipstream: Blue Sprinteur 6 → 7")
        await pilot.pause()
        shown = [line[:20].rstrip() for line in screen_text(app).splitlines()[5:9]]
        assert shown == ["line 8", "line 9", "  slipstream: Blue", "    Sprinteur 6 → 7"]  # "6 → 7" stays whole
        log.scroll_lines(2)
        await pilot.pause()
        assert "more" in screen_text(app).splitlines()[8]


async def test_one_curtain_for_the_race_shown_again_for_each_player():
    """Building a curtain screen at every pass took most of the time between
    Enter and the curtain: the race keeps one, fills it for the next player,
    and lets it go with the race."""
    from flamme_tui.ui.scenarios import _play_round_by_keys

    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await new_race_menus(pilot, "classic")
        await pilot.press("ctrl+s")
        await settle(pilot)
        first = app.screen
        assert type(first).__name__ == "CurtainScreen" and "Pass to Blue" in screen_text(app)
        await pilot.press("enter", "1", "1", "1", "enter")
        await settle(pilot)
        assert app.screen is first and "Pass to Orange" in screen_text(app) and "Pass to Blue" not in screen_text(app)
        await _play_round_by_keys(pilot)
        await pilot.press("enter", "enter")
        await settle(pilot)
        assert app.screen is first and "Round 2" in screen_text(app)
        await pilot.press("q", "t")  # leave the race for the title menu
        await pilot.pause()
        assert not app.is_screen_installed(first) and not first.is_attached


@pytest.mark.parametrize("size", [(80, 24), (200, 60)])
async def test_a_large_window_draws_the_cards_large(size):
    """At 200x60 the cards stayed four lines tall in a panel of empty lines: a
    window at least 48 lines tall draws each card's value in big digits (the
    hand and the revealed cards); a smaller one keeps the compact cards."""
    from flamme_tui.ui.widgets.cards import big_digit

    app = FlammeApp(seed=9, autoplay=False, autosave=False)
    async with app.run_test(size=size) as pilot:
        await new_race_menus(pilot, "classic")
        await pilot.press("ctrl+s")
        await settle(pilot)
        await pilot.press("enter", "1")  # the curtain, the Sprinteur draws
        await settle(pilot)
        race = app.screen
        large = size[1] >= 48
        row = race.query_one("#cards", CardRow)
        assert row.size.height == (7 if large else 4)
        text = screen_text(app)
        if large:
            lines = text.splitlines()
            top = next(y for y, line in enumerate(lines) if "╭─ 1 " in line or "┏━ 1 " in line)
            x = lines[top].index("─ 1 ") - 1
            first = row.cards[0].data[2]
            big = big_digit("E" if first == 0 else str(first))
            assert [lines[top + 1 + k][x + 1:x + 8].strip() for k in range(3)] == [g.strip() for g in big]
        # the reveal: the played cards large too
        await pilot.press("1", "1", "enter")  # Blue's two cards, then pass
        await settle(pilot)
        await pilot.press("enter", "1", "1", "1", "enter")  # Orange
        await settle(pilot)
        assert race.query_one("#cards", CardRow).kind == "revealed"
        assert race.query_one("#cards", CardRow).size.height == (7 if large else 4)


async def test_a_card_selected_again_is_drawn_from_what_was_kept(monkeypatch):
    """Moving the selection back to a card shows a scene and a hint already
    drawn this turn: neither the track's rows nor the hint's lines are made again."""
    from textual.visual import Visual

    from flamme_tui.ui.widgets.lines import TextLines
    from flamme_tui.ui.widgets.track import TrackStrip

    rows: list[str] = []
    texts: list[str] = []
    row, to_strips = TrackStrip._row, Visual.to_strips

    def counting_row(self, kind, cols):
        rows.append(kind)
        return row(self, kind, cols)

    def counting_strips(widget, *args, **kwargs):
        if isinstance(widget, TextLines) and widget.id == "panel-hint":
            texts.append(str(widget.content))
        return to_strips(widget, *args, **kwargs)

    monkeypatch.setattr(TrackStrip, "_row", counting_row)
    monkeypatch.setattr(Visual, "to_strips", staticmethod(counting_strips))
    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await new_race_menus(pilot, "classic")
        await pilot.press("ctrl+s")
        await settle(pilot)
        await pilot.press("enter", "right", "enter")  # the curtain, a rider: its cards
        await settle(pilot)
        screen = app.screen
        assert screen.turn.kind == "pick"
        shown = []  # (the hint, the screen) at each of the first four cards
        for _ in range(4):
            await pilot.press("right")
            await settle(pilot)
            shown.append((screen.hint_w.content, screen_text(app)))
        # (the third and fourth cards take the rider to different squares: moving between them changes the screen)
        assert shown[2][0] != shown[3][0] and screen.sel == 3
        rows.clear()
        texts.clear()
        await pilot.press("left")  # back to the third card, then the second: both shown before
        await settle(pilot)
        assert screen_text(app) == shown[2][1]
        await pilot.press("left")
        await settle(pilot)
        assert screen_text(app) == shown[1][1]
        assert rows == [] and texts == []


async def test_the_bench_times_each_menu_key_by_the_screen_it_opens():
    """`python -m flamme_tui.ui.bench`: the menu keys to the teams screen are timed one by
    one and named by what they open; the race keys are timed apart from them."""
    from flamme_tui.ui.bench import _key_latency

    times = await _key_latency(1, (80, 24))
    menus = [kind for kind in times if kind.startswith("menu")]
    assert menus == ["menu: to VariantScreen", "menu: to StageScreen", "menu: to TeamsScreen", "menu: start the race"]
    assert all(len(times[kind]) == 1 for kind in menus)
    assert {"select a card", "confirm: play the card", "reveal: next round"} <= set(times)
