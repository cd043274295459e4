"""Languages (issue 26): the catalogs, the choice of language, and the race
told in French and Spanish.

- every catalog entry is translated, none fuzzy, and each keeps the English
  text's placeholders ({rider}, %(value)r) exactly: a lost or misspelt one
  would raise or show a hole when said;
- the shipped .mo say what the .po say (they are compiled and committed: the
  wheel carries them), and the template holds every text the sources mark;
- --lang, the setting and the environment choose the language in that order;
- ordinals, plurals and numbers follow the language.
"""

from __future__ import annotations

import gettext
import io
import os
import re
import string
import subprocess
import sys
from pathlib import Path

import pytest

from flamme_tui import i18n, words
from flamme_tui.cli import build_parser

babel = pytest.importorskip("babel")  # the test extra installs it (pyproject.toml)
from babel.messages.extract import extract_from_dir  # noqa: E402
from babel.messages.pofile import read_po  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "flamme_tui" / "locale"
LANGS = ("fr", "es")


@pytest.fixture(autouse=True)
def english_after():
    yield
    i18n.forget_flag()
    i18n.set_language("en")


def catalog(lang: str):
    with open(LOCALE / lang / "LC_MESSAGES" / "flamme_tui.po", "rb") as f:
        return read_po(f, locale=lang)


def placeholders(text: str) -> list[str]:
    """The fields a text fills in, brace style ({rider}, {place:>2}) and percent style (%(value)r, %s)."""
    found = []
    if "{" in text:
        try:
            found += sorted(f"{{{name}:{spec}}}" for _, name, spec, _ in string.Formatter().parse(text) if name is not None)
        except ValueError:
            found.append("<broken braces>")
    found += sorted(re.findall(r"%(?:\([a-z_]+\))?[rsd%]", text))
    found += sorted(re.findall(r"\$[a-z_]+", text))  # Content.from_markup's variables: $label
    return found


def problems(cat) -> list[str]:
    found = []
    for msg in cat:
        if not msg.id:
            continue
        ids = msg.id if isinstance(msg.id, tuple) else (msg.id,)
        strings = msg.string if isinstance(msg.string, tuple) else (msg.string,)
        if msg.fuzzy:
            found.append(f"fuzzy: {ids[0]!r}")
        if not all(strings):
            found.append(f"untranslated: {ids[0]!r}")
            continue
        for text in strings:
            # a plural's forms may each drop the count's {n} only if the English does
            if placeholders(text) not in (placeholders(ids[0]), placeholders(ids[-1])):
                found.append(f"placeholders differ: {ids[0]!r} -> {text!r}")
    return found


@pytest.mark.parametrize("lang", LANGS)
def test_every_entry_is_translated_with_the_same_placeholders(lang):
    assert problems(catalog(lang)) == []


@pytest.mark.parametrize("lang", LANGS)
def test_the_card_and_token_letters_are_the_same_in_every_text(lang):
    """The screens show an exhaustion card as E and a fatigue token as F in
    every language (the board's columns, the cards, their legend): a text that
    starts with one of them says the same letter in translation."""
    for msg in catalog(lang):
        ids = msg.id if isinstance(msg.id, tuple) else (msg.id,)
        strings = msg.string if isinstance(msg.string, tuple) else (msg.string,)
        for letter in ("+E", "+F"):
            if ids[0].startswith(letter):
                assert all(text.startswith(letter) for text in strings), (ids[0], strings)


def test_the_catalog_check_finds_what_it_looks_for():
    planted = read_po(io.BytesIO(b'''
msgid "{rider} wins"
msgstr "{coureur} gagne"

#, fuzzy
msgid "a"
msgstr "b"

msgid "c"
msgstr ""

msgid "%(value)r and %s"
msgstr "%(value)s et %s"
'''))
    found = problems(planted)
    assert len(found) == 4, found
    assert [p.split(":")[0] for p in found] == ["placeholders differ", "fuzzy", "untranslated", "placeholders differ"]


