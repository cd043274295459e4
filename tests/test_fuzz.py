"""Fuzzing the loaders: damaged save files (races and a tour) and stage files never crash them.

Save files: random byte flips, truncations, inserted and deleted bytes must
give a SaveError with a one-line message, or load to exactly the original
race (a flip that JSON does not notice, such as in whitespace, changes
nothing).  With the file checksum recomputed (a consistent file with wrong
content), the loader still answers only with SaveError or a race that
replays to its recorded state.  Stage files: same mutations, ConfigError
only.
"""

from __future__ import annotations

import functools
import json
import os
import tempfile
from pathlib import Path

import fuzzing
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from flamme_tui import config, saves
from flamme_tui.cli import stages as stages_cli
from flamme_tui.config import ConfigError
from flamme_tui.play.races import COLOURS, RaceSpec, Team
from flamme_tui.play.session import Session
from flamme_tui.saves import SaveError

pytestmark = pytest.mark.fuzz
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

CASES = [  # (variant, seed, teams, actions played: None = whole race); "tour": a tour's save (format 2)
    ("classic", 21, 4, 40),
    ("meteo", 22, 3, None),
    ("bmx", 23, 4, 9),
    ("tour", 24, 3, 12),  # its first stage finished, 12 actions into the second
]


def tour_session(seed: int, teams: int, steps: int) -> Session:
    from flamme_tui.play import tours

    team_list = tuple(Team(c.capitalize(), c) for c in COLOURS[:teams])
    spec = tours.stages_option("avenue-corso-paseo,firenze-milano:meteo")
    session = tours.stage_session(tours.Tour.new(spec, team_list, seed), {s: "easy" for s in range(teams)})
    while not session.over:
        session.play_bots()
    session = tours.next_session(session)
    done = 0
    while done < steps:
        done += len(session.play_bots())
    return session


@functools.cache
def original(case: int) -> tuple[bytes, str, tuple[str, ...]]:
    """A save file's bytes, with the state digest and log it must load to
    (setup, seed and bots: see `meta`)."""
    variant, seed, teams, steps = CASES[case]
    if variant == "tour":
        session = tour_session(seed, teams, steps)
    else:
        team_list = tuple(Team(c.capitalize(), c) for c in COLOURS[:teams])
        session = Session.new(RaceSpec(variant=variant, teams=team_list), seed, {s: "easy" for s in range(teams)})
        done = 0
        while not session.over and (steps is None or done < steps):
            done += len(session.play_bots())
    with tempfile.TemporaryDirectory() as folder:
        path = saves.save(session, Path(folder) / "race.json")
        META[case] = (saves.setup_data(session.setup), session.seed, session.bots)
        return path.read_bytes(), saves.state_digest(session.game), tuple(session.actions_text())


META: dict[int, tuple] = {}


def try_load(data: bytes, case: int) -> None:
    fuzzing.count("damaged saves")
    _, digest, log = original(case)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "race.json"
        path.write_bytes(data)
        try:
            session = saves.load(path)
        except SaveError as exc:
            text = str(exc)
            assert text and "\n" not in text and "race.json" in text
            return
        # loaded: it must be the very same race, never silently another one
        assert saves.state_digest(session.game) == digest
        assert tuple(session.actions_text()) == log
        assert (saves.setup_data(session.setup), session.seed, session.bots) == META[case]
        try:
            info = saves.peek(path)
        except SaveError:
            raise AssertionError("load accepted a file peek refuses") from None
        assert info.actions == len(log)


mutations = st.lists(
    st.one_of(
        st.tuples(st.just("flip"), st.floats(0, 1, exclude_max=True), st.integers(1, 255)),
        st.tuples(st.just("set"), st.floats(0, 1, exclude_max=True), st.integers(0, 255)),
        st.tuples(st.just("cut"), st.floats(0, 1), st.just(0)),
        st.tuples(st.just("insert"), st.floats(0, 1), st.integers(0, 255)),
        st.tuples(st.just("delete"), st.floats(0, 1, exclude_max=True), st.just(0)),
    ),
    min_size=1,
    max_size=4,
)


def mutate(data: bytes, ops) -> bytes:
    buf = bytearray(data)
    for op, where, value in ops:
        if not buf:
            break
        i = min(int(where * len(buf)), len(buf) - 1)
        if op == "flip":
            buf[i] ^= value
        elif op == "set":
            buf[i] = value
        elif op == "cut":
            del buf[int(where * len(buf)):]
        elif op == "insert":
            buf.insert(i, value)
        else:
            del buf[i]
    return bytes(buf)


@pytest.mark.slow  # the long run: only with --slow (the README's test command, first) or -m slow
@FUZZ
@given(case=st.integers(0, len(CASES) - 1), ops=mutations)
def test_damaged_save_never_crashes_nor_lies(case, ops):
    data, _, _ = original(case)
    try_load(mutate(data, ops), case)


