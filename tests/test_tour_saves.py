"""Tours in save files (format 2): saved after every action, resumed at the
exact point (mid-stage and between stages), checked stage by stage on load;
race saves keep format 1 and load as before."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from flamme_tui import saves
from flamme_tui.play import tours
from flamme_tui.play.races import COLOURS, Team
from flamme_tui.saves import SaveError

STAGES = "avenue-corso-paseo,firenze-milano:meteo"
TEAMS = tuple(Team(c.capitalize(), c) for c in COLOURS[:3])
BOTS = {0: "easy", 1: "medium", 2: "easy"}


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("FLAMME_TUI_DATA_DIR", str(tmp_path))
    return tmp_path


def new_tour(seed: int = 4) -> tours.Tour:
    return tours.Tour.new(tours.stages_option(STAGES), TEAMS, seed)


def finish(session):
    """Race the tour on from `session` to its end; the tour as it ended."""
    while True:
        while not session.over:
            session.play_bots()
        if tours.tour_over(session):
            return tours.standing(session)
        session = tours.next_session(session)
        if session.listeners:  # pragma: no cover - sessions here have no listener
            raise AssertionError


def test_a_tour_is_saved_after_every_action_and_resumes_at_that_point(data_dir):
    whole = finish(tours.stage_session(new_tour(), BOTS))
    session = tours.stage_session(new_tour(), BOTS)
    autosave = saves.attach_autosave(session)
    rng = random.Random(3)
    checked = 0
    while True:
        while not session.over:
            session.play_bots()
            if rng.random() < 0.3:  # now and then: what is on disk is exactly where we are
                loaded = saves.load(autosave.path)
                assert loaded.tour is not None and len(loaded.tour.done) == len(session.tour.done)
                assert loaded.actions_text() == session.actions_text()
                assert saves.state_digest(loaded.game) == saves.state_digest(session.game)
                # and going on from there gives the whole tour
                assert finish(loaded).results() == whole.results()
                checked += 1
        if tours.tour_over(session):
            break
        session = tours.next_session(session)
        autosave = saves.attach_autosave(session)
        assert autosave.path == session.save_path
    assert checked >= 4
    assert tours.standing(saves.load(autosave.path)).ranking() == whole.ranking()


def saved_between_stages(folder: Path) -> Path:
    """A tour whose first stage is over, saved before the second began."""
    session = tours.stage_session(new_tour(), BOTS)
    while not session.over:
        session.play_bots()
    return saves.save(session, folder / "tour.json")


def test_between_stages_the_save_holds_the_finished_stage(tmp_path):
    path = saved_between_stages(tmp_path)
    info = saves.peek(path)
    assert (info.tour, info.stage, info.stages, info.over) == ("Custom tour", 1, 2, False)
    assert "stage 1/2" in info.describe()
    session = saves.load(path)
    assert session.over and not tours.tour_over(session)
    following = tours.next_session(session)
    assert len(following.tour.done) == 1 and following.game.course.name == "Firenze - Milano"
    # the second stage's set-up carries the first's exhaustion and grid order
    assert following.setup.carried and following.setup.grid_order and following.setup.tour_times


def test_the_formats_a_race_1_a_tour_2(tmp_path):
    path = saved_between_stages(tmp_path)
    doc = json.loads(path.read_text())
    assert doc["version"] == saves.TOUR_VERSION == 2
    assert len(doc["tour"]["legs"]) == 2 and len(doc["tour"]["done"]) == 0
    assert doc["summary"]["tour"] == {"name": "Custom tour", "stage": 1, "stages": 2, "winner": None}


def rewrite(path: Path, change) -> None:
    doc = json.loads(path.read_text())
    change(doc)
    doc["checksum"] = saves._checksum(doc)
    path.write_text(json.dumps(doc))


def second_stage_saved(folder: Path) -> Path:
    session = tours.next_session(saves.load(saved_between_stages(folder)))
    for _ in range(3):
        session.play_bots()
    return saves.save(session, folder / "second.json")


@pytest.mark.parametrize("change, reason", [
    # a finished stage's log changed: its replay no longer ends as recorded
    (lambda d: d["tour"]["done"][0]["actions"].pop(), "stage 1 of the tour"),
    (lambda d: d["tour"]["done"][0].update(state="0" * 64), "stage 1 of the tour differs"),
    # the race is not the tour's next stage: another seed, another carry-over
    (lambda d: d.update(seed=d["seed"] + 1), "not stage 2 of its tour"),
    (lambda d: d["tour"].update(seed=d["tour"]["seed"] + 1), "stage 1"),
    (lambda d: d["setup"].update(carried=[0] * 6), "not stage 2 of its tour"),
    (lambda d: d["tour"]["legs"].reverse(), "stage 1"),
    # a tour in format 1, a race in format 2
    (lambda d: d.update(version=1), "format 2"),
    (lambda d: (d.pop("tour"), d["summary"].pop("tour")), "format 2"),
    (lambda d: d["tour"].update(done=d["tour"]["done"] * 2), "tour"),
    (lambda d: d["tour"]["legs"][1].update(tour=True), "carry-over"),
])
def test_a_tampered_tour_never_loads_as_another_tour(tmp_path, change, reason):
    path = second_stage_saved(tmp_path)
    saves.load(path)
    rewrite(path, change)
    with pytest.raises(SaveError, match=reason) as caught:
        saves.load(path)
    assert "\n" not in str(caught.value)


def test_a_tour_from_a_newer_flamme_tui_is_refused_with_a_message(tmp_path):
    path = second_stage_saved(tmp_path)
    rewrite(path, lambda d: d.update(version=saves.VERSION + 1))
    with pytest.raises(SaveError, match="made by a newer flamme-tui"):
        saves.load(path)


def test_the_race_file_stays_locked_between_stages(data_dir):
    """The stage is over but the tour is not: the file is still this process's."""
    session = tours.stage_session(new_tour(), BOTS)
    autosave = saves.attach_autosave(session)
    while not session.over:
        session.play_bots()
    assert autosave.lock is not None and autosave.lock.fd is not None
    following = tours.next_session(session)
    second = saves.attach_autosave(following)
    assert second.path == autosave.path and autosave.stopped and second.lock is not None and second.lock.fd is not None
    while not tours.tour_over(following):
        following.play_bots()
    assert second.lock is None  # the tour is over: the file is let go
    assert saves.peek(second.path).over and saves.peek(second.path).winner


