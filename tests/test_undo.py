"""Undo before passing, below the UI: Session.undo and RaceFlow.take_back,
over random races with random take-backs, and races with undos in save
files (format 3), replays and tours.

The property: a game with undos is the game of its effective actions (the
log with each undo and the action before it left out), and the flow after a
take-back is the flow as it was before the pick."""

from __future__ import annotations

import json
import random

import pytest

from flamme_tui import saves
from flamme_tui.bots.easy import easy
from flamme_tui.engine.actions import Bid, Play, PlayTokens
from flamme_tui.play import tours
from flamme_tui.play.flow import RaceFlow
from flamme_tui.play.races import COLOURS, Team, new_game
from flamme_tui.play.replay import frames
from flamme_tui.play.session import UNDO, Session, UndoRefused, effective
from flamme_tui.saves import load_replay
from flamme_tui.ui.choices import RaceChoices, default_seats, one_rider_seats


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("FLAMME_TUI_DATA_DIR", str(tmp_path))
    return tmp_path


def public(flow: RaceFlow) -> tuple:
    """What the flow shows and counts (the game by its digest)."""
    return (tuple(flow.log), flow.current(), flow.passed, flow.replay, tuple(flow.stats.catchup),
            saves.state_digest(flow.game), tuple(flow.game.actions))


def random_action(game, seat: int, rng: random.Random):
    """Any legal action of the seat (not only good ones: every rule is met)."""
    return rng.choice(game.legal_actions(seat))


def play_with_undos(flow: RaceFlow, rng: random.Random, chance: float = 0.4, max_steps: int = 5000) -> int:
    """Play the race to its end, every seat a human picking at random and
    taking its last card back now and then; checks the property at every
    take-back.  Returns the number of undos."""
    undos = 0
    seen: dict[str, tuple] = {}  # what the flow showed at the last pick, and just after it
    for _ in range(max_steps):
        turn = flow.current()
        if turn.kind == "over":
            return undos
        if turn.kind == "curtain":
            flow.lift_curtain(turn.seat)
        elif turn.kind == "bids":
            flow.bids_read()
        elif turn.kind == "bot":
            flow.play_bots()
        elif turn.kind == "reveal":
            flow.finish_replay()
        elif turn.kind == "review":
            if rng.random() < chance:
                action = flow.take_back()
                undos += 1
                shown = public(flow)
                # the flow as it was at the pick, with one line more: the seat changed its card
                assert shown[0][-1] == (f"{flow.team_name(turn.seat)} took their last "
                                        f"{flow.game.rules.piece_word} back")
                assert shown[0][:-1] == seen["pick"][0] and shown[1:] == seen["pick"][1:]
                pick = "bid" if isinstance(action, Bid) else "pick"
                assert (shown[1].kind, shown[1].seat, shown[1].rider) == (pick, turn.seat, turn.rider)
                # the game is the one of the effective actions
                again = new_game(flow.session.setup, flow.session.seed)
                for a in effective(flow.session.entries):
                    again.apply(a)
                assert again.state_key() == flow.game.state_key()
                with pytest.raises(UndoRefused):  # never twice: that would reach an earlier action
                    flow.session.undo()
                if rng.random() < 0.5:  # the same card again: as if it was never taken back
                    seen["pick"] = public(flow)
                    flow.act(action)
                    assert public(flow)[1:] == seen["played"][1:]
            else:
                flow.pass_review()
        else:
            action = random_action(flow.game, turn.seat, rng)
            if isinstance(action, (Play, PlayTokens, Bid)):
                seen["pick"] = public(flow)
            flow.act(action)
            if flow.review is not None:
                seen["played"] = public(flow)
            elif isinstance(action, (Play, PlayTokens)):
                with pytest.raises(UndoRefused):  # not the seat's last card: it stays down
                    flow.take_back()
    raise AssertionError("the race did not end")


def flow_of(variant: str, seed: int, players: int = 2, **kw) -> RaceFlow:
    seats = one_rider_seats(players) if players > 6 else default_seats(players)
    return RaceFlow(RaceChoices(variant=variant, seats=seats, seed=seed, **kw).session())


