"""Property tests over random whole races (hypothesis).

Every stage and variant, 2-4 teams, seeds drawn by hypothesis, played by the
easy policy (from views) or by a random legal-action policy (a seeded
random.Random choosing uniformly from game.legal_actions(seat)).  After every
action and every round we check the invariants below; each round is also
re-checked against the rules written out plainly here (movement order,
effective value, landing square, crashes, slipstream/catch-up gaps,
exhaustion/fatigue), so a rule bug shows up as a shrunk counterexample.
"""

from __future__ import annotations

import itertools
import os
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from flamme_tui import config
from flamme_tui.bots import easy
from flamme_tui.engine.actions import Action
from flamme_tui.engine.bmx import FATIGUE, BmxSetup
from flamme_tui.engine.classic import (
    ATTACK,
    BREAKAWAY,
    EXHAUSTION,
    GRID,
    NOWHERE,
    OVER,
    PELOTON,
    ClassicSetup,
    Team,
    starting_deck,
)
from flamme_tui.engine.course import CROSSWIND, FAIR, WET
from flamme_tui.engine.track import LANES
from flamme_tui.play.races import COLOURS, RaceSpec, make_setup, new_game, play_out

STAGES = config.stage_ids()
CIRCUITS = ["".join(c) for c in itertools.product("Aa", "Bb", "Cc", "Dd")]
MAX_ROUNDS = {"classic": 60, "meteo": 60, "bmx": 40}
# FLAMME_EXAMPLES=2000 for a long bug hunt; the default keeps the suite quick
EXAMPLES = int(os.environ.get("FLAMME_EXAMPLES", "40"))
PROPS = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def teams(n: int) -> tuple[Team, ...]:
    return tuple(Team(c.capitalize(), c) for c in COLOURS[:n])


# --------------------------------------------------------------- the rules, plainly


def ref_move(terrain: str, start: int, value: int, penalty: int) -> int:
    here = terrain[start]
    if here == "v":
        value = max(value, 5)
    elif here == "s":
        value = max(value, 4)
    value = max(0, value - penalty)
    if here == "^":
        return min(value, 5)
    for d in range(1, value + 1):
        if terrain[start + d] == "^":
            return min(value, max(5, d - 1))
    return value


def ref_settle(occ: dict, lanes, square: int) -> tuple[int, int]:
    while True:
        for lane in range(lanes[square]):
            if (square, lane) not in occ:
                return square, lane
        square -= 1


def canonical(action):
    tokens = getattr(action, "tokens", None)
    return (type(action).__name__, action.rider, tuple(sorted(tokens))) if tokens is not None else action


def order_of(positions) -> list[int]:
    return sorted(range(len(positions)), key=lambda i: (-positions[i][0], positions[i][1]))


# ---------------------------------------------------------------- invariants


def check_cells(game) -> None:
    lanes, cells = game.course.lanes, game.cells
    placed = [(i, tuple(p)) for i, p in enumerate(game.pos) if p[0] >= 0]
    assert len({p for _, p in placed}) == len(placed), "two riders in one lane"
    for i, (sq, lane) in placed:
        assert 0 <= lane < lanes[sq], f"rider {i} in lane {lane} of a {lanes[sq]}-lane square {sq}"
        assert sq < len(game.course.terrain)
        assert cells[LANES * sq + lane] == i
    assert len(cells) - cells.count(-1) == len(placed)  # (count: a generator was a tenth of a checked race)
    if game.phase != GRID:
        assert len(placed) == len(game.riders), "a rider was lost"


