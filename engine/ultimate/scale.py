"""The scale a person reads an Ultimate tic-tac-toe estimate on: the expected score of the player to move.

The search's raw number is a move's mean rollout score (a win 1, a draw 1/2) under random play, which need not be
what players score from the position: random rollouts exaggerate some positions and flatten others. As chess
sites turn centipawns into a win percentage, :func:`expected_score` maps the mean's log-odds through a logistic
curve fitted by maximum likelihood to self-play games (each move's mean against the mover's final score, a draw
counting 1/2); the raw mean is the curve with intercept 0 and slope 1, so the fit can only improve on it::

    python -m benchmarks.ultimate_selfplay fit --games 200 --iterations 20000

which prints :data:`INTERCEPT` and :data:`SLOPE` (docs/engine.md gives the figures of the fit).
"""

from __future__ import annotations

import math

__all__ = ["CLIP", "INTERCEPT", "SLOPE", "expected_score"]

INTERCEPT = -0.047
SLOPE = 1.125
CLIP = 1e-3
"""A mean is kept within [CLIP, 1 - CLIP] before its log-odds are taken."""


def expected_score(mean: float) -> float:
    """The expected score in [0, 1] of a move whose mean rollout score (0-1) is ``mean``: with ``x`` the log-odds
    of the clipped mean, ``1 / (1 + exp(-(INTERCEPT + SLOPE * x)))``."""
    m = min(max(mean, CLIP), 1.0 - CLIP)
    return 1.0 / (1.0 + math.exp(-(INTERCEPT + SLOPE * math.log(m / (1.0 - m)))))
