"""The narrator: every telling of the race in words, and the one square
numbering for every screen (track, boards, builder, podium, log).

Whoever tells the race (the race log and its "since your last look", the
replay, the command line's race output, the podium, the saves' summaries)
calls this module with actions, typed engine events and the game; nothing
stores the words: they are made when shown, so that the same race can later
be told in another language.  Every sentence is written whole, its parts as
named placeholders (`_("{rider} takes an exhaustion card")`): `_` (i18n)
gives it in the player's language when it is told, and no sentence is put
together from fragments of others.  Tables built at import time mark their
texts with `N_` and translate them when they are used.

The square numbering:

Squares are counted from the start line: the first square past it is 1, the
last square before the finish line is the line square (the stage's length
in squares, 68 on the rulebook's stages; a BMX lap of 28 squares ends on 28).
The grid squares behind the start line are G1 (just behind it), G2, ...
"To go" is how many squares a rider still has to move to cross the line.
The engine's own index (square 0 = the rearmost grid square) never shows.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .. import words
from ..engine.actions import Bid
from ..engine.bmx import token_text
from ..engine.cards import ATTACK, ROULEUR, SPRINTEUR, card_text
from ..engine.course import Course
from ..engine.events import (
    BY_CLIMB,
    BY_DESCENT,
    BY_STAND_UP,
    BY_SUPPLY,
    BidsRevealed,
    Breakaway,
    CatchUp,
    Crash,
    Crossed,
    Die,
    Event,
    Exhaustion,
    Fatigue,
    Finish,
    Move,
    Ramp,
    Reveal,
    Slipstream,
    StandUp,
)
from ..i18n import N_, _, ngettext, pgettext
from ..words import (
    WEATHER_EFFECTS,
    WEATHER_GLYPHS,
    bot_level,
    colour_name,
    ordinal,
    stage_name,
    terrain_glyph,
    tour_name,
    variant_word,
    weather_name,
)

Namer = Callable[[int], str]  # rider index -> its name
SquareNamer = Callable[[int], str]  # engine square -> its name (the UI counts from the start line)


# the rule sets' names as the engine writes them (RuleSet.title), to translate when shown
RULES_TITLES = {"Classic": N_("Classic"), "Meteo": N_("Meteo"), "BMX": N_("BMX")}


def rules_title(rules: Any) -> str:
    """A rule set's name in the player's language ("Classic" / "Classique" / "Clásico")."""
    return _(RULES_TITLES.get(rules.title, rules.title))


def number(course: Course, square: int) -> int:
    """The public number of an engine square (<= 0 on the grid)."""
    return square - course.grid + 1


def label(course: Course, square: int) -> str:
    """ "12", or "G2" for a grid square, or "-" for a rider not on the track yet."""
    if square < 0:
        return "-"
    n = number(course, square)
    return str(n) if n > 0 else f"G{1 - n}"


def line_square(course: Course) -> int:
    """The public number of the last square before the finish line."""
    return number(course, course.finish - 1)


def to_go(course: Course, square: int) -> int:
    """Squares to move to cross the finish line (0 or less: over it)."""
    return course.finish - square


def to_go_text(course: Course, square: int, short: bool = False) -> str:
    """ "9 to go", "2 past the line" ("2 past" if `short`) or "" off the track."""
    if square < 0:
        return ""
    n = to_go(course, square)
    if n > 0:
        return _("{n} to go").format(n=n)
    if short:
        return _("{n} past").format(n=1 - n)
    return _("{n} past the line").format(n=1 - n)


def chance_tens(odds: int) -> int:
    """A card's chance of the wind (Preview.wind_odds, in percent) as it is shown:
    to the nearest ten (sampled rounds: no finer), 0 under 10, 100 over 90."""
    return 0 if odds < 10 else 100 if odds > 90 else (odds + 5) // 10 * 10


def wind_chance(odds: int) -> str:
    """A card's chance of the wind in words: "about 60%", "under 10%", "over 90%"."""
    tens = chance_tens(odds)
    return _("under 10%") if tens == 0 else _("over 90%") if tens == 100 else _("about {n}%").format(n=tens)


def lane_word(variant: str, lane: int, lanes: int = 2) -> str:
    """Lane 0 is the right-hand lane (the inner lane of a BMX lap); on a
    three-lane square lane 1 is the middle lane, lane 2 the left one."""
    from ..engine.rules import find

    if find(variant).uses_tokens:
        return _("inner lane") if lane == 0 else _("outer lane")
    if lanes == 1:
        return _("single file")
    if lane == 0:
        return _("right lane")
    return _("middle lane") if lanes == 3 and lane == 1 else _("left lane")


def place_words(game: Any, square: int, lane: int) -> str:
    """ "grid 2, left lane" or "square 12, right lane"."""
    n = number(game.course, square)
    lane_text = lane_word(game.variant, lane, game.course.lanes[square])
    if n > 0:
        return _("square {n}, {lane}").format(n=n, lane=lane_text)
    return _("grid {n}, {lane}").format(n=1 - n, lane=lane_text)


def where(course: Course, square: int) -> str:
    """ "square 12 · 57 to go" (the words the boards, log and podium use)."""
    if square < 0:
        return _("not placed")
    n = number(course, square)
    if n > 0:
        return _("square {n} · {to_go}").format(n=n, to_go=to_go_text(course, square))
    return _("grid {n} · {to_go}").format(n=1 - n, to_go=to_go_text(course, square))


# ------------------------------------------------------------ riders, cards


def kind_name(kind: str) -> str:
    """A rider's kind in words: "Sprinteur", "Rouleur" ("rider" for a BMX rider)."""
    if kind == SPRINTEUR:
        return _("Sprinteur")
    if kind == ROULEUR:
        return _("Rouleur")
    return _("rider")


def rider_name(game: Any, i: int, *, as_saved: bool = False) -> str:
    """ "Red Sprinteur", "Ann (Red Rouleur)" for a player racing one rider, the seat's name in BMX;
    the team named as the player reads it (team_name), or `as_saved`: as its set-up holds it (a
    save's summary, checked against the race when it is read, has always been written so)."""
    r = game.riders[i]
    seat = game.setup.teams[r.seat]
    name = seat.name if as_saved else team_name(game, r.seat)
    if game.rules.uses_tokens:
        return name
    kind = kind_name(SPRINTEUR if r.kind == SPRINTEUR else ROULEUR)
    if len(seat.riders) == 1:  # a player racing one rider: its name, and which rider
        return _("{seat} ({colour} {kind})").format(seat=name, colour=colour_name(seat.colour), kind=kind)
    return _("{seat} {kind}").format(seat=name, kind=kind)


def played_text(game: Any, played: Any) -> str:
    """A card ("5", "E2") or BMX tokens ("3+F") as written."""
    if game.rules.uses_tokens:
        return "+".join(token_text(t) for t in played)
    return card_text(played)


def _move_played(e: Move) -> str:
    if e.card is None:
        return "+".join(token_text(t) for t in e.tokens)
    return card_text(e.card)


# ------------------------------------------------------------------ events


def move_reason_words(reason: int) -> str:
    """Why a move was worth other than its card (engine.events.Move.reason, set by
    the rules as they applied), in words and in the rules' order: "descent", "climb",
    "descent and standing up"."""
    parts = [word for bit, word in ((BY_DESCENT, terrain_word("descent")), (BY_SUPPLY, terrain_word("supply")),
                                    (BY_STAND_UP, _("standing up")), (BY_CLIMB, terrain_word("climb")))
             if reason & bit]
    return _(" and ").join(parts)


