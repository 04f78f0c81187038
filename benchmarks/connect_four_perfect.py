"""Connect Four's perfect player for benchmarks: BitBully (MIT; ``pip install bitbully bitbully-databases``), a C++
solver with a published 12-ply database, which scores every column at once from the first move on.

It stands in for level 8 where the engine's own perfect player is too slow for many games: before the opening book
answers the first plies, the engine's solver takes minutes a move there. It chooses as level 8 does
(:func:`engine.connect_four.play.perfect_move`): a column of the best exact value (BitBully's scores rank the
columns as the engine's solver does: a faster win or a slower loss scores more), the one nearest the centre among
several. Benchmarks only: BitBully is not a dependency of the engine.
"""

from __future__ import annotations

import functools
from typing import Any

from engine.connect_four.solver import CENTRE_FIRST

__all__ = ["perfect_column", "scores"]


@functools.cache
def _solver() -> Any:
    from bitbully import BitBully

    return BitBully()


def scores(columns: list[int]) -> dict[int, int]:
    """Every legal column's exact score (Pons' scale) after the game ``columns`` (0-6, X first)."""
    from bitbully import Board

    found: dict[int, int] = _solver().score_all_moves(Board.from_moves(columns))
    return found


def perfect_column(columns: list[int]) -> int:
    """Level 8's column (0-6) after the game ``columns``: the best score, the nearest the centre among several."""
    found = scores(columns)
    best = max(found.values())
    return next(column for column in CENTRE_FIRST if found.get(column) == best)
