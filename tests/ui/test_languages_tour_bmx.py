"""A whole tour and a whole BMX race in French and in Spanish (issue 26): no
English game word on any screen shown, from the first card to the tour's
podium, names excepted; and the same of the headless `tour` and `race`.

The word list is the race tests' (test_languages.RACE_ENGLISH).  "Tour" is a
French word (the Tour de France) and the glossary's Spanish says "puntos de
Tour": those are not English."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from flamme_tui.ui.app import FlammeApp
from flamme_tui.ui.scenarios import settle
from flamme_tui.ui.textshot import screen_text

from .driver import play_race, screen_name
from .test_languages import FRENCH_TOO, RACE_ENGLISH, SHORT_STAGE, SMALL, speak, words_on  # noqa: F401

pytestmark = pytest.mark.usefixtures("fast_pilot")

# what the CLI prints that is no English of ours: option names, the stage's name (the riders
# are told by colour and kind and the bots by level, in the language: tests/test_cli_words_i18n.py)
NOT_WORDS = re.compile(r"--[a-z-]+|Jalhay")
CLI_ENGLISH = {"classic"}  # the rule set's English id, where a heading says it in words


def english_in(words, lang: str) -> set[str]:
    found = {w.lower() for w in words} & set(RACE_ENGLISH)
    return found - (FRENCH_TOO if lang == "fr" else set())


def text_words(text: str) -> list[str]:
    text = re.sub(r"[Pp]untos de Tour", " ", text)  # the glossary's Spanish
    return re.findall(r"[^\W\d_]+", text)


def stage_file(data_dir) -> None:
    folder = data_dir / "stages"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "jalhay.yaml").write_text(SHORT_STAGE, encoding="utf-8")


async def play_and_look(app, lang: str, start) -> tuple[dict[str, set[str]], set[str]]:
    """Start with `start()`, play by keys to the end (the tour's podium or the race's)
    and gather the English words of every screen shown, each reveal step by step."""
    found: dict[str, set[str]] = {}
    screens: set[str] = set()

    def look_now(kind: str) -> None:
        screens.add(kind)
        for word in english_in(text_words(" ".join(words_on(app))), lang):
            found.setdefault(word, set()).add(kind)

    async def look(pilot, seen) -> None:
        screen = pilot.app.screen
        kind = getattr(getattr(screen, "turn", None), "kind", screen_name(pilot.app))
        look_now(kind)
        if kind == "reveal":
            while not screen.flow.replay.at_end:
                await pilot.press("space")
                look_now("reveal step")

    async def other(pilot, name: str) -> bool:
        if name == "StageResultScreen":
            await pilot.press("enter")  # the next stage
            return False
        return name in ("TourPodiumScreen", "PodiumScreen")

    async with app.run_test(size=SMALL) as pilot:
        start()
        await settle(pilot)
        await play_race(pilot, on_state=look, on_other=other)
        screens.add(screen_name(app))
        log = " ".join(app.screen.flow.log) if hasattr(app.screen, "flow") else ""
        for word in english_in(text_words(log), lang):
            found.setdefault(word, set()).add("log")
        assert screen_text(app)
    return found, screens


@pytest.mark.parametrize("lang", ["fr", "es"])
async def test_a_whole_tour_has_no_english_game_word(lang, speak, data_dir):  # noqa: F811 - the fixture
    """Two stages (classic, then meteo) of a short stage, one person against an easy bot:
    every pick and reveal, the stage results between them, the tour's podium."""
    from flamme_tui.play.tours import TourSpec, TourStage
    from flamme_tui.ui.choices import SeatChoice
    from flamme_tui.ui.scenarios import choices

    stage_file(data_dir)
    speak(lang)
    race = choices("classic", 2, seed=3)
    race.tour = TourSpec(name="Jalhay", stages=(TourStage(stage="jalhay"), TourStage(stage="jalhay", variant="meteo")))
    race.variant = race.tour_variant
    race.seats = [race.seats[0], SeatChoice(race.seats[1].name, race.seats[1].colour, "easy")]
    app = FlammeApp(seed=3, autoplay=False)
    app.settings = app.settings.model_copy(update={"bot_reasons": True})
    found, screens = await play_and_look(app, lang, lambda: app.start_race(race))
    assert {"pick", "reveal", "StageResultScreen", "TourPodiumScreen"} <= screens, screens
    assert found == {}, found


