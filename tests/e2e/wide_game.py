"""A game written outside the engine and wider than buttons allow: four in a row on a square board, 7 x 7 (or any
side up to 19: :class:`WideBoard`).

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

__all__ = ["SEVEN_BY_SEVEN", "FourInARow", "WideBoard", "tactical_cell"]

K = 4
Board = tuple[Mark | None, ...]


def _lines(side: int) -> tuple[tuple[int, ...], ...]:
    found = []
    for row in range(side):
        for column in range(side):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(row + i * dr, column + i * dc) for i in range(K)]
                if all(0 <= r < side and 0 <= c < side for r, c in cells):
                    found.append(tuple(r * side + c for r, c in cells))
    return tuple(found)


class FourInARow:
    """The rules (AIMA §5.1) on a board ``side`` x ``side``: a state is the cells row by row, each a mark or
    ``None``; X moves first."""

    def __init__(self, side: int) -> None:
        self.cells = side * side
        self.lines = _lines(side)
        self.lines_of = tuple(tuple(line for line in self.lines if cell in line) for cell in range(self.cells))

    def initial_state(self) -> Board:
        return (None,) * self.cells

    def player(self, state: Board) -> Mark:
        return Mark.X if sum(cell is not None for cell in state) % 2 == 0 else Mark.O

    def actions(self, state: Board) -> tuple[int, ...]:
        return () if self.terminal(state) else tuple(c for c in range(self.cells) if state[c] is None)

    def result(self, state: Board, action: int) -> Board:
        if self.terminal(state):
            raise GameOverError("the game is over")
        if not isinstance(action, int) or not 0 <= action < self.cells:
            raise CellOutOfRangeError(f"cell {action!r} is off the board")
        if state[action] is not None:
            raise CellOccupiedError(f"cell {action + 1} is taken")
        return (*state[:action], self.player(state), *state[action + 1 :])

    def winning_cells(self, state: Board) -> frozenset[int]:
        won = [line for line in self.lines if state[line[0]] is not None and len({state[c] for c in line}) == 1]
        return frozenset(cell for line in won for cell in line)

    def terminal(self, state: Board) -> bool:
        return bool(self.winning_cells(state)) or all(cell is not None for cell in state)

    def utility(self, state: Board) -> int:
        won = self.winning_cells(state)
        return 0 if not won else 1 if state[min(won)] is Mark.X else -1


def tactical_cell(rules: FourInARow, state: Board, rng: random.Random) -> int:
    """A win in one, else a block of the opponent's win in one, else a free cell on the most lines still open to the
    player to move."""
    mover = rules.player(state)
    free = rules.actions(state)
    for mark in (mover, mover.other):
        if hits := [c for c in free if any(all(o == c or state[o] is mark for o in ln) for ln in rules.lines_of[c])]:
            return rng.choice(hits)
    lines_of = rules.lines_of
    scores = {cell: sum(all(state[c] is not mover.other for c in line) for line in lines_of[cell]) for cell in free}
    best = max(scores.values())
    return rng.choice([cell for cell, score in scores.items() if score == best])


class WideBoard(Variant):
    """Four in a row on a board ``side`` x ``side`` (a game ``code``): levels 1-4 random, 5-8 tactical
    (:func:`tactical_cell`); no exact values."""

    exact = False

    def __init__(self, side: int, code: str) -> None:
        self.name = f"{side}x{side}"
        self.title = f"{side}x{side}, four in a row"
        self.description = f"Four in a row on a board {side} wide and {side} high"
        self.code = code
        self.width = self.height = side
        self.game: FourInARow = FourInARow(side)

    def mark(self, state: Board, cell: int) -> Mark | None:
        return state[cell]

    def winning_line(self, state: Board) -> frozenset[int]:
        return self.game.winning_cells(state)

    def answer_ms(self, state: Board, level: int, algorithm: Literal["minimax", "alpha-beta"]) -> float:
        """A tactical move scans each free cell's lines: a few milliseconds at most on 19 x 19."""
        return 20.0

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
        if self.game.terminal(state):
            raise GameOverError("the game is over")
        rng = rng if rng is not None else random.Random()
        started = time.perf_counter()
        free = self.game.actions(state)
        cell = rng.choice(free) if level <= 4 else tactical_cell(self.game, state, rng)
        elapsed_ms = (time.perf_counter() - started) * 1000.0
        return EngineMove(cell, len(free), None, elapsed_ms, depth=1, mark=self.game.player(state))

    def rating(self, level: int) -> float:
        """A nominal ladder (this game was never calibrated in matches): 100 points a level."""
        if not 1 <= level <= 8:
            raise KeyError(level)
        return 800.0 + 100.0 * level


SEVEN_BY_SEVEN = WideBoard(7, "q")