def _move_line(e: Move, name: Namer, square: SquareNamer) -> str:
    blocked = e.square < e.start + e.moves
    words = dict(rider=name(e.rider), card=_move_played(e), moves=e.moves, start=square(e.start), end=square(e.square),
                 why=move_reason_words(e.reason))
    if e.card == ATTACK and e.reason:
        text = _("{rider} plays {card} (Attack), moves {moves}: {why}, {start} → {end} blocked") if blocked else _(
            "{rider} plays {card} (Attack), moves {moves}: {why}, {start} → {end}")
    elif e.card == ATTACK:
        text = _("{rider} plays {card} (Attack, moves {moves}), {start} → {end} blocked") if blocked else _(
            "{rider} plays {card} (Attack, moves {moves}), {start} → {end}")
    elif e.card is not None and e.reason:
        text = _("{rider} plays {card}, moves {moves}: {why}, {start} → {end} blocked") if blocked else _(
            "{rider} plays {card}, moves {moves}: {why}, {start} → {end}")
    elif e.card is not None and e.moves != e.value:
        text = _("{rider} plays {card} (moves {moves}), {start} → {end} blocked") if blocked else _(
            "{rider} plays {card} (moves {moves}), {start} → {end}")
    else:
        text = _("{rider} plays {card}, {start} → {end} blocked") if blocked else _(
            "{rider} plays {card}, {start} → {end}")
    return text.format(**words)


def event_line(e: Event, name: Namer, square: SquareNamer = str) -> str:
    """One engine event in words, as the race log shows it (a line that
    belongs to the move above it starts with two spaces)."""
    if isinstance(e, Move):
        return _move_line(e, name, square)
    if isinstance(e, Ramp):
        return _("  jump ramp: {rider} flies {bonus} squares further").format(rider=name(e.rider), bonus=e.bonus)
    if isinstance(e, Slipstream):
        return _("  slipstream: {rider} {start} → {end}").format(
            rider=name(e.rider), start=square(e.start), end=square(e.square))
    if isinstance(e, CatchUp):
        return _("  catch-up: {rider} {start} → {end}").format(
            rider=name(e.rider), start=square(e.start), end=square(e.square))
    if isinstance(e, Exhaustion):
        return _("  exhaustion: {rider} takes an exhaustion card").format(rider=name(e.rider))
    if isinstance(e, Fatigue):
        text = ngettext("  fatigue: {rider} takes {n} fatigue token", "  fatigue: {rider} takes {n} fatigue tokens",
                        e.tokens)
        return text.format(rider=name(e.rider), n=e.tokens)
    if isinstance(e, Crash):
        return _("  crash: {rider} crashes on the wet road").format(rider=name(e.rider))
    if isinstance(e, StandUp):
        return _("  {rider} stands up").format(rider=name(e.rider))
    if isinstance(e, Die):
        return _("  die: {face}").format(face=e.face) if e.face else _("  die: no catch-up")
    if isinstance(e, Finish):
        text = _("  {rider} wins the stage!") if e.stage else _("  {rider} wins the race!")
        return text.format(rider=name(e.rider))
    if isinstance(e, Crossed):
        text = ngettext("  {rider} crosses the line, {n} square past it", "  {rider} crosses the line, {n} squares past it",
                        e.past)
        return text.format(rider=name(e.rider), n=e.past)
    if isinstance(e, BidsRevealed):
        shown = _(", ").join(_("{rider} {card}").format(rider=name(i), card=card_text(c)) for i, c in e.cards)
        return _("breakaway, bid {n}: {bids}").format(n=e.bid, bids=shown)
    if isinstance(e, Breakaway):
        sums = _(", ").join(_("{rider} {cards} = {total}").format(
            rider=name(i), cards="+".join(card_text(c) for c in cards), total=total) for i, cards, total in e.bids)
        away = _(" and ").join(name(i) for i in e.winners)
        text = _("breakaway: {bids}; {riders} break away to {square}") if len(e.winners) > 1 else _(
            "breakaway: {bids}; {riders} breaks away to {square}")
        return text.format(bids=sums, riders=away, square=square(e.square))
    return e.kind


def describe_round(game: Any, square: SquareNamer | None = None) -> list[str]:
    """The last resolved round in words, one line per event; `square` names a
    square (by default as every screen does: counted from the start line, `label`)."""
    namer = square or (lambda sq: label(game.course, sq))
    return [event_line(e, lambda i: rider_name(game, i), namer) for e in game.events if not isinstance(e, Reveal)]


# ------------------------------------------------------- the command line


def round_report(game: Any, extra: Sequence[str] = ()) -> list[str]:
    """The headless log of the round just resolved: its number, any bot reasons
    (`extra`), the events in words, a one-line track picture and the positions."""
    return (
        [_("Round {n}").format(n=game.rounds_done)]
        + [f"  {line}" for line in extra]
        + [f"  {line}" for line in describe_round(game)]
        + [_("  track: {track}").format(track=track_picture(game)),
           _("         {positions}").format(positions=positions_text(game))]
    )


def track_picture(game: Any) -> str:
    """One line: the track from the grid to past the finish, riders per square as a
    count, the terrain in the app track's symbols (words.TERRAIN_GLYPHS)."""
    course = game.course
    last = max(course.finish + 2, max(p[0] for p in game.pos) + 1)
    count = [0] * (last + 1)
    for p in game.pos:
        if p[0] >= 0:  # a tour: a rider across the line has left the track
            count[p[0]] += 1
    chars = []
    for sq in range(last + 1):
        if sq == course.grid:
            chars.append("|")
        if sq == course.finish:
            chars.append("|")
        chars.append(str(count[sq]) if count[sq] else terrain_glyph(course.terrain[sq]))
    return "".join(chars)


def rider_colour(game: Any, i: int) -> str:
    """A rider by its team's colour and its kind, in the player's language, whatever
    the seat's name: "Red Sprinteur" / "Sprinteur Rouge" / "Sprinteur Rojo"; a BMX
    rider by its colour ("Blue").  The command line's positions, short and alike
    for every seat, where the race's rider ids ("red.S") are no words."""
    r = game.riders[i]
    colour = colour_name(game.setup.teams[r.seat].colour)
    if game.rules.uses_tokens:
        return colour
    return _("{colour} {kind}").format(colour=colour, kind=kind_name(SPRINTEUR if r.kind == SPRINTEUR else ROULEUR))


def positions_text(game: Any) -> str:
    """Every rider by its colour and kind, ranked, where it is as the boards say it:
    "Red Sprinteur: square 12 · 57 to go  Blue Rouleur: grid 1 · 69 to go ..."
    (a tour stage's rider across the line: where it crossed, "square 70 · 2 past the line")."""
    crossed = getattr(game, "crossed", {})
    return "  ".join(
        _("{rider}: {place}").format(rider=rider_colour(game, i),
                                     place=where(game.course, crossed[i][1] if i in crossed else game.pos[i][0]))
        for i in game.ranking())


def ranking_lines(game: Any) -> list[str]:
    """The final ranking, one line per rider, as the replay's (ranking_line): " 1. Red
    Sprinteur: square 70 · 2 past the line (left lane)"; a tour stage's riders across
    the line when and where they crossed (finish_words)."""
    finished = finish_words(game)
    return [ranking_line(game, place, i, finished) for place, i in enumerate(game.ranking(), 1)]


# ------------------------------------------------------------ the race log
#
# The race log is kept as notes: what happened, as data (seats and riders by
# number, engine events as they are), told in words only when shown.


@dataclass(frozen=True, slots=True)
class Heading:
    """The race's first line: the course and rules, or the tour's stage."""

    tour: str = ""  # the tour's name, "" for a race
    stage: int = 0
    stages: int = 0


@dataclass(frozen=True, slots=True)
class Jersey:
    rider: int  # the yellow jersey's rider (the GC leader before this stage)


@dataclass(frozen=True, slots=True)
class BreakawayStarts:
    pass


@dataclass(frozen=True, slots=True)
class RoundStarts:
    round: int


@dataclass(frozen=True, slots=True)
class Placed:
    rider: int
    square: int
    lane: int
    bot: bool = False


@dataclass(frozen=True, slots=True)
class Bidder:
    """A seat chose the rider that bids for the breakaway (which card: never said)."""

    rider: int
    bot: bool = False


@dataclass(frozen=True, slots=True)
class DrawsFirst:
    rider: int
    bot: bool = False


@dataclass(frozen=True, slots=True)
class BidDown:
    seat: int
    bot: bool = False


@dataclass(frozen=True, slots=True)
class BotChose:
    """A bot seat's choices of the round, in public: who drew first (None: no choice to say)."""

    seat: int
    first: int | None = None


@dataclass(frozen=True, slots=True)
class Changed:
    """A seat took back the last card of its turn before passing (never which)."""

    seat: int


@dataclass(frozen=True, slots=True)
class HintTaken:
    """A person was shown a hint (the expert's card): said to the whole table."""

    seat: int


