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

from ..engine.phase import Phase
from ..ui.widgets.squares import label, lane_word, place_words, where
from .races import describe_round, new_game, rider_name, track_picture


class Frame(NamedTuple):
    title: str  # "Start", "Round 3", "Round 14: finish", "Round 9: in progress"
    track: str  # track_picture (the text replay's one-line picture)
    positions: str
    log: tuple[str, ...]  # the round in words, squares counted from the start line
    ranking: tuple[str, ...]
    pos: tuple[tuple[int, int], ...] = ()  # per rider (square, lane) in the engine's squares (-1: not placed)
    crashed: tuple[bool, ...] = ()


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
            first, last = label(game.course, tile.first), label(game.course, tile.first + tile.length - 1)
            lines.append(f"weather: {kind} on tile {tile.letter} (squares {first}-{last})")
    return lines or ["weather: fair everywhere"]


def _place(game, i: int) -> str:
    """ "square 12, left lane" (or "grid 2, ...") in the numbering every screen uses."""
    return place_words(game, *game.pos[i])


def _frame(game, title: str, log: list[str]) -> Frame:
    if game.phase == Phase.GRID or any(p[0] < 0 for p in game.pos):
        placed = [i for i, p in enumerate(game.pos) if p[0] >= 0]
        track = "(riders being placed on the grid)"
        positions = "  ".join(f"{rider_name(game, i)}: {_place(game, i)}" for i in placed) or "nobody placed yet"
        ranking: tuple[str, ...] = ()
    else:
        track = track_picture(game)
        positions = "  ".join(f"{rider_name(game, i)}: {_place(game, i)}" for i in game.ranking())
        ranking = tuple(f"{place:>2}. {rider_name(game, i)}: {where(game.course, game.pos[i][0])}"
                        f" ({lane_word(game.variant, game.pos[i][1])})"
                        for place, i in enumerate(game.ranking(), 1))
    crashed = tuple(bool(getattr(r, "crashed", False)) for r in game.riders)
    return Frame(title, track, positions, tuple(log), ranking, tuple(tuple(p) for p in game.pos), crashed)


def frames(setup, seed: int, actions) -> list[Frame]:
    game = new_game(setup, seed)
    out: list[Frame] = []
    if game.phase != Phase.GRID:
        out.append(_frame(game, "Start", _weather_lines(game) + ["the riders on the grid"]))
    done = 0
    picks = 0  # actions in the round being played
    for action in actions:
        before = game.phase
        game.apply(action)
        picks += 1
        if before == Phase.GRID and game.phase != Phase.GRID:
            out.append(_frame(game, "Start", _weather_lines(game) + ["every rider placed on the grid"]))
            picks = 0
            continue
        if game.rounds_done > done:
            done = game.rounds_done
            title = f"Round {done}" + (": finish" if game.phase == Phase.OVER else "")
            out.append(_frame(game, title, describe_round(game, lambda sq: label(game.course, sq))))
            picks = 0
    if game.phase == Phase.GRID:
        out.append(_frame(game, "Start: placing riders", [f"{picks} rider(s) placed so far"]))
    elif game.phase != Phase.OVER and picks:
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
    game = new_game(record.setup, record.seed)
    riders = tuple((r.id, getattr(r, "kind", "")) for r in game.riders)
    return Replay(heading, tuple(game_frames), info.over, game.course, riders, game.variant)


def load_replay(path: str | Path) -> Replay:
    """Load and verify a save (SaveError) and build its replay."""
    from ..saves import load_record

    return replay_of(load_record(path))


__all__ = ["Frame", "Replay", "frames", "load_replay", "replay_of"]
