"""One narrator (issue 24): play/narrator.py is the only module that tells
the race in words; the others hand it actions, notes and engine events, and
keep no words of their own.  The words are made when shown: the race log is
kept as notes (data), told by the narrator."""

from __future__ import annotations

import ast
import inspect
import string
from pathlib import Path

import pytest

from flamme_tui.engine import events as engine_events
from flamme_tui.play import narrator
from flamme_tui.play.flow import RaceFlow, history
from flamme_tui.play.races import RaceSpec
from flamme_tui.play.session import Session

PACKAGE = Path(narrator.__file__).resolve().parent.parent

# sentences of the race log, the replay and the command line's race output: each is
# written in the narrator only (a second writer would tell the race its own way)
PHRASES = ("── Round", "── Breakaway", "places the ", "draws first;", "took their last", "the breakaway\"",
           "wins the race", "wins the stage", "slipstream: ", "exhaustion: ", "crosses the line,", "has chosen their",
           ": bid down", "yellow jersey: ", "resumed at round", "placed so far", "Final ranking", "start:    ",
           "break away to", "weather: fair", "GC after stage ", "goes on as the new race file",
           # the race screen's and the podium's tellings
           "Most in the wind", "Best from the back", "move up to the group ahead", "drew first: its card is down",
           "face up: the rider in front", "gained a place on the grid")


def _string_constants(path: Path) -> list[tuple[int, str]]:
    """The strings of a source, but its docstrings (which describe, and tell no race)."""
    tree = ast.parse(path.read_text())
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docstrings.add(id(first.value))
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings]


def test_the_checker_finds_a_planted_writer(tmp_path):
    planted = tmp_path / "flow.py"
    planted.write_text('"""Writes "── Round 3 ──" (a docstring: no writer)."""\n'
                       'def note(game):\n    return f"── Round {game.round} ──"\n')
    assert _string_constants(planted) == [(3, "── Round "), (3, " ──")]


def test_only_the_narrator_writes_the_race_sentences():
    writers = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name == "narrator.py" or path.parts[-2:] == ("ui", "texts.py"):  # (the help describes the log)
            continue
        for line, text in _string_constants(path):
            if any(phrase in text for phrase in PHRASES):
                writers.setdefault(str(path.relative_to(PACKAGE)), []).append(f"line {line}: {text[:60]!r}")
    assert not writers, "the race told outside play/narrator.py:\n" + "\n".join(
        f"{p} {w}" for p, ws in writers.items() for w in ws)
    source = (PACKAGE / "play" / "narrator.py").read_text()
    missing = [phrase for phrase in PHRASES if phrase.strip('"') not in source]
    assert not missing  # (a phrase renamed there: rename it here)


def test_the_engine_tells_nothing():
    for name, cls in inspect.getmembers(engine_events, inspect.isclass):
        if issubclass(cls, engine_events.Event):
            assert "text" not in vars(cls), f"{name}.text: the words are the narrator's"


def _sample(cls: type) -> engine_events.Event:
    values = {"rider": 1, "start": 3, "square": 9, "lane": 0, "value": 6, "moves": 6, "card": 6, "tokens": 2,
              "bonus": 2, "start_lane": 1, "face": 3, "stage": False, "past": 2, "bid": 1, "cards": ((1, 5), (0, 4)),
              "bids": ((1, (5, 4), 9), (0, (4,), 4)), "winners": (1,), "played": ((1, 6),), "reason": 0}
    if cls is engine_events.Move:
        values["tokens"] = ()  # a card's move (a BMX move has tokens, a card none)
    # by its fields (a compiled class's __init__ shows no parameters to inspect)
    return cls(**{p: values[p] for p in cls.fields})


@pytest.mark.parametrize("cls", [c for _, c in inspect.getmembers(engine_events, inspect.isclass)
                                 if issubclass(c, engine_events.Event) and c not in (engine_events.Event,
                                                                                      engine_events.Reveal)])
def test_every_engine_event_has_its_words(cls):
    event = _sample(cls)
    line = narrator.event_line(event, lambda i: f"<rider {i}>", lambda sq: f"<square {sq}>")
    assert line != event.kind and line.strip()
    if "rider" in cls.fields or "cards" in cls.fields:
        assert "<rider 1>" in line


def _templates() -> list[str]:
    """Every text the narrator marks for translation: `_("...")`."""
    tree = ast.parse((PACKAGE / "play" / "narrator.py").read_text())
    return [node.args[0].value for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "_"
            and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)]