@dataclass(frozen=True, slots=True)
class Told:
    """An engine event of a resolved round (or of the breakaway)."""

    event: Event


@dataclass(frozen=True, slots=True)
class Reason:
    """A bot's public reason, said once the cards are revealed (the bot's own words)."""

    seat: int
    policy: str
    reason: str
    rider: int | None = None  # the rider it played for (said when the seat has more than one)


@dataclass(frozen=True, slots=True)
class WeatherKey:
    """Meteo: what the track's weather marks mean (the curtain's legend says it too,
    but a player racing bots alone never sees a curtain)."""


@dataclass(frozen=True, slots=True)
class Resumed:
    round: int


@dataclass(frozen=True, slots=True)
class Branched:
    """A race resumed from a backup goes on in a new file; the newer one is left alone."""

    old: str
    new: str


Note = (Heading | WeatherKey | Jersey | BreakawayStarts | RoundStarts | Placed | Bidder | DrawsFirst | BidDown
        | BotChose | Changed | HintTaken | Told | Reason | Resumed | Branched)


def team_name(game: Any, seat: int) -> str:
    """A seat's team as the player reads it: named by default, in the language now (words.team_name)."""
    return words.team_name(game.setup, seat)


def _seat_of(game: Any, rider: int) -> int:
    return game.riders[rider].seat


def _kind_of(game: Any, rider: int) -> str:
    return kind_name(game.riders[rider].kind)


def changed_words(game: Any, seat: int) -> str:
    """An undo in public words: who took their last card back (to play it or
    another: never which), the same words at a hot-seat table and against bots."""
    text = _("{seat} took their last token back") if game.rules.uses_tokens else _(
        "{seat} took their last card back")
    return text.format(seat=team_name(game, seat))


def note_line(note: Note, game: Any) -> str:
    """One note of the race log in words (squares counted from the start line)."""
    if isinstance(note, Told):
        return event_line(note.event, lambda i: rider_name(game, i), lambda sq: label(game.course, sq))
    if isinstance(note, RoundStarts):
        return _("── Round {n} ──").format(n=note.round)
    if isinstance(note, BreakawayStarts):
        return _("── Breakaway ──")
    if isinstance(note, Placed):
        text = _("{seat} (bot) places the {kind} on {place}") if note.bot else _("{seat} places the {kind} on {place}")
        return text.format(seat=team_name(game, _seat_of(game, note.rider)), kind=_kind_of(game, note.rider),
                           place=place_words(game, note.square, note.lane))
    if isinstance(note, Bidder):
        text = _("{seat} (bot): the {kind} bids for the breakaway") if note.bot else _(
            "{seat}: the {kind} bids for the breakaway")
        return text.format(seat=team_name(game, _seat_of(game, note.rider)), kind=_kind_of(game, note.rider))
    if isinstance(note, DrawsFirst):
        text = _("{seat} (bot): {kind} draws first") if note.bot else _("{seat}: {kind} draws first")
        return text.format(seat=team_name(game, _seat_of(game, note.rider)), kind=_kind_of(game, note.rider))
    if isinstance(note, BidDown):
        text = _("{seat} (bot): bid down") if note.bot else _("{seat}: bid down")
        return text.format(seat=team_name(game, note.seat))
    if isinstance(note, BotChose):
        if note.first is not None:
            return _("{seat} (bot): {kind} draws first; cards chosen").format(
                seat=team_name(game, note.seat), kind=_kind_of(game, note.first))
        # (BMX: one rider, one token or two on a descent: "their tokens" read wrong for one)
        text = _("{seat} (bot) has made its choice") if game.rules.uses_tokens else _(
            "{seat} (bot) has chosen their cards")
        return text.format(seat=team_name(game, note.seat))
    if isinstance(note, Changed):
        return changed_words(game, note.seat)
    if isinstance(note, HintTaken):
        return _("{seat} asked the expert for a hint").format(seat=team_name(game, note.seat))
    if isinstance(note, Reason):
        if note.rider is not None and len(game.seats[note.seat]) > 1:  # which rider played
            return _("{seat} (bot, {policy}), {kind}: {reason}").format(
                seat=team_name(game, note.seat), policy=bot_level(note.policy), kind=_kind_of(game, note.rider),
                reason=reason_words(note.reason))
        return _("{seat} (bot, {policy}): {reason}").format(
            seat=team_name(game, note.seat), policy=bot_level(note.policy), reason=reason_words(note.reason))
    if isinstance(note, Heading):
        if note.tour:
            return _("{tour}, stage {stage}/{stages}: {course} · {rules}").format(
                tour=tour_name(note.tour), stage=note.stage, stages=note.stages, course=stage_name(game.course.name),
                rules=rules_title(game.rules))
        return _("{course}: {rules} race").format(course=stage_name(game.course.name), rules=rules_title(game.rules))
    if isinstance(note, WeatherKey):
        return weather_key(game)
    if isinstance(note, Jersey):
        return _("◆ yellow jersey: {seat} {kind}").format(
            seat=team_name(game, _seat_of(game, note.rider)), kind=_kind_of(game, note.rider))
    if isinstance(note, Resumed):
        return _("(resumed at round {n})").format(n=note.round)
    if isinstance(note, Branched):
        return _("({words})").format(words=branched_words(note.old, note.new))
    raise TypeError(f"not a note of the race log: {note!r}")


def terrain_word(terrain: str) -> str:
    """The terrain that changed a card's value (engine.options.Preview.terrain), in words."""
    words = {"climb": _("climb"), "descent": _("descent"), "supply": pgettext("terrain", "supply zone")}
    return words.get(terrain, terrain)


# A bot's public reason is the bot's own English (bots/ import nothing but the
# engine, so they cannot speak the player's language): a few fixed shapes,
# told again here in the player's language when shown.  A reason of another
# shape (a bot added later) is shown as it is.
_PLAYS = re.compile(r"plays (?P<cards>[^:]+?)(?:: (?P<rest>.+))?")
_DRAWS = re.compile(r"the (?P<kind>Rouleur|Sprinteur|rouleur|sprinteur) draws(?P<first> first)?")
_LANDS = re.compile(r"lands (?P<where>in the wind at the front of its group|behind a rider, out of the wind)"
                    r"(?P<why>, on a climb that caps the card|, held up by riders in the way)?"
                    r" \(if the others stood still\)")


def move_words(text: str) -> str | None:
    """What a bot's card does, from its public reason ("over the line", "lands
    behind a rider, out of the wind (if the others stood still)"), in the
    player's language; None if the words are not the bots' own."""
    if text == "over the line":
        return _("over the line")
    m = _LANDS.fullmatch(text)
    if m is None:
        return None
    front, why = m["where"].startswith("in the wind"), m["why"] or ""
    if "climb" in why:
        return _("lands in the wind at the front of its group, on a climb that caps the card (if the others "
                 "stood still)") if front else _("lands behind a rider, out of the wind, on a climb that caps the "
                                                 "card (if the others stood still)")
    if "held up" in why:
        return _("lands in the wind at the front of its group, held up by riders in the way (if the others "
                 "stood still)") if front else _("lands behind a rider, out of the wind, held up by riders in the "
                                                 "way (if the others stood still)")
    return _("lands in the wind at the front of its group (if the others stood still)") if front else _(
        "lands behind a rider, out of the wind (if the others stood still)")


def reason_words(text: str) -> str:
    """A bot's public reason (bots/: "plays 7: over the line", "the Rouleur
    draws first", "front-most free place") in the player's language."""
    if text == "front-most free place":
        return _("front-most free place")
    m = _PLAYS.fullmatch(text)
    if m is not None:
        if m["rest"] is None:
            return _("plays {cards}").format(cards=m["cards"])
        rest = move_words(m["rest"])
        return text if rest is None else _("plays {cards}: {what}").format(cards=m["cards"], what=rest)
    m = _DRAWS.fullmatch(text)
    if m is not None:
        kind = kind_name(ROULEUR if m["kind"].lower() == "rouleur" else SPRINTEUR)
        return (_("the {kind} draws first") if m["first"] else _("the {kind} draws")).format(kind=kind)
    return text


