"""The app in French and Spanish (issue 26): whole races by keys, the language
setting, snapshots at 80x24, and no English game word on the screens that are
translated.

The race screen itself (ui/screens/race.py) and the podium are not translated
yet (another piece of work rewrites them): the races below check the screens
around them (title, teams, curtain) and the race log, which the narrator tells
in the player's language.
"""

from __future__ import annotations

import html
import json
import re

import pytest

from flamme_tui import i18n
from flamme_tui.ui.app import FlammeApp
from flamme_tui.ui.scenarios import SCENARIOS, SEED, settle
from flamme_tui.ui.textshot import screen_text

from .driver import new_race_menus, play_race, screen_name

SMALL = (80, 24)

# English game words a French or Spanish player must not meet on a translated screen
# (whole words; names of stages and teams from the data are not among them)
ENGLISH = ("race", "races", "round", "team", "teams", "rider", "riders", "card", "cards", "stage", "stages",
           "settings", "quit", "help", "back", "choose", "move", "seed", "players", "grid", "new", "saved", "rules",
           "slipstream", "exhaustion", "square", "squares", "lane", "start", "finish", "press", "show", "pass",
           "keys", "human", "plays", "colour", "name", "reference", "tour", "the", "and", "of", "enter")
# "Tour" is a French word ("un tour", the Tour de France): its own check is the Spanish one
FRENCH_TOO = {"tour"}


@pytest.fixture
def speak():
    """speak("fr"): the language --lang fr would choose; English again afterwards."""
    def choose(lang: str) -> None:
        i18n.choose(flag=lang)
    yield choose
    i18n.forget_flag()
    i18n.set_language("en")


def words_on(app) -> list[str]:
    """Every word on the screen as a player reads it (the SVG screenshot's text)."""
    svg = app.export_screenshot()
    text = " ".join(html.unescape(t) for t in re.findall(r">([^<>]*)</text>", svg)).replace("\xa0", " ")
    text = re.sub(r"/\S+", " ", text)  # a file's path (the settings file's, in a temporary folder)
    return re.findall(r"[^\W\d_]+", text)


def not_words() -> set[str]:
    """What is on a screen but no text to translate: the words of the data's names
    (stages and tours keep their names; their descriptions come in each language)
    and of the binding ids the settings list."""
    from pathlib import Path

    from flamme_tui.ui.keys import rebindable

    data = Path(__file__).resolve().parents[2] / "stages"
    lines = [line for path in data.rglob("*.yaml") for line in path.read_text(encoding="utf-8").splitlines()
             if line.startswith("name:")]
    ids = [b.id for b in rebindable()] + ["app.quit", "question_mark,f1"]
    return {w.lower() for text in lines + ids for w in re.findall(r"[^\W\d_]+", text)}


def english_words(app, lang: str, exempt: set[str] = frozenset()) -> set[str]:
    found = {w.lower() for w in words_on(app)} & set(ENGLISH)
    return found - (FRENCH_TOO if lang == "fr" else set()) - exempt


def test_the_english_word_check_finds_english():
    """The check itself: an English screen is full of the words it looks for."""
    async def run() -> set[str]:
        app = FlammeApp(seed=SEED, autoplay=False, autosave=False)
        async with app.run_test(size=SMALL) as pilot:
            await SCENARIOS["teams"](pilot)
            return english_words(app, "es")

    import asyncio

    assert {"seed", "players", "grid", "back", "race"} <= asyncio.run(run())


@pytest.mark.usefixtures("fast_pilot")
@pytest.mark.parametrize("lang", ["fr", "es"])
async def test_a_whole_race_in_another_language(lang, speak):
    speak(lang)
    app = FlammeApp(seed=7, autoplay=False)
    async with app.run_test(size=SMALL) as pilot:
        menu = app.screen.query_one("#title-menu")
        assert str(menu.get_option_at_index(0).prompt) == {"fr": "Nouvelle course", "es": "Nueva carrera"}[lang]
        assert english_words(app, lang) == set()
        await new_race_menus(pilot, "classic")
        assert english_words(app, lang) == set()
        await pilot.press("ctrl+s")
        curtains: list[set[str]] = []

        async def look(pilot, seen) -> None:
            if screen_name(pilot.app) == "CurtainScreen" and len(curtains) < 2:
                curtains.append({w.lower() for w in words_on(pilot.app)})

        await play_race(pilot, on_state=look)
        game = app.screen.flow.game
        assert game.phase == "over" and game.winner is not None
        # the curtain, in words: who is to look, and the key to press
        pass_to = {"fr": {"passez", "clavier", "appuyez", "voir", "mes", "cartes"},
                   "es": {"pasa", "teclado", "pulsa", "ver", "mis", "cartas"}}
        assert all(pass_to[lang] <= seen for seen in curtains), curtains
        # the race log told in the language: the same notes as an English race, other words
        log = app.screen.flow.log
        heading = {"fr": "── Manche 1 ──", "es": "── Ronda 1 ──"}[lang]
        wins = {"fr": "gagne la course", "es": "gana la carrera"}[lang]
        assert heading in log and any(wins in line for line in log)
        assert not any(re.search(r"\b(plays|Round|wins|slipstream|exhaustion)\b", line) for line in log), log


async def test_the_language_changes_after_a_help_was_read(tmp_path, monkeypatch, speak):
    """A help read and closed, then the language changed: the help kept built is
    dropped, not looked up once gone (the app ended on a KeyError); the help asked
    again speaks the new language."""
    monkeypatch.setenv("FLAMME_TUI_CONFIG_DIR", str(tmp_path))
    app = FlammeApp(seed=SEED, autoplay=False, autosave=False)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        assert screen_name(app) == "HelpScreen"
        await pilot.press("escape")
        await SCENARIOS["settings"](pilot)
        select = app.screen.query_one("#language")
        select.value = "es"  # as the list sets it when the player picks "Español"
        await settle(pilot)
        assert i18n.language() == "es" and app.is_running
        await pilot.press("f1")
        await pilot.pause()
        assert screen_name(app) == "HelpScreen" and "Ajustes" in " ".join(words_on(app))
    i18n.set_language("en")


