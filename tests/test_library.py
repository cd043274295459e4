"""The stage library: every shipped stage names where its tiles come from and
which boxes it needs, uses only the tiles of those boxes (each once), passes
`stages check`, and races to the end with bots in every rule set that races
stages (classic and meteo); the built-in tours name only shipped stages."""

from __future__ import annotations

import pytest

from flamme_tui import config, stagegen
from flamme_tui.bots import POLICIES
from flamme_tui.cli import main
from flamme_tui.config import physical_tile, split_tiles
from flamme_tui.engine.race import Team
from flamme_tui.play.races import COLOURS, RaceSpec, make_setup, new_game, play_out
from flamme_tui.play.tours import load_tour

CATALOG = config.load_tiles()
BUILT_IN = [e for e in config.stage_entries() if e.source == "built-in"]
IDS = [e.id for e in BUILT_IN]
RULE_SETS = ("classic", "meteo")  # the rule sets that race a stage of tiles (bmx races its own circuit)


def test_the_library_has_sixty_stages_or_more():
    assert len(IDS) >= 60
    assert len({config.load_stage(sid).tiles for sid in IDS}) == len(IDS)  # no stage shipped twice


@pytest.mark.parametrize("sid", IDS)
def test_every_stage_names_its_source_and_fits_the_inventory_of_its_boxes(sid):
    stage = config.load_stage(sid)
    assert stage.source.strip(), f"{sid}: no source"
    assert stage.boxes, f"{sid}: no boxes"
    names = split_tiles(stage.tiles)
    tiles = [physical_tile(n) for n in names]
    inventory = stagegen.inventory(stage.boxes, CATALOG)
    assert set(tiles) <= set(inventory), f"{sid}: tiles outside {stage.boxes}: {set(tiles) - set(inventory)}"
    assert len(tiles) == len(set(tiles)), f"{sid}: a tile used twice"
    # the boxes listed are the ones the tiles need, no more
    assert tuple(stage.boxes) == stagegen.boxes_needed(names)


def test_a_stage_that_lists_too_few_boxes_is_refused(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: Bad\ntiles: a_23gMRPkeqos4cDHjTniu\nboxes: [base]\nsource: a test\n")
    stage, problems = config.check_stage_file(bad)
    assert stage is None and "tile '_2' is in the peloton box" in str(problems[0])


def test_every_shipped_stage_passes_stages_check(capsys):
    assert main(["stages", "check", str(config.data_dir() / "courses")]) == 0
    out = capsys.readouterr().out
    assert out.count(": ok: ") == len(IDS)


def race(sid: str, variant: str, seed: int, colours: int = 4, breakaway: bool = False) -> None:
    spec = RaceSpec(variant=variant, stage=sid, teams=tuple(Team(c.capitalize(), c) for c in COLOURS[:colours]),
                    breakaway=breakaway)
    game = new_game(make_setup(spec), seed)
    play_out(game, {seat: POLICIES["easy"] for seat in range(colours)})
    assert game.phase == "over" and game.winner is not None, (sid, variant, seed)


@pytest.mark.parametrize("sid", IDS)
def test_every_stage_races_to_the_end_with_bots(sid):
    race(sid, RULE_SETS[IDS.index(sid) % 2], seed=1)  # one fast race each, the rule sets taken in turn


@pytest.mark.slow
@pytest.mark.parametrize("sid", IDS)
def test_every_stage_races_in_every_rule_set_and_team_count(sid):
    stage = config.load_stage(sid)
    breakaway = config.compile_stage(stage, catalog=CATALOG).breakaway >= 0
    for variant in RULE_SETS:
        for colours in (2, 4, 6):
            for seed in (1, 2):
                race(sid, variant, seed, colours, breakaway=breakaway and seed == 2)


def test_every_built_in_tour_names_shipped_stages(capsys):
    assert main(["tours", "check", str(config.data_dir() / "tours")]) == 0
    week = load_tour("7-week-of-classics")
    three = load_tour("21-three-week-tour")
    assert len(week.stages) == 7 and len(three.stages) == 21
    for tour in (week, three):
        assert all(leg.stage in IDS for leg in tour.stages)
