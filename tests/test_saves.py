"""Save files: round trips, autosave and rotation, resume, clear errors."""

from __future__ import annotations

import json
import os
import sys
import types
from pathlib import Path

import pytest

from flamme_tui import saves, setupdata
from flamme_tui.cli import main
from flamme_tui.engine.turns import turns
from flamme_tui.play.races import COLOURS, RaceSpec, Team
from flamme_tui.play.session import Session
from flamme_tui.saves import SaveError, model

VARIANTS = ("classic", "meteo", "bmx")


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    """Every test gets its own user data directory."""
    folder = tmp_path / "data"
    monkeypatch.setenv("FLAMME_TUI_DATA_DIR", str(folder))
    return folder


def new_session(variant: str, seed: int = 7, teams: int = 4, **spec) -> Session:
    team_list = tuple(Team(c.capitalize(), c) for c in COLOURS[:teams])
    return Session.new(RaceSpec(variant=variant, teams=team_list, **spec), seed, {s: "easy" for s in range(teams)})


def play(session: Session, actions: int | None = None) -> None:
    """Let the bots play `actions` more actions (None: to the end), in seat order."""
    from flamme_tui.bots import POLICIES

    game = session.game
    done = 0
    while not session.over and (actions is None or done < actions):
        for seat in turns(game):
            if actions is not None and done >= actions:
                return
            session.apply(POLICIES[session.bots.get(seat, "easy")](game.view(seat)))
            done += 1


def assert_same_game(a, b) -> None:
    assert a.variant == b.variant
    assert a.round == b.round and a.phase == b.phase and a.winner == b.winner
    assert a.pos == b.pos
    assert saves.state_digest(a) == saves.state_digest(b)
    assert [str(x) for x in a.actions] == [str(x) for x in b.actions]
    for ra, rb in zip(a.riders, b.riders, strict=True):
        if a.variant == "bmx":
            assert (ra.bag, ra.hand, ra.played, ra.box, ra.fatigue, ra.history) == (
                rb.bag, rb.hand, rb.played, rb.box, rb.fatigue, rb.history)
        else:
            assert (ra.deck, ra.recycled, ra.hand, ra.played, ra.crashed, ra.exhaustion, ra.history) == (
                rb.deck, rb.recycled, rb.hand, rb.played, rb.crashed, rb.exhaustion, rb.history)
    assert a.course == b.course
    for seat in range(len(a.setup.teams)):
        assert a.view(seat) == b.view(seat)
        assert a.needs(seat) == b.needs(seat)
        assert [str(x) for x in a.legal_actions(seat)] == [str(x) for x in b.legal_actions(seat)]
    assert a.to_move() == b.to_move()
    # and the futures agree: same rng state
    assert a.rng.state() == b.rng.state()


# ----------------------------------------------------------------- round trip


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("steps", [0, 1, 2, 5, 9, 23, None])
def test_save_load_same_state(tmp_path, variant, steps):
    session = new_session(variant, seed=11)
    play(session, steps)
    path = saves.save(session, tmp_path / "race.json")
    back = saves.load(path)
    assert_same_game(session.game, back.game)
    assert back.seed == session.seed and back.bots == session.bots
    assert back.setup == session.setup
    assert back.over == session.over
    if not session.over:  # both go on identically
        play(session)
        play(back)
        assert_same_game(session.game, back.game)


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_action_round_trips(tmp_path, variant):
    """A save after every single action of a whole race loads to that exact point."""
    session = new_session(variant, seed=3, teams=3)
    path = tmp_path / "race.json"
    autosave = saves.attach_autosave(session, path)
    seen = []

    def check(s, action):
        back = saves.load(path)
        assert_same_game(s.game, back.game)
        seen.append(str(action))

    session.listeners.append(check)
    play(session)
    assert seen == session.actions_text()
    assert autosave.error is None


def test_variant_options_round_trip(tmp_path):
    session = new_session("bmx", seed=5, circuit="aBcD", ramp=(4, 3), young=(2, 0, 1, 0), forecast=True)
    play(session, 6)
    back = saves.load(saves.save(session, tmp_path / "b.json"))
    assert back.setup == session.setup
    assert back.setup.course.ramp == session.setup.course.ramp
    assert_same_game(session.game, back.game)


