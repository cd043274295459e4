"""A race round by round, from a save: what the table saw, never a hand.

`frames(setup, seed, actions)` replays the log and keeps, after the start
and after every resolved round, only public things: the track, the round's
log in words (cards revealed at the move phase), the ranking, and for
Meteo the weather dealt on the straights.  A race saved in the middle of a
round ends with a frame saying how many cards lie face down, not which.  The
log's undos (a player taking back the last card of their turn before
passing) are said in the round they happened in, by seat, never which card.

The seed of a race still in progress is not shown: with the log it tells
every hidden card.  This module must not import Textual.
"""

from __future__ import annotations

from typing import NamedTuple

from ..engine.actions import Play, PlayTokens
from ..engine.phase import Phase
from ..words import team_name, variant_word
from .narrator import (
    changed_words,
    choices_made,
    describe_round,
    finish_words,
    picks_made,
    placed_so_far,
    placed_words,
    ranking_line,
    replay_says,
    stage_report,
    stages_word,
    track_picture,
    weather_lines,
)
from .races import new_game
from .session import effective, undone


class Frame(NamedTuple):
    title: str  # "Start", "Round 3", "Round 14: finish", "Round 9: in progress"
    track: str  # track_picture (the text replay's one-line picture)
    positions: str
    log: tuple[str, ...]  # the round in words, squares counted from the start line
    ranking: tuple[str, ...]
    pos: tuple[tuple[int, int], ...] = ()  # per rider (square, lane) in the engine's squares (-1: not placed)
    crashed: tuple[bool, ...] = ()
    course: object = None  # a tour: the course of this frame's stage (else the Replay's)
    jersey: int = -1  # a tour: the rider in the yellow jersey during this stage (-1: none)


class Replay(NamedTuple):
    heading: str  # the race in one line
    frames: tuple[Frame, ...]
    over: bool
    course: object = None  # the course raced (the app draws it as the race screen does)
    riders: tuple[tuple[str, str], ...] = ()  # per rider (id, kind): its team letter and S/R
    variant: str = ""

    def text(self) -> str:
        """The whole replay as plain text."""
        out = [self.heading, ""]
        for n, f in enumerate(self.frames):
            out.append(replay_says("frame", title=f.title, n=n + 1, of=len(self.frames)))
            out.append(replay_says("track", track=f.track))
            out.append(replay_says("positions", positions=f.positions))
            out.extend(f"  {line}" for line in f.log)
            out.append(replay_says("ranking"))
            out.extend(f"  {line}" for line in f.ranking)
            out.append("")
        return "\n".join(out)


def _frame(game, title: str, log: list[str]) -> Frame:
    crossed = getattr(game, "crossed", {})  # a tour stage: riders across the line have left the track
    if game.phase == Phase.GRID or any(p[0] < 0 for i, p in enumerate(game.pos) if i not in crossed):
        placed = [i for i, p in enumerate(game.pos) if p[0] >= 0]
        track = replay_says("being placed")
        positions = "  ".join(placed_words(game, i) for i in placed) or replay_says("nobody placed")
        ranking: tuple[str, ...] = ()
    else:
        track = track_picture(game)
        finished = finish_words(game)
        positions = "  ".join(placed_words(game, i, finished) for i in game.ranking())
        ranking = tuple(ranking_line(game, place, i, finished) for place, i in enumerate(game.ranking(), 1))
    crashed = tuple(bool(getattr(r, "crashed", False)) for r in game.riders)
    return Frame(title, track, positions, tuple(log), ranking, tuple(tuple(p) for p in game.pos), crashed)


def _changed(game, action) -> str:
    """An undo in public words: whose card changed, never which."""
    return changed_words(game, game.riders[game.index[action.rider]].seat)


