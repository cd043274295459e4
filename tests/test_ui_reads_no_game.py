"""The UI draws the table's turn model, not the game (issue 24, item 3).

The race screen, its key handling and every widget read what the table
offers (play.table's turns, each with its view: the seat's own in that
seat's turn, the public view otherwise) and never the game itself: not
`game.riders`, `game.pos`, `game.hands` nor anything else of it.  The rest
of ui/ may still read a finished game's public results (the podium, a
tour's results), but not the engine's state of riders, positions or hands
beyond the few reads counted here, which may only go down.
"""

from __future__ import annotations

import ast
from pathlib import Path

UI = Path(__file__).resolve().parent.parent / "flamme_tui" / "ui"

# renderers of the turn model: no game at all
RENDERERS = [UI / "screens" / "race.py", UI / "screens" / "racekeys.py", UI / "aids.py",
             *sorted((UI / "widgets").glob("*.py"))]

# a game's own state (engine.race.Race and its rule sets), never the UI's to read
STATE = {"riders", "pos", "hands", "events", "index", "decks", "rng", "seats", "script", "supply", "crossed",
         "actions", "grid_places", "to_place", "apply"}

# the reads of a game's state left in the rest of ui/ (the podium's statistics
# of a finished race, a tour's results): may go down, never up
LEFT = {"screens/podium.py": 20, "screens/tour_results.py": 1, "scenarios.py": 2, "bench.py": 1,
        "hints.py": 1, "screens/coach.py": 3}  # (the hint and the coach replay a finished or saved race)


def is_game(node: ast.AST) -> bool:
    """`game`, `x.game`, `self.flow.game`, `session.game`: an expression that is a game."""
    return (isinstance(node, ast.Name) and node.id == "game") or (isinstance(node, ast.Attribute)
                                                                 and node.attr == "game")


def game_reads(path: Path) -> list[str]:
    """Every use of a game in the file (line: what)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [f"line {node.lineno}: {ast.unparse(node)}" for node in ast.walk(tree) if is_game(node)]


def state_reads(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [f"line {node.lineno}: {ast.unparse(node)}" for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and node.attr in STATE and is_game(node.value)]


def test_the_race_screen_and_widgets_read_no_game():
    problems = {str(p.relative_to(UI)): reads for p in RENDERERS if (reads := game_reads(p))}
    assert not problems, f"draw the turn (its view), not the game: {problems}"


def test_the_rest_of_the_ui_reads_no_more_of_a_game_state():
    counts = {str(p.relative_to(UI)): reads for p in sorted(UI.rglob("*.py")) if (reads := state_reads(p))}
    grown = {name: reads for name, reads in counts.items() if len(reads) > LEFT.get(name, 0)}
    assert not grown, f"a game's state read in ui/ (ask the table or a view): {grown}"


def test_the_check_sees_a_game_read():
    # the checks above find what they look for (a test that cannot fail is no test)
    source = "def f(self):\n    return self.flow.game.riders[0].id, game.pos\n"
    tree = ast.parse(source)
    found = [ast.unparse(n) for n in ast.walk(tree)
             if isinstance(n, ast.Attribute) and n.attr in STATE and is_game(n.value)]
    assert sorted(found) == ["game.pos", "self.flow.game.riders"]
