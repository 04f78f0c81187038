"""The protocol every game in the engine implements: AIMA's six game functions.

Source: Russell & Norvig, *Artificial Intelligence: A Modern Approach*, 4th ed., §5.1: a game is
S0 (``initial_state``), TO-MOVE (``player``), ACTIONS, RESULT, IS-TERMINAL (``terminal``) and UTILITY.
Every game here is a two-player, zero-sum, perfect-information game in which X moves first and is MAX.
Actions are cell indices, 0-based and row by row over the whole board (people see them 1-based).

The searches (:mod:`engine.reference` and the fast kernels) take any object with these methods: a class
instance (``TicTacToe(4, 4, 4)``) or a module (:mod:`engine.game`, the 3x3 game) both qualify.
"""

from __future__ import annotations

import enum
from collections.abc import Hashable, Sequence
from typing import Protocol, TypeVar

__all__ = ["Game", "Mark", "StateT"]


class Mark(enum.Enum):
    """A player's mark. X moves first and is MAX (AIMA's convention)."""

    X = "X"
    O = "O"  # noqa: E741

    @property
    def other(self) -> Mark:
        """The opponent's mark."""
        return Mark.O if self is Mark.X else Mark.X


StateT = TypeVar("StateT", bound=Hashable)


class Game(Protocol[StateT]):
    """A game as AIMA §5.1 defines it. States are immutable and hashable; actions are cell indices."""

    def initial_state(self) -> StateT:
        """S0: the position before any move."""
        ...

    def player(self, state: StateT) -> Mark:
        """TO-MOVE: the mark whose turn it is in ``state``."""
        ...

    def actions(self, state: StateT) -> Sequence[int]:
        """ACTIONS: the legal moves in ``state``, in the game's natural order; empty when it is over."""
        ...

    def result(self, state: StateT, action: int) -> StateT:
        """RESULT: the state after the player to move plays ``action``.

        Raises:
            IllegalMoveError: (or a subclass) ``action`` is not legal in ``state``.
        """
        ...

    def terminal(self, state: StateT) -> bool:
        """IS-TERMINAL: the game is over (won, or no move left)."""
        ...

    def utility(self, state: StateT) -> int:
        """UTILITY for MAX (X): +1 when X has won, -1 when O has, 0 otherwise."""
        ...
