"""What the bot calls to play Ultimate tic-tac-toe: a move under a budget, hints, and a move's review.

All three run :func:`engine.ultimate_search.search` (alpha-beta with iterative deepening) in the calling
process. Scores are points for the player to move (a won small board is worth about 100, see
:mod:`engine.ultimate_eval`); a score of at least :data:`MATE_BOUND` in absolute value is a proven result,
which :func:`describe_score` turns into "win in N" or "loss in N" (plies).

Difficulty maps to a budget and noise (:data:`LEVELS`): noise adds a Gaussian of that many points, drawn
from the caller's ``rng``, to each of the best few root moves' exact scores before the pick.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.players import Difficulty
from engine.ultimate import UltimateState, UltimateTicTacToe
from engine.ultimate_search import MATE_BOUND, WIN, RootMove, search

__all__ = [
    "LEVELS",
    "REVIEW_THRESHOLDS",
    "Decision",
    "Hints",
    "MoveReview",
    "choose_move",
    "describe_score",
    "hints",
    "level_move",
    "review_move",
]

NOISY_CANDIDATES = 4


#: Per level: (budget in ms, noise in points). "Unbeatable" is the strongest setting, not a proof.
LEVELS: dict[Difficulty, tuple[float, float]] = {
    Difficulty.EASY: (100.0, 150.0),
    Difficulty.MEDIUM: (300.0, 40.0),
    Difficulty.UNBEATABLE: (1000.0, 0.0),
}

#: A reviewed move's loss (points: best score minus the move's) from which it is labelled, worst first.
REVIEW_THRESHOLDS: tuple[tuple[str, int], ...] = (("blunder", 250), ("mistake", 100), ("inaccuracy", 40))


@dataclass(frozen=True, slots=True)
class Decision:
    """A chosen move.

    Attributes:
        move: grid cell (0-80).
        score: the search's estimate of the move, points for the player to move.
        states: states evaluated (nodes visited).
        elapsed_ms: wall time in ms.
        depth: the deepest completed iteration, in plies.
        pv: the principal variation, starting with the search's best move (which ``move`` may differ from
            when noise is on).
    """

    move: int
    score: int
    states: int
    elapsed_ms: float
    depth: int
    pv: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Hints:
    """The search's best moves: up to three (grid cell, score) pairs, best first, with exact scores."""

    best: tuple[tuple[int, int], ...]
    depth: int
    states: int
    elapsed_ms: float


@dataclass(frozen=True, slots=True)
class MoveReview:
    """A played move against the search's best, both scored by the same fixed-budget search.

    Attributes:
        move, move_score: the played move (grid cell) and its exact score.
        best, best_score: the best move found and its score (``best == move`` when the move was best).
        loss: ``best_score - move_score`` (points, never negative).
        label: "blunder", "mistake", "inaccuracy" or ``None`` (see :data:`REVIEW_THRESHOLDS`); throwing
            away a proven win, or walking into a proven loss, is always a blunder.
    """

    move: int
    move_score: int
    best: int
    best_score: int
    loss: int
    label: str | None
    depth: int
    states: int


def choose_move(
    state: UltimateState,
    budget_ms: float = 1000.0,
    noise: float = 0.0,
    rng: random.Random | None = None,
    max_nodes: int | None = None,
) -> Decision:
    """Pick a move for the player to move within ``budget_ms`` (wall time; ``max_nodes`` caps states too).

    With ``noise`` > 0 the best :data:`NOISY_CANDIDATES` moves get exact scores and the pick is the highest
    score plus a Gaussian(0, ``noise``) drawn from ``rng``; deterministic with a seeded rng and ``max_nodes``.

    Raises:
        GameOverError: the game is over.
    """
    multipv = NOISY_CANDIDATES if noise > 0 else 1
    report = search(state, budget_ms, max_nodes=max_nodes, multipv=multipv)
    pick = report.moves[0]
    if noise > 0:
        rng = rng if rng is not None else random.Random()
        exact = [m for m in report.moves if m.exact][:NOISY_CANDIDATES]
        pick = max(exact, key=lambda m: m.score + rng.gauss(0.0, noise))
    return Decision(pick.move, pick.score, report.states, report.elapsed_ms, report.depth, report.pv)


def level_move(state: UltimateState, level: Difficulty, rng: random.Random | None = None) -> Decision:
    """:func:`choose_move` with the budget and noise of ``level`` (:data:`LEVELS`).

    Raises:
        GameOverError: the game is over.
    """
    budget_ms, noise = LEVELS[level]
    return choose_move(state, budget_ms, noise, rng)


def hints(state: UltimateState, budget_ms: float = 1000.0, max_nodes: int | None = None) -> Hints:
    """The three best moves with exact scores (fewer when fewer are legal), the depth and the states.

    Raises:
        GameOverError: the game is over.
    """
    report = search(state, budget_ms, max_nodes=max_nodes, multipv=3)
    best = tuple((m.move, m.score) for m in report.moves if m.exact)[:3]
    return Hints(best, report.depth, report.states, report.elapsed_ms)


def review_move(state: UltimateState, move: int, budget_ms: float = 300.0, max_nodes: int | None = None) -> MoveReview:
    """Score the played ``move`` (grid cell) against the best move in ``state`` with one search.

    Raises:
        GameOverError: the game is over.
        IllegalMoveError: (a subclass) ``move`` is not legal in ``state``.
    """
    UltimateTicTacToe().result(state, move)  # raises on an illegal move
    report = search(state, budget_ms, max_nodes=max_nodes, exact_moves=frozenset({move}))
    played: RootMove = next(m for m in report.moves if m.move == move)
    top = report.moves[0]
    best, best_score = (move, played.score) if played.score >= top.score else (top.move, top.score)
    loss = best_score - played.score
    label = next((name for name, threshold in REVIEW_THRESHOLDS if loss >= threshold), None)
    if (best_score >= MATE_BOUND > played.score) or (best_score > -MATE_BOUND >= played.score):
        label = "blunder"
    return MoveReview(move, played.score, best, best_score, loss, label, report.depth, report.states)


def describe_score(score: int) -> str | None:
    """The text "win in N" or "loss in N" (plies, mover's view) for a proven score, else ``None`` (an estimate)."""
    if score >= MATE_BOUND:
        return f"win in {WIN - score}"
    if score <= -MATE_BOUND:
        return f"loss in {WIN + score}"
    return None