# The engine's reasons for refusing a set-up (engine.seating and engine.classic raise ValueError
# in English: the engine imports no i18n), told in the player's language where a player meets
# them: the command line's error line, the teams screen's problem line
_SETUP_PLAIN = {
    "every seat races a team, or every seat races one rider": N_(
        "every seat races a team, or every seat races one rider"),
    "a race with scripted teams needs at least one other team": N_(
        "a race with scripted teams needs at least one other team"),
    "the game of one rider per player has no scripted teams": N_(
        "the game of one rider per player has no scripted teams"),
    "at most one Peloton team races (there are two Attack cards)": N_(
        "at most one Peloton team races (there are two Attack cards)"),
    "the starting grid has too few places for the riders": N_("the starting grid has too few places for the riders"),
    "this stage has no breakaway square (its second tile is not tile 2)": N_(
        "this stage has no breakaway square (its second tile must be Peloton tile 2)"),
    "the starting grid has no room behind the scripted team's front rider": N_(
        "the starting grid has no room behind the scripted team's front rider"),
}
_SAME_RIDER = re.compile(r"two seats race the same rider \((?P<colour>[^).]+)(?:\.(?P<kind>[SR]))?\): "
                         r"each seat needs a (?P<what>rider|colour) of its own")


def setup_words(text: str) -> str:
    """Why the engine refuses a set-up, in the player's language (a text it does not know: as it is)."""
    if text in _SETUP_PLAIN:
        return _(_SETUP_PLAIN[text])
    m = _SAME_RIDER.fullmatch(text)
    if m is not None:
        colour = colour_name(m["colour"])
        rider = colour if m["kind"] is None else _("{colour} {kind}").format(
            colour=colour, kind=kind_name(SPRINTEUR if m["kind"] == SPRINTEUR else ROULEUR))
        said = (_("two seats race the same rider ({rider}): each seat needs a rider of its own") if m["what"] == "rider"
                else _("two seats race the same rider ({rider}): each seat needs a colour of its own"))
        return said.format(rider=rider)
    return text


# The bots' full reasons (for the owner of a headless race: `flamme-tui race`), as bots/
# writes them in English (bots import only the engine): each one's form, told again in words
_NUM = r"-?\d+(?:\.\d+)?"
_FULL_HARD = re.compile(
    rf"(?P<card>.+?) wins (?P<wins>\d+)/(?P<n>\d+) sampled futures, place (?P<place>{_NUM}), worth (?P<worth>{_NUM}) "
    rf"\(next best (?P<card2>.+?): (?P<wins2>\d+)/\d+, place (?P<place2>{_NUM}), worth (?P<worth2>{_NUM})\)")
_FULL_EXPERT = re.compile(
    rf"(?P<card>.+?) scores (?P<score>{_NUM}) over (?P<n>\d+) sampled races \(wins (?P<wins>\d+)\), next best "
    rf"(?P<card2>.+?): (?P<score2>{_NUM}) over (?P<n2>\d+); (?P<rollouts>\d+) rollouts, (?P<candidates>\d+) "
    rf"candidates, (?P<left>\d+) left")
_FULL_BEFORE = re.compile(
    rf"(?P<card>.+?) scores (?P<score>{_NUM}) over (?P<n>\d+) sampled futures \(next best (?P<card2>.+?): "
    rf"(?P<score2>{_NUM})\)")
_FULL_DRAW = re.compile(r"best answers over (?P<n>\d+) (?:futures|sampled worlds \((?P<rollouts>\d+) rollouts\)): "
                        r"(?P<list>.+)")
_DRAWER = re.compile(rf"the (?P<kind>Rouleur|Sprinteur) first (?P<value>{_NUM})")
_FULL_PLAIN = {
    "no choice worth weighing": N_("no choice worth weighing"),
    "no choice": N_("no choice"),
    "one rider to draw": N_("one rider to draw"),
}


def _numbers(text: str) -> str:
    """Decimals as the language writes them (0,59 in French and Spanish)."""
    return re.sub(r"(\d)\.(\d)", r"\1,\2", text) if decimal(0.5) != "0.5" else text


def measure_words(text: str) -> str:
    """A bot's full reason (its measures: wins over sampled futures, scores) in the
    player's language; a form it does not know as it is."""
    if text in _FULL_PLAIN:
        return _(_FULL_PLAIN[text])
    said = reason_words(text)
    if said != text:
        return said
    m = _FULL_HARD.fullmatch(text)
    if m is not None:
        said = _("{card} wins {wins}/{n} sampled futures, place {place}, worth {worth} (next best {card2}: "
                 "{wins2}/{n}, place {place2}, worth {worth2})").format(**m.groupdict())
        return _numbers(said)
    m = _FULL_EXPERT.fullmatch(text)
    if m is not None:
        said = _("{card} scores {score} over {n} sampled races (wins {wins}), next best {card2}: {score2} over "
                 "{n2}; {rollouts} rollouts, {candidates} candidates, {left} left").format(**m.groupdict())
        return _numbers(said)
    m = _FULL_BEFORE.fullmatch(text)
    if m is not None:
        said = _("{card} scores {score} over {n} sampled futures (next best {card2}: {score2})").format(**m.groupdict())
        return _numbers(said)
    m = _FULL_DRAW.fullmatch(text)
    if m is not None:
        parts = [_DRAWER.fullmatch(p) for p in m["list"].split(" vs ")]
        if all(parts):
            listed = _(" vs ").join(
                _("the {kind} first {value}").format(
                    kind=kind_name(ROULEUR if p["kind"] == "Rouleur" else SPRINTEUR), value=p["value"])
                for p in parts if p is not None)
            said = (_("best answers over {n} futures: {list}") if m["rollouts"] is None else
                    _("best answers over {n} sampled worlds ({rollouts} rollouts): {list}")).format(
                n=m["n"], rollouts=m["rollouts"], list=listed)
            return _numbers(said)
    return text


def action_words(game: Any, action: Any) -> str:
    """A bot's action in words for the headless log: "Red Rouleur plays 5", "Red Sprinteur draws"."""
    text = str(action)
    verb, _sep, rest = text.partition(" ")
    rider_id, _sep, values = rest.partition(" ")
    index = next((i for i, r in enumerate(game.riders) if r.id == rider_id), None)
    if index is None:
        return text
    rider = rider_name(game, index)
    if verb == "play":
        return _("{rider} plays {cards}").format(rider=rider, cards=values)
    if verb == "draw":
        return _("{rider} draws").format(rider=rider)
    if verb == "bid":
        return _("{rider} bids {cards}").format(rider=rider, cards=values)
    if verb == "place":
        square, _sep, lane = values.partition(" ")
        if square.isdigit() and lane.isdigit():  # (the action's engine square and lane, said as the boards say them)
            return _("{rider} takes {place}").format(rider=rider, place=place_words(game, int(square), int(lane)))
    return text


def branched_words(old: str, new: str) -> str:
    return _("{old} goes on as the new race file {new}; the newer version is left as it is").format(old=old, new=new)


# ------------------------------------------------------------ the replay


def weather_kinds(course: Course) -> list[str]:
    """Meteo: the kinds of weather on the race's squares, in the order the race meets them
    (a legend names only those: a reviewer read tailwind and headwind in the legend of a race with none)."""
    return list(dict.fromkeys(kind for kind in (course.weather or ())[:course.length] if kind in WEATHER_GLYPHS))


def weather_key(game: Any) -> str:
    """Meteo: the track's weather marks and what each does ("» tailwind: draw 5 cards · ~ wet
    road: crash if blocked"), the kinds on this course only."""
    return " · ".join(_("{glyph} {kind}: {effect}").format(glyph=WEATHER_GLYPHS[kind], kind=weather_name(kind),
                                                          effect=_(WEATHER_EFFECTS[kind]))
                      for kind in weather_kinds(game.course))


def weather_lines(game: Any) -> list[str]:
    """Meteo: the weather dealt on the straights, tile by tile."""
    weather = game.course.weather
    if not weather:
        return []
    lines = []
    for tile in game.course.tiles:
        kind = weather[tile.first] if tile.first < len(weather) else ""
        if kind:
            first, last = label(game.course, tile.first), label(game.course, tile.first + tile.length - 1)
            lines.append(_("weather: {kind} on tile {tile} (squares {first}-{last})").format(
                kind=weather_name(kind), tile=tile.letter, first=first, last=last))
    return lines or [_("weather: fair everywhere")]


