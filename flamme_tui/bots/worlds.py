"""Sampled worlds: a full game rebuilt from one seat's view.

What the seat cannot see (every deck order, other seats' hands and chosen
cards) is drawn at random from what it can deduce (the unseen cards), so a
bot can simulate ahead without ever looking at the real game.
"""

from __future__ import annotations

from ..engine.bmx import BmxGame, BmxRider
from ..engine.classic import ENERGY, ClassicGame, Rider
from ..engine.meteo import MeteoGame
from ..engine.rng import Rng
from ..engine.view import View

GAMES = {"classic": ClassicGame, "meteo": MeteoGame, "bmx": BmxGame}


def sample_world(view: View, rng: Rng):
    board = view.board
    game = GAMES[board.variant](board.setup, 0, _blank=True)
    game.rng = rng
    game.course = board.course
    game.round = board.round
    game.phase = ENERGY
    game.cells = [-1] * (2 * len(board.course.terrain))
    for r in board.riders:
        game.pos.append([r.square, r.lane])
        game.cells[2 * r.square + r.lane] = r.index
    game.seats = [[r.index for r in board.riders if r.seat == seat] for seat in range(len(board.setup.teams))]
    if board.variant == "bmx":
        _bmx_riders(game, view)
    else:
        _classic_riders(game, view, rng)
    game.index = {r.id: i for i, r in enumerate(game.riders)}
    return game


def _classic_riders(game, view: View, rng: Rng) -> None:
    for r in view.board.riders:
        rider = Rider(r.id, r.seat, r.kind)
        rider.crashed = r.crashed
        rider.exhaustion = r.exhaustion
        rider.supply_played = r.from_supply
        rider.history = list(r.history)
        rider.deck = list(view.unseen(r.index))
        rng.shuffle(rider.deck)
        if r.index in view.own:
            rider.recycled = list(view.own[r.index][1])
            rider.hand = list(view.hands.get(r.index, ()))
            rider.played = view.chosen.get(r.index)
        else:
            rider.recycled = list(r.recycled)  # as before this round's draw: it draws again here
        game.riders.append(rider)
    game.first_drawn = {view.seat: view.first_drawn} if view.first_drawn is not None else {}
    scripted = [i for i, r in enumerate(game.riders) if game.script[r.seat]]
    game.waiting = sum(1 for i, rider in enumerate(game.riders) if rider.played is None and i not in scripted)
    if scripted:  # their face-down cards of this round, drawn again from the sampled decks
        game.share_piles()
        game.begin_energy()


def _bmx_riders(game, view: View) -> None:
    board = view.board
    game.supply = board.supply
    game.die = board.die
    for r in board.riders:
        rider = BmxRider(r.id, r.seat, list(view.unseen(r.index)))
        rider.fatigue = r.exhaustion
        rider.history = list(r.history)
        game.riders.append(rider)
        if r.index in view.own:
            rider.hand = list(view.hands.get(r.index, ()))
            chosen = view.chosen.get(r.index)
            rider.played = tuple(chosen) if chosen is not None else None
        else:
            game._draw(r.index)  # another seat's hand: drawn at random from what it may hold
