"""The table model without Textual (issue 24): every turn kind of every rule
set, reached and left through `Table.choose` alone, which takes only what the
turn offered."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

from flamme_tui.engine.actions import Play
from flamme_tui.engine.options import Option
from flamme_tui.engine.phase import Phase
from flamme_tui.play import table as t
from flamme_tui.play.races import RaceSpec, Team
from flamme_tui.play.session import Session

TEAMS = tuple(Team(c.capitalize(), c) for c in ("red", "blue", "green", "black"))


def session(variant="classic", humans=2, seed=3, **spec) -> Session:
    n = 4
    bots = {seat: "easy" for seat in range(humans, n)}
    stage = {"stage": "peloton-7"} if spec.get("breakaway") else {}
    return Session.new(RaceSpec(variant=variant, teams=TEAMS[:n], **stage, **spec), seed, bots=bots)


def play(table: t.Table, rng: random.Random, limit=5000) -> dict[str, int]:
    """Race to the end through the table only: a random offered choice each
    time (the review passed, but now and then a card taken back); counts the kinds."""
    seen: dict[str, int] = {}
    for _ in range(limit):
        turn = table.turn()
        kind = type(turn).__name__
        seen[kind] = seen.get(kind, 0) + 1
        if isinstance(turn, t.Outcome):
            return seen
        if isinstance(turn, t.BotThinking):
            move = table.bot_move()
            decision = move.think()
            table.play_bot_move(move, decision.action, decision.public)
            continue
        if isinstance(turn, t.Reviewing):
            choice = t.TakeBack() if rng.random() < 0.1 and seen.get("TakeBack", 0) < 3 else t.PassReview()
            if isinstance(choice, t.TakeBack):
                seen["TakeBack"] = seen.get("TakeBack", 0) + 1
        elif isinstance(turn, t.Revealing):
            choice = t.Step(1) if t.Step(1) in turn.options else t.EndReveal()
        else:
            assert turn.options, turn
            choice = rng.choice(turn.options)
        table.choose(choice)
    raise AssertionError("the race did not end")


RULES = {
    # rule set -> its spec and the turn kinds it must show
    "classic": (dict(variant="classic", grid="choose"),
                {"Placing", "Curtain", "ChoosingFirst", "Picking", "Reviewing", "Revealing", "BotThinking",
                 "Outcome"}),
    "meteo": (dict(variant="meteo"), {"Curtain", "ChoosingFirst", "Picking", "Reviewing", "Revealing",
                                      "BotThinking", "Outcome"}),
    "bmx": (dict(variant="bmx"), {"Curtain", "Picking", "Reviewing", "Revealing", "BotThinking", "Outcome"}),
    "breakaway": (dict(variant="classic", breakaway=True),
                  {"Curtain", "ChoosingBidder", "Bidding", "BidsShown", "ChoosingFirst", "Picking", "Reviewing",
                   "Revealing", "BotThinking", "Outcome"}),
}


@pytest.mark.parametrize("rules", sorted(RULES))
def test_every_turn_kind_of_every_rule_set_through_the_table(rules):
    spec, kinds = RULES[rules]
    table = t.Table(session(**spec))
    seen = play(table, random.Random(rules))
    assert kinds <= set(seen), f"{rules}: never saw {kinds - set(seen)}"
    assert table.session.over and table.turn() == t.Outcome(tuple(table.game.ranking()), table.game.winner)


def _first(table: t.Table, kind: type, rng: random.Random):
    for _ in range(500):
        turn = table.turn()
        if isinstance(turn, kind):
            return turn
        if isinstance(turn, t.BotThinking):
            table.play_bots()
        elif isinstance(turn, t.Revealing):
            table.choose(t.EndReveal())
        elif isinstance(turn, t.Reviewing):
            table.choose(t.PassReview())
        else:
            table.choose(rng.choice(turn.options))
    raise AssertionError(f"no {kind.__name__}")


def test_choose_takes_only_what_the_turn_offered():
    rng = random.Random(1)
    table = t.Table(session(grid="choose"))
    placing = _first(table, t.Placing, rng)
    assert all(o.action.rider == table.game.riders[placing.rider].id for o in placing.options)
    with pytest.raises(t.NotOffered):
        table.choose(t.LiftCurtain(placing.seat))  # not a curtain
    picking = _first(table, t.Picking, rng)
    view = table.game.view(picking.seat)
    assert list(picking.options) == view.options(wind=True)  # the engine's options, previews and all
    rider_id = table.game.riders[picking.rider].id
    not_in_hand = next(c for c in range(2, 10) if c not in picking.hand)
    for wrong in (Option(Play(rider_id, not_in_hand)), t.PassReview(), t.EndReveal(), t.Step(1)):
        with pytest.raises(t.NotOffered):
            table.choose(wrong)
    other = next(i for i, r in enumerate(table.game.riders) if r.seat != picking.seat)
    with pytest.raises(t.NotOffered):  # another seat's rider
        table.option_for(Play(table.game.riders[other].id, 5))
    assert table.turn() == picking  # nothing was done
    table.choose(picking.options[0])
    after = table.turn()
    assert not isinstance(after, t.Picking) or after.rider != picking.rider


def test_the_curtain_shows_the_public_table_only():
    rng = random.Random(2)
    table = t.Table(session())
    curtain = _first(table, t.Curtain, rng)
    assert curtain.options == (t.LiftCurtain(curtain.seat),)
    board = curtain.board
    assert board == table.game.view((curtain.seat + 1) % 2).board  # the same for every seat: nothing of a hand
    table.choose(t.LiftCurtain(curtain.seat))
    turn = table.turn()
    assert isinstance(turn, t.ChoosingFirst) and turn.seat == curtain.seat


def test_a_review_takes_the_card_back_to_the_same_pick():
    rng = random.Random(4)
    table = t.Table(session())
    while True:
        picking = _first(table, t.Picking, rng)
        table.choose(picking.options[-1])
        if isinstance(table.turn(), t.Reviewing):
            break
    table.choose(t.TakeBack())
    assert table.turn() == picking


def test_the_table_imports_no_textual():
    code = ("import sys, flamme_tui.play.table\n"
            "assert not [m for m in sys.modules if m.split('.')[0] == 'textual']\n")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_each_turn_carries_the_view_it_may_show():
    """A seat's turn carries that seat's own view; every other turn the public
    view (no hand, no card down, no own piles): a renderer needs nothing else."""
    rng = random.Random(5)
    table = t.Table(session(grid="choose", humans=2))
    seen = set()
    for _ in range(400):
        turn = table.turn()
        if isinstance(turn, t.Outcome):
            break
        view = turn.view
        if isinstance(turn, (t.Placing, t.ChoosingFirst, t.Picking, t.Reviewing, t.ChoosingBidder, t.Bidding)):
            assert view.seat == turn.seat
            if isinstance(turn, t.Picking):
                assert view.hands[turn.rider] == turn.hand
        else:
            assert (view.hands, view.chosen, view.own, view.keep) == ({}, {}, {}, {}), type(turn).__name__
        seen.add(turn.kind)
        if isinstance(turn, t.BotThinking):
            table.play_bots()
        elif isinstance(turn, t.Revealing):
            table.choose(t.EndReveal())
        elif isinstance(turn, t.Reviewing):
            table.choose(t.PassReview())
        else:
            table.choose(rng.choice(turn.options))
    assert {"place", "curtain", "draw", "pick", "review", "reveal", "bot"} <= seen


def test_the_table_says_which_cards_are_down_and_what_each_seat_missed():
    """`ready`: riders whose card is down (public: that it is, not which);
    `since`: what the table saw since a seat last lifted its curtain (the
    rounds revealed, a card another seat changed, never its own)."""
    rng = random.Random(6)
    table = t.Table(session(humans=2))
    assert table.since(0) == () and table.since(1) == ()
    lifted: dict[int, int] = {}
    took_back = False
    for _ in range(600):
        turn = table.turn()
        if isinstance(turn, t.Curtain):
            table.choose(t.LiftCurtain(turn.seat))
            lifted[turn.seat] = lifted.get(turn.seat, 0) + 1
            since = table.since(turn.seat)
            if lifted[turn.seat] == 1:
                assert since == ()  # the first look: nothing missed
            else:
                rounds = [s for s in since if isinstance(s, t.RoundSeen)]
                assert len(rounds) == 1 and rounds[0].round == table.game.round - 1
                assert all(s.seat != turn.seat for s in since if isinstance(s, t.CardChanged))
                if took_back and turn.seat == 0:
                    assert t.CardChanged(1) in since
                    return
            continue
        if isinstance(turn, t.Picking):
            assert not table.ready() & set(turn.view.hands)
        if isinstance(turn, t.BotThinking):
            table.play_bots()
        elif isinstance(turn, t.Revealing):
            assert table.ready() == frozenset()
            table.choose(t.EndReveal())
        elif isinstance(turn, t.Reviewing):
            assert turn.rider in table.ready()  # its card is down
            if turn.seat == 1 and table.game.round >= 2 and not took_back:
                took_back = True
                table.choose(t.TakeBack())
            else:
                table.choose(t.PassReview())
        else:
            table.choose(rng.choice(turn.options))
    raise AssertionError("seat 0 never saw seat 1's change")


def test_a_breakaway_bid_is_reviewed_like_a_card():
    """Issue 24 item 10: the bid played at once goes under review; taking it back
    gives the same hand again, and nothing the bid led to (the bids face up) is
    shown before the seat passes."""
    rng = random.Random(5)
    table = t.Table(session(variant="classic", breakaway=True, humans=4))
    for _ in range(2):  # both bids of a seat's rider: the first, then the one that reveals the round's bids
        bidding = _first(table, t.Bidding, rng)
        table.choose(bidding.options[0])
        review = table.turn()
        assert isinstance(review, t.Reviewing) and review.seat == bidding.seat
        assert review.action == bidding.options[0].action
        table.choose(t.TakeBack())
        again = table.turn()
        assert again == bidding and again.hand == bidding.hand  # the same hand, the same choices
        table.choose(bidding.options[-1])
        assert table.turn().action == bidding.options[-1].action
        table.choose(t.PassReview())
    # the last seat's bid of a round: the bids face up only after its review
    for _ in range(20):
        turn = _first(table, t.Bidding, rng)
        table.choose(turn.options[0])
        assert isinstance(table.turn(), t.Reviewing)
        if table.flow.bids is not None:  # this bid revealed the round's bids: still under review
            table.choose(t.TakeBack())
            assert table.flow.bids is None and table.turn() == turn
            table.choose(turn.options[0])
            table.choose(t.PassReview())
            assert isinstance(table.turn(), t.BidsShown)
            return
        table.choose(t.PassReview())
    raise AssertionError("no bid revealed the bids")


def test_a_pick_says_who_will_be_in_the_wind():
    """Item 9: each card on offer carries the engine's Preview.wind, counting
    the seat's own card already down; the same answer whatever another seat holds."""
    from flamme_tui.engine.options import MAY, WIND

    rng = random.Random(2)
    seen: set[str] = set()
    second = 0
    for seed in range(3, 6):  # (150 picks; each race its own cards' chances of the wind: the table's cost)
        table = t.Table(session(seed=seed))
        picks = 0
        for _ in range(400):
            turn = table.turn()
            if isinstance(turn, t.Outcome):
                break
            if isinstance(turn, t.Picking):
                view = table.game.view(turn.seat)
                assert turn.wind == tuple(view.wind(turn.rider, o.action.card) for o in turn.options)
                if picks < 4:  # (the chances of the wind sample worlds: the table's cost, twice each time)
                    assert turn.wind == tuple(o.preview.wind for o in view.options(wind=True))
                picks += 1
                assert all(o.preview.wind == "" for o in view.options())  # the bots' options skip it
                for o, w in zip(turn.options, turn.wind):
                    assert w in (WIND, MAY, "")
                    assert w != WIND or (o.preview.front and not o.preview.finish)
                second += bool(view.chosen)
                seen.update(turn.wind)
            if isinstance(turn, t.BotThinking):
                move = table.bot_move()
                table.play_bot_move(move, move.think().action)
                continue
            options = turn.options
            table.choose(t.PassReview() if isinstance(turn, t.Reviewing) else
                         t.EndReveal() if isinstance(turn, t.Revealing) else rng.choice(options))
    assert {WIND, MAY, ""} <= seen and second > 10


