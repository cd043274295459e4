"""A race round by round, from a save: what the table saw, never a hand.

`frames(setup, seed, actions)` replays the log and keeps, after the start
and after every resolved round, only public things: the track, the round's
log in words (cards revealed at the move phase), the ranking, and for
Meteo the weather dealt on the straights.  A race saved in the middle of a
round ends with a frame saying how many picks were made, not which.

The seed of a race still in progress is not shown: with the log it tells
every hidden card.  This module must not import Textual.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from ..engine.classic import BREAKAWAY, GRID, OVER
from .races import describe_round, new_game, positions_text, ranking_lines, track_picture


class Frame(NamedTuple):
    title: str  # "Start", "Round 3", "Round 14: finish", "Round 9: in progress"
    track: str  # track_picture
    positions: str
    log: tuple[str, ...]
    ranking: tuple[str, ...]


class Replay(NamedTuple):
    heading: str  # the race in one line
    frames: tuple[Frame, ...]
    over: bool

    def text(self) -> str:
        """The whole replay as plain text."""
        out = [self.heading, ""]
        for n, f in enumerate(self.frames):
            out.append(f"== {f.title} ({n + 1}/{len(self.frames)}) ==")
            out.append(f"track: {f.track}")
            out.append(f"       {f.positions}")
            out.extend(f"  {line}" for line in f.log)
            out.append("ranking:")
            out.extend(f"  {line}" for line in f.ranking)
            out.append("")
        return "\n".join(out)


def _weather_lines(game) -> list[str]:
    weather = game.course.weather
    if not weather:
        return []
    lines = []
    for tile in game.course.tiles:
        kind = weather[tile.first] if tile.first < len(weather) else ""
        if kind:
            lines.append(f"weather: {kind} on tile {tile.letter} (squares {tile.first}-{tile.first + tile.length - 1})")
    return lines or ["weather: fair everywhere"]


def _frame(game, title: str, log: list[str]) -> Frame:
    if game.phase == GRID or any(p[0] < 0 for p in game.pos):
        placed = [(i, p) for i, p in enumerate(game.pos) if p[0] >= 0]
        track = "(riders being placed on the grid)"
        positions = "  ".join(f"{game.riders[i].id} {p[0]}/{p[1]}" for i, p in placed) or "nobody placed yet"
        ranking: tuple[str, ...] = ()
    else:
        track = track_picture(game)
        positions = positions_text(game)
        ranking = tuple(ranking_lines(game))
    return Frame(title, track, positions, tuple(log), ranking)


def frames(setup, seed: int, actions) -> list[Frame]:
    game = new_game(setup, seed)
    out: list[Frame] = []
    if game.phase != GRID:
        out.append(_frame(game, "Start", _weather_lines(game) + ["the riders on the grid"]))
    done = 0
    picks = 0  # actions in the round being played
    for action in actions:
        before = game.phase
        events = game.events
        game.apply(action)
        picks += 1
        if before == GRID and game.phase != GRID:
            out.append(_frame(game, "Start", _weather_lines(game) + ["every rider placed on the grid"]))
            picks = 0
            continue
        if before == BREAKAWAY and game.events is not events:  # bids revealed (and, the last time, the result)
            title = "Breakaway" if game.phase != BREAKAWAY else f"Breakaway, bid {game.bid_round - 1}"
            out.append(_frame(game, title, describe_round(game)))
            picks = 0
            continue
        completed = game.round if game.phase == OVER else game.round - 1
        if completed > done:
            done = completed
            title = f"Round {done}" + (": finish" if game.phase == OVER else "")
            out.append(_frame(game, title, describe_round(game)))
            picks = 0
    if game.phase == GRID:
        out.append(_frame(game, "Start: placing riders", [f"{picks} rider(s) placed so far"]))
    elif game.phase == BREAKAWAY and picks:
        out.append(_frame(game, f"Breakaway, bid {game.bid_round}: in progress",
                          [f"{picks} choice(s) made; the bids are revealed together"]))
    elif game.phase != OVER and picks:
        out.append(_frame(
            game,
            f"Round {game.round}: in progress",
            [f"{picks} pick(s) made this round; cards are revealed when the round is played"],
        ))
    return out


def replay_of(record) -> Replay:
    """A Replay from a verified save (saves.load_record)."""
    game_frames = frames(record.setup, record.seed, record.actions)
    info = record.info
    teams = ", ".join(info.teams)
    if info.over:
        state = f"won by {info.winner}, seed {record.seed}"
    else:
        state = f"saved in round {info.round}, race in progress"
    heading = f"{info.title} ({info.variant}), {teams}: {state}"
    return Replay(heading, tuple(game_frames), info.over)


def load_replay(path: str | Path) -> Replay:
    """Load and verify a save (SaveError) and build its replay."""
    from ..saves import load_record

    return replay_of(load_record(path))


__all__ = ["Frame", "Replay", "frames", "load_replay", "replay_of"]
