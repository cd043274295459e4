"""The coach (`play.coach`, `flamme-tui coach SAVE`): each human seat's
costliest cards against the expert's choice, judged from that seat's view
at that moment only, the same on every run with a rollout budget."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest
from test_bots import decision_points, scramble_others

from flamme_tui import saves
from flamme_tui.bots import POLICIES, Budget
from flamme_tui.bots.expert import explain
from flamme_tui.engine.actions import Play, PlayTokens
from flamme_tui.play import coach
from flamme_tui.play.races import RaceSpec
from flamme_tui.play.session import Session

BUDGET = Budget(rollouts=24)  # small and deterministic


def finished(variant: str, seed: int = 4, over: bool = True) -> Session:
    """A two-team race: seat 0 a person (played here by `medium`), seat 1 the easy bot."""
    session = Session.new(RaceSpec(variant=variant, teams=RaceSpec().teams[:2]), seed, bots={1: "easy"})
    while not session.over and (over or session.game.round < 4):
        if session.due() == 0:
            session.apply(POLICIES["medium"](session.game.view(0)))
        else:
            session.play_bots()
    return session


def hidden(game, seat: int) -> list:
    """What the seat cannot see: the other seats' hands, face-down piles (bags) and chosen cards."""
    return [(r.hand, getattr(r, "deck", None) or getattr(r, "bag", None), r.played)
            for r in game.riders if r.seat != seat]


def other_card(view, action):
    """A card of the same rider the expert would not play (None if it has one choice only)."""
    for option in view.options():
        a = option.action
        if isinstance(a, (Play, PlayTokens)) and a.rider == action.rider and a != action:
            return a
    return None


@pytest.mark.parametrize("variant", ["classic", "meteo", "bmx"])
def test_hidden_cards_never_change_a_verdict_or_a_hint(variant):
    checked = 0
    for game, seat in decision_points(variant, 3, limit=3):
        view = game.view(seat)
        if not view.hands:
            continue
        best = explain(view, BUDGET).action
        played = other_card(view, best) or best
        verdict = coach.judge(view, played, BUDGET)
        said = coach.hint(view, BUDGET)
        for k in range(2):
            twin = game.clone()
            scramble_others(twin, seat, random.Random(k))
            # the same view of a game whose hidden cards differ
            assert hidden(twin, seat) != hidden(game, seat)
            assert twin.view(seat) == view
            assert coach.judge(twin.view(seat), played, BUDGET) == verdict
            assert coach.hint(twin.view(seat), BUDGET) == said
        checked += 1
    assert checked >= 2


@pytest.mark.parametrize("variant", ["classic", "bmx"])
def test_a_hint_says_why_in_the_expert_s_simulated_races_its_card_and_the_next_best(variant):
    """"lands in the wind" alone read as the reason to play a card: the hint also says what
    the card did in the expert's simulated races, and what the next best card did."""
    from flamme_tui.engine.cards import card_text
    from flamme_tui.engine.events import token_text

    told = 0
    for game, seat in decision_points(variant, 5, limit=4):
        view = game.view(seat)
        decision = explain(view, BUDGET)
        if not view.hands or len(decision.odds) < 2:
            continue
        (best, won, n, _margin), (other, other_won, m, _other_margin) = decision.odds
        assert best == decision.action and other != best and 0 < n <= BUDGET.rollouts and 0 < m <= n
        said = coach.hint(view, BUDGET).splitlines()[-1]
        other_text = "+".join(token_text(t) for t in other.tokens) if variant == "bmx" else card_text(other.card)
        assert said.startswith(f"Its simulated races: won {round(100 * won / n)}% of {n}, on average ")
        assert f"; the {other_text}, next best: {round(100 * other_won / m)}%, " in said
        told += 1
    assert told >= 2


def test_the_expert_s_own_card_costs_nothing_and_another_is_compared():
    game, seat = next((g, s) for g, s in decision_points("classic", 5, limit=6)
                      if other_card(g.view(s), explain(g.view(s), BUDGET).action))
    view = game.view(seat)
    best = explain(view, BUDGET).action
    same = coach.judge(view, best, BUDGET)
    assert same.worlds == 0 and same.cost == 0.0
    other = coach.judge(view, other_card(view, best), BUDGET)
    assert other.worlds == coach.worlds_for(BUDGET) and other.played != other.best
    assert 0.0 <= other.win_played <= 1.0 and 0.0 <= other.win_best <= 1.0
    assert other.reason and "\n" not in other.reason


