"""A race round by round, from a save: what the table saw, never a hand.

`frames(setup, seed, actions)` replays the log and keeps, after the start
and after every resolved round, only public things: the track, the round's
log in words (cards revealed at the move phase), the ranking, and for
Meteo the weather dealt on the straights.  A race saved in the middle of a
round ends with a frame saying how many picks were made, not which.  The
log's undos (a player taking back the last card of their turn before
passing) are said in the round they happened in, by seat, never which card.

The seed of a race still in progress is not shown: with the log it tells
every hidden card.  This module must not import Textual.
"""

from __future__ import annotations

from typing import NamedTuple

from ..engine.phase import Phase
from ..words import plural
from .narrator import label, lane_word, place_words, where
from .races import describe_round, new_game, rider_name, track_picture
from .session import effective, undone


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
    crossed = getattr(game, "crossed", {})  # a tour stage: riders across the line have left the track
    if game.phase == Phase.GRID or any(p[0] < 0 for i, p in enumerate(game.pos) if i not in crossed):
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


def changed_words(game, action) -> str:
    """An undo in public words: whose card changed, never which."""
    seat = game.riders[game.index[action.rider]].seat
    return f"{game.setup.teams[seat].name} changed their last {game.rules.piece_word} before passing"


def frames(setup, seed: int, entries) -> list[Frame]:
    """The replay of a log (actions and undos)."""
    game = new_game(setup, seed)
    out: list[Frame] = []
    if game.phase != Phase.GRID:
        out.append(_frame(game, "Start", _weather_lines(game) + ["the riders on the grid"]))
    done = 0
    picks = 0  # actions in the round being played
    withdrawn = undone(entries)
    changed: list[str] = []  # the round's undos, in words
    for n, action in enumerate(effective(entries)):
        before = game.phase
        events = game.events
        changed += [changed_words(game, a) for a in withdrawn.get(n, ())]
        game.apply(action)
        picks += 1
        if before == Phase.GRID and game.phase != Phase.GRID:
            out.append(_frame(game, "Start", _weather_lines(game) + ["every rider placed on the grid"]))
            picks = 0
            continue
        if before == Phase.BREAKAWAY and game.events is not events:  # bids revealed (and, the last time, the result)
            title = "Breakaway" if game.phase != Phase.BREAKAWAY else f"Breakaway, bid {game.bid_round - 1}"
            out.append(_frame(game, title, describe_round(game)))
            picks = 0
            continue
        if game.rounds_done > done:
            done = game.rounds_done
            title = f"Round {done}" + (": finish" if game.phase == Phase.OVER else "")
            out.append(_frame(game, title, changed + describe_round(game, lambda sq: label(game.course, sq))))
            picks = 0
            changed = []
    # an undo after the last action in force: its card is being picked again
    changed += [changed_words(game, a) for a in withdrawn.get(len(effective(entries)), ())]
    if game.phase == Phase.GRID:
        out.append(_frame(game, "Start: placing riders", [f"{plural(picks, 'rider')} placed so far"]))
    elif game.phase == Phase.BREAKAWAY and picks:
        out.append(_frame(game, f"Breakaway, bid {game.bid_round}: in progress",
                          [f"{plural(picks, 'choice')} made; the bids are revealed together"]))
    elif game.phase != Phase.OVER and picks:
        out.append(_frame(
            game,
            f"Round {game.round}: in progress",
            [f"{plural(picks, 'pick')} made this round; cards are revealed when the round is played"] + changed,
        ))
    elif changed:  # every pick of the round in force taken back
        out.append(_frame(game, f"Round {game.round}: in progress", changed))
    return out


def stage_report(tour) -> list[str]:
    """A tour after its latest stage in words: the stage's times, the GC with
    gaps, the Tour Points (the replay's last frame of each stage)."""
    from ..engine.tour import gap_text
    from .races import rider_name

    done = tour.done[-1]
    game = done.game

    def name(rid: str) -> str:
        return rider_name(game, game.index[rid])

    k = len(tour.done)
    lines = [f"stage {k}/{tour.stages} times:"]
    lines += [f"  {line.place:>2}. {name(line.rider)} {gap_text(line.time)}" for line in done.result]
    lines.append(f"GC after stage {k}:")
    lines += [f"  {g.place:>2}. {name(g.rider)} {gap_text(g.gap)}" for g in tour.gc()]
    teams = tour.teams
    lines.append("Tour Points: " + ", ".join(f"{teams[t.team].name} {t.value}" for t in tour.ranking()))
    return lines


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
        out += [f._replace(title=f"Stage {k}: {f.title}") for f in staged]
        game = new_game(setup, seed)
        for action in effective(entries):
            game.apply(action)
        if game.phase == Phase.OVER:
            so_far.finish_stage(game)
            last = staged[-1]
            out.append(last._replace(title=f"Stage {k}: result", log=tuple(stage_report(so_far))))
    return out


def replay_of(record) -> Replay:
    """A Replay from a verified save (saves.load_record); a tour stage by stage."""
    info = record.info
    if record.tour is not None:
        teams = ", ".join(info.teams)
        if info.over:  # the seed tells every hidden card of every stage: only once the tour is over
            state = f"won by {info.winner}, seed {record.tour.seed}"
        else:
            state = f"stage {info.stage}/{info.stages} in progress"
        heading = f"{info.tour} (a tour of {plural(info.stages, 'stage')}), {teams}: {state}"
        return Replay(heading, tuple(_tour_frames(record)), info.over)
    game_frames = frames(record.setup, record.seed, record.actions)
    teams = ", ".join(info.teams)
    if info.over:
        state = f"won by {info.winner}, seed {record.seed}"
    else:
        state = f"saved in round {info.round}, race in progress"
    heading = f"{info.title} ({info.variant}), {teams}: {state}"
    game = new_game(record.setup, record.seed)
    riders = tuple((r.id, getattr(r, "kind", "")) for r in game.riders)
    return Replay(heading, tuple(game_frames), info.over, game.course, riders, game.variant)


__all__ = ["Frame", "Replay", "frames", "replay_of", "stage_report"]
