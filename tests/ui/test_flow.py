"""The hot-seat flow (no Textual): turn order, curtains, bots, replay frames."""

from __future__ import annotations

import pytest

from flamme_tui.bots.easy import easy
from flamme_tui.play.flow import RaceFlow
from flamme_tui.play.narrator import describe_round, label
from flamme_tui.ui.choices import RaceChoices, default_seats


def flow_of(variant="classic", n=2, bots=(), seed=1, **kw) -> RaceFlow:
    seats = default_seats(n)
    for seat, name in bots:
        seats[seat].controller = name
    return RaceFlow(RaceChoices(variant=variant, seats=seats, seed=seed, **kw).session())


def human_step(flow: RaceFlow) -> str:
    """Do what the current human turn asks with the easy policy; returns the turn kind."""
    turn = flow.play_bots()
    if turn.kind == "curtain":
        flow.lift_curtain(turn.seat)
    elif turn.kind in ("place", "draw", "pick"):
        flow.act(easy(flow.game.view(turn.seat)))
    elif turn.kind == "review":
        flow.pass_review()
    elif turn.kind == "reveal":
        flow.finish_replay()
    return turn.kind


def test_turn_order_of_two_humans():
    flow = flow_of()
    kinds = [human_step(flow) for _ in range(11)]
    assert kinds == ["curtain", "draw", "pick", "pick", "review", "curtain", "draw", "pick", "pick", "review",
                     "reveal"]
    assert flow.current().kind == "curtain" and flow.current().seat == 0


def test_one_human_needs_no_curtain_and_bots_play_by_themselves():
    flow = flow_of(n=3, bots=[(1, "easy"), (2, "medium")])
    kinds = [human_step(flow) for _ in range(5)]
    assert kinds == ["draw", "pick", "pick", "review", "reveal"]  # the bots wait for the review
    assert any(line.startswith("Orange (bot)") for line in flow.log)


def test_grid_placement_turns():
    flow = flow_of(n=2, grid="choose", bots=[(1, "easy")])
    assert [human_step(flow) for _ in range(2)] == ["place", "place"]
    assert flow.play_bots().kind == "draw"  # the bot placed its riders, the race is on
    assert all(p[0] >= 0 for p in flow.game.pos)


def test_bot_reasons_wait_for_the_reveal():
    flow = flow_of(n=2, bots=[(1, "hard")])
    while flow.play_bots().kind != "reveal":
        human_step(flow)
    before = len(flow.log)
    assert not any("(bot, hard)" in line for line in flow.log)  # a reason names the card: not yet
    flow.skip()
    reasons = [line for line in flow.log[before:] if "(bot, hard)" in line]
    assert reasons and all(": plays " in line for line in reasons)


def test_the_table_hears_only_the_public_reasons():
    # the hard bot's full reason names the card it kept ("next best 4"): never in the race log
    flow = flow_of(n=2, bots=[(1, "hard")], seed=5)
    for _ in range(60):
        human_step(flow)
    assert any("(bot, hard), " in line and ": plays " in line for line in flow.log)  # (which rider: item 13)
    assert not any("next best" in line or "scores" in line or "no choice" in line for line in flow.log)


@pytest.mark.parametrize("variant,seed", [("classic", 3), ("meteo", 92), ("meteo", 11), ("bmx", 4)])
def test_frames_replay_every_round_exactly(variant, seed):
    flow = flow_of(variant, n=4, seed=seed, bots=[(s, "easy") for s in range(4)])
    rounds = 0
    while flow.play_bots().kind == "reveal":
        game = flow.game
        replay = flow.replay
        frames = replay.frames
        assert frames[0].kind == "reveal"
        assert frames[-1].pos == tuple(tuple(p) for p in game.pos)
        for frame in frames:
            assert len(set(frame.pos)) == len(frame.pos)  # never two riders on one place
        lines = [line for f in frames for line in flow.told(f.notes)]
        course = game.course
        assert lines == describe_round(game, lambda sq, c=course: label(c, sq))  # squares from the start line
        moves = [f for f in frames if f.kind == "move"]
        assert len(moves) == len(game.riders)
        flow.finish_replay()
        rounds += 1
    assert flow.play_bots().kind == "over" and rounds == flow.game.round
