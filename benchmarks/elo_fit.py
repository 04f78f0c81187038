"""Elo ratings by maximum likelihood from match results (the Bradley-Terry model, a draw counted as half a point).

The model (Bradley & Terry 1952, on Elo's logistic scale): player i scores against player j with expectation
``E = 1 / (1 + 10 ** ((R_j - R_i) / 400))``. Given every pairing's games ``n`` and score ``s`` (wins plus half the
draws), the log-likelihood ``sum s log E + (n - s) log (1 - E)`` is maximised by Newton's method with one player,
the anchor, held at its stated rating (Hunter 2004 gives the MM alternative). The 95 % interval of each rating is
``1.96`` standard errors from the inverse of the observed information (the negated Hessian) with the anchor
fixed, so an interval measures a player against the anchor.

Counting a draw as half a win and half a loss is the usual convention for chess ratings (the "draws as half
points" likelihood); it is a model, and with many draws it narrows the intervals somewhat.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

__all__ = ["Fit", "Pairing", "fit"]

_SCALE = 400.0 / math.log(10.0)  # Elo points per natural-log unit of odds


@dataclass(frozen=True, slots=True)
class Pairing:
    """The games between two players: ``games`` played, ``score`` of ``first`` (wins + draws / 2)."""

    first: str
    second: str
    games: float
    score: float


@dataclass(frozen=True, slots=True)
class Fit:
    """Fitted ratings: ``ratings[p]`` in Elo points, ``intervals[p] = (low, high)`` at 95 %, ``games[p]`` played."""

    ratings: Mapping[str, float]
    intervals: Mapping[str, tuple[float, float]]
    games: Mapping[str, int]
    iterations: int


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """``matrix^-1 @ vector`` by Gauss-Jordan elimination with partial pivoting (a small dense system)."""
    n = len(vector)
    rows = [[*row, vector[i]] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        if abs(rows[pivot][col]) < 1e-12:
            raise ValueError("the results do not connect every player to the anchor")
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(n):
            if r != col and rows[r][col]:
                factor = rows[r][col] / rows[col][col]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col], strict=True)]
    return [rows[i][n] / rows[i][i] for i in range(n)]


def fit(
    pairings: Sequence[Pairing],
    anchor: str,
    anchor_rating: float = 1500.0,
    *,
    prior_draws: float = 0.0,
    tolerance: float = 1e-9,
) -> Fit:
    """Maximum-likelihood Elo ratings for every player in ``pairings``, ``anchor`` held at ``anchor_rating``.

    ``prior_draws`` adds that many virtual drawn games to every pairing that was played, as Coulom's BayesElo
    does with its prior: the fit is then the maximum a posteriori, which
    stays finite when a player won (or lost) every game. ``Fit.games`` counts real games only.

    Raises:
        ValueError: the anchor plays no game, a player's results are all wins or all losses against the others
            (its rating would be infinite), or the players do not form one connected group.
    """
    players = sorted({p.first for p in pairings} | {p.second for p in pairings})
    if anchor not in players:
        raise ValueError(f"the anchor {anchor!r} plays no game")
    free = [p for p in players if p != anchor]
    index = {p: i for i, p in enumerate(free)}
    games = dict.fromkeys(players, 0.0)
    points = dict.fromkeys(players, 0.0)
    real = dict.fromkeys(players, 0)
    for pairing in pairings:
        real[pairing.first] += round(pairing.games)
        real[pairing.second] += round(pairing.games)
    pairings = [Pairing(p.first, p.second, p.games + prior_draws, p.score + prior_draws / 2) for p in pairings]
    for pairing in pairings:
        games[pairing.first] += pairing.games
        games[pairing.second] += pairing.games
        points[pairing.first] += pairing.score
        points[pairing.second] += pairing.games - pairing.score
    for p in free:
        if points[p] <= 0.0 or points[p] >= games[p]:
            raise ValueError(f"{p!r} scored {points[p]:g} of {games[p]}: its rating is unbounded")
    theta = dict.fromkeys(players, 0.0)  # natural units, the anchor at 0
    information: list[list[float]] = []
    iterations = 0
    while iterations < 200:
        iterations += 1
        gradient = [0.0] * len(free)
        information = [[0.0] * len(free) for _ in free]
        for pairing in pairings:
            expected = 1.0 / (1.0 + math.exp(theta[pairing.second] - theta[pairing.first]))
            residual = pairing.score - pairing.games * expected
            weight = pairing.games * expected * (1.0 - expected)
            i, j = index.get(pairing.first), index.get(pairing.second)
            if i is not None:
                gradient[i] += residual
                information[i][i] += weight
            if j is not None:
                gradient[j] -= residual
                information[j][j] += weight
            if i is not None and j is not None:
                information[i][j] -= weight
                information[j][i] -= weight
        step = _solve(information, gradient)
        largest = max((abs(s) for s in step), default=0.0)
        if largest > 2.0:  # damp the first steps from a poor start
            step = [s * 2.0 / largest for s in step]
        for p in free:
            theta[p] += step[index[p]]
        if largest < tolerance:
            break
    ratings = {p: anchor_rating + _SCALE * theta[p] for p in players}
    intervals = {anchor: (anchor_rating, anchor_rating)}
    for p in free:
        unit = [1.0 if q == p else 0.0 for q in free]
        variance = _solve(information, unit)[index[p]]
        half = 1.96 * _SCALE * math.sqrt(variance)
        intervals[p] = (ratings[p] - half, ratings[p] + half)
    return Fit(ratings, intervals, real, iterations)
