"""The registry of rule sets, the engine's import graph, outcomes and typed events."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from flamme_tui import VARIANTS
from flamme_tui.bots import POLICIES
from flamme_tui.engine import events
from flamme_tui.engine.phase import Phase
from flamme_tui.engine.rules import NAMES, RULES, find
from flamme_tui.play.narrator import describe_round
from flamme_tui.play.races import RaceSpec, make_setup, new_game, play_out

ENGINE = Path(__file__).parent.parent / "flamme_tui" / "engine"


def test_the_registry_knows_every_variant_the_command_line_offers():
    assert NAMES == VARIANTS
    for name in NAMES:
        rules = find(name)
        assert rules.name == name and rules.game.variant == name
    with pytest.raises(ValueError, match="unknown variant 'tour'.*classic, meteo, bmx"):
        find("tour")


def test_flags_say_what_each_rule_set_has():
    assert [n for n in NAMES if find(n).uses_tokens] == ["bmx"]
    assert [n for n in NAMES if find(n).has_weather] == ["meteo"]
    assert [n for n in NAMES if find(n).scripted_teams] == ["classic", "meteo"]  # PELOTON.md: meteo too
    assert [find(n).riders_per_seat for n in NAMES] == [2, 2, 1]


@pytest.mark.parametrize("variant", NAMES)
def test_a_game_and_its_views_know_their_rule_set(variant):
    game = new_game(make_setup(RaceSpec(variant=variant)), 1)
    assert game.rules is RULES[variant]
    assert game.view(0).rules is RULES[variant]
    assert game.phase in (Phase.GRID, Phase.ENERGY) and game.phase == str(game.phase.value)


def _imports(path: Path) -> set[str]:
    """The engine modules a module imports when it is loaded (not under TYPE_CHECKING)."""
    found = set()
    tree = ast.parse(path.read_text())
    for node in tree.body:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.dump(node.test):
            continue
        if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module:
            found.add(node.module)
    return found


def test_the_engine_has_no_import_cycle_and_views_import_no_rule_set():
    graph = {p.stem: _imports(p) for p in ENGINE.glob("*.py") if p.stem != "__init__"}
    assert not graph["view"] & {"classic", "meteo", "bmx", "rules"}
    assert "classic" not in graph["bmx"]
    state: dict[str, str] = {}

    def visit(node: str, path: list[str]) -> None:
        state[node] = "open"
        for nxt in graph.get(node, ()):
            assert state.get(nxt) != "open", f"import cycle: {' -> '.join(path + [nxt])}"
            if nxt not in state:
                visit(nxt, path + [nxt])
        state[node] = "done"

    for node in graph:
        if node not in state:
            visit(node, [node])


@pytest.mark.parametrize("variant", NAMES)
def test_the_outcome_ranks_teams_by_their_best_rider(variant):
    game = new_game(make_setup(RaceSpec(variant=variant)), 3)
    play_out(game, {seat: POLICIES["easy"] for seat in range(len(game.seats))})
    outcome = game.outcome()
    assert outcome.finished and outcome.winner == outcome.ranking[0] == game.winner
    best: dict[int, int] = {}
    for i in game.ranking():
        best.setdefault(game.riders[i].seat, len(best) + 1)
    assert outcome.places == tuple(best[s] for s in range(len(game.seats)))
    assert sorted(outcome.places) == list(range(1, len(game.seats) + 1))
    winner_seat = game.riders[game.winner].seat
    assert outcome.place_of(winner_seat) == 1
    for team in outcome.teams:
        riders = [game.riders[i] for i in game.seats[team.seat]]
        if game.rules.uses_tokens:
            assert team.exhaustion == sum(r.fatigue for r in riders)
            assert team.left == sum(len(r.bag) for r in riders)
        else:
            assert team.exhaustion == sum(r.exhaustion for r in riders)
            assert team.slipstream == sum(r.slipstream for r in riders)


@pytest.mark.parametrize("variant", NAMES)
def test_events_are_typed_values_with_one_text(variant):
    game = new_game(make_setup(RaceSpec(variant=variant)), 5)
    seen = set()
    while game.phase != Phase.OVER:
        start = game.round
        for seat in range(len(game.seats)):
            while game.round == start and game.needs(seat):
                game.apply(POLICIES["easy"](game.view(seat)))
        assert isinstance(game.events[0], events.Reveal)
        assert len(describe_round(game)) == len(game.events) - 1  # one line per event
        for e in game.events:
            assert isinstance(e, events.Event) and e.fields
            assert e == type(e)(*(getattr(e, f) for f in e.fields)) and repr(e).startswith(type(e).__name__)
            seen.add(e.kind)
            if isinstance(e, events.Slipstream | events.CatchUp):
                assert e.square > e.start and e.lane < game.course.lanes[e.square]
    assert {"reveal", "move", "finish"} <= seen
