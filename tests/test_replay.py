"""Replay: a saved race round by round, as text and in its small app."""

from __future__ import annotations

import os

os.environ.setdefault("TEXTUAL_ANIMATIONS", "none")

import pytest  # noqa: E402

from flamme_tui import saves  # noqa: E402
from flamme_tui.bots import easy  # noqa: E402
from flamme_tui.cli import main  # noqa: E402
from flamme_tui.engine.turns import turns  # noqa: E402
from flamme_tui.play.races import RaceSpec  # noqa: E402
from flamme_tui.play.replay import frames  # noqa: E402
from flamme_tui.play.session import Session  # noqa: E402
from flamme_tui.saves import load_replay  # noqa: E402


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("FLAMME_TUI_DATA_DIR", str(tmp_path / "data"))


def race(variant: str, seed: int, actions: int | None = None) -> Session:
    session = Session.new(RaceSpec(variant=variant), seed, {s: "easy" for s in range(4)})
    done = 0
    while not session.over:
        for seat in turns(session.game):
            if actions is not None and done >= actions:
                return session
            session.apply(easy(session.game.view(seat)))
            done += 1
    return session


@pytest.mark.parametrize("variant", ["classic", "meteo", "bmx"])
def test_finished_race_text(tmp_path, variant, capsys):
    session = race(variant, 31)
    path = saves.save(session, tmp_path / "r.json")
    assert main(["replay", "--text", str(path)]) == 0
    out = capsys.readouterr().out
    rounds = session.game.round
    assert f"== Round {rounds}: finish" in out
    assert "== Start (1/" in out
    assert "seed 31" in out  # a finished race may show its seed
    assert "wins the race!" in out
    if variant == "meteo":
        assert "weather:" in out


def test_frames_one_per_round():
    session = race("classic", 5)
    got = frames(session.setup, session.seed, session.game.actions)
    assert [f.title for f in got] == ["Start"] + [f"Round {r}" for r in range(1, session.game.round)] + [
        f"Round {session.game.round}: finish"]
    assert all(f.ranking for f in got)


@pytest.mark.parametrize("variant, actions", [("classic", 12 * 3 + 4), ("meteo", 12 * 2 + 7), ("bmx", 4 * 3 + 2)])
def test_mid_round_save_reveals_nothing_of_the_round(tmp_path, variant, actions):
    """A race saved in the middle of a round (hands drawn, cards chosen) shows
    exactly what the save at the start of that round shows, plus a line
    saying how many cards were chosen: no hand, no chosen card, no seed."""
    session = race(variant, 8, actions)
    game = session.game
    assert any(r.hand or r.played is not None for r in game.riders)
    mid = load_replay(saves.save(session, tmp_path / "mid.json"))
    start_of_round = actions - (actions % (12 if variant != "bmx" else 4))
    before = load_replay(saves.save(race(variant, 8, start_of_round), tmp_path / "start.json"))
    assert mid.frames[:-1] == before.frames
    last = mid.frames[-1]
    assert last.title == f"Round {game.round}: in progress"
    assert last.track == before.frames[-1].track and last.ranking == before.frames[-1].ranking
    assert all(not any(ch.isdigit() for ch in line.split("chosen this round")[1]) for line in last.log)
    assert "seed" not in mid.heading and "in progress" in mid.heading
    assert "seed" not in mid.text()


def test_grid_being_placed(tmp_path):
    session = Session.new(RaceSpec(variant="classic", grid="choose"), 3, {s: "easy" for s in range(4)})
    for _ in range(3):
        seat = session.game.to_move()[0]
        session.apply(easy(session.game.view(seat)))
    replay = load_replay(saves.save(session, tmp_path / "g.json"))
    assert [f.title for f in replay.frames] == ["Start: placing riders"]
    assert "3 riders placed" in replay.frames[0].log[0]


def test_replay_bad_file(tmp_path, capsys):
    path = tmp_path / "x.json"
    path.write_text("{not json")
    assert main(["replay", "--text", str(path)]) == 2
    err = capsys.readouterr().err
    assert "x.json is damaged" in err and "Traceback" not in err


async def test_replay_app_keys(tmp_path):
    from flamme_tui.ui.replay import ReplayApp

    session = race("bmx", 4)
    replay = load_replay(saves.save(session, tmp_path / "b.json"))
    n = len(replay.frames)
    app = ReplayApp(replay)
    async with app.run_test(size=(80, 24)) as pilot:
        assert app.index == 0
        await pilot.press("right", "right")
        assert app.index == 2
        assert "Round 2" in str(app.query_one("#title").render())
        await pilot.press("end")
        assert app.index == n - 1
        await pilot.press("right")
        assert app.index == n - 1
        await pilot.press("left")
        assert app.index == n - 2
        await pilot.press("home")
        assert app.index == 0
        await pilot.press("left")
        assert app.index == 0
        assert "Start" in app.export_screenshot()
        await pilot.press("q")
    assert app.return_code in (0, None)