def test_choose_grid_round_trip(tmp_path):
    team_list = tuple(Team(c.capitalize(), c) for c in COLOURS[:3])
    session = Session.new(RaceSpec(variant="classic", teams=team_list, grid="choose", handicap=(1, 0, 2)), 4,
                          {0: "easy", 1: "easy", 2: "easy"})
    play(session, 3)  # in the middle of placing riders
    assert session.game.phase == "grid"
    back = saves.load(saves.save(session, tmp_path / "g.json"))
    assert_same_game(session.game, back.game)
    play(session)
    play(back)
    assert_same_game(session.game, back.game)


def test_human_seats_round_trip(tmp_path):
    team_list = tuple(Team(c.capitalize(), c) for c in COLOURS[:3])
    session = Session.new(RaceSpec(variant="meteo", teams=team_list), 9, {2: "easy"})
    back = saves.load(saves.save(session, tmp_path / "h.json"))
    assert back.bots == {2: "easy"}


def test_save_embeds_the_stage(tmp_path, data_dir):
    """Editing a stage file after the race began cannot change the race."""
    stages = data_dir / "stages"
    stages.mkdir(parents=True)
    stage = stages / "my-hill.yaml"
    stage.write_text("name: My Hill\ntiles: abcdEfghijklmnopqrstU\n")
    session = new_session("classic", seed=2, stage="my-hill")
    play(session, 10)
    path = saves.save(session, tmp_path / "s.json")
    stage.write_text("name: Flat Now\ntiles: abcdefghijklmnopqrstu\n")
    back = saves.load(path)
    assert back.setup.course.name == "My Hill"
    assert back.setup.course.terrain == session.setup.course.terrain
    assert_same_game(session.game, back.game)
    stage.unlink()  # even gone
    assert_same_game(session.game, saves.load(path).game)


def test_save_format_knows_every_setup_field():
    """A new ClassicSetup/BmxSetup field needs a place in the save format (and
    a format version bump if old saves cannot supply it)."""
    from dataclasses import fields

    from flamme_tui.engine.bmx import BmxSetup
    from flamme_tui.engine.classic import ClassicSetup

    assert {f.name for f in fields(ClassicSetup)} == set(setupdata.ClassicSetupData.model_fields)
    assert {f.name for f in fields(BmxSetup)} == set(setupdata.BmxSetupData.model_fields)


def test_file_is_readable_json_with_text_actions(tmp_path):
    session = new_session("classic", seed=1)
    play(session, 4)
    doc = json.loads(saves.save(session, tmp_path / "r.json").read_text())
    assert doc["format"] == "flamme-tui-save" and doc["version"] == saves.RACE_VERSION == 1  # a race: any reader since saves
    assert doc["actions"] == session.actions_text()
    assert doc["seed"] == 1 and doc["bots"] == {"0": "easy", "1": "easy", "2": "easy", "3": "easy"}
    assert doc["setup"]["course"]["terrain"] == session.setup.course.terrain[: session.setup.course.length]
    assert len(doc["checksum"]) == 64


def test_round_checksums_one_per_round(tmp_path):
    session = new_session("classic", seed=6)
    play(session)
    doc = json.loads(saves.save(session, tmp_path / "r.json").read_text())
    assert [r["round"] for r in doc["rounds"]] == list(range(1, session.game.round + 1))
    assert doc["rounds"][-1]["actions"] == len(session.game.actions)
    assert doc["rounds"][-1]["state"] == doc["state"] == saves.state_digest(session.game)


# ----------------------------------------------------------- autosave, rotation


def test_autosave_after_every_action_keeps_three(data_dir):
    session = new_session("classic", seed=8)
    autosave = saves.attach_autosave(session)
    assert autosave.path.parent == data_dir / "saves"
    assert autosave.path.exists() and saves.peek(autosave.path).actions == 0
    play(session, 5)
    counts = [saves.peek(p).actions for p in (autosave.path, Path(f"{autosave.path}.1"), Path(f"{autosave.path}.2"))]
    assert counts == [5, 4, 3]
    assert not Path(f"{autosave.path}.3").exists()
    assert not list(autosave.path.parent.glob("*.tmp"))


def test_attach_twice_is_one_autosave():
    session = new_session("bmx")
    a = saves.attach_autosave(session)
    assert saves.attach_autosave(session) is a
    assert sum(isinstance(x, saves.Autosave) for x in session.listeners) == 1