@pytest.mark.parametrize("variant, spec", [("classic", {}), ("bmx", {}), ("classic", {"breakaway": True})])
def test_since_your_last_look_is_the_same_after_a_resume(variant, spec):
    """What the table saw lives in memory: a table opened on the same log (a
    resume) tells each seat at its curtain what it missed, the rounds revealed
    and the cards others took back, as the table that raced on would (the first
    look of a race excepted: nothing missed).  Opened in the middle of a turn,
    that turn's curtain comes again with nothing new behind it."""
    rng = random.Random(2)
    live = t.Table(session(variant, humans=3, **spec))
    compared = changes = mid_turn = 0
    for _ in range(3000):
        turn = live.turn()
        if isinstance(turn, t.Outcome):
            break
        s = live.session
        if isinstance(turn, t.Curtain):
            resumed = t.Table(Session(s.setup, s.seed, dict(s.bots), list(s.entries)))
            assert resumed.turn() == turn
            live.choose(t.LiftCurtain(turn.seat))
            resumed.choose(t.LiftCurtain(turn.seat))
            since = live.since(turn.seat)
            assert resumed.since(turn.seat) == since
            compared += bool(since)
            changes += any(isinstance(seen, t.CardChanged) for seen in since)
            continue
        last = [e for e in s.entries[-2:] if e != "undo"][-1:]  # (a take-back's action is the seat's too)
        acted = bool(last) and live.game.riders[live.game.index[last[0].rider]].seat == getattr(turn, "seat", None)
        if acted and isinstance(turn, (t.Picking, t.Bidding)) and rng.random() < 0.3:
            # saved in the middle of a turn the seat has acted in: its curtain again, nothing new behind it
            resumed = t.Table(Session(s.setup, s.seed, dict(s.bots), list(s.entries)))
            again = resumed.turn()
            assert isinstance(again, t.Curtain) and again.seat == turn.seat
            resumed.choose(t.LiftCurtain(turn.seat))
            assert resumed.since(turn.seat) == ()
            mid_turn += 1
        if isinstance(turn, t.BotThinking):
            live.play_bots()
        elif isinstance(turn, t.Revealing):
            live.choose(t.EndReveal())
        elif isinstance(turn, t.Reviewing):
            live.choose(t.TakeBack() if rng.random() < 0.3 else t.PassReview())
        else:
            live.choose(rng.choice(turn.options))
    assert compared >= 10 and changes >= 3 and mid_turn >= (1 if variant == "bmx" else 5)  # (BMX: one pick a turn)


