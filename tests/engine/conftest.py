"""Shared test oracles for the engine: every reachable position and a memoised perfect-play solver.

The solver is written here, independently of :mod:`engine.minimax.search`: it only uses the rules in
:mod:`engine.tictactoe.rules` (which ``test_game.py`` checks on their own) and plain recursion with a cache.
Values are *depth-aware* from the side to move's point of view: a win that ends the game with
``n`` marks on the board is worth ``10 - n``, a loss ``-(10 - n)``, a draw 0.
"""

from __future__ import annotations

from functools import cache

import pytest

from engine.tictactoe.rules import State, actions, initial_state, result, terminal, winner


class Oracle:
    """Perfect play by exhaustive memoised search (no pruning, no ordering, no symmetry)."""

    @staticmethod
    @cache
    def value(state: State) -> int:
        """Depth-aware value for the side to move (for a finished game: for the side that would move)."""
        if winner(state) is not None:  # the side that just moved has won
            return -(10 - state.marks)
        if terminal(state):
            return 0
        return max(-Oracle.value(result(state, cell)) for cell in actions(state))

    @staticmethod
    def move_value(state: State, cell: int) -> int:
        """The depth-aware value, for the side to move, of playing ``cell``."""
        return -Oracle.value(result(state, cell))

    @staticmethod
    @cache
    def optimal(state: State) -> frozenset[int]:
        """Every move (0-8) that achieves the best depth-aware value: fastest win, slowest loss."""
        best = Oracle.value(state)
        return frozenset(c for c in actions(state) if Oracle.move_value(state, c) == best)

    @staticmethod
    def outcome(state: State) -> str:
        """``"win"``, ``"draw"`` or ``"loss"`` for the side to move, with perfect play."""
        v = Oracle.value(state)
        return "win" if v > 0 else "loss" if v < 0 else "draw"

    @staticmethod
    def plies(state: State) -> int:
        """Plies from ``state`` to the end of the game with perfect play (fastest win, slowest loss)."""
        v = Oracle.value(state)
        end_marks = 9 if v == 0 else 10 - abs(v)
        return end_marks - state.marks

    @staticmethod
    def x_value(state: State) -> int:
        """The value from X's point of view, counted in plies from ``state``: ±(10 - plies), 0 draw."""
        v = Oracle.value(state)
        if v == 0:
            return 0
        relative = 10 - Oracle.plies(state)
        sign = 1 if v > 0 else -1
        return sign * relative if state.marks % 2 == 0 else -sign * relative


def _reachable() -> list[State]:
    seen = {initial_state()}
    frontier = [initial_state()]
    while frontier:
        nxt: list[State] = []
        for state in frontier:
            for cell in actions(state):
                child = result(state, cell)
                if child not in seen:
                    seen.add(child)
                    nxt.append(child)
        frontier = nxt
    return sorted(seen, key=lambda s: (s.marks, s.x, s.o))


REACHABLE: list[State] = _reachable()
NON_TERMINAL: list[State] = [s for s in REACHABLE if not terminal(s)]


@pytest.fixture(scope="session")
def oracle() -> Oracle:
    """The memoised perfect-play oracle."""
    return Oracle()


@pytest.fixture(scope="session")
def reachable() -> list[State]:
    """All 5,478 positions reachable from the empty board by legal play, in ply order."""
    return REACHABLE


@pytest.fixture(scope="session")
def non_terminal() -> list[State]:
    """The 4,520 reachable positions where the game is not over."""
    return NON_TERMINAL
