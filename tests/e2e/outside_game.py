"""A game written outside the engine, as docs/adding-a-game.md describes: three in a row on a board 4 wide and 3 high.

``TTT_GAMES=tests.e2e.outside_game:THREE_BY_FOUR`` makes the bot register it at start-up (importing this module
registers nothing). Its rules follow AIMA's game protocol; its top level is plain minimax (as negamax) memoised by
position, so exact; levels 1-7 are an alpha-beta search of as many plies. Nothing in ``bot/`` knows it.
"""

from __future__ import annotations

import functools
import random
import time
from typing import Literal

from engine import EngineMove, GameOverError, GameValue, Mark, MoveValues, Variant
from engine.errors import CellOccupiedError, CellOutOfRangeError

__all__ = ["THREE_BY_FOUR", "Board", "ThreeByFour", "ThreeInARow"]

WIDTH, HEIGHT, K = 4, 3, 3
CELLS = WIDTH * HEIGHT
Board = tuple[Mark | None, ...]


def _lines() -> tuple[tuple[int, ...], ...]:
    found = []
    for row in range(HEIGHT):
        for column in range(WIDTH):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(row + i * dr, column + i * dc) for i in range(K)]
                if all(0 <= r < HEIGHT and 0 <= c < WIDTH for r, c in cells):
                    found.append(tuple(r * WIDTH + c for r, c in cells))
    return tuple(found)


LINES = _lines()


class ThreeInARow:
    """The rules (AIMA §5.1): a state is the 12 cells row by row, each a mark or ``None``; X moves first."""

    def initial_state(self) -> Board:
        return (None,) * CELLS

    def player(self, state: Board) -> Mark:
        return Mark.X if sum(cell is not None for cell in state) % 2 == 0 else Mark.O

    def actions(self, state: Board) -> tuple[int, ...]:
        return () if self.terminal(state) else tuple(c for c in range(CELLS) if state[c] is None)

    def result(self, state: Board, action: int) -> Board:
        if self.terminal(state):
            raise GameOverError("the game is over")
        if not isinstance(action, int) or not 0 <= action < CELLS:
            raise CellOutOfRangeError(f"cell {action!r} is off the board")
        if state[action] is not None:
            raise CellOccupiedError(f"cell {action + 1} is taken")
        return (*state[:action], self.player(state), *state[action + 1 :])

    def winning_cells(self, state: Board) -> frozenset[int]:
        won = [line for line in LINES if state[line[0]] is not None and len({state[c] for c in line}) == 1]
        return frozenset(cell for line in won for cell in line)

    def terminal(self, state: Board) -> bool:
        return bool(self.winning_cells(state)) or all(cell is not None for cell in state)

    def utility(self, state: Board) -> int:
        won = self.winning_cells(state)
        return 0 if not won else 1 if state[min(won)] is Mark.X else -1


RULES = ThreeInARow()


LINE_MASKS = tuple(sum(1 << c for c in line) for line in LINES)
FULL = (1 << CELLS) - 1


def _masks(state: Board) -> tuple[int, int]:
    """The player to move's cells and the opponent's, as bit masks."""
    x = sum(1 << c for c in range(CELLS) if state[c] is Mark.X)
    o = sum(1 << c for c in range(CELLS) if state[c] is Mark.O)
    return (x, o) if RULES.player(state) is Mark.X else (o, x)


@functools.cache
def _negamax(mine: int, theirs: int) -> int:
    """The exact score for the player to move (``mine``; the opponent just moved to ``theirs``):
    ``CELLS + 1 - marks at the end`` for a win, its negative for a loss, 0 for a draw (a win sooner and a loss later
    score more). Memoised: each position is searched once (AIMA §5.2's minimax, as negamax)."""
    marks = (mine | theirs).bit_count()
    if any(theirs & line == line for line in LINE_MASKS):
        return -(CELLS + 1 - marks)
    if marks == CELLS:
        return 0
    free = FULL & ~(mine | theirs)
    best = -CELLS - 2
    while free:
        bit = free & -free
        free ^= bit
        best = max(best, -_negamax(theirs, mine | bit))
    return best


