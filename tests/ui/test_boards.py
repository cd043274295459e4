"""The boards in words, against the engine: exhaustion cards held (received
and handicap, not yet played) and played, recycled cards summarised by value
without cutting, and the ✓ of a rider whose card for the round is down."""

from __future__ import annotations

import pytest

from flamme_tui.ui.app import FlammeApp
from flamme_tui.ui.scenarios import advance, choices, settle
from flamme_tui.ui.widgets.board import board_rows, summary

pytestmark = pytest.mark.usefixtures("fast_pilot")


def test_exhaustion_held_counts_received_and_handicap_cards_not_yet_played():
    race = choices("classic", 3, seed=21)
    race.seats[1].extra = 3  # a handicap: three exhaustion cards in each of Orange's decks
    session = race.session()
    game = session.game
    checked = 0
    for _ in range(12):
        advance(session, 1)
        if game.phase == "over":
            break
        for seat in range(3):
            view = game.view(seat)
            for row in board_rows(view, [t.name for t in game.setup.teams]):
                if row.seat != seat:
                    continue
                r = game.riders[row.index]
                held = (r.deck + r.recycled + r.hand).count(0) + (r.played == 0)
                assert row.exhaustion_held == held, (game.round, row.label)
                assert row.exhaustion_played == list(r.history).count(0)
                checked += 1
    assert checked > 50
    assert any(row.handicap == 3 for row in board_rows(game.view(1), ["a", "b", "c"]))


def test_recycled_cards_summarised_by_value_never_cut():
    assert summary([3, 3, 4, 0, 9, 0]) == "1×9 1×4 2×3 2×E"
    assert summary([]) == "-"


async def test_a_rider_whose_card_is_down_is_marked_for_everybody():
    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(100, 30)) as pilot:
        from .driver import new_race_menus

        await new_race_menus(pilot, "classic")
        await pilot.press("ctrl+s")
        await settle(pilot)
        await pilot.press("enter", "1", "1", "1", "enter")  # Blue plays both riders
        await settle(pilot)
        rows = app.screen.query_one("#curtain-boards").rows  # the public table behind Orange's curtain
        assert [r.ready for r in rows] == [r.seat == 0 for r in rows]
        assert "✓" in str(app.screen.query_one("#curtain-boards").render())
        await pilot.press("enter", "1", "1")  # Orange's first card down
        await settle(pilot)
        game = app.screen.flow.game
        rows = app.screen.boards.rows
        assert [r.ready for r in rows] == [game.riders[r.index].played is not None for r in rows]
        assert sum(r.ready for r in rows if r.seat == 1) == 1


async def test_six_teams_at_80x24_show_every_recycled_pile_whole():
    """Two compact columns (12 riders, 80x24): the recycled cards were cut with
    "…" once a pile grew ("55 44 33 222 …"); the team's name now gives way
    first, the rider's label (team letter and colour) still says whose row it is."""
    from flamme_tui.ui.scenarios import SCENARIOS
    from flamme_tui.ui.widgets.board import Boards

    def piled(cards) -> str:  # "9 5 44 333 E": each value as often as it is there, E last
        order = sorted(set(c for c in cards if c > 0), reverse=True) + [0] * (0 in cards)
        return " ".join(("E" if c == 0 else str(c)) * cards.count(c) for c in order) or "-"

    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await SCENARIOS["peloton-race"](pilot)
        await pilot.pause()
        boards = app.screen.query_one("#boards", Boards)
        assert boards.columns == 2 and len(boards.rows) == 12
        halves = [half for line in boards.lines()[1:] for half in line.split("│")]
        assert max(len(row.recycled) for row in boards.rows) >= 9  # long piles: the case that was cut
        for row in boards.rows:
            shown = next(h for h in halves if h[1:3] in (row.label, row.label.lower()))
            assert shown.rstrip().endswith(" " + piled(list(row.recycled))), (row.label, shown)


NAMES = ["李小龙车队", "Zoe\u0301 e\u0301\u0301", "🚴 Ana", "Plain", "日本のチーム名前です", "Équipe"]


