"""The tutorial's lessons (stages/lessons/*.yaml, play/lessons.py) and their race
(play/tutorial.py): data checked like stage files, one clear line for a mistake;
each reveal explained from the engine's events; progress kept and resumed."""

from __future__ import annotations

import pytest

from flamme_tui.bots import POLICIES
from flamme_tui.config import ConfigError
from flamme_tui.engine.events import Exhaustion, Slipstream
from flamme_tui.lessonprogress import load_progress, save_progress
from flamme_tui.play import lessons
from flamme_tui.play.tutorial import Tutorial, scripted

SHIPPED = lessons.lessons_dir()


def classic() -> lessons.Entry:
    return next(e for e in lessons.catalogue() if e.id == "classic")


def test_every_shipped_lesson_loads():
    entries = lessons.catalogue()
    assert entries and all(e.problem is None for e in entries), [e.problem for e in entries]
    assert set(lessons.CHECKS) >= {s.check for e in entries for s in e.lesson.steps if s.check}


GOOD = (SHIPPED / "classic.yaml").read_text()


@pytest.mark.parametrize("change, words", [
    (("seed: 5", "seed: 5\ncolour: red"), "colour"),  # a key no lesson has
    (("check: slipstream", "check: slipstreem"), "check"),
    (("idea: Blocking", "idea: Blocking\n    round: 3"), "round"),  # a key twice
    (("seed: 5", "seed: -1"), "seed"),
    (("title: ", "titel: "), "title"),
    (("  - round: 2\n", "  - idea2: x\n"), "idea2"),
    (("intro: >-", "intro: [unclosed"), ""),
])
def test_a_lesson_file_with_a_mistake_gives_one_clear_line(tmp_path, change, words):
    old, new = change
    assert old in GOOD
    bad = tmp_path / "bad.yaml"
    bad.write_text(GOOD.replace(old, new, 1))
    with pytest.raises(ConfigError) as err:
        lessons.load(bad)
    line = str(err.value)
    assert "\n" not in line and "bad.yaml" in line and words in line
    (entry,) = lessons.catalogue(tmp_path)  # the menu lists it, with that line
    assert entry.lesson is None and entry.problem == line


def test_a_step_needs_a_round_or_a_place(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(GOOD.replace("  - at: climb\n", "  - round: 5\n    at: climb\n", 1))
    with pytest.raises(ConfigError, match="steps.4"):
        lessons.load(bad)


def play(entry: lessons.Entry, bot: str = "medium") -> Tutorial:
    t = Tutorial(entry)
    while not t.over:
        t.choose(POLICIES[bot](t.view()))
    return t


@pytest.mark.parametrize("bot", ["easy", "medium", "hard"])
def test_each_reveal_is_explained_from_its_events(bot):
    entry = classic()
    t = Tutorial(entry)
    rounds = 0
    while not t.over:
        round_ = t.game.round
        t.choose(POLICIES[bot](t.view()))
        if round_ in t.reports and t.game.round != round_ or t.over:
            events = t.game.events
            report = "\n".join(t.reports[round_])
            for i, r in enumerate(t.game.riders):
                if r.seat != 0:
                    continue
                name = t.Name(i)
                assert (f"{name} took an exhaustion card: nobody was just ahead" in report) == any(
                    type(e) is Exhaustion and e.rider == i for e in events)
                assert (f"{name} took the slipstream" in report) == any(
                    type(e) is Slipstream and e.rider == i for e in events)
                assert f"{name} played " in report or t.game.riders[i].history == []
            rounds += 1
    assert rounds == t.game.rounds_done and t.outcome_line()


def test_the_same_choices_give_the_same_lesson_and_progress_resumes_it(tmp_path):
    entry = classic()
    whole = play(entry)
    again = Tutorial(entry, whole.actions_text())
    assert again.over and again.reports == whole.reports and again.steps == whole.steps
    half = Tutorial(entry)
    for _ in range(7):
        half.choose(POLICIES["medium"](half.view()))
    path = tmp_path / "classic.json"
    save_progress(half, path)
    resumed = load_progress(entry, path)
    assert resumed is not None and resumed.actions_text() == half.actions_text()
    assert resumed.reports == half.reports
    path.write_text('{"lesson": "classic", "actions": ["play blue.S 42"]}')
    assert load_progress(entry, path) is None  # a progress file that does not replay: start again


def test_scripted_teams_play_the_first_card_listed_that_they_hold_else_their_lowest():
    from flamme_tui.engine.turns import next_seat
    from flamme_tui.play.races import new_game

    entry = classic()
    red = entry.lesson.opponents[0]
    game = new_game(Tutorial(entry).session.setup, entry.lesson.seed)
    checked = 0
    while game.round <= 3 and checked < 4:
        seat = next_seat(game)
        view = game.view(seat)
        if seat == 1 and view.hands:
            (i, hand), = view.hands.items()
            wanted = red.rounds[game.round - 1]["S" if game.riders[i].kind == "S" else "R"]
            held = [c for c in wanted if c in hand]
            assert scripted(view, red).card == (held[0] if held else min(hand))
            checked += 1
        game.apply(scripted(view, red) if seat == 1 else POLICIES["easy"](view))
    assert checked == 4