def test_no_free_race_file_name_is_one_clear_error(tmp_path, monkeypatch):
    # every new name offered is taken (a file is there): after trying, one line says so
    taken = tmp_path / "race.json"
    taken.write_text("{}")
    monkeypatch.setattr(saves.autosave, "new_save_path", lambda session, directory=None: taken)
    with pytest.raises(saves.SaveLocked, match="has no free race file name") as caught:
        saves.attach_autosave(new_session("classic"))
    assert str(tmp_path) in str(caught.value) and "\n" not in str(caught.value)
    assert taken.read_text() == "{}"


def test_loaded_session_goes_on_in_the_same_file():
    session = new_session("meteo", seed=4)
    path = saves.attach_autosave(session).path
    play(session, 7)
    back = saves.load(path)
    assert saves.attach_autosave(back).path == path
    play(back, 3)
    assert saves.peek(path).actions == 10
    assert saves.peek(Path(f"{path}.1")).actions == 9
    assert len(list(path.parent.glob("*.json"))) == 1


def test_rebuilt_game_is_saved_right(tmp_path):
    """An undo rebuilds the session's game (a new object, a round taken back
    with it): autosave notices, and the file loads as the very game."""
    session = new_session("classic", seed=5)
    del session.bots[3]  # a human, the last seat: its last card resolves the round
    path = saves.attach_autosave(session, tmp_path / "u.json").path
    play(session, 17)
    while not (session.game.rounds_done >= 2 and session.undo_refusal() is None):
        play(session, 1)
    rounds = session.game.rounds_done
    session.undo()  # the card that resolved the round: the round is taken back
    assert session.game.rounds_done == rounds - 1
    play(session, 4)
    back = saves.load(path)
    assert back.entries == session.entries and back.entries.count("undo") == 1
    assert_same_game(session.game, back.game)


