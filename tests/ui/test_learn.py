"""Learning by playing, in the app: the coach after a race (the podium's `c`),
the hint key, the tutorial."""

from __future__ import annotations

import pytest

from flamme_tui import saves
from flamme_tui.play.flow import RaceFlow
from flamme_tui.ui.app import FlammeApp
from flamme_tui.ui.scenarios import advance, choices
from flamme_tui.ui.textshot import screen_text

from .driver import screen_name

pytestmark = pytest.mark.usefixtures("fast_pilot")


# ------------------------------------------------------------------ the coach

async def test_the_podium_s_coach_shows_each_person_s_costliest_cards_and_replays_their_round(
        data_dir, monkeypatch, tmp_path):
    import flamme_tui.ui.screens.coach as coach_screen

    monkeypatch.setattr(coach_screen, "ROLLOUTS", 12)  # a small budget: the same lessons, sooner
    race = choices("classic", 2, seed=7)
    session = race.session()
    advance(session, 200)
    assert session.over
    session.save_path = saves.save(session, tmp_path / "race.json")
    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        app.choices = race
        app.show_podium(RaceFlow(session))
        await pilot.pause()
        assert "coach" in screen_text(app)  # the key bar offers it
        await pilot.press("c")
        await pilot.pause()
        assert screen_name(app) == "CoachScreen"
        await app.workers.wait_for_complete()
        for _ in range(100):  # the lessons mounted and laid out (the head wraps as the scroll bar comes)
            await pilot.pause(0.01)
            if "the expert chooses in 12 simulated races" in screen_text(app):
                break
        screen = app.screen
        assert screen.lessons is not None and [s.name for s in screen.lessons] == ["Blue", "Orange"]
        text = screen_text(app)
        assert "[1] Round " in text and "Why: the " in text
        first = screen.lessons[0].verdicts[0]
        # the header's budget is the one the lessons spent: the expert's 12 races, then both cards in the same 8
        assert "the expert chooses in 12 simulated races" in text and "in the same 8 sampled races" in text
        assert f"of {first.worlds} sampled races" in text and first.worlds == 8
        await pilot.press("1")
        await pilot.pause()
        assert screen_name(app) == "ReplayScreen"
        frame = app.screen.replay.frames[app.screen.index]
        # the replay opens on the position the card was chosen in: the round before its reveal,
        # and says so on its title line
        assert frame.title == ("Start" if first.round == 1 else f"Round {first.round - 1}")
        assert f"lesson 1: round {first.round}'s cards chosen here, → plays it" in screen_text(app)
        await pilot.press("right")
        await pilot.pause()
        assert "lesson 1" not in screen_text(app)  # the note is that frame's only
        await pilot.press("left")
        await pilot.press("escape")
        await pilot.press("escape")
        await pilot.pause()
        assert screen_name(app) == "PodiumScreen"


# ------------------------------------------------------------------ the hint