async def test_the_language_setting_redraws_and_is_saved(tmp_path, monkeypatch, speak):
    """Settings > Language: the title menu behind it speaks French at once, and the choice is saved."""
    monkeypatch.setenv("FLAMME_TUI_CONFIG_DIR", str(tmp_path))
    app = FlammeApp(seed=SEED, autoplay=False, autosave=False)
    async with app.run_test(size=SMALL) as pilot:
        await SCENARIOS["settings"](pilot)
        assert screen_name(app) == "SettingsScreen"
        select = app.screen.query_one("#language")
        select.focus()
        await pilot.pause()
        select.value = "fr"  # as the list sets it when the player picks "Français"
        await settle(pilot)
        assert i18n.language() == "fr"
        assert json.loads((tmp_path / "settings.json").read_text())["language"] == "fr"
        for _ in range(3000):  # the screen is composed again (a moment on a busy machine; at most a minute)
            if "Réglages" in " ".join(words_on(app)):
                break
            await pilot.pause(0.02)
        assert "Réglages" in " ".join(words_on(app))  # the settings screen itself, drawn again
        await pilot.press("escape")
        await settle(pilot)
        assert screen_name(app) == "TitleScreen"
        menu = app.screen.query_one("#title-menu")
        assert str(menu.get_option_at_index(0).prompt) == "Nouvelle course"
        # the cursor still on Settings (it went to the top: Up, Enter then quit the app)
        assert menu.get_option_at_index(menu.highlighted).id == "settings"
        assert english_words(app, "fr") == set()
    i18n.set_language("en")


@pytest.mark.parametrize("lang", ["fr", "es"])
@pytest.mark.parametrize("scenario", ["title", "teams-focus", "help-teams"])  # (no field's cursor blinking)
def test_screens_in_other_languages(snap_compare, speak, lang, scenario):
    speak(lang)
    app = FlammeApp(seed=SEED, autoplay=False, autosave=False)
    assert snap_compare(app, run_before=SCENARIOS[scenario], terminal_size=SMALL)


@pytest.mark.parametrize("lang", ["fr", "es"])
@pytest.mark.parametrize("scenario", ["title", "variants", "stages", "teams", "help-teams", "settings", "tour-menu",
                                      "stage-editor", "curtain"])
async def test_no_english_game_word_on_translated_screens(speak, lang, scenario):
    speak(lang)
    app = FlammeApp(seed=SEED, autoplay=False, autosave=False)
    async with app.run_test(size=SMALL) as pilot:
        await SCENARIOS[scenario](pilot)
        await settle(pilot)
        # the stage and tour menus show the names as the data writes them; the settings list the
        # binding ids beside their words (and the Language row says "Language" too, on purpose)
        exempt = not_words() if scenario in ("stages", "tour-menu", "settings") else set()
        found = english_words(app, lang, exempt)
        assert found == set(), (scenario, found)
        assert not screen_text(app).splitlines()[-1].rstrip().endswith("…"), "the key bar is cut"


@pytest.mark.parametrize("lang", ["fr", "es"])
@pytest.mark.parametrize("scenario", ["meteo", "podium"])
async def test_no_english_game_word_on_tall_race_screens(speak, lang, scenario):
    """A tall window shows more: the weather legend under the track, the podium's race
    chart (both were English in a French race)."""
    speak(lang)
    app = FlammeApp(seed=SEED, autoplay=False, autosave=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await SCENARIOS[scenario](pilot)
        await settle(pilot)
        shown = screen_text(app)
        assert ("»" in shown) if scenario == "meteo" else ("█" in shown or "▇" in shown or "●" in shown), shown
        assert english_words(app, lang, not_words()) == set()


async def test_a_saved_language_is_spoken_from_the_start(tmp_path, monkeypatch):
    """settings.json says Spanish: the title menu is in Spanish once the settings are read
    (they are read after the menu is first drawn, start-up time counts: it is drawn again)."""
    monkeypatch.setenv("FLAMME_TUI_CONFIG_DIR", str(tmp_path))
    (tmp_path / "settings.json").write_text('{"language": "es"}', encoding="utf-8")
    app = FlammeApp(seed=SEED, autoplay=False, autosave=False)
    try:
        async with app.run_test(size=SMALL) as pilot:
            app.load_settings()
            await settle(pilot)
            assert i18n.language() == "es"
            assert str(app.screen.query_one("#title-menu").get_option_at_index(0).prompt) == "Nueva carrera"
            assert english_words(app, "es") == set()
    finally:
        i18n.set_language("en")


# ------------------------------------------------- the race screen and the podium

# English words of the race (the screens' and the narrator's) that a French or Spanish
# player must not meet from the first card to the podium: none is a French or Spanish
# word too ("place", "continue", "face", "total", "normal", "final" are, and are left out)
RACE_ENGLISH = ENGLISH + (
    "energy", "deck", "recycled", "wind", "climb", "descent", "breakaway", "your", "turn", "reveal", "winner",
    "step", "next", "skip", "pick", "picks", "draws", "first", "thinking", "awards", "ranking", "statistics",
    "chart", "behind", "leader", "front", "takes", "moves", "blocked", "again", "title", "replay", "token",
    "tokens", "select", "confirm", "play", "profile", "random", "hint", "hints", "with", "drawn", "gained",
    "most", "best", "nobody", "over", "line", "wait", "stops", "since", "last", "look", "crashed", "left",
    "right", "up", "down", "shelter", "catch", "winner", "wins", "lands", "stood", "still", "movement", "to",
    "go", "is", "it", "its")
# a stage of its own for a short race (the tutorial's tiles: a flat start, a climb, a descent,
# a flat finish) under a name with no English in it: the data's names stay as written
SHORT_STAGE = """\
name: Jalhay
tiles: abclMFdu
description: "Court."
boxes: [base]
"""


def race_english(app, lang: str) -> set[str]:
    found = {w.lower() for w in words_on(app)} & set(RACE_ENGLISH)
    return found - (FRENCH_TOO if lang == "fr" else set())


@pytest.mark.usefixtures("fast_pilot", "data_dir")
@pytest.mark.parametrize("lang", ["fr", "es"])
async def test_a_whole_race_to_the_podium_has_no_english_game_word(lang, speak, tmp_path):
    """One person against two easy bots on a short stage, every screen looked at
    (each pick, each step of each reveal, the bots thinking, the podium), by keys."""
    from flamme_tui.ui.choices import SeatChoice

    from .driver import play_race

    stage = tmp_path / "jalhay.yaml"
    stage.write_text(SHORT_STAGE, encoding="utf-8")
    speak(lang)
    race = choices_for(str(stage), seed=3)
    race.seats = [race.seats[0]] + [SeatChoice(s.name, s.colour, "easy") for s in race.seats[1:]]
    app = FlammeApp(seed=3, autoplay=False)
    app.settings = app.settings.model_copy(update={"bot_reasons": True})
    found: dict[str, set[str]] = {}
    screens: set[str] = set()

    async def look(pilot, seen) -> None:
        screen = pilot.app.screen
        kind = getattr(getattr(screen, "turn", None), "kind", screen_name(pilot.app))
        screens.add(kind)
        for word in race_english(pilot.app, lang):
            found.setdefault(word, set()).add(kind)
        if kind == "reveal":  # every step of the round, one by one
            while not screen.flow.replay.at_end:
                await pilot.press("space")
                for word in race_english(pilot.app, lang):
                    found.setdefault(word, set()).add("reveal step")

    async with app.run_test(size=SMALL) as pilot:
        app.start_race(race)
        await settle(pilot)
        await play_race(pilot, on_state=look)
        game = app.screen.flow.game
        assert game.phase == "over"
        assert {"pick", "reveal", "PodiumScreen"} <= screens, screens
        assert found == {}, found
        # the log of the whole race, bots' reasons included, is in the language too
        log = " ".join(app.screen.flow.log)
        words = {w.lower() for w in re.findall(r"[^\W\d_]+", log)} & set(RACE_ENGLISH)
        assert words - (FRENCH_TOO if lang == "fr" else set()) == set(), words


def choices_for(stage: str, seed: int):
    from flamme_tui.ui.scenarios import choices

    race = choices("classic", 3, seed=seed)
    race.stage = stage
    return race


@pytest.mark.parametrize("lang", ["fr", "es"])
@pytest.mark.parametrize("scenario", ["card-pick", "reveal", "podium"])
def test_race_screens_in_other_languages(snap_compare, speak, lang, scenario):
    speak(lang)
    app = FlammeApp(seed=SEED, autoplay=False, autosave=False)
    assert snap_compare(app, run_before=SCENARIOS[scenario], terminal_size=SMALL)


@pytest.mark.parametrize("lang", ["fr", "es"])
async def test_the_palette_speaks_the_language(lang, speak):
    """ctrl+p: the search field's words and every command in the language, Textual's own
    commands (Keys, Maximize...) not offered; and "No matches found" in words of the language."""
    speak(lang)
    app = FlammeApp(seed=SEED, autoplay=False, autosave=False)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("ctrl+p")
        await pilot.pause(0.3)
        words = set(words_on(app))
        assert {"fr": "commande", "es": "comando"}[lang] in words  # ("Chercher": its first letter under the cursor)
        assert not words & {"Search", "Keys", "Maximize", "Minimize", "commands", "Screenshot", "Quit", "Theme"}
        # (New tour's help, in view now the palette keeps the app's order: "puntos de Tour", the glossary's Tour Points)
        assert english_words(app, lang, exempt={"tour"}) == set()
        await pilot.press(*"zzzq")
        await pilot.pause(0.8)
        assert {"fr": "Aucun", "es": "Sin"}[lang] in words_on(app)
        assert "matches" not in words_on(app)


async def test_the_palette_lists_its_commands_in_one_order_in_every_language(speak):
    """ctrl+p listed the commands sorted by their words: another order in each language
    ("Help" fifth in English, "Aide" first in French). The app's order now, in all three."""
    from textual.command import CommandList

    orders = {}
    for lang in ("en", "fr", "es"):
        speak(lang)
        app = FlammeApp(seed=SEED, autoplay=False, autosave=False)
        async with app.run_test(size=(80, 40)) as pilot:
            await pilot.press("ctrl+p")
            await pilot.pause(0.5)
            listed = app.screen.query_one(CommandList)
            shown = [str(listed.get_option_at_index(k).prompt).split("\n")[0] for k in range(listed.option_count)]
            commands = list(app.get_system_commands(app.screen))
            ids = {command.title: k for k, command in enumerate(commands)}
            assert set(ids) == set(shown), shown
            orders[lang] = [ids[title] for title in shown]
    assert orders["en"] == orders["fr"] == orders["es"] == sorted(orders["en"]), orders


@pytest.mark.parametrize(("lang", "typed", "command"), [("fr", "reglages", "Réglages"), ("fr", "theme", "Thème"),
                                                      ("es", "ayuda", "Ayuda"), ("en", "settings", "Settings")])
async def test_the_palette_finds_a_command_typed_without_its_accents(speak, lang, typed, command):
    """Textual's matcher told "e" from "é": "reglages" found nothing in French. The search
    now folds accents away; the command is still shown as written."""
    from textual.command import CommandList

    speak(lang)
    app = FlammeApp(seed=SEED, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 40)) as pilot:
        await pilot.press("ctrl+p")
        await pilot.pause(0.3)
        await pilot.press(*typed)
        for _ in range(20):  # the palette searches in a worker
            await pilot.pause(0.1)
            listed = app.screen.query_one(CommandList)
            shown = [str(listed.get_option_at_index(k).prompt).split("\n")[0] for k in range(listed.option_count)]
            if command in shown:
                break
        assert shown[0] == command, shown