@pytest.mark.parametrize("lang", ["fr", "es"])
async def test_a_whole_bmx_race_has_no_english_game_word(lang, speak):  # noqa: F811 - the fixture
    from flamme_tui.ui.choices import SeatChoice
    from flamme_tui.ui.scenarios import choices

    speak(lang)
    race = choices("bmx", 3, seed=5)
    race.seats = [race.seats[0]] + [SeatChoice(s.name, s.colour, "easy") for s in race.seats[1:]]
    app = FlammeApp(seed=5, autoplay=False)
    app.settings = app.settings.model_copy(update={"bot_reasons": True})
    found, screens = await play_and_look(app, lang, lambda: app.start_race(race))
    assert {"pick", "reveal", "PodiumScreen"} <= screens, screens
    assert found == {}, found


def run_cli(*args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "flamme_tui", *args], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout + done.stderr


@pytest.mark.parametrize("lang", ["fr", "es"])
def test_the_headless_tour_and_bmx_race_have_no_english_game_word(lang, data_dir):
    """`tour` (two stages, the bots' reasons included: hard explains its cards) and a BMX `race`."""
    stage_file(data_dir)
    outputs = {
        "tour": run_cli("tour", "--lang", lang, "--stages", "jalhay,jalhay:meteo", "--bots", "hard,easy",
                        "--seed", "2", "--rollouts", "40"),
        "race": run_cli("race", "--lang", lang, "--stage", "jalhay", "--bots", "hard,medium", "--teams", "2",
                        "--seed", "2", "--rollouts", "40"),
        "bmx": run_cli("race", "--lang", lang, "--variant", "bmx", "--seed", "4"),
    }
    for name, text in outputs.items():
        assert text.count("\n") > 10, (name, text)
        found = english_in(text_words(NOT_WORDS.sub(" ", text)), lang) | (
            {w.lower() for w in text_words(text)} & CLI_ENGLISH)
        assert found == set(), (name, found, [line for line in text.splitlines()
                                               if english_in(text_words(NOT_WORDS.sub(" ", line)), lang)][:5])


@pytest.mark.parametrize("lang, said", [("fr", "bot_seconds: valeur supérieure ou égale à 0,01 attendue"),
                                        ("es", "bot_seconds: se esperaba un valor mayor o igual que 0,01")])
async def test_a_settings_file_that_chooses_the_language_is_said_wrong_in_it(tmp_path, monkeypatch, lang, said):
    """settings.json says French and holds a bad value: the line that says so is French
    (the file is read before its language is known: its line is said again)."""
    from flamme_tui import i18n

    monkeypatch.setenv("FLAMME_TUI_CONFIG_DIR", str(tmp_path))
    (tmp_path / "settings.json").write_text(f'{{"language": "{lang}", "bot_seconds": -3}}', encoding="utf-8")
    app = FlammeApp(seed=3, autoplay=False, autosave=False)
    try:
        async with app.run_test(size=SMALL) as pilot:
            app.load_settings()
            await settle(pilot)
            assert i18n.language() == lang
            messages = " ".join(str(n.message) for n in app._notifications)
            assert said.replace("\u00a0", " ") in messages.replace("\u00a0", " "), messages
            assert "should" not in messages
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("lang, too_new", [("fr", "trop récente"), ("es", "demasiado nueva")])
async def test_saved_races_in_the_language_know_a_newer_save(lang, too_new, speak, data_dir):  # noqa: F811
    """The saved races list a save from a newer flamme-tui as too new, not damaged, in French
    and Spanish too (known by its kind, not by the English words of its reason)."""
    import json

    from flamme_tui import saves
    from flamme_tui.ui.scenarios import SCENARIOS

    speak(lang)
    app = FlammeApp(seed=3, autoplay=False, autosave=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await SCENARIOS["saved-races"](pilot)
        path = saves.saves_dir() / "future.json"
        doc = json.loads((saves.saves_dir() / "finished.json").read_text())
        doc["version"] = saves.VERSION + 1
        doc["checksum"] = saves._checksum(doc)
        path.write_text(json.dumps(doc))
        await pilot.press("escape")
        await settle(pilot)
        app.show_saved_races()
        await settle(pilot)
        text = screen_text(app)
        assert "future.json" in text and too_new in text, text
        assert english_in(text_words(text), lang) == set(), text
