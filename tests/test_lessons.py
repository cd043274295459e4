"""The tutorial's lessons (stages/lessons/*.yaml, play/lessons.py) and their race
(play/tutorial.py): data checked like stage files, one clear line for a mistake;
each reveal explained from the engine's events; progress kept and resumed."""

from __future__ import annotations

import pytest

from flamme_tui.bots import POLICIES
from flamme_tui.config import ConfigError
from flamme_tui.engine.events import Exhaustion, Slipstream
from flamme_tui.lessonprogress import is_done, load_progress, save_progress
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


def test_a_lesson_played_to_its_end_is_marked_done_and_one_under_way_is_not(tmp_path):
    """The lessons menu said nothing of a finished lesson (its progress file goes when it is
    over): it leaves a mark, which a lesson under way or not begun does not."""
    entry = classic()
    path = tmp_path / "classic.json"
    half = Tutorial(entry)
    half.choose(POLICIES["medium"](half.view()))
    save_progress(half, path)
    assert path.is_file() and not is_done(entry, path)
    whole = play(entry)
    save_progress(whole, path)
    assert not path.is_file() and is_done(entry, path)  # nothing to resume; done
    save_progress(Tutorial(entry), path)  # started again (not begun): still done once
    assert is_done(entry, path)


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


def lowest(view):
    """A player who plays its lowest card: the slowest lesson race."""
    options = [o.action for o in view.options()]
    plays = [a for a in options if getattr(a, "card", None) is not None]
    return min(plays, key=lambda a: a.card) if plays else options[0]


@pytest.mark.parametrize("player", ["easy", "medium", "lowest"])
def test_the_scripted_teams_race_the_whole_lesson_with_the_player(player):
    """A script runs to the line, whatever the player plays: after its last round a scripted
    rider plays its lowest card, and then the field dropped away (10 to 15 squares by the
    sprint), the player rode alone in the wind and the steps on riding behind somebody
    could not be done."""
    policy = lowest if player == "lowest" else POLICIES[player]
    for entry in lessons.catalogue():
        if entry.id == "bmx":  # (tokens from a bag: no script of cards)
            continue
        t = Tutorial(entry)
        game = t.game
        while not t.over:
            t.choose(policy(t.view()))
            ours = [game.pos[i][0] for i, r in enumerate(game.riders) if r.seat == 0]
            theirs = [game.pos[i][0] for i, r in enumerate(game.riders) if r.seat != 0]
            if player != "lowest" and not t.over and game.course.finish - max(ours) > 9:  # (the sprint apart)
                assert max(ours) - max(theirs) <= 8, (entry.id, game.round, ours, theirs)
        assert all(len(o.rounds) >= game.round for o in entry.lesson.opponents), (entry.id, game.round)


# ------------------------------------------------------------------ the breakaway (Peloton)

def peloton() -> lessons.Entry:
    return next(e for e in lessons.catalogue() if e.id == "peloton")


def bid_with(t: Tutorial, bidder: str, pick) -> None:
    """Play the breakaway: `bidder` ("S", "R") bids, keeping `pick(cards)` each time."""
    while t.kind() in ("bidder", "bid"):
        options = [o.action for o in t.options()]
        if t.kind() == "bidder":
            t.choose(next(a for a in options if a.rider.endswith("." + bidder)))
        else:
            t.choose(next(a for a in options if a.card == pick([a.card for a in options])))


