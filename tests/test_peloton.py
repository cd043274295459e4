"""The Peloton expansion in the engine (rules/PELOTON.md): six teams, the
worked examples of its setup (scripted grid, six teams, the breakaway, nine
players, a scripted deck that runs out), the solo handicap, scripted teams
in meteo, and races on every Peloton stage."""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest

from flamme_tui.bots import POLICIES
from flamme_tui.engine.actions import Bid, Draw, Play
from flamme_tui.engine.cards import ATTACK, EXHAUSTION, MUSCLE, NOWHERE, PELOTON, card_text
from flamme_tui.engine.classic import BREAKAWAY, ENERGY, GRID, RuleError
from flamme_tui.engine.events import BidsRevealed, Breakaway
from flamme_tui.engine.race import Team
from flamme_tui.engine.track import LANES
from flamme_tui.engine.turns import turns
from flamme_tui.play.narrator import event_line
from flamme_tui.play.races import COLOURS, RaceSpec, make_setup, new_game, play_out


def teams(*colours: str) -> tuple[Team, ...]:
    return tuple(Team(c.capitalize(), c) for c in colours)


def setup_of(stage: str, colours, scripted=(), **extra):
    spec = RaceSpec(stage=stage, teams=teams(*colours), scripted=tuple(scripted), **extra)
    return make_setup(spec)


def at(game, rid: str) -> tuple[int, int]:
    return tuple(game.pos[game.index[rid]])


def easy_round(game) -> None:
    for seat in turns(game):
        game.apply(POLICIES["easy"](game.view(seat)))


# --------------------------------------------------------------- six teams


def test_six_colours_race_and_a_seventh_is_refused():
    assert COLOURS == ("red", "blue", "green", "black", "white", "pink")
    game = new_game(setup_of("peloton-7", COLOURS), 1)
    assert len(game.riders) == 12 and {r.id.split(".")[0] for r in game.riders} == set(COLOURS)
    # six colours race the 5-6 version, on its start of 15 places
    assert game.course.name == "Peloton 7 (5-6 teams)" and game.course.tiles[0].letter == "_1"
    with pytest.raises(ValueError, match="at most 6"):
        new_game(dataclasses.replace(game.setup, teams=teams(*COLOURS, "orange")), 1)


def test_a_base_stage_raced_by_five_teams_starts_on_tile_1():
    # PELOTON.md, worked example 2: La Classicissima (8 places) raced by 5 teams starts on `1`
    game = new_game(setup_of("la-classicissima", COLOURS[:5]), 3)
    course = game.course
    assert course.tiles[0].letter == "1" and course.length == 78 and course.finish == 73
    assert sum(course.lanes[: course.grid]) == 12
    assert all(0 <= game.pos[i][0] < course.grid for i in range(10))


def test_four_colours_race_the_2_4_version_even_when_the_5_6_one_is_asked_for():
    game = new_game(setup_of("peloton-9-5-6", COLOURS[:3]), 1)
    assert game.course.name == "Peloton 9 (2-4 teams)" and game.course.tiles[0].letter == "A"


@pytest.mark.parametrize("stage", [f"peloton-{n}{v}" for n in range(7, 13) for v in ("", "-5-6")])
def test_a_six_team_race_on_every_peloton_stage_ends(stage):
    game = new_game(setup_of(stage, COLOURS), 5)
    play_out(game, {seat: POLICIES["easy"] for seat in range(6)})
    assert game.phase == "over" and game.winner is not None
    cells = [c for c in game.cells if c >= 0]
    assert sorted(cells) == list(range(12))  # nobody lost or doubled


# ---------------------------------------------------- scripted teams: grid


def run_dry(game, seat: int) -> None:
    """Empty the scripted seat's decks (and what they turned up this round)."""
    for i in game.seats[seat]:
        r = game.riders[i]
        r.deck.clear()
        r.recycled = ()