@pytest.mark.parametrize("variant", ["classic", "bmx"])
async def test_replay_draws_the_track_as_the_race_does(tmp_path, variant):
    """The stage overview and strip (BMX: the lap, its jump ramp), riders as team
    letter + S/R where the round left them, names and one square numbering in
    the words: squares from the start line, lanes as left/right (inner/outer)."""
    from flamme_tui.play.narrator import label
    from flamme_tui.play.races import make_setup
    from flamme_tui.ui.palette import team_of_rider
    from flamme_tui.ui.replay import ReplayApp
    from flamme_tui.ui.textshot import screen_text
    from flamme_tui.ui.widgets.lap import LapStrip
    from flamme_tui.ui.widgets.track import StageOverview, TrackStrip

    spec = RaceSpec(variant=variant, ramp=(10, 3) if variant == "bmx" else None)
    session = Session(make_setup(spec), 4, {s: "easy" for s in range(4)})
    for _ in range(3):
        before = session.game.round
        while session.game.round == before:
            session.apply(easy(session.game.view(next(turns(session.game)))))
    replay = load_replay(saves.save(session, tmp_path / "r.json"))
    game = session.game
    app = ReplayApp(replay)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("right", "right", "right")
        frame = replay.frames[app.index]
        assert frame.title == "Round 3" and frame.pos == tuple(tuple(p) for p in game.pos)
        screen = app.screen
        track = screen.query_one("#replay-track")
        assert isinstance(track, LapStrip if variant == "bmx" else TrackStrip)
        assert bool(screen.query(StageOverview)) is (variant != "bmx")
        shown = {(m.label, m.square, m.lane) for m in track.scene.riders}
        kinds = {"S": "S", "R": "R"}
        want = {(team_of_rider(r.id).letter + kinds.get(getattr(r, "kind", ""), ">"), *p)
                for r, p in zip(game.riders, frame.pos)}
        assert shown == want
        assert len({label[0] for label, _, _ in shown}) == len({r.seat for r in game.riders})  # a letter per team
        text = screen_text(app)
        assert "Blue" in text and "blue" not in text.replace("Blue", "")  # names, not colour ids
        assert "lane 0" not in text and "lane 1" not in text
        first = game.ranking()[0]
        ranking = str(screen.query_one("#replay-ranking").render())  # under the log (it scrolls)
        assert f"square {label(game.course, game.pos[first][0])} · " in ranking and "to go" in ranking
        if variant == "bmx":
            assert "/3" in text  # the jump ramp


@pytest.mark.parametrize("lang, said", [("en", "3 cards chosen this round"), ("fr", "3 cartes choisies cette manche"),
                                        ("es", "3 cartas elegidas en esta ronda")])
def test_a_round_in_progress_counts_its_cards_not_its_draws(tmp_path, lang, said):
    """Two players: Blue draws and plays both its cards, Orange draws and plays
    its first rider's card: five actions, three cards face down (never which),
    in every language."""
    from flamme_tui import i18n
    from flamme_tui.engine.actions import Draw, Play
    from flamme_tui.play.races import Team

    teams = (Team("Blue", "blue"), Team("Orange", "orange"))
    session = Session.new(RaceSpec(variant="classic", teams=teams), 4)
    for _ in range(5):
        session.apply(easy(session.game.view(session.due())))
    kinds = [type(a) for a in session.game.actions]
    assert kinds.count(Play) == 3 and kinds.count(Draw) == 2
    try:
        i18n.set_language(lang)
        last = load_replay(saves.save(session, tmp_path / "mid.json")).frames[-1]
    finally:
        i18n.set_language("en")
    assert said in last.log[0], last.log


def test_a_round_with_only_a_draw_in_it_counts_no_card(tmp_path):
    """A save right after a draw (the table draws by itself for a lone rider): no card is
    face down yet, and the replay never says "0 cards chosen"."""
    from flamme_tui.engine.actions import Draw
    from flamme_tui.play.races import Team

    teams = (Team("Blue", "blue"), Team("Orange", "orange"))
    session = Session.new(RaceSpec(variant="classic", teams=teams), 4)
    session.apply(easy(session.game.view(session.due())))
    assert [type(a) for a in session.game.actions] == [Draw]
    frames = load_replay(saves.save(session, tmp_path / "drawn.json")).frames
    assert not any("0 cards chosen" in line for frame in frames for line in frame.log), [f.log for f in frames]
