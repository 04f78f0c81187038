"""How the bot plays Connect Four: every column's exact value, the perfect move, and the weaker levels' search.

- **Exact values** (:func:`analyse`): each legal column's value for the side to move: read from the opening book
  (:mod:`engine.connect_four.book`) when the position is in it or all its children are, else by the solver
  (:mod:`engine.connect_four.solver`) on every child with one shared kernel, so its table carries over between the
  children and between calls in one process.
- **Perfect play** (:func:`perfect_move`): a column that keeps the position's exact value (plies included): the
  book's move up to 12 discs (11 as O), else the solver's: the position's score, then the first column nearest the
  centre whose child scores its negation (a null-window search each).
- **The weaker levels** (:func:`horizon_move`, from :mod:`engine.connect_four.horizon`): a win in one, the opponent's
  single immediate threat blocked with a level's probability, else depth-limited alpha-beta with a heuristic.

**States** are the solver's (:mod:`engine.connect_four.solver`) plus one per column whose value is read or settled
without a search; an answer from the book counts one state per legal column, the children's values it read.

Moves are columns here (0-6); :class:`engine.games.connect_four.ConnectFourVariant` turns them into the cells the
discs fall to.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Literal

from engine.connect_four import book as opening_book
from engine.connect_four.cells import landing_cells
from engine.connect_four.horizon import horizon_move
from engine.connect_four.rules import (
    BOTTOM,
    CELLS,
    CONNECT_FOUR,
    ConnectFourState,
)
from engine.connect_four.solver import CENTRE_FIRST, Kernel, new_kernel, score_value, solve, threat_cells
from engine.errors import GameOverError
from engine.protocol import EngineMove, GameValue, Mark

__all__ = [
    "Analysis",
    "Perfect",
    "analyse",
    "book_move",
    "book_scores",
    "kernel",
    "level_move",
    "perfect_move",
]

_FLIP = {"win": "loss", "loss": "win", "draw": "draw"}
_lock = threading.Lock()
_kernel: Kernel | None = None


@contextmanager
def kernel() -> Iterator[Kernel]:
    """The process's solver kernel, held for the caller alone: its transposition table (about 64 MB in C) carries
    over between the searches of one process, and the lock keeps two threads out of it at once."""
    global _kernel
    with _lock:
        if _kernel is None:
            _kernel = new_kernel()
        yield _kernel


@dataclass(frozen=True, slots=True)
class Analysis:
    """Every legal column's exact value in one position.

    Attributes:
        values: column (0-6) → its exact value for the side to move (a win now is ``win`` in 1).
        scores: column → the same as a solver score (:mod:`engine.connect_four.solver`).
        states: states the solver evaluated.
    """

    values: dict[int, GameValue]
    scores: dict[int, int]
    states: int


def book_scores(state: ConnectFourState) -> dict[int, int] | None:
    """Every legal column's exact score (column → solver score for the side to move) read from the opening book: the
    position's own entry, or its children's when each child is over or in the book; ``None`` otherwise."""
    book = opening_book.shipped()
    if book is None or state.discs > opening_book.PLIES:
        return None
    found = book.column_scores(state)
    if found is not None:
        return found
    scores: dict[int, int] = {}
    for column in CONNECT_FOUR.actions(state):
        child = CONNECT_FOUR.result(state, column)
        if CONNECT_FOUR.winner(child) is not None:
            scores[column] = CELLS - state.discs - 1
            continue
        below = book.column_scores(child)
        if below is None:
            return None
        scores[column] = -max(below.values())
    return scores


def book_move(state: ConnectFourState) -> tuple[int, int] | None:
    """``(column, score)``: the opening book's move in ``state`` and the position's exact score, or ``None``."""
    book = opening_book.shipped()
    return None if book is None else book.move(state)


def analyse(state: ConnectFourState) -> Analysis:
    """Every legal column's exact value for the side to move (:class:`Analysis`): from the book where it answers
    (:func:`book_scores`), else by the solver.

    Raises:
        GameOverError: the game is over.
    """
    if CONNECT_FOUR.terminal(state):
        raise GameOverError("the game is over: there is nothing to analyse")
    discs = state.discs
    scores = book_scores(state)
    if scores is not None:
        return Analysis({column: score_value(score, discs) for column, score in scores.items()}, scores, len(scores))
    values: dict[int, GameValue] = {}
    scores = {}
    states = 0
    with kernel() as k:
        for column in CONNECT_FOUR.actions(state):
            child = CONNECT_FOUR.result(state, column)
            states += 1
            if CONNECT_FOUR.winner(child) is not None:
                values[column], scores[column] = GameValue("win", 1), 42 - discs
            elif CONNECT_FOUR.terminal(child):
                values[column], scores[column] = GameValue("draw", 1), 0
            else:
                solution = solve(child, k)
                states += solution.states
                after = solution.value
                values[column] = GameValue(_FLIP[after.result], after.plies + 1)  # type: ignore[arg-type]
                scores[column] = -solution.score
    return Analysis(values, scores, states)


@dataclass(frozen=True, slots=True)
class Perfect:
    """Level 8's move.

    Attributes:
        column: 0-6.
        value: the position's exact value for the side to move (the move keeps it).
        states: states evaluated (see the module's docstring).
        source: ``"book"`` when read from the opening book, else ``"search"``.
    """

    column: int
    value: GameValue
    states: int
    source: Literal["search", "book"]


def perfect_move(state: ConnectFourState) -> Perfect:
    """A column that keeps the position's exact value (:class:`Perfect`; see the module's docstring).

    Raises:
        GameOverError: the game is over.
    """
    if CONNECT_FOUR.terminal(state):
        raise GameOverError("the game is over: there is no move to choose")
    found = book_move(state)
    if found is not None:
        column, score = found
        return Perfect(column, score_value(score, state.discs), len(CONNECT_FOUR.actions(state)), "book")
    legal = CONNECT_FOUR.actions(state)
    with kernel() as k:
        root = solve(state, k)
        before, states = k.count, root.states
        for column in (c for c in CENTRE_FIRST if c in legal):
            states += 1
            if _keeps(CONNECT_FOUR.result(state, column), root.score, k):
                return Perfect(column, root.value, states + k.count - before, "search")
    raise AssertionError("no column keeps the solved score")  # pragma: no cover - the score is a column's


def _keeps(child: ConnectFourState, score: int, k: Kernel) -> bool:
    """True when the move to ``child`` keeps its parent's exact ``score``: the child scores ``-score`` for its side
    to move (at least that, always), by one null-window search, or at once when the game ended or its side to move
    wins at once (the kernel searches neither)."""
    if CONNECT_FOUR.winner(child) is not None:
        return True  # a win at once is the best score there is
    if CONNECT_FOUR.terminal(child):
        return score == 0
    mask = child.x | child.o
    n = mask.bit_count()
    mover = child.x if n % 2 == 0 else child.o
    if threat_cells(mover, mask) & (mask + BOTTOM):
        return -(CELLS - n) == score
    return k.value(mover, mask, n, -score, -score + 1) <= -score


def level_move(state: ConnectFourState, depth: int | None, noise: float, sees: float, rng: random.Random) -> EngineMove:
    """A level's move as the cell its disc falls to: a perfect move (:func:`perfect_move`) when ``depth`` is ``None``
    (level 8), else :func:`~engine.connect_four.horizon.horizon_move` to ``depth`` plies with ``noise`` and ``sees``.

    Raises:
        GameOverError: the game is over.
    """
    started = time.perf_counter()
    mover = Mark.X if state.x.bit_count() == state.o.bit_count() else Mark.O
    if depth is None:
        best = perfect_move(state)
        elapsed_ms = (time.perf_counter() - started) * 1000.0
        return EngineMove(_landing(state, best.column), best.states, best.value, elapsed_ms, best.source, mark=mover)
    column, states, searched = horizon_move(state, depth, noise, sees, rng)
    elapsed_ms = (time.perf_counter() - started) * 1000.0
    return EngineMove(_landing(state, column), states, None, elapsed_ms, depth=searched, mark=mover)


def _landing(state: ConnectFourState, column: int) -> int:
    """The cell a disc dropped in ``column`` falls to (the column is not full)."""
    cell = landing_cells(state)[column]
    assert cell is not None, f"column {column} is full"
    return cell
