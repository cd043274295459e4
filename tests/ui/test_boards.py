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
                held = (r.deck + list(r.recycled) + list(r.hand)).count(0) + (r.played == 0)
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


def piled(cards, counted: bool = False) -> str:
    """ "9 5 4 4 3 3 3 E": each card apart, E last; counted: "9 5 2×4 3×3 E"."""
    order = sorted(set(c for c in cards if c > 0), reverse=True) + [0] * (0 in cards)
    name = {c: "E" if c == 0 else str(c) for c in order}
    if counted:
        return " ".join(name[c] * cards.count(c) if c == 0 or cards.count(c) == 1 else f"{cards.count(c)}×{name[c]}"
                        for c in order) or "-"
    return " ".join(" ".join([name[c]] * cards.count(c)) for c in order) or "-"


def team_rows_check(lines: list[str], rows, names: list[str]) -> None:
    """The boards' rows of six teams at 80x24: a row a team, its name whole
    (the text between the ▸ cell and the Sprinteur's label), each recycled pile
    whole (each card apart, or counted when the row has no room for that)."""
    shown = "\n".join(lines)
    assert all(name in shown for name in names), shown
    assert len(lines) == 1 + len(rows) // 2, lines
    for k, name in enumerate(names):
        line = lines[1 + k]
        s_row, r_row = rows[2 * k], rows[2 * k + 1]
        s_at = line.index(f" {s_row.label} " if not s_row.crashed else f" {s_row.label.lower()}")
        assert line[1:s_at].rstrip() == name, (name, line)  # not "Vermi…"
        r_at = line.index(f" {r_row.label} " if not r_row.crashed else f" {r_row.label.lower()}", s_at + 3)
        for row, shown in ((s_row, line[s_at:r_at]), (r_row, line[r_at:])):
            cards = list(row.recycled)
            assert shown.rstrip().endswith((" " + piled(cards), " " + piled(cards, counted=True))), (row.label, line)
        assert "…" not in line, line


@pytest.fixture
def speak():
    from flamme_tui import i18n

    yield i18n.set_language
    i18n.set_language("en")


@pytest.mark.parametrize("lang", ["en", "fr", "es"])
async def test_six_teams_at_80x24_show_every_team_name_whole(lang, speak):
    """Issue 24 item 13: with six teams at 80x24 the boards, two rider rows of
    a team in two narrow columns, cut the names ("Vermi…", in French and
    Spanish more of them); a row a team now shows each name once, whole, and
    every recycled pile whole (it was cut once piles grew: "55 44 33 222 …")."""
    from flamme_tui.ui.scenarios import SCENARIOS
    from flamme_tui.ui.widgets.board import Boards

    speak(lang)
    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await SCENARIOS["peloton-race"](pilot)
        await pilot.pause()
        boards = app.screen.query_one("#boards", Boards)
        assert boards.columns == 2 and len(boards.rows) == 12 and boards.size.width == BOARDS_AT_80
        assert max(len(row.recycled) for row in boards.rows) >= 9  # long piles, round 4
        names = [seat.team_name() for seat in app.choices.seats]
        assert "Vermillion" in names or "Vermillon" in names or "Bermellón" in names
        team_rows_check(boards.lines(), boards.rows, names)


BOARDS_AT_80 = 79  # the race screen's boards at 80x24 (a margin on their left)


def boards_app(width: int | None = None):
    """An app showing the boards alone (`width` cells wide, else the window's)."""
    from textual.app import App

    from flamme_tui.ui.widgets.board import Boards

    class One(App):
        CSS = f"Boards {{ width: {width}; }}" if width else ""

        def compose(self):
            yield Boards(id="b")

    return One()


async def shown_lines(rows, variant: str, columns: int, supply: int | None = None) -> list[str]:
    """The lines the boards show of `rows` at 80 columns, in `columns` columns."""
    from flamme_tui.ui.widgets.board import Boards

    app = boards_app()
    async with app.run_test(size=(80, 30)) as pilot:
        boards = app.query_one(Boards)
        boards.set_columns(columns, len(rows))
        boards.show(rows, variant, supply=supply)
        await pilot.pause()
        return boards.lines()