def test_every_sentence_names_its_placeholders():
    templates = _templates()
    assert len(templates) > 80
    for text in templates:
        for _literal, field, _spec, _conv in string.Formatter().parse(text):
            # a translation may put the parts in another order: each part has a name
            assert field is None or (field and not field.isdigit()), text


def test_the_log_is_kept_as_notes_and_told_when_shown():
    spec = RaceSpec(variant="classic", stage="avenue-corso-paseo")
    session = Session.new(spec, 5, bots={seat: "easy" for seat in range(4)})
    flow = RaceFlow(session)
    for _ in range(3):
        assert flow.play_bots().kind == "reveal"
        flow.finish_replay()
    assert flow.notes and not any(isinstance(note, str) for note in flow.notes)
    assert flow.log == [narrator.note_line(note, flow.game) for note in flow.notes]
    assert "── Round 3 ──" in flow.log and any(" plays " in line for line in flow.log)
    # a resumed race tells the same rounds from its action log
    past, now = history(session)
    assert now == []  # between rounds: nothing of a round in progress
    told = [narrator.note_line(note, flow.game) for note in past]
    assert [line for line in told if line.startswith("── Round")] == ["── Round 1 ──", "── Round 2 ──", "── Round 3 ──"]
    assert [line for line in told if " plays " in line] == [line for line in flow.log if " plays " in line]


def test_the_round_in_progress_is_rebuilt_as_the_table_heard_it():
    """A human's draw is said as it was made; a bot's choices once, with the
    rider it drew first, when it has chosen its cards; never a card."""
    spec = RaceSpec(variant="classic", stage="avenue-corso-paseo")
    session = Session.new(spec, 5, bots={1: "easy"})
    flow = RaceFlow(session)
    flow.act(flow.session.game.legal_actions(0)[0])  # the human draws: said at once
    live = [note for note in flow.notes if isinstance(note, narrator.DrawsFirst)]
    assert len(live) == 1
    assert history(session)[1] == live
    while session.due() == 0:
        flow.act(session.game.legal_actions(0)[0])
    flow.pass_review()
    flow.play_bots()  # the bot draws and chooses: one note
    now = history(session)[1]
    assert now == live + [note for note in flow.notes if isinstance(note, narrator.BotChose)]
    assert isinstance(now[1], narrator.BotChose) and now[1].seat == 1 and now[1].first is not None


def test_the_race_screen_s_words_are_the_narrator_s():
    """The reveal's steps, "since your last look" and the review are told
    here, from the table's data (play.table), with the screen's rider labels."""
    from flamme_tui.play import table as t

    table = t.Table(Session.new(RaceSpec(variant="classic"), 4, bots={1: "easy"}))
    turn = table.turn()
    for _ in range(200):
        if isinstance(turn, t.Revealing):
            break
        if isinstance(turn, t.BotThinking):
            table.play_bots()
        elif isinstance(turn, t.Reviewing):
            table.choose(t.PassReview())
        else:
            table.choose(turn.options[0])
        turn = table.turn()
    assert isinstance(turn, t.Revealing)
    board = turn.view.board
    short = lambda i: board.riders[i].id  # noqa: E731 (the screen passes its labels)
    assert narrator.frame_forms(turn.frames[0], None, short, board) == ["face up: the rider in front moves first",
                                                                         "face up"]
    for step, frame in enumerate(turn.frames):
        before = turn.frames[step - 1].pos if step else None
        forms = narrator.frame_forms(frame, before, short, board)
        words = forms[0]
        assert words and narrator.frame_title(frame.kind, False)
        if frame.kind == "exhaust":
            assert words.endswith(": exhaustion card (nobody just ahead)")
            assert all(board.riders[i].id in words for i in frame.active)
    table.choose(t.EndReveal())
    seen = t.RoundSeen(turn.round, turn.revealed, turn.frames[0].pos, turn.frames[-1].pos, tuple(table.game.events))
    line = narrator.round_in_short(seen, board.course, short, False)
    assert line.startswith(f"round {turn.round}: ")
    for i, card in turn.revealed:
        assert f"{board.riders[i].id} {card}" in line
    lines = narrator.since_lines((seen, t.CardChanged(1)), board, short)
    assert lines == (line, f"{board.setup.teams[1].name} took their last card back")
    assert narrator.die_words(0) == "die: blank — no catch-up this turn"