def test_autosave_failure_does_not_stop_the_game(tmp_path, monkeypatch):
    session = new_session("classic")
    errors = []
    autosave = saves.attach_autosave(session, tmp_path / "f.json", on_error=errors.append)

    def broken(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(saves.autosave, "write_atomic", broken)
    play(session, 2)
    assert len(session.game.actions) == 2
    assert autosave.error is not None and len(errors) == 1  # told once, not at every action
    assert saves.save_problem(errors[0]) == "the disk is full"
    assert not autosave.saved and autosave.saved_actions == 0
    monkeypatch.undo()
    play(session, 1)
    assert autosave.error is None and saves.peek(autosave.path).actions == 3
    assert autosave.saved
    monkeypatch.setattr(saves.autosave, "write_atomic", broken)
    play(session, 1)
    assert len(errors) == 2  # a new run of failures is told again


def test_unwritable_save_place_does_not_stop_the_game(tmp_path):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the saves folder should be")
    session = new_session("bmx")
    autosave = saves.attach_autosave(session, directory=blocker)
    assert autosave.error is not None
    play(session, 3)
    assert len(session.game.actions) == 3 and autosave.error is not None


def test_crash_in_the_middle_of_a_write_keeps_the_last_save(tmp_path, monkeypatch):
    """Dying after the temporary file is written but before it replaces the
    save leaves the previous save whole; the stale temporary file is cleaned
    on the next start."""
    session = new_session("classic", seed=3)
    path = saves.attach_autosave(session, tmp_path / "c.json").path
    play(session, 4)
    real_replace = os.replace

    class Killed(BaseException):
        pass

    def dying_replace(src, dst):
        if str(src).endswith(".tmp"):
            raise Killed
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", dying_replace)
    with pytest.raises(Killed):
        play(session, 1)
    monkeypatch.undo()
    assert list(tmp_path.glob(".c.json.*.tmp"))
    back = saves.load(path)
    assert len(back.game.actions) in (4, 5)  # at most the pick being made is lost
    saves.attach_autosave(back)
    assert not list(tmp_path.glob(".c.json.*.tmp"))


# ------------------------------------------------------------- listing, resume


def test_latest_in_progress():
    assert saves.latest_in_progress() is None
    done = new_session("bmx", seed=1)
    saves.attach_autosave(done)
    play(done)
    assert saves.latest_in_progress() is None
    going = new_session("classic", seed=2)
    path = saves.attach_autosave(going).path
    play(going, 3)
    assert saves.latest_in_progress() == path
    infos = saves.list_saves()
    assert [i.over for i in infos] == [False, True]
    assert "round 1" in infos[0].describe()


def test_a_damaged_newest_save_is_never_passed_over_for_a_backup():
    session = new_session("classic", seed=2)
    path = saves.attach_autosave(session).path
    play(session, 6)
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x04
    path.write_bytes(bytes(data))
    # the race is offered as it is: damaged, with what is left
    assert saves.latest_in_progress() == path
    (race,) = saves.list_saves()
    assert race.status == saves.DAMAGED and race.path == path and race.info is None
    assert race.reason.startswith("is damaged (")
    assert [(b.path.name, b.info.actions) for b in race.backups] == [(f"{path.name}.1", 5), (f"{path.name}.2", 4)]
    assert "no usable backup" not in race.describe() and f"{path.name}.1 (round 1, 5 actions" in race.describe()
    with pytest.raises(SaveError, match=r"is damaged \(.*\); backups: .*\.json\.1 \(round 1\)"):
        saves.load(path)
    # going on from the backup is a branch: the damaged file and the backups stay as they are
    before = {p.name: p.read_bytes() for p in path.parent.iterdir()}
    back = saves.load(Path(f"{path}.1"))
    assert len(back.game.actions) == 5
    autosave = saves.attach_autosave(back)
    assert autosave.path.name == path.name.replace(".json", "-branch-1.json")
    play(back, 2)
    assert saves.peek(autosave.path).actions == 7
    assert {p.name: p.read_bytes() for p in path.parent.iterdir() if p.name in before} == before
    assert not list(path.parent.glob("*.damaged"))
    statuses = {r.path.name: r.status for r in saves.list_saves()}
    assert statuses == {path.name: saves.DAMAGED, autosave.path.name: saves.IN_PROGRESS}


def test_a_damaged_save_without_backups_is_still_listed(data_dir):
    session = new_session("bmx", seed=2)
    path = saves.attach_autosave(session).path
    saves.attach_autosave(session).detach()
    path.write_bytes(path.read_bytes()[:300])
    (race,) = saves.list_saves()
    assert (race.status, race.reason, race.backups) == (saves.DAMAGED, "is damaged (truncated)", ())
    assert race.describe().endswith("is damaged (truncated); no usable backup")
    assert saves.latest_in_progress() == path
    empty = data_dir / "saves" / "zeroed.json"  # a save whose content the system lost
    empty.write_bytes(b"")
    assert any(r.path == empty and r.status == saves.DAMAGED for r in saves.list_saves())


def test_list_saves_gives_every_status(data_dir):
    done = new_session("bmx", seed=1)
    finished = saves.attach_autosave(done).path
    play(done)
    going = new_session("classic", seed=2)
    current = saves.attach_autosave(going).path
    play(going, 3)
    newer = data_dir / "saves" / "future.json"
    newer.write_text(current.read_text())
    rewrite(newer, lambda d: d.update(version=9))
    only_backup = data_dir / "saves" / "lost.json"
    Path(f"{only_backup}.1").write_bytes(current.read_bytes())
    races = {r.path.name: r for r in saves.list_saves()}
    assert {name: r.status for name, r in races.items()} == {
        finished.name: saves.FINISHED, current.name: saves.IN_PROGRESS,
        "future.json": saves.NEWER, "lost.json": saves.DAMAGED,
    }
    assert "newer flamme-tui" in races["future.json"].reason
    assert races["lost.json"].reason == "is missing" and len(races["lost.json"].backups) == 1
    assert races[current.name].info.actions == 3 and races[finished.name].over
    assert saves.list_saves()[0].path == only_backup  # the most recently written first


def test_a_backup_opened_never_touches_the_newer_versions(tmp_path, capsys, fake_app):
    path = saved(tmp_path, actions=14)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    assert main(["--resume", f"{path}.2"]) == 0
    (session,) = fake_app
    assert len(session.game.actions) == 12
    branch = tmp_path / "save-branch-2.json"
    assert session.save_path == branch and session.branch_of == Path(f"{path}.2")
    err = capsys.readouterr().err
    assert "save.json.2 is an older version of save.json" in err and "save-branch-2.json" in err
    play(session, 3)
    assert saves.peek(branch).actions == 15
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.name in before} == before
    # a second branch from the same backup gets a name of its own
    assert saves.branch_path(Path(f"{path}.2")).name == "save-branch-2-2.json"
    # attaching with a backup as the path is a branch too
    other = saves.load(f"{path}.1")
    assert saves.attach_autosave(other, f"{path}.1").path.name == "save-branch-1.json"
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.name in before} == before


