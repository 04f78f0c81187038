"""A game written outside the engine and wider than buttons allow: four in a row on a board 7 x 7.

``TTT_GAMES=tests.e2e.wide_game:SEVEN_BY_SEVEN`` makes the bot register it at start-up (importing this module
registers nothing). It declares no layout, so its default (a grid of marks, 7 x 7) applies, and the bot draws it as a
picture played with ``/ttt move cell:<a1-g7>``. Nothing in ``bot/`` knows it.

The bot's move is no search: levels 1-4 play a random free cell; levels 5-8 win at once where they can, else block the
opponent's win in one, else take the free cell on the most lines still open to them (ties broken by ``rng``).
"""

from __future__ import annotations

import random
import time
from typing import Literal

from engine import EngineMove, GameOverError, Mark, Variant
from engine.errors import CellOccupiedError, CellOutOfRangeError

__all__ = ["SEVEN_BY_SEVEN", "FourInARow", "SevenBySeven"]

SIDE, K = 7, 4
CELLS = SIDE * SIDE
Board = tuple[Mark | None, ...]


def _lines() -> tuple[tuple[int, ...], ...]:
    found = []
    for row in range(SIDE):
        for column in range(SIDE):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(row + i * dr, column + i * dc) for i in range(K)]
                if all(0 <= r < SIDE and 0 <= c < SIDE for r, c in cells):
                    found.append(tuple(r * SIDE + c for r, c in cells))
    return tuple(found)


LINES = _lines()
LINES_OF = tuple(tuple(line for line in LINES if cell in line) for cell in range(CELLS))


class FourInARow:
    """The rules (AIMA §5.1): a state is the 49 cells row by row, each a mark or ``None``; X moves first."""

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


RULES = FourInARow()


def completes(state: Board, cell: int, mark: Mark) -> bool:
    """True when ``mark`` on free ``cell`` completes a line of four."""
    return any(all(c == cell or state[c] is mark for c in line) for line in LINES_OF[cell])


def tactical_cell(state: Board, rng: random.Random) -> int:
    """A win in one, else a block of the opponent's win in one, else a free cell on the most lines still open to the
    player to move."""
    mover = RULES.player(state)
    free = RULES.actions(state)
    for mark in (mover, mover.other):
        if hits := [cell for cell in free if completes(state, cell, mark)]:
            return rng.choice(hits)
    scores = {cell: sum(all(state[c] is not mover.other for c in line) for line in LINES_OF[cell]) for cell in free}
    best = max(scores.values())
    return rng.choice([cell for cell, score in scores.items() if score == best])


class SevenBySeven(Variant):
    """Four in a row on a 7 x 7 board: levels 1-4 random, 5-8 tactical (:func:`tactical_cell`); no exact values."""

    name = "7x7"
    title = "7x7, four in a row"
    description = "Four in a row on a board 7 wide and 7 high"
    code = "q"
    width = height = SIDE
    exact = False

    def __init__(self) -> None:
        self.game = RULES

    def mark(self, state: Board, cell: int) -> Mark | None:
        return state[cell]

    def winning_line(self, state: Board) -> frozenset[int]:
        return RULES.winning_cells(state)

    def answer_ms(self, state: Board, level: int, algorithm: Literal["minimax", "alpha-beta"]) -> float:
        """A tactical move scans 49 cells' lines: well under a millisecond."""
        return 5.0

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
        started = time.perf_counter()
        free = RULES.actions(state)
        cell = rng.choice(free) if level <= 4 else tactical_cell(state, rng)
        elapsed_ms = (time.perf_counter() - started) * 1000.0
        return EngineMove(cell, len(free), None, elapsed_ms, depth=1, mark=RULES.player(state))

    def rating(self, level: int) -> float:
        """A nominal ladder (this game was never calibrated in matches): 100 points a level."""
        if not 1 <= level <= 8:
            raise KeyError(level)
        return 800.0 + 100.0 * level


SEVEN_BY_SEVEN = SevenBySeven()