@pytest.mark.parametrize("bidder, pick, won", [("R", max, True), ("R", min, False), ("S", max, True)])
def test_the_peloton_lesson_teaches_the_breakaway_checks_it_and_explains_its_result(bidder, pick, won):
    from flamme_tui.engine.events import Breakaway

    t = Tutorial(peloton())
    assert t.kind() == "bidder" and t.moment() == 0
    assert [s.idea for s in t.round_steps()] == ["The breakaway"]  # before round 1, the bids and nothing else
    bid_with(t, bidder, pick)
    assert t.kind() == "draw" and t.game.round == 1
    result = next(e for e in t.game.events if type(e) is Breakaway)
    ours = {i for i, r in enumerate(t.game.riders) if r.seat == 0}
    assert any(i in ours for i in result.winners) == won
    report = t.reports[0]
    kind = "Rouleur" if bidder == "R" else "Sprinteur"
    # the check first (after many moves it was below an 80x24 window's fold), then each bid told as it
    # was revealed, then the result and what it cost
    check, report = report[0], report[1:]
    assert report[0].startswith(f"Bid 1, face up together: Your {kind} ") and "Red Rouleur" in report[0]
    assert report[1].startswith("Bid 2, face up together: ")
    said = "\n".join(report)
    if won:
        assert f"Your {kind} broke away with " in said and "took 2 exhaustion cards" in said
        assert check.startswith("Well done: you won the breakaway")
        i = next(i for i in result.winners if i in ours)
        assert t.game.pos[i][0] == t.game.course.breakaway and t.game.riders[i].exhaustion == 2
    else:
        assert "Red Rouleur broke away with " in said and f"Your {kind} bid " in said
        assert check.startswith("Next time: another bid was higher")
    # round 1 then teaches the lanes, not the breakaway again
    assert "The breakaway" not in [s.idea for s in t.round_steps()]
    again = Tutorial(peloton(), t.actions_text())  # the bids are kept with the rest: resumed alike
    again.round_steps()
    assert again.reports == t.reports and again.steps == t.steps


def test_the_scripted_teams_bid_the_first_card_listed_that_they_hold_else_their_lowest():
    from flamme_tui.engine.actions import Bid
    from flamme_tui.engine.phase import Phase

    t = Tutorial(peloton())
    red = t.lesson.opponents[0]
    game = t.game.clone()
    seen = 0
    from flamme_tui.engine.turns import next_seat
    while game.phase == Phase.BREAKAWAY:
        seat = next_seat(game)
        view = game.view(seat)
        if seat == 0:
            game.apply(POLICIES["easy"](view))
            continue
        action = scripted(view, t.lesson.opponents[seat - 1])
        if seat == 1 and view.hands:
            (hand,) = view.hands.values()
            held = [c for c in red.bids if c in hand]
            assert isinstance(action, Bid) and action.card == (held[0] if held else min(hand))
            assert game.riders[game.index[action.rider]].kind == "R"
            seen += 1
        game.apply(action)
    assert seen == 2


@pytest.mark.parametrize("change, words", [
    (("breakaway: true\n", ""), "steps.0.at: a step `at: breakaway` needs `breakaway: true`"),
    (("    check: broke_away\n", "    check: finish\n"), "steps.0.check"),
    (("stage: courses/peloton-first.yaml", "stage: firenze-milano"), "breakaway: this stage has no breakaway square"),
])
def test_a_breakaway_lesson_with_a_mistake_gives_one_clear_line(tmp_path, change, words):
    import shutil

    old, new = change
    text = (SHIPPED / "peloton.yaml").read_text()
    assert old in text
    shutil.copytree(SHIPPED / "courses", tmp_path / "courses")
    bad = tmp_path / "bad.yaml"
    bad.write_text(text.replace(old, new, 1))
    with pytest.raises(ConfigError) as err:
        lessons.load(bad)
    line = str(err.value)
    assert "\n" not in line and "bad.yaml" in line and words in line


# ------------------------------------------------------------------ the lessons' words in French and Spanish

@pytest.mark.parametrize("lang", lessons.LANGUAGES)
def test_every_shipped_lesson_speaks_french_and_spanish_in_full(lang):
    """Each text of each shipped lesson has its translation (else that text shows in English)."""
    for entry in lessons.catalogue():
        lesson = entry.lesson
        pairs = [(lesson, f) for f in ("title", "intro", "outro")]
        pairs += [(t, "name") for t in (lesson.player, *lesson.opponents)]
        pairs += [(s, f) for s in lesson.steps for f in ("idea", "text", "passed", "missed") if getattr(s, f)]
        for model, field in pairs:
            words = getattr(model, lang)
            said = getattr(words, field, None) if words is not None else None
            assert said and said != getattr(model, field), (entry.id, field, getattr(model, field))


def test_a_lesson_speaks_the_player_s_language_and_english_where_its_file_does_not():
    from flamme_tui import i18n

    step = classic().lesson.steps[1]
    try:
        i18n.set_language("fr")
        assert step.said("idea") == "Le blocage" and classic().lesson.opponents[0].said("name") == "Rouge"
        assert Tutorial(classic()).game.setup.teams[1].name == "Rouge"  # the team's name on the track's words
        bare = step.model_copy(update={"fr": None})
        assert bare.said("idea") == "Blocking"
        i18n.set_language("es")
        assert step.said("text").startswith("Una casilla admite dos ciclistas")
    finally:
        i18n.set_language("en")
    assert step.said("idea") == "Blocking"