def test_leftovers_in_the_saves_dir_are_ignored(data_dir):
    folder = data_dir / "saves"
    folder.mkdir(parents=True)
    (folder / "notes.json").write_text('{"hello": 1}')
    (folder / "junk.json").write_bytes(b"\x00\xff garbage")
    (folder / ".x.json.123.tmp").write_text("half")
    (folder / "sub.json").mkdir()
    assert saves.latest_in_progress() is None
    session = new_session("meteo")
    path = saves.attach_autosave(session).path
    assert saves.latest_in_progress() == path


# ---------------------------------------------------------------- bad files


def saved(tmp_path, actions=10, variant="classic") -> Path:
    session = new_session(variant, seed=12)
    autosave = saves.attach_autosave(session, tmp_path / "save.json")
    play(session, actions)
    return autosave.path


def test_checksum_mismatch_names_the_backups(tmp_path):
    path = saved(tmp_path, actions=14)  # 12 actions a round: .1 and .2 are in round 2
    text = path.read_text().replace('"seed": 12', '"seed": 13')
    path.write_text(text)
    with pytest.raises(SaveError) as err:
        saves.load(path)
    msg = str(err.value)
    assert "save.json is damaged (checksum mismatch)" in msg
    assert "backups: save.json.1 (round 2), save.json.2 (round 2)" in msg
    assert "\n" not in msg
    assert path.exists()  # kept


@pytest.mark.parametrize("fault, damaged", [(ImportError("no module named x"), False),
                                             (AttributeError("no attribute y"), False), (ValueError("bad tile"), True)])
def test_a_fault_of_the_program_is_not_called_a_damaged_file(tmp_path, monkeypatch, fault, damaged):
    """A good file whose set-up cannot be built: a fault in the data calls it
    damaged (set aside when the race is written again); a fault of this
    flamme-tui (a broken install, a bug) says so and leaves the file alone."""
    from flamme_tui.saves import reading

    path = saved(tmp_path, actions=14)

    def broken(data):
        raise fault

    monkeypatch.setattr(reading, "setup_from_data", broken)
    with pytest.raises(SaveError) as err:
        saves.load(path)
    msg = str(err.value)
    assert (err.value.kind == saves.DAMAGED) == damaged and "\n" not in msg
    if damaged:
        assert "save.json is damaged (setup: bad tile)" in msg
    else:
        assert f"a fault in the program, not in the file (setup: {type(fault).__name__})" in msg and "damaged" not in msg
    assert path.exists()


def test_truncated(tmp_path):
    path = saved(tmp_path)
    path.write_bytes(path.read_bytes()[:500])
    with pytest.raises(SaveError, match=r"save.json is damaged \(truncated\); backups: save.json.1"):
        saves.load(path)


def test_empty_and_missing(tmp_path):
    path = tmp_path / "e.json"
    path.write_text("")
    with pytest.raises(SaveError, match=r"damaged \(empty file\); no backups|damaged \(empty file\)$"):
        saves.load(path)
    with pytest.raises(SaveError, match="does not exist"):
        saves.load(tmp_path / "none.json")


def test_damaged_without_backups(tmp_path):
    path = saved(tmp_path)
    for n in (1, 2):
        Path(f"{path}.{n}").unlink()
    path.write_text(path.read_text().replace('"round"', '"rownd"', 1))
    with pytest.raises(SaveError) as err:
        saves.load(path)
    assert str(err.value).endswith("is damaged (checksum mismatch)")


def test_not_a_save(tmp_path):
    path = tmp_path / "x.json"
    path.write_text('{"name": "a stage?"}')
    with pytest.raises(SaveError, match="is not a flamme-tui save file"):
        saves.load(path)


@pytest.mark.parametrize("text", [b"name: Mine\ntiles: abcdefghijklmnopqrstu\n", b"hello", b"\0" * 64,
                                  b'{"name": "Mine", "tiles": "abcdefghijklmnopqrstu"}'])