def check_classic_cards(game) -> None:
    for seat, riders in enumerate(game.seats):
        mine = [game.riders[i] for i in riders]
        owner, mate = mine[0], mine[-1]
        if game.script[seat] == PELOTON:
            # one deck (the same lists) for both riders, one card played for both
            assert mate.deck is owner.deck and mate.recycled is owner.recycled, "the Peloton's piles came apart"
            assert mate.history == owner.history and mate.played == owner.played and not mate.hand
            assert starting_deck(game.setup, seat, mate.kind) == ()
            extra = 2 * game.setup.handicap[seat] if seat < len(game.setup.handicap) else 0
            assert Counter(starting_deck(game.setup, seat, owner.kind)) == Counter(
                game.setup.decks["R"] + (ATTACK,) * game.setup.peloton_attacks + (EXHAUSTION,) * extra)
            accounts = [(owner, owner.exhaustion + mate.exhaustion + owner.supply_played)]
        else:
            accounts = [(r, r.exhaustion + r.supply_played) for r in mine]
        for r, exhausted in accounts:
            # a card from nowhere (a scripted rider out of cards) was in no pile; breakaway bids out of the piles
            # (one Counter updated: adding five made this check most of a checked race's time)
            have = Counter(r.deck)
            have.update(r.recycled)
            have.update(r.hand)
            have.update(c for c in r.history if c != NOWHERE)
            have.update(r.bids)
            if r.played is not None and r.played != NOWHERE:
                have[r.played] += 1
            want = Counter(starting_deck(game.setup, seat, r.kind))
            want[EXHAUSTION] += exhausted
            assert have == want, f"{r.id}: cards not conserved"
        if game.script[seat] and game.phase not in (GRID, BREAKAWAY, OVER):
            assert owner.played is not None and mate.played is not None, "a scripted team has no card"
            assert not owner.hand and not mate.hand
    for seat_riders in game.seats:
        holding = [i for i in seat_riders if game.riders[i].hand]
        assert len(holding) <= 1, "a seat sees two draws at once"
        for i in holding:
            r = game.riders[i]
            assert r.played is None
            assert len(r.hand) <= game.draw_size(i)
            if len(r.hand) < game.draw_size(i):
                assert not r.deck and not r.recycled, "drew fewer cards than it could"


def check_bmx_tokens(game) -> None:
    bag = Counter(game.setup.bag)
    fatigue = game.supply
    assert game.supply >= 0
    for r in game.riders:
        tokens = Counter(r.bag) + Counter(r.hand) + Counter(r.played or ()) + Counter(r.box)
        if r.phantom:
            tokens[FATIGUE] -= 1
        fatigue += tokens.pop(FATIGUE, 0)
        assert tokens == bag, f"{r.id}: speed tokens not conserved"
        assert Counter(r.box) == Counter(t for played in r.history for t in played if t != FATIGUE)
        assert r.fatigue >= 0
    assert fatigue == game.setup.fatigue_supply, "fatigue tokens not conserved"
    for i, r in enumerate(game.riders):
        if r.hand:  # drawn this turn, not yet chosen from
            assert r.played is None
            assert len(r.hand) <= game.draw_size(i)
            if len(r.hand) < game.draw_size(i):
                assert not r.bag, "drew fewer tokens than it could"
            assert game.keep_size(i) == min(len(r.hand), 2 if course_terrain(game, i) == "v" else 1)
            if r.phantom:
                assert r.hand == [FATIGUE] and game.supply == 0


def course_terrain(game, i: int) -> str:
    return game.course.terrain[game.pos[i][0]]


def secret_shuffle(game, seat: int, rnd: random.Random) -> None:
    """Rearrange what only `seat` may know: deck order, which cards are in the
    hand and which one was chosen (same counts)."""
    bmx = game.variant == "bmx"
    if game.script[seat] == PELOTON:  # one deck and one face-down card for both riders
        owner, mate = (game.riders[i] for i in game.seats[seat])
        pool = owner.deck + [owner.played]
        rnd.shuffle(pool)
        owner.played = mate.played = pool.pop()
        owner.deck[:] = pool
        return
    for i in game.seats[seat]:
        r = game.riders[i]
        if bmx:
            played = list(r.played) if r.played is not None else []
            pool = r.bag + r.hand + played
            rnd.shuffle(pool)
            r.hand = pool[: len(r.hand)]
            rest = pool[len(r.hand):]
            if r.played is not None:
                r.played = tuple(rest[: len(played)])
                rest = rest[len(played):]
            r.bag = rest
        else:
            pool = r.deck + list(r.hand) + ([r.played] if r.played is not None else [])
            rnd.shuffle(pool)
            r.hand = tuple(pool[: len(r.hand)])
            rest = pool[len(r.hand):]
            if r.played is not None:
                r.played = rest.pop()
            r.deck = rest


