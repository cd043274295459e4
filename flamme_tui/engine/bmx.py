"""Flamme Rouge BMX: one rider each, speed tokens from a bag, a weather die.

Same public interface as ClassicGame (apply, legal_actions, to_move, view,
clone, ranking, events), same track functions (settle, close_gaps).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, ClassVar, Final, cast

from .actions import Action, Choice, PlayTokens, play_tokens
from .course import Course
from .events import CatchUp, Die, Fatigue, Finish, Move, Ramp, Reveal
from .events import token_text as token_text
from .options import MAY, WIND, Option, Preview
from .phase import Phase
from .race import Placed, Race, RuleError, Team
from .rng import Rng
from .ruleset import RuleSet
from .seating import check_riders
from .terrain import BUMPY, DESCENT
from .track import EMPTY, LANES, close_gaps, on_track, ranking, settle, square_empty
from .view import Board, RiderView, View, board

if TYPE_CHECKING:
    from .classic import ClassicSetup

ENERGY: Final = Phase.ENERGY
OVER: Final = Phase.OVER

FATIGUE: Final = 0  # token code; a fatigue token moves 1
FATIGUE_VALUE: Final = 1
NO_CATCH_UP: Final = 0  # the die's "none" face


def ramp_bonus(ramp: tuple[int, int] | None, start: int, value: int, tokens: tuple[int, ...]) -> int:
    """The jump ramp (square, number): a rider passing it with a token of its
    number flies that many squares further."""
    if ramp is not None and start < ramp[0] <= start + value and ramp[1] in tokens:
        return ramp[1]
    return 0


def token_worth(ramp: tuple[int, int] | None, start: int, tokens: tuple[int, ...]) -> tuple[int, int]:
    """(value, ramp bonus) of tokens played from `start`: a fatigue token moves 1."""
    value = 0
    for t in tokens:
        value += t or FATIGUE_VALUE
    return value, ramp_bonus(ramp, start, value, tokens)


# (t,) for every token code t (FATIGUE and the bag's 1 to 5 ...): made once, not per choice
SINGLES: Final = tuple((t,) for t in range(10))


def token_choices(hand: list[int] | tuple[int, ...], keep: int) -> list[tuple[int, ...]]:
    """The distinct sets of `keep` tokens (1, or 2 on a descent) a hand offers,
    each highest first, the highest sets first."""
    tokens = sorted(hand)
    if keep == 1:  # the usual case (asked for every bmx choice): each distinct token, highest first
        singles: list[tuple[int, ...]] = []
        for t in reversed(tokens):
            if not singles or singles[-1][0] != t:
                singles.append(SINGLES[t] if 0 <= t < len(SINGLES) else (t,))
        return singles
    picks = {
        (tokens[b], tokens[a])
        for a in range(len(tokens))
        for b in range(a + 1, len(tokens))
    }
    return sorted(picks, reverse=True)


@dataclass(frozen=True, slots=True)
class BmxSetup:
    """Everything a bmx race is built from, besides the seed; each field's
    `save` kind is what the save format derives from (see ClassicSetup)."""

    course: Course = field(metadata={"save": "course"})
    teams: tuple[Team, ...] = field(metadata={"save": "teams"})
    # the defaults are the rulebook's numbers, for tests; races are built from stages/variants/bmx.yaml
    bag: tuple[int, ...] = field(default=(1, 1, 2, 2, 3, 3, 4, 4, 5, 5), metadata={"save": "bag"})
    fatigue_supply: int = field(default=15, metadata={"save": "count"})
    # 0 (NO_CATCH_UP): no catch-up
    die_faces: tuple[int, ...] = field(default=(1, 1, 2, 2, NO_CATCH_UP, NO_CATCH_UP), metadata={"save": "die"})
    draw: int = field(default=3, metadata={"save": "draw"})  # draw 3 keep 1
    descent_draw: int = field(default=4, metadata={"save": "draw"})  # on a descent draw 4 keep 2
    descent_keep: int = field(default=2, metadata={"save": "draw"})
    fatigue: int = field(default=1, metadata={"save": "count"})  # fatigue tokens a tired rider takes
    bumpy_fatigue: int = field(default=2, metadata={"save": "count"})  # ... on a bumpy passage
    # young-children variant: fatigue tokens added to each seat's bag
    young: tuple[int, ...] = field(default=(), metadata={"save": "young"})
    # weather-forecast variant: roll the die before drawing
    forecast: bool = field(default=False, metadata={"save": "flag"})
    variant: str = field(default="bmx", metadata={"save": "bmx variant"})


class BmxRider:
    __slots__ = ("id", "seat", "bag", "hand", "played", "phantom", "box", "fatigue", "history", "catch_up")

    def __init__(self, rid: str, seat: int, bag: list[int]) -> None:
        self.id = rid
        self.seat = seat
        self.bag = bag  # private contents, public count
        self.hand: list[int] = []  # drawn this turn, private
        self.played: tuple[int, ...] | None = None  # kept this turn, private until revealed
        self.phantom = False  # empty bag and empty supply: this turn's fatigue token is not a real one
        self.box: list[int] = []  # speed tokens played, out of the game
        self.fatigue = 0  # fatigue tokens received
        self.history: list[tuple[int, ...]] = []
        self.catch_up = 0  # squares gained by catch-up

    def copy(self) -> BmxRider:
        twin = BmxRider(self.id, self.seat, self.bag[:])
        twin.phantom, twin.fatigue, twin.catch_up = self.phantom, self.fatigue, self.catch_up
        twin.hand, twin.box, twin.history = self.hand[:], self.box[:], self.history[:]
        twin.played = self.played
        return twin


class BmxGame(Race):
    variant: ClassVar[str] = "bmx"

    @property
    def rules(self) -> RuleSet:
        return BMX

    def view(self, seat: int) -> View:
        return bmx_view(self, seat)

    def public_board(self) -> Board:
        return bmx_board(self)

    def __init__(self, setup: BmxSetup, seed: int, *, _blank: bool = False) -> None:
        super().__init__(setup, seed, _blank=_blank)
        self.setup: BmxSetup = setup
        self.riders: list[BmxRider] = []
        self.supply = setup.fatigue_supply
        self.phase = ENERGY
        self.die: int | None = None  # this turn's roll, once rolled
        if _blank:
            return
        check_riders(setup.teams, 1)  # a rider's id is its colour
        for seat, team in enumerate(setup.teams):
            bag = list(setup.bag)
            extra = min(setup.young[seat] if seat < len(setup.young) else 0, self.supply)
            bag.extend([FATIGUE] * extra)
            self.supply -= extra
            self.riders.append(BmxRider(team.colour, seat, bag))
            self.pos.append([-1, -1])
        self.index = {r.id: i for i, r in enumerate(self.riders)}
        self.seats = [[i] for i in range(len(self.riders))]
        places = [(sq, lane) for sq in range(self.course.grid - 1, -1, -1) for lane in (0, 1)]
        self.rng.shuffle(places)
        for i in range(len(self.riders)):
            square, lane = places[i]  # unpacked: a starred call goes through Python
            self._put(i, square, lane)
        self.start_turn()

    # ------------------------------------------------------------- step 1

    def roll(self) -> int:
        faces: tuple[int, ...] = self.setup.die_faces
        return faces[self.rng.below(len(faces))]

    def draw_size(self, i: int) -> int:
        setup: BmxSetup = self.setup
        if self.course.terrain[self.pos[i][0]] == DESCENT:
            return setup.descent_draw
        return setup.draw

    def keep_size(self, i: int) -> int:
        keep = self.setup.descent_keep if self.course.terrain[self.pos[i][0]] == DESCENT else 1
        return min(keep, len(self.riders[i].hand))

    def start_turn(self) -> None:
        self.die = self.roll() if self.setup.forecast else None
        for i in range(len(self.riders)):
            self.draw_hand(i)

    def draw_hand(self, i: int) -> None:
        rider = self.riders[i]
        bag, hand = rider.bag, rider.hand
        for _ in range(min(self.draw_size(i), len(bag))):
            j = self.rng.below(len(bag))
            bag[j], bag[-1] = bag[-1], bag[j]
            hand.append(bag.pop())
        if not hand:
            # empty bag: a fatigue token from the supply; if the supply has none
            # either, the rider still moves 1 as if it had one (a phantom token)
            hand.append(FATIGUE)
            rider.phantom = self.supply == 0
            self.supply -= not rider.phantom

    def to_move(self) -> list[int]:
        if self.phase != ENERGY:
            return []
        return [r.seat for r in self.riders if r.played is None]

    def needs(self, seat: int) -> bool:
        return self.phase == ENERGY and self.riders[seat].played is None

    def legal_actions(self, seat: int) -> list[Action]:
        if self.phase != ENERGY:
            return []
        out: list[Action] = []
        for i, rider in enumerate(self.riders):
            if rider.seat != seat or rider.played is not None:
                continue
            out.extend(play_tokens(rider.id, p) for p in token_choices(rider.hand, self.keep_size(i)))
        return out

    def options(self, view: View) -> list[Option]:
        """The seat's token sets now, from its view, each with its preview
        (this game is the board's position: View.options calls this)."""
        if self.phase != ENERGY:
            return []
        out: list[Option] = []
        for i, hand in view.hands.items():
            rid = self.riders[i].id
            out.extend(Option(play_tokens(rid, p), self.preview(i, p)) for p in token_choices(hand, view.keep[i]))
        return out

    def worth(self, i: int, tokens: tuple[int, ...]) -> tuple[int, int]:
        """(value, ramp bonus) of those tokens to rider i here."""
        return token_worth(self.course.ramp, self.pos[i][0], tokens)

    def reach(self, i: int, choice: Choice) -> int:
        """Squares the tokens move rider i before blocking, jump ramp included (View.reach)."""
        value, bonus = self.worth(i, as_tokens(choice))
        return value + bonus

    def landing(self, i: int, tokens: tuple[int, ...]) -> tuple[int, int, int, int]:
        """(value, ramp bonus, square, lane): what the tokens are worth to rider i
        here and where it lands, every other rider where it stands.  The one
        movement rule of the round and of the previews; rider i's own cell
        counts as free (it has left it)."""
        start, lane = self.pos[i]
        value, bonus = self.worth(i, tokens)
        cells = self.cells
        k = start * LANES + lane
        me = cells[k]
        cells[k] = EMPTY
        square, lane = settle(cells, self.course.lanes, start + value + bonus)
        cells[k] = me
        return value, bonus, square, lane

    def preview(self, i: int, choice: Choice) -> Preview:
        """Where the tokens would take rider i, every other rider standing still
        (engine.options.Preview), by the movement code of the round."""
        tokens = tuple(sorted(as_tokens(choice), reverse=True))
        start = self.pos[i][0]
        value, bonus, square, lane = self.landing(i, tokens)
        finish = square >= self.course.finish
        front = not finish and square_empty(self.cells, square + 1, i)
        return Preview(i, start, value, value + bonus, value, square, lane, square < start + value + bonus,
                       "", 0, bonus, False, front, finish)

    def wind(self, view: View, i: int, choice: Choice) -> str:
        """Preview.wind of rider i's tokens, from the seat's view: WIND (a fatigue
        token whatever the others play), MAY (their tokens or the die decide) or "".

        The rider moves, then the round's own step 3 runs on that, once for
        each face the die may show (the forecast's face alone, once rolled).
        Every other rider's tokens are hidden: it could end anywhere from its
        square to the furthest its possible tokens take it.  If none of them
        could stand from the rider's start to 4 squares past where it reaches
        (catch-up closes gaps of up to 2), the answer is exact: WIND or "" if
        every face agrees, MAY if not.  A fatigue supply too small for every
        rider on the track may run out before its turn: MAY."""
        tokens = as_tokens(choice)
        twin = cast(BmxGame, self.clone())
        start = twin.pos[i][0]
        hi = start + twin.reach(i, tokens)
        twin.move_rider(i, tuple(sorted(tokens, reverse=True)))
        if twin.pos[i][0] >= self.course.finish:
            return ""  # over the line: the preview says "finish"
        hi = max(hi, twin.pos[i][0]) + 4
        setup: BmxSetup = self.setup
        faces = (view.board.die,) if view.board.die is not None else tuple(sorted(set(setup.die_faces)))
        tired: set[bool] = set()
        for face in faces:
            after = cast(BmxGame, twin.clone())
            after.die = face
            after.events = []
            after.narrated = True  # the answer is read from the end phase's events
            after.end_phase()
            got = False
            for e in after.events:
                if isinstance(e, Fatigue) and e.rider == i:
                    got = True
            tired.add(got)
        if len(tired) > 1:
            return MAY
        for j in range(len(self.riders)):
            square = self.pos[j][0]
            if j == i:
                continue
            if square + self.furthest(view, j) >= start and square <= hi:
                return MAY
        if True in tired:
            riders = sum(1 for p in self.pos if p[0] >= 0)
            return WIND if self.supply >= riders * max(setup.fatigue, setup.bumpy_fatigue) else MAY
        return ""

    def possible_moves(self, view: View, j: int) -> set[int]:
        """The squares rider j's tokens may move it this round (before
        blocking), as the seat may know it: one or two of the tokens it may
        hold (View.unseen), or a fatigue token, jump ramp included."""
        tokens = sorted(set(view.unseen(j)) | {FATIGUE}, reverse=True)
        out: set[int] = set()
        for a in tokens:
            out.add(self.reach(j, (a,)))
            for b in tokens:
                out.add(self.reach(j, (a, b)))
        return out

    def apply(self, action: Action | str) -> None:
        action, i = self._actor(action)
        rider = self.riders[i]
        if not isinstance(action, PlayTokens) or self.phase != ENERGY or rider.played is not None:
            raise RuleError(f"{action} is not allowed now")
        hand = rider.hand.copy()
        try:
            for t in action.tokens:
                hand.remove(t)
        except ValueError:
            raise RuleError(f"{action}: those tokens were not drawn") from None
        if len(action.tokens) != self.keep_size(i):
            raise RuleError(f"{action}: keep exactly {self.keep_size(i)}")
        self.actions.append(action)
        rider.played = tuple(action.tokens)
        rider.bag.extend(hand)
        rider.hand.clear()
        for r in self.riders:
            if r.played is None:
                return
        self.resolve_round()

    # ------------------------------------------------------------- step 2

    def move_phase(self) -> None:
        self.events = [Reveal(tuple((i, r.played) for i, r in enumerate(self.riders)))] if self.narrated else []
        for i in on_track(self.cells, self.pos):  # every bmx rider is on the track
            rider = self.riders[i]
            tokens = rider.played
            assert tokens is not None
            rider.played = None
            rider.history.append(tokens)
            self.move_rider(i, tokens)
            for t in tokens:
                if t != FATIGUE:
                    rider.box.append(t)
                elif not rider.phantom:
                    self.supply += 1

    def move_rider(self, i: int, tokens: tuple[int, ...]) -> None:
        """Move rider i with those tokens, as the round does."""
        pos = self.pos[i]
        start = pos[0]
        value, bonus, square, lane = self.landing(i, tokens)
        self.cells[start * LANES + pos[1]] = EMPTY
        self.cells[square * LANES + lane] = i
        pos[0] = square  # in place, as classic moves do (Race._put makes a new list)
        pos[1] = lane
        if self.narrated:
            self.events.append(Move(i, start, square, lane, value, value + bonus, None, tokens))
        if bonus and self.narrated:
            self.events.append(Ramp(i, bonus))

    # ------------------------------------------------------------- step 3

    def end_phase(self) -> None:
        finish = self.course.finish
        crossed = False
        for p in self.pos:
            crossed = crossed or p[0] >= finish
        die = self.die if self.die is not None else self.roll()
        self.die = die
        if self.narrated:
            self.events.append(Die(die))
        if die:
            close_gaps(self, die)
        cells = self.cells
        for i in on_track(self.cells, self.pos):
            square = self.pos[i][0]
            if not square_empty(cells, square + 1):  # sheltered (every rider is on the track: the cells show it)
                continue
            want = self.setup.bumpy_fatigue if self.course.terrain[square] == BUMPY else self.setup.fatigue
            got = min(want, self.supply)
            if got:
                self.supply -= got
                self.riders[i].bag.extend([FATIGUE] * got)
                self.riders[i].fatigue += got
                if self.narrated:
                    self.events.append(Fatigue(i, got))
        if crossed:
            self.phase = OVER
            self.winner = ranking(self.pos)[0]
            if self.narrated:
                self.events.append(Finish(self.winner))

    def gap_closed(self, i: int, frm: int, frm_lane: int, to: int, lane: int) -> None:
        self.riders[i].catch_up += to - frm
        if self.narrated:
            self.events.append(CatchUp(i, frm, frm_lane, to, lane))

    def check_choice(self, choice: Choice) -> None:
        as_tokens(choice)

    def check_die(self, die: int | None) -> None:
        if die is not None and die not in self.setup.die_faces:
            raise RuleError(f"the die has no face {die}")

    def lay_down(self, i: int, choice: Choice) -> None:
        rider = self.riders[i]
        rider.bag.extend(rider.hand)  # what a play does with the tokens not kept
        rider.hand.clear()
        rider.played = as_tokens(choice)

    def roll_as(self, die: int | None) -> None:
        if die is not None:
            self.die = die

    def resolve_round(self) -> None:
        self.move_phase()
        self.end_phase()
        for r in self.riders:
            r.phantom = False
        if self.phase != OVER:
            self.round += 1
            self.start_turn()

    # ------------------------------------------------------------ helpers

    def blank(self) -> BmxGame:
        return type(self)(self.setup, self.seed, _blank=True)

    def _clone_into(self, race: Race) -> None:
        twin = cast(BmxGame, race)  # blank() made it
        twin.riders = [r.copy() for r in self.riders]
        twin.supply = self.supply
        twin.phase = self.phase
        twin.die = self.die
        twin.index = self.index.copy()
        twin.seats = self.seats.copy()

    @classmethod
    def from_position(cls, course: Course, riders: Sequence[Placed], seed: int = 0,
                      rules: ClassicSetup | BmxSetup | None = None) -> BmxGame:
        """A turn about to be played with riders where the caller says, full bags,
        no hands.  `rules` gives the bag and numbers (the data files' set-up);
        by default the rulebook's."""
        teams = tuple(Team(r.id, r.id) for r in riders)
        if rules is None:
            setup = BmxSetup(course=course, teams=teams)
        elif isinstance(rules, BmxSetup):
            setup = replace(rules, course=course, teams=teams, young=(), forecast=False)
        else:
            raise ValueError(f"bmx: not a {rules.variant} set-up")
        game = cls(setup, seed, _blank=True)
        game.rng = Rng(seed)
        for seat, r in enumerate(riders):
            game.riders.append(BmxRider(r.id, seat, list(setup.bag)))
            game.pos.append([-1, -1])
            game._put(seat, r.square, r.lane)
        game.index = {r.id: i for i, r in enumerate(game.riders)}
        game.seats = [[i] for i in range(len(game.riders))]
        return game

    @classmethod
    def from_board(cls, shown: Board) -> BmxGame:
        """A game at the board's position: riders where the board shows them,
        empty bags, no hands.  What previews move riders on; `sample` fills
        in the hidden tokens."""
        setup = shown.setup
        if not isinstance(setup, BmxSetup):
            raise RuleError(f"not a bmx set-up: {setup.variant}")
        game = cls(setup, 0, _blank=True)
        game.course = shown.course
        game.round = shown.round
        game.phase = shown.phase
        game.supply = shown.supply if shown.supply is not None else 0
        game.die = shown.die
        for r in shown.riders:
            rider = BmxRider(r.id, r.seat, [])
            rider.fatigue = r.exhaustion
            rider.history = [as_tokens(c) for c in r.history]
            game.riders.append(rider)
            game.pos.append([r.square, r.lane])
            game.cells[r.square * LANES + r.lane] = r.index
        game.index = {r.id: i for i, r in enumerate(game.riders)}
        game.seats = [[r.index for r in shown.riders if r.seat == seat] for seat in range(len(shown.setup.teams))]
        game.public_cache = shown
        return game

    @classmethod
    def sample(cls, view: View, rng: Rng, unseen: Sequence[tuple[int, ...]] | None = None) -> BmxGame:
        """A whole game consistent with the seat's view (View.sample): every bag
        holds what the seat cannot place; other seats' hands are drawn again
        from their bags with `rng`, which the game draws from from then on."""
        game = cls.from_board(view.board)
        game.rng = rng
        game.phase = ENERGY
        game.public_cache = None
        for i, rider in enumerate(game.riders):
            rider.bag = list(view.unseen(i) if unseen is None else unseen[i])
            if i in view.own:
                rider.hand = list(view.hands.get(i, ()))
                chosen = view.chosen.get(i)
                rider.played = as_tokens(chosen) if chosen is not None else None
            else:
                game.draw_hand(i)  # another seat's hand: drawn at random from what it may hold
        return game

    def state_key(self) -> tuple[object, ...]:
        """The game as the rules know it, as plain values in a fixed order
        (version 1 of the key, see Race.state_key): round, phase, winner,
        positions, every bag and hand, the fatigue supply and the die."""
        riders = tuple(
            (r.id, tuple(r.bag), tuple(r.hand), r.played, r.phantom, tuple(r.box), r.fatigue, tuple(r.history))
            for r in self.riders
        )
        return (self.variant, self.round, self.phase.value, self.winner, tuple(tuple(p) for p in self.pos),
                riders, tuple(self.course.weather), (), self.supply, self.die)

    def team_piles(self, seat: int) -> tuple[int, int, int, int]:
        """(fatigue taken, catch-up squares, 0, tokens left in the bag) of a seat's rider."""
        riders = [self.riders[i] for i in self.seats[seat]]
        return (sum(r.fatigue for r in riders), sum(r.catch_up for r in riders), 0, sum(len(r.bag) for r in riders))


# ------------------------------------------------------------------- views


class BmxBoard(Board):
    """The public board of a bmx race."""

    def reach(self, i: int, choice: Choice) -> int:
        """View.reach for bmx: the tokens' value and the jump ramp's bonus."""
        tokens = as_tokens(choice)
        value, bonus = token_worth(self.course.ramp, self.riders[i].square, tokens)
        return value + bonus


def as_tokens(choice: Choice) -> tuple[int, ...]:
    """The tokens a bmx choice is; RuleError for a card (classic)."""
    if isinstance(choice, tuple):
        return choice
    raise RuleError(f"tokens, not a card {choice!r}")


def bmx_board(game: BmxGame) -> Board:
    riders = tuple(
        RiderView(i, r.id, r.seat, "", game.pos[i][0], game.pos[i][1], False,
                  len(r.bag) + len(r.hand) + len(r.played or ()), (), r.fatigue, r.history, 0)
        for i, r in enumerate(game.riders)
    )
    return BmxBoard(game.variant, game.round, game.phase, game.course, riders,
                 {"": game.setup.bag}, game.setup.young, game.supply,
                 game.die if game.setup.forecast else None, game.setup, BMX, {})


def bmx_view(game: BmxGame, seat: int) -> View:
    """Seat `seat`'s view of a bmx game now."""
    mine = game.seats[seat]  # one rider
    i = mine[0]
    r = game.riders[i]
    # engine.view.SEEN: a bmx rider's recycled pile is always empty
    seen = (i, tuple(r.hand), r.played, len(r.bag), (), game.keep_size(i) if r.hand else None)
    return View(board(game), seat, None, None, None, None, None, seen)


def bmx_unseen(view: View, i: int) -> tuple[int, ...]:
    """View.unseen for bmx: the tokens of rider i the seat cannot place."""
    shown = view.board
    r = shown.riders[i]
    tokens = Counter(shown.decks[""])
    tokens[0] += r.exhaustion + (shown.handicap[r.seat] if r.seat < len(shown.handicap) else 0)
    history = [as_tokens(c) for c in r.history]
    for played in history:
        tokens.subtract(t for t in played if t)  # fatigue tokens played go back to the supply
    tokens[0] -= sum(1 for played in history for t in played if t == 0)
    tokens.subtract(view.hands.get(i, ()))
    chosen = view.chosen.get(i)
    if chosen is not None:
        tokens.subtract(as_tokens(chosen))
    return tuple(sorted(tokens.elements()))


BMX = RuleSet(
    name="bmx", title="BMX", game=BmxGame, setup=BmxSetup,
    uses_tokens=True, has_weather=False, scripted_teams=False, grid_choice=False, riders_per_seat=1, max_teams=4,
    catch_up_die=True, exhaustion_word="fatigue token", piece_word="token",
    unseen=bmx_unseen,
)