def _exact(state: Board) -> tuple[dict[int, int], int]:
    """Every legal move's exact score for the player to move, and the positions newly searched."""
    before = _negamax.cache_info().misses
    mine, theirs = _masks(state)
    scores = {a: -_negamax(theirs, mine | 1 << a) for a in RULES.actions(state)}
    return scores, _negamax.cache_info().misses - before + len(scores)


def _shallow(state: Board, depth: int, alpha: int, beta: int, counter: list[int]) -> int:
    """Negamax with alpha-beta pruning to ``depth`` plies, a position cut off there scoring 0 (AIMA §5.3)."""
    counter[0] += 1
    if RULES.terminal(state):
        return -1 if RULES.utility(state) else 0
    if depth == 0:
        return 0
    for action in RULES.actions(state):
        alpha = max(alpha, -_shallow(RULES.result(state, action), depth - 1, -beta, -alpha, counter))
        if alpha >= beta:
            break
    return alpha


def _value(score: int, marks: int) -> GameValue:
    if score > 0:
        return GameValue("win", CELLS + 1 - score - marks)
    if score < 0:
        return GameValue("loss", CELLS + 1 + score - marks)
    return GameValue("draw", CELLS - marks)


class ThreeByFour(Variant):
    """Three in a row on a 4 x 3 board: exact values, levels 1-7 a search of as many plies, level 8 perfect play."""

    name = "3x4"
    title = "3x4, three in a row"
    description = "Three in a row on a board 4 wide and 3 high"
    code = "k"
    width, height = WIDTH, HEIGHT

    def __init__(self) -> None:
        self.game = RULES

    def mark(self, state: Board, cell: int) -> Mark | None:
        return state[cell]

    def winning_line(self, state: Board) -> frozenset[int]:
        return RULES.winning_cells(state)

    def play(
        self,
        state: Board,
        level: int = 8,
        *,
        algorithm: Literal["minimax", "alpha-beta"] = "alpha-beta",
        budget_ms: float | None = None,
        rng: random.Random | None = None,
    ) -> EngineMove:
        if not 1 <= level <= 8:
            raise ValueError(f"level {level!r} is not one of 1-8")
        if RULES.terminal(state):
            raise GameOverError("the game is over")
        rng = rng if rng is not None else random.Random()
        started, counter = time.perf_counter(), [0]
        marks = sum(c is not None for c in state)
        if level == 8:
            scores, counter[0] = _exact(state)
        else:
            scores = {a: -_shallow(RULES.result(state, a), level - 1, -2, 2, counter) for a in RULES.actions(state)}
        best = max(scores.values())
        cell = rng.choice([a for a, s in scores.items() if s == best])
        value = _value(best, marks) if level == 8 else None
        elapsed_ms = (time.perf_counter() - started) * 1000.0
        depth = None if level == 8 else level
        return EngineMove(cell, counter[0], value, elapsed_ms, depth=depth, mark=RULES.player(state))

    def search_name(self, algorithm: Literal["minimax", "alpha-beta"], level: int = 8) -> str:
        """Level 8 is a memoised negamax, the others an alpha-beta search."""
        return "negamax" if level == 8 else "alpha-beta"

    def rating(self, level: int) -> float:
        """A nominal ladder (this game was never calibrated in matches): 100 points a level."""
        if not 1 <= level <= 8:
            raise KeyError(level)
        return 800.0 + 100.0 * level

    def move_values(self, state: Board) -> MoveValues:
        if RULES.terminal(state):
            raise GameOverError("the game is over")
        scores, states = _exact(state)
        marks = sum(c is not None for c in state)
        return tuple((a, _value(score, marks)) for a, score in sorted(scores.items())), states


THREE_BY_FOUR = ThreeByFour()