@pytest.mark.parametrize("lang", LANGS)
def test_the_shipped_mo_says_what_the_po_says(lang):
    """The .mo files are committed (the wheel carries them): compiled again after every .po change."""
    with open(LOCALE / lang / "LC_MESSAGES" / "flamme_tui.mo", "rb") as f:
        mo = gettext.GNUTranslations(f)
    for msg in catalog(lang):
        if not msg.id:
            continue
        if isinstance(msg.id, tuple):
            assert mo.ngettext(msg.id[0], msg.id[1], 1) == msg.string[0]
            assert mo.ngettext(msg.id[0], msg.id[1], 5) == msg.string[1]
        elif msg.context:
            assert mo.pgettext(msg.context, msg.id) == msg.string
        else:
            assert mo.gettext(msg.id) == msg.string, msg.id


def test_the_catalogs_hold_every_marked_text():
    """What `pybabel extract` finds in the sources is in the template and both catalogs:
    a text marked since the last `pybabel update` fails here (README "Languages")."""
    marked = set()
    for _file, _line, message, _comments, context in extract_from_dir(str(ROOT / "flamme_tui")):
        key = message if isinstance(message, str) else message[0]
        marked.add((context, key))
    with open(LOCALE / "flamme_tui.pot", "rb") as f:
        template = {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in read_po(f) if m.id}
    assert marked - template == set()
    for lang in LANGS:
        held = {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in catalog(lang) if m.id}
        assert marked - held == set(), lang


def test_texts_marked_inside_f_strings_are_in_the_template_too():
    """pybabel does not look inside an f-string (one token up to Python 3.12): a
    `{_('round')}` there was never extracted, so never translated (the podium's chart)."""
    import io
    import tokenize

    with open(LOCALE / "flamme_tui.pot", "rb") as f:
        template = {m.id for m in read_po(f) if isinstance(m.id, str) and m.id}
    marked = re.compile(r"(?<![\w.])_\((['\"])((?:(?!\1).)+)\1\)")
    missing, seen = [], 0
    for path in sorted((ROOT / "flamme_tui").rglob("*.py")):
        for token in tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline):
            if token.type == tokenize.STRING and token.string[:2].lower() in ("f'", 'f"', "rf", "fr"):
                for found in marked.finditer(token.string):
                    seen += 1
                    if found.group(2) not in template:
                        missing.append(f"{path.name}:{token.start[0]}: {found.group(2)!r}")
    assert seen >= 4  # the check finds what it looks for
    assert missing == []


# ------------------------------------------------------------ the choice


@pytest.mark.parametrize("env, lang", [
    ({}, "en"),
    ({"LANG": "fr_FR.UTF-8"}, "fr"),
    ({"LANG": "es_AR.UTF-8"}, "es"),
    ({"LANG": "de_DE.UTF-8"}, "en"),
    ({"LANG": "C.UTF-8"}, "en"),
    ({"LC_MESSAGES": "es_ES", "LANG": "fr_FR"}, "es"),
    ({"LC_ALL": "fr_CA.UTF-8", "LC_MESSAGES": "es_ES", "LANG": "en_GB"}, "fr"),
    ({"LANGUAGE": "de:es:fr", "LANG": "fr_FR"}, "es"),  # LANGUAGE: the first of the list we speak
    ({"LANGUAGE": "de", "LANG": "fr_FR"}, "fr"),  # none of it: on to the next variable
    ({"LANGUAGE": "", "LC_ALL": "", "LANG": "es"}, "es"),  # empty means unset
])
def test_the_environment_chooses_as_gettext_does(env, lang):
    assert i18n.from_environment(env) == lang


def test_the_flag_beats_the_setting_which_beats_the_environment():
    env = {"LANG": "es_ES.UTF-8"}
    assert i18n.choose(setting="", env=env) == "es"
    assert i18n.choose(setting="fr", env=env) == "fr"
    assert i18n.choose(flag="en", setting="fr", env=env) == "en"
    assert i18n.choose(setting="fr", env=env) == "en"  # --lang holds for the whole run...
    i18n.forget_flag()  # ...until the player picks a language in the app
    assert i18n.choose(setting="fr", env=env) == "fr"


def test_every_command_takes_lang():
    parser = build_parser()
    from flamme_tui.cli import _every_parser

    commands = [parser] + _every_parser(parser._subparsers._group_actions[0])
    assert len(commands) > 12
    for command in commands:
        assert any("--lang" in action.option_strings for action in command._actions), command.prog


