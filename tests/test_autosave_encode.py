"""The autosave's share of the UI thread: after each action only a snapshot
is taken there (the log as text, the digest, the summary); the document is
built and encoded in the store (the app's worker), keeping the set-up's and
the finished stages' encoding from one action to the next.  A 21-stage tour
cost about 35 ms an action on the UI thread (`python -m flamme_tui.ui.bench`
times it)."""

from __future__ import annotations

import json

from flamme_tui import saves
from flamme_tui.play import tours
from flamme_tui.play.races import COLOURS, Team


def tour_session(stages: int = 3, at: int | None = None):
    """The tour's stage `at` (default the last), the stages before it raced."""
    spec = tours.stages_option(",".join(["avenue-corso-paseo", "firenze-milano"][k % 2] for k in range(stages)))
    session = tours.stage_session(tours.Tour.new(spec, tuple(Team(c.capitalize(), c) for c in COLOURS[:3]), 1),
                                  {0: "easy", 1: "easy", 2: "easy"})
    while len(session.tour.done) + 1 < (at or stages):
        while not session.over:
            session.play_bots()
        session = tours.next_session(session)
    return session


def play(session, n: int) -> None:
    for _ in range(n):
        move = session.bot_move()
        session.play(move, move.think().action)


def test_the_ui_thread_only_takes_a_snapshot(tmp_path, monkeypatch):
    session = tour_session()
    autosave = saves.attach_autosave(session, tmp_path / "tour.json")
    deferred: list = []
    autosave.defer = deferred.append
    encoded = []
    real = saves._json_text
    monkeypatch.setattr(saves.writing, "_json_text", lambda *a, **k: encoded.append(1) or real(*a, **k))
    monkeypatch.setattr(saves.writing, "setup_data", lambda *a, **k: (_ for _ in ()).throw(AssertionError("setup encoded")))
    play(session, 5)  # each action: encode on this thread, the store deferred
    assert deferred and not encoded  # nothing laid out as JSON, no set-up encoded on the playing thread


def test_the_file_is_what_save_document_writes_and_the_newest_wins(tmp_path):
    session = tour_session(4, at=3)
    autosave = saves.attach_autosave(session, tmp_path / "tour.json")
    deferred: list = []
    autosave.defer = deferred.append
    play(session, 4)
    for store in reversed(deferred):  # the workers run in any order: the newest state is what stays
        store()
    on_disk = (tmp_path / "tour.json").read_bytes()
    doc = saves.save_document(session, race=autosave.race, created=autosave.created, rounds=autosave._checks())
    doc["saved"] = json.loads(on_disk)["saved"]
    del doc["checksum"]
    doc["checksum"] = saves._checksum(doc)
    assert on_disk == saves._serialise(doc)
    assert saves.load(tmp_path / "tour.json").actions_text() == session.actions_text()
    # the next stage: the finished stages' encoding is not kept from the stage before
    while not session.over:
        play(session, 1)
        for store in deferred:
            store()
        deferred.clear()
    following = tours.next_session(session)
    again = saves.attach_autosave(following)
    play(following, 2)
    loaded = saves.load(again.path)
    assert len(loaded.tour.done) == 3 and loaded.actions_text() == following.actions_text()
