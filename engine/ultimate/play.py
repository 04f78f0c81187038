"""What the bot calls to play Ultimate tic-tac-toe: a move under a budget, hints, and a move's review.

All three run :func:`engine.ultimate.tree.search` (MCTS-Solver) in the calling process. A move's worth is an
:class:`Assessment` for the player making it: an expected score (a win 1, a draw 1/2; the search's mean rollout
score turned into the share of points players got from such positions, :func:`engine.ultimate.scale.
expected_score`), or, when the search proved it, the result itself ("win in N", "loss in N" in plies, "draw").

A level's budget and noise come from the game's table (:data:`engine.games.ultimate.ULTIMATE_LEVELS`): noise adds a
Gaussian of that standard deviation (in expected score) drawn from the caller's ``rng`` to each of the
:data:`NOISY_CANDIDATES` most searched moves' expected scores before the pick; a proven result counts as its score (1,
1/2, 0), so a proven win is kept and a proven loss avoided unless the noise is large.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.errors import IllegalMoveError
from engine.protocol import EngineMove, GameValue, Mark
from engine.ultimate.rules import UltimateState, UltimateTicTacToe
from engine.ultimate.scale import expected_score
from engine.ultimate.tree import Result, RootMove, search

__all__ = [
    "NOISY_CANDIDATES",
    "REVIEW_THRESHOLDS",
    "Assessment",
    "Decision",
    "Hints",
    "MoveReview",
    "assess",
    "choose_move",
    "hints",
    "review_move",
]

NOISY_CANDIDATES = 4

#: A reviewed move's loss (expected score: the best move's minus the move's) from which it is labelled, worst first.
REVIEW_THRESHOLDS: tuple[tuple[str, float], ...] = (("blunder", 0.25), ("mistake", 0.12), ("inaccuracy", 0.05))


@dataclass(frozen=True, slots=True)
class Assessment:
    """A move's worth for the player making it.

    Attributes:
        expected: the expected score in [0, 1] (a win 1, a draw 1/2); exactly 1, 1/2 or 0 when proven.
        proven: ``"win"``, ``"draw"`` or ``"loss"`` when the search proved it, else ``None`` (an estimate).
        plies: a proven win's or loss's exact distance in plies, this move included (``None``: not measured in
            time; the result is still proven).
    """

    expected: float
    proven: Result | None = None
    plies: int | None = None

    @property
    def value(self) -> GameValue | None:
        """The exact value ("win in N", "loss in N", "draw") when proven with its distance, else ``None``."""
        if self.proven == "draw":
            return GameValue("draw", self.plies or 0)
        if self.proven is None or self.plies is None:
            return None
        return GameValue(self.proven, self.plies)


def assess(move: RootMove) -> Assessment:
    """A root move's :class:`Assessment`: its proof, or its mean rollout score on the fitted scale."""
    if move.proof is not None:
        return Assessment({"win": 1.0, "draw": 0.5, "loss": 0.0}[move.proof], move.proof, move.plies)
    return Assessment(expected_score(move.mean))


@dataclass(frozen=True, slots=True)
class Decision:
    """A chosen move: the grid ``move`` (0-80) and its :class:`Assessment`, the ``states`` visited, the MCTS
    ``iterations``, the wall time in ms, the ``depth`` the tree reached (plies) and the principal variation
    ``pv`` (which starts with the search's best move; ``move`` may differ when noise is on)."""

    move: int
    assessment: Assessment
    states: int
    iterations: int
    elapsed_ms: float
    depth: int
    pv: tuple[int, ...]

    def as_move(self, mark: Mark) -> EngineMove:
        """This decision as the engine's one move record, played by ``mark``."""
        expected, value = self.assessment.expected, self.assessment.value
        return EngineMove(
            self.move, self.states, value, self.elapsed_ms, depth=self.depth, expected=expected, mark=mark
        )