@pytest.mark.parametrize("lang", ["en", "fr", "es"])
async def test_six_teams_names_stay_whole_through_whole_races(lang, speak):
    """Every round of whole six-team races (piles grow, riders cross the line),
    the boards at the width the race screen gives them at 80x24: no name cut,
    no pile cut."""

    from flamme_tui.ui.widgets.board import Boards

    speak(lang)

    drawn = 0
    async with boards_app(BOARDS_AT_80).run_test(size=(80, 24)) as pilot:
        boards = pilot.app.query_one(Boards)
        boards.set_columns(2, 12)
        for stage, seed in (("peloton-9-5-6", 3), ("la-haut-montagne", 11), ("avenue-corso-paseo", 5)):
            race = choices("classic", 6, seed=seed, stage=stage)
            names = [seat.team_name() for seat in race.seats]
            session = race.session()
            while session.game.phase != "over":
                advance(session, 1)
                rows = board_rows(session.game.view(0), names)
                boards.show(rows, "classic")
                await pilot.pause()
                team_rows_check(boards.lines(), rows, names)
                drawn += 1
    assert drawn > 30


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

    from flamme_tui.ui.widgets.board import Boards
    from flamme_tui.usertext import cells

    session = choices("classic", 6, seed=5).session()
    advance(session, 2)
    rows = board_rows(session.game.view(0), NAMES)

    app = boards_app()
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
        else:  # a row a team: each rider's label in the same cell on every row
            at = {tuple(cells(line[:line.index(row.label)]) for row in rows[2 * k:2 * k + 2])
                  for k, line in enumerate(lines)}
            assert len(at) == 1, (at, lines)
        shown = "\n".join(lines)
        assert "李小龙" in shown and "Zoe\u0301" in shown and "🚴" in shown


@pytest.mark.parametrize("variant", ["classic", "bmx"])
@pytest.mark.parametrize("width", [80, 120])
async def test_the_to_go_heading_ends_where_its_numbers_do(variant, width):
    """"to go" ended one cell right of its numbers (the one-column board)."""

    from flamme_tui.ui.widgets.board import Boards
    from flamme_tui.usertext import cells

    session = choices(variant, 4, seed=5).session()
    advance(session, 2)
    rows = board_rows(session.game.view(0), [t.name for t in session.game.setup.teams])

    app = boards_app()
    async with app.run_test(size=(width, 30)) as pilot:
        boards = app.query_one(Boards)
        boards.set_columns(1, len(rows))
        boards.show(rows, variant)
        await pilot.pause()
        head, *lines = boards.lines()
    last = cells(head[:head.index("to go") + len("to go")]) - 1  # the heading's last cell
    for line in lines:
        assert char_at(line, last).isdigit() and not char_at(line, last + 1).isdigit(), (head, line)


async def test_piles_show_each_card_plainly_one_card():
    """A playtest: piles too long for the team's row were written without their
    spaces, and cards packed together read as other numbers ("666", "7 44",
    "5 22": forty-four).  Each card is written apart where the row has room;
    else a value held more than once is counted ("3×6", as the wide boards
    count), then a team's riders are one blank apart; only then does the
    name give way (issue 24 item 13: the names stay whole through whole races,
    test above).  The piles are never cut."""
    from dataclasses import replace

    from flamme_tui.ui.widgets.board import Boards

    session = choices("classic", 6, seed=5).session()
    advance(session, 2)
    names = ["Vermillion", "Blue", "Green", "Sky blue", "Purple", "Orange"]
    rows = board_rows(session.game.view(0), names)
    rows[0] = replace(rows[0], recycled=(6, 6, 6))  # the playtest's piles
    rows[1] = replace(rows[1], recycled=(7, 4, 4))
    rows[2] = replace(rows[2], recycled=(5, 2, 2))

    async with boards_app(BOARDS_AT_80).run_test(size=(80, 24)) as pilot:
        boards = pilot.app.query_one(Boards)
        boards.set_columns(2, len(rows))
        boards.show(rows, "classic")
        await pilot.pause()
        lines = boards.lines()
        team_rows_check(lines, rows, names)
        assert " 6 6 6  " in lines[1] and lines[1].endswith(" 7 4 4") and " 5 2 2 " in lines[2], lines[1:3]
        long = (7, 6, 6, 5, 5, 4, 4, 4, 3, 3, 3, 0, 0)
        boards.show([replace(rows[0], recycled=long), replace(rows[1], recycled=long)] + rows[2:], "classic")
        await pilot.pause()
        line = boards.lines()[1]
        assert "7 2×6 2×5 3×4 3×3 EE  BR" in line and line.endswith(" 7 2×6 2×5 3×4 3×3 EE"), line
        assert line.startswith("▸Ver") and "…" in line.split(" BS ")[0], line  # the name gave way, the label says whose
        assert len(line) <= BOARDS_AT_80