@pytest.mark.parametrize("variant", ["classic", "meteo", "bmx"])
def test_a_race_is_coached_alike_twice_in_every_rule_set(variant):
    session = finished(variant)
    seats = coach.humans(session.setup, session.seed, session.bots)
    assert seats == [0]
    first = coach.coach(session.setup, session.seed, session.entries, seats, BUDGET)
    again = coach.coach(session.setup, session.seed, session.entries, seats, BUDGET)
    assert first == again
    # the app's coach asks a few cards at a time (it says how far it has got): the same lessons
    from flamme_tui.setupdata import setup_json

    race = (setup_json(session.setup), session.seed, tuple(session.actions_text()), tuple(seats), BUDGET.rollouts)
    n, verdicts = coach.coach_job(*race, 0, 3)
    while len(verdicts) < n:
        verdicts += coach.coach_job(*race, len(verdicts), len(verdicts) + 3)[1]
    assert n > 3 and coach.lessons_of(session.setup, seats, verdicts) == first
    (lessons,) = first
    assert lessons.looked_at == sum(1 for a in session.game.actions if isinstance(a, (Play, PlayTokens))
                                    and session.game.riders[session.game.index[a.rider]].seat == 0)
    assert len(lessons.verdicts) <= coach.TOP
    costs = [v.cost for v in lessons.verdicts]
    assert costs == sorted(costs, reverse=True) and all(c > 0 for c in costs)
    assert lessons.verdicts, "medium never matched the expert everywhere"
    lines = coach.report_lines(first)
    assert lines[0].startswith("Red:") and any("Why: the " in line for line in lines)
    # BMX is played with tokens: the coach says so, never "cards"
    said = "\n".join(lines)
    if variant == "bmx":
        assert "plays of tokens looked at again" in lines[0] and "the expert's tokens " in said
        assert "card" not in said
    else:
        assert "cards looked at again" in lines[0] and "the expert's card " in said