def fresh_view(game, seat):
    game.public_cache = None
    return game.view(seat)


def unsupplied(v):
    return v.replace(board=v.board.replace(riders=tuple(r.replace(from_supply=0) for r in v.board.riders)))


def check_privacy(game, rnd: random.Random) -> None:
    n = len(game.setup.teams)
    for seat in range(n):
        v = game.view(seat)
        mine = set(game.seats[seat])
        assert set(v.hands) <= mine and set(v.chosen) <= mine and set(v.own) <= mine
        base = fresh_view(game.clone(), seat)
        assert unsupplied(v) == unsupplied(base), "the cached board differs from a fresh one"
        for other in range(n):
            if other == seat:
                continue
            twin = game.clone()
            secret_shuffle(twin, other, rnd)
            assert fresh_view(twin, seat) == base, f"seat {seat} sees a secret of seat {other}"


def check_legal(game) -> None:
    for seat in range(len(game.setup.teams)):
        legal = game.legal_actions(seat)
        if game.phase == OVER:
            assert legal == []
        else:
            assert bool(legal) == game.needs(seat)
        for action in legal:
            assert Action.parse(str(action)) == action


def signature(game):
    if game.variant == "bmx":
        riders = [(r.bag, r.hand, r.played, r.box, r.fatigue, r.history, r.phantom) for r in game.riders]
        extra = (game.supply, game.die)
    else:
        riders = [(r.deck, r.recycled, r.hand, r.played, r.history, r.exhaustion, r.supply_played, r.crashed)
                  for r in game.riders]
        extra = (game.course.weather,)
    return (game.phase, game.round, game.winner, [tuple(p) for p in game.pos], game.cells, riders,
            game.rng.state(), game.events, extra, [str(a) for a in game.actions])


# ---------------------------------------------------------------- round checks


def check_classic_round(game, before) -> None:
    """The round just resolved, re-derived from the revealed cards."""
    pos0, crashed0, finish = before["pos"], before["crashed"], game.course.finish
    meteo = game.variant == "meteo"
    course, lanes = game.course, game.course.lanes
    weather = course.weather or (FAIR,) * len(course.terrain)
    events = game.events
    assert events[0].kind == "reveal"
    cards = dict(events[0].played)
    moves = [e for e in events if e.kind == "move"]
    assert [e.rider for e in moves] == order_of(pos0), "movement order"
    occ = {tuple(p): i for i, p in enumerate(pos0)}
    crashed = list(crashed0)
    last = None
    for e in events[1:]:
        kind = e.kind
        if kind == "move":
            i, start, square, lane, value, mv = e.rider, e.start, e.square, e.lane, e.value, e.moves
            assert start == pos0[i][0]
            if cards[i] == NOWHERE:  # a scripted rider out of cards moves by a 2 from nowhere
                assert value == game.setup.out_of_cards and game.script[game.riders[i].seat]
            elif cards[i] == ATTACK:  # the Peloton's front rider moves 2, its rear rider 9
                mate = next(j for j in game.seats[game.riders[i].seat] if j != i)
                front = order_of(pos0).index(i) < order_of(pos0).index(mate)
                assert cards[mate] == ATTACK
                assert value == (2 if front else 9)
            else:
                assert value == (cards[i] or 2)
            assert game.riders[i].history[-1] == cards[i]
            penalty = game.setup.standup_penalty if (meteo and crashed[i]) else 0
            assert mv == ref_move(course.terrain, start, value, penalty), "effective value"
            del occ[tuple(pos0[i])]
            limit = start + mv
            if meteo:
                for sq in range(start + 1, start + mv + 1):
                    if all((sq, ln) in occ and crashed[occ[(sq, ln)]] for ln in range(lanes[sq])):
                        limit = sq - 1
                        break
            assert (square, lane) == ref_settle(occ, lanes, limit), "landing place"
            occ[(square, lane)] = i
            last = (i, start, square, mv)
            # meteo: stand up, then maybe crash (checked on the following events)
            standup = meteo and crashed[i]
            wet_crash = meteo and weather[square] == WET and square < start + mv
            nxt = events.index(e) + 1
            follow = [x.kind for x in events[nxt:nxt + 2] if x.kind in ("standup", "crash") and x.rider == i]
            assert follow == (["standup"] if standup else []) + (["crash"] if wet_crash else []), \
                f"stand-up/crash after {e}"
            crashed[i] = wet_crash
        elif kind in ("standup", "crash"):
            assert last is not None and e.rider == last[0]
    for i, r in enumerate(game.riders):
        assert bool(getattr(r, "crashed", False)) == crashed[i], "crashed state"
    after_moves = {i: place for place, i in occ.items()}
    moved = {i: place[0] for i, place in after_moves.items()}
    crossed = any(sq >= finish for sq in moved.values())
    if crossed:
        assert game.phase == OVER
        assert all(tuple(game.pos[i]) == after_moves[i] for i in after_moves), "moved after the finish"
        assert not [e for e in events if e.kind in ("slip", "exhaust")]
        assert game.winner == order_of(game.pos)[0]
        return
    assert game.phase != OVER and game.winner is None
    # slipstream: forward only, one square at a time, from eligible squares
    down = {game.pos[i][0] for i in range(len(game.riders)) if crashed[i]}

    def eligible(sq: int) -> bool:  # no slipstream to or from a climb or cobbles (PELOTON.md), a crosswind, a crash
        return course.terrain[sq] not in "^c" and not (meteo and (weather[sq] == CROSSWIND or sq in down))

    for e in events:
        if e.kind == "slip":
            i, frm, to = e.rider, e.start, e.square
            assert to == frm + 1 and eligible(frm) and not crashed[i]
    for i, p in enumerate(game.pos):
        assert p[0] >= moved[i] >= pos0[i][0], "a rider moved backwards"
    occupied = {p[0] for p in game.pos}
    for g in range(min(occupied), max(occupied)):
        if g not in occupied and g - 1 in occupied and g + 1 in occupied and course.terrain[g] != "c":
            assert not (eligible(g - 1) and eligible(g + 1)), f"slipstream gap left at {g}"
    tired = sorted(e.rider for e in events if e.kind == "exhaust")
    spared = {i for i, r in enumerate(game.riders) if game.script[r.seat] and not game.setup.scripted_exhaustion}
    assert tired == [i for i, p in enumerate(game.pos) if p[0] + 1 not in occupied and i not in spared], "exhaustion"