def test_a_file_that_is_no_json_object_is_not_a_save_not_a_truncated_one(tmp_path, text):
    # a stage file given to `replay` was "damaged (truncated)"; still set aside before being written over
    path = tmp_path / "x.json"
    path.write_bytes(text)
    with pytest.raises(SaveError) as err:
        saves.load(path)
    assert str(err.value).endswith("x.json is not a flamme-tui save file")
    assert err.value.kind == model.DAMAGED  # autosave sets such a race file aside before writing it again


def rewrite(path: Path, change) -> None:
    doc = json.loads(path.read_text())
    change(doc)
    doc["checksum"] = saves._checksum(doc)
    path.write_text(json.dumps(doc))


def test_newer_format(tmp_path):
    path = saved(tmp_path)
    rewrite(path, lambda d: d.update(version=saves.VERSION + 1, something_new=[1, 2]))
    with pytest.raises(SaveError, match="made by a newer flamme-tui"):
        saves.load(path)
    with pytest.raises(SaveError, match="made by a newer flamme-tui"):
        saves.peek(path)


def test_log_that_does_not_replay(tmp_path):
    """A consistent file whose log no longer gives the recorded game (as if
    the rules changed) is refused, never loaded as another race."""
    path = saved(tmp_path, actions=20)
    rewrite(path, lambda d: d.update(seed=d["seed"] + 1))
    with pytest.raises(SaveError, match="does not replay"):
        saves.load(path)


def test_illegal_action_in_log(tmp_path):
    path = saved(tmp_path, actions=8)
    rewrite(path, lambda d: d["actions"].__setitem__(3, "play red.S 9"))
    with pytest.raises(SaveError, match="does not replay|damaged"):
        saves.load(path)


def test_unknown_bot(tmp_path):
    path = saved(tmp_path)
    rewrite(path, lambda d: d["bots"].update({"1": "grandmaster"}))
    with pytest.raises(SaveError, match="needs the bot 'grandmaster'"):
        saves.load(path)


def test_bad_structure_with_good_checksum(tmp_path):
    path = saved(tmp_path)
    rewrite(path, lambda d: d["setup"].update(hand_size="four"))
    with pytest.raises(SaveError, match=r"damaged \(setup.*hand_size"):
        saves.load(path)


# -------------------------------------------------------------------- CLI


@pytest.fixture
def fake_app(monkeypatch):
    """Stand in for flamme_tui.ui.app.run(session=...)."""
    calls = []
    module = types.ModuleType("flamme_tui.ui.app")

    def run(session=None, **kwargs):
        calls.append(session)
        return 0

    module.run = run
    monkeypatch.setitem(sys.modules, "flamme_tui.ui.app", module)
    import flamme_tui.ui as ui_pkg

    monkeypatch.setattr(ui_pkg, "app", module, raising=False)
    return calls


def test_resume_latest(fake_app):
    session = new_session("classic", seed=3)
    saves.attach_autosave(session)
    play(session, 9)
    assert main(["--resume"]) == 0
    (resumed,) = fake_app
    assert_same_game(session.game, resumed.game)
    assert any(isinstance(x, saves.Autosave) for x in resumed.listeners)


def test_resume_file(tmp_path, fake_app):
    path = saved(tmp_path, actions=13, variant="bmx")
    assert main(["--resume", str(path)]) == 0
    assert len(fake_app[0].game.actions) == 13


def test_resume_nothing(capsys, fake_app):
    assert main(["--resume"]) == 2
    assert "no race in progress" in capsys.readouterr().err
    assert not fake_app


def test_resume_damaged(tmp_path, capsys, fake_app):
    path = saved(tmp_path)
    path.write_bytes(path.read_bytes()[:-40])
    assert main(["--resume", str(path)]) == 2
    err = capsys.readouterr().err
    assert "damaged" in err and "backups: save.json.1" in err and "Traceback" not in err
    assert not fake_app


def test_resume_the_latest_when_it_is_damaged(data_dir, capsys, fake_app):
    session = new_session("classic", seed=3)
    path = saves.attach_autosave(session).path
    play(session, 9)
    saves.attach_autosave(session).detach()
    path.write_bytes(path.read_bytes()[:-60])
    assert main(["--resume"]) == 2
    err = capsys.readouterr().err
    assert "no race in progress" not in err and err.count("\n") == 1
    assert f"{path.name} is damaged (truncated); backups: {path.name}.1 (round 1)" in err
    assert f"`flamme-tui --resume {path}.1` goes on from that backup as a new race file" in err
    for n in (1, 2):
        Path(f"{path}.{n}").unlink()
    assert main(["--resume"]) == 2
    err = capsys.readouterr().err
    assert "no race in progress" not in err and err.strip().endswith("is damaged (truncated)")
    assert not fake_app


