"""Learn to play, the coach and the stage results' coach in French and Spanish
(issues 26, 27): the lessons' own words come from their files' fr:/es: blocks,
the rest from the catalogs; no English game word on those screens."""

from __future__ import annotations

import re

import pytest

from flamme_tui.ui.app import FlammeApp
from flamme_tui.ui.scenarios import SCENARIOS, SEED, settle
from flamme_tui.ui.textshot import screen_text

from .driver import screen_name
from .test_languages import SMALL, english_words, speak  # noqa: F401 - speak is a fixture

pytestmark = pytest.mark.usefixtures("fast_pilot")


@pytest.mark.parametrize("lang, started, won", [("fr", "Entrée : lancer la course", "a gagné"),
                                               ("es", "Intro: empezar la carrera", "ganó")])
async def test_the_classic_lesson_is_played_in_another_language_with_no_english_word(
        data_dir, speak, lang, started, won):  # noqa: F811 - the fixture
    from flamme_tui.play.lessons import catalogue
    from flamme_tui.ui.screens.tutorial import LessonsScreen

    speak(lang)
    lesson = next(e for e in catalogue() if e.id == "classic").lesson
    app = FlammeApp(seed=SEED, autoplay=False, autosave=False)
    async with app.run_test(size=SMALL) as pilot:
        app.push_screen(LessonsScreen())
        await settle(pilot)
        assert lesson.said("title") in screen_text(app) and english_words(app, lang) == set()
        await pilot.press("enter")
        await settle(pilot)
        text = screen_text(app).replace("\xa0", " ")
        assert started.replace("\xa0", " ") in text and getattr(lesson, lang).intro[:30] in text.replace("\n ", " ")
        assert english_words(app, lang) == set()
        await pilot.press("enter")
        screen = app.screen
        seen = set()
        for _ in range(60):
            if screen.tutorial.over:
                break
            await settle(pilot)
            found = english_words(app, lang)
            assert found == set(), (screen.tutorial.game.round, found)
            # a playtest: "Rouleur (sur" at a line's end, "6)" on the next (the square stays with its word)
            cut = [line for line in screen_text(app).splitlines() if re.search(r"\((sur|en)[\s│▏┃▕|]*$", line)]
            assert not cut, cut
            seen |= {s.said("idea") for s in screen.tutorial.round_steps()}
            options = screen.tutorial.options()
            if screen.tutorial.kind() == "draw":
                key = "2"
            else:
                key = str(max(range(len(options)), key=lambda k: (options[k].preview.square, -k)) + 1)
            await pilot.press(key)
        await settle(pilot)
        assert screen.tutorial.over and won in screen_text(app) and english_words(app, lang) == set()
        assert seen == {getattr(s, lang).idea for s in lesson.steps}  # every idea, in the language


@pytest.mark.parametrize("lang", ["fr", "es"])
async def test_the_coach_speaks_the_player_s_language(speak, lang):  # noqa: F811 - the fixture
    speak(lang)
    app = FlammeApp(seed=SEED, autoplay=False, autosave=False)
    async with app.run_test(size=SMALL) as pilot:
        await SCENARIOS["coach"](pilot)
        assert screen_name(app) == "CoachScreen" and app.screen.lessons
        assert english_words(app, lang) == set()
        why = {"fr": "Pourquoi", "es": "Por qué"}[lang]
        assert why in screen_text(app)


@pytest.mark.parametrize("lang", ["fr", "es"])
def test_a_tutorial_step_in_another_language_at_80x24(snap_compare, data_dir, speak, lang):  # noqa: F811
    speak(lang)
    app = FlammeApp(seed=SEED, autoplay=False, autosave=False)
    assert snap_compare(app, run_before=SCENARIOS["tutorial"], terminal_size=SMALL)
