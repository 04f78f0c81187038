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

**States** are the solver's (:mod:`engine.connect_four.solver`) plus one per column whose value is settled without a
search; an answer read from the book evaluated none (0). Level 8's solver runs until it proves the value, at most
:data:`EXACT_CAP_MS` (or the caller's longer budget); a search stopped there is cut short: the move is then level 7's
(:data:`FALLBACK_DEPTH`), unproven, and its states count both searches.

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

from engine.connect_four import book as opening_book
from engine.connect_four.cells import landing_cells
from engine.connect_four.horizon import horizon_move
from engine.connect_four.rules import (
    BOTTOM,
    CELLS,
    CONNECT_FOUR,
    ConnectFourState,
)
from engine.connect_four.solver import CENTRE_FIRST, Kernel, new_kernel, score_value, solve, solve_by, threat_cells
from engine.errors import GameOverError
from engine.protocol import EngineMove, GameValue, Mark, Source

__all__ = [
    "EXACT_CAP_MS",
    "FALLBACK_DEPTH",
    "Analysis",
    "Perfect",
    "analyse",
    "book_move",
    "book_scores",
    "kernel",
    "level_move",
    "perfect_move",
]

EXACT_CAP_MS = 60_000.0
"""The longest level 8's solver searches one move, ms, unless its caller allows more: the hard cap of a search that
runs until it proves the value. On 200 random positions of 6-36 plies the longest took 23.7 s, niced on the shared
machine (docs/connect-four.md); from 12 plies on, at most 2.7 s."""
FALLBACK_DEPTH = 7
"""The depth of the move played when the solver is cut short: level 7's
(:data:`engine.games.connect_four.CONNECT_FOUR_LEVELS`)."""
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
        states: states evaluated (the solver's, and one per column the rules settle): 0 when read from the book.
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
    if scores is not None:  # read, not searched: no state evaluated
        return Analysis({column: score_value(score, discs) for column, score in scores.items()}, scores, 0)
    values: dict[int, GameValue] = {}
    scores = {}
    states = 0
    with kernel() as k:
        for column in CONNECT_FOUR.actions(state):
            child = CONNECT_FOUR.result(state, column)
            if CONNECT_FOUR.terminal(child):
                states += 1  # settled by the rules; a solve counts its own root
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
        value: the position's exact value for the side to move (the move keeps it); ``None`` when cut short.
        states: states evaluated for this move (see the module's docstring): 0 from the book.
        source: ``"book"`` when read from the opening book, ``"search"`` when the solver proved it, ``"cut short"``
            when the solver reached its cap (the move is then :data:`FALLBACK_DEPTH`'s search's, ``depth``).
        depth: the fallback's depth, plies, when cut short; else ``None``.
    """

    column: int
    value: GameValue | None
    states: int
    source: Source
    depth: int | None = None


def perfect_move(state: ConnectFourState, cap_ms: float = EXACT_CAP_MS, rng: random.Random | None = None) -> Perfect:
    """A column that keeps the position's exact value (:class:`Perfect`; see the module's docstring), solved within
    ``cap_ms`` (wall clock); past it, level 7's move (``rng`` breaks its ties), cut short. A win in one is played
    at once (the nearest the centre), nothing evaluated.

    Raises:
        GameOverError: the game is over.
    """
    if CONNECT_FOUR.terminal(state):
        raise GameOverError("the game is over: there is no move to choose")
    found = book_move(state)
    if found is not None:
        column, score = found
        return Perfect(column, score_value(score, state.discs), 0, "book")
    legal = CONNECT_FOUR.actions(state)
    for column in (c for c in CENTRE_FIRST if c in legal):  # a win in one is played before any search
        if CONNECT_FOUR.winner(CONNECT_FOUR.result(state, column)) is not None:
            return Perfect(column, GameValue("win", 1), 0, "search")
    deadline = time.monotonic() + cap_ms / 1000.0
    with kernel() as k:
        before, checked = k.count, 0
        root = solve_by(state, k, deadline)
        if root is not None:
            k.deadline, after_root = deadline, k.count
            try:
                for column in (c for c in CENTRE_FIRST if c in legal):
                    keeps, settled = _keeps(CONNECT_FOUR.result(state, column), root.score, k)
                    checked += settled
                    if k.stopped:
                        break
                    if keeps:
                        states = root.states + k.count - after_root + checked
                        return Perfect(column, root.value, states, "search")
                else:  # pragma: no cover - the score is a column's
                    raise AssertionError("no column keeps the solved score")
            finally:
                k.deadline, k.stopped = 0.0, False
        searched = k.count - before + checked
    column, states, depth = horizon_move(state, FALLBACK_DEPTH, 0.0, 1.0, rng or random.Random())
    return Perfect(column, None, searched + states, "cut short", depth)


def _keeps(child: ConnectFourState, score: int, k: Kernel) -> tuple[bool, int]:
    """``(keeps, settled)``: whether the move to ``child`` keeps its parent's exact ``score`` (the child scores
    ``-score`` for its side to move, at least that, always), by one null-window search of ``k`` (which counts its
    states), or at once when the game ended or its side to move wins at once (the kernel searches neither: then
    ``settled`` is 1, the one state evaluated outside the kernel, else 0)."""
    if CONNECT_FOUR.winner(child) is not None:
        return True, 1  # a win at once is the best score there is
    if CONNECT_FOUR.terminal(child):
        return score == 0, 1
    mask = child.x | child.o
    n = mask.bit_count()
    mover = child.x if n % 2 == 0 else child.o
    if threat_cells(mover, mask) & (mask + BOTTOM):
        return -(CELLS - n) == score, 1
    return k.value(mover, mask, n, -score, -score + 1) <= -score, 0


def level_move(
    state: ConnectFourState,
    depth: int | None,
    noise: float,
    sees: float,
    rng: random.Random,
    budget_ms: float | None = None,
    cap_ms: float | None = None,
) -> EngineMove:
    """A level's move as the cell its disc falls to: a perfect move (:func:`perfect_move`) when ``depth`` is ``None``
    (level 8), else :func:`~engine.connect_four.horizon.horizon_move` to ``depth`` plies with ``noise`` and ``sees``.
    Level 8's solver gets :data:`EXACT_CAP_MS`, or ``budget_ms`` when that is longer: an exact game gives every move
    the time to prove its value, whatever budget a search under a budget would get; ``cap_ms``, when given, is the
    solver's cap instead (a caller that must answer by then).

    Raises:
        GameOverError: the game is over.
    """
    started = time.perf_counter()
    mover = Mark.X if state.x.bit_count() == state.o.bit_count() else Mark.O
    if depth is None:
        cap = max(EXACT_CAP_MS, budget_ms or 0.0) if cap_ms is None else cap_ms
        best = perfect_move(state, cap, rng)
        elapsed_ms = (time.perf_counter() - started) * 1000.0
        cell = _landing(state, best.column)
        return EngineMove(cell, best.states, best.value, elapsed_ms, best.source, best.depth, mark=mover)
    column, states, searched = horizon_move(state, depth, noise, sees, rng)
    elapsed_ms = (time.perf_counter() - started) * 1000.0
    return EngineMove(_landing(state, column), states, None, elapsed_ms, depth=searched, mark=mover)


def _landing(state: ConnectFourState, column: int) -> int:
    """The cell a disc dropped in ``column`` falls to (the column is not full)."""
    cell = landing_cells(state)[column]
    assert cell is not None, f"column {column} is full"
    return cell