def test_worked_example_1_scripted_grid_on_stage_7():
    # white Peloton, pink Muscle, red and blue players; a second Muscle (black)
    setup = setup_of("peloton-7", ("white", "pink", "red", "blue"), (PELOTON, MUSCLE, "", ""), grid="choose")
    game = new_game(setup, 1)
    assert game.course.tiles[0].letter == "a"
    assert at(game, "white.S") == (4, 0) and at(game, "white.R") == (3, 0)
    assert at(game, "pink.S") == (4, 1) and at(game, "pink.R") == (3, 1)
    assert sorted(game.grid_places()) == [(sq, lane) for sq in range(3) for lane in range(2)]
    setup = setup_of("peloton-7", ("white", "pink", "red", "black"), (PELOTON, MUSCLE, "", MUSCLE), grid="choose")
    game = new_game(setup, 1)
    assert at(game, "black.S") == (2, 0) and at(game, "black.R") == (1, 0)


def test_worked_example_2_six_teams_on_stage_9_5_6():
    colours = ("white", "pink", "black", "red", "blue", "green")
    setup = setup_of("peloton-9-5-6", colours, (PELOTON, MUSCLE, MUSCLE, "", "", ""))
    game = new_game(setup, 4)
    assert game.course.tiles[0].letter == "1"
    want = {"white.S": (3, 0), "white.R": (2, 0), "pink.S": (3, 1), "pink.R": (2, 1),
            "black.S": (3, 2), "black.R": (2, 2)}
    assert {rid: at(game, rid) for rid in want} == want
    players = [r.id for r in game.riders if r.seat >= 3]
    assert sorted(at(game, rid)[0] for rid in players) == [0, 0, 0, 1, 1, 1]


def test_the_first_release_reading_of_the_grid_replays_old_races():
    # races saved by flamme-tui 0.1.0 (tests/data/saves) put both riders on the front square
    setup = dataclasses.replace(setup_of("avenue-corso-paseo", ("red", "blue"), (PELOTON, "")), scripted_readings=1)
    game = new_game(setup, 1)
    assert at(game, "red.S") == (4, 0) and at(game, "red.R") == (4, 1)
    # and played an exhaustion card from the supply once out of cards
    run_dry(game, 0)
    easy_round(game)
    assert [game.riders[i].played for i in game.seats[0]] == [EXHAUSTION, EXHAUSTION]


# ------------------------------------------------- scripted teams: cards


@pytest.mark.parametrize("script", [PELOTON, MUSCLE])
def test_a_scripted_deck_that_runs_out_moves_by_a_2_from_nowhere(script):
    game = new_game(setup_of("avenue-corso-paseo", ("red", "blue"), (script, "")), 2)
    run_dry(game, 0)
    easy_round(game)  # the cards turned up at the start still play; the next ones come from nowhere
    mine = game.seats[0]
    assert [game.riders[i].played for i in mine] == [NOWHERE, NOWHERE]
    starts = {i: game.pos[i][0] for i in mine}
    piles = {i: (list(game.riders[i].deck), game.riders[i].recycled) for i in mine}
    easy_round(game)
    for i in mine:
        move = next(e for e in game.events if e.kind == "move" and e.rider == i)
        assert move.value == 2 and move.card == NOWHERE and move.start == starts[i]
        r = game.riders[i]
        assert (r.deck, r.recycled) == piles[i] == ([], ())  # no card added to any pile
        assert r.supply_played == 0 and r.history[-1] == NOWHERE
    assert card_text(NOWHERE) == "2"
    # others cannot place a card from nowhere: it is in nobody's unseen cards
    view = game.view(1)
    assert all(NOWHERE not in view.unseen(i) for i in mine)


def test_the_peloton_deck_lasts_17_rounds_muscle_16_and_15():
    game = new_game(setup_of("la-haut-montagne", ("red", "blue", "green"), (PELOTON, MUSCLE, "")), 1)
    peloton = game.riders[game.seats[0][0]]
    muscle_s, muscle_r = (game.riders[i] for i in game.seats[1])
    assert len(peloton.deck) + 1 == 17 and len(muscle_s.deck) + 1 == 16 and len(muscle_r.deck) + 1 == 15