def finish_words(game: Any) -> dict[int, str]:
    """A tour stage: each rider across the line (it has left the track) in
    words: "finished in round 14, 2 past the line, +0:40" (its stage time)."""
    crossed = getattr(game, "crossed", {})
    if not crossed:
        return {}
    from ..engine.tour import stage_of

    times = {line.rider: stage_time(line) for line in stage_of(game)}
    return {i: _("finished in round {round}, {past} past the line, {time}").format(
                round=rnd, past=square - game.course.finish + 1, time=times[game.riders[i].id])
            for i, (rnd, square, _lane) in crossed.items()}


def placed_words(game: Any, i: int, finished: dict[int, str] | None = None) -> str:
    """ "Red Sprinteur: square 12, left lane" (`finished`: finish_words, for a tour stage)."""
    place = (finished or {}).get(i) or place_words(game, *game.pos[i])
    return _("{rider}: {place}").format(rider=rider_name(game, i), place=place)


def ranking_line(game: Any, place: int, i: int, finished: dict[int, str] | None = None) -> str:
    """ " 1. Red Sprinteur: square 70 · 2 past the line (left lane)"."""
    done = (finished or {}).get(i)
    if done:
        return _("{place:>2}. {rider}: {finish}").format(place=place, rider=rider_name(game, i), finish=done)
    return _("{place:>2}. {rider}: {where} ({lane})").format(
        place=place, rider=rider_name(game, i), where=where(game.course, game.pos[i][0]),
        lane=lane_word(game.variant, game.pos[i][1], lanes_at(game.course, game.pos[i][0])))


def lanes_at(course: Course, square: int) -> int:
    """The lanes of a square (past the last tile: two, RULES.md), for its lane's word."""
    lanes = course.lanes
    return lanes[square] if 0 <= square < len(lanes) else 2


# what a replay's frames say in a word or a sentence: whole, each with its placeholders
REPLAY = {
    "start": N_("Start"),
    "start placing": N_("Start: placing riders"),
    "breakaway": N_("Breakaway"),
    "breakaway bid": N_("Breakaway, bid {n}"),
    "breakaway in progress": N_("Breakaway, bid {n}: in progress"),
    "round": N_("Round {n}"),
    "round finish": N_("Round {n}: finish"),
    "round in progress": N_("Round {n}: in progress"),
    "stage": N_("Stage {k}: {title}"),
    "stage result": N_("Stage {k}: result"),
    "on the grid": N_("the riders on the grid"),
    "all placed": N_("every rider placed on the grid"),
    "being placed": N_("(riders being placed on the grid)"),
    "nobody placed": N_("nobody placed yet"),
    "tour heading": N_("{tour} (a tour of {stages}), {teams}: {state}"),
    "race heading": N_("{title} · {variant}, {teams}: {state}"),
    "won": N_("won by {winner}, seed {seed}"),
    "stage in progress": N_("stage {k}/{n} in progress"),
    "race in progress": N_("saved in round {n}, race in progress"),
    "frame": N_("== {title} ({n}/{of}) =="),
    "track": N_("track: {track}"),
    "positions": N_("       {positions}"),
    "ranking": N_("ranking:"),
}


def replay_says(key: str, **values: Any) -> str:
    """One of the replay's texts (REPLAY) with its values."""
    return _(REPLAY[key]).format(**values)


def placed_so_far(n: int) -> str:
    return ngettext("{n} rider placed so far", "{n} riders placed so far", n).format(n=n)


def choices_made(n: int) -> str:
    return ngettext("{n} choice made; the bids are revealed together", "{n} choices made; the bids are revealed together",
                    n).format(n=n)


def picks_made(n: int) -> str:
    """How many cards (tokens) lie face down in the round in progress (never which)."""
    return ngettext("{n} card chosen this round; cards are revealed when the round is played",
                    "{n} cards chosen this round; cards are revealed when the round is played", n).format(n=n)


def stage_time(line: Any) -> str:
    """A rider's stage time (an engine.tour.StageLine) as every screen says it:
    its gap to the winner on the road, a group's riders sharing it, and the
    bonus beside ("0:00 -10s"), which the GC takes off."""
    from ..engine.tour import gap_text

    return gap_text(line.road) + (f" -{line.bonus}s" if line.bonus else "")


def stages_word(n: int) -> str:
    return ngettext("{n} stage", "{n} stages", n).format(n=n)


def stage_report(tour: Any) -> list[str]:
    """A tour after its latest stage in words: the stage's times, the GC with
    gaps, the Tour Points (the replay's last frame of each stage)."""
    from ..engine.tour import gap_text

    done = tour.done[-1]
    game = done.game

    def name(rid: str) -> str:
        return rider_name(game, game.index[rid])

    k = len(tour.done)
    lines = [_("stage {k}/{n} times:").format(k=k, n=tour.stages)]
    lines += [_("  {place:>2}. {rider} {time}").format(place=line.place, rider=name(line.rider), time=stage_time(line))
              for line in done.result]
    lines.append(_("GC after stage {k}:").format(k=k))
    lines += [_("  {place:>2}. {rider} {time}").format(place=g.place, rider=name(g.rider), time=gap_text(g.gap))
              for g in tour.gc()]
    points = _(", ").join(_("{team} {points}").format(team=words.team_name(tour.legs[0], t.team), points=t.value)
                          for t in tour.ranking())
    lines.append(_("Tour Points: {points}").format(points=points))
    return lines


# --------------------------------------------------- the command line's race

CLI = {
    "heading with bots": N_("{course} · {variant}, seed {seed}, {n} {who}: {seats}"),
    "heading": N_("{course} · {variant}, seed {seed}, {n} teams"),
    "players": N_("players"),
    "teams": N_("teams"),
    "seat and bot": N_("{seat} ({bot})"),
    "start": N_("start:    {track}"),
    "picture": N_("          {track}"),
    "bot reason": N_("({seat} bot: {action}: {why})"),
    "final ranking": N_("Final ranking"),
}


def cli_says(key: str, **values: Any) -> str:
    """One of the command line's race texts (CLI) with its values."""
    return _(CLI[key]).format(**values)


def race_heading(game: Any, seed: int, bots: Sequence[str] | None = None, players: bool = False) -> str:
    """The first line of `flamme-tui race`: the course, rules, seed and seats (with their bots)."""
    values = dict(course=stage_name(game.course.name), variant=variant_word(game.variant), seed=seed, n=len(game.setup.teams))
    if bots is None:
        return cli_says("heading", **values)
    seats = _(", ").join(cli_says("seat and bot", seat=team_name(game, s), bot=bot_level(bots[s]))
                         for s in range(len(game.setup.teams)))
    return cli_says("heading with bots", who=cli_says("players" if players else "teams"), seats=seats, **values)


def start_lines(game: Any) -> list[str]:
    """The track before the first round: its picture and every rider's place (engine squares)."""
    return [cli_says("start", track=track_picture(game)), cli_says("picture", track=positions_text(game))]


def picture_lines(game: Any) -> list[str]:
    return [cli_says("picture", track=track_picture(game)), cli_says("picture", track=positions_text(game))]


def resumed_words(game: Any) -> str:
    text = ngettext("resumed {course} · {variant} in round {round} after {n} action",
                    "resumed {course} · {variant} in round {round} after {n} actions", len(game.actions))
    return text.format(course=stage_name(game.course.name), variant=variant_word(game.variant), round=game.round,
                       n=len(game.actions))


def hidden_breakaway(game: Any, choices: int, winners: Sequence[int]) -> str:
    """A breakaway begun face down before a save: who broke away, nothing of the cards."""
    text = ngettext("breakaway (begun before the save with {n} choice face down: its cards are not shown): {riders} away",
                    "breakaway (begun before the save with {n} choices face down: its cards are not shown): {riders} away",
                    choices)
    return text.format(n=choices, riders=_(" and ").join(rider_name(game, i) for i in winners))


