"""How many states plain minimax would evaluate, estimated without running it.

Knuth's estimator (D. E. Knuth, "Estimating the efficiency of backtrack programs", *Mathematics of
Computation* 29, 1975): walk one random path from the position to the end of the game; if the positions on
it have ``d1, d2, ...`` legal moves, then ``d1 + d1*d2 + d1*d2*d3 + ...`` is an unbiased estimate of the
number of positions in the game tree below it, which is exactly what minimax visits (every node once, no
pruning). Averaging many random paths narrows the estimate. On 3x3 from the empty board it lands within a
few percent of the true 549,945 with a few thousand paths.
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from typing import TypeVar

from engine.errors import GameOverError
from engine.protocol import Game

__all__ = ["minimax_states_estimate"]

S = TypeVar("S", bound=Hashable)


def minimax_states_estimate(game: Game[S], state: S, *, paths: int = 200, rng: random.Random | None = None) -> int:
    """An unbiased estimate of the states plain minimax evaluates below ``state`` (Knuth 1975).

    Args:
        game: the rules.
        state: a position that is not over.
        paths: random paths to average (cost: ``paths`` playouts).
        rng: the source of randomness (seed it for a repeatable estimate).

    Raises:
        GameOverError: ``state`` is terminal.
        ValueError: ``paths`` is not positive.
    """
    if game.terminal(state):
        raise GameOverError("the game is over: minimax has nothing to search")
    if paths < 1:
        raise ValueError(f"paths must be positive, not {paths!r}")
    rng = rng or random.Random()
    total = 0
    for _ in range(paths):
        width, s = 1, state
        while not game.terminal(s):
            moves = game.actions(s)
            width *= len(moves)
            total += width
            s = game.result(s, rng.choice(moves))
    return round(total / paths)