@pytest.mark.parametrize("change, words", [
    (('    fr:\n      idea: "Le blocage"', '    fr:\n      idee: "Le blocage"'), "steps[1].fr.idee: unknown key"),
    (('  fr: {name: "Vous"}', '  fr: {name: ""}'), "player.fr.name"),
    (('fr:\n  title: ', 'de:\n  title: '), "de"),
])
def test_a_lesson_file_with_a_mistake_in_its_translations_gives_one_clear_line(tmp_path, change, words):
    import shutil

    old, new = change
    assert old in GOOD
    shutil.copytree(SHIPPED / "courses", tmp_path / "courses")
    bad = tmp_path / "bad.yaml"
    bad.write_text(GOOD.replace(old, new, 1))
    with pytest.raises(ConfigError) as err:
        lessons.load(bad)
    line = str(err.value)
    assert "\n" not in line and "bad.yaml" in line and words in line


def test_the_lessons_name_squares_by_what_the_track_draws():
    """A stage file's letter that the track draws otherwise (cobbles c as #, bumpy b as ~...)
    is never how a lesson points at those squares: the player looks for what is drawn."""
    import re

    from flamme_tui.ui.palette import TERRAIN

    hidden = [letter for letter, t in TERRAIN.items() if t.glyph != letter and letter.isalpha()]
    said = re.compile(r"\b(?:squares?|cases?|casillas?)\s+({0})\b|\b({0})\s+squares?\b".format("|".join(hidden)))
    for entry in lessons.catalogue():
        lesson = entry.lesson
        for step in lesson.steps:
            for words in (step, step.fr, step.es):
                if words is None:
                    continue
                for field in ("idea", "text", "passed", "missed"):
                    text = getattr(words, field, None) or ""
                    assert not said.search(text), (entry.id, field, text)


def test_the_lesson_s_cards_carry_the_race_screen_s_wind_marks():
    """A lesson names the mark under a card ("+E"): its card choices show the
    race screen's marks (ui.aids.wind_mark), never an unexplained word."""
    from types import SimpleNamespace

    from flamme_tui.engine.options import MAY
    from flamme_tui.ui.aids import wind_mark
    from flamme_tui.ui.screens.tutorial import TutorialScreen

    t = Tutorial(classic())
    seen = set()
    while not t.over:
        if t.kind() == "pick":
            text = TutorialScreen.choices_text(SimpleNamespace(tutorial=t))  # type: ignore[arg-type]
            raw = text.splitlines()[-1]
            # each option whole on one line: its own spaces do not break, only the three between options
            assert all(" " not in option for option in raw.split("   ")), raw
            line = raw.replace("\u00a0", " ")
            for k, option in enumerate(t.view().options(wind=True), 1):
                part = line.split(f"[{k}] ", 1)[1].split("   [", 1)[0]
                mark = "" if option.preview.finish else wind_mark(option.preview, False)
                assert part.endswith(f" {mark}") if mark else "+E" not in part, (part, option.preview)
                seen.add(option.preview.wind)
            assert "front" not in text
        t.choose(POLICIES["medium"](t.view()))
    assert MAY in seen  # a mark was checked (the lesson's race has no card sure to end in the wind)


# ------------------------------------------------------------------ checks speak only of what happened

def entry_of(lesson: str) -> lessons.Entry:
    return next(e for e in lessons.catalogue() if e.id == lesson)


def said(t: Tutorial, round_: int) -> str:
    return "\n".join(t.reports[round_])


def test_the_sprint_check_blames_no_card_when_the_line_was_out_of_reach():
    # in round 6 no card of the player's could cross the line (the Sprinteur's best card a 4
    # from 31, the Rouleur on the climb from 21, the line at 43): nothing to blame; round 7's
    # 9 crosses
    actions = ["draw blue.R", "play blue.R 5", "play blue.S 5", "draw blue.R", "play blue.R 6", "play blue.S 9",
               "draw blue.S", "play blue.S 9", "play blue.R 6", "draw blue.R", "play blue.R 4", "play blue.S 5",
               "draw blue.R", "play blue.R 3", "play blue.S E", "draw blue.S", "play blue.S 4", "play blue.R 4",
               "draw blue.R", "play blue.R 5", "play blue.S 9"]
    t = Tutorial(entry_of("classic"), actions)
    sprint = next(k for k, s in enumerate(t.lesson.steps) if s.check == "finish")
    assert sprint in t.steps[6] and "Next time" not in said(t, 6)
    assert (6, sprint) in t.retry and sprint in t.steps[7]  # taught again, where the line is in reach
    assert "Well done: you crossed the line!" in said(t, 7)


