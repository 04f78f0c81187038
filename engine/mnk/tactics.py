"""A one-ply tactical move on an m,n,k board: what the bot plays when its search failed and the exact solver must not
run (:meth:`engine.games.mnk.MnkVariant.quick_move`)."""

from __future__ import annotations

import random

from engine.errors import GameOverError
from engine.mnk.rules import MnkState, TicTacToe
from engine.protocol import Mark

__all__ = ["tactical_cell"]

_WIN, _BLOCK, _BUILD = 2, 1, 0  # a cell's rank in tactical_cell, best first


def tactical_cell(game: TicTacToe, state: MnkState, rng: random.Random) -> tuple[int, int]:
    """A one-ply choice for the side to move on an m,n,k board, and the cells it weighed (its states).

    A cell that completes a line of the mover's wins; else one that completes a line of the opponent's is
    blocked; else the cell whose lines still open to a side weigh most (``4 ** marks`` of that side in each),
    ties drawn with ``rng``.

    Raises:
        GameOverError: the game in ``state`` is over.
    """
    free = game.actions(state)
    if not free:
        raise GameOverError("the game is over: there is no move to choose")
    mine, theirs = (state.x, state.o) if game.player(state) is Mark.X else (state.o, state.x)
    ranked: dict[tuple[int, int], list[int]] = {}
    for cell in free:
        rank, weight = _BUILD, 0
        for line in game.lines_through[cell]:
            own, other = (line & mine).bit_count(), (line & theirs).bit_count()
            if other == 0:
                rank = max(rank, _WIN if own == game.k - 1 else _BUILD)
                weight += 4**own
            if own == 0:
                rank = max(rank, _BLOCK if other == game.k - 1 else _BUILD)
                weight += 4**other
        ranked.setdefault((rank, weight), []).append(cell)
    return rng.choice(ranked[max(ranked)]), len(free)
