"""Tours as data (stages/tours, user tours, `tours check`, `tours list`), the
tour driver (carry-over, grid order, determinism) and `flamme-tui tour`."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from flamme_tui.bots import POLICIES
from flamme_tui.cli import main
from flamme_tui.config import data_dir
from flamme_tui.engine import tour as rules
from flamme_tui.engine.cards import EXHAUSTION
from flamme_tui.play import tours
from flamme_tui.play.races import COLOURS, Team, play_out

TEAMS = tuple(Team(c.capitalize(), c) for c in COLOURS[:4])


@pytest.fixture
def user_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("FLAMME_TUI_DATA_DIR", str(tmp_path))
    return tmp_path


def test_shipped_tours_are_valid_and_have_3_5_7_stages(capsys):
    assert main(["tours", "check", str(data_dir() / "tours")]) == 0
    lengths = sorted(len(tours.load_tour(e.id).stages) for e in tours.tour_entries())
    assert lengths == [3, 5, 7, 7, 21]


def test_bad_tour_files_one_line_per_problem_naming_file_and_field(tmp_path, capsys):
    (tmp_path / "a.yaml").write_text("name: A\nstages:\n  - {stage: avenue-corso-paseo, colour: red}\n")
    (tmp_path / "b.yaml").write_text("name: B\nstages:\n  - {stage: no-such-stage}\n  - {stage: firenze-milano, variant: bmx}\n")
    (tmp_path / "c.yaml").write_text("name: C\nstages: []\nextra: 1\n")
    (tmp_path / "d.yaml").write_text("name: D\nstages:\n  - {stage: ../../etc/passwd}\n")
    assert main(["tours", "check", str(tmp_path)]) == 2
    out = capsys.readouterr().out.splitlines()
    assert any("a.yaml" in line and "stages[0].colour" in line and "unknown key" in line for line in out)
    assert any("b.yaml" in line and "stages[1].variant" in line for line in out)
    assert any("c.yaml" in line and "extra" in line for line in out)
    assert any("c.yaml" in line and "stages" in line and "at least 1" in line for line in out)
    assert any("d.yaml" in line and "stages[0].stage" in line and "not a path" in line for line in out)
    assert out[-1] == "4 of 4 tour files with problems"
    assert "Traceback" not in "\n".join(out)


def test_a_tour_whose_every_stage_is_wrong_says_so_once_per_stage(tmp_path, capsys):
    # pydantic also counts such a list as too short ("at least 1 item ... not 0"): a problem the file does not have
    (tmp_path / "e.yaml").write_text("name: E\nstages:\n  - {stage: firenze-milano, variant: bmx}\n")
    (tmp_path / "f.yaml").write_text("name: F\nstages: [3, 4]\n")
    assert main(["tours", "check", str(tmp_path)]) == 2
    out = capsys.readouterr().out.splitlines()
    assert out == [f"{tmp_path / 'e.yaml'}:3: stages[0].variant: input should be 'classic' or 'meteo' (got str 'bmx')",
                   f"{tmp_path / 'f.yaml'}:2: stages[0]: input should be a valid dictionary (got int 3)",
                   f"{tmp_path / 'f.yaml'}:2: stages[1]: input should be a valid dictionary (got int 4)",
                   "2 of 2 tour files with problems"]


def test_unknown_stage_in_a_tour_names_the_field(tmp_path, capsys):
    (tmp_path / "b.yaml").write_text("name: B\nstages:\n  - {stage: avenue-corso-paseo}\n  - {stage: no-such-stage}\n")
    assert main(["tours", "check", str(tmp_path / "b.yaml")]) == 2
    first = capsys.readouterr().out.splitlines()[0]
    assert "b.yaml" in first and "stages[1].stage" in first and "unknown stage 'no-such-stage'" in first


def test_user_tours_are_listed_and_raced(user_dir, capsys):
    (user_dir / "tours").mkdir()
    (user_dir / "tours" / "mine.yaml").write_text("name: My Tour\nstages:\n  - {stage: avenue-corso-paseo}\n")
    (user_dir / "tours" / "broken.yaml").write_text("name: [\n")
    assert main(["tours", "list"]) == 0
    out = capsys.readouterr().out
    assert "mine" in out and "My Tour" in out and "user" in out and "(broken)" in out
    assert "3-petit-tour" in out and "7-grand-tour" in out
    assert main(["tour", "--tour", "mine", "--seed", "2"]) == 0
    assert "Stage 1/1: Avenue Corso Paseo" in capsys.readouterr().out


def test_tour_names_from_files_reach_the_terminal_cleaned(user_dir, capsys):
    # a tour's name is text from a file: its escape sequences must not reach the terminal.
    # As in a stage's name, a control character is refused, in one line naming the file and field
    (user_dir / "tours").mkdir()
    evil = user_dir / "tours" / "evil.yaml"
    evil.write_text('name: "Evil \\e[31mRED\\e]0;pwned\\a"\nstages:\n  - {stage: avenue-corso-paseo}\n')
    for args in (["tours", "check", str(evil)], ["tours", "list"], ["tour", "--tour", "evil", "--seed", "1"]):
        assert main(args) == (0 if args[1] == "list" else 2)
        out = capsys.readouterr()
        assert "evil.yaml:1: name: control character U+001B is not allowed" in out.out + out.err
        assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f]", out.out + out.err), args


def play_easy(game):
    play_out(game, {seat: POLICIES["easy"] for seat in range(len(game.seats))})


def easy_tour(seed: int, stages: str = "avenue-corso-paseo,firenze-milano:meteo,la-haut-montagne") -> tours.Tour:
    return tours.race_tour(tours.Tour.new(tours.stages_option(stages), TEAMS, seed), play_easy)


def test_carry_over_and_grid_order_between_stages():
    tour = easy_tour(4)
    for before, after in zip(tour.done, tour.done[1:]):
        game = after.game
        for i, r in enumerate(before.game.riders):
            cards = r.deck + list(r.hand) + list(r.recycled)
            assert game.setup.carried[i] == -(-cards.count(EXHAUSTION) // 2)
        k = tour.done.index(after)
        results = tour.results()[:k]
        expected = rules.grid_order(rules.tour_points(results, final=False), rules.general(results))
        assert list(game.setup.grid_order) == expected
    assert tour.done[0].game.setup.carried == () and tour.done[0].game.setup.grid_order == ()


def test_stage_times_gc_and_tp_follow_the_rules():
    tour = easy_tour(6)
    for done in tour.done:
        game = done.game
        times = [line.time for line in done.result]
        assert times[0] == 0 and min(times) >= 0
        assert [line.rider for line in done.result] == [game.riders[i].id for i in game.ranking()]
        # raw times from rounds and squares, the bonus for 1st and 2nd
        first = min(c[0] for c in game.crossed.values())
        for line in done.result:
            rnd, square, _ = game.crossed[game.index[line.rider]]
            cap = 4 if game.course.terrain[game.course.finish - 1] == "^" else 5  # U or u
            assert line.raw <= 60 * (rnd - first) - 10 * min(square - game.course.finish + 1, cap)
        assert [line.bonus for line in done.result][:3] == [10, 10, 0]
    gc = tour.gc()
    totals = {}
    for result in tour.results():
        for line in result:
            totals[line.rider] = totals.get(line.rider, 0) + line.time
    assert [g.time for g in gc] == sorted(totals.values())
    assert sum(tour.points().values()) == 6 * len(tour.done) + 6


def test_a_tour_is_its_setup_seed_and_action_logs():
    a, b = easy_tour(9), easy_tour(9)
    assert [d.result for d in a.done] == [d.result for d in b.done]
    again = tours.Tour(a.name, a.legs, 9)
    again.replay([list(d.game.actions) for d in a.done])
    assert [d.result for d in again.done] == [d.result for d in a.done]
    assert [d.game.state_key() for d in again.done] == [d.game.state_key() for d in a.done]
    assert [d.result for d in easy_tour(10).done] != [d.result for d in a.done]


def seconds(text: str) -> int:
    """"+1:20" -> 80, "0:00" -> 0."""
    minutes, secs = text.lstrip("+").split(":")
    return int(minutes) * 60 + int(secs)


def printed_tour(out: str) -> list[dict]:
    """The numbers `flamme-tui tour` prints after each stage: the stage's
    placings and times (gaps on the road) with the bonuses, the GC's order
    and gaps, the TP of each team."""
    stages = []
    for block in out.split("\nStage ")[1:]:
        times, gc = block.split("GC after stage")
        gc, tp = gc.split("TP after stage")
        row = re.compile(r"^\s+(\d+)\. (.+?)\s+(\+?\d+:\d\d)(?: -(\d+)s)?$", re.M)
        stages.append({
            "times": [(int(p), name, seconds(t)) for p, name, t, _ in row.findall(times)],
            "bonus": {name: int(b or 0) for _, name, _, b in row.findall(times)},
            "gc": [(int(p), name, seconds(t)) for p, name, t, _ in row.findall(gc)],
            "tp": {team: int(n) for team, n in re.findall(r"(\w+) (\d+)", tp.split(":", 1)[1].splitlines()[0])},
        })
    return stages


def test_tour_command_prints_the_same_tour_twice_by_the_rules(capsys):
    """The acceptance command: the same whole tour twice, and its numbers
    follow GRAND-TOUR.md (read back from what it prints, not its words)."""
    args = ["tour", "--seed", "3", "--bots", "hard,medium,medium,easy"]
    assert main(args) == 0
    first = capsys.readouterr().out
    assert main(args) == 0
    assert capsys.readouterr().out == first
    assert first.count("GC after stage") == 3 and "Tour winner:" in first
    stages = printed_tour(first)
    assert len(stages) == 3
    totals: dict[str, int] = {}
    points: dict[str, int] = {}
    for k, stage in enumerate(stages):
        times = stage["times"]
        assert [p for p, _, _ in times] == list(range(1, 9))
        # the winner has 0:00, every other time is a gap, in placing order; the first two take a bonus
        assert times[0][2] == 0 and all(a[2] <= b[2] for a, b in zip(times, times[1:]))
        assert [stage["bonus"][name] for _, name, _ in times] == [10, 10] + [0] * 6
        for _, name, t in times:
            totals[name] = totals.get(name, 0) + t - stage["bonus"][name]
        # the GC: the sums of the stage times less the bonuses, lowest first, as gaps to the leader
        lead = min(totals.values())
        assert sorted(t for _, _, t in stage["gc"]) == sorted(t - lead for t in totals.values())
        latest = {name: place for place, name, _ in times}  # a tie: the better placing in this stage
        assert [name for _, name, _ in stage["gc"]] == sorted(totals, key=lambda n: (totals[n], latest[n]))
        # Tour Points: 3/2/1 to the teams of the stage's first three, and of the final GC's top three
        for (_, name, _), tp in zip(times, (3, 2, 1)):
            points[name.split()[0]] = points.get(name.split()[0], 0) + tp
        if k == len(stages) - 1:
            for (_, name, _), tp in zip(stage["gc"], (3, 2, 1)):
                points[name.split()[0]] = points.get(name.split()[0], 0) + tp
        assert {team: n for team, n in stage["tp"].items() if n} == points
    winner = re.search(r"Tour winner: (\w+) \((\d+) TP\)", first)
    assert int(winner[2]) == max(points.values()) and points[winner[1]] == int(winner[2])


def test_tour_command_numbers_are_the_drivers(capsys):
    stages = "avenue-corso-paseo,le-col-du-ballon"
    assert main(["tour", "--stages", stages, "--seed", "5"]) == 0
    out = capsys.readouterr().out
    tour = easy_tour(5, stages)
    blocks = out.split("GC after stage")
    for k, done in enumerate(tour.done):
        stage_block = blocks[k].split(f"Stage {k + 1}/2")[1]
        # each rider's gap on the road, the bonus beside: "0:00 -10s"
        printed = re.findall(r"^\s+\d+\. .*?\s+([-+]?\d+:\d\d(?: -\d+s)?)$", stage_block, re.M)
        assert printed == [rules.gap_text(line.road) + (f" -{line.bonus}s" if line.bonus else "") for line in done.result]
        assert printed[0] == "0:00 -10s" and printed[1].endswith(" -10s") and "s" not in printed[2]
    assert "+" in out


@pytest.mark.parametrize("args", [
    ["tour", "--seed", "-1"],
    ["tour", "--seed", "x"],
    ["tour", "--bots", "easy,nobody"],
    ["tour", "--bots", "easy"] * 1 + ["--stages", "avenue-corso-paseo:bmx"],
    ["tour", "--stages", "no-such-stage"],
    ["tour", "--tour", "no-such-tour"],
    ["tour", "--tour", "3-petit-tour", "--stages", "avenue-corso-paseo"],
    ["tour", "--stages", "firenze-milano:meteo", "--bots", "easy,peloton,peloton"],
])
def test_tour_command_refuses_bad_options_in_one_line(args, capsys):
    with pytest.raises(SystemExit) if "-1" in args or "x" in args else _no_raise():
        code = main(args)
        assert code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) >= 1 and "Traceback" not in "\n".join(err)


class _no_raise:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


STAGE_IDS = ("avenue-corso-paseo", "firenze-milano", "la-haut-montagne", "le-col-du-ballon")


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(STAGE_IDS), st.sampled_from(("classic", "meteo"))), min_size=2, max_size=3),
       st.integers(0, 2**32))
def test_random_tours(legs, seed):
    stages = ",".join(f"{sid}:{variant}" for sid, variant in legs)
    tour = easy_tour(seed, stages)
    # same seed, same tour
    assert [d.result for d in easy_tour(seed, stages).done] == [d.result for d in tour.done]
    for k, done in enumerate(tour.done):
        assert done.result[0].time == 0 and all(line.time >= 0 for line in done.result)
        if k:
            # the exhaustion carried never exceeds half (rounded up) of what each rider held
            before = tour.done[k - 1].game
            held = [(r.deck + list(r.hand) + list(r.recycled)).count(EXHAUSTION) for r in before.riders]
            carried = done.game.setup.carried
            assert all(c == (h + 1) // 2 for c, h in zip(carried, held))
            assert sum(carried) <= sum(held) // 2 + len(held)
    assert tour.gc()[0].gap == 0


def test_scripted_teams_carry_no_exhaustion_and_start_with_whole_decks():
    spec = tours.stages_option("avenue-corso-paseo,firenze-milano")
    tour = tours.Tour.new(spec, TEAMS, 3, ("", "muscle", "", "peloton"))
    tours.race_tour(tour, lambda game: play_out(game, {0: POLICIES["easy"], 2: POLICIES["easy"]}))
    second = tour.done[1].game
    assert [second.setup.carried[i] for i in (2, 3, 6, 7)] == [0, 0, 0, 0]
    assert any(second.setup.carried[i] for i in (0, 1, 4, 5)) or not any(
        (r.deck + list(r.hand) + list(r.recycled)).count(EXHAUSTION) for r in tour.done[0].game.riders)
    fresh = tours.Tour.new(spec, TEAMS, 3, ("", "muscle", "", "peloton"))
    fresh.done = tour.done[:1]
    game = fresh.new_stage()
    for i in (2, 3, 6, 7):
        r = game.riders[i]
        assert (r.deck + list(r.hand) + list(r.recycled) + ([r.played] if r.played is not None else [])).count(EXHAUSTION) == 0


def test_tournament_compares_bots_over_tours(capsys):
    from flamme_tui.play.tournament import run_tour, tournament

    bots = ["easy", "medium"]
    result = tournament(bots, 4, workers=1, tour="3-petit-tour", out=lambda *a: None)
    assert sum(row["wins"] for row in result["table"]) == 4
    for k in range(4):
        places, _, points = run_tour(("3-petit-tour", bots, k))
        # the same tour raced by the driver: bots rotate round the seats, the winner has the most TP
        seats = [bots[(seat + k) % 2] for seat in range(2)]
        policies = {seat: POLICIES[name] for seat, name in enumerate(seats)}
        tour = tours.race_tour(tours.Tour.new(tours.load_tour("3-petit-tour"), TEAMS[:2], k),
                               lambda game, policies=policies: play_out(game, policies))
        ranked = {seats[line.team]: line for line in tour.ranking()}
        assert places == [ranked[name].place for name in bots]
        assert points == [ranked[name].value for name in bots]
    assert main(["tournament", "--tour", "3-petit-tour", "easy", "medium", "-n", "2", "-j", "1"]) == 0
    assert "2 tours of 3-petit-tour" in capsys.readouterr().out


@pytest.mark.parametrize("args", [
    ["--tour", "3-petit-tour", "--stage", "avenue-corso-paseo"],
    ["--tour", "3-petit-tour", "--variant", "classic"],
    ["--tour", "no-such-tour"],
    ["--tour", "3-petit-tour", "--bots-are", "x"],
])
def test_tournament_over_tours_refuses_bad_options(args, capsys):
    try:
        code = main(["tournament", *args, "easy", "peloton"])
    except SystemExit as exc:
        code = exc.code
    assert code == 2
    assert "Traceback" not in capsys.readouterr().err


def test_the_tour_command_gives_the_experts_budget_to_every_stage(monkeypatch, capsys):
    """`tour --rollouts N`: the expert thinks with N rollouts on every stage
    (the budget goes on from one stage's session to the next)."""
    from flamme_tui.play.session import Session

    budgets = []
    play_bots = Session.play_bots

    def seen(session, *args, **kwargs):
        budgets.append((len(session.tour.done), str(session.budget)))
        return play_bots(session, *args, **kwargs)

    monkeypatch.setattr(Session, "play_bots", seen)
    assert main(["tour", "--stages", "avenue-corso-paseo,avenue-corso-paseo", "--bots", "expert,easy",
                 "--rollouts", "3"]) == 0
    assert {stage for stage, _ in budgets} == {0, 1}
    assert {budget for _, budget in budgets} == {"3 rollouts"}
    assert "Tour winner" in capsys.readouterr().out


def test_a_tour_refuses_two_teams_of_one_colour_in_one_line():
    """Before any stage is built: the stage card's version counts the colours racing."""
    teams = (Team("Ann", "blue"), Team("Bob", "blue"), Team("Cy", "red"))
    with pytest.raises(ValueError, match=r"^two seats race the same rider \(blue\.S\): each seat needs a colour of its own$"):
        tours.Tour.new(tours.stages_option("avenue-corso-paseo,firenze-milano:meteo"), teams, 3)
