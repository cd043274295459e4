"""Saves are bounded before anything is built: a crafted save whose checksum
was recomputed is refused in milliseconds, with one line, whatever field it
inflates (issue 11, item 13)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from flamme_tui import limits, saves
from flamme_tui.play.races import COLOURS, RaceSpec, Team
from flamme_tui.play.session import Session
from flamme_tui.saves import SaveError


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("FLAMME_TUI_DATA_DIR", str(tmp_path / "data"))


def saved(folder: Path, variant: str = "classic", actions: int = 30) -> Path:
    """A real save of a race some way in (bots play every seat)."""
    from flamme_tui.bots import POLICIES

    teams = tuple(Team(c.capitalize(), c) for c in COLOURS[:4])
    session = Session.new(RaceSpec(variant=variant, teams=teams), 5, {s: "easy" for s in range(4)})
    path = folder / f"{variant}.json"
    saves.attach_autosave(session, path)
    game = session.game
    for _ in range(actions):
        seat = next(s for s in range(4) if game.needs(s))
        session.apply(POLICIES["easy"](game.view(seat)))
    return path


def craft(path: Path, change: Callable[[dict], object]) -> Path:
    """Edit a save and recompute its checksum, as an attacker would."""
    doc = json.loads(path.read_text())
    change(doc)
    doc["checksum"] = saves._checksum(doc)
    out = path.with_name("crafted.json")
    out.write_text(json.dumps(doc))
    return out


def refused(path: Path, *words: str) -> str:
    """load_record and peek both refuse, fast, with one line holding `words`."""
    for read in (saves.load_record, saves.peek):
        start = time.perf_counter()
        with pytest.raises(SaveError) as err:
            read(path)
        elapsed = time.perf_counter() - start
        text = str(err.value)
        assert "\n" not in text and "crafted.json" in text
        for word in words:
            assert word in text, (word, text)
        assert elapsed < 2, f"{read.__name__} took {elapsed:.1f} s"
    return text


def setup(doc: dict) -> dict:
    return doc["setup"]


CLASSIC = [
    # (id, change, words in the message)
    ("handicap-1e8", lambda d: setup(d).update(handicap=[10**8, 0, 0, 0]), ["handicap"]),
    ("handicap-negative", lambda d: setup(d).update(handicap=[-3]), ["handicap"]),
    ("handicap-more-than-teams", lambda d: setup(d).update(handicap=[1] * 5), ["handicap"]),
    ("exhaustion-value-1e6", lambda d: setup(d).update(exhaustion_value=10**6), ["exhaustion_value"]),
    ("duplicate-colours", lambda d: setup(d)["teams"][1].update(colour=setup(d)["teams"][0]["colour"]),
     ["same colour"]),
    ("colour-not-an-id", lambda d: setup(d)["teams"][1].update(colour="Red S"), ["colour"]),
    ("seven-colours", lambda d: setup(d)["teams"].extend({"name": c, "colour": c} for c in ("white", "pink", "grey")),
     ["teams", "colours"]),
    ("thirteen-seats", lambda d: setup(d).update(teams=[{"name": f"P{n}", "colour": f"c{n}", "riders": "S"}
                                                      for n in range(13)]), ["teams"]),
    ("no-team", lambda d: setup(d).update(teams=[]), ["teams"]),
    ("huge-seed", lambda d: d.update(seed=10**30), ["seed"]),
    ("deck-of-1e5", lambda d: setup(d)["decks"].update(S=[2] * 10**5), ["decks"]),
    ("card-of-1e6", lambda d: setup(d)["decks"]["R"].__setitem__(0, 10**6), ["decks"]),
    ("card-zero", lambda d: setup(d)["decks"]["R"].__setitem__(0, 0), ["decks"]),
    ("one-deck-only", lambda d: setup(d)["decks"].pop("S"), ["S and R"]),
    ("hand-of-1e6", lambda d: setup(d).update(hand_size=10**6), ["hand_size"]),
    ("long-course", lambda d: setup(d)["course"].update(terrain="." * 10**5, lanes=[2] * 10**5), ["terrain"]),
    ("lanes-do-not-match", lambda d: setup(d)["course"]["lanes"].pop(), ["lanes"]),
    ("finish-past-the-end", lambda d: setup(d)["course"].update(finish=300), ["finish"]),
    ("unknown-terrain", lambda d: setup(d)["course"].update(terrain="x" * len(setup(d)["course"]["terrain"])),
     ["terrain"]),
    ("grid-too-small", lambda d: setup(d)["course"].update(grid=1), ["grid"]),
    ("weather-1e5-tokens", lambda d: setup(d).update(weather_tokens=["wet"] * 10**5), ["weather_tokens"]),
    ("attack-of-1e6", lambda d: setup(d).update(attack=[2, 10**6]), ["attack"]),
    ("peloton-1e6-attacks", lambda d: setup(d).update(peloton_attacks=10**6), ["peloton_attacks"]),
    ("muscle-1e5-extra", lambda d: setup(d).update(muscle_extra=[5] * 10**5), ["muscle_extra"]),
    ("long-team-name", lambda d: setup(d)["teams"][0].update(name="x" * 10**5), ["name"]),
    ("long-stage-name", lambda d: setup(d)["course"].update(name="x" * 10**5), ["name"]),
    ("log-of-1e5", lambda d: d.update(actions=["draw red.S"] * 10**5), ["actions"]),
    ("long-action", lambda d: d["actions"].__setitem__(0, "draw " + "x" * 10**5), ["actions"]),
    ("rounds-out-of-order", lambda d: d["rounds"].reverse() or d["rounds"].append(dict(d["rounds"][0])), ["rounds"]),
    ("bot-seat-9", lambda d: d["bots"].update({"9": "easy"}), ["bots"]),
    ("bot-seat-word", lambda d: d["bots"].update({"one": "easy"}), ["bots"]),
    ("summary-round-1e9", lambda d: d["summary"].update(round=10**9), ["round"]),
]

BMX = [
    ("bag-of-1e6", lambda d: setup(d).update(bag=[1] * 10**6), ["bag"]),
    ("token-of-1e6", lambda d: setup(d)["bag"].__setitem__(0, 10**6), ["bag"]),
    ("young-1e6", lambda d: setup(d).update(young=[10**6, 0, 0, 0]), ["young"]),
    ("supply-1e9", lambda d: setup(d).update(fatigue_supply=10**9), ["fatigue_supply"]),
    ("die-face-1e6", lambda d: setup(d)["die_faces"].__setitem__(0, 10**6), ["die_faces"]),
    ("draw-1e6", lambda d: setup(d).update(draw=10**6), ["draw"]),
    ("keep-more-than-drawn", lambda d: setup(d).update(descent_keep=setup(d)["descent_draw"] + 1), ["descent_keep"]),
    ("no-lap", lambda d: setup(d)["course"].update(tail=None), ["tail"]),
    ("ramp-past-the-course", lambda d: setup(d)["course"].update(ramp=[10**4, 3]), ["ramp"]),
    # a bmx rider's id is its colour: two seats of one colour would be two riders with one id
    ("duplicate-colours", lambda d: setup(d)["teams"][1].update(colour=setup(d)["teams"][0]["colour"]),
     ["same colour"]),
]


@pytest.fixture(scope="module")
def originals(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("saves")
    return {variant: saved(folder, variant) for variant in ("classic", "bmx")}


@pytest.mark.parametrize("change, words", [c[1:] for c in CLASSIC], ids=[c[0] for c in CLASSIC])
def test_crafted_classic_save_refused_fast(originals, change, words):
    refused(craft(originals["classic"], change), "is damaged", *words)


@pytest.mark.parametrize("change, words", [c[1:] for c in BMX], ids=[c[0] for c in BMX])
def test_crafted_bmx_save_refused_fast(originals, change, words):
    refused(craft(originals["bmx"], change), "is damaged", *words)


def test_handicap_of_1e8_is_refused_in_milliseconds(originals):
    """The issue's case: 47 s and 4 GB before it was refused."""
    path = craft(originals["classic"], lambda d: setup(d).update(handicap=[10**8] * 4))
    start = time.perf_counter()
    with pytest.raises(SaveError, match="handicap"):
        saves.load(path)
    assert time.perf_counter() - start < 2