def hidden_round(game: Any, round: int, cards: int) -> str:
    """A round begun before a save with `cards` cards (tokens) face down: nothing of its cards."""
    text = ngettext("Round {round}\n  (begun before the save with {n} card face down: its cards are not shown)\n"
                    "  track: {track}",
                    "Round {round}\n  (begun before the save with {n} cards face down: its cards are not shown)\n"
                    "  track: {track}", cards)
    return text.format(round=round, n=cards, track=track_picture(game))


def tour_report(tour: Any, done: Any) -> list[str]:
    """What the headless `tour` command prints after a stage: its times, the GC, the Tour Points."""
    from ..engine.tour import gap_text

    k = len(tour.done)
    game = done.game

    def name(rid: str) -> str:
        return rider_name(game, game.index[rid])

    rounds = ngettext("{n} round", "{n} rounds", game.round).format(n=game.round)
    lines = [_("Stage {k}/{n}: {course} · {variant}, {rounds}").format(
        k=k, n=tour.stages, course=stage_name(game.course.name), variant=variant_word(game.variant), rounds=rounds)]
    for line in done.result:
        lines.append(_("  {place:>2}. {rider:<24} {time:>7}").format(
            place=line.place, rider=name(line.rider), time=stage_time(line)))
    lines.append(_("GC after stage {k}").format(k=k))
    for g in tour.gc():
        lines.append(_("  {place:>2}. {rider:<24} {time:>7}").format(
            place=g.place, rider=name(g.rider), time=gap_text(g.gap)))
    points = _(", ").join(_("{team} {points}").format(team=words.team_name(tour.legs[0], t.team), points=t.value)
                          for t in tour.ranking())
    text = _("TP after stage {k} (with the final GC points): {points}") if tour.over else _(
        "TP after stage {k}: {points}")
    lines.append(text.format(k=k, points=points))
    return lines


def final_report(tour: Any) -> list[str]:
    """The headless `tour` command's last lines: the winner and the team classification."""
    from ..engine.tour import gap_text, team_classification

    teams = tour.teams
    ranked = tour.ranking()
    lines = [_("Tour winner: {team} ({points} TP)").format(team=words.team_name(tour.legs[0], ranked[0].team),
                                                           points=ranked[0].value)]
    if all(len(team.riders) == 1 for team in teams):  # one rider per player: no team classification (GRAND-TOUR.md)
        return lines
    classification = team_classification(tour.gc())
    gaps = _(", ").join(_("{team} {time}").format(team=words.team_name(tour.legs[0], t.team),
                                                  time=gap_text(t.value - classification[0].value))
                        for t in classification)
    lines.append(_("Team classification: {teams}").format(teams=gaps))
    return lines


# ------------------------------------------------------------ a lesson's words


def lesson_played(game: Any, e: Move) -> str:
    """The card or tokens of a move, in a lesson's words: "an exhaustion card", "9", "token 3"."""
    if e.card is None:
        return ngettext("token {tokens}", "tokens {tokens}", len(e.tokens)).format(tokens=played_text(game, e.tokens))
    return card_text(e.card) if e.card else _("an exhaustion card")


def lesson_bid_card(card: int) -> str:
    return card_text(card) if card else _("an exhaustion card")


def lesson_breakaway(game: Any, e: Breakaway, ours: set[int], who: Callable[[int], str],
                     other: Callable[[int], str]) -> list[str]:
    """The breakaway's result as a lesson explains it: who broke away with what, where
    it starts and what it cost; what the player's bidder keeps."""
    course = game.course
    setup = game.setup
    lines = []
    totals = {rider: (cards, total) for rider, cards, total in e.bids}
    for i in e.winners:
        cards, total = totals[i]
        values = dict(cards=_(" and ").join(lesson_bid_card(c) for c in cards), total=total,
                      square=label(course, e.square), n=setup.breakaway_exhaustion)
        if i in ours:
            lines.append(ngettext(
                "{rider} broke away with {total} ({cards}): it starts on {square}, ahead of the pack. The price: "
                "its two bid cards left the game and it took {n} exhaustion card into its deck.",
                "{rider} broke away with {total} ({cards}): it starts on {square}, ahead of the pack. The price: "
                "its two bid cards left the game and it took {n} exhaustion cards into its deck.",
                setup.breakaway_exhaustion).format(rider=who(i), **values))
        else:
            lines.append(ngettext(
                "{rider} broke away with {total} ({cards}): it starts on {square}, ahead of the pack, without "
                "those two cards and with {n} exhaustion card in its deck.",
                "{rider} broke away with {total} ({cards}): it starts on {square}, ahead of the pack, without "
                "those two cards and with {n} exhaustion cards in its deck.",
                setup.breakaway_exhaustion).format(rider=other(i), **values))
    for i in totals:
        if i in ours and i not in e.winners:
            lines.append(_("{rider} bid {total}, not enough: it takes its bid cards back and starts from the grid.")
                         .format(rider=who(i), total=totals[i][1]))
    lines.append(_("Every bidder shuffled all its cards into a new deck. Round 1 starts."))
    return lines


def lesson_events(game: Any, ours: set[int], who: Callable[[int], str],
                  other: Callable[[int], str] | None = None) -> list[str]:
    """The round just revealed as a lesson explains it (play/tutorial.py): what
    happened to the player's riders (`ours`; `who(i)`: "Your Rouleur") and why,
    from the engine's typed events; the breakaway's bids and result too
    (`other(i)`: another team's rider, "Red Rouleur")."""
    course = game.course
    lines: list[str] = []
    name = other or who
    for e in game.events:
        kind = type(e)
        if kind is BidsRevealed:
            bids = _(", ").join(_("{rider} {card}").format(rider=who(i) if i in ours else name(i),
                                                          card=lesson_bid_card(c)) for i, c in e.cards)
            lines.append(_("Bid {n}, face up together: {bids}.").format(n=e.bid, bids=bids))
            continue
        if kind is Breakaway:
            lines += lesson_breakaway(game, e, ours, who, name)
            continue
        if kind is Die:
            lines.append(ngettext("The die showed {face}: groups {face} square behind others catch up.",
                                  "The die showed {face}: groups {face} squares behind others catch up.",
                                  e.face).format(face=e.face) if e.face
                         else _("The die showed nothing: nobody catches up this round."))
            continue
        if getattr(e, "rider", None) not in ours:
            continue
        rider = who(e.rider)
        if kind is Move:
            line = _("{rider} played {card}: {start} to {square}.").format(
                rider=rider, card=lesson_played(game, e), start=label(course, e.start), square=label(course, e.square))
            if e.reason & BY_CLIMB:  # (the rules' own reason: engine.events.Move.reason)
                line += _(" The climb held it to {n} squares.").format(n=e.moves)
            elif e.reason & (BY_SUPPLY | BY_DESCENT):
                line += (_(" The supply zone made it worth {n} squares.") if e.reason & BY_SUPPLY
                         else _(" The descent made it worth {n} squares.")).format(n=e.moves)
            if e.blocked:
                short = e.start + e.moves - e.square
                line += ngettext(" Riders filled the squares ahead: it stopped short, {n} square before where the "
                                 "card would go.",
                                 " Riders filled the squares ahead: it stopped short, {n} squares before where the "
                                 "card would go.", short).format(n=short)
            lines.append(line)
        elif kind is Slipstream:
            lines.append(_("{rider} took the slipstream: from {start} up to {square}, just behind the riders ahead "
                           "(a free square).").format(rider=rider, start=label(course, e.start),
                                                      square=label(course, e.square)))
        elif kind is Exhaustion:
            lines.append(_("{rider} took an exhaustion card: nobody was just ahead of it (in the wind, it worked "
                           "hardest).").format(rider=rider))
        elif kind is CatchUp:
            lines.append(_("{rider} caught up: the die allowed the gap, it joined the riders ahead on {square}.").format(
                rider=rider, square=label(course, e.square)))
        elif kind is Fatigue:
            lines.append(ngettext("{rider} took {n} fatigue token into its bag: nobody was just ahead of it.",
                                  "{rider} took {n} fatigue tokens into its bag: nobody was just ahead of it.",
                                  e.tokens).format(rider=rider, n=e.tokens))
        elif kind is Crash:
            lines.append(_("{rider} crashed: it lost squares to blocking on a wet road. It lies there; its next move "
                           "stands it up, 2 squares less.").format(rider=rider))
        elif kind is StandUp:
            lines.append(_("{rider} stood up: its card moved it 2 squares less.").format(rider=rider))
        elif kind is Finish:
            lines.append(_("{rider} crossed the finish line!").format(rider=rider))
    return lines



