"""How the bot plays Connect Four: every column's exact value, the perfect move, and the weaker levels' search.

- **Exact values** (:func:`analyse`): each legal column's value for the side to move: read from the opening book
  (:mod:`engine.connect_four.book`) when the position is in it or all its children are, else by the solver
  (:mod:`engine.connect_four.solver`) on every child with one shared kernel, so its table carries over between the
  children and between calls in one process.
- **Perfect play** (:func:`perfect_move`): a column that keeps the position's exact value (plies included): the
  book's move up to 12 discs (11 as O), else the solver's: the position's score, then the first column nearest the
  centre whose child scores its negation (a null-window search each).
- **The weaker levels** (:func:`horizon_move`): a win in one is always played; the opponent's single immediate
  threat is blocked with a level's probability; otherwise negamax alpha-beta to a fixed depth with a heuristic at
  the cut-off (AIMA §5.4): every window of four cells still open to one side scores for it by how many of its discs
  it holds, and a Gaussian noise on the root moves' scores lets a close second choice be played.

**States** are the solver's (:mod:`engine.connect_four.solver`) plus one per column whose value is read or settled
without a search; an answer from the book counts one state per legal column, the children's values it read.

Moves are columns here (0-6); :class:`engine.games.connect_four.ConnectFourVariant` turns them into the cells the
discs fall to.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Literal

from engine.connect_four import book as opening_book
from engine.connect_four.rules import (
    BOTTOM,
    CELLS,
    CONNECT_FOUR,
    HEIGHT,
    STRIDE,
    WIDTH,
    ConnectFourState,
    column_mask,
    has_four,
)
from engine.connect_four.solver import CENTRE_FIRST, Kernel, new_kernel, score_value, solve, threat_cells
from engine.errors import GameOverError
from engine.protocol import GameValue

__all__ = [
    "WINDOWS",
    "Analysis",
    "Perfect",
    "analyse",
    "book_move",
    "book_scores",
    "horizon_move",
    "kernel",
    "perfect_move",
]

_FLIP = {"win": "loss", "loss": "win", "draw": "draw"}
WIN = 100_000
_INF = 1_000_000


def _windows() -> tuple[int, ...]:
    """Every line of four cells on the board as a bitboard mask (69 of them)."""
    found = []
    for column in range(WIDTH):
        for row in range(HEIGHT):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                cells = [(column + i * dc, row + i * dr) for i in range(4)]
                if all(0 <= c < WIDTH and 0 <= r < HEIGHT for c, r in cells):
                    found.append(sum(1 << (c * STRIDE + r) for c, r in cells))
    return tuple(found)


WINDOWS = _windows()
"""The 69 lines of four cells (bitboard masks)."""
_WEIGHTS = (0, 1, 8, 64)
"""The worth of a window open to one side holding 0-3 of its discs."""

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


def _sides(state: ConnectFourState) -> tuple[int, int]:
    """(the side to move's discs, the opponent's)."""
    return (state.x, state.o) if state.x.bit_count() == state.o.bit_count() else (state.o, state.x)


def _drops(occupied: int) -> list[int]:
    """The bit each non-full column's next disc takes, centre first."""
    found = []
    for column in CENTRE_FIRST:
        disc = (occupied + (1 << (column * STRIDE))) & column_mask(column)
        if disc:
            found.append(disc)
    return found


def _evaluate(me: int, opp: int) -> int:
    """The static worth of a position for the side holding ``me``: its open windows minus the opponent's."""
    score = 0
    for window in WINDOWS:
        mine, theirs = me & window, opp & window
        if mine and not theirs:
            score += _WEIGHTS[mine.bit_count()]
        elif theirs and not mine:
            score -= _WEIGHTS[theirs.bit_count()]
    return score


def _wins_at_once(me: int, occupied: int) -> list[int]:
    """The columns' next discs that complete four for ``me`` at once."""
    return [disc for disc in _drops(occupied) if has_four(me | disc)]


def horizon_move(
    state: ConnectFourState, depth: int, noise: float, sees: float, rng: random.Random
) -> tuple[int, int, int]:
    """A weaker level's move: ``(column, states, depth searched)`` (see the module's docstring). ``depth`` ≥ 1 plies,
    ``noise`` the standard deviation (evaluation points) added to each root score, ``sees`` the probability (0-1)
    of noticing the opponent's single immediate threat.

    Raises:
        GameOverError: the game is over.
        ValueError: ``depth`` is below 1.
    """
    if depth < 1:
        raise ValueError(f"depth {depth!r} must be at least 1")
    if CONNECT_FOUR.terminal(state):
        raise GameOverError("the game is over: there is no move to choose")
    me, opp = _sides(state)
    occupied = me | opp
    drops = _drops(occupied)
    wins = _wins_at_once(me, occupied)
    if wins:
        return _column(wins[0]), len(drops), 1
    threats = _wins_at_once(opp, occupied)
    if len(threats) == 1 and (sees >= 1 or rng.random() < sees):
        return _column(threats[0]), len(drops), 1
    counter = [0]
    value = _searcher(counter)
    scored = []
    for disc in drops:
        counter[0] += 1
        score = -value(opp, me | disc, depth - 1, -_INF, _INF, 1)
        scored.append((score + (rng.gauss(0.0, noise) if noise > 0 and abs(score) < WIN // 2 else 0.0), disc))
    top = max(score for score, _ in scored)
    ties = [disc for score, disc in scored if score == top]
    return _column(rng.choice(ties) if noise <= 0 else ties[0]), counter[0], depth


def _column(disc: int) -> int:
    return (disc.bit_length() - 1) // STRIDE


def _searcher(counter: list[int]) -> Callable[[int, int, int, int, int, int], int]:
    """Negamax alpha-beta to a depth, the heuristic at the cut-off; a win ``p`` plies below the root scores
    ``WIN - p``."""

    def value(me: int, opp: int, depth: int, alpha: int, beta: int, ply: int) -> int:
        if has_four(opp):
            return -(WIN - ply)
        occupied = me | opp
        drops = _drops(occupied)
        if not drops:
            return 0
        if depth == 0:
            return _evaluate(me, opp)
        best = -_INF
        for disc in drops:
            counter[0] += 1
            score = -value(opp, me | disc, depth - 1, -beta, -alpha, ply + 1)
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        return best

    return value


def elapsed_ms(started: float) -> float:
    """Milliseconds since ``started`` (a :func:`time.perf_counter` reading)."""
    return (time.perf_counter() - started) * 1000.0
