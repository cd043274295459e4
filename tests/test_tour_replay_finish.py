"""A tour's replay says where each rider finished (round, squares past the
line, stage time); it called every rider across the line "not placed" or
"grid 6, left lane"."""

from __future__ import annotations

import re

from flamme_tui import saves
from flamme_tui.engine.race import Team
from flamme_tui.engine.tour import gap_text
from flamme_tui.play import tours
from flamme_tui.saves import load_replay


def test_a_tour_replay_shows_each_finish(tmp_path):
    teams = (Team("Red", "red"), Team("Blue", "blue"))
    tour = tours.Tour.new(tours.stages_option("avenue-corso-paseo"), teams, 2)
    session = tours.stage_session(tour, {0: "easy", 1: "medium"})
    while not session.over:
        session.play_bots()
    path = saves.save(session, tmp_path / "tour.json")
    replay = load_replay(path)
    game = tours.standing(session).done[0].game
    result = {line.rider: line for line in tours.standing(session).done[0].result}
    last = [f for f in replay.frames if f.title.endswith("finish")][-1]
    lines = " ".join(last.ranking) + " " + last.positions
    assert "not placed" not in lines and "grid" not in lines
    for i, (rnd, square, _lane) in game.crossed.items():
        line = result[game.riders[i].id]  # its gap on the road, the bonus beside
        words = f"finished in round {rnd}, {square - game.course.finish + 1} past the line, " \
                f"{gap_text(line.road)}{f' -{line.bonus}s' if line.bonus else ''}"
        assert words in lines, (words, lines)
    # mid-stage: riders across the line already are finished, the others on the track
    middle = [f for f in replay.frames if "finished in round" in f.positions and not f.title.endswith("finish")]
    assert middle and all(re.search(r"square \\d+|finished", f.positions) for f in middle)
