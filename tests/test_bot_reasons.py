"""A bot's reasons: what the table hears names only what the bot played
(and public facts), never a card it drew and kept; the full reasoning stays
for headless output."""

from __future__ import annotations

import re

import pytest

from flamme_tui.bots import POLICIES, Budget, decide, policy
from flamme_tui.cli import main
from flamme_tui.engine.actions import Draw, Place, Play, PlayTokens
from flamme_tui.play.races import RaceSpec, make_setup, new_game

BUDGET = Budget(rollouts=40)  # the expert's, in tests: the same view, the same decision
CARD = re.compile(r"\b(\d+|[EFA])\b")  # how cards and tokens are written: 4, E(xhaustion), F(atigue), A(ttack)

RULE_SETS = {
    "classic": RaceSpec(variant="classic", teams=RaceSpec().teams[:3]),
    "classic-peloton": RaceSpec(variant="classic", teams=RaceSpec().teams[:3], scripted=("", "", "peloton")),
    "meteo": RaceSpec(variant="meteo", teams=RaceSpec().teams[:3]),
    "bmx": RaceSpec(variant="bmx", teams=RaceSpec().teams[:3]),
    "bmx-variants": RaceSpec(variant="bmx", teams=RaceSpec().teams[:3], ramp=(10, 3), young=(2, 0, 0),
                             forecast=True),
}


def shown(action) -> set[str]:
    """What the table sees of an action once it is revealed."""
    if isinstance(action, (Play, PlayTokens)):
        return set(str(action).split(" ", 2)[2].split())
    if isinstance(action, Place):
        return {str(action.square), str(action.lane)}
    assert isinstance(action, Draw)
    return {action.rider}  # who picks first is seen at the table


def decisions(spec: RaceSpec, bot: str, seed: int, rounds: int):
    """(view, decision) for every decision of seat 0 (bot `bot`, against
    medium and easy) over the first `rounds` rounds of a race."""
    game = new_game(make_setup(spec), seed)
    names = {0: bot, 1: "medium", 2: "easy"}
    while game.phase != "over" and game.round <= rounds:
        start = game.round
        for seat in range(len(game.seats)):
            if game.script[seat]:
                continue
            while game.round == start and game.needs(seat):
                view = game.view(seat)
                decision = decide(names[seat], view, BUDGET)
                if seat == 0:
                    yield view, decision
                game.apply(decision.action)


@pytest.mark.parametrize("rules", list(RULE_SETS))
@pytest.mark.parametrize("bot", list(POLICIES))
def test_no_public_reason_names_a_card_the_bot_did_not_play(rules, bot):
    said: dict[tuple, set[str]] = {}  # what was played -> every public reason given for it
    count = 0
    for seed in (3, 11):
        for view, decision in decisions(RULE_SETS[rules], bot, seed, rounds=8):
            assert decision.action == policy(bot, BUDGET)(view)
            named = set(CARD.findall(decision.public))
            assert named <= shown(decision.action), (decision.public, decision.action, view.hands)
            # the same move on the same public board gets the same words, whatever else the hand held
            board = tuple((r.square, r.lane, r.crashed) for r in view.board.riders)
            said.setdefault((board, decision.action.rider, type(decision.action), *sorted(shown(decision.action))),
                            set()).add(decision.public)
            count += 1
    assert count >= 10
    assert all(len(texts) == 1 for texts in said.values()), said


def test_the_full_reason_keeps_the_reasoning():
    fulls = [d.full for _, d in decisions(RULE_SETS["classic"], "hard", 3, rounds=4) if d.full]
    assert any("next best" in text and "sampled futures" in text for text in fulls)


def test_race_output_keeps_the_full_reasoning(capsys):
    assert main(["race", "--bots", "hard", "--teams", "2", "--seed", "4"]) == 0
    assert "next best" in capsys.readouterr().out  # headless: nobody hides anything


@pytest.mark.parametrize("rules", ["classic", "meteo", "bmx"])
def test_the_experts_public_reason_depends_on_the_move_not_the_hand(rules):
    """Played from the same board, the same card gets the same words whatever else
    the hand held: the expert's reason is the preview of its move, public once revealed."""
    from flamme_tui.bots.expert import public_reason

    count = 0
    for view, decision in decisions(RULE_SETS[rules], "expert", 5, rounds=6):
        if not view.hands:
            continue
        assert decision.public == public_reason(view, decision.action)
        for other in view.options():  # any card it could have played is told the same way
            text = public_reason(view, other.action)
            assert set(CARD.findall(text)) <= shown(other.action), text
        count += 1
    assert count >= 4
