"""The headless commands tell a race in the player's language (issue 26): in
French and Spanish, the output of `race`, `tour` and `replay --text` holds no
English word of the game's, names from the data excepted.

The game's English words are taken from the catalog itself: every word of an
English msgid (placeholders, markup, option names, quoted commands and field
names set aside), but for the words the language's translations keep as they
are (a term whose translation is the same word: Sprinteur, Rouleur, bot, BMX,
Tour, "expert" in French...).  So a rider told by its id ("red.S 13/0"), a bot
by its id ("(easy)"), a default name ("Player 1") or any English sentence left
untranslated is found, and a new English text needs no list to be kept.
Short stages (the tutorial's tiles) and fixed seeds keep the runs short.
The same check reads `race`'s error line for set-ups the engine refuses (its
reasons are English in the engine) and `bench`'s line.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

import flamme_tui

LOCALE = Path(flamme_tui.__file__).parent / "locale"
STAGE = "Jalhay"  # the short stage's name: a name from the data, said as written
NAMES = re.compile(rf"{STAGE}|BMX [A-Da-d]{{4}}|\bABCD\b")  # and the BMX circuit's (its tiles' sides), its tiles
SHORT_STAGE = f"""\
name: {STAGE}
tiles: abclMFdu
description: "Court."
boxes: [base]
"""
# names from the boxes, said as written in every language: the Peloton expansion and its scripted teams
BOX_NAMES = {"peloton", "muscle"}
# what in a message is no English word: placeholders, markup, quoted commands, option
# names, key combinations, printf forms; and a field name that opens it ("draw: ...")
NOT_TEXT = re.compile(r"\{[^}]*\}|\[[^\]]*\]|`[^`]*`|--?[a-z][a-z-]*|%\([a-z_]+\)[sd]|%%|\b\w+\+\w+\b|^\w+(?=:)")
WORD = re.compile(r"[^\W\d_]+")


def words(text: str) -> set[str]:
    """The words of a text, lower case, three letters or more (the ranks' "S"/"R" and "e", "y", "à" are none)."""
    return {w.lower() for w in WORD.findall(NOT_TEXT.sub(" ", text)) if len(w) >= 3}


def _texts(value) -> tuple[str, ...]:
    return value if isinstance(value, tuple) else (value,)


@cache
def english_words(lang: str) -> frozenset[str]:
    """The game's English words a player of `lang` must not read."""
    with open(LOCALE / lang / "LC_MESSAGES" / "flamme_tui.po", "rb") as f:
        catalog = read_po(f)
    english: set[str] = set()
    # the language's own words that are English ones too (French "case", "place", "course"):
    # a translation's word its English does not say; and the words a translation keeps,
    # a term of one or two words said the same (Sprinteur, bot), not an id in a help text
    own: set[str] = set()
    for message in catalog:
        if not message.id:
            continue
        for text in _texts(message.id):
            english |= words(text)
        for source, said in zip(_texts(message.id), _texts(message.string), strict=False):
            own |= words(said) - words(source)
            if 0 < len(words(source)) <= 2:
                own |= words(source) & words(said)
    return frozenset(english - own - BOX_NAMES)


def english_in(text: str, lang: str) -> dict[str, list[str]]:
    """Each English word found, with the first lines it is on."""
    vocabulary = english_words(lang)
    found: dict[str, list[str]] = {}
    for line in text.splitlines():
        for word in sorted(words(NAMES.sub(" ", line)) & vocabulary):
            found.setdefault(word, [])
            if len(found[word]) < 2:
                found[word].append(line.strip())
    return found


def run(data: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "FLAMME_TUI_DATA_DIR": str(data)}
    done = subprocess.run([sys.executable, "-m", "flamme_tui", *args], capture_output=True, text=True,
                          timeout=300, env=env)
    assert done.returncode == 0, (args, done.stderr)
    return done


def saved_file(done: subprocess.CompletedProcess, folder: Path) -> str:
    """The race file an --autosave run wrote in `folder` (it says where on stderr, in its language)."""
    paths = [line[line.index(str(folder)):] for line in done.stderr.splitlines() if str(folder) in line]
    assert paths, done.stderr
    return paths[-1]


@cache
def outputs(lang: str, root: str) -> dict[str, str]:
    """What `race` (teams with every kind of bot, one rider per player, BMX), `tour`
    (two stages, classic then meteo) and `replay --text` of a race and of a tour print."""
    data = Path(root) / lang
    (data / "stages").mkdir(parents=True, exist_ok=True)
    (data / "stages" / "jalhay.yaml").write_text(SHORT_STAGE, encoding="utf-8")
    saves = data / "autosaved"
    raced = run(data, "race", "--lang", lang, "--stage", "jalhay", "--teams", "3", "--bots", "hard,medium,easy",
                "--seed", "2", "--autosave", str(saves / "race"))
    out = {
        "race": raced.stdout,
        "race --players": run(data, "race", "--lang", lang, "--stage", "jalhay", "--players", "3",
                              "--bots", "easy,expert,easy", "--rollouts", "2", "--seed", "5").stdout,
        "race bmx": run(data, "race", "--lang", lang, "--variant", "bmx", "--teams", "3", "--seed", "4").stdout,
    }
    toured = run(data, "tour", "--lang", lang, "--stages", "jalhay,jalhay:meteo", "--bots", "hard,easy",
                 "--seed", "2", "--autosave", str(saves / "tour"))
    out["tour"] = toured.stdout
    out["replay --text (race)"] = run(data, "replay", "--lang", lang, "--text", saved_file(raced, saves / "race")).stdout
    out["replay --text (tour)"] = run(data, "replay", "--lang", lang, "--text", saved_file(toured, saves / "tour")).stdout
    return out


@pytest.fixture(scope="module")
def root(tmp_path_factory) -> str:
    return str(tmp_path_factory.mktemp("cli-words"))


def test_the_check_finds_english_in_english_output(root):
    """The check itself: the same commands in English are full of the words it looks for,
    the riders' colours and the bots' levels among them."""
    found = set()
    for text in outputs("en", root).values():
        found |= set(english_in(text, "fr")) & set(english_in(text, "es"))
    assert {"round", "plays", "slipstream", "ranking", "blue", "easy", "hard", "player"} <= found, sorted(found)


def test_the_vocabulary_keeps_the_words_both_languages_share():
    """Sprinteur, Rouleur, bot and BMX are the game's words in French and Spanish too: not English."""
    for lang in ("fr", "es"):
        vocabulary = english_words(lang)
        assert not {"sprinteur", "rouleur", "bot", "bmx"} & vocabulary
        assert {"rider", "round", "easy", "blue", "player", "across"} <= vocabulary, lang


@pytest.mark.parametrize("lang", ["fr", "es"])
def test_race_tour_and_replay_have_no_english_word(lang, root):
    found = {}
    for name, text in outputs(lang, root).items():
        assert text.count("\n") > 10, (name, text)
        if english_in(text, lang):
            found[name] = english_in(text, lang)
    assert found == {}, found


REFUSED = {  # a race the engine refuses (its reasons are written in English), and a word of the reason
    "one rider each, a scripted team": (["--stage", "peloton-7", "--players", "3", "--bots", "peloton,easy,easy"],
                                        {"fr": "automatiques", "es": "automáticos"}),
    "no breakaway square": (["--breakaway"], {"fr": "échappée", "es": "escapada"}),
    "two Peloton teams": (["--stage", "peloton-7", "--bots", "peloton,peloton,easy,easy"],
                          {"fr": "Attaque", "es": "Ataque"}),
    "a BMX circuit not of the four tiles": (["--variant", "bmx", "--circuit", "xyz"], {"fr": "tuile", "es": "tramo"}),
}


@pytest.mark.parametrize("lang", ["fr", "es"])
@pytest.mark.parametrize("case", list(REFUSED))
def test_a_race_the_engine_refuses_is_said_in_the_language(lang, case, tmp_path):
    """`race` with seats or a stage the engine's rules refuse: one line in the player's language."""
    args, said = REFUSED[case]
    done = subprocess.run([sys.executable, "-m", "flamme_tui", "race", "--lang", lang, *args], capture_output=True,
                          text=True, timeout=120, env={**os.environ, "FLAMME_TUI_DATA_DIR": str(tmp_path)})
    assert done.returncode == 2 and done.stdout == "", done
    assert len(done.stderr.splitlines()) == 1 and said[lang] in done.stderr, done.stderr
    assert english_in(done.stderr, lang) == {}, done.stderr


def test_every_set_up_reason_of_the_engine_is_told():
    """Each ValueError text of engine.seating and of the set-up checks the narrator knows is the engine's own
    (a reworded engine message would fall back to English unnoticed)."""
    from flamme_tui.play.narrator import _SETUP_PLAIN

    # the repo's sources (the installed wheel's engine is compiled: inspect finds no source there)
    engine = Path(__file__).resolve().parent.parent / "flamme_tui" / "engine"
    sources = "".join((engine / name).read_text(encoding="utf-8") for name in ("seating.py", "classic.py"))
    for text in _SETUP_PLAIN:
        assert f'ValueError("{text}")' in sources, text


@pytest.mark.parametrize("lang, said", [("fr", "moyen sur Jalhay · classique"), ("es", "medio en Jalhay · clásico")])
def test_bench_names_the_bot_and_rules_in_the_language(lang, said, tmp_path):
    (tmp_path / "stages").mkdir()
    (tmp_path / "stages" / "jalhay.yaml").write_text(SHORT_STAGE, encoding="utf-8")
    out = run(tmp_path, "bench", "--lang", lang, "--bot", "medium", "-n", "1", "--stage", "jalhay",
              "--variant", "classic").stdout
    assert out.startswith(said) and english_in(out, lang) == {}, out