def test_the_key_bar_closes_up_when_its_words_run_long():
    """Two spaces between keys where the line has room, one where it has not: French and
    Spanish key bars hold at 80 columns, the last key (quit) whole."""
    from rich.console import Console

    from flamme_tui.ui.widgets.keybar import KeysLine

    def drawn(keys, width: int) -> str:
        console = Console(width=width, file=None, record=True, color_system=None)
        with console.capture() as out:
            console.print(KeysLine(keys))
        return out.get().rstrip()

    english = [("space", "next"), ("←", "back"), ("⏎", "skip"), ("q", "quit")]
    assert drawn(english, 80) == " space next  ← back  ⏎ skip  q quit"
    french = [("space", "suite"), ("←", "retour"), ("⏎", "sauter"), ("a", "auto"), ("p", "rythme manuel"),
              ("s", "profil"), ("?", "aide"), ("q", "quitter")]
    line = drawn(french, 80)
    assert line == " space suite ← retour ⏎ sauter a auto p rythme manuel s profil ? aide q quitter", line
    assert drawn(french, 100).endswith("  ? aide  q quitter")


async def test_without_colour_the_key_bar_draws_its_keys_in_reverse_video(monkeypatch):
    """Closed up, "choose ⏎ skip a play" read as one phrase in plain bold
    (NO_COLOR): each key is drawn as a block, its words are not."""
    from textual.app import App

    from flamme_tui.ui.widgets.keybar import KeyBar

    keys = [("space", "suite"), ("←", "retour"), ("⏎", "sauter"), ("a", "auto"), ("p", "rythme manuel"),
            ("s", "profil"), ("?", "aide"), ("q", "quitter")]

    class Bar(App):
        def compose(self):
            yield KeyBar(keys)

    for plain in (False, True):
        if plain:
            monkeypatch.setenv("NO_COLOR", "1")
        app = Bar()
        async with app.run_test(size=(80, 5)) as pilot:
            await pilot.pause()
            assert app.no_color == plain
            segments = [seg for seg in app.query_one(KeyBar).render_line(0) if seg.text.strip()]
            reversed_ = [seg.text.strip() for seg in segments if seg.style and seg.style.reverse]
            assert reversed_ == (["space", "←", "⏎", "a", "p", "s", "?", "q"] if plain else []), segments