def test_a_check_is_none_where_its_situation_did_not_arise():
    from flamme_tui.play.tutorial import checked

    t = Tutorial(entry_of("meteo"))  # no round played yet: no move, no event
    game, ours = t.game, {i for i, r in enumerate(t.game.riders) if r.seat == 0}
    assert checked("finish", game, ours, [], "finish", line_in_reach=True) is False  # it could have crossed
    assert checked("finish", game, ours, [], "finish", line_in_reach=False) is None
    assert checked("no_crash", game, ours, [], "wet") is None  # nobody went onto the wet road
    assert checked("not_blocked", game, ours, [], "cobbles") is None
    assert checked("not_blocked", game, ours, []) is True  # a round's blocking step speaks as before


def test_the_cobbles_check_waits_for_a_move_onto_the_cobbles():
    actions = ["draw blue.R", "bid blue.R 6", "bid blue.R 5", "draw blue.R", "play blue.R 7", "play blue.S 9",
               "draw blue.R", "play blue.R 7", "play blue.S 5", "draw blue.R", "play blue.R 4", "play blue.S 9"]
    t = Tutorial(entry_of("peloton"), actions)
    cobbles = next(k for k, s in enumerate(t.lesson.steps) if s.at == "cobbles")
    # round 2: the Rouleur ends just short of the cobbles; round 3 it rides onto them
    assert cobbles in t.steps[2] and "cobbles" not in said(t, 2)
    assert "Well done: no card of yours was blocked on the cobbles." in said(t, 3)


def test_the_catch_up_check_is_silent_when_the_die_let_nobody_catch_up():
    t = Tutorial(entry_of("bmx"), ["play blue 2", "play blue 5", "play blue 5", "play blue 4"])
    step = next(k for k, s in enumerate(t.lesson.steps) if s.check == "catch_up")
    assert step in t.steps[2] and "The die showed nothing" in said(t, 2)
    assert "catching up" not in said(t, 2) and "caught up" not in said(t, 2)
    assert step in t.steps[3]  # taught again


def test_a_lesson_s_text_names_a_rebindable_key_as_bound():
    text = "press {key:race.hint} when you choose, {key:no.such} stays"
    bound = {"race.hint": "f6"}
    assert lessons.with_keys(text, bound.get) == "press f6 when you choose, {key:no.such} stays"


def test_every_key_a_shipped_lesson_names_is_a_key_of_the_settings():
    from flamme_tui.ui.keys import binding_ids

    ids = set(binding_ids())
    for entry in lessons.catalogue():
        text = (SHIPPED / f"{entry.id}.yaml").read_text()
        assert {m.group(1) for m in lessons.KEY_MARK.finditer(text)} <= ids, entry.id


@pytest.mark.parametrize("lang", lessons.LANGUAGES)
def test_the_classic_outro_names_the_hint_setting_as_the_settings_screen_does(lang):
    from flamme_tui import i18n

    try:
        i18n.set_language(lang)
        outro = " ".join(classic().lesson.said("outro").split())
        assert i18n._("Hint key in races") in outro and i18n._("Settings") in outro
        assert "{key:race.hint}" in outro
    finally:
        i18n.set_language("en")


def test_the_outcome_says_how_a_tie_on_the_furthest_square_is_settled():
    """The lesson's last line said who won, never why when two riders end on one square
    past the line (a new player saw theirs level with the winner): the rule is said."""
    t = play(classic(), "easy")  # its two riders end level on the furthest square
    assert t.outcome_line().startswith("Your Rouleur won. Your team finished 1st of 3.")  # (a place, "1 of 3" read as a count)
    game = t.game
    first, second = game.ranking()[:2]
    assert game.pos[first][0] == game.pos[second][0] > game.course.finish and game.pos[first][1] == 0
    assert t.outcome_line().endswith("Two riders on the furthest square: the one in the right lane wins."), \
        t.outcome_line()
    assert "furthest square" not in play(classic(), "hard").outcome_line()  # one rider furthest: nothing to settle
