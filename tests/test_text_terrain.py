"""`flamme-tui race` and `replay --text` draw the terrain with the app track's
symbols (cobbles "#", flat "·", bumpy "~"...): words.TERRAIN_GLYPHS, the one
table the app's palette takes its glyphs from."""

from __future__ import annotations

import pytest

from flamme_tui import i18n, saves, words
from flamme_tui.cli import main
from flamme_tui.play.races import RaceSpec
from flamme_tui.play.session import Session
from flamme_tui.ui.palette import TERRAIN
from flamme_tui.ui.palette import terrain as app_terrain


def run(capsys, *args: str) -> str:
    try:
        assert main(list(args)) == 0
    finally:
        i18n.forget_flag()
        i18n.set_language("en")
    return capsys.readouterr().out


def finished(spec: RaceSpec, seed: int) -> Session:
    session = Session.new(spec, seed, bots={seat: "easy" for seat in range(len(spec.teams))})
    while not session.over:
        session.play_bots()
    return session


def test_the_app_and_the_text_outputs_draw_from_one_table():
    assert {code: t.glyph for code, t in TERRAIN.items()} == words.TERRAIN_GLYPHS


@pytest.mark.parametrize("args", [("--stage", "peloton-9"), ("--stage", "la-haut-montagne"),
                                  ("--variant", "bmx", "--circuit", "aBcD")])
def test_race_draws_the_terrain_as_the_app_does(capsys, args):
    out = run(capsys, "race", *args, "--seed", "3", "--teams", "3")
    track = next(line for line in out.splitlines() if line.startswith("start:")).split(None, 1)[1]
    variant = args[1] if args[0] == "--variant" else "classic"
    spec = RaceSpec(variant=variant, **({"circuit": args[3]} if variant == "bmx" else {"stage": args[1]}),
                    teams=RaceSpec().teams[:3])
    course = Session.new(spec, 3, bots={}).game.course
    drawn = track.replace("|", "")
    for sq, ch in enumerate(drawn):
        if not ch.isdigit():  # (a square with riders shows their count)
            assert ch == app_terrain(course.terrain[sq]).glyph, (sq, ch)
    if args[1] == "peloton-9":
        assert "#" in track and "c" not in track


def test_replay_text_draws_the_terrain_as_the_app_does(tmp_path, capsys):
    session = finished(RaceSpec(stage="peloton-9"), 3)
    path = saves.save(session, tmp_path / "race.json")
    out = run(capsys, "replay", "--text", str(path))
    tracks = [line.split(None, 1)[1] for line in out.splitlines() if line.startswith("track: ") and "|" in line]
    assert tracks and all("c" not in t for t in tracks) and any("#" in t for t in tracks)
