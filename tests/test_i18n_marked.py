"""Every text a player reads is marked for translation (issue 26), checked
over the sources' syntax trees in the style of tests/test_layers.py.

A string literal that reads as words ("Start race", "square {n}, {lane}")
must sit inside `_`, `N_`, `ngettext` or `pgettext`, unless it is not text:
a docstring, an id, a CSS class or style, a key name, a comparison with a
value, a dictionary key, an exception's message for developers, or one of the
few strings of ALLOWED.  F-strings count by their literal parts: an f-string
of words cannot be translated (its words would be looked up with the values
in them), so it must become `_("... {name} ...").format(name=...)`.

The check covers the modules converted so far (TRANSLATED).  The bots'
public reasons are their own English (bots/ import only the engine), told in
the player's language by the narrator (play/narrator.reason_words and
measure_words; checked in tests/ui/test_languages.py and
tests/ui/test_languages_tour_bmx.py).  A `raise` is not checked here (a
model's check raises its words already translated: `raise ValueError(_(...))`,
said by pydantic_words; tests/test_error_words_i18n.py reads those lines in
French and Spanish).  Not converted (English whatever the language): the
developers' measures (play/ladder.py, bench_readers.py, ui/bench.py).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "flamme_tui"

TRANSLATED = [
    "play/narrator.py", "words.py", "arguments.py",
    "ui/texts.py", "ui/aids.py", "ui/keys.py", "ui/palette.py", "ui/replay.py", "ui/widgets/board.py",
    "ui/screens/base.py", "ui/screens/title.py", "ui/screens/settings.py", "ui/screens/teams.py",
    "ui/screens/curtain.py", "ui/screens/variant.py", "ui/screens/rules.py", "ui/screens/stage.py",
    "ui/screens/dialogs.py", "ui/screens/saved.py", "ui/screens/tour_menus.py", "ui/screens/tour_results.py",
    "ui/screens/bmx_builder.py", "ui/app.py", "ui/widgets/cards.py",
    "cli/__init__.py", "cli/tours.py", "cli/stages.py", "play/tournament.py", "play/replay.py", "play/tours.py",
    "play/session.py", "play/flow.py", "usertext.py",
    "ui/join.py", "net/client.py", "net/wire.py", "cli/host.py", "ui/screens/host.py",
    "ui/screens/tutorial.py", "ui/screens/coach.py", "play/tutorial.py", "play/lessons.py", "cli/coach.py",
    "files.py", "settings.py", "setupdata.py", "conformance.py",
    "config/errors.py", "config/models.py", "config/reading.py", "config/loading.py", "config/compiling.py",
    "config/summaries.py", "saves/model.py", "saves/writing.py", "saves/reading.py", "saves/locks.py",
    "saves/autosave.py", "saves/listing.py", "ui/serve.py", "net/guard.py", "net/host.py",
    "ui/widgets/actionpanel.py", "ui/widgets/racetable.py", "ui/widgets/reveal.py", "ui/screens/racekeys.py",
    "ui/screens/race.py", "ui/screens/podium.py", "play/table.py", "ui/hints.py", "ui/commandpalette.py",
    "ui/widgets/lap.py", "ui/widgets/keybar.py", "play/coach.py",
    "pydantic_words.py", "cli/saves.py", "play/stagebuild.py", "play/tourbuild.py", "stagegen.py",
    "ui/screens/stagebuild.py", "play/hintbench.py",
]

MARKERS = {"_", "N_", "ngettext", "pgettext"}
# keyword arguments that never hold words a player reads
NOT_TEXT_KEYWORDS = {"id", "classes", "style", "variant", "action", "key_display", "severity", "cursor_type", "name",
                     "mode", "align", "overflow", "kind", "sep", "end", "encoding", "prefix", "timespec", "markup",
                     "field", "value", "display", "pattern"}
# calls whose string arguments are selectors, attribute names, formats or data
NOT_TEXT_CALLS = {"query", "query_one", "set_class", "has_class", "add_class", "remove_class", "getattr", "setattr",
                  "hasattr", "startswith", "endswith", "split", "rsplit", "replace", "join", "index", "get", "pop",
                  "setdefault", "strftime", "fromisoformat", "Style", "Segment", "Col", "install_screen",
                  "get_screen", "set_styles", "styled", "rstrip", "strip", "partition", "keys_text", "key_of",
                  "keys_of", "stage_info", "choose_stage", "isinstance", "Option", "run_worker", "set_timer",
                  "call_later", "Path", "rich_style", "Terrain", "Weather", "TeamColour", "find", "count",
                  "help_for", "topic_text", "reading_line", "cast", "cli_says", "replay_says",
                  "removeprefix", "create_model",
                  "warning", "info", "debug",  # a log's lines are the operator's, in English
                  "compile",  # (re.compile: a pattern matching words, not words shown)
                  "error_message"}  # a protocol error's detail, for developers: a device says its code in words
# whole strings that are no words to translate: key names as bound and shown, symbols, layouts
ALLOWED = {
    "home end", "a-d", "+ -", "[ ]", "← →", "↑↓", "⏎", "esc", "tab", "space", "Enter", "Esc", "ctrl+p",
    "question_mark,f1", "ctrl+s", "ctrl+f", "escape", "enter",
    "Language · Langue · Idioma", " · Language",  # the Language row names itself in English too, on purpose
    "flamme-tui", "textual-dark", "Flamme Rouge",
    "Sprinteur", "Rouleur", "Peloton", "Muscle",  # the boxes' own words, the same in every language (GLOSSARY.md)
    "flamme-tui stages random --seed {x} --length {x} --kind {x} --boxes {x}",  # a command line (stagegen's source)
}


def _marked_calls(tree: ast.AST) -> set[int]:
    """The ids of every node inside a call of _, N_, ngettext or pgettext."""
    inside: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) in MARKERS:
            inside.update(id(n) for n in ast.walk(node))
    return inside


def _not_text(tree: ast.AST) -> set[int]:
    """The ids of the string nodes that are not text by where they stand."""
    skip: set[int] = set()

    def mark(node: ast.AST) -> None:
        skip.update(id(n) for n in ast.walk(node))

    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                mark(first)  # a docstring
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            mark(node)  # a bare string: a comment
        elif isinstance(node, ast.Call):
            name = getattr(node.func, "id", getattr(node.func, "attr", None))
            for kw in node.keywords:
                if kw.arg in NOT_TEXT_KEYWORDS:
                    mark(kw.value)
            if name in NOT_TEXT_CALLS:
                for arg in node.args:
                    mark(arg)
            if name == "Binding":
                for arg in node.args[:2]:  # the keys and the action
                    mark(arg)
        elif isinstance(node, ast.Compare):
            for side in [node.left, *node.comparators]:
                mark(side)
        elif isinstance(node, ast.Dict):
            for key in node.keys:
                if key is not None:
                    mark(key)
        elif isinstance(node, ast.Subscript):
            mark(node.slice)
        elif isinstance(node, ast.Raise):
            mark(node)  # for developers (a user's error line says its words elsewhere)
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name) and (target.id.endswith("CSS") or target.id in ("LOGO", "TITLE", "__all__")):
                    mark(node.value)
    return skip


TAG = re.compile(r"\[/?[a-z$][^\]]*\]")  # markup tags: [b], [/b], [dim], [bold #fff on #000]


def reads_as_words(text: str) -> bool:
    """Words a player reads: two words of letters, or one capitalised word (a label).
    Not an identifier ("seat-name", "app.quit", "LANG": no space, joined or in capitals)."""
    if " " not in text.strip() and (re.search(r"[-._]", text) or text.isupper()):
        return False
    # placeholders, markup, the program's name and command-line options are no words to translate
    text = TAG.sub(" ", re.sub(r"\{[^{}]*\}|\$[a-z_]+|flamme-tui|--[a-z-]+", " ", text))
    words = re.findall(r"[^\W\d_]{2,}", text)
    return len(words) >= 2 or any(w[0].isupper() and len(w) >= 3 and not w.isupper() for w in words)


def unmarked(source: str) -> list[str]:
    """The prose literals of a module that are not marked for translation."""
    tree = ast.parse(source)
    marked, skip = _marked_calls(tree), _not_text(tree)
    found = []
    for node in ast.walk(tree):
        if id(node) in marked or id(node) in skip:
            continue
        if isinstance(node, ast.JoinedStr):
            parts = "".join(v.value if isinstance(v, ast.Constant) else "{x}" for v in node.values)
            skip.update(id(v) for v in node.values)
            if reads_as_words(parts) and parts.strip() not in ALLOWED:
                found.append(f"line {node.lineno}: f-string {parts!r}")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            if reads_as_words(node.value) and node.value not in ALLOWED:
                found.append(f"line {node.lineno}: {node.value!r}")
    return found


def test_the_check_finds_unmarked_text():
    planted = '''
"""A docstring is no text."""
from textual.widgets import Static
def compose(self, n):
    yield Static("Start race", id="start-button")
    yield Static(_("Back"), classes="big red")
    self.notify(f"Deleted {n} files")
    self.say(_("{n} files").format(n=n))
    if self.kind == "every kind":
        self.query_one("#seat-name Input")
    return {"peloton": N_("a scripted team")}["peloton"]
'''
    found = sorted(unmarked(planted))
    assert found == ["line 5: 'Start race'", "line 7: f-string 'Deleted {x} files'"], found


@pytest.mark.parametrize("module", TRANSLATED)
def test_every_text_is_marked_for_translation(module):
    found = unmarked((PACKAGE / module).read_text(encoding="utf-8"))
    assert found == [], f"{module}: mark these with _() (or N_ in a table, translated when shown):\n" + "\n".join(found)