def test_the_bounds_leave_room_for_real_races(originals):
    """At their limits the fields still load: the bounds refuse only what no
    race of this program holds (the handicap the menus offer, 5, and more)."""
    doc = json.loads(originals["classic"].read_text())
    assert saves.load_record(originals["classic"]).data.setup.handicap == ()
    assert 5 <= limits.MAX_HANDICAP
    for variant, path in originals.items():
        record = saves.load_record(path)
        assert record.data.setup.variant == variant
    assert len(doc["actions"]) == 30


def test_handicap_at_the_limit_is_a_real_race(tmp_path):
    teams = tuple(Team(c.capitalize(), c) for c in COLOURS[:2])
    spec = RaceSpec(teams=teams, handicap=(limits.MAX_HANDICAP, 0))
    session = Session.new(spec, 3, {0: "easy", 1: "easy"})
    path = saves.save(session, tmp_path / "h.json")
    assert saves.load(path).setup.handicap == (limits.MAX_HANDICAP, 0)


def test_refusal_through_the_cli_is_one_line_exit_2(originals, capsys):
    from flamme_tui.cli import main

    path = craft(originals["classic"], lambda d: setup(d).update(exhaustion_value=10**6))
    assert main(["replay", "--text", str(path)]) == 2
    out = capsys.readouterr()
    lines = [line for line in (out.out + out.err).splitlines() if line.strip()]
    assert len(lines) == 1 and "exhaustion_value" in lines[0] and "Traceback" not in lines[0]