@pytest.mark.parametrize("rounds", [0, 3])  # on the grid ("parrilla 4 · faltan 72"), on the road ("casilla 12 · …")
async def test_a_riders_card_keeps_its_count_in_spanish_with_six_teams(speak, rounds):
    """Six teams at 80x24: the two rider cards of "which rider draws first?" are 21
    cells inside, and "parrilla 4 · faltan 72" (22) lost its count to the cut
    ("parrilla 4 · faltan …").  The card's narrow form takes its place, the count whole."""
    from flamme_tui.play.flow import RaceFlow
    from flamme_tui.play.narrator import to_go
    from flamme_tui.ui.scenarios import advance, choices
    from flamme_tui.ui.widgets.cards import CardRow

    speak("es")
    app = FlammeApp(seed=SEED, autoplay=False, autosave=False)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        app.choices = choices("classic", 6)
        session = app.choices.session()
        advance(session, rounds)
        app.start_flow(RaceFlow(session))
        await settle(pilot)
        await pilot.press("enter")  # lift the curtain
        await settle(pilot)
        row = app.screen.query_one("#cards", CardRow)
        assert row.kind == "riders" and len(row.cards) == 2
        game = session.game
        inner = row.boxes()[0][1] - 2
        assert inner == 21 and all(len(card.lines[0]) > inner for card in row.cards), row.cards  # (what was cut)
        drawn = screen_text(app)
        for card in row.cards:
            square = game.pos[card.data[1]][0]
            assert f"faltan {to_go(game.course, square)}" in drawn, (card, drawn)
        assert not re.search(r"…\s*[│┃]", drawn), drawn  # no line of a card cut (a blank before its border)


def test_a_card_line_too_wide_takes_its_narrow_form():
    """CardRow: a line wider than the card is drawn in its narrow form if it has one,
    else cut with a mark; a line that fits stays as it is."""
    from flamme_tui.ui.widgets.cards import Card, CardRow

    row = CardRow()
    row.kind = "riders"
    row.cards = (Card("1 S", ("parrilla 4 · faltan 72", "mazo 15"), narrow=("G4 · faltan 72",)),
                 Card("2 R", ("parrilla 3 · faltan 71", "mazo 15")))
    lines = ["".join(seg.text for seg in strip) for strip in row.draw(47, 4)]
    assert "│ G4 · faltan 72      │" in lines[1] and "│ parrilla 3 · falta… │" in lines[1], lines  # a blank at each border
    wide = ["".join(seg.text for seg in strip) for strip in row.draw(60, 4)]
    assert "parrilla 4 · faltan 72" in wide[1] and "G4" not in wide[1], wide


def test_a_row_of_cards_shortens_a_line_on_every_card_and_a_foot_too_long_is_its_glyph():
    """CardRow: a line one card draws in its narrow form is drawn so on every card
    of the row (a review: "case 34 · reste 35" beside "37 · reste 32 ≡"); a foot
    wider than its card is drawn in its narrow form ("»" for "» draw 5 cards")."""
    from flamme_tui.ui.widgets.cards import Card, CardRow

    row = CardRow()
    row.kind = "riders"
    row.cards = (Card("1 S", ("square 34 · 35 to go", "deck 7"), narrow=("34 · 35 to go",), foot="» draw 5 cards",
                      foot_narrow="»"),
                 Card("2 R", ("square 9 · 60 to go", "deck 7"), narrow=("9 · 60 to go",), foot="≡ no slipstream",
                      foot_narrow="≡"))
    lines = ["".join(seg.text for seg in strip) for strip in row.draw(47, 4)]
    assert "│ 34 · 35 to go" in lines[1] and "│ 9 · 60 to go" in lines[1], lines
    assert "╰─ » draw 5 cards ────╯" in lines[3] and "╰─ ≡ no slipstream ───╯" in lines[3], lines
    small = ["".join(seg.text for seg in strip) for strip in row.draw(31, 4)]
    assert "╰─ » ─" in small[3] and "╰─ ≡ ─" in small[3] and all(len(line) == 31 for line in small), small