def test_a_slipstream_step_numbers_squares_as_the_track_does():
    """The reveal's slipstream step wrote the engine's square indexes (the grid counted:
    "6→7" where the track, the log and the cards say 3→4)."""
    from types import SimpleNamespace

    board = Session.new(RaceSpec(variant="classic", stage="la-classicissima"), 1).game.view(0).board
    grid = board.course.grid  # square `grid` is the track's 1
    n = len(board.riders)
    before = [(grid + 2, 0)] * n
    for kind, words in (("slip", "move up to the group ahead"), ("catchup", "close the gap")):
        frame = SimpleNamespace(kind=kind, active=[0, 1], pos=[(grid + 3, 0)] * n)
        forms = narrator.frame_forms(frame, before, lambda i: f"R{i}", board)
        assert forms[0] == f"{words}: R0 R1 3→4", forms


def test_the_race_log_and_since_your_last_look_draw_a_move_with_one_arrow():
    """The log wrote "4 -> 10" and "since your last look" "4→10" for the same
    move: both draw →, as the cards' aids (9 →12) and the help (from→to) do."""
    from flamme_tui.play import table as t

    spec = RaceSpec(variant="classic", stage="avenue-corso-paseo")
    session = Session.new(spec, 5, bots={seat: "easy" for seat in range(4)})
    flow = RaceFlow(session)
    assert flow.play_bots().kind == "reveal"
    flow.finish_replay()
    moves = [line for line in flow.log if " plays " in line or "slipstream: " in line]
    assert moves and all(" → " in line and "->" not in line for line in moves)
    game = session.game
    played = [e for e in game.events if isinstance(e, engine_events.Move)]
    start = [tuple(p) for p in game.pos]
    for e in played:
        start[e.rider] = (e.start, 0)
    seen = t.RoundSeen(1, tuple((e.rider, e.card) for e in played), tuple(start), tuple(map(tuple, game.pos)),
                       tuple(game.events))
    short = narrator.round_in_short(seen, game.setup.course, str, False)
    assert "→" in short and "->" not in short


def test_a_ranking_calls_the_middle_lane_of_a_three_lane_square_the_middle_lane():
    """Issue 24 item 13: lane 1 of a three-lane square is the middle lane in the rankings (it said 'left lane')."""
    from flamme_tui.engine.course import Course
    from flamme_tui.engine.race import Placed
    from flamme_tui.engine.rules import find
    from flamme_tui.play.narrator import ranking_line

    course = Course.build("wide", "." * 40, 30, 0, lanes=(3,) * 40)
    riders = [Placed("red.S", 5, 0), Placed("red.R", 5, 1), Placed("blue.S", 5, 2)]
    game = find("classic").game.from_position(course, riders)
    lines = [ranking_line(game, k + 1, i) for k, i in enumerate(game.ranking())]
    assert [line.rsplit("(", 1)[1] for line in lines] == ["right lane)", "middle lane)", "left lane)"]


def test_a_bots_reason_says_which_rider_played():
    """Issue 24 item 13: a bot's line in the log said its reason, not which of its riders played."""
    from flamme_tui.play.narrator import Reason, note_line
    from flamme_tui.play.races import Team

    teams = tuple(Team(c.capitalize(), c) for c in ("red", "blue"))
    flow = RaceFlow(Session.new(RaceSpec(variant="classic", teams=teams), 4, bots={0: "hard", 1: "hard"}))
    for _ in range(3):
        flow.play_bots()
        if flow.current().kind == "reveal":
            flow.finish_replay()
    reasons = [n for n in flow.notes if isinstance(n, Reason)]
    assert reasons
    game = flow.game
    for note in reasons:
        kind = narrator.kind_name(game.riders[note.rider].kind)
        assert note_line(note, game).startswith(f"{teams[note.seat].name} (bot, hard), {kind}: "), note_line(note, game)


def test_a_meteo_race_log_starts_with_what_the_weather_marks_mean():
    """A player racing bots alone never sees the curtain, whose legend said what the
    track's », «, ≡ and ~ mean: the log says it under its first line, the kinds on the course only."""
    session = Session.new(RaceSpec(variant="meteo", stage="ronde-van-wevelgem"), 5, bots={1: "easy"})
    kinds = narrator.weather_kinds(session.game.course)
    assert kinds and set(kinds) <= {"tailwind", "headwind", "crosswind", "wet"}
    log = RaceFlow(session).log
    key = log[1]
    for kind in kinds:
        assert f"{narrator.WEATHER_GLYPHS[kind]} {narrator.weather_name(kind)}: " in key, key
    effects = {"tailwind": "draw 5 cards", "headwind": "draw 3 cards", "crosswind": "no slipstream",
               "wet": "crash if blocked"}
    assert key.count(" · ") == len(kinds) - 1 and all(effects[k] in key for k in kinds), key
    classic = RaceFlow(Session.new(RaceSpec(variant="classic"), 5, bots={1: "easy"})).log
    assert not any("»" in line or "draw 5 cards" in line for line in classic)