def check_bmx_round(game, before) -> None:
    pos0, supply0 = before["pos"], before["supply"]
    course, lanes = game.course, game.course.lanes
    events = game.events
    cards = dict(events[0].played)
    moves = [e for e in events if e.kind == "move"]
    assert [e.rider for e in moves] == order_of(pos0)
    occ = {tuple(p): i for i, p in enumerate(pos0)}
    supply = supply0
    for e in moves:
        i, start, square, lane, tokens, total = e.rider, e.start, e.square, e.lane, e.tokens, e.moves
        assert tokens == cards[i] and start == pos0[i][0]
        value = sum(t or 1 for t in tokens)
        bonus = 0
        if course.ramp and start < course.ramp[0] <= start + value and course.ramp[1] in tokens:
            bonus = course.ramp[1]
        assert total == value + bonus
        del occ[tuple(pos0[i])]
        assert (square, lane) == ref_settle(occ, lanes, start + total)
        occ[(square, lane)] = i
        supply += sum(1 for t in tokens if t == FATIGUE) if not before["phantom"][i] else 0
    moved = {i: sq for (sq, _), i in occ.items()}
    crossed = any(sq >= course.finish for sq in moved.values())
    (die,) = [e.face for e in events if e.kind == "die"]
    if game.setup.forecast:
        assert die == before["die"]
    for i, p in enumerate(game.pos):
        assert p[0] >= moved[i] >= pos0[i][0], "a rider moved backwards"
    occupied = sorted({p[0] for p in game.pos})
    for a, b in zip(occupied, occupied[1:]):
        assert not 1 <= b - a - 1 <= die, f"catch-up gap left between {a} and {b} (die {die})"
    if not die:
        assert not [e for e in events if e.kind == "catchup"]
    # fatigue: front rider first, 2 on a bumpy passage, while the supply lasts
    want = []
    occ_sq = set(occupied)
    for i in order_of(game.pos):
        sq = game.pos[i][0]
        if sq + 1 not in occ_sq:
            need = game.setup.bumpy_fatigue if course.terrain[sq] == "b" else 1
            got = min(need, supply)
            supply -= got
            if got:
                want.append((i, got))
    assert [(e.rider, e.tokens) for e in events if e.kind == "fatigue"] == want, "fatigue"
    if crossed:
        assert game.phase == OVER and game.winner == order_of(game.pos)[0]
    else:
        assert game.phase != OVER and game.winner is None