def char_at(line: str, cell: int) -> str:
    """The character that covers terminal cell `cell` of `line`."""
    from flamme_tui.usertext import cells

    used = 0
    for ch in line:
        used += cells(ch)
        if used > cell:
            return ch
    return ""


@pytest.mark.parametrize("size, columns", [((120, 40), 1), ((80, 24), 2)])
async def test_wide_and_combining_names_keep_the_board_columns(size, columns):
    """Team names with wide characters (Chinese, Japanese, emoji) and combining
    accents are cut and padded by terminal cells: the columns after the names
    still stand under their headings (by `len`, a wide name pushed its row right)."""
    from textual.app import App

    from flamme_tui.ui.widgets.board import Boards
    from flamme_tui.usertext import cells

    session = choices("classic", 6, seed=5).session()
    advance(session, 2)
    rows = board_rows(session.game.view(0), NAMES)

    class One(App):
        def compose(self):
            yield Boards(id="b")

    app = One()
    async with app.run_test(size=size) as pilot:
        boards = app.query_one(Boards)
        boards.set_columns(columns, len(rows))
        boards.show(rows, "classic")
        await pilot.pause()
        head, *lines = boards.lines()
        assert len(lines) == len(rows) // columns
        if columns == 1:
            deck = cells(head[:head.index("Deck") + len("Deck")]) - 1  # the heading's last cell
            for line in lines:
                assert char_at(line, deck).isdigit(), line
        else:
            widths = {tuple(cells(half) for half in line.split("│")) for line in lines}
            assert len(widths) == 1, widths
        shown = "\n".join(lines)
        assert "李小龙" in shown and "Zoe\u0301" in shown and "🚴" in shown


@pytest.mark.parametrize("variant", ["classic", "bmx"])
@pytest.mark.parametrize("width", [80, 120])
async def test_the_to_go_heading_ends_where_its_numbers_do(variant, width):
    """"to go" ended one cell right of its numbers (the one-column board)."""
    from textual.app import App

    from flamme_tui.ui.widgets.board import Boards
    from flamme_tui.usertext import cells

    session = choices(variant, 4, seed=5).session()
    advance(session, 2)
    rows = board_rows(session.game.view(0), [t.name for t in session.game.setup.teams])

    class One(App):
        def compose(self):
            yield Boards(id="b")

    app = One()
    async with app.run_test(size=(width, 30)) as pilot:
        boards = app.query_one(Boards)
        boards.set_columns(1, len(rows))
        boards.show(rows, variant)
        await pilot.pause()
        head, *lines = boards.lines()
    last = cells(head[:head.index("to go") + len("to go")]) - 1  # the heading's last cell
    for line in lines:
        assert char_at(line, last).isdigit() and not char_at(line, last + 1).isdigit(), (head, line)


async def test_a_long_pile_in_the_left_column_never_runs_into_the_separator():
    """Issue 24 item 13: with six teams at 80x24 the longest recycled pile, in
    the left column, ended on the cell before the separator ("333│")."""
    from dataclasses import replace

    from textual.app import App

    from flamme_tui.ui.widgets.board import Boards

    session = choices("classic", 6, seed=5).session()
    advance(session, 2)
    rows = board_rows(session.game.view(0), ["Vermilion", "Blue", "Green", "Sky blue", "Purple", "Orange"])
    rows[0] = replace(rows[0], recycled=(7, 6, 6, 5, 5, 4, 4, 4, 3, 3, 3, 0))  # the longest pile, left

    class One(App):
        def compose(self):
            yield Boards(id="b")

    app = One()
    async with app.run_test(size=(80, 24)) as pilot:
        boards = app.query_one(Boards)
        boards.set_columns(2, len(rows))
        boards.show(rows, "classic")
        await pilot.pause()
        for line in boards.lines()[1:]:
            assert line.split("│")[0].endswith(" "), line
        assert "7 66 55 444 333 E │" in boards.lines()[1]  # whole, then a blank