def frames(setup, seed: int, entries) -> list[Frame]:
    """The replay of a log (actions and undos)."""
    game = new_game(setup, seed)
    out: list[Frame] = []
    if game.phase != Phase.GRID:
        out.append(_frame(game, replay_says("start"), weather_lines(game) + [replay_says("on the grid")]))
    done = 0
    picks = 0  # actions in the round being played (placements, the breakaway's choices)
    withdrawn = undone(entries)
    changed: list[str] = []  # the round's undos, in words
    for n, action in enumerate(effective(entries)):
        before = game.phase
        events = game.events
        changed += [_changed(game, a) for a in withdrawn.get(n, ())]
        game.apply(action)
        picks += 1
        if before == Phase.GRID and game.phase != Phase.GRID:
            out.append(_frame(game, replay_says("start"), weather_lines(game) + [replay_says("all placed")]))
            picks = 0
            continue
        if before == Phase.BREAKAWAY and game.events is not events:  # bids revealed (and, the last time, the result)
            title = replay_says("breakaway") if game.phase != Phase.BREAKAWAY else replay_says(
                "breakaway bid", n=game.bid_round - 1)
            out.append(_frame(game, title, describe_round(game)))  # as the race says
            picks = 0
            continue
        if game.rounds_done > done:
            done = game.rounds_done
            title = replay_says("round finish" if game.phase == Phase.OVER else "round", n=done)
            out.append(_frame(game, title, changed + describe_round(game)))
            picks = 0
            changed = []
    # an undo after the last action in force: its card is being picked again
    changed += [_changed(game, a) for a in withdrawn.get(len(effective(entries)), ())]
    if game.phase == Phase.GRID:
        out.append(_frame(game, replay_says("start placing"), [placed_so_far(picks)]))
    elif game.phase == Phase.BREAKAWAY and picks:
        out.append(_frame(game, replay_says("breakaway in progress", n=game.bid_round), [choices_made(picks)]))
    elif game.phase != Phase.OVER and (cards := round_cards(setup, seed, effective(entries))):
        out.append(_frame(game, replay_says("round in progress", n=game.round), [picks_made(cards)] + changed))
    elif changed:  # every pick of the round in force taken back
        out.append(_frame(game, replay_says("round in progress", n=game.round), changed))
    return out


def round_cards(setup, seed: int, actions) -> int:
    """Cards (tokens) chosen face down in the round in progress of a log's
    actions in force: a draw chooses no card, and the grid's places and the
    breakaway's bids are not the round's cards."""
    game = new_game(setup, seed)
    cards = 0
    for action in actions:
        phase, before = game.phase, game.round
        game.apply(action)
        if game.round != before or game.phase == Phase.OVER:
            cards = 0
        elif phase == Phase.ENERGY and isinstance(action, (Play, PlayTokens)):
            cards += 1
    return cards


def _tour_frames(record) -> list[Frame]:
    """Every stage of a tour, stage by stage: its rounds, then its result."""
    from .tours import Tour

    tour = record.tour
    out: list[Frame] = []
    so_far = Tour(tour.name, tour.legs, tour.seed)
    stages = [(d.game.setup, d.game.seed, d.entries) for d in tour.done]
    stages.append((record.setup, record.seed, record.actions))
    for k, (setup, seed, entries) in enumerate(stages, 1):
        staged = frames(setup, seed, entries)
        game = new_game(setup, seed)
        # drawn as a race's replay: each stage on its own course (its weather), the jersey on its leader
        leader = so_far.leader()
        jersey = game.index.get(leader, -1) if leader is not None else -1
        staged = [f._replace(course=game.course, jersey=jersey) for f in staged]
        out += [f._replace(title=replay_says("stage", k=k, title=f.title)) for f in staged]
        for action in effective(entries):
            game.apply(action)
        if game.phase == Phase.OVER:
            so_far.finish_stage(game)
            last = staged[-1]
            out.append(last._replace(title=replay_says("stage result", k=k), log=tuple(stage_report(so_far)),
                                     jersey=game.index.get(so_far.leader() or "", -1)))
    return out


def replay_of(record) -> Replay:
    """A Replay from a verified save (saves.load_record); a tour stage by stage."""
    info = record.info
    if record.tour is not None:
        teams = ", ".join(team_name(record.tour.legs[0], seat) for seat in range(len(record.tour.legs[0].teams)))
        if info.over:  # the seed tells every hidden card of every stage: only once the tour is over
            state = replay_says("won", winner=info.winner, seed=record.tour.seed)
        else:
            state = replay_says("stage in progress", k=info.stage, n=info.stages)
        heading = replay_says("tour heading", tour=info.tour, stages=stages_word(info.stages), teams=teams, state=state)
        first = new_game(record.tour.legs[0], record.tour.seed)
        riders = tuple((r.id, getattr(r, "kind", "")) for r in first.riders)
        return Replay(heading, tuple(_tour_frames(record)), info.over, first.course, riders, first.variant)
    game_frames = frames(record.setup, record.seed, record.actions)
    teams = ", ".join(team_name(record.setup, seat) for seat in range(len(record.setup.teams)))
    if info.over:
        state = replay_says("won", winner=info.winner, seed=record.seed)
    else:
        state = replay_says("race in progress", n=info.round)
    heading = replay_says("race heading", title=info.title, variant=variant_word(info.variant), teams=teams, state=state)
    game = new_game(record.setup, record.seed)
    riders = tuple((r.id, getattr(r, "kind", "")) for r in game.riders)
    return Replay(heading, tuple(game_frames), info.over, game.course, riders, game.variant)


__all__ = ["Frame", "Replay", "frames", "replay_of", "round_cards", "stage_report"]
