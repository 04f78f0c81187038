"""What a hint and a review say on a variant other than 3x3, as plain values the Discord layer renders.

- 4x4 and 5x5 are solved by their engine (exact search, Uiterwijk 2019): a hint gives every free cell's exact
  value (:class:`ExactHint`) and a review labels each move exactly as on 3x3 (:class:`ExactReviewedMove`).
- Ultimate is searched under a time budget: a hint gives the search's best moves with the expected score of the
  player to move (a draw counts half; :mod:`engine.ultimate.scale`) or the result the search proved, the depth
  reached and the states evaluated (:class:`EstimatedHint`, an estimate), and a review labels each move from a
  fixed-budget search (:class:`EstimatedReviewedMove`) by the expected score it gave away, with the thresholds
  below in percentage points.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from engine import Mark
from engine.protocol import GameValue, ValueKind
from engine.ultimate.play import REVIEW_THRESHOLDS

__all__ = [
    "BLUNDER_POINTS",
    "HINT_BUDGET_MS",
    "INACCURACY_POINTS",
    "MISTAKE_POINTS",
    "REVIEW_BUDGET_MS",
    "EstimatedHint",
    "EstimatedMove",
    "EstimatedReviewedMove",
    "ExactHint",
    "ExactReviewedMove",
    "ReviewLabel",
]

HINT_BUDGET_MS: Final = 1000.0
"""Ultimate: the search budget of a hint, ms."""
REVIEW_BUDGET_MS: Final = 100.0
"""Ultimate: the fixed search budget per reviewed move, ms (a 60-move game: about 6 s in the hint worker)."""
_THRESHOLDS = {name: round(100 * loss) for name, loss in REVIEW_THRESHOLDS}
BLUNDER_POINTS: Final = _THRESHOLDS["blunder"]
"""Ultimate review: a move whose expected score is at least this many percentage points below the best move found
is a blunder (25); throwing away a proven win, or walking into a proven loss, always is
(``engine.ultimate.play.REVIEW_THRESHOLDS``)."""
MISTAKE_POINTS: Final = _THRESHOLDS["mistake"]
"""Ultimate review: a loss of at least this many percentage points (below :data:`BLUNDER_POINTS`) is a mistake
(12)."""
INACCURACY_POINTS: Final = _THRESHOLDS["inaccuracy"]
"""Ultimate review: a loss of at least this many percentage points (below :data:`MISTAKE_POINTS`) is an inaccuracy
(5)."""

ReviewLabel = Literal["best", "slower", "inaccuracy", "mistake", "blunder"]
"""Exact labels as on 3x3 (:mod:`engine.review`); an estimated review uses ``best`` (no label) and the last three."""


@dataclass(frozen=True, slots=True)
class ExactHint:
    """4x4 and 5x5: every free cell's exact value for the player to move (``values``: ``(cell, value)``, 0-based
    cells in board order), the states the solver evaluated and its wall time in ms."""

    values: tuple[tuple[int, GameValue], ...]
    states: int
    elapsed_ms: float


@dataclass(frozen=True, slots=True)
class EstimatedMove:
    """One of the search's best moves: the 0-based ``cell``, the expected score of the player to move after it (0-1,
    a draw 1/2; exactly 1, 1/2 or 0 when proven), and ``proven`` (the result the search proved, else ``None``) with
    ``plies``, the proven win's or loss's exact distance including the move (``None`` when not measured)."""

    cell: int
    expected: float
    proven: ValueKind | None = None
    plies: int | None = None


@dataclass(frozen=True, slots=True)
class EstimatedHint:
    """Ultimate: the search's best moves (up to three, best first), the depth reached in plies, the states
    evaluated, the wall time and the budget in ms. An estimate of the engine, not a proof."""

    best: tuple[EstimatedMove, ...]
    depth: int
    states: int
    elapsed_ms: float
    budget_ms: float


@dataclass(frozen=True, slots=True)
class ExactReviewedMove:
    """4x4 and 5x5: one move of a finished game with its exact label, as on 3x3.

    ``ply`` is 1-based; ``before`` and ``after`` are the position's exact value for the mover before and after the
    move; ``best`` the cells that keep the best value; ``states`` the solver's count in that position."""

    ply: int
    mark: Mark
    cell: int
    label: ReviewLabel
    before: GameValue
    after: GameValue
    best: tuple[int, ...]
    states: int


@dataclass(frozen=True, slots=True)
class EstimatedReviewedMove:
    """Ultimate: one move of a finished game against the best move a fixed-budget search found (an estimate).

    ``score`` and ``best_score`` are the mover's expected scores after the move and after the best move, in percent;
    ``loss`` is ``best_score - score`` (percentage points, never negative); ``label`` ``None`` when the loss is below
    :data:`INACCURACY_POINTS`; ``depth`` and ``states`` describe the search."""

    ply: int
    mark: Mark
    cell: int
    label: ReviewLabel | None
    score: int
    best: int
    best_score: int
    loss: int
    depth: int
    states: int