def test_race_from_save_finishes_the_same_race_in_a_new_file(tmp_path, capsys):
    path = saved(tmp_path, actions=37)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    whole = new_session("classic", seed=12)
    play(whole)
    assert main(["race", "--from", str(path)]) == 0
    out, err = capsys.readouterr()
    assert "Final ranking" in out
    new = tmp_path / "save-bots.json"
    assert f"in the new race file {new}" in err and f"({path} is left as it is)" in err
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.name in before} == before
    assert_same_game(whole.game, saves.load(new).game)
    # finishing it again (or the bot race) takes the next free name
    assert main(["race", "--from", str(path)]) == 0
    assert (tmp_path / "save-bots-2.json").exists()


def test_race_from_refuses_human_seats_unless_asked(tmp_path, capsys):
    session = Session.new(RaceSpec(), 12, {0: "easy", 1: "hard"})  # Blue... : seats 3 and 4 are people
    path = saves.attach_autosave(session, tmp_path / "people.json").path
    session.apply(session.game.legal_actions(0)[0])
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    assert main(["race", "--from", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "has human seats (Green, Black): add --bots-for-humans" in err
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before
    assert main(["race", "--from", str(path), "--bots-for-humans", "--bots", "easy,hard,medium,medium"]) == 0
    finished = saves.load(tmp_path / "people-bots.json")
    assert finished.over and finished.bots == {0: "easy", 1: "hard", 2: "medium", 3: "medium"}
    assert saves.load(path).bots == {0: "easy", 1: "hard"}  # the people's race is still theirs
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.name in before} == before


@pytest.mark.parametrize("option, message", [
    (["--seed", "12"], "--seed cannot be used: a saved race keeps its seed"),
    (["--seed", "1"], "--seed cannot be used"),
    (["--stage", "la-haut-montagne"], "--stage cannot be used: a saved race keeps its course"),
    (["--circuit", "abcd"], "--circuit cannot be used"),
    (["--ramp", "3:2"], "--ramp cannot be used"),
    (["--young", "1:2"], "--young cannot be used"),
    (["--forecast"], "--forecast cannot be used"),
    (["--variant", "meteo"], "--variant meteo: the saved race is classic"),
    (["--teams", "2"], "--teams 2: the saved race has 4 teams"),
    (["--players", "4"], "--players 4: the saved race has 4 teams"),  # teams of two riders, not players
    (["--players", "8"], "--players 8: the saved race has 4 teams"),
    (["--breakaway"], "--breakaway: the saved race has no breakaway"),
    (["--bots", "easy,hard"], "--bots: give 4 names"),
    (["--bots", "wizard"], "--bots: seat 1 needs a bot"),
])
def test_race_from_rejects_what_cannot_change_a_saved_race(tmp_path, capsys, option, message):
    path = saved(tmp_path, actions=5)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    assert main(["race", "--from", str(path), *option]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


@pytest.mark.parametrize("option", [["--variant", "classic"], ["--teams", "4"], ["--bots", "hard"]])
def test_race_from_honours_what_agrees_with_the_saved_race(tmp_path, capsys, option):
    path = saved(tmp_path, actions=5)
    assert main(["race", "--from", str(path), *option]) == 0
    bots = saves.load(tmp_path / "save-bots.json").bots
    assert bots == {s: "hard" if option[0] == "--bots" else "easy" for s in range(4)}


@pytest.mark.parametrize("option, code, message", [
    (["--players", "7"], 0, ""),
    (["--players", "8"], 2, "--players 8: the saved race has 7 players racing one rider each"),
    (["--teams", "4"], 2, "--teams 4: the saved race has 7 players racing one rider each"),
    (["--breakaway"], 0, ""),
])
def test_race_from_checks_the_peloton_options_against_a_players_race(tmp_path, capsys, option, code, message):
    """--players and --breakaway were ignored next to --from: each must agree with the saved race."""
    from flamme_tui.play.races import one_rider_seats

    spec = RaceSpec(stage="peloton-7", teams=one_rider_seats(7), breakaway=True)
    session = Session.new(spec, 5, {seat: "easy" for seat in range(7)})
    path = saves.attach_autosave(session, tmp_path / "players.json").path
    session.play_bots()  # the breakaway's bids, then round 1's picks
    assert main(["race", "--from", str(path), *option]) == code
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    if code:
        assert err.count("\n") == 1 and not (tmp_path / "players-bots.json").exists()
    else:
        assert saves.load(tmp_path / "players-bots.json").over


def test_race_from_prints_nothing_that_was_face_down(tmp_path, capsys):
    path = saved(tmp_path, actions=14)  # 12 actions a round: in round 2, a draw and a card face down
    session = saves.load(path)
    assert session.game.round == 2
    assert [type(a).__name__ for a in session.game.actions[12:]] == ["Draw", "Play"]
    assert main(["race", "--from", str(path)]) == 0
    out = capsys.readouterr().out
    round2 = out.split("Round 2\n", 1)[1].split("Round 3\n", 1)[0]
    assert "plays" not in round2 and "with 1 card face down: its cards are not shown" in round2  # a draw is no card
    assert "plays" in out.split("Round 3\n", 1)[1]  # later rounds are told as usual
    # a save taken between rounds hides nothing
    path = saved(tmp_path / "between", actions=12)
    assert main(["race", "--from", str(path)]) == 0
    assert "plays" in capsys.readouterr().out.split("Round 2\n", 1)[1].split("Round 3\n", 1)[0]


@pytest.mark.parametrize("spec, changes", [
    (RaceSpec(scripted=("", "peloton", "muscle", "")), {"exhaustion_value": 3, "attack": (3, 8), "peloton_attacks": 1}),
    (RaceSpec(variant="meteo"), {"exhaustion_value": 3, "standup_penalty": 1}),
    (RaceSpec(variant="bmx"), {"fatigue": 2, "bumpy_fatigue": 3}),
])
def test_every_setup_field_survives_a_save(spec, changes):
    import dataclasses

    from flamme_tui.play.races import make_setup

    setup = dataclasses.replace(make_setup(spec), **changes)
    data = saves.SaveData.model_fields["setup"].annotation
    from pydantic import TypeAdapter

    back = setupdata.setup_from_data(TypeAdapter(data).validate_json(json.dumps(setupdata.setup_data(setup))))
    assert back == setup


def test_resume_of_a_missing_backup_names_the_race_file_as_the_race_file(data_dir, capsys, fake_app):
    session = new_session("classic", seed=3)
    path = saves.attach_autosave(session).path
    play(session, 9)
    saves.attach_autosave(session).detach()
    for n in (1, 2):
        Path(f"{path}.{n}").unlink(missing_ok=True)
    assert main(["--resume", f"{path}.1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "backups:" not in err and "as a new race file" not in err
    assert f"{path.name}.1 does not exist; the race file: {path.name} (round " in err
    assert f"`flamme-tui --resume {path}` resumes the race file" in err
    assert not fake_app


def test_a_link_to_nothing_is_no_free_race_file_name(tmp_path):
    """A dangling link at the name a new race file would take: that name is taken
    (the race would be written over the link), the next one is used."""
    (tmp_path / "race-bots.json").symlink_to(tmp_path / "gone" / "nowhere.json")
    assert not (tmp_path / "race-bots.json").exists()
    assert saves._free_name(tmp_path, "race-bots").name == "race-bots-2.json"


def test_resume_offers_the_race_people_play_before_a_newer_one_only_bots_play(data_dir):
    """A bots' finish (`race --from --bots-for-humans`) stopped half-way is newer than the race a
    player left, but Resume offers the player's race; a race only bots play is offered when no
    other is in progress."""
    import time

    people = new_session("classic", seed=3)
    people.bots.pop(0)  # seat 1 is a person's
    mine = saves.attach_autosave(people)
    play(people, 3)
    time.sleep(0.05)  # (the bots' race is written later)
    bots_only = saves.attach_autosave(new_session("classic", seed=4))
    assert saves.peek(mine.path).players == 1 and saves.peek(bots_only.path).players == 0
    assert saves.latest_in_progress() == mine.path
    mine.stop()
    mine.path.unlink()
    for backup in mine.path.parent.glob(mine.path.name + ".*"):
        backup.unlink()
    assert saves.latest_in_progress() == bots_only.path