def test_saves_are_named_and_listed_as_tours(data_dir):
    session = tours.stage_session(new_tour(), BOTS)
    autosave = saves.attach_autosave(session)
    session.play_bots()
    assert autosave.path.name.endswith("-tour.json")
    [race] = saves.list_saves()
    assert race.status == saves.IN_PROGRESS and race.info.tour == "Custom tour"
    assert saves.latest_in_progress() == autosave.path


def test_a_tour_replays_stage_by_stage(tmp_path):
    from flamme_tui.engine.tour import gap_text
    from flamme_tui.saves import load_replay

    path = second_stage_saved(tmp_path)
    replay = load_replay(path)
    titles = [f.title for f in replay.frames]
    assert titles[0] == "Stage 1: Start" and "Stage 1: result" in titles and titles[-1].startswith("Stage 2: Round")
    assert titles.index("Stage 1: result") < titles.index("Stage 2: Start")
    # the stage's result in the replay: the times of the tour
    first = saves.load(path).tour.done[0]
    result = replay.frames[titles.index("Stage 1: result")]
    rows = result.log[1:1 + len(first.result)]
    assert [row.split()[-2 if line.bonus else -1] for row, line in zip(rows, first.result)] == [
        gap_text(line.road) for line in first.result]  # the gap on the road, the bonus beside
    assert [row.endswith(" -10s") for row in rows] == [bool(line.bonus) for line in first.result]
    # the seed of a tour in progress tells every hidden card to come: not shown
    tour_seed = json.loads(path.read_text())["tour"]["seed"]
    assert "in progress" in replay.heading and str(tour_seed) not in replay.heading
    assert "-1/-1" not in replay.text() and "placed on the grid" not in result.track


def test_the_commands_keep_tours_and_races_apart(tmp_path, capsys):
    from flamme_tui.cli import main
    from flamme_tui.play.races import RaceSpec
    from flamme_tui.play.session import Session

    tour_file = second_stage_saved(tmp_path)
    race = Session.new(RaceSpec(), 1, {s: "easy" for s in range(4)})
    race.play_bots()
    race_file = saves.save(race, tmp_path / "race.json")
    before = tour_file.read_bytes()
    assert main(["race", "--from", str(tour_file)]) == 2
    assert "holds a tour" in capsys.readouterr().err
    assert main(["tour", "--from", str(race_file)]) == 2
    assert "holds a race, not a tour" in capsys.readouterr().err
    assert main(["tour", "--from", str(tour_file), "--seed", "3"]) == 2
    assert "--seed" in capsys.readouterr().err
    # a saved tour finished by its bots, in a new file; its own file is left as it is
    assert main(["tour", "--from", str(tour_file)]) == 0
    out = capsys.readouterr().out
    assert "resumed Custom tour: stage 2/2" in out and "Tour winner:" in out
    assert tour_file.read_bytes() == before
    finished = saves.load(tmp_path / "second-bots.json")
    assert tours.tour_over(finished)


def test_human_seats_of_a_saved_tour_need_a_word(tmp_path, capsys):
    from flamme_tui.bots import POLICIES
    from flamme_tui.cli import main

    session = tours.stage_session(new_tour(), {0: "easy"})  # seats 1 and 2: humans
    for _ in range(4):
        seat = session.due()
        session.apply(POLICIES["easy"](session.game.view(seat)))
    path = saves.save(session, tmp_path / "humans.json")
    assert main(["tour", "--from", str(path)]) == 2
    assert "--bots-for-humans" in capsys.readouterr().err
    assert main(["tour", "--from", str(path), "--bots-for-humans"]) == 0