async def test_a_hint_shows_the_expert_s_card_is_noted_in_the_save_and_any_key_goes_back(data_dir):
    import json

    from flamme_tui.ui.scenarios import SCENARIOS

    app = FlammeApp(seed=7, autoplay=False, autosave=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await SCENARIOS["hint"](pilot)
        assert screen_name(app) == "HintScreen"
        text = screen_text(app)
        assert "The expert would play " in text and "with the Rouleur" in text
        session = app.flow.session
        assert session.hints == [(0, len(session.entries))]
        await app.workers.wait_for_complete()  # the autosave's write
        saved = json.loads(session.save_path.read_text())
        assert saved["hints"] == [{"seat": 0, "at": len(session.entries)}]  # on disk at once, no action since
        assert "Hint" in [c.title for c in app.get_system_commands(app.screen_stack[-2])]
        await pilot.press("x")
        await pilot.pause()
        assert screen_name(app) == "RaceScreen" and app.screen.turn.kind == "pick"


@pytest.mark.parametrize("case", ["off", "several people"])
async def test_no_hint_when_hints_are_off_or_several_people_race(case):
    from flamme_tui.ui.scenarios import one_human, settle

    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        if case == "several people":
            app.settings = app.settings.model_copy(update={"hints": "solo"})
            app.start_race(choices("classic", 2, seed=7))  # two people at one keyboard
            await settle(pilot)
            await pilot.press("enter")  # the curtain
        else:
            app.start_race(one_human())
        await settle(pilot)
        await pilot.press("2")  # (a number chooses at once)
        await settle(pilot)
        assert app.screen.turn.kind == "pick"
        await pilot.press("h")
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert screen_name(app) == "RaceScreen"
        assert app.flow.session.hints == []
        said = [n.message for n in app._notifications]
        assert said == (["Hints are off: turn them on in Settings (hint key in races)."] if case == "off"
                        else ["Hints are for one person racing against bots: Settings can offer them to everyone, "
                              "and the race log then says who asks."])


async def test_hints_for_everyone_at_a_hot_seat_table_are_said_in_the_log():
    """Settings, hint key "everyone": two people at one keyboard may each ask,
    and the race log, which the whole table reads, says who asked (a resumed
    race's log too); the podium marks the result."""
    from flamme_tui.play.flow import history
    from flamme_tui.play.narrator import HintTaken
    from flamme_tui.ui.scenarios import settle

    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        app.settings = app.settings.model_copy(update={"hints": "all"})
        app.start_race(choices("classic", 2, seed=7))  # two people at one keyboard
        await settle(pilot)
        await pilot.press("enter")  # the curtain
        await settle(pilot)
        await pilot.press("2")  # the Rouleur draws first
        await settle(pilot)
        assert app.screen.turn.kind == "pick"
        await pilot.press("h")
        for _ in range(100):
            await pilot.pause(0.05)
            if screen_name(app) == "HintScreen":
                break
        await pilot.pause()
        assert screen_name(app) == "HintScreen" and "The expert would play " in screen_text(app)
        await pilot.press("x")
        await pilot.pause()
        session = app.flow.session
        assert session.hints == [(0, len(session.entries))]
        assert "Blue asked the expert for a hint" in app.flow.log
        assert "Blue asked the expert for a hint" in app.screen.log_w.text()  # what the players read
        past, now = history(session)  # the log of the race resumed now
        assert HintTaken(0) in now and HintTaken(0) not in past


async def test_the_podium_marks_a_result_reached_with_hints():
    race = choices("classic", 2, seed=7)
    session = race.session()
    session.took_hint(0)
    advance(session, 200)
    session.took_hint(0)
    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        app.choices = race
        app.show_podium(RaceFlow(session))
        await pilot.pause()
        assert "With hints: Blue (2 hints)" in screen_text(app)


# ------------------------------------------------------------------ the tutorial

@pytest.mark.parametrize("lesson_id", ["classic", "meteo", "peloton", "bmx"])
async def test_each_lesson_is_played_from_the_title_menu_to_its_end_by_keys(data_dir, lesson_id):
    from flamme_tui.play.lessons import catalogue

    entries = catalogue()
    lesson = next(e for e in entries if e.id == lesson_id).lesson
    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        menu = app.screen.query_one("#title-menu")
        await pilot.press(*["down"] * menu.get_option_index("learn"))
        await pilot.press("enter")  # Learn to play
        await pilot.pause()
        assert screen_name(app) == "LessonsScreen" and lesson.title in screen_text(app)
        await pilot.press(*["down"] * [e.id for e in entries].index(lesson_id), "enter")
        await pilot.pause()
        assert screen_name(app) == "TutorialScreen" and app.screen.tutorial.lesson == lesson
        assert "Enter: start the race" in screen_text(app)
        await pilot.press("enter")
        screen = app.screen
        ideas, reports = set(), 0
        for _ in range(200):
            if screen.tutorial.over:
                break
            title = screen.query_one("#lesson-title").render().plain
            ideas |= {s.idea for s in lesson.steps if s.idea in title}
            options = screen.tutorial.options()
            if screen.tutorial.kind() in ("draw", "bidder"):
                key = "2"  # the Rouleur draws first (bids in the breakaway)
            elif screen.tutorial.kind() == "bid":  # the highest card
                key = str(max(range(len(options)), key=lambda k: options[k].action.card) + 1)
            else:  # the card (tokens) that goes furthest
                best = max(range(len(options)), key=lambda k: (options[k].preview.square, -k))
                key = str(best + 1)
            await pilot.press(key)
            reports += "Last round:" in screen_text(app)
        assert screen.tutorial.over
        assert ideas == {s.idea for s in lesson.steps}  # every step was taught
        assert reports >= screen.tutorial.game.round - 1  # every reveal explained
        if lesson.breakaway:  # the bids were played by keys, and their result explained
            assert any(a.startswith("bid blue.R ") for a in screen.tutorial.actions_text())
            assert "Your Rouleur broke away with " in "\n".join(screen.tutorial.reports[0])
        text = screen_text(app)
        assert "won. Your team finished" in text and "Enter: back to the lessons" in text
        await pilot.press("enter")
        await pilot.pause()
        assert screen_name(app) == "LessonsScreen"
        # the menu marks it done (it said nothing of a finished lesson), and it alone
        lines = screen_text(app).splitlines()
        marked = [e.lesson.title for e in entries if e.lesson and any(
            e.lesson.title in line and "(done)" in line for line in lines)]
        assert marked == [lesson.title], lines


async def test_a_lesson_left_is_resumed_where_it_was_and_a_skipped_one_starts_again(data_dir):
    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        from flamme_tui.ui.screens.tutorial import LessonsScreen

        app.push_screen(LessonsScreen())
        await pilot.pause()
        await pilot.press("enter", "enter", "2", "1", "2")  # the Rouleur draws first, a card each
        await pilot.pause()
        played = app.screen.tutorial.actions_text()
        assert played[0] == "draw blue.R" and app.screen.tutorial.game.round == 2
        await pilot.press("escape")
        await pilot.pause()
        assert screen_name(app) == "LessonsScreen" and "in progress" in screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen.tutorial.actions_text() == played  # resumed: no intro, the same race
        assert "Last round:" in screen_text(app) and app.screen.tutorial.reports[1]
        await pilot.press("x")  # a lesson under way: asked first, and kept by default
        await pilot.pause()
        assert screen_name(app) == "ConfirmSkipLesson" and "Skip this lesson?" in screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        assert screen_name(app) == "TutorialScreen" and app.screen.tutorial.actions_text() == played
        await pilot.press("x")
        await pilot.pause()
        await pilot.press("n")
        await pilot.pause()
        assert screen_name(app) == "TutorialScreen"
        await pilot.press("x")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert screen_name(app) == "LessonsScreen" and "in progress" not in screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen.tutorial.actions_text() == [] and "Enter: start the race" in screen_text(app)


async def test_the_tutorial_command_opens_the_lesson_over_the_lessons_and_the_title_menu(data_dir):
    from flamme_tui.play.lessons import catalogue
    from flamme_tui.ui.screens.tutorial import tutorial_app

    app = tutorial_app(next(e for e in catalogue() if e.id == "bmx"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.pause()
        assert screen_name(app) == "TutorialScreen" and "BMX" in screen_text(app)
        await pilot.press("escape")  # left before anything was played: nothing kept
        await pilot.pause()
        assert screen_name(app) == "LessonsScreen" and "in progress" not in screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        assert screen_name(app) == "TitleScreen"


def test_the_tutorial_command_refuses_an_unknown_lesson_in_one_line():
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "flamme_tui", "tutorial", "nope"], capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.strip() == "flamme-tui: tutorial: no lesson 'nope' (lessons: classic, meteo, peloton, bmx)"


def slow_hint_app(monkeypatch, seconds: float) -> FlammeApp:
    """An app whose hint takes `seconds` (worked out on a thread, not the thinking process),
    hints on, for one person's race."""
    import time

    import flamme_tui.ui.hints as hints
    from flamme_tui.play.thinker import Thinker

    def slow_hint(*args):
        time.sleep(seconds)
        return "The expert would play 5 with the Rouleur: a slow answer"

    monkeypatch.setattr(hints, "hint_job", slow_hint)
    return FlammeApp(seed=7, autoplay=False, autosave=False, thinker=Thinker(processes=False))


async def start_one_human_pick(app, pilot) -> None:
    """Hints on, one person racing, its Rouleur drawn: its cards to pick from."""
    from flamme_tui.ui.scenarios import one_human, settle

    app.settings = app.settings.model_copy(update={"hints": "solo"})
    app.start_race(one_human())
    await settle(pilot)
    await pilot.press("2")  # the Rouleur draws: its cards
    await settle(pilot)


async def test_the_screen_answers_keys_while_the_hint_is_worked_out(monkeypatch):
    """The hint is worked out off the screen's thread (the bots' thinking process; a
    thread here, with a hint that takes a second): a key that changes the screen is
    answered at once meanwhile, then the hint shows."""
    import time

    from .test_workers import wait_for

    app = slow_hint_app(monkeypatch, 1.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await start_one_human_pick(app, pilot)
        screen = app.screen
        t0 = time.monotonic()
        await pilot.press("h")
        app.notify("said meanwhile", timeout=30)
        before = screen_text(app)
        await pilot.press("right")  # select another card
        await wait_for(lambda: screen_text(app) != before, timeout=0.5)
        assert screen_name(app) == "RaceScreen" and time.monotonic() - t0 < 0.5  # the hint still thinks
        await wait_for(lambda: screen_name(app) == "HintScreen", timeout=10)
        assert time.monotonic() - t0 >= 1.0
        await pilot.pause()
        assert "a slow answer" in screen_text(app)
        # "looking at your cards" lay over the answer for seconds (Textual has no public list of its toasts);
        # it alone goes: another toast said meanwhile stays
        assert [n.message for n in app._notifications] == ["said meanwhile"]
        assert screen.turn.kind == "pick"


async def test_a_hint_that_comes_after_the_card_was_chosen_is_dropped_with_its_notice(monkeypatch):
    """The player chose before the hint came: no hint for a position that is
    gone, and "looking at your cards" no longer lies over the review's table."""
    from .test_workers import wait_for

    app = slow_hint_app(monkeypatch, 0.5)
    async with app.run_test(size=(80, 24)) as pilot:
        await start_one_human_pick(app, pilot)
        await pilot.press("h")
        await pilot.pause()
        assert any("looking at your cards" in str(n.message) for n in app._notifications)
        await pilot.press("1")  # chosen before the answer
        await pilot.pause()
        await app.workers.wait_for_complete()
        await wait_for(lambda: not app._notifications, timeout=1)  # (the notice alone would last 3 s)
        assert screen_name(app) == "RaceScreen" and app.flow.session.hints == []


async def test_the_lesson_s_help_says_its_keys(data_dir):
    from flamme_tui.ui.screens.tutorial import LessonsScreen

    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(LessonsScreen())
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("question_mark")
        await pilot.pause()
        text = screen_text(app)
        assert "Learn to play" in text and "skip the lesson" in text


async def test_a_tour_stage_s_results_offer_the_coach_for_that_stage_and_its_round_in_the_tour_replay(
        data_dir, monkeypatch, tmp_path):
    from test_coach import tour_stage

    import flamme_tui.ui.screens.coach as coach_screen

    monkeypatch.setattr(coach_screen, "ROLLOUTS", 12)  # a small budget: the same lessons, sooner
    session = tour_stage()
    session.save_path = saves.save(session, tmp_path / "tour.json")
    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        app.show_podium(RaceFlow(session))  # a tour's stage: its results
        await pilot.pause()
        assert screen_name(app) == "StageResultScreen" and "c coach" in screen_text(app)
        await pilot.press("c")
        await pilot.pause()
        assert screen_name(app) == "CoachScreen" and "Stage 1, Avenue Corso Paseo." in screen_text(app)
        # its measure said: the tour's standing, not the stage win
        assert "judges a card by the tour standing the stage leaves, not by the stage win" in " ".join(
            screen_text(app).split())
        await app.workers.wait_for_complete()
        await pilot.pause()
        screen = app.screen
        assert [s.name for s in screen.lessons] == ["Red"]  # the person's seat, not the bot's
        first = screen.lessons[0].verdicts[0]
        await pilot.press("1")
        await pilot.pause()
        assert screen_name(app) == "ReplayScreen"
        frame = app.screen.replay.frames[app.screen.index]
        # the tour's replay, on stage 1 at the position the card was chosen in
        assert frame.title == ("Stage 1: Start" if first.round == 1 else f"Stage 1: Round {first.round - 1}")
        await pilot.press("escape", "escape")
        await pilot.pause()
        assert screen_name(app) == "StageResultScreen"


@pytest.mark.parametrize("race", ["meteo", "bmx", "peloton"])
async def test_the_hint_works_in_every_rule_set_and_on_a_peloton_stage_from_the_seat_s_view(race):
    """`h` at the person's first card pick: the expert's card, as `hint` gives it from
    that seat's view (the app's thinking process is handed the race and the seat)."""
    from flamme_tui.bots.budget import Budget
    from flamme_tui.play.coach import hint
    from flamme_tui.ui.choices import DEFAULT_COLOURS, SeatChoice
    from flamme_tui.ui.scenarios import one_human, settle

    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        app.settings = app.settings.model_copy(update={"hints": "solo"})
        race_choices = one_human("classic" if race == "peloton" else race)
        if race == "peloton":  # three lanes, the breakaway, a scripted team
            race_choices.stage, race_choices.breakaway = "peloton-8", True
            race_choices.seats.append(SeatChoice("", DEFAULT_COLOURS[2], "peloton"))
        app.start_race(race_choices)
        await settle(pilot)
        app.flow.session.budget = Budget(rollouts=16)
        kinds = []
        for _ in range(20):  # on to the person's first card: the breakaway's bids first, the rider that draws
            kind = app.screen.turn.kind
            kinds.append(kind)
            if kind == "pick":
                break
            # a number chooses at once; a bid and its bidder wait for Enter
            await pilot.press(*(["1"] if kind in ("place", "draw", "bidder", "bid") else []),
                              *(["enter"] if kind not in ("place", "draw") else []))
            await settle(pilot)
        assert app.screen.turn.kind == "pick", kinds
        if race == "peloton":
            assert "bid" in kinds and max(app.flow.game.course.lanes) == 3  # three-lane squares
        session = app.flow.session
        seat = session.due()
        await pilot.press("h")
        await pilot.pause()
        await app.workers.wait_for_complete()
        for _ in range(3):
            await pilot.pause()
        assert screen_name(app) == "HintScreen"
        said = app.screen.text
        assert said == hint(session.game.view(seat), Budget(rollouts=16)) and said.startswith("The expert would play ")
        assert session.hints == [(seat, len(session.entries))]


async def test_the_lesson_s_choices_stay_in_sight_when_its_text_is_scrolled(data_dir):
    """A step read to its end (↓) hid the choices the number keys pick: they
    are no longer part of the scrolled text."""
    from flamme_tui.ui.scenarios import SCENARIOS

    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await SCENARIOS["tutorial"](pilot)
        body = app.screen.query_one("#lesson-body")
        assert body.max_scroll_y > 0  # the step and the last round are longer than the room they have
        await pilot.press(*["down"] * 20)
        await pilot.pause()
        assert body.scroll_y == body.max_scroll_y
        assert "Which rider draws first?  [1] Sprinteur" in screen_text(app)


CLASSIC_TO_THE_END = ["draw blue.R", "play blue.R 7", "play blue.S 9", "draw blue.R", "play blue.R 6",
                      "play blue.S 9", "draw blue.R", "play blue.R 7", "play blue.S 9", "draw blue.R",
                      "play blue.R 7", "play blue.S 3", "draw blue.R", "play blue.R 5", "play blue.S 5",
                      "draw blue.R", "play blue.R 6", "play blue.S 5", "draw blue.R", "play blue.R 3",
                      "play blue.S 4"]


async def classic_lesson_after(pilot, actions: list[str]):
    """The Classic lesson's screen on the app, these of the player's actions played."""
    from flamme_tui.play.lessons import catalogue
    from flamme_tui.play.tutorial import Tutorial
    from flamme_tui.ui.screens.tutorial import TutorialScreen

    entry = next(e for e in catalogue() if e.id == "classic")
    await pilot.pause()
    screen = TutorialScreen(entry)
    pilot.app.push_screen(screen)
    await pilot.pause()
    screen.tutorial, screen.started = Tutorial(entry, actions), True
    screen.show()
    await pilot.pause()
    return screen


async def test_the_lesson_s_outro_says_the_hint_key_as_the_player_bound_it(data_dir):
    from flamme_tui import settings as user_settings

    user_settings.save(user_settings.Settings(keys={"race.hint": "f6"}))
    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await classic_lesson_after(pilot, CLASSIC_TO_THE_END)
        assert screen.tutorial.over
        text = " ".join(screen.query_one("#lesson-step").render().plain.split())
        assert "then press f6 when you choose" in text and "{key:" not in text


async def test_a_new_round_s_step_opens_at_its_top_after_the_last_was_scrolled(data_dir):
    """The text scrolled to its end (↓) before each choice: a new round's step opened part-way down."""
    from flamme_tui.ui.scenarios import SCENARIOS

    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await SCENARIOS["tutorial"](pilot)  # round 2: blocking
        screen = app.screen
        body = screen.query_one("#lesson-body")
        opened = 0
        while not screen.tutorial.over and screen.tutorial.game.round <= 6:
            round_ = screen.tutorial.game.round
            await pilot.press(*["down"] * 20)
            n = len(screen.tutorial.options())
            await pilot.press("2" if screen.tutorial.kind() == "draw" else str(min(3, n)))
            await pilot.pause()
            if screen.tutorial.game.round != round_:
                assert body.scroll_y == 0, screen.tutorial.game.round
                opened += body.max_scroll_y > 0
        assert opened  # a round whose text had more to read than the room


async def test_a_key_that_chooses_nothing_in_a_lesson_says_which_keys_choose(data_dir):
    from flamme_tui.ui.scenarios import SCENARIOS

    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await SCENARIOS["tutorial"](pilot)  # round 2: which rider draws first, [1] or [2]
        screen = app.screen
        played = screen.tutorial.actions_text()
        for key in ("left", "right", "enter", "0", "3", "9"):
            app.clear_notifications()
            await pilot.press(key)
            await pilot.pause()
            said = [str(n.message) for n in app._notifications]
            assert said == ["Choose with the number keys: 1 or 2."], (key, said)
        assert screen.tutorial.actions_text() == played and screen_name(app) == "TutorialScreen"
        await pilot.press("2")  # the Rouleur draws: its cards are [1] to [n]
        await pilot.pause()
        app.clear_notifications()
        await pilot.press("9")
        await pilot.pause()
        n = len(screen.tutorial.options())
        assert [str(m.message) for m in app._notifications] == [f"Choose with the number keys: 1-{n}."]


async def test_the_lesson_s_track_marks_the_card_already_down_as_the_race_screen_does(data_dir):
    """After the Rouleur's 7 the Sprinteur's cards were marked ▼▼, not the square the
    7 takes the Rouleur to (the race screen marks both)."""
    app = FlammeApp(seed=7, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await classic_lesson_after(pilot, CLASSIC_TO_THE_END[:2])  # the Rouleur's 7 is down
        view = screen.tutorial.view()
        assert screen.tutorial.kind() == "pick" and len(view.chosen) == 1
        (rouleur, seven), = view.chosen.items()
        assert view.preview(rouleur, seven).square in screen.scene().previews
        assert {o.preview.square for o in screen.tutorial.options()} <= set(screen.scene().previews)