def test_the_coach_command_prints_the_lessons_and_refuses_a_race_in_progress(tmp_path):
    done = saves.save(finished("classic"), tmp_path / "done.json")
    going = saves.save(finished("classic", over=False), tmp_path / "going.json")
    run = [sys.executable, "-m", "flamme_tui", "coach", "--rollouts", "16"]
    out = subprocess.run([*run, str(done)], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "Red: " in out.stdout and "1. Round " in out.stdout and "Why: the " in out.stdout
    # its header says the budget as the lessons spend it
    assert "(the expert chooses in 16 simulated races, then its card and the card played race on in the same 8 " \
           "sampled races)" in out.stdout.splitlines()[0] and "of 8 sampled races" in out.stdout
    assert "Blue:" not in out.stdout  # a bot's seat is not coached
    refused = subprocess.run([*run, str(going)], capture_output=True, text=True, timeout=300)
    assert refused.returncode == 2 and refused.stdout == ""
    assert "in progress" in refused.stderr and len(refused.stderr.strip().splitlines()) == 1


# ------------------------------------------------------------------ hints in the save

def test_hints_taken_are_saved_and_loaded_and_change_no_replay(tmp_path):
    import json

    plain = finished("classic", over=False)
    path = saves.save(plain, tmp_path / "plain.json")
    assert "hints" not in json.loads(path.read_text())  # a race without hints is saved as before
    hinted = finished("classic", over=False)
    hinted.took_hint(0)
    assert hinted.hints == [(0, len(hinted.entries))]
    again = saves.load(saves.save(hinted, tmp_path / "hinted.json"))
    assert again.hints == hinted.hints and again.hinted() == {0: 1}
    assert saves.load_replay(tmp_path / "hinted.json").frames == saves.load_replay(path).frames


def test_a_save_whose_hints_name_no_seat_is_refused_in_one_line(tmp_path):
    import json

    session = finished("classic", over=False)
    session.took_hint(0)
    path = saves.save(session, tmp_path / "race.json")
    doc = json.loads(path.read_text())
    doc["hints"] = [{"seat": 5, "at": 0}]
    doc["checksum"] = saves._checksum(doc)
    path.write_text(json.dumps(doc))
    with pytest.raises(saves.SaveError) as err:
        saves.load(path)
    assert "hints" in str(err.value) and "\n" not in str(err.value)


# ------------------------------------------------------------------ a tour's stages

def tour_stage(stages: str = "avenue-corso-paseo,firenze-milano:meteo", seed: int = 4) -> Session:
    """A two-stage tour's first stage, finished: seat 0 a person (played by `medium`), seat 1 the easy bot."""
    from flamme_tui.play import tours

    tour = tours.Tour.new(tours.stages_option(stages), RaceSpec().teams[:2], seed)
    session = tours.stage_session(tour, {1: "easy"})
    while not session.over:
        if session.due() == 0:
            session.apply(POLICIES["medium"](session.game.view(0)))
        else:
            session.play_bots()
    return session


def test_a_tour_stage_is_judged_by_its_worth_in_the_tour_and_said_so():
    """After a tour's stage the coach said "won 0% of 100 simulated races, the expert's
    card 21%": the stage win, while the expert (as the bots) measures a tour's stage by
    its worth in the tour (engine.tour.stage_value). It gives and names that measure."""
    from flamme_tui.play import tours

    session = tours.next_session(tour_stage())  # the second stage: a GC stands before it
    while not session.over:
        if session.due() == 0:
            session.apply(POLICIES["medium"](session.game.view(0)))
        else:
            session.play_bots()
    [lessons] = coach.coach(session.setup, session.seed, session.entries, [0], BUDGET)
    assert lessons.tour and lessons.verdicts
    for v in lessons.verdicts:
        assert v.tour and 0.0 <= v.worth_played <= 1.0 and 0.0 <= v.worth_best <= 1.0
        assert v.cost == pytest.approx(v.worth_best - v.worth_played)  # the lesson's cost is that measure
        said = v.figures()
        assert "sampled races" not in said and "won " not in said
        assert f"a tour standing of {round(100 * v.worth_played)}/100 over {v.worlds} sampled stages" in said
        assert said.endswith(f"the expert's card {round(100 * v.worth_best)}/100")
    lines = coach.report_lines([lessons])
    assert lines[0].startswith("In a tour the expert judges a card by the tour standing the stage leaves, "
                               "not by the stage win")
    # a race is still judged by its win
    race = coach.coach(*(lambda s: (s.setup, s.seed, s.entries))(finished("classic")), [0], BUDGET)
    assert not race[0].tour and "In a tour" not in "\n".join(coach.report_lines(race))
    assert all("sampled races" in v.figures() for v in race[0].verdicts)


def test_the_coach_command_coaches_a_tour_s_finished_stage_and_refuses_one_not_over(tmp_path):
    from flamme_tui.play import tours

    first = tour_stage()
    path = saves.save(first, tmp_path / "tour.json")  # stage 1 over, stage 2 not begun
    expected = coach.report_lines(coach.coach(first.setup, first.seed, first.entries, [0], Budget(rollouts=16)))
    run = [sys.executable, "-m", "flamme_tui", "coach", "--rollouts", "16"]
    out = subprocess.run([*run, str(path)], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "stage 1 of 2: Avenue Corso Paseo" in out.stdout.splitlines()[0]
    assert out.stdout.splitlines()[2:] == expected  # the stage's own set-up, seed and log
    assert "Red: " in out.stdout and "Blue:" not in out.stdout
    # the next stage begun: stage 1 is still coached (by --stage), stage 2 is not over
    second = tours.next_session(first)
    second.apply(POLICIES["easy"](second.game.view(second.due())))
    saves.save(second, path)
    again = subprocess.run([*run, "--stage", "1", str(path)], capture_output=True, text=True, timeout=300)
    assert again.returncode == 0 and again.stdout.splitlines()[2:] == expected
    refused = subprocess.run([*run, "--stage", "2", str(path)], capture_output=True, text=True, timeout=300)
    assert refused.returncode == 2 and refused.stdout == ""
    assert refused.stderr.strip().endswith("stage 2 of the tour is not over (finished: 1 to 1)")
    race = saves.save(finished("classic"), tmp_path / "race.json")
    no_tour = subprocess.run([*run, "--stage", "1", str(race)], capture_output=True, text=True, timeout=300)
    assert no_tour.returncode == 2 and "not a tour" in no_tour.stderr
    assert len(no_tour.stderr.strip().splitlines()) == 1


# ------------------------------------------------------------------ the Peloton expansion

PELOTON = RaceSpec(variant="classic", stage="peloton-8", teams=RaceSpec().teams[:3], scripted=("", "", "peloton"),
                   breakaway=True)  # three lanes, supply zones, cobbles, the breakaway, a scripted team


def peloton_points(seed: int, limit: int = 3) -> list:
    """(game, seat) where a person's seat picks a card, in a Peloton race played by easy bots."""
    from flamme_tui.engine.turns import turns
    from flamme_tui.play.races import make_setup, new_game

    game = new_game(make_setup(PELOTON), seed)
    found = []
    while game.phase != "over" and len(found) < limit:
        for seat in turns(game):
            if game.phase == "energy" and game.view(seat).hands and random.Random(seed + game.round).random() < 0.4:
                found.append((game.clone(), seat))
            game.apply(POLICIES["easy"](game.view(seat)))
    return found


def test_hidden_cards_never_change_a_verdict_or_a_hint_on_a_peloton_stage():
    checked = 0
    for game, seat in peloton_points(5):
        view = game.view(seat)
        assert max(game.course.lanes) == 3 and view.board.riders  # three-lane squares
        best = explain(view, BUDGET).action
        played = other_card(view, best) or best
        verdict = coach.judge(view, played, BUDGET)
        said = coach.hint(view, BUDGET)
        for k in range(2):
            twin = game.clone()
            scramble_others(twin, seat, random.Random(k))
            assert hidden(twin, seat) != hidden(game, seat) and twin.view(seat) == view
            assert coach.judge(twin.view(seat), played, BUDGET) == verdict
            assert coach.hint(twin.view(seat), BUDGET) == said
        checked += 1
    assert checked >= 2


def test_a_peloton_race_is_coached_for_its_people_only_and_its_bids_are_no_decision():
    session = Session.new(PELOTON, 6, bots={1: "easy"})
    while not session.over:
        if session.due() == 0:
            session.apply(POLICIES["medium"](session.game.view(0)))
        else:
            session.play_bots()
    game = session.game
    assert any(type(a).__name__ == "Bid" for a in game.actions)  # the breakaway was bid
    seats = coach.humans(session.setup, session.seed, session.bots)
    assert seats == [0]  # not the bot, not the scripted Peloton
    (lessons,) = coach.coach(session.setup, session.seed, session.entries, seats, BUDGET)
    assert lessons.looked_at == sum(1 for a in game.actions if isinstance(a, Play) and a.rider.startswith("red."))
    assert lessons.verdicts and all(v.reason for v in lessons.verdicts)
    assert coach.coach(session.setup, session.seed, session.entries, seats, BUDGET) == [lessons]


def test_the_expert_s_own_fact_is_said_in_brackets_and_a_card_over_the_line_crosses_it():
    from types import SimpleNamespace

    from flamme_tui.play.narrator import coach_reason

    base = dict(best="7", played="3", exhaustion=0.0, squares=2.0, why="further", tired="exhaustion")
    over = SimpleNamespace(**base, public="plays 7: over the line")
    assert coach_reason(over) == "the 7 goes 2.0 squares further this round (it crosses the finish line)"
    lands = SimpleNamespace(**base, public="plays 7: lands in the wind at the front of its group (if the others "
                                           "stood still)")
    assert coach_reason(lands) == ("the 7 goes 2.0 squares further this round (it lands in the wind at the front "
                                   "of its group, if the others stood still)")
    assert coach_reason(SimpleNamespace(**base, public="")) == "the 7 goes 2.0 squares further this round"


def test_the_expert_s_fact_never_contradicts_its_reason():
    """Fewer exhaustion cards on average is not said beside "lands in the wind" (as if nobody
    moved): the two read as opposites; out of the wind, the fact agrees and is said."""
    from types import SimpleNamespace

    from flamme_tui.play.narrator import coach_reason

    base = dict(best="7", played="3", exhaustion=0.8, squares=0.0, why="tired", tired="exhaustion")
    wind = SimpleNamespace(**base, public="plays 7: lands in the wind at the front of its group (if the others "
                                          "stood still)")
    assert coach_reason(wind) == "the 7 takes 0.8 fewer exhaustion cards on average"
    sheltered = SimpleNamespace(**base, public="plays 7: lands behind a rider, out of the wind (if the others "
                                               "stood still)")
    assert coach_reason(sheltered) == ("the 7 takes 0.8 fewer exhaustion cards on average (it lands behind a rider, "
                                       "out of the wind, if the others stood still)")


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_difference_that_rounds_to_nothing_has_no_minus_sign(lang):
    from flamme_tui import i18n
    from flamme_tui.play.narrator import signed

    i18n.set_language(lang)
    try:
        assert signed(-0.04).lstrip("+") == signed(0.0).lstrip("+") and not signed(-0.04).startswith("-")
        assert signed(-0.5).startswith("-") and signed(0.5).startswith("+")
    finally:
        i18n.set_language("en")


def test_a_lesson_with_as_many_wins_says_its_cost_is_in_the_margins():
    """A card that won as many sampled races as the expert's still costs
    something (search.worth: the margins): the figures said "won 78% ...,
    the expert's card 78%", and read as no loss at all."""
    common = dict(seat=0, round=3, rider=0, rider_name="Red Rouleur", square="12", played="3", best="5",
                  worlds=100, cost=0.02, squares=0.4, exhaustion=0.0, why="better", public="", at=9)
    same = coach.Verdict(win_played=0.78, win_best=0.781, **common)
    assert same.figures().endswith("won 78% of 100 sampled races, as many as the expert's card, by smaller margins")
    worse = coach.Verdict(win_played=0.70, win_best=0.78, **common)
    assert worse.figures().endswith("won 70% of 100 sampled races, the expert's card 78%")
    tokens = coach.Verdict(win_played=0.5, win_best=0.5, tired="fatigue", **common)
    assert tokens.figures().endswith("as many as the expert's tokens, by smaller margins")


def test_the_coach_names_the_riders_in_the_language_it_is_asked_in():
    """The app's coach judges the cards in its thinking process, another interpreter with a
    language of its own: a Spanish coach said "Ronda 9, Sprinteur Blue". coach_job is told
    the language, as the hint's job is."""
    from flamme_tui import i18n
    from flamme_tui.setupdata import setup_json
    from flamme_tui.words import team_name

    session = finished("classic", over=False)
    race = (setup_json(session.setup), session.seed, tuple(session.actions_text()), (0,), BUDGET.rollouts)
    try:
        i18n.set_language("es")
        blue = team_name(session.setup, 0)
        _n, (verdict, *_rest) = coach.coach_job(*race, 0, 1, "es")
    finally:
        i18n.set_language("en")
    assert blue != session.setup.teams[0].name  # the team named by default: a word of each language
    assert verdict.team == blue and verdict.rider_name.startswith(blue)


def test_the_app_s_coach_replays_a_race_once_however_many_calls_ask_about_it(monkeypatch):
    """A review: coach_job replayed the whole race for every few cards the coach's screen
    asked about.  It replays a race once and judges the cards of each call from that
    replay, with the same verdicts; another race (or other seats) is replayed anew."""
    from flamme_tui.setupdata import setup_json

    session = finished("classic")
    replays = []
    real = coach.decisions

    def counted(*args):
        replays.append(args[1])
        return real(*args)

    monkeypatch.setattr(coach, "decisions", counted)
    race = (setup_json(session.setup), session.seed, tuple(session.actions_text()), (0,), BUDGET.rollouts)
    n, verdicts = coach.coach_job(*race, 0, 3)
    while len(verdicts) < n:
        verdicts += coach.coach_job(*race, len(verdicts), len(verdicts) + 3)[1]
    assert n > 6 and len(replays) == 1
    assert coach.lessons_of(session.setup, [0], verdicts) == coach.coach(session.setup, session.seed,
                                                                          session.entries, [0], BUDGET)
    other = Session.new(RaceSpec(variant="classic", teams=RaceSpec().teams[:2]), 5, bots={1: "easy"})
    while not other.over:
        if other.due() == 1:
            other.play_bots()
        else:
            other.apply(POLICIES["medium"](other.game.view(0)))
    replays.clear()
    coach.coach_job(setup_json(other.setup), other.seed, tuple(other.actions_text()), (0,), BUDGET.rollouts, 0, 1)
    coach.coach_job(*race[:3], (1,), BUDGET.rollouts, 0, 1)
    assert len(replays) == 2
