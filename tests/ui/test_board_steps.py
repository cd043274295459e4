"""The boards during the step-through of a round: every number (bag, fatigue
or exhaustion, the supply) is the state at the step shown, never a later one.

The oracle is the engine itself: the round's last action is applied to a copy
of the game without resolving it, and the copy's movement phase and end phase
are run one after the other, so the state after the movement and after the
whole round are known apart."""

from __future__ import annotations

import pytest

from flamme_tui.bots.easy import easy
from flamme_tui.play.flow import RaceFlow
from flamme_tui.ui.app import FlammeApp
from flamme_tui.ui.choices import RaceChoices, default_seats

from .driver import settle


def numbers(game) -> tuple:
    """(bag, fatigue per rider, supply) of a bmx game, as the boards count them."""
    bags = tuple(len(r.bag) + len(r.hand) + len(r.played or ()) for r in game.riders)
    return bags, tuple(r.fatigue for r in game.riders), game.supply


def classic_numbers(game) -> tuple:
    return tuple(r.exhaustion for r in game.riders)


def play_round(flow: RaceFlow) -> dict:
    """Play one round through the flow (every seat with the easy policy); returns
    the engine's numbers before the round, (bmx) after its movement, and after it."""
    game = flow.game
    start = game.round
    bmx = game.variant == "bmx"
    oracle = {"start": numbers(game) if bmx else classic_numbers(game)}
    while game.round == start and game.phase != "over":
        seat = next(s for s in range(flow.n_seats) if game.needs(s))
        action = easy(game.view(seat))
        if bmx and sum(1 for r in game.riders if r.played is None) == 1:
            # the last token choice: the copy takes it as `apply` does, without resolving the round
            twin = game.clone()
            rider = twin.riders[game.index[action.rider]]
            for t in action.tokens:
                rider.hand.remove(t)
            rider.played = tuple(action.tokens)
            rider.bag.extend(rider.hand)
            rider.hand.clear()
            twin.move_phase()
            oracle["moved"] = numbers(twin)
            twin.end_phase()
            oracle["end"] = numbers(twin)
        flow.act(action)
        if flow.review is not None:  # the seat's cards reviewed: passed
            flow.pass_review()
    if not bmx:
        oracle["end"] = classic_numbers(game)
    return oracle


def tally_numbers(frame, bmx: bool) -> tuple:
    t = frame.tally
    return (t.bag, t.exhaustion, t.supply) if bmx else t.exhaustion


def flow_of(variant: str, seed: int, **kw) -> RaceFlow:
    return RaceFlow(RaceChoices(variant=variant, seats=default_seats(3), seed=seed, **kw).session())


def bumpy_rounds(seed: int, rounds: int = 30):
    """(flow, oracle) after each bmx round of a race; `flow.replay` is that round."""
    flow = flow_of("bmx", seed, circuit="abcd")  # the back sides: bumpy passages (2 fatigue tokens)
    for _ in range(rounds):
        if flow.game.phase == "over":
            return
        oracle = play_round(flow)
        yield flow, oracle
        flow.finish_replay()


@pytest.mark.parametrize("seed", [3, 8, 21])
def test_bmx_boards_count_at_each_step(seed):
    two_tokens = 0
    for flow, oracle in bumpy_rounds(seed):
        frames = flow.replay.frames
        assert tally_numbers(frames[0], True) == oracle["start"]  # cards revealed: nothing moved yet
        first_end = next(k for k, f in enumerate(frames) if f.kind in ("die", "catchup", "fatigue", "finish"))
        assert tally_numbers(frames[first_end - 1], True) == oracle["moved"]  # after the last move
        assert frames[first_end].kind == "die"
        assert tally_numbers(frames[first_end], True) == oracle["moved"]  # the die changes no number
        assert tally_numbers(frames[-1], True) == oracle["end"]
        for frame in frames[:first_end]:  # no fatigue handed out during the movement
            assert frame.tally.exhaustion == oracle["start"][1]
        two_tokens += any(e.kind == "fatigue" and e.tokens == 2 for e in flow.game.events)
    assert two_tokens, "no bumpy passage in this race: pick another seed"


def test_classic_boards_count_exhaustion_at_each_step():
    flow = flow_of("classic", 4)
    for _ in range(6):
        oracle = play_round(flow)
        frames = flow.replay.frames
        assert tally_numbers(frames[0], False) == oracle["start"]
        assert tally_numbers(frames[-1], False) == oracle["end"]
        flow.finish_replay()


async def test_the_boards_on_screen_follow_the_steps():
    """What the player sees: step through a bmx round with a bumpy passage."""
    flow, oracle = next((f, o) for f, o in bumpy_rounds(3) if any(e.kind == "fatigue" and e.tokens == 2 for e in f.game.events))
    frames = flow.replay.frames
    app = FlammeApp(autoplay=False, autosave=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        app.start_flow(flow)
        await settle(pilot)
        boards = app.screen.boards
        for step, frame in enumerate(frames):
            assert flow.replay.step == step
            shown = (tuple(r.deck for r in boards.rows), tuple(r.exhaustion for r in boards.rows), boards.supply)
            if frame.kind in ("reveal", "move"):
                assert shown[1] == oracle["start"][1], (step, frame.kind)  # no fatigue yet
            if step == 0:
                assert shown == oracle["start"]
            assert shown == tally_numbers(frame, True)
            await pilot.press("space")
            await pilot.pause()
        assert shown == oracle["end"]


async def test_square_and_distance_to_the_line_follow_the_steps():
    """A rider's square and its squares to go are those of the step shown, never
    the end of the round (both columns from the same position)."""
    from flamme_tui.play.narrator import to_go

    flow = flow_of("classic", 4)
    play_round(flow)
    frames = flow.replay.frames
    course = flow.game.course
    assert frames[0].pos != frames[-1].pos  # somebody moves in this round
    app = FlammeApp(autoplay=False, autosave=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        app.start_flow(flow)
        await settle(pilot)
        boards = app.screen.boards
        for step, frame in enumerate(frames):
            assert flow.replay.step == step
            for row in boards.rows:
                assert row.square == frame.pos[row.index][0], (step, row.label)
                assert row.to_go == to_go(course, frame.pos[row.index][0]), (step, row.label)
            await pilot.press("space")
            await pilot.pause()
