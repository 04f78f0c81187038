"""Puzzle themes and starting ratings, from the rules alone (no search). Each game finds its puzzles' themes and
features (its kit's ``features`` and ``hidden``: :class:`engine.protocol.PuzzleKit`); :func:`estimate_rating` turns
them into a rating.

Themes (named as lichess names its puzzle themes, where one fits):

- ``double_threat``: a solver move before the last leaves two or more cells that would win at once (a fork).
- ``forcing``: every solver move before the last makes a threat the defender must answer.
- ``quiet``: the first move makes no threat at all (never on a ``defence`` puzzle).
- ``defence``: the first move blocks the opponent's immediate win (:func:`engine.puzzles.quality.is_defence`).
- ``board_win`` (games of small boards): the first move wins a small board.
- ``decided_board`` (games of small boards): a solver move before the last sends the defender to a decided
  (closed) small board.

The starting rating is a difficulty estimate in Glicko-2 points: a base per N (the solver's moves), raised by the
moves that look good at the start (the threats, blocks and small-board wins other than the solution) and by the
branching, lowered for a forcing line. Players' ratings then move it (:mod:`bot.puzzles` rates every attempt).
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["BASE_RATING", "estimate_rating"]

BASE_RATING = {1: 700, 2: 1100, 3: 1400, 4: 1650, 5: 1850}
"""The starting rating of a win in N before the adjustments."""


def estimate_rating(win_in: int, branching: int, plausible: int, themes: Sequence[str], hidden: int = 0) -> int:
    """The starting rating: :data:`BASE_RATING` ``[win_in]`` + 25 per plausible alternative (at most 12) + 4 per
    legal move beyond 10 (at most 40 moves), + 100 when ``quiet``, - 75 when ``forcing``, + ``hidden`` points
    (the kit's ``hidden``); within 400-2600."""
    rating = BASE_RATING[min(win_in, 5)] + 25 * min(plausible, 12) + 4 * (min(branching, 40) - 10) + hidden
    rating += 100 if "quiet" in themes else 0
    rating -= 75 if "forcing" in themes else 0
    return max(400, min(2600, rating))