# -------------------------------------------------------------------- driver


def run_race(game, policy: str, seed: int, *, check_every_action: bool = True) -> dict:
    """Play to the end, checking everything; returns some counts."""
    rnd = random.Random(seed)
    n = len(game.setup.teams)
    bmx = game.variant == "bmx"
    stats = Counter()
    seat_turn = itertools.cycle(range(n))

    def start_of_round():
        return {
            "pos": [tuple(p) for p in game.pos],
            "crashed": [bool(getattr(r, "crashed", False)) for r in game.riders],
            "supply": getattr(game, "supply", None),
            "die": getattr(game, "die", None),
            "phantom": [getattr(r, "phantom", False) for r in game.riders],
        }

    check_cells(game)
    before = start_of_round() if game.phase not in (GRID, BREAKAWAY) else None
    bidding = breakaway_snapshot(game) if game.phase == BREAKAWAY else None
    while game.phase != OVER:
        assert game.round <= MAX_ROUNDS[game.variant], "race too long"
        waiting = [s for s in range(n) if game.needs(s)]
        assert waiting, "nobody can act but the race is not over"
        if policy == "random":
            seat = rnd.choice(waiting)
            action = rnd.choice(game.legal_actions(seat))
        else:
            seat = next(s for s in seat_turn if s in waiting)
            action = easy(game.view(seat))
            # bmx token order is free ("play red F 3" == "play red 3 F"): compare as multisets
            assert canonical(action) in {canonical(a) for a in game.legal_actions(seat)}, \
                f"the easy bot played an illegal {action}"
        round_before, phase_before = game.round, game.phase
        if game.phase == BREAKAWAY:
            bidding = breakaway_snapshot(game)
        if bmx and game.phase != OVER:
            # the die the round will use, if rolled before drawing
            before["die"] = game.die
        game.apply(action)
        stats["actions"] += 1
        check_cells(game)
        if bmx:
            check_bmx_tokens(game)
        else:
            check_classic_cards(game)
        if check_every_action or game.round != round_before:
            check_legal(game)
            check_privacy(game, rnd)
        if phase_before == GRID and game.phase == BREAKAWAY:
            bidding = breakaway_snapshot(game)
        if phase_before in (GRID, BREAKAWAY):
            if phase_before == BREAKAWAY and game.phase != BREAKAWAY:
                check_breakaway(game, bidding)
                stats["breakaways"] += 1
            if game.phase not in (GRID, BREAKAWAY):
                before = start_of_round()
            continue
        if game.round != round_before or game.phase == OVER:
            stats["rounds"] += 1
            if bmx:
                check_bmx_round(game, before)
            else:
                check_classic_round(game, before)
            stats["crashes"] += sum(1 for e in game.events if e.kind == "crash")
            stats["standups"] += sum(1 for e in game.events if e.kind == "standup")
            stats["slips"] += sum(1 for e in game.events if e.kind in ("slip", "catchup"))
            before = start_of_round()
    assert game.winner is not None and game.phase == OVER
    assert any(p[0] >= game.course.finish for p in game.pos)
    return stats


def breakaway_snapshot(game) -> dict:
    """Where everyone stands and every rider's cards, before an action of the breakaway."""
    return {
        "pos": [tuple(p) for p in game.pos],
        "cards": [Counter(r.deck) + Counter(r.recycled) + Counter(r.hand) + Counter(r.bids)
                  + Counter([r.played] if r.played is not None else []) for r in game.riders],
        "exhaustion": [r.exhaustion for r in game.riders],
    }