@dataclass(frozen=True, slots=True)
class Hints:
    """The search's best moves: up to three (grid cell, :class:`Assessment`) pairs, best first."""

    best: tuple[tuple[int, Assessment], ...]
    depth: int
    states: int
    elapsed_ms: float


@dataclass(frozen=True, slots=True)
class MoveReview:
    """A played move against the search's best, both assessed by the same fixed-budget search.

    Attributes:
        move, move_value: the played move (grid cell) and its assessment.
        best, best_value: the best move found and its assessment (``best == move`` when the move was best).
        loss: ``best_value.expected - move_value.expected`` (never negative).
        label: "blunder", "mistake", "inaccuracy" or ``None`` (see :data:`REVIEW_THRESHOLDS`); throwing away a
            proven win, or walking into a proven loss, is always a blunder.
    """

    move: int
    move_value: Assessment
    best: int
    best_value: Assessment
    loss: float
    label: str | None
    depth: int
    states: int


def choose_move(
    state: UltimateState,
    budget_ms: float = 1000.0,
    noise: float = 0.0,
    rng: random.Random | None = None,
    iterations: int | None = None,
    seed: int | None = None,
) -> Decision:
    """Pick a move for the player to move within ``budget_ms`` (wall time; ``iterations`` caps the search too).

    The search's random numbers come from ``seed``, else from ``rng`` (else a fresh one); with ``noise`` > 0 the
    pick is the best of the :data:`NOISY_CANDIDATES` most searched moves' expected scores plus a Gaussian(0,
    ``noise``) drawn from ``rng``. Deterministic with a seed, a seeded ``rng`` and ``iterations`` with an
    infinite ``budget_ms``.

    Raises:
        GameOverError: the game is over.
        ValueError: neither budget is finite.
    """
    rng = rng if rng is not None else random.Random()
    report = search(state, budget_ms, iterations=iterations, seed=rng.getrandbits(64) if seed is None else seed)
    pick = report.best
    if noise > 0:
        candidates = report.moves[:NOISY_CANDIDATES]
        pick = max(candidates, key=lambda m: assess(m).expected + rng.gauss(0.0, noise))
    return Decision(
        pick.move, assess(pick), report.states, report.iterations, report.elapsed_ms, report.depth, report.pv
    )


def hints(state: UltimateState, budget_ms: float = 1000.0, iterations: int | None = None, seed: int = 0) -> Hints:
    """The three best moves (fewer when fewer are legal) with their assessments, the depth and the states.

    Raises:
        GameOverError: the game is over.
    """
    report = search(state, budget_ms, iterations=iterations, seed=seed, exact=3)
    best = tuple((m.move, assess(m)) for m in report.moves[:3])
    return Hints(best, report.depth, report.states, report.elapsed_ms)


def review_move(
    state: UltimateState, move: int, budget_ms: float = 300.0, iterations: int | None = None, seed: int = 0
) -> MoveReview:
    """Assess the played ``move`` (grid cell) against the best move in ``state`` with one search.

    Raises:
        GameOverError: the game is over.
        IllegalMoveError: (a subclass) ``move`` is not legal in ``state``.
    """
    UltimateTicTacToe().result(state, move)  # raises on an illegal move
    report = search(state, budget_ms, iterations=iterations, seed=seed)
    played_move = next((m for m in report.moves if m.move == move), None)
    if played_move is None:  # pragma: no cover - result() above accepted it, so the search listed it
        raise IllegalMoveError(f"cell {move!r} is not a legal move here")
    played, top = assess(played_move), assess(report.best)
    best, best_value = (move, played) if played.expected >= top.expected else (report.best.move, top)
    loss = best_value.expected - played.expected
    label = next((name for name, threshold in REVIEW_THRESHOLDS if loss >= threshold), None)
    if (best_value.proven == "win" and played.proven != "win") or (
        played.proven == "loss" and best_value.proven != "loss"
    ):
        label = "blunder"
    return MoveReview(move, played, best, best_value, loss, label, report.depth, report.states)
