"""Gomoku positions for the tests, and a threat-search oracle on the rules alone (no window counts)."""

from __future__ import annotations

import random

from engine.gomoku.rules import CELLS, GOMOKU, SIZE, GomokuState, bit, has_five
from engine.protocol import Mark

_STEPS = ((0, 1), (1, 0), (1, 1), (1, -1))


def clustered(rng: random.Random, plies: int) -> GomokuState:
    """A game of ``plies`` random moves, each within two cells of a stone (the first anywhere near the centre),
    stopped early where it ended."""
    state = GOMOKU.result(GOMOKU.initial_state(), rng.randrange(5, 10) * SIZE + rng.randrange(5, 10))
    for _ in range(plies - 1):
        taken = state.x | state.o
        near = [
            cell
            for cell in range(CELLS)
            if not taken & bit(cell)
            and any(
                taken & bit(r * SIZE + c)
                for r in range(max(0, cell // SIZE - 2), min(SIZE, cell // SIZE + 3))
                for c in range(max(0, cell % SIZE - 2), min(SIZE, cell % SIZE + 3))
            )
        ]
        following = GOMOKU.result(state, rng.choice(near))
        if GOMOKU.terminal(following):
            break
        state = following
    return state


def stones(state: GomokuState, side: int) -> int:
    """The bitboard of side 0 (X) or 1 (O)."""
    return state.x if side == 0 else state.o


def five_cells(state: GomokuState, side: int, around: int | None = None) -> set[int]:
    """The empty cells where ``side`` would have five, all of them or those in line with ``around`` (4 cells at
    most away), by the rules' own test."""
    taken, mine = state.x | state.o, stones(state, side)
    if around is None:
        cells = range(CELLS)
    else:
        row, column = divmod(around, SIZE)
        cells = [
            (row + k * dr) * SIZE + column + k * dc
            for dr, dc in _STEPS
            for k in range(-4, 5)
            if 0 <= row + k * dr < SIZE and 0 <= column + k * dc < SIZE
        ]
    return {cell for cell in cells if not taken & bit(cell) and has_five(mine | bit(cell))}


def put(state: GomokuState, cell: int, side: int) -> GomokuState:
    """``state`` with a stone of ``side`` added on ``cell`` (whoever is to move)."""
    if side == 0:
        return GomokuState(state.x | bit(cell), state.o)
    return GomokuState(state.x, state.o | bit(cell))


def has_vcf(state: GomokuState, side: int, moves: int) -> bool:
    """True when ``side`` (to move) wins by continuous fours in at most ``moves`` moves of its own, the five
    included: each move a four (or a five), each reply the four's five cell, a defender's five first a loss."""
    if five_cells(state, side):
        return True
    if moves < 2:
        return False
    taken = state.x | state.o
    for cell in range(CELLS):
        if taken & bit(cell):
            continue
        after = put(state, cell, side)
        fives = five_cells(after, side, cell)
        if not fives or five_cells(after, 1 - side):
            continue
        if len(fives) > 1:
            return True
        if has_vcf(put(after, fives.pop(), 1 - side), side, moves - 1):
            return True
    return False


def side_to_move(state: GomokuState) -> int:
    """0 when X moves, else 1."""
    return 0 if GOMOKU.player(state) is Mark.X else 1