def check_breakaway(game, before: dict) -> None:
    """The breakaway, re-derived from its revealed bids (PELOTON.md): sums,
    winners (ties to the rider further back, then the higher lane), the
    breakaway square lanes 0 and 1, grid places left empty, bid cards and
    exhaustion conserved, every bidder reshuffled."""
    (result,) = [e for e in game.events if e.kind == "breakaway"]
    value = game.setup.exhaustion_value
    bidders = [i for i, _, _ in result.bids]
    players = [seat for seat in range(len(game.seats)) if not game.script[seat]]
    assert sorted(game.riders[i].seat for i in bidders) == players, "one bidder per team of players"
    pos0 = before["pos"]
    for _, cards, total in result.bids:
        assert len(cards) == game.setup.breakaway_bids and total == sum(c or value for c in cards)
    order = sorted(bidders, key=lambda i: (-next(t for j, _, t in result.bids if j == i), pos0[i][0], -pos0[i][1]))
    assert [i for i, _, _ in result.bids] == order
    want = order[: 2 if len(game.seats) >= game.setup.breakaway_pair_from else 1]
    assert list(result.winners) == want
    for lane, i in enumerate(want):
        assert tuple(game.pos[i]) == (game.course.breakaway, lane), "a winner off the breakaway square"
        sq, ln = pos0[i]
        assert game.cells[LANES * sq + ln] == -1, "a winner's grid place was filled"
    for i, r in enumerate(game.riders):
        if i not in want:
            assert tuple(game.pos[i]) == pos0[i], "a rider moved up on the grid"
        have = Counter(r.deck) + Counter(r.recycled) + Counter(r.hand) + Counter(r.bids)
        if r.played is not None:
            have[r.played] += 1
        if i in want:
            bids = next(cards for j, cards, _ in result.bids if j == i)
            assert tuple(r.bids) == bids, "a winner's bid cards did not leave the game"
            assert r.exhaustion - before["exhaustion"][i] == game.setup.breakaway_exhaustion
            wanted = before["cards"][i] + Counter({EXHAUSTION: game.setup.breakaway_exhaustion})
            assert have == wanted and not r.recycled, "a winner's cards are not all in its new deck"
        else:
            assert r.exhaustion == before["exhaustion"][i] and not r.bids
            assert have == before["cards"][i], "bid cards were not taken back"
            if i in bidders:
                assert not r.recycled, "a bidder did not shuffle its recycled cards in"


def check_replay(game, setup) -> None:
    twin = new_game(setup, game.seed)
    for action in game.actions:
        twin.apply(str(action))
    assert signature(twin) == signature(game)


# ------------------------------------------------------------------ classic/meteo


WET_POOL = (WET,) * 13
STORM_POOL = (WET, WET, WET, CROSSWIND, CROSSWIND, "tailwind", "headwind", FAIR)


def classic_setup(variant, stage, n_teams, grid="random", handicap=(), pool=None, scripted=()):
    setup = make_setup(RaceSpec(variant=variant, stage=stage, teams=teams(n_teams), grid=grid, handicap=handicap,
                                scripted=scripted))
    if pool is not None:
        setup = ClassicSetup(**{f: getattr(setup, f) for f in setup.__dataclass_fields__} | {"weather_tokens": pool})
    return setup


@pytest.mark.slow  # the long run: only with --slow (the README's test command, first) or -m slow
@PROPS
@given(
    variant=st.sampled_from(["classic", "meteo"]),
    stage=st.sampled_from(STAGES),
    n_teams=st.integers(2, 4),
    seed=st.integers(0, 2**32 - 1),
    policy=st.sampled_from(["easy", "random"]),
    grid=st.sampled_from(["random", "choose"]),
    handicap=st.lists(st.integers(0, 3), max_size=4).map(tuple),
    pool=st.sampled_from([None, WET_POOL, STORM_POOL]),
)
def test_classic_and_meteo_races_keep_every_invariant(variant, stage, n_teams, seed, policy, grid, handicap, pool):
    setup = classic_setup(variant, stage, n_teams, grid, handicap, pool if variant == "meteo" else None)
    game = new_game(setup, seed)
    run_race(game, policy, seed)
    check_replay(game, setup)