def test_a_scripted_rider_turns_up_one_card_whatever_the_weather():
    setup = make_setup(RaceSpec(variant="meteo", stage="firenze-milano", teams=teams("red", "blue"),
                                scripted=(MUSCLE, "")))
    setup = dataclasses.replace(setup, weather_tokens=("tailwind",) * 13)
    game = new_game(setup, 3)
    a, b = game.seats[0]
    for i in (a, b):  # stand them on a tailwind square: a player there would draw 5
        sq, lane = game.pos[i]
        game.cells[sq * LANES + lane] = -1
    tail = game.course.weather.index("tailwind")
    game.place(a, tail, 0)
    game.place(b, tail, 1)
    assert game.draw_size(a) == 5
    game.riders[a].played = game.riders[b].played = None
    decks = [len(game.riders[i].deck) for i in (a, b)]
    game.begin_energy()
    assert [len(game.riders[i].deck) for i in (a, b)] == [d - 1 for d in decks]
    assert all(game.riders[i].played is not None and not game.riders[i].hand for i in (a, b))


def test_scripted_teams_race_meteo_and_crash_like_anyone():
    setup = make_setup(RaceSpec(variant="meteo", stage="peloton-9", teams=teams("red", "blue", "green"),
                                scripted=(PELOTON, "", MUSCLE)))
    game = new_game(setup, 8)
    play_out(game, {1: POLICIES["easy"]})
    assert game.phase == "over"


def test_the_solo_handicap_is_three_exhaustion_cards_two_for_the_rouleur():
    game = new_game(setup_of("avenue-corso-paseo", ("red", "blue", "green"), ("", PELOTON, MUSCLE)), 1)
    s, r = (game.riders[i] for i in game.seats[0])
    assert Counter(s.deck + list(s.hand))[EXHAUSTION] == 1
    assert Counter(r.deck + list(r.hand))[EXHAUSTION] == 2
    # scripted teams take none, and two teams of players are no solo game
    for seat in (1, 2):
        assert all(EXHAUSTION not in game.riders[i].deck for i in game.seats[seat])
    for scripted in (("", MUSCLE, MUSCLE), ("", PELOTON), ("", "", PELOTON, MUSCLE)):
        colours = COLOURS[: len(scripted)]
        other = new_game(setup_of("avenue-corso-paseo", colours, scripted), 1)
        assert all(EXHAUSTION not in other.riders[i].deck for i in range(len(other.riders)))


def test_attack_with_both_riders_on_one_square_moves_lane_0_by_2():
    # PELOTON.md, worked example 5: Peloton riders on (20, 0) and (20, 1)
    game = new_game(setup_of("avenue-corso-paseo", ("white", "red"), (PELOTON, "")), 2)
    s, r = game.seats[0]
    x, y = game.seats[1]
    for i in (s, r, x, y):
        sq, lane = game.pos[i]
        game.cells[sq * LANES + lane] = -1
        game.pos[i] = [-1, -1]
    game.place(r, 20, 0)
    game.place(s, 20, 1)
    game.place(x, 3, 0)
    game.place(y, 3, 1)
    game.riders[s].played = game.riders[r].played = ATTACK
    easy_round(game)
    moves = {e.rider: e.value for e in game.events if e.kind == "move"}
    assert moves[r] == 2 and moves[s] == 9


# ------------------------------------------------------------- breakaway


def stack(game, rid: str, top: list[int]) -> None:
    """Put these cards on top of the rider's deck (top first), the rest below."""
    deck = game.riders[game.index[rid]].deck
    for card in top:
        deck.remove(card)
    deck.extend(reversed(top))


def bid_out(game, bot: str) -> None:
    """The bots make every bid (and nothing after it)."""
    while game.phase == BREAKAWAY:
        seat = game.to_move()[0]
        game.apply(POLICIES[bot](game.view(seat)))