# ------------------------------------------------------------- the coach's words
#
# The coach (play/coach.py) judges a card as data (play.coach.Verdict: the
# card played, the expert's, the mean figures, what the expert's card does
# better); its words are said here, when shown, in the player's language.


def percent(x: float) -> str:
    return _("{n}%").format(n=round(100 * x))


def decimal(x: float) -> str:
    """0.5 (0,5 in French and Spanish)."""
    from ..i18n import decimal as written

    return written(x)


def signed(x: float) -> str:
    """+0.5, -1.0; +0.0 for what rounds to nothing (never -0.0)."""
    shown = decimal(abs(x))
    return ("-" if x < 0 and any(c in "123456789" for c in shown) else "+") + shown


def coach_heading(v: Any) -> str:
    """ "Round 5, Red Rouleur on 12: you played 3, the expert 7"."""
    rider = _("{team} {kind}").format(team=v.team, kind=kind_name(v.kind)) if v.kind else v.team or v.rider_name
    return _("Round {n}, {rider} on {square}: you played {played}, the expert {best}").format(
        n=v.round, rider=rider, square=v.square, played=v.played, best=v.best)


def coach_figures(v: Any) -> str:
    """ "Yours: 2.3 squares shorter, +0.5 exhaustion; won 31% of 100 sampled races, the expert's card 45%";
    in a tour's stage, the tour standing the expert measures (out of 100) instead of the stage win."""
    ahead = -v.squares
    went = (_("{n} squares further") if ahead >= 0 else _("{n} squares shorter")).format(n=decimal(abs(ahead)))
    tired = (_("{n} fatigue") if v.tired == "fatigue" else _("{n} exhaustion")).format(n=signed(v.exhaustion))
    if getattr(v, "tour", False):
        return _("Yours: {went}, {tired}; a tour standing of {mine}/100 over {worlds} sampled stages, the expert's "
                 "card {best}/100").format(went=went, tired=tired, mine=round(100 * v.worth_played), worlds=v.worlds,
                                           best=round(100 * v.worth_best))
    if percent(v.win_played) == percent(v.win_best):  # as many wins: what it cost is in the margins (search.worth)
        said = (_("Yours: {went}, {tired}; won {won} of {worlds} sampled races, as many as the expert's tokens, "
                  "by smaller margins") if v.tired == "fatigue" else  # BMX
                _("Yours: {went}, {tired}; won {won} of {worlds} sampled races, as many as the expert's card, "
                  "by smaller margins"))
        return said.format(went=went, tired=tired, won=percent(v.win_played), worlds=v.worlds)
    said = (_("Yours: {went}, {tired}; won {won} of {worlds} sampled races, the expert's tokens {best}")
            if v.tired == "fatigue" else  # BMX
            _("Yours: {went}, {tired}; won {won} of {worlds} sampled races, the expert's card {best}"))
    return said.format(went=went, tired=tired, won=percent(v.win_played), worlds=v.worlds, best=percent(v.win_best))


def coach_reason(v: Any) -> str:
    """One line: what the expert's card does better, in public facts."""
    values = dict(best=v.best, played=v.played, n=decimal(abs(v.exhaustion)), squares=decimal(abs(v.squares)))
    if v.why == "same":
        return _("the expert's choice too")
    if v.why == "tired":
        main = (_("the {best} takes {n} fewer fatigue tokens on average") if v.tired == "fatigue"
                else _("the {best} takes {n} fewer exhaustion cards on average")).format(**values)
    elif v.why == "further":
        main = _("the {best} goes {squares} squares further this round").format(**values)
    elif v.why == "keeps":
        main = _("the {best} goes about as far and keeps the {played} for later").format(**values)
    elif v.why == "keeps_less":
        main = _("the {best} goes {squares} squares less far but keeps the {played} for later").format(**values)
    else:
        main = _("the {best} leaves a better race after it").format(**values)
    # the expert's own facts ("plays 7: lands ... (if the others stood still)") are the bots' English
    # (bots/ write no words of the player's language): said in English only
    from ..i18n import language

    if not v.public or language() != "en":
        return main
    # (and the bots' "over the line", a card that crosses it)
    public = v.public.split(": ", 1)[-1].replace(" (if the others stood still)", ", if the others stood still").replace(
        "over the line", "crosses the finish line")
    if v.why == "tired" and "in the wind" in public:
        # fewer exhaustion cards on average, yet in the wind if nobody moved: the side fact would read
        # as the opposite of the reason (the others' cards shelter it), so it is left out
        return main
    # a side fact in brackets, not a second reason: where it lands may be in the wind, which is no gain
    return f"{main} (it {public})"


def coach_tour_note() -> str:
    """What the coach measures in a tour's stage (the bots' measure: engine.tour.stage_value)."""
    return _("In a tour the expert judges a card by the tour standing the stage leaves, not by the stage win: "
             "the Tour Points the stage gives and those the GC would give if the tour ended there, and the GC "
             "times of your best rider and of both your riders, scored out of 100.")


def coach_seat_line(seat: Any) -> str:
    """ "Blue: 12 cards looked at again, 7 the expert's choice too"."""
    if seat.tokens:  # BMX
        return ngettext("{seat}: {n} play of tokens looked at again, {same} the expert's choice too",
                        "{seat}: {n} plays of tokens looked at again, {same} the expert's choice too",
                        seat.looked_at).format(seat=seat.name, n=seat.looked_at, same=seat.same)
    return ngettext("{seat}: {n} card looked at again, {same} the expert's choice too",
                    "{seat}: {n} cards looked at again, {same} the expert's choice too",
                    seat.looked_at).format(seat=seat.name, n=seat.looked_at, same=seat.same)


def well_raced(seat: Any) -> str:
    """A seat none of whose plays cost anything."""
    if seat.tokens:  # BMX
        return _("No play of tokens cost anything against the expert's choice: well raced.")
    return _("No card cost anything against the expert's choice: well raced.")


def coach_report(lessons: Sequence[Any]) -> list[str]:
    """The coach's words, for the command line: each seat's costliest cards."""
    if not lessons:
        return [_("No human seat in this race: nothing to coach.")]
    out: list[str] = [coach_tour_note(), ""] if any(getattr(seat, "tour", False) for seat in lessons) else []
    for seat in lessons:
        out.append(coach_seat_line(seat))
        if not seat.verdicts:
            out.append("  " + well_raced(seat))
        for k, v in enumerate(seat.verdicts, 1):
            out.append(f"  {k}. {v.heading()}")
            out.append(f"     {v.figures()}")
            out.append("     " + _("Why: {reason}").format(reason=v.reason))
        out.append("")
    return out[:-1] if out and out[-1] == "" else out


# ------------------------------------------------------ the race screen's words
#
# What the race screen tells of the race as it is shown: each step of a
# revealed round, "since your last look", the review of a seat's cards, the
# words under a card.  `board` is the public board (engine.view.Board) or
# anything with its `riders`, `setup`, `rules` and `course`; `short` names a
# rider as the track labels it ("BS", or the team's letter in BMX).


def die_words(face: int | None) -> str:
    """BMX: the die of the round, in words."""
    if face == 1:
        return _("die: 1 — gaps of 1 square close up")
    if face == 2:
        return _("die: 2 — gaps of 1 or 2 squares close up")
    if face == 0:
        return _("die: blank — no catch-up this turn")
    return _("die: blank — ")


def frame_title(kind: str, bmx: bool) -> str:
    """The name of a step of the movement ("slipstream", "the die")."""
    titles = {
        "reveal": _("tokens revealed") if bmx else _("cards revealed"),
        "move": _("movement"),
        "slip": _("slipstream"),
        "exhaust": _("exhaustion"),
        "catchup": _("catch-up"),
        "fatigue": _("fatigue"),
        "die": _("the die"),
        "finish": _("finish!"),
        "crossed": _("across the line"),
    }
    return titles.get(kind, kind)