@pytest.mark.parametrize("variant", ["classic", "meteo", "bmx"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_races_with_random_undos_are_the_games_of_their_effective_actions(variant, seed, data_dir):
    flow = flow_of(variant, seed, players=3 if seed == 3 else 2)
    autosave = saves.attach_autosave(flow.session)
    undos = play_with_undos(flow, random.Random(seed))
    session = flow.session
    assert undos > 0 and session.entries.count(UNDO) == undos
    # saved after every entry: the file holds the log, and loads as the same game
    record = saves.load_record(autosave.path)
    assert record.data.version == saves.UNDO_VERSION
    assert [str(e) for e in record.actions] == session.actions_text()
    loaded = saves.load(autosave.path)
    assert loaded.game.state_key() == session.game.state_key() and loaded.entries == session.entries
    assert loaded.game.outcome() == session.game.outcome()
    # the round checks are those of the effective actions
    plain = Session(session.setup, session.seed, session.bots, session.game.actions)
    saved_plain = saves.save_document(plain)
    assert [r.state for r in record.data.rounds] == [r["state"] for r in saved_plain["rounds"]]
    # the replay: the effective actions' frames, with the undos said in words
    with_undos = frames(session.setup, session.seed, session.entries)
    without = frames(session.setup, session.seed, session.game.actions)
    assert [f.pos for f in with_undos] == [f.pos for f in without]
    said = [line for f in with_undos for line in f.log if "took their last" in line]
    assert len(said) == undos
    assert load_replay(autosave.path).frames == tuple(with_undos)


def test_one_rider_players_and_the_breakaway_with_undos(data_dir):
    """Peloton 7-12 players (one rider each: the only card is the last) and
    the breakaway (a bid is reviewed, and taken back, as a card is)."""
    flow = flow_of("classic", 5, players=7, stage="peloton-8")
    assert len(flow.game.riders) == 7
    assert play_with_undos(flow, random.Random(5)) > 0
    flow = flow_of("classic", 6, players=3, stage="peloton-8", breakaway=True)
    assert flow.game.phase == "breakaway"
    assert play_with_undos(flow, random.Random(6)) > 0


def test_undo_refusals_say_why_and_change_nothing():
    flow = flow_of("classic", 4)
    session = flow.session
    with pytest.raises(UndoRefused, match="no card"):
        session.undo()
    flow.lift_curtain(0)
    flow.act(easy(flow.game.view(0)))  # Blue: who draws first
    with pytest.raises(UndoRefused, match="only a card"):
        session.undo()
    flow.act(easy(flow.game.view(0)))  # the first rider's card
    entries, digest = list(session.entries), saves.state_digest(session.game)
    with pytest.raises(UndoRefused, match="another card"):
        session.undo()
    with pytest.raises(UndoRefused):
        flow.take_back()
    assert session.entries == entries and saves.state_digest(session.game) == digest
    flow.act(easy(flow.game.view(0)))  # the last card: under review
    with pytest.raises(RuntimeError):  # nothing else until the review is passed or the card taken back
        flow.act(easy(flow.game.view(0)))
    flow.take_back()
    with pytest.raises(UndoRefused):
        session.undo()


def test_a_race_without_undo_is_saved_as_before_and_one_with_an_undo_is_refused_as_newer(data_dir, monkeypatch):
    flow = flow_of("classic", 7)
    autosave = saves.attach_autosave(flow.session)
    flow.lift_curtain(0)
    for _ in range(3):
        flow.act(easy(flow.game.view(0)))
    autosave.flush()
    assert saves.load_record(autosave.path).data.version == saves.RACE_VERSION  # no undo: format 1
    flow.take_back()
    autosave.flush()
    doc = json.loads(autosave.path.read_text())
    assert doc["version"] == saves.UNDO_VERSION and doc["actions"][-1] == "undo"
    # an older release (it reads format 2 and older) says "newer", never "damaged"
    monkeypatch.setattr(saves.reading, "VERSION", 2)
    with pytest.raises(saves.SaveError, match="newer flamme-tui"):
        saves.load(autosave.path)
    listed = saves.list_saves(autosave.path.parent)
    assert [race.status for race in listed] == [saves.NEWER]


def _resealed(path, change) -> None:
    """The save with `change` made to its document, checksum recomputed (as a writer would)."""
    doc = json.loads(path.read_text())
    change(doc)
    doc["checksum"] = saves._checksum(doc)
    path.write_text(json.dumps(doc))


def test_a_save_whose_undo_breaks_the_rule_does_not_load(data_dir, tmp_path):
    flow = flow_of("classic", 8)
    autosave = saves.attach_autosave(flow.session)
    while flow.current().kind != "reveal":
        turn = flow.current()
        if turn.kind == "curtain":
            flow.lift_curtain(turn.seat)
        elif turn.kind == "review":
            flow.pass_review()
        else:
            flow.act(easy(flow.game.view(turn.seat)))
    autosave.flush()
    path = autosave.path
    bad = tmp_path / "bad.json"
    first = next(k for k, e in enumerate(flow.session.entries) if isinstance(e, Play))

    def first_card_undone(doc):  # the first rider's card, its seat's second rider still to play
        doc["version"] = saves.UNDO_VERSION
        doc["actions"] = doc["actions"][: first + 1] + ["undo"]
        doc["rounds"] = []

    for broken, why in ((first_card_undone, "is not allowed"),
                        (lambda doc: doc["actions"].extend(["undo", "undo"]) or doc.update(version=3), "not allowed"),
                        (lambda doc: doc["actions"].append("undo"), "damaged")):  # an undo in a format 1 file
        bad.write_bytes(path.read_bytes())
        _resealed(bad, broken)
        with pytest.raises(saves.SaveError, match=why):
            saves.load(bad)


def test_a_tour_keeps_each_stage_log_with_its_undos(data_dir):
    teams = tuple(Team(c.capitalize(), c) for c in COLOURS[:2])
    tour = tours.Tour.new(tours.stages_option("avenue-corso-paseo,firenze-milano:meteo"), teams, 4)
    session = tours.stage_session(tour)
    rng = random.Random(4)
    flow = RaceFlow(session)
    undos = play_with_undos(flow, rng)
    stage_one = list(session.entries)
    session = tours.next_session(session)
    autosave = saves.attach_autosave(session)
    flow = RaceFlow(session)
    for _ in range(40):  # into stage 2, an undo in it too
        turn = flow.current()
        if turn.kind == "curtain":
            flow.lift_curtain(turn.seat)
        elif turn.kind == "review":
            flow.take_back() if UNDO not in session.entries else flow.pass_review()
        elif turn.kind == "reveal":
            flow.finish_replay()
        else:
            flow.act(easy(flow.game.view(turn.seat)))
    assert undos > 0 and UNDO in session.entries
    autosave.flush()
    record = saves.load_record(autosave.path)
    assert record.data.version == saves.UNDO_VERSION
    assert list(record.data.tour.done[0].actions) == [str(e) for e in stage_one]
    loaded = saves.load(autosave.path)
    assert loaded.game.state_key() == session.game.state_key()
    assert list(loaded.tour.done[0].entries) == stage_one
    assert loaded.tour.done[0].game.state_key() == session.tour.done[0].game.state_key()
    text = load_replay(autosave.path).text()
    assert "Stage 1" in text and "took their last card back" in text


def test_race_from_and_replay_of_a_save_with_undos(tmp_path, capsys):
    """`race --from` goes on from the log with its undos (the new file keeps
    them: format 3); `replay --text` says who changed a card, never which."""
    from flamme_tui.cli import main

    flow = flow_of("classic", 11)
    autosave = saves.attach_autosave(flow.session, tmp_path / "undo.json")
    rng = random.Random(11)
    while flow.game.round < 4:
        turn = flow.current()
        if turn.kind == "curtain":
            flow.lift_curtain(turn.seat)
        elif turn.kind == "review":
            flow.take_back() if flow.session.entries[-1] != UNDO and rng.random() < 0.7 else flow.pass_review()
        elif turn.kind == "reveal":
            flow.finish_replay()
        else:
            flow.act(easy(flow.game.view(turn.seat)))
    autosave.flush()
    entries = list(flow.session.entries)
    undos = entries.count(UNDO)
    assert undos > 0
    assert main(["race", "--from", str(autosave.path), "--bots-for-humans"]) == 0
    out, _ = capsys.readouterr()
    assert "Final ranking" in out
    finished = saves.load(tmp_path / "undo-bots.json")
    assert finished.over and finished.entries[: len(entries)] == entries
    assert saves.load_record(tmp_path / "undo-bots.json").data.version == saves.UNDO_VERSION
    assert main(["replay", "--text", str(autosave.path)]) == 0
    out, _ = capsys.readouterr()
    said = [line.strip() for line in out.splitlines() if "took their last" in line]
    assert len(said) == undos and all(line.endswith("took their last card back") for line in said)