@pytest.mark.slow  # the long run: only with --slow (the README's test command, first) or -m slow
@PROPS
@given(
    stage=st.sampled_from(STAGES),
    seats=st.lists(st.sampled_from(["", "", PELOTON, "muscle"]), min_size=2, max_size=6).filter(
        lambda s: not all(s) and s.count(PELOTON) <= 1),
    variant=st.sampled_from(["classic", "meteo"]),
    seed=st.integers(0, 2**32 - 1),
    policy=st.sampled_from(["easy", "random"]),
    grid=st.sampled_from(["random", "choose"]),
    handicap=st.lists(st.integers(0, 3), max_size=4).map(tuple),
    exhausted=st.booleans(),
)
def test_races_with_scripted_teams_keep_every_invariant(stage, seats, variant, seed, policy, grid, handicap, exhausted):
    setup = classic_setup(variant, stage, len(seats), grid, handicap, scripted=tuple(seats))
    setup = ClassicSetup(**{f: getattr(setup, f) for f in setup.__dataclass_fields__} | {"scripted_exhaustion": exhausted})
    game = new_game(setup, seed)
    run_race(game, policy, seed)
    check_replay(game, setup)
    for seat, script in enumerate(game.script):
        if script:  # they never act: the log holds only the other teams' actions
            ids = {game.riders[i].id for i in game.seats[seat]}
            assert not [a for a in game.actions if a.rider in ids]


@pytest.mark.parametrize("variant", ["classic", "meteo"])
@pytest.mark.parametrize("stage", STAGES)
def test_every_stage_full_race_with_both_policies(variant, stage):
    for policy, seed in (("easy", 11), ("random", 12)):
        setup = classic_setup(variant, stage, 4)
        game = new_game(setup, seed)
        run_race(game, policy, seed, check_every_action=False)
        check_replay(game, setup)


def test_meteo_crashes_happen_and_riders_stand_up():
    """With every straight wet, crashes are common: the round checks above
    verify each stand-up and crash; here we make sure they were exercised."""
    totals = Counter()
    for seed in range(12):
        setup = classic_setup("meteo", STAGES[seed % len(STAGES)], 4, pool=WET_POOL)
        game = new_game(setup, seed)
        totals += run_race(game, "random" if seed % 2 else "easy", seed, check_every_action=False)
    assert totals["crashes"] > 5
    assert totals["standups"] > 3
    assert totals["slips"] > 20


def test_crashed_rider_stands_after_its_next_move_unless_it_crashed_again():
    seen = Counter()
    for seed in range(15):
        setup = classic_setup("meteo", "avenue-corso-paseo", 4, pool=WET_POOL)
        game = new_game(setup, seed)
        rnd = random.Random(seed)
        while game.phase != OVER:
            down = {i for i, r in enumerate(game.riders) if r.crashed}
            round_before = game.round
            while game.round == round_before and game.phase != OVER:
                seat = rnd.choice([s for s in range(4) if game.needs(s)])
                game.apply(rnd.choice(game.legal_actions(seat)))
            for i in down:
                kinds = [e.kind for e in game.events if e.kind in ("move", "standup", "crash") and e.rider == i]
                assert kinds[:2] == ["move", "standup"]
                assert game.riders[i].crashed == ("crash" in kinds)
                seen["again" if game.riders[i].crashed else "stood"] += 1
    assert seen["stood"] > 0


# ----------------------------------------------------------------------- bmx


def bmx_setup(circuit, n_teams, ramp=None, young=(), forecast=False):
    return make_setup(RaceSpec(variant="bmx", teams=teams(n_teams), circuit=circuit, ramp=ramp,
                               young=young, forecast=forecast))


@pytest.mark.slow  # the long run: only with --slow (the README's test command, first) or -m slow
@PROPS
@given(
    circuit=st.sampled_from(CIRCUITS),
    n_teams=st.integers(2, 4),
    seed=st.integers(0, 2**32 - 1),
    policy=st.sampled_from(["easy", "random"]),
    ramp=st.none() | st.tuples(st.integers(0, 27), st.integers(1, 5)),
    young=st.lists(st.integers(0, 3), max_size=4).map(tuple),
    forecast=st.booleans(),
    supply=st.sampled_from([None, 0, 2, 5]),
)
def test_bmx_races_keep_every_invariant(circuit, n_teams, seed, policy, ramp, young, forecast, supply):
    setup = bmx_setup(circuit, n_teams, ramp, young, forecast)
    if supply is not None:  # a small fatigue supply: it runs out, phantom tokens appear
        setup = BmxSetup(**{f: getattr(setup, f) for f in setup.__dataclass_fields__} | {"fatigue_supply": supply})
    game = new_game(setup, seed)
    run_race(game, policy, seed)
    check_replay(game, setup)