@pytest.mark.parametrize("lang", ["en", "es"])
async def test_long_names_of_six_teams_leave_the_heading_on_one_line_and_every_team_shown(lang, speak):
    """Six long names at the start (every pile empty, shorter than its heading):
    the heading row ran past 79 cells, wrapped, and the sixth team's row fell off
    the boards.  The heading is as long as a rider row at most; a name gives way."""

    from flamme_tui.ui.widgets.board import Boards

    speak(lang)
    session = choices("classic", 6, seed=5).session()
    names = ["Alexandrina Montgomery-Smythe", "Bartolomeo", "Constantino Fernandez", "Dorotea",
             "Jean-Baptiste Delacroix-Dupont", "Guadalupe Hernandez"]
    rows = board_rows(session.game.view(0), names)

    async with boards_app(BOARDS_AT_80).run_test(size=(80, 24)) as pilot:
        boards = pilot.app.query_one(Boards)
        boards.set_columns(2, len(rows))
        boards.show(rows, "classic")
        await pilot.pause()
        lines = boards.lines()
        assert len(lines) == 7 and all(len(line.rstrip()) <= BOARDS_AT_80 for line in lines), lines
        assert lines[0].rstrip().endswith(_heading_end(lang)), lines[0]
        assert "Guadalupe Hernandez" in lines[6] and "Alexandrina Montgomer" in lines[1] and "…" in lines[1]
        # as drawn: seven rows, the last team's among them
        from flamme_tui.ui.textshot import screen_text

        assert boards.region.height == 7
        drawn = screen_text(pilot.app).splitlines()[:7]
        assert "Guadalupe Hernandez" in drawn[6] and drawn[0].rstrip().endswith(_heading_end(lang)), drawn


def _heading_end(lang: str) -> str:
    return {"en": "Recycled", "es": "Recicladas"}[lang]


async def test_compact_columns_name_the_cards_played_they_show():
    """A review: ten riders at 120x40 in two compact columns showed the latest
    cards played after a "·" (`BS Ann 18 55 10 4/0 - · 4 4 3`) under a heading
    of "Dk E   Recycled" only.  The heading names them ("· Played") where the
    rows show them, in both columns; a narrow column shows none, nor names them."""
    from flamme_tui.ui.widgets.board import Boards

    session = choices("classic", 5, seed=5).session()
    advance(session, 3)
    rows = board_rows(session.game.view(0), ["Ann", "Bob", "Cy", "Di", "Ed"])
    async with boards_app(119).run_test(size=(120, 40)) as pilot:
        boards = pilot.app.query_one(Boards)
        boards.set_columns(2, len(rows))
        boards.show(rows, "classic")
        await pilot.pause()
        head, first = boards.lines()[:2]
        assert " · " in first.split("│")[0], first  # the cards played, shown
        assert head.count("Recycled · Played") == 2, head
    async with boards_app(79).run_test(size=(80, 24)) as pilot:
        boards = pilot.app.query_one(Boards)
        boards._teams_of_two = lambda: False  # (rider rows in two narrow columns, not a row a team)
        boards.set_columns(2, len(rows))
        boards.show(rows, "classic")
        await pilot.pause()
        head, first = boards.lines()[:2]
        assert "Played" not in head and " · " not in first, (head, first)