def test_worked_example_3_breakaway_on_stage_8():
    colours = ("red", "blue", "green", "black", "white")
    setup = setup_of("peloton-8", colours, grid="choose", breakaway=True)
    game = new_game(setup, 7)
    assert game.course.name == "Peloton 8 (5-6 teams)" and game.course.breakaway == 9
    grid = {"red.R": (4, 0), "blue.S": (4, 1), "green.R": (2, 0), "black.S": (3, 2), "white.R": (1, 1)}
    others = iter([(4, 2), (3, 0), (3, 1), (2, 1), (2, 2)])
    while game.phase == GRID:
        i = game.to_place()
        rid = game.riders[i].id
        game.apply(f"place {rid} {' '.join(map(str, grid.get(rid) or next(others)))}")
    assert game.phase == BREAKAWAY and game.to_move() == [0, 1, 2, 3, 4]
    bids = {"red.R": (7, 6), "blue.S": (9, 5), "green.R": (7, 7), "black.S": (9, 9), "white.R": (5, 4)}
    decks_before = {rid: Counter(game.riders[game.index[rid]].deck) for rid in bids}
    for rid, (first, second) in bids.items():
        stack(game, rid, [first, 3 if rid.endswith("R") else 2, 4, 5, second])
    for rid, (first, _) in bids.items():
        game.apply(Draw(rid))
        game.apply(Bid(rid, first))
    assert isinstance(game.events[0], BidsRevealed) and game.events[0].bid == 1
    assert [c for _, c in game.events[0].cards] == [7, 9, 7, 9, 5]
    # the second draw: each bidder's next 4 cards, the second bid on top
    for rid, (_, second) in bids.items():
        game.apply(Bid(rid, second))
    assert game.phase == ENERGY
    result = next(e for e in game.events if isinstance(e, Breakaway))
    black, green = game.index["black.S"], game.index["green.R"]
    assert result.winners == (black, green) and result.square == 9
    assert at(game, "black.S") == (9, 0) and at(game, "green.R") == (9, 1)
    # their grid places stay empty, nobody moves up
    assert game.cells[3 * LANES + 2] == -1 and game.cells[2 * LANES + 0] == -1
    assert at(game, "red.R") == (4, 0) and at(game, "white.R") == (1, 1)
    # black.S lost its two 9s, took 2 exhaustion cards: a 15-card deck
    b = game.riders[black]
    have = Counter(b.deck) + Counter(b.hand) + Counter(b.recycled)
    assert have == Counter([2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 9, EXHAUSTION, EXHAUSTION])
    assert b.exhaustion == 2 and b.bids == [9, 9]
    g = game.riders[green]
    assert Counter(g.deck) + Counter(g.hand) == decks_before["green.R"] - Counter([7, 7]) + Counter({EXHAUSTION: 2})
    # the others took their bids back: every card, reshuffled into one face-down deck
    for rid in ("red.R", "blue.S", "white.R"):
        r = game.riders[game.index[rid]]
        assert Counter(r.deck) + Counter(r.hand) == decks_before[rid] and r.bids == [] and r.recycled == ()
    text = event_line(result, lambda i: game.riders[i].id)
    assert text.startswith("breakaway: black.S 9+9 = 18, green.R 7+7 = 14, blue.S 9+5 = 14")
    assert "black.S and green.R break away" in text


def test_one_winner_with_four_teams_and_ties_go_to_the_higher_lane():
    setup = setup_of("peloton-7", ("red", "blue", "green", "black"), breakaway=True, grid="choose")
    game = new_game(setup, 3)
    spots = {"red.S": (4, 0), "blue.S": (4, 1)}
    free = iter([(3, 0), (3, 1), (2, 0), (2, 1), (1, 0), (1, 1)])
    while game.phase == GRID:
        rid = game.riders[game.to_place()].id
        game.apply(f"place {rid} {' '.join(map(str, spots.get(rid) or next(free)))}")
    for rid in ("red.S", "blue.S", "green.S", "black.S"):
        stack(game, rid, [5, 2, 2, 2, 5] if rid in spots else [2, 3, 3, 3, 2])
        game.apply(f"draw {rid}")
        game.apply(f"bid {rid} {5 if rid in spots else 2}")
    for rid in ("red.S", "blue.S", "green.S", "black.S"):
        game.apply(f"bid {rid} {5 if rid in spots else 2}")
    # red.S and blue.S tie at 10 on square 4: blue.S is in the higher lane
    assert game.phase == ENERGY
    assert at(game, "blue.S") == (9, 0) and at(game, "red.S") == (4, 0)
    result = next(e for e in game.events if isinstance(e, Breakaway))
    assert len(result.winners) == 1


def test_scripted_teams_count_for_two_winners_but_do_not_bid():
    setup = setup_of("peloton-10-5-6", ("white", "pink", "red", "blue", "green"), (PELOTON, MUSCLE, "", "", ""),
                     breakaway=True)
    game = new_game(setup, 11)
    assert game.phase == BREAKAWAY and game.to_move() == [2, 3, 4]
    assert game.legal_actions(0) == [] and game.legal_actions(1) == []
    with pytest.raises(RuleError):
        game.apply(Draw("white.S"))
    bid_out(game, "medium")
    result = next(e for e in game.events if isinstance(e, Breakaway))
    assert len(result.bids) == 3 and len(result.winners) == 2  # five teams race
    assert [tuple(game.pos[i]) for i in result.winners] == [(9, 0), (9, 1)]