@pytest.mark.parametrize("ramp", [None, (12, 3)], ids=["no-ramp", "ramp"])
@pytest.mark.parametrize("circuit", CIRCUITS)
def test_every_bmx_circuit_full_race(circuit, ramp):
    for policy, seed in (("easy", 21), ("random", 22)):
        setup = bmx_setup(circuit, 4, ramp)
        game = new_game(setup, seed)
        run_race(game, policy, seed, check_every_action=False)
        check_replay(game, setup)


# ------------------------------------------------------------ view and cache


def test_view_does_not_depend_on_when_the_board_was_cached():
    setup = classic_setup("classic", "avenue-corso-paseo", 2)
    game = new_game(setup, 3)
    red_s = game.riders[0]
    red_s.deck, red_s.recycled = [], ()  # no cards at all: the next draw comes from the supply
    cached = game.view(1)  # built before red draws
    game.apply("draw red.S")
    assert red_s.hand == (EXHAUSTION,) and red_s.supply_played == 1
    assert game.view(1) == cached  # nothing public changed for blue...
    assert fresh_view(game.clone(), 1) == game.view(1)  # ...yet a fresh board shows from_supply=1


# ------------------------------------------------------------ play_out itself


@pytest.mark.parametrize("variant", ["classic", "meteo", "bmx"])
def test_play_out_finishes_and_reports_each_round(variant):
    setup = make_setup(RaceSpec(variant=variant, teams=teams(3)))
    game = new_game(setup, 5)
    rounds = []
    play_out(game, {s: easy for s in range(3)}, lambda g: rounds.append(g.round))
    assert game.phase == OVER and rounds
    assert rounds[-1] == game.round
    assert len(rounds) == game.round


# ------------------------------------------------------------------ the Peloton expansion

PELOTON_STAGES = [sid for sid in STAGES if sid.startswith("peloton-")]


def peloton_seats(kind: str, n: int, scripted: tuple[str, ...]) -> tuple[tuple[Team, ...], tuple[str, ...]]:
    """Teams of two riders (up to 6), or n players racing one rider each (up to 12)."""
    if kind == "lone":
        riders = [(c, k) for c in COLOURS for k in "SR"]
        return tuple(Team(f"P{k}", c, kind) for k, (c, kind) in enumerate(riders[:n])), ()
    return teams(n), scripted[:n] if any(scripted[:n]) and not all(scripted[:n]) else ()


@pytest.mark.slow  # the long run: only with --slow (the README's test command, first) or -m slow
@PROPS
@given(
    variant=st.sampled_from(["classic", "meteo"]),
    stage=st.sampled_from(PELOTON_STAGES),
    seats=st.sampled_from([("teams", 5), ("teams", 6), ("lone", 7), ("lone", 9), ("lone", 12), ("teams", 2)]),
    scripted=st.sampled_from([(), (PELOTON, "", "", "muscle", "", ""), ("", "muscle", "", "", "", "muscle")]),
    breakaway=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
    policy=st.sampled_from(["easy", "random"]),
    grid=st.sampled_from(["random", "choose"]),
)
def test_random_peloton_races_keep_every_invariant(variant, stage, seats, scripted, breakaway, seed, policy, grid):
    """Up to six teams or twelve one-rider players on every Peloton stage, with and
    without the breakaway: lane capacity per square, nobody lost, cards conserved,
    every round re-derived, every breakaway re-derived, the race ends."""
    kind, n = seats
    teams_, script = peloton_seats(kind, n, scripted)
    setup = make_setup(RaceSpec(variant=variant, stage=stage, teams=teams_, grid=grid, scripted=script,
                                breakaway=breakaway))
    game = new_game(setup, seed)
    stats = run_race(game, policy, seed, check_every_action=len(game.riders) <= 8)
    assert stats["breakaways"] == int(breakaway)
    check_replay(game, setup)