@pytest.mark.slow  # the long run: only with --slow (the README's test command, first) or -m slow
@FUZZ
@given(case=st.integers(0, len(CASES) - 1), where=st.floats(0, 1, exclude_max=True), bit=st.integers(0, 7))
def test_every_single_bit_flip(case, where, bit):
    data, _, _ = original(case)
    buf = bytearray(data)
    buf[int(where * len(buf))] ^= 1 << bit
    try_load(bytes(buf), case)


@settings(max_examples=60, deadline=None)
@given(case=st.integers(0, len(CASES) - 1), cut=st.integers(0, 10**6))
def test_truncated_save(case, cut):
    data, _, _ = original(case)
    cut %= len(data)
    try_load(data[:cut], case)


# --- consistent files with wrong content: checksum recomputed ----------------

json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-3, 200), st.text(max_size=6)),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=6,
)


def paths_of(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from paths_of(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from paths_of(v, prefix + (i,))


@pytest.mark.slow  # the long run: only with --slow (the README's test command, first) or -m slow
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=st.integers(0, len(CASES) - 1), pick=st.integers(0, 10**6), value=json_values, drop=st.booleans())
def test_consistent_but_wrong_content_is_refused_cleanly(case, pick, value, drop):
    data, digest, log = original(case)
    doc = json.loads(data)
    body_paths = [p for p in paths_of(doc) if p and p[0] != "checksum"]
    where = body_paths[pick % len(body_paths)]
    parent = doc
    for key in where[:-1]:
        parent = parent[key]
    if drop and isinstance(parent, dict):
        del parent[where[-1]]
    else:
        parent[where[-1]] = value
    doc["checksum"] = saves._checksum(doc)
    fuzzing.count("damaged saves")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "race.json"
        path.write_text(json.dumps(doc))
        try:
            session = saves.load(path)
        except SaveError as exc:
            assert "\n" not in str(exc)
            return
        # accepted: the replay reached every recorded state, so the game is the recorded one
        if where[0] in ("actions", "seed", "rounds", "state"):
            assert saves.state_digest(session.game) == digest
            assert tuple(session.actions_text()) == log


# --- stage files ---------------------------------------------------------------


@functools.cache
def stage_bytes() -> tuple[bytes, ...]:
    courses = config.data_dir() / "courses"
    return tuple((courses / f"{sid}.yaml").read_bytes() for sid in ("firenze-milano", "le-col-du-ballon")) + (
        b"# mine\nname: My Stage\ntiles: AbcDefghijklmnopqrstU\ndescription: hills\n",
    )


def try_stage(data: bytes) -> None:
    fuzzing.count("damaged stages")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "stages" / "stage.yaml"
        path.parent.mkdir()
        path.write_bytes(data)
        good = False
        try:
            stage = config.load_stage(path)
        except ConfigError as exc:
            text = str(exc)
            assert "\n" not in text and "stage.yaml" in text
        else:
            good = True
            course = config.compile_stage(stage)
            assert course.grid < course.finish <= course.length
            config.stage_summary(stage)
        _, problems = config.check_stage_file(path)
        assert all(isinstance(p, ConfigError) and "\n" not in str(p) for p in problems)
        # as a user stage: listing and checking never crash either
        old = os.environ.get("FLAMME_TUI_DATA_DIR")
        os.environ["FLAMME_TUI_DATA_DIR"] = folder
        try:
            # a broken stage is left out of the stage list, with a notice naming it
            assert ("stage" in config.stage_ids()) == good
            assert any("stage.yaml" in note for note in config.stage_notices()) != good
            lines: list[str] = []
            assert stages_cli.listing(out=lines.append) == 0
            assert stages_cli.check([str(path.parent)], out=lines.append) in (0, 2)
            assert all("\n" not in line for line in lines)
        finally:
            if old is None:
                del os.environ["FLAMME_TUI_DATA_DIR"]
            else:
                os.environ["FLAMME_TUI_DATA_DIR"] = old


@FUZZ
@given(which=st.integers(0, 2), ops=mutations)
def test_damaged_stage_file_gives_config_error_only(which, ops):
    try_stage(mutate(stage_bytes()[which], ops))


@settings(max_examples=150, deadline=None)
@given(text=st.text(alphabet="abcdefghijklmnopqrstuABCDEFGHIJKLMNOPQRSTUxyz:-#'\"[]{}!&*| \n\t", max_size=80))
def test_random_stage_text(text):
    try_stage(text.encode())


@settings(max_examples=100, deadline=None)
@given(tiles=st.text(alphabet="abcdefghijklmnopqrstuABCDEFGHIJKLMNOPQRSTUvwxyz?", max_size=24))
def test_random_tile_strings(tiles):
    try_stage(f"name: Random\ntiles: {json.dumps(tiles)}\n".encode())