def test_a_bid_is_hidden_until_revealed_and_the_board_shows_no_draw():
    setup = setup_of("peloton-7", ("red", "blue"), breakaway=True)
    game = new_game(setup, 5)
    before = game.view(1)
    game.apply("draw red.R")
    card = game.riders[game.index["red.R"]].hand[0]
    game.apply(f"bid red.R {'E' if card == 0 else card}")
    other = game.view(1)
    # blue sees neither red's bid nor the 3 cards red put face up (until the reveal)
    assert other.board.riders[game.index["red.R"]].recycled == before.board.riders[game.index["red.R"]].recycled
    assert other.board.riders[game.index["red.R"]].bids == ()
    assert other.chosen == {} and other.hands == {}
    assert game.view(0).chosen == {game.index["red.R"]: card}
    game.apply("draw blue.S")
    game.apply(f"bid blue.S {game.riders[game.index['blue.S']].hand[0] or 'E'}")
    # revealed together: both see both bids and the recycled cards
    shown = game.view(1).board.riders
    assert shown[game.index["red.R"]].bids == (card,) and len(shown[game.index["red.R"]].recycled) == 3


def test_the_set_up_says_how_many_break_away():
    """Two winners from breakaway_pair_from teams on (scripted ones count), else one:
    the engine's own count, which the bidding screen says before the bids."""
    four = setup_of("peloton-8", ("red", "blue", "green", "black"), breakaway=True)
    five = setup_of("peloton-8", ("red", "blue", "green", "black", "white"), breakaway=True)
    assert (four.breakaway_winners, five.breakaway_winners) == (1, 2)


def test_the_breakaway_is_offered_only_where_tile_2_is_second():
    with pytest.raises(ValueError, match="no breakaway square"):
        new_game(setup_of("avenue-corso-paseo", ("red", "blue"), breakaway=True), 1)


def test_a_race_with_the_breakaway_replays_from_its_actions():
    setup = setup_of("peloton-11-5-6", COLOURS, breakaway=True)
    game = new_game(setup, 21)
    play_out(game, {seat: POLICIES["medium" if seat % 2 else "easy"] for seat in range(6)})
    again = new_game(setup, 21)
    for action in game.actions:
        again.apply(action)
    assert again.state_key() == game.state_key() and again.phase == "over"


# ------------------------------------------------------- 7 to 12 players


def nine_players(**extra):
    """PELOTON.md, worked example 4: nine players in seat order."""
    riders = [(c, k) for c in ("red", "blue", "green", "black", "white") for k in "SR"][:9]
    return make_setup(RaceSpec(stage="peloton-8", teams=tuple(Team(f"P{n}", c, k) for n, (c, k) in
                                                               enumerate(riders, 1)), **extra))


def test_worked_example_4_nine_players_one_rider_each():
    setup = nine_players()
    game = new_game(setup, 3)
    assert [r.id for r in game.riders] == ["red.S", "red.R", "blue.S", "blue.R", "green.S", "green.R",
                                           "black.S", "black.R", "white.S"]
    assert game.course.name == "Peloton 8 (5-6 teams)" and game.course.tiles[0].letter == "_1"
    # every player draws 4 at once and keeps 1: no choice of who draws first
    assert game.phase == ENERGY and game.to_move() == list(range(9))
    for seat in range(9):
        (i,) = game.seats[seat]
        assert len(game.riders[i].hand) == 4
        assert all(type(a) is Play for a in game.legal_actions(seat))
    play_out(game, {seat: POLICIES["easy"] for seat in range(9)})
    assert game.phase == "over" and not any(type(a) is Draw for a in game.actions)


def test_nine_players_break_away_in_pairs():
    game = new_game(nine_players(breakaway=True), 4)
    assert game.phase == BREAKAWAY and game.to_move() == list(range(9))
    assert all(len(game.riders[i].hand) == 4 for i in range(9))  # drawn for their one rider
    bid_out(game, "easy")
    result = next(e for e in game.events if isinstance(e, Breakaway))
    assert len(result.winners) == 2 and len(result.bids) == 9


