"""The scale a person reads an Ultimate tic-tac-toe estimate on: the expected score of the player to move.

The search's raw number is a move's mean rollout score (a win 1, a draw 1/2) under random play, which is not
what players score from the position: random rollouts exaggerate some positions and flatten others. As chess
sites turn centipawns into a win percentage, :func:`expected_score` maps the mean through a logistic curve
fitted by maximum likelihood to self-play games (each move's mean against the mover's final score, a draw
counting 1/2)::

    python benchmarks/ultimate_calibration.py --games 120 --iterations 50000

which prints :data:`INTERCEPT` and :data:`SLOPE` (docs/engine.md gives the figures of the fit).
"""

from __future__ import annotations

import math

__all__ = ["INTERCEPT", "SLOPE", "expected_score"]

INTERCEPT = -0.040
SLOPE = 3.915


def expected_score(mean: float) -> float:
    """The expected score in [0, 1] of a move whose mean rollout score (0-1) is ``mean``:
    ``1 / (1 + exp(-(INTERCEPT + SLOPE * (mean - 1/2))))``."""
    return 1.0 / (1.0 + math.exp(-(INTERCEPT + SLOPE * (mean - 0.5))))