def frame_forms(frame: Any, before: Sequence[tuple[int, int]] | None, short: Namer, board: Any) -> list[str]:
    """What a step of the movement does, in a few words (`before`: the
    positions at the step before, None at the first step), then shorter forms,
    each with whole parts left out (the reason, the last moves or notes: "…"
    says some are), for a panel too small for the whole: never a word cut in
    half."""
    active = list(dict.fromkeys(frame.active))
    who = " ".join(short(i) for i in active)
    if frame.kind == "reveal":
        return [_("face up: the rider in front moves first"), _("face up")]
    if frame.kind == "die":
        return [die_words(frame.die)]
    if frame.kind in ("slip", "catchup") and before is not None:
        # riders making the same move together ("OS KS 5→6"): twelve riders' slipstream
        # stays within the panel's two lines at 80x24
        # (the squares as the track numbers them: the engine's indexes count the grid)
        course = board.course
        moves: dict[tuple[str, str], list[str]] = {}
        for i in active:
            moves.setdefault((label(course, before[i][0]), label(course, frame.pos[i][0])), []).append(short(i))
        parts = [f"{' '.join(names)} {a}→{b}" for (a, b), names in moves.items()]
        text = _("move up to the group ahead: {moves}") if frame.kind == "slip" else _("close the gap: {moves}")
        return [text.format(moves=", ".join(parts[:k]) + ("" if k == len(parts) else ", …"))
                for k in range(len(parts), 0, -1)]
    if frame.kind == "exhaust":
        return [_("{riders}: exhaustion card (nobody just ahead)").format(riders=who),
                _("{riders}: exhaustion card").format(riders=who)]
    if frame.kind == "fatigue":
        return [_("{riders}: fatigue token (both lanes ahead empty)").format(riders=who),
                _("{riders}: fatigue token").format(riders=who)]
    notes = [note_line(note, board).strip() for note in frame.notes]
    return [" · ".join(notes[:k]) + ("" if k == len(notes) else " · …") for k in range(len(notes), 0, -1)] or [""]


def round_in_short(seen: Any, course: Course, short: Namer, bmx: bool) -> str:
    """A round revealed in one line (table.RoundSeen): "round 3: BS 9 G2→9 ·
    BR 5 4→9 … · +E BS OR" (front riders first; +F fatigue in BMX; down: crashed)."""
    start, end = seen.start, seen.end
    played = dict(seen.revealed)
    parts = []
    for i in sorted(played, key=lambda i: (-end[i][0], -end[i][1])):
        card = "+".join(token_text(t) for t in played[i]) if bmx else card_text(played[i])
        parts.append(f"{short(i)} {card} {label(course, start[i][0])}→{label(course, end[i][0])}")
    tired = [short(e.rider) for e in seen.events if e.kind in ("exhaust", "fatigue")]
    if tired:
        parts.append((_("+F {riders}") if bmx else _("+E {riders}")).format(riders=" ".join(tired)))
    down = [short(e.rider) for e in seen.events if e.kind == "crash"]
    if down:
        parts.append(_("down: {riders}").format(riders=" ".join(down)))
    return _("round {n}: {what}").format(n=seen.round, what=" · ".join(parts))


def since_lines(seen: Sequence[Any], board: Any, short: Namer) -> tuple[str, ...]:
    """ "Since your last look" (table.Table.since): each round revealed in
    short, each card another seat changed before passing."""
    bmx = board.rules.uses_tokens
    return tuple(round_in_short(s, board.course, short, bmx) if hasattr(s, "revealed")
                 else changed_words(board, s.seat) for s in seen)


def review_parts(view: Any, rider: int, action: Any) -> list[tuple[str, str]]:
    """The seat's cards this round, in race order, as (what, value): the pick
    under review (`action` on `rider`) and its other rider's card already down
    (read from the seat's view before the pick is played)."""
    bmx = view.board.rules.uses_tokens
    if isinstance(action, Bid):  # a breakaway bid: the one card down
        kind = view.board.riders[rider].kind
        return [(_("the {kind}'s bid").format(kind=kind_name(kind)), card_text(action.card))]
    parts = []
    for r in view.mine():
        if r.index == rider:
            played = action.tokens if bmx else action.card
        elif r.index in view.chosen:
            played = view.chosen[r.index]
        else:
            continue
        value = "+".join(token_text(t) for t in played) if isinstance(played, tuple) else card_text(played)
        what = kind_name(r.kind) if r.kind else _("tokens") if "+" in value else _("token")
        parts.append((what, value))
    return parts


def review_note(view: Any, rider: int) -> str:
    """Why only the last card can change (a seat of two riders racing): its
    other rider drew first, and its card is down."""
    first = [r for r in view.mine() if r.index not in view.board.crossed and r.index != rider]
    if first:
        kind = kind_name(first[0].kind) if first[0].kind else _("other rider")
        return _("(the {kind} drew first: its card is down)").format(kind=kind)
    return ""


# ------------------------------------------------------------- the podium


def award_lines(bmx: bool, wind: tuple[Sequence[str], int], shelter: tuple[Sequence[str], int],
                back: tuple[str, int, int, bool] | None) -> list[tuple[str, str]]:
    """The podium's awards, each (its name, who won it and why): the most
    exhaustion cards (BMX: fatigue tokens) taken at the front (`wind`: the
    riders' names and how many), the most squares of slipstream (catch-up),
    the best finish from the back (`back`: the rider, its place on the grid,
    at the finish, and whether others gained as many places)."""
    who, n = wind
    if who:
        text = (_("{riders}: {n} fatigue token at the front") if n == 1 else _(
            "{riders}: {n} fatigue tokens at the front")) if bmx else (_(
                "{riders}: {n} exhaustion card at the front") if n == 1 else _(
                "{riders}: {n} exhaustion cards at the front"))
        rows = [(_("Most in the wind"), text.format(riders=", ".join(who), n=n))]
    else:
        rows = [(_("Most in the wind"), _("nobody (no rider alone at the front)"))]
    who, n = shelter
    award = _("Most catch-up") if bmx else _("Most slipstream")
    if who:
        text = _("{riders}: {n} square gained") if n == 1 else _("{riders}: {n} squares gained")
        rows.append((award, text.format(riders=", ".join(who), n=n)))
    else:
        rows.append((award, _("nobody")))
    if back is None:
        rows.append((_("Best from the back"), _("nobody gained a place on the grid order")))
    else:
        rider, grid, place, others = back
        text = _("{rider}: from {grid} on the grid to {place} (and others)") if others else _(
            "{rider}: from {grid} on the grid to {place}")
        rows.append((_("Best from the back"), text.format(rider=rider, grid=ordinal(grid), place=ordinal(place))))
    return rows


# ------------------------------------------------------------ a hosted table


def host_line(kind: str, team: str = "", names: Sequence[str] = (), **facts: Any) -> str | None:
    """What a host says of its table (net.host.HostServer's `say`: a device
    joined, dropped, whom the table waits for...), on the host's terminal and
    on the app's host screen alike; None for what it does not tell.  `team`
    names the seat the line is about, `names` every seat (whom it waits for:
    every seat still choosing, `seats`, each away one said so)."""
    if kind == "joined":
        return _("{team} joined").format(team=team)
    if kind == "away":
        return _("{team} is away (its device dropped)").format(team=team)
    if kind == "watcher":
        return _("a watcher joined")
    if kind == "bot":
        return _("{team} is played by a bot ({bot}) from now on").format(team=team, bot=bot_level(str(facts.get("policy"))))
    if kind == "waiting":
        seats, away = facts.get("seats") or (), facts.get("away") or ()
        if not names or not seats:
            return _("waiting for {team}").format(team=team) + (_(" (away)") if away else "")
        return _("waiting for {team}").format(team=", ".join(
            names[s] + (_(" (away)") if s in away else "") for s in seats if 0 <= s < len(names)))
    if kind == "device":
        return _("{team} plays on its own device again").format(team=team)
    if kind == "revealed":
        return (_("Round {n} revealed").format(n=facts.get("round")) if facts.get("round")
                else _("Breakaway bids revealed"))
    if kind == "over":
        return _("The race is over.")
    if kind == "bot-failed":
        return _("the bot of {team} failed ({why}): give the seat to another bot with `bot N BOT`").format(
            team=team, why=facts.get("why"))
    return None