def test_one_rider_seats_are_checked():
    base = nine_players()
    bad = [
        (base.teams + (Team("X", "red", "S"),), "same rider"),
        (base.teams[:8] + (Team("X", "white", "SR"),), "every seat races a team, or every seat races one rider"),
        (base.teams[:8] + (Team("X", "orange", "S"), Team("Y", "pink", "R"), Team("Z", "grey", "S")), "colours"),
    ]
    for seats, words in bad:
        with pytest.raises(ValueError, match=words):
            new_game(dataclasses.replace(base, teams=seats), 1)
    with pytest.raises(ValueError, match="no scripted teams"):
        new_game(dataclasses.replace(base, scripted=(PELOTON,) + ("",) * 8), 1)


def test_a_lone_rider_seat_can_share_its_colour_with_a_rival():
    seats = (Team("Ann", "red", "S"), Team("Bob", "red", "R"), Team("Cy", "blue", "S"))
    game = new_game(make_setup(RaceSpec(stage="peloton-7", teams=seats)), 2)
    assert [r.id for r in game.riders] == ["red.S", "red.R", "blue.S"]
    assert [r.seat for r in game.riders] == [0, 1, 2]
    play_out(game, {seat: POLICIES["medium"] for seat in range(3)})
    places = game.outcome().places
    assert sorted(places) == [1, 2, 3]  # rivals: each is ranked on its own


# ------------------------------------------------------------ saves, replay


@pytest.mark.parametrize("spec", [
    RaceSpec(stage="peloton-8", teams=tuple(Team(c.capitalize(), c) for c in COLOURS), breakaway=True,
             grid="choose"),
    RaceSpec(stage="peloton-11", teams=tuple(Team(f"P{k}", c, kind) for k, (c, kind) in
                                             enumerate([(c, k) for c in COLOURS for k in "SR"][:10])),
             breakaway=True),
    RaceSpec(variant="meteo", stage="peloton-12", teams=tuple(Team(c.capitalize(), c) for c in COLOURS[:3]),
             scripted=("", PELOTON, MUSCLE)),
])
def test_a_peloton_race_saves_in_the_breakaway_and_resumes(spec, tmp_path):
    from flamme_tui import saves
    from flamme_tui.play.replay import frames
    from flamme_tui.play.session import Session

    bots = {seat: "easy" for seat in range(len(spec.teams)) if not (spec.scripted and spec.scripted[seat])}
    session = Session.new(spec, 13, bots=bots)
    game = session.game
    for _ in range(7):  # a few actions: the grid, into the breakaway
        seat = session.due()
        session.apply(POLICIES["easy"](game.view(seat)))
    path = saves.save(session, tmp_path / "race.json")
    back = saves.load(path)
    assert back.setup == session.setup and saves.state_digest(back.game) == saves.state_digest(game)
    while not back.over:
        back.play_bots()
    again = saves.load(saves.save(back, tmp_path / "done.json"))
    assert again.over and saves.state_digest(again.game) == saves.state_digest(back.game)
    titles = [f.title for f in frames(back.setup, back.seed, back.game.actions)]
    if spec.breakaway:
        assert "Breakaway, bid 1" in titles and "Breakaway" in titles
        assert titles.index("Breakaway") < titles.index("Round 1")


def test_the_replay_names_the_breakaways_square_as_the_race_does():
    """Issue 24 item 13: the replay said the breakaway goes "to 9" (the engine's
    square) where the race log says square 6 (the public number)."""
    from flamme_tui.play.narrator import label
    from flamme_tui.play.replay import frames

    setup = setup_of("peloton-11-5-6", COLOURS, breakaway=True)
    game = new_game(setup, 21)
    play_out(game, {seat: POLICIES["easy"] for seat in range(6)})
    square = game.course.breakaway
    public = label(game.course, square)
    assert public != str(square)  # the grid before square 1: the two numbers differ
    lines = [line for f in frames(setup, 21, game.actions) for line in f.log if "away to" in line]
    assert lines and all(line.endswith(f"away to {public}") for line in lines), lines