@pytest.mark.parametrize("lang", ["fr", "es"])
@pytest.mark.parametrize("columns", [1, 2])
async def test_board_headings_are_words_over_their_numbers(lang, columns, speak):
    """The Spanish boards read "Cs falta" and "Mz" (the French "Cs", "Pio.",
    "Pi"): the square, to go and deck columns are headed by words now
    ("Casilla", "faltan", "Mazo"; "Case", "Pioche"), each column as wide as its
    word, its numbers ending under the heading's end.  A review: the French compact
    boards' "Pio." is no word a player reads; "Pile" is, in the same cells ("Pioche"
    widened every rider's block and cut six teams' names at 80x24)."""
    from flamme_tui.ui.widgets.board import Boards
    from flamme_tui.usertext import cells

    speak(lang)
    session = choices("classic", 4, seed=5).session()
    advance(session, 2)
    rows = board_rows(session.game.view(0), [t.name for t in session.game.setup.teams])
    app = boards_app()
    async with app.run_test(size=(80, 30)) as pilot:
        boards = app.query_one(Boards)
        boards.set_columns(columns, len(rows))
        boards.show(rows, "classic")
        await pilot.pause()
        head, *lines = boards.lines()
    words = head.split()
    for code in ("Cs", "Mz", "Pi", "Pio.", "falta"):
        assert code not in words, head
    deck = {"fr": "Pile" if columns == 2 else "Pioche", "es": "Mazo"}[lang]
    headings = [deck] if columns == 2 else [deck, {"fr": "Case", "es": "Casilla"}[lang],
                                              {"fr": "reste", "es": "faltan"}[lang]]
    import re

    for heading in headings:
        for found in re.finditer(rf"\b{re.escape(heading)}\b", head):  # (two columns: a heading each)
            last = cells(head[:found.end()]) - 1
            for line in lines:
                assert char_at(line, last).isalnum() and char_at(line, last + 1) == " ", (heading, head, line)


LONG_NAMES = ["Les Grimpeurs", "Équipe Rapide", "Los Escaladores", "Sprint Club"]


def long_named_rows(variant: str, teams: int, rounds: int):
    """The board rows of a race of `teams` teams named LONG_NAMES, `rounds` rounds in."""
    c = choices(variant, teams, seed=7)
    for seat, name in zip(c.seats, LONG_NAMES):
        seat.name = name
    session = c.session()
    advance(session, rounds)
    return board_rows(session.game.view(0), [t.name for t in session.game.setup.teams])


@pytest.mark.parametrize("variant, teams, rounds", [("classic", 3, 8), ("bmx", 4, 4), ("bmx", 4, 0)])
@pytest.mark.parametrize("columns", [1, 2])
async def test_long_team_names_stay_whole_while_the_row_has_room_for_them(variant, teams, rounds, columns, speak):
    """A review: the boards cut team names ("Les Grim…") at a fixed width as the
    piles grew, with the row's end empty.  The name column is as wide as the
    longest name when the other columns, as wide as what they hold now, leave
    it room: cut (…) only when they do not."""
    speak("fr")
    lines = await shown_lines(long_named_rows(variant, teams, rounds), variant, columns)
    assert max(len(line) for line in lines) <= 80, lines
    for name in LONG_NAMES[:teams]:
        assert any(name in line for line in lines), (name, lines)


@pytest.mark.parametrize("columns", [1, 2])
async def test_bmx_and_exhaustion_headings_are_whole_words_at_80_columns(columns, speak):
    """A review: the Spanish BMX boards were headed "Bls Fat" and the classic ones
    "E tiene/jug.": codes, not words.  Where they fit (80 columns, four teams)
    the headings are whole words, each column as wide as its word."""
    speak("es")
    heads = {}
    for variant in ("bmx", "classic"):
        session = choices(variant, 4, seed=7).session()
        advance(session, 3)
        rows = board_rows(session.game.view(0), [t.name for t in session.game.setup.teams])
        heads[variant] = (await shown_lines(rows, variant, columns))[0]
    words = heads["bmx"].split()
    assert "Bolsa" in words and "Fatiga" in words and "Bls" not in words and "Fat" not in words, heads
    assert "jug." not in heads["classic"] and "Bls" not in heads["classic"], heads