@pytest.mark.parametrize("lang", ["en", "fr", "es"])
async def test_meteo_riders_weather_is_whole_on_each_card_and_said_once_at_the_pick(lang, speak):
    """A review (Meteo, French, 80x24): both riders' weather on one line under
    the cards was cut ("Sprinteur : » vent arrière (pioche 5 cartes) ·…"), the
    Rouleur's lost; the cards read "case 34 · reste 35" beside "37 · reste 32 ≡";
    and the pick said "» vent arrière : pioche 5 cartes (5 cartes piochées)".
    Each rider's weather is in its card's border, the cards' places read alike,
    and the pick says the wind and the cards drawn once."""
    from flamme_tui.play.flow import RaceFlow
    from flamme_tui.ui.scenarios import advance, choices

    speak(lang)
    app = FlammeApp(seed=SEED, autoplay=False, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        session = choices("meteo", 3, seed=80).session()
        advance(session, 1)  # Blue's Sprinteur on a tailwind, its Rouleur on a crosswind
        app.start_flow(RaceFlow(session))
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        text = screen_text(app).splitlines()
        top = next(k for k, line in enumerate(text) if "╭─ 1 " in line)
        wheres = re.findall(r"│ ([^│\d]*?)\d+ · ", text[top + 1])
        assert len(wheres) == 2 and wheres[0] == wheres[1], text[top + 1]  # "case 8" and "case 7", or "8" and "7"
        feet = text[top + 3]
        assert f"» {i18n._('draw 5 cards')}" in feet and f"≡ {i18n._('no slipstream')}" in feet, feet
        await pilot.press("1")
        await settle(pilot)
        # (the panel's lines, left of the log: the log's first lines say what each weather mark does)
        hint = " ".join(line.split("▏")[0] for line in screen_text(app).splitlines()[top + 4:top + 8])
        drawn = i18n.ngettext("{glyph} {name}: {n} card drawn", "{glyph} {name}: {n} cards drawn", 5).format(
            glyph="»", name=i18n._("tailwind"), n=5)
        assert drawn in hint and i18n._("draw 5 cards") not in hint, hint


def test_a_key_bar_too_long_leaves_out_keys_before_help_and_quit():
    """A playtest: the French reveal's footer in a tour ran out of room at 80
    columns ("... g classements ? …"): quit was lost.  The keys just before
    help and quit are left out, the latest first; help and quit stay whole."""
    from rich.console import Console

    from flamme_tui.ui.widgets.keybar import KeysLine

    def drawn(keys, width: int) -> str:
        console = Console(width=width, file=None, record=True, color_system=None)
        with console.capture() as out:
            console.print(KeysLine(keys))
        return out.get().rstrip()

    french = [("espace", "suite"), ("←", "retour"), ("⏎", "sauter"), ("a", "auto"), ("p", "rythme manuel"),
              ("s", "profil"), ("g", "classements"), ("?", "aide"), ("q", "quitter")]
    line = drawn(french, 80)
    assert line.startswith(" espace suite ← retour ⏎ sauter a auto") and line.endswith(" ? aide q quitter"), line
    assert "…" not in line and "classements" not in line and len(line) <= 80
    assert drawn(french, 120).endswith("g classements  ? aide  q quitter")  # room: every key


async def tour_reveal(pilot) -> None:
    """A tour's second stage, the movement of a round a step in: the longest race footer
    (next, back, skip, autoplay, pace, profile, standings, help, quit)."""
    from flamme_tui.play.flow import RaceFlow
    from flamme_tui.play.tours import next_session
    from flamme_tui.ui import scenarios

    session = next_session(scenarios.tour_after(1))
    scenarios.advance(session, 3)
    pilot.app.start_flow(RaceFlow(session))
    await settle(pilot)
    await scenarios._play_round_by_keys(pilot)
    await pilot.press("space")
    await settle(pilot)


@pytest.mark.parametrize("lang", ["en", "fr", "es"])
async def test_saved_races_at_80x24_keep_the_winning_team_and_mark_cut_cells(lang, speak, monkeypatch):
    """A playtest: at 80x24 the State column ran off the screen, cut without a
    mark ("won by Sky blue Ro", French "gagnée par Rouleur": the team lost).
    A winner too long is said by its team; a cell still too long ends with "…";
    the players' column is on screen."""
    from pathlib import Path

    from flamme_tui.i18n import _
    from flamme_tui.ui.screens import saved

    speak(lang)
    teams = (_("Sky blue"), _("Vermillion"), _("Green"))
    won = _("{seat} {kind}").format(seat=teams[0], kind=_("Rouleur"))
    stamp = "2026-12-02T21:03:00+00:00"
    races = [saved.SavedRace(Path("/x/a.json"), "Les Plats de la Haute Montagne", "meteo", 12, True, won, teams, stamp),
             saved.SavedRace(Path("/x/b.json"), "Avenue Corso Paseo", "classic", 5, False, None, teams, stamp),
             saved.SavedRace(Path("/x/c.json"), "La Haut Montagne", "classic", 9, True,
                             "Les Grimpeurs du Dimanche Matin", ("Les Grimpeurs du Dimanche Matin", teams[1]), stamp)]
    monkeypatch.setattr(saved, "saved_races", lambda directory=None: races)
    app = FlammeApp(seed=SEED, autoplay=False, autosave=False)
    async with app.run_test(size=SMALL) as pilot:
        app.show_saved_races()
        await pilot.pause()
        lines = screen_text(app).splitlines()
        head, rows = lines[2], lines[3:6]
        assert head.split()[-1] == _("Players"), head  # the last column's heading whole, on screen
        by = _("won by {winner}").format(winner="")
        assert f"{by}{teams[0]} " in rows[0], rows[0]  # the team whole, the rider's kind left out
        assert re.search(re.escape(by) + r"Les Grimp[^…]*… ", rows[2]), rows[2]  # too long even so: cut, with a mark
        assert "Les Plats de la…" in rows[0], rows[0]  # a cut stage name says so
        table = app.screen.query_one("#saved-table")
        assert table.virtual_size.width <= table.size.width  # nothing off the screen, no sideways scroll


async def test_saved_races_name_default_teams_in_the_language_now(speak, data_dir):
    """A race saved in French listed its teams as "Bleu, Orange" in Spanish:
    the summary keeps the names as set up; a team named by default reads in
    the language now (as the race screen names it), a typed name as typed."""
    from flamme_tui import saves
    from flamme_tui.ui.scenarios import advance, choices

    speak("fr")
    folder = saves.saves_dir()
    folder.mkdir(parents=True, exist_ok=True)
    race = choices("classic", 3, seed=SEED)
    race.seats[2].name = "Los Lobos"
    session = race.session()
    advance(session, 200)
    saves.save(session, folder / "french.json")
    assert json.loads((folder / "french.json").read_text())["summary"]["teams"] == ["Bleu", "Orange", "Los Lobos"]
    speak("es")
    app = FlammeApp(seed=SEED, autoplay=False, autosave=False)
    async with app.run_test(size=(120, 30)) as pilot:
        app.show_saved_races()
        await pilot.pause()
        text = screen_text(app)
        assert "Azul, Naranja, Los Lobos" in text and "Bleu" not in text, text
        assert saves.load(folder / "french.json").game.setup.teams[0].name == "Bleu"  # the file as it was


async def choosing_bidder(pilot) -> None:
    """The breakaway: Blue's curtain lifted, which rider bids."""
    from flamme_tui.ui.scenarios import peloton_choices

    pilot.app.start_race(peloton_choices())
    await settle(pilot)
    await pilot.press("enter")
    await settle(pilot)


FOOTERS = ("tour-reveal", "reveal", "card-pick", "review", "rider-choice", "peloton-bid", "tour-race", "curtain", "podium")
PANELS = ("bidder", "rider-choice", "card-pick", "peloton-race", "review", "peloton-bid")


def check_footer(app, lang: str, scenario: str) -> None:
    """Every race footer at 80x24 in French and Spanish ends with the help and
    the quit keys, whole; a key Textual names with an English word is said in
    the player's language ("space" was shown as it is)."""
    footer = " " + " ".join(screen_text(app).splitlines()[-1].split())  # (two spaces where there is room)
    words = {"fr": ("? aide q quitter", "espace"), "es": ("? ayuda q salir", "espacio")}[lang]
    assert footer.endswith(words[0]), footer
    assert "space" not in footer.split(), footer
    if scenario in ("tour-reveal", "reveal"):
        assert footer.startswith(f" {words[1]} "), footer


def check_panel(app, scenario: str) -> None:
    """A playtest: words ran into borders at 80x24 ("draws 4 cards for each of its
    2▏", "│pioche 15, 0 visibles│", "deciden las cartas de los▏").  A blank cell
    stays between the panel's words and the log's border, and inside the riders'
    cards at each side; the words fit (no "…" on a card here) and the hint is
    read to its end."""
    from textual.content import Content

    screen = app.screen
    lines = screen_text(app).splitlines()
    border = [line for line in lines if "▏" in line]
    assert border and all(line[line.index("▏") - 1] == " " for line in border), "\n".join(border)
    cards = screen.query_one("#cards")
    if cards.kind == "riders":
        top = cards.region.y
        for line in lines[top + 1:top + 3]:
            assert not re.search(r"[│┃]\S|\S[│┃]", line), line
            assert "…" not in line, line  # the words as drawn, whole
    hint = screen.query_one("#panel-hint")
    assert hint.size.width < hint.region.width  # (its padding: the blank cell before the border)
    shown = " ".join(" ".join(lines[hint.region.y:hint.region.bottom]).split())
    words = Content.from_markup(screen.panel.hint).plain.split()
    if scenario != "peloton-race":
        assert words and words[-1] in shown.split(), (words, shown)  # the hint read to its end
    else:  # six teams leave the hint two lines: the selected card's words whole in them; what
        # gives way under them (the notes, the keys, also in the footer) is marked as cut or left out whole
        r = hint.region
        inside = " ".join(" ".join(line[r.x:r.right] for line in lines[r.y:r.bottom]).split())
        said = Content.from_markup(screen.panel.hint).plain.split("\n")[0].split()
        assert inside.split()[:len(said)] == said, (said, inside)
        assert words and (words[-1] in inside.split() or inside.endswith("…") or inside.split() == said), (words, inside)


# one app driven to each screen, both checks made where both apply (a drive costs seconds)
@pytest.mark.parametrize(("lang", "scenario"),
                         [(lang, scenario) for lang in ("en", "fr", "es") for scenario in dict.fromkeys(FOOTERS + PANELS)
                          if scenario in PANELS or lang != "en"])
async def test_race_footers_and_action_panels_at_80x24(speak, lang, scenario):
    """The race screens at 80x24: their footers in French and Spanish, their action panel in all three."""
    speak(lang)
    app = FlammeApp(seed=SEED, autoplay=False, autosave=False)
    async with app.run_test(size=SMALL) as pilot:
        drive = {"tour-reveal": tour_reveal, "bidder": choosing_bidder}.get(scenario) or SCENARIOS[scenario]
        await drive(pilot)
        await settle(pilot)
        if scenario in FOOTERS and lang != "en":
            check_footer(app, lang, scenario)
        if scenario in PANELS:
            check_panel(app, scenario)


def test_keys_named_by_a_word_are_named_as_the_players_keyboard_labels_them():
    """A French keyboard says "Échap" and "Entrée", a Spanish one "Intro" and
    "Inicio": the key bars and the help say so; symbols and letters stay."""
    from rich.console import Console

    from flamme_tui.i18n import speaking
    from flamme_tui.ui.keys import key_word
    from flamme_tui.ui.texts import key_row
    from flamme_tui.ui.widgets.keybar import KeysLine

    def drawn(keys) -> str:
        console = Console(width=120, file=None, record=True, color_system=None)
        with console.capture() as out:
            console.print(KeysLine(keys))
        return out.get().strip()

    keys = [("tab", "next"), ("esc", "back"), ("home", "first"), ("⏎", "go"), ("q", "quit")]
    assert drawn(keys) == "tab next  esc back  home first  ⏎ go  q quit"
    with speaking("fr"):
        assert drawn(keys) == "tab next  échap back  début first  ⏎ go  q quit"
        assert [key_word(k) for k in ("Enter", "Esc", "end", "pgup", "space")] == ["Entrée", "Échap", "fin", "pg préc",
                                                                                     "espace"]
        assert key_row("Enter", "x") == "  Entrée       x"
    with speaking("es"):
        assert [key_word(k) for k in ("Enter", "esc", "home", "del", "space", "ctrl+p")] == [
            "Intro", "esc", "inicio", "supr", "espacio", "ctrl+p"]


def test_teams_named_by_default_are_named_again_in_a_new_language(speak):
    """Blue set up in English, then French chosen in Settings: the teams screen
    says Bleu (a default name), and a name the player wrote stays."""
    from flamme_tui.ui.choices import RaceChoices, default_seats, one_rider_seats

    choices = RaceChoices(seats=default_seats(3))
    choices.seats[2].name = "Les Rapides"
    lone = RaceChoices(seats=one_rider_seats(8))
    speak("fr")
    choices.name_defaults_again()
    lone.name_defaults_again()
    assert [seat.name for seat in choices.seats] == ["Bleu", "Orange", "Les Rapides"]
    assert lone.seats[7].name == "Joueur 8"
    speak("es")
    choices.name_defaults_again()
    assert [seat.name for seat in choices.seats] == ["Azul", "Naranja", "Les Rapides"]


async def test_a_language_chosen_in_settings_names_the_default_teams_in_it(speak, tmp_path, monkeypatch):
    monkeypatch.setenv("FLAMME_TUI_CONFIG_DIR", str(tmp_path))
    app = FlammeApp(seed=SEED, autoplay=False, autosave=False)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        assert app._choices().seats[0].name == "Blue"
        app.use_language("es")
        await settle(pilot)
        assert [seat.name for seat in app._choices().seats[:2]] == ["Azul", "Naranja"]


async def test_teams_named_by_default_take_the_language_chosen_mid_race(speak, tmp_path, monkeypatch):
    """A race set up in French (its teams named by default, "Bleu" and "Vert"; one typed, "Les
    Rapides"), then English chosen in Settings mid-race: from the next step the race screen's status
    line, boards and log say "Blue" and "Green" (they said "Bleu" in an English race), the typed
    name stays as typed, and so do the podium and the narrator once the race is over."""
    from flamme_tui.play import narrator
    from flamme_tui.ui.scenarios import _play_round_by_keys, advance, choices

    monkeypatch.setenv("FLAMME_TUI_CONFIG_DIR", str(tmp_path))
    (tmp_path / "settings.json").write_text('{"language": "fr"}')
    app = FlammeApp(seed=SEED, autoplay=False, autosave=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert i18n.language() == "fr"
        set_up = choices("classic", 3)  # as New race offers them: named by default in French
        assert [seat.name for seat in set_up.seats] == ["Bleu", "Orange", "Vert"]
        set_up.seats[1].name = "Les Rapides"
        set_up.seats[1].controller = set_up.seats[2].controller = "easy"
        app.start_race(set_up)
        await settle(pilot)
        await _play_round_by_keys(pilot)  # Bleu's first round, the bots' too
        await settle(pilot)
        text = screen_text(app)
        assert "Bleu Sprinteur" in text and "Vert Rouleur" in text and "Les Rapides" in text
        app.show_settings()  # (the palette's Settings, over the race)
        await pilot.pause()
        app.screen.query_one("#language").value = "en"  # as the list sets it when the player picks "English"
        await settle(pilot)
        assert i18n.language() == "en"
        await pilot.press("escape")  # back to the race
        await settle(pilot)
        await pilot.press("enter")  # its next step, drawn in English
        await settle(pilot)
        assert screen_name(app) == "RaceScreen"
        text = screen_text(app)
        words = set(re.findall(r"[^\W\d_]+", text))
        assert {"Blue", "Green", "Sprinteur", "Rouleur"} <= words and "Les Rapides" in text
        assert not words & {"Bleu", "Vert"}, text
        flow = app.flow
        assert [flow.team_name(seat) for seat in range(3)] == ["Blue", "Les Rapides", "Green"]
        assert [t.name for t in flow.game.setup.teams] == ["Bleu", "Les Rapides", "Vert"]  # (as set up and saved)
        advance(flow.session, 200)  # the bots' policy plays Blue's seat to the line too
        app.show_podium(flow)
        await settle(pilot)
        assert screen_name(app) == "PodiumScreen"
        words = set(re.findall(r"[^\W\d_]+", screen_text(app)))
        assert {"Blue", "Green"} & words and not words & {"Bleu", "Vert"}
        ranking = " ".join(narrator.ranking_lines(flow.game))
        assert "Blue Sprinteur" in ranking and "Green Rouleur" in ranking and "Les Rapides Rouleur" in ranking
    i18n.set_language("en")


@pytest.mark.parametrize("lang", ["en", "fr", "es"])
async def test_every_key_on_the_settings_screen_is_named_whole_at_80_columns(speak, lang, tmp_path, monkeypatch):
    """Each rebindable key's screen and action, and its id, whole (they were cut with an
    ellipsis at 80 columns: "race: Confirm: place, draw, play, p…", "tour-podium.repla")."""
    from textual.widgets import Static

    from flamme_tui.ui.keys import rebindable

    monkeypatch.setenv("FLAMME_TUI_CONFIG_DIR", str(tmp_path))
    speak(lang)
    app = FlammeApp(seed=SEED, autoplay=False, autosave=False)
    async with app.run_test(size=SMALL) as pilot:
        await SCENARIOS["settings"](pilot)
        body = app.screen.query_one("#settings-body")
        rows = list(app.screen.query(".key-row"))
        assert len(rows) == len(rebindable())
        for row, binding in zip(rows, rebindable(), strict=True):
            body.scroll_to_widget(row, animate=False, top=True)
            await pilot.pause()
            lines = screen_text(app).splitlines()
            label, key_id = row.query_one(".settings-label", Static), row.query_one(".key-id", Static)

            def shown(widget, lines=lines) -> str:
                r = widget.region
                return " ".join(lines[y][r.x: r.right].strip() for y in range(r.y, r.bottom)).strip()

            want = i18n._("{where}: {what}").format(where=i18n._(binding.where), what=i18n._(binding.description))
            assert shown(label) == want
            assert shown(key_id) == binding.id


@pytest.mark.parametrize("lang", ["en", "fr", "es"])
async def test_the_stage_menu_s_key_bar_names_the_edit_key_at_80_columns(speak, lang):
    """French left "e edit a copy" out of the key bar: its words ran two cells past 80 columns."""
    speak(lang)
    app = FlammeApp(seed=SEED, autoplay=False, autosave=False)
    async with app.run_test(size=SMALL) as pilot:
        await SCENARIOS["stages"](pilot)
        await pilot.pause()
        assert screen_name(app) == "StageScreen"
        assert f" e {i18n._('edit a copy')} " in screen_text(app).splitlines()[-1]


def scroll_bar_column(app, scroll_id: str) -> list[str]:
    """The cells of a scrolling area's vertical scroll bar (two columns), row by row, as text."""
    bar = app.screen.query_one(scroll_id).vertical_scrollbar
    assert bar.display  # shown: the text scrolls
    region = bar.region
    lines = screen_text(app).splitlines()
    return [lines[y][region.x: region.right] for y in range(region.y, region.bottom)]


def one_whole_thumb(cells: list[str]) -> bool:
    """A scroll bar's cells (scroll_bar_column) show one thumb: one run of whole cells, nothing else."""
    drawn = [y for y, cell in enumerate(cells) if cell.strip()]
    return bool(drawn) and drawn == list(range(drawn[0], drawn[-1] + 1)) and all(cells[y] == "██" for y in drawn)


@pytest.mark.parametrize("lang", ["en", "fr", "es"])
async def test_the_help_s_scroll_bar_shows_one_thumb_wherever_it_is_scrolled(speak, lang):
    """Read as text (or without colour), Textual's thumb showed only its two eighth-cell
    ends, as two small thumbs (the French help's, a player said): it is whole cells now."""
    speak(lang)
    app = FlammeApp(seed=SEED, autoplay=False, autosave=False)
    async with app.run_test(size=SMALL) as pilot:
        await SCENARIOS["help-teams"](pilot)
        assert screen_name(app) == "HelpScreen"
        assert len(app.screen.query("VerticalScroll")) == 1  # one scrolling area
        for key in ("", "pagedown", "pagedown", "end"):
            if key:
                await pilot.press(key)
                await pilot.pause()
            cells = scroll_bar_column(app, "#help-scroll")
            assert one_whole_thumb(cells), (key, cells)


async def rules_screen(pilot) -> None:
    menu = pilot.app.screen.query_one("#title-menu")
    await pilot.press(*["down"] * menu.get_option_index("rules"), "enter")
    await pilot.pause()


# the other screens with a text that scrolls at 80x24: the screen, how it is opened, its scrolling area
SCROLLED = {"rules": ("RulesScreen", rules_screen, "#rules-scroll"),
            "settings": ("SettingsScreen", SCENARIOS["settings"], "#settings-body"),
            "lesson": ("TutorialScreen", SCENARIOS["tutorial"], "#lesson-body")}


@pytest.mark.parametrize("lang", ["en", "fr", "es"])
@pytest.mark.parametrize("where", list(SCROLLED))
async def test_the_scroll_bar_of_the_rules_the_settings_and_a_lesson_shows_one_thumb(speak, lang, where):
    """A lesson's text showed two thumbs at once at 80x24 (▇▇ on a row, ▅▅ further down),
    as the help's did, and the rules' and the settings' too: whole cells of one glyph now."""
    speak(lang)
    name, opened, scroll_id = SCROLLED[where]
    app = FlammeApp(seed=SEED, autoplay=False, autosave=False)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await opened(pilot)
        assert screen_name(app) == name
        assert len(app.screen.query("VerticalScroll")) == 1  # one scrolling area
        scroll = app.screen.query_one(scroll_id)
        end = scroll.max_scroll_y
        assert end > 0  # it scrolls at 80x24
        for y in (0, end // 3, end * 2 // 3, end):
            scroll.scroll_to(y=y, animate=False, immediate=True)
            await pilot.pause()
            cells = scroll_bar_column(app, scroll_id)
            assert one_whole_thumb(cells), (y, cells)


@pytest.mark.parametrize("lang", ["en", "fr", "es"])
@pytest.mark.parametrize("variant", ["classic", "meteo"])
async def test_placing_a_rider_with_six_teams_at_80x24_is_said_whole(speak, lang, variant):
    """Six teams at 80x24, the players placing their riders: the panel's title was cut
    ("placez votre Sprinteur sur la gri…", the name too) and its last line of keys
    lost (in French and Spanish; in English too on a meteo stage, its weather row
    the track's)."""
    import textwrap

    from rich.cells import cell_len
    from textual.content import Content

    from flamme_tui.play.flow import RaceFlow
    from flamme_tui.ui.scenarios import choices

    speak(lang)
    app = FlammeApp(seed=SEED, autoplay=False, autosave=False)
    async with app.run_test(size=SMALL) as pilot:
        race = choices(variant, 6, seed=SEED, grid="choose")
        race.stage = "firenze-milano"  # weather in meteo; a start too small: Peloton tile 1, three lanes
        app.start_flow(RaceFlow(race.session()))
        await settle(pilot)
        screen = app.screen
        assert screen.turn.kind == "place"
        lines = screen_text(app).splitlines()
        assert len(lines) == 24 and screen.max_scroll_y == 0
        title, hint = screen.query_one("#panel-title"), screen.query_one("#panel-hint")
        said = lines[title.region.y][title.region.x:title.region.right].rstrip()
        assert "…" not in said and said.endswith("Sprinteur"), said
        shown = [line[hint.region.x:hint.region.right].rstrip() for line in lines[hint.region.y:hint.region.bottom]]
        words = Content.from_markup(screen.panel.hint).plain
        wrapped = sum(len(textwrap.wrap(line, hint.size.width)) for line in words.splitlines())
        assert wrapped <= hint.size.height, (shown, hint.size)  # every line of it on the screen
        assert " ".join(" ".join(shown).split()) == " ".join(words.split())
        assert max(cell_len(line) for line in shown) <= hint.size.width


@pytest.mark.parametrize("lang", ["en", "fr", "es"])
async def test_the_expert_s_thinking_time_is_said_whole_in_its_column_at_80x24(speak, lang):
    """'Expert bot thinks (s, Enter)' meant nothing to a new player; its longer words take
    a second line in the label's column rather than be cut with an ellipsis."""
    speak(lang)
    app = FlammeApp(seed=SEED, autoplay=False, autosave=False)
    async with app.run_test(size=SMALL) as pilot:
        await SCENARIOS["settings"](pilot)
        label = app.screen.query_one("#bot_seconds-label")
        field = app.screen.query_one("#bot_seconds")
        lines = screen_text(app).splitlines()
        rows = [lines[y][label.region.x: field.region.x] for y in range(label.region.y, label.region.bottom)]
        said = " ".join(row.strip() for row in rows).replace("\xa0", " ")
        assert said == i18n._("Expert bot's thinking time (seconds; Enter applies)").replace("\xa0", " "), rows
        assert field.region.y == label.region.y and label.region.right <= field.region.x  # its column, beside it


async def test_the_race_screen_is_drawn_again_at_once_when_the_language_or_the_aids_change(speak, tmp_path,
                                                                                             monkeypatch):
    """Settings over a race: English chosen and the aids turned off, then back to the race.
    The race screen kept French and its aids until the next key, then mixed both ("E → casilla
    43 · al viento" under "round 10 · picks"), the boards' headings until the next round."""
    from flamme_tui.ui.scenarios import _play_round_by_keys, choices

    monkeypatch.setenv("FLAMME_TUI_CONFIG_DIR", str(tmp_path))
    (tmp_path / "settings.json").write_text('{"language": "fr"}')
    app = FlammeApp(seed=SEED, autoplay=False, autosave=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        set_up = choices("classic", 2)
        set_up.seats[1].controller = "easy"
        app.start_race(set_up)
        await settle(pilot)
        await _play_round_by_keys(pilot)
        for _ in range(20):  # through the reveal to round 2's first card
            await settle(pilot)
            if type(app.screen).__name__ == "CurtainScreen":
                await pilot.press("enter")
                continue
            kind = app.screen.turn.kind
            if kind == "pick":
                break
            await pilot.press("1" if kind == "draw" else "enter")
        assert app.screen.turn.kind == "pick", screen_text(app)
        french = screen_text(app)
        assert "Équipe" in french or "Coureur" in french, french
        assert "→" in french  # the aids: where each card goes
        app.show_settings()
        await pilot.pause()
        app.screen.query_one("#language").value = "en"
        app.screen.query_one("#aids").value = False
        await settle(pilot)
        await pilot.press("escape")  # back to the race: no other key
        await settle(pilot)
        assert screen_name(app) == "RaceScreen"
        text = screen_text(app)
        words = set(re.findall(r"[^\W\d_]+", text))
        assert {"Team", "Deck"} & words or {"Rider", "Deck"} & words, text
        assert not words & {"Équipe", "Coureur", "Pioche", "Bleu", "choisissez", "carte"}, [
            line for line in text.splitlines() if "Bleu" in line or "carte" in line]
        cards = app.screen.query_one("#cards")
        assert "→" not in str(cards.render()), "the aids are off"
    i18n.set_language("en")


@pytest.mark.parametrize("lang", ["en", "fr", "es"])
async def test_the_leave_dialog_s_buttons_are_whole_at_80x24(speak, lang):
    """ "Seguir corriend": the Spanish "Keep racing" button was cut at 80 columns."""
    from textual.widgets import Button

    speak(lang)
    app = FlammeApp(seed=SEED, autoplay=False, autosave=False)
    async with app.run_test(size=SMALL) as pilot:
        await SCENARIOS["card-pick"](pilot)
        await settle(pilot)
        await pilot.press("q")
        await settle(pilot)
        text = screen_text(app)
        buttons = list(app.screen.query(Button))
        assert len(buttons) == 3
        for button in buttons:
            assert str(button.label) in text, (str(button.label), text)


@pytest.mark.parametrize("lang", ["fr", "es"])
@pytest.mark.parametrize("size", [(80, 24), (200, 60)])
async def test_every_step_of_a_six_team_meteo_reveal_is_said_whole(lang, size, speak):
    """A review (French, six teams, Meteo, 80x24): the words under the cards at a
    step of the reveal were cut ("face visible : le coureur en tête avance le…",
    "remonter sur le groupe de devant : VR 22→23, O…") and so was the step's name
    above them ("1/15 : cartes révélé…").  Whole parts are left out instead (the
    reason, the last moves: "…" after a comma says some are; the keys, in the key
    bar too): every word shown is whole."""
    from flamme_tui.play.flow import RaceFlow
    from flamme_tui.ui.scenarios import _play_round_by_keys, advance, choices

    speak(lang)
    app = FlammeApp(seed=SEED, autoplay=False, autosave=False)
    async with app.run_test(size=size) as pilot:
        c = choices("meteo", 6)
        app.choices = c
        session = c.session()
        advance(session, 2)
        app.start_flow(RaceFlow(session))
        await _play_round_by_keys(pilot)
        assert app.screen.turn.kind == "reveal"
        steps = len(app.screen.turn.frames)
        assert steps >= 10
        for step in range(steps):
            assert app.screen.turn.step == step
            panel = app.screen.panel
            hint = ["".join(seg.text for seg in strip).rstrip() for strip in panel.hint_w.drawn_lines()]
            title = ["".join(seg.text for seg in strip).rstrip() for strip in panel.title_w.drawn_lines()]
            assert hint[0] and not any(line.endswith("…") and not line.endswith((", …", "· …"))
                                       for line in hint), (step, hint)
            assert not any("…" in line for line in title), (step, title)
            await pilot.press("space")
            await settle(pilot)
