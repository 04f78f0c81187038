"""Textbook minimax and alpha-beta over the game protocol: the reference every fast kernel is tested against.

Source: Russell & Norvig, *AIMA* 4th ed., §5.2 (MINIMAX-SEARCH, MAX-VALUE, MIN-VALUE) and §5.3
(ALPHA-BETA-SEARCH). The functions mirror the pseudocode: X is MAX, O is MIN, values are UTILITY's
(+1, 0, -1), actions are tried in the game's natural order, and nothing else (no table, no ordering,
no depth-aware scores) is added.

**States evaluated** is one per call of MAX-VALUE or MIN-VALUE, the way the course labs count
(``call_count``): every position below the root that the search visits, terminal ones included. The root
is searched as the labs do, each move with a fresh (-inf, +inf) window, so on 3x3 plain minimax from the
empty board evaluates 549,945 states and alpha-beta after X on cell 4 evaluates 7,641.

Both are exponential: use them on small games or near the end of big ones.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Literal, TypeVar

from engine.errors import GameOverError
from engine.protocol import Game, Mark

__all__ = ["ReferenceResult", "alpha_beta_search", "minimax_search"]

S = TypeVar("S", bound=Hashable)


@dataclass(frozen=True, slots=True)
class ReferenceResult:
    """A reference search's answer.

    Attributes:
        move: the first action (cell index) with the best value in the game's natural order.
        value: the root's minimax value for MAX (X): +1, 0 or -1.
        values: every root action with its exact value for MAX, in natural order.
        states: calls of MAX-VALUE and MIN-VALUE (states evaluated below the root).
    """

    move: int
    value: int
    values: tuple[tuple[int, int], ...]
    states: int


class _Counter:
    def __init__(self) -> None:
        self.calls = 0


def minimax_search(game: Game[S], state: S) -> ReferenceResult:
    """MINIMAX-SEARCH (AIMA §5.2): every move of every position down to the end of the game.

    Raises:
        GameOverError: ``state`` is terminal.
    """
    counter = _Counter()

    def max_value(s: S) -> float:
        counter.calls += 1
        if game.terminal(s):
            return game.utility(s)
        v = -math.inf
        for a in game.actions(s):
            v = max(v, min_value(game.result(s, a)))
        return v

    def min_value(s: S) -> float:
        counter.calls += 1
        if game.terminal(s):
            return game.utility(s)
        v = math.inf
        for a in game.actions(s):
            v = min(v, max_value(game.result(s, a)))
        return v

    return _decide(game, state, min_value, max_value, counter)


def alpha_beta_search(game: Game[S], state: S) -> ReferenceResult:
    """ALPHA-BETA-SEARCH (AIMA §5.3): minimax's value, skipping moves that cannot change it.

    Each root move gets a fresh (-inf, +inf) window, so every root value is exact (as in the labs).

    Raises:
        GameOverError: ``state`` is terminal.
    """
    counter = _Counter()

    def max_value(s: S, alpha: float, beta: float) -> float:
        counter.calls += 1
        if game.terminal(s):
            return game.utility(s)
        v = -math.inf
        for a in game.actions(s):
            v = max(v, min_value(game.result(s, a), alpha, beta))
            if v >= beta:
                return v
            alpha = max(alpha, v)
        return v

    def min_value(s: S, alpha: float, beta: float) -> float:
        counter.calls += 1
        if game.terminal(s):
            return game.utility(s)
        v = math.inf
        for a in game.actions(s):
            v = min(v, max_value(game.result(s, a), alpha, beta))
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v

    return _decide(
        game,
        state,
        lambda s: min_value(s, -math.inf, math.inf),
        lambda s: max_value(s, -math.inf, math.inf),
        counter,
    )


def _decide(
    game: Game[S],
    state: S,
    min_value: Callable[[S], float],
    max_value: Callable[[S], float],
    counter: _Counter,
) -> ReferenceResult:
    if game.terminal(state):
        raise GameOverError("the game is over: there is no move to search")
    maximising = game.player(state) is Mark.X
    child_value = min_value if maximising else max_value
    values = tuple((a, int(child_value(game.result(state, a)))) for a in game.actions(state))
    pick: Literal[1, -1] = 1 if maximising else -1
    best = max(v * pick for _, v in values) * pick
    move = next(a for a, v in values if v == best)
    return ReferenceResult(move=move, value=best, values=values, states=counter.calls)