def tour_stage(humans: int = 2, seed: int = 7) -> Session:
    """The first stage of the shipped 3-stage tour for two teams (the second a bot's unless `humans` is 2)."""
    from flamme_tui.play.tours import Tour, load_tour, stage_session

    tour = Tour.new(load_tour("3-petit-tour"), TEAMS[:2], seed)
    return stage_session(tour, {} if humans == 2 else {1: "easy"})


@pytest.mark.parametrize("humans", [2, 1])
def test_a_rider_left_alone_in_a_tour_stage_draws_without_a_question(humans):
    """Once a team's other rider has crossed the line, "which rider draws
    first?" has one answer: the table draws for the rider left, as the usual
    `draw` action, once its player is at the screen (after the curtain between
    two players: no card is dealt behind it); its card can still be taken
    back, and the race saved with such draws replays."""
    from flamme_tui.engine.actions import draw
    from flamme_tui.play.replay import frames

    rng = random.Random(1)
    table = t.Table(tour_stage(humans))
    s = table.session
    alone = taken_back = 0
    for _ in range(5000):
        turn = table.turn()
        if isinstance(turn, t.Outcome):
            break
        assert not (isinstance(turn, t.ChoosingFirst) and len(turn.options) < 2), turn  # no question with one answer
        game = table.game
        if isinstance(turn, t.Curtain):
            left = [i for i in game.seats[turn.seat] if i not in game.crossed]
            assert not game.view(turn.seat).hands  # nothing dealt behind the curtain
            table.choose(t.LiftCurtain(turn.seat))
            if len(left) == 1 and game.phase == Phase.ENERGY:
                picking = table.turn()
                assert isinstance(picking, t.Picking) and picking.rider == left[0]
                assert s.entries[-1] == draw(game.riders[left[0]].id)  # recorded as the usual draw
                alone += 1
                table.choose(picking.options[0])
                if isinstance(table.turn(), t.Reviewing) and taken_back < 2:
                    table.choose(t.TakeBack())
                    assert table.turn() == picking and s.entries[-2:] == [picking.options[0].action, "undo"]
                    taken_back += 1
            continue
        if isinstance(turn, t.BotThinking):
            table.play_bots()
        elif isinstance(turn, t.Revealing):
            table.choose(t.EndReveal())
        elif isinstance(turn, t.Reviewing):
            table.choose(t.PassReview())
        else:
            if isinstance(turn, t.Picking) and humans == 1:
                left = [i for i in game.seats[turn.seat] if i not in game.crossed]
                alone += len(left) == 1 and s.entries[-1] == draw(game.riders[left[0]].id)
            table.choose(rng.choice(turn.options))
    assert table.game.phase == Phase.OVER and alone >= 2 and (taken_back == 2 or humans == 1)
    # saved and opened again: the same stage; its replay reads it to the end
    again = Session(s.setup, s.seed, dict(s.bots), [e if e == "undo" else str(e) for e in s.entries])
    assert again.game.state_key() == s.game.state_key()
    assert frames(s.setup, s.seed, again.entries)[-1].ranking


def test_every_screen_says_the_round_being_revealed():
    """While round N is revealed (and while the pick that resolved it is
    reviewed), the engine's board already counts round N + 1: the table says
    round N (Table.round), and so do a tour's standings."""
    rng = random.Random(3)
    table = t.Table(tour_stage())
    reviews = reveals = 0
    for _ in range(400):
        turn = table.turn()
        if isinstance(turn, t.Outcome) or reveals >= 3:
            break
        game = table.game
        standings = table.standings()
        assert standings is not None and standings.round == table.round
        if isinstance(turn, (t.Revealing, t.Reviewing)) and table.flow.replay is not None:
            shown = table.flow.replay.round
            assert table.round == shown == game.round - 1 and standings.round == shown
            reviews += isinstance(turn, t.Reviewing)
            reveals += isinstance(turn, t.Revealing)
        else:
            assert table.round == game.round
        if isinstance(turn, t.BotThinking):
            table.play_bots()
        elif isinstance(turn, t.Revealing):
            table.choose(t.Step(1) if t.Step(1) in turn.options else t.EndReveal())
        elif isinstance(turn, t.Reviewing):
            table.choose(t.PassReview())
        else:
            table.choose(rng.choice(turn.options))
    assert reviews and reveals >= 3