@pytest.mark.parametrize("lang", ["en", "fr", "es"])
async def test_the_bmx_fatigue_supply_keeps_its_number_at_80_columns(lang, speak):
    """A review: with long names the BMX heading's "reserva de fichas de fatiga: 15" was cut
    before its number. Shorter words where the long ones do not fit, the number always."""
    speak(lang)
    head = (await shown_lines(long_named_rows("bmx", 4, 3), "bmx", 1, supply=37))[0]
    assert len(head) <= 80 and head.rstrip().endswith("37") and "…" not in head, head


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_the_heading_stays_put_through_a_race_at_a_given_width(lang, speak):
    """A review: the table's heading switched from its long form ("Exhaustion held/played")
    to its short one ("E held/played") mid-race, as the recycled piles and the cards played
    grew.  Its form is chosen from what the piles can reach in the race: at each width,
    the heading at round 1 is the heading at the race's end."""
    from flamme_tui.ui.widgets.board import Boards

    speak(lang)
    session = choices("classic", 4, seed=5).session()
    names = [t.name for t in session.game.setup.teams]
    rounds = []
    while session.game.phase != "over":
        rounds.append(board_rows(session.game.view(0), names))
        advance(session, 1)
    assert len(rounds) > 8 and max(len(summary(r.recycled)) for rows in rounds for r in rows) > len("Recycled")
    forms = set()
    for width in range(80, 100, 2):
        async with boards_app(width).run_test(size=(100, 30)) as pilot:
            boards = pilot.app.query_one(Boards)
            heads = []
            for rows in rounds:
                boards.show(rows, "classic")
                await pilot.pause()
                heads.append(tuple(boards.lines()[0].split()))
        assert len(set(heads)) == 1, (width, sorted(set(heads)))
        forms.add(heads[0])
    assert len(forms) == 2  # (both forms seen: long where the piles' widest leave room, short where not)


@pytest.mark.parametrize("lang", ["en", "es"])
async def test_the_recycled_piles_and_the_cards_played_stay_apart(lang, speak):
    """Two teams at 80x24: the longest recycled pile and the cards played were one cell
    apart ("2×2 4×E 9 9 5 4", read as one pile), and the latest cards lost their blank
    after the count ("(9) …5 5 4")."""
    import re

    from flamme_tui.ui.widgets.board import Boards

    speak(lang)
    async with boards_app(BOARDS_AT_80).run_test(size=(80, 24)) as pilot:
        boards = pilot.app.query_one(Boards)
        boards.set_columns(1, 4)
        race = choices("classic", 2, seed=5, stage="avenue-corso-paseo")
        names = [seat.team_name() for seat in race.seats]
        session = race.session()
        advance(session, 9)
        rows = board_rows(session.game.view(0), names)
        boards.show(rows, "classic")
        await pilot.pause()
        lines = boards.lines()[1:]
        for row, line in zip(rows, lines):
            pile = summary(row.recycled)
            assert line[line.index(pile) + len(pile):].startswith("  "), line
        counted = [line for line in lines if "…" in line]
        assert bool(counted) == (lang == "es"), lines  # (the Spanish headings leave the fewest cells)
        assert all(re.search(r"\(\d+\) … \S", line) for line in counted), counted


@pytest.mark.parametrize("variant", ["classic", "bmx"])
async def test_the_cards_played_start_under_their_heading(variant):
    """The heading "Played" and the cards under it start in the same column (BMX, with no
    recycled piles, had its heading a cell right of its tokens)."""
    from flamme_tui.ui.widgets.board import Boards

    rows = long_named_rows(variant, 2, 4)
    lines = await shown_lines(rows, variant, 1)
    at = lines[0].index("Played")
    assert len(lines) == 1 + len(rows), lines
    for row, line in zip(rows, lines[1:]):
        assert line[at - 1] == " " and line[at:].rstrip() == Boards._played(row, variant == "bmx"), lines