def run_cli(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    environ = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")}
    environ.update(env or {})
    return subprocess.run([sys.executable, "-m", "flamme_tui", *args], capture_output=True, text=True,
                          timeout=120, env=environ)


def test_a_headless_race_speaks_the_language_asked():
    fr = run_cli("race", "--teams", "2", "--seed", "3", "--lang", "fr")
    es = run_cli("--lang", "es", "race", "--teams", "2", "--seed", "3")
    env = run_cli("race", "--teams", "2", "--seed", "3", env={"LANG": "fr_FR.UTF-8"})
    en = run_cli("race", "--teams", "2", "--seed", "3")
    assert fr.returncode == es.returncode == en.returncode == 0
    assert "Manche 1" in fr.stdout and "Classement final" in fr.stdout and "Sprinteur Rouge joue" in fr.stdout
    assert "Ronda 1" in es.stdout and "Clasificación final" in es.stdout and "Sprinteur Rojo juega" in es.stdout
    assert env.stdout == fr.stdout
    assert "Round 1" in en.stdout and "Final ranking" in en.stdout
    # the same race: the same number of lines, told in other words
    assert len(fr.stdout.splitlines()) == len(es.stdout.splitlines()) == len(en.stdout.splitlines())
    for word in ("Round", "plays", "slipstream", "exhaustion", "square", "lane", "ranking", "track"):
        assert word not in fr.stdout and word not in es.stdout, word


def test_a_command_speaks_the_language_setting_unless_told_otherwise(tmp_path):
    """The Language setting (the app's settings screen) beats the environment for
    the commands too, and --lang beats it (README, Languages)."""
    (tmp_path / "settings.json").write_text('{"language": "fr"}')
    env = {"FLAMME_TUI_CONFIG_DIR": str(tmp_path), "LANG": "es_ES.UTF-8"}
    setting = run_cli("race", "--teams", "2", "--seed", "3", env=env)
    flag = run_cli("race", "--teams", "2", "--seed", "3", "--lang", "en", env=env)
    assert setting.returncode == flag.returncode == 0
    assert "Manche 1" in setting.stdout and "Round 1" in flag.stdout
    assert "usage\u00a0: flamme-tui race" in run_cli("race", "--help", env=env).stdout  # the help in it too


def test_help_and_errors_in_french():
    shown = run_cli("race", "--help", "--lang", "fr")
    assert shown.returncode == 0
    assert "usage\u00a0: flamme-tui race" in shown.stdout and "afficher cette aide et quitter" in shown.stdout
    refused = run_cli("--lang", "es", "race", "--teams", "9")
    assert refused.returncode == 2
    assert "argumento --teams: se esperaba un número entero de 2 a 6, se recibió '9'" in refused.stderr
    assert "(ver flamme-tui race --help)" in refused.stderr


# ------------------------------------------------------ words and numbers


def test_ordinals_by_language():
    assert [words.ordinal(n) for n in (1, 2, 3, 11, 21)] == ["1st", "2nd", "3rd", "11th", "21st"]
    i18n.set_language("fr")
    assert [words.ordinal(n) for n in (1, 2, 3, 11)] == ["1er", "2e", "3e", "11e"]
    i18n.set_language("es")
    assert [words.ordinal(n) for n in (1, 2, 11)] == ["1.º", "2.º", "11.º"]


def test_plurals_follow_each_language():
    i18n.set_language("fr")  # French: 0 and 1 take the singular
    assert [i18n.ngettext("{n} round", "{n} rounds", n).format(n=n) for n in (0, 1, 2)] == [
        "0 manche", "1 manche", "2 manches"]
    i18n.set_language("es")
    assert [i18n.ngettext("{n} round", "{n} rounds", n).format(n=n) for n in (0, 1, 2)] == [
        "0 rondas", "1 ronda", "2 rondas"]


def test_numbers_by_language():
    assert (i18n.integer(12345), i18n.decimal(0.35, 2), i18n.short(1.2)) == ("12,345", "0.35", "1.2")
    i18n.set_language("fr")
    assert (i18n.integer(12345), i18n.decimal(0.35, 2), i18n.short(1.2)) == ("12\u202f345", "0,35", "1,2")
    i18n.set_language("es")
    assert (i18n.integer(1234), i18n.integer(12345), i18n.decimal(0.35, 2)) == ("1234", "12.345", "0,35")


def test_shares_and_file_sizes_by_language():
    """Per cents and sizes as each language writes them (the tournament's tables, the readers'
    refusals): "25.0%" was printed in French and Spanish, and sizes in English words."""
    from flamme_tui import files
    from flamme_tui.play.tournament import share_text

    said = {}
    for lang in ("en", "fr", "es"):
        i18n.set_language(lang)
        said[lang] = (i18n.percent(0.25), share_text(1, 4), files._size(3 * 1024 * 1024 // 2), files._size(1))
    assert said["en"] == ("25.0%", "25.0% [4.6%, 69.9%]", "1.5 MB", "1 byte")
    assert said["fr"] == ("25,0\u00a0%", "25,0\u00a0% [4,6\u00a0%, 69,9\u00a0%]", "1,5 Mo", "1 octet")
    assert said["es"] == ("25,0\u00a0%", "25,0\u00a0% [4,6\u00a0%, 69,9\u00a0%]", "1,5 MB", "1 byte")


def test_a_race_told_at_display_time_changes_language_with_the_player():
    """The narrator keeps no words: the same notes read in each language when shown."""
    from flamme_tui.play import narrator
    from flamme_tui.play.races import RaceSpec, make_setup, new_game

    game = new_game(make_setup(RaceSpec()), 1)
    note = narrator.RoundStarts(3)
    said = {}
    for lang in ("en", "fr", "es"):
        i18n.set_language(lang)
        said[lang] = (narrator.note_line(note, game), narrator.where(game.course, game.pos[0][0]))
    assert said["en"][0] == "── Round 3 ──" and said["fr"][0] == "── Manche 3 ──" and said["es"][0] == "── Ronda 3 ──"
    assert "to go" in said["en"][1] and "reste" in said["fr"][1] and "faltan" in said["es"][1]


def test_a_team_named_by_default_reads_in_the_language_now_and_a_typed_name_as_typed():
    """words.team_name: a default name of any language (the colour's, "Joueur 3" racing one
    rider, the colour and a scripted team's box name) is said in the language now; the set-up
    keeps it as it was given."""
    from types import SimpleNamespace

    from flamme_tui.engine.race import Team
    from flamme_tui.words import team_name

    setup = SimpleNamespace(teams=(Team("Bleu", "blue"), Team("Les Rapides", "red"), Team("Verde Peloton", "green"),
                                   Team("Joueur 4", "black", "S"), Team("Player 4", "white", "R"), Team("Vert", "pink")),
                            scripted=("", "", "peloton", "", "", ""))
    said = {}
    try:
        for lang in ("en", "fr", "es"):
            i18n.set_language(lang)
            said[lang] = [team_name(setup, seat) for seat in range(6)]
    finally:
        i18n.set_language("en")
    # (the fifth seat's default is "Player 5": its "Player 4" was typed; "Vert" is no default of a pink team)
    assert said["en"] == ["Blue", "Les Rapides", "Green Peloton", "Player 4", "Player 4", "Vert"]
    assert said["fr"] == ["Bleu", "Les Rapides", "Vert Peloton", "Joueur 4", "Player 4", "Vert"]
    assert said["es"] == ["Azul", "Les Rapides", "Verde Peloton", "Jugador 4", "Player 4", "Vert"]
    assert [t.name for t in setup.teams][:3] == ["Bleu", "Les Rapides", "Verde Peloton"]


@pytest.mark.parametrize("lang", ["en", "fr", "es"])
def test_the_curtain_legend_fits_80_columns_in_every_language(lang):
    """The curtain's legend keeps each line within 78 cells (texts.curtain_legend), French and Spanish too."""
    from flamme_tui.ui.texts import curtain_legend
    from flamme_tui.usertext import cells

    i18n.set_language(lang)
    legends = [curtain_legend(variant, jersey=True, no_lane=no_lane) for variant in ("classic", "meteo", "bmx")
               for no_lane in (False, True)]
    long = [line for legend in legends for line in legend if cells(line) > 78]
    assert long == []
    # the ░ of a square with fewer lanes is said only where the track draws it
    assert ["░" in "\n".join(legend) for legend in legends] == [False, True] * 3
    # the piles shown on the curtain are the table's before this round's draws (widgets.board): said
    # where a rider's deck and recycled cards are drawn (classic, meteo), not in BMX's bag
    piles = i18n._("Others' Deck, Recycled: as before this round's draws, until the reveal")
    assert [piles in legend for legend in legends] == [True] * 4 + [False] * 2
