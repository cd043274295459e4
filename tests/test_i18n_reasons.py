"""The bots' public reasons in the player's language (issue 26).

A bot speaks English (bots/ import only the engine): the narrator tells its
public reason again in the player's language when the race log shows it
(play.narrator.reason_words).  Every reason a bot gives in a race must come
out in French and in Spanish with no English word left; a reason of a shape
the narrator does not know comes out as it is (never lost, never garbled).
"""

from __future__ import annotations

import re

import pytest

from flamme_tui import i18n
from flamme_tui.bots import Budget, decide
from flamme_tui.play.narrator import move_words, reason_words
from flamme_tui.play.races import RaceSpec, make_setup, new_game

ENGLISH = {"plays", "lands", "wind", "front", "group", "behind", "rider", "out", "climb", "caps", "card", "held",
           "riders", "way", "others", "stood", "still", "over", "line", "draws", "first", "the", "free", "place"}


@pytest.fixture
def speak():
    def choose(lang: str) -> None:
        i18n.set_language(lang)
    yield choose
    i18n.set_language("en")


def reasons(variant: str, bot: str, seed: int, rounds: int) -> set[str]:
    """Every public reason `bot` gives in seat 0 over the first rounds of a race (against easy)."""
    spec = RaceSpec(variant=variant, teams=RaceSpec().teams[:3])
    game = new_game(make_setup(spec), seed)
    said = set()
    budget = Budget(rollouts=24)
    while game.phase != "over" and game.round <= rounds:
        start = game.round
        for seat in range(len(game.seats)):
            while game.round == start and game.phase != "over" and game.needs(seat):
                decision = decide(bot if seat == 0 else "easy", game.view(seat), budget)
                if seat == 0 and decision.public:
                    said.add(decision.public)
                game.apply(decision.action)
    return said


@pytest.mark.parametrize("variant", ["classic", "bmx"])
@pytest.mark.parametrize("bot", ["hard", "expert"])  # (the others give no reason)
def test_every_public_reason_is_told_in_french_and_spanish(speak, variant, bot):
    said = reasons(variant, bot, seed=5, rounds=6)
    assert said, "the bot gave no reason"
    for lang in ("fr", "es"):
        speak(lang)
        for text in said:
            told = reason_words(text)
            left = {w.lower() for w in re.findall(r"[^\W\d_]+", told)} & ENGLISH
            assert told != text and not left, (lang, text, told, left)


def test_the_reasons_shapes(speak):
    speak("fr")
    assert reason_words("plays 7: over the line") == "joue 7\xa0: ligne franchie"
    assert reason_words("the Rouleur draws first") == "le Rouleur pioche en premier"
    assert reason_words("front-most free place") == "la place libre la plus en avant"
    assert move_words("lands behind a rider, out of the wind (if the others stood still)") == \
        "finit derrière un coureur, à l’abri du vent (si les autres ne bougeaient pas)"
    speak("es")
    assert reason_words("plays 3 F") == "juega 3 F"
    assert reason_words("the Sprinteur draws") == "el Sprinteur roba"
    # a reason of a shape the narrator does not know is shown as the bot said it
    assert reason_words("plays 7: a clever move") == "plays 7: a clever move"
    assert reason_words("waits") == "waits"
    assert move_words("somewhere") is None


@pytest.mark.parametrize("lang, said", [("fr", "Rouge (bot fort), Sprinteur : joue 7"),
                                        ("es", "Rojo (bot difícil), Sprinteur: juega 7")])
def test_the_race_log_tells_a_team_s_bot_reason_and_level_in_the_language(speak, lang, said):
    """A seat of two riders: the race log says which rider played, the bot's level and its reason,
    all in the player's language (the reason was left in English, the level was the bot's id)."""
    from flamme_tui.engine.race import Team
    from flamme_tui.play.narrator import Reason, note_line

    game = new_game(make_setup(RaceSpec(teams=(Team("Rouge" if lang == "fr" else "Rojo", "red"),
                                               Team("Blue", "blue")))), 1)
    speak(lang)
    line = note_line(Reason(0, "hard", "plays 7", game.index["red.S"]), game)
    assert line.replace("\u00a0", " ") == said, line
