"""Hints and reviews on the variants other than 3x3, computed in a worker (arguments and results are picklable).

- 4x4 and 5x5: the exact value of every legal move (:func:`engine.mnk.play.analyse`, exact search), so a hint lists
  every free cell's value and a review labels each move exactly as on 3x3 (a win turned into a draw is a mistake,
  into a loss a blunder; a slower win is slower; a loss hastened an inaccuracy). On 5x5 the exact analysis takes
  minutes before :data:`EXACT_FROM_MARKS` marks (the engine's opening book covers those plies), so a hint is
  refused there and a review starts at that ply.
- Ultimate: the engine's search under a budget (:func:`engine.ultimate.play.hints` and ``review_move``): expected
  scores, said to be estimates, or the results the search proved; reviews with the thresholds of
  :mod:`bot.games.hints`.
"""

from __future__ import annotations

from typing import Any

from bot.games.hints import (
    HINT_BUDGET_MS,
    REVIEW_BUDGET_MS,
    EstimatedHint,
    EstimatedMove,
    EstimatedReviewedMove,
    ExactHint,
    ExactReviewedMove,
    ReviewLabel,
)
from engine.mnk import play as mnk_play
from engine.mnk.rules import TicTacToe
from engine.protocol import GameValue
from engine.ultimate import play as ultimate_play
from engine.variants import variant as variant_named

__all__ = ["EXACT_FROM_MARKS", "exact_from", "variant_hint", "variant_review"]

EXACT_FROM_MARKS = 4
"""5x5: the marks on the board from which the exact analysis is fast (seconds at most, measured in
docs/engine.md; earlier it runs for minutes)."""


def exact_from(variant: str) -> int:
    """The first ply (marks on the board) at which ``variant``'s exact analysis is fast: 0, or 4 on 5x5."""
    return EXACT_FROM_MARKS if variant == "5x5" else 0


def variant_hint(variant: str, moves: tuple[int, ...]) -> ExactHint | EstimatedHint:
    """The hint for the player to move after ``moves`` on ``variant`` (4x4, 5x5: exact; ultimate: the estimate of a
    :data:`HINT_BUDGET_MS` search). Runs in a worker.

    Raises:
        GameOverError: the game is over.
        ValueError: ``variant`` is 3x3 (its hint is :func:`engine.analyse`), or a 5x5 position before
            :data:`EXACT_FROM_MARKS` marks.
    """
    rules = variant_named(variant)
    state = rules.replay(moves)
    if isinstance(rules.game, TicTacToe) and variant != "3x3":
        if len(moves) < exact_from(variant):
            raise ValueError(f"{variant}: no exact hint before {exact_from(variant)} marks")
        analysis = mnk_play.analyse(rules.game, state)
        return ExactHint(analysis.values, analysis.states, analysis.elapsed_ms)
    if variant == "ultimate":
        found = ultimate_play.hints(state, HINT_BUDGET_MS)
        best = tuple(EstimatedMove(cell, a.expected, a.proven, a.plies) for cell, a in found.best)
        return EstimatedHint(best, found.depth, found.states, found.elapsed_ms, HINT_BUDGET_MS)
    raise ValueError(f"no variant hint for {variant!r}")


def _label(before: GameValue, after: GameValue) -> ReviewLabel:
    """The exact label of a move worth ``after`` where the best move was worth ``before``, both for the mover and
    counted from the position before the move (as :mod:`engine.review` labels 3x3)."""
    if after.result != before.result:
        return "blunder" if after.result == "loss" else "mistake"
    if after.plies == before.plies:
        return "best"
    return "slower" if before.result == "win" else "inaccuracy"


def variant_review(
    variant: str, moves: tuple[int, ...]
) -> tuple[ExactReviewedMove, ...] | tuple[EstimatedReviewedMove, ...]:
    """Every move of a finished game of ``variant`` labelled: exactly on 4x4 and 5x5 (from ply
    :func:`exact_from` on), from a :data:`REVIEW_BUDGET_MS` search per move on ultimate. Runs in a worker.

    Raises:
        IllegalSequenceError: ``moves`` are not a legal game.
        ValueError: ``variant`` is 3x3 (see :func:`engine.review`).
    """
    rules = variant_named(variant)
    rules.replay(moves)  # raises on an illegal game before any search
    state: Any = rules.game.initial_state()
    if isinstance(rules.game, TicTacToe) and variant != "3x3":
        exact: list[ExactReviewedMove] = []
        for ply, cell in enumerate(moves, start=1):
            if ply > exact_from(variant):
                analysis = mnk_play.analyse(rules.game, state)
                values = dict(analysis.values)
                best_value = max(values.values(), key=_rank)
                best = tuple(c for c, v in values.items() if v == best_value)
                before, after = best_value, values[cell]
                mover = rules.game.player(state)
                exact.append(
                    ExactReviewedMove(ply, mover, cell, _label(before, after), before, after, best, analysis.states)
                )
            state = rules.game.result(state, cell)
        return tuple(exact)
    if variant == "ultimate":
        estimated: list[EstimatedReviewedMove] = []
        for ply, cell in enumerate(moves, start=1):
            mover = rules.game.player(state)
            found = ultimate_play.review_move(state, cell, REVIEW_BUDGET_MS)
            label = _estimated_label(found.label)
            score, top_score = round(100 * found.move_value.expected), round(100 * found.best_value.expected)
            reviewed = EstimatedReviewedMove(
                ply, mover, cell, label, score, found.best, top_score, top_score - score, found.depth, found.states
            )
            estimated.append(reviewed)
            state = rules.game.result(state, cell)
        return tuple(estimated)
    raise ValueError(f"no variant review for {variant!r}")


def _estimated_label(label: str | None) -> ReviewLabel | None:
    for known in ("blunder", "mistake", "inaccuracy"):
        if label == known:
            return known
    return None


def _rank(value: GameValue) -> tuple[int, int]:
    """Orders values for the mover: a win beats a draw beats a loss; a faster win and a slower loss are better."""
    order = {"win": 2, "draw": 1, "loss": 0}[value.result]
    return (order, -value.plies if value.result == "win" else value.plies)
