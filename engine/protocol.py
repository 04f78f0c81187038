"""The protocol every game in the engine implements (AIMA's six game functions) and the words the games share.

Source: Russell & Norvig, *Artificial Intelligence: A Modern Approach*, 4th ed., §5.1: a game is
S0 (``initial_state``), TO-MOVE (``player``), ACTIONS, RESULT, IS-TERMINAL (``terminal``) and UTILITY.
Every game here is a two-player, zero-sum, perfect-information game in which X moves first and is MAX.
Actions are cell indices, 0-based and row by row over the whole board (people see them 1-based).

The searches (:mod:`engine.minimax.reference` and the fast kernels) take any object with these methods: a class
instance (``TicTacToe(4, 4, 4)``) or a module (:mod:`engine.tictactoe.rules`, the 3x3 game) both qualify.

Every game reports a position's value as a :class:`GameValue`, plays at a :class:`Difficulty` and offers searches
named by :data:`Algorithm`; they live here, below the games, so no game imports another.
"""

from __future__ import annotations

import enum
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol, TypeVar

__all__ = ["Algorithm", "Difficulty", "Game", "GameValue", "Mark", "StateT", "ValueKind"]


class Mark(enum.Enum):
    """A player's mark. X moves first and is MAX (AIMA's convention)."""

    X = "X"
    O = "O"  # noqa: E741

    @property
    def other(self) -> Mark:
        """The opponent's mark."""
        return Mark.O if self is Mark.X else Mark.X


StateT = TypeVar("StateT", bound=Hashable)

Algorithm = Literal["minimax", "alpha-beta"]
"""A search a player can choose: plain minimax or alpha-beta (AIMA §5.2 and §5.3)."""


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


ValueKind = Literal["win", "draw", "loss"]
"""What a position is worth to one side with best play: a win, a draw or a loss."""


@dataclass(frozen=True, slots=True)
class GameValue:
    """A position's game-theoretic value for one side, with best play from both sides.

    Attributes:
        result: ``"win"``, ``"draw"`` or ``"loss"`` for that side.
        plies: plies from the position to the end of the game: the fastest forced win, the slowest
            loss, or the plies left to fill the board for a draw. 0 when the game is over.
    """

    result: ValueKind
    plies: int


class Difficulty(enum.Enum):
    """A difficulty level; ``random_move_rate`` is the probability of a random move."""

    EASY = "easy"
    MEDIUM = "medium"
    UNBEATABLE = "unbeatable"

    @property
    def random_move_rate(self) -> float:
        """Probability (0-1) of playing a uniformly random legal move instead of the search's."""
        return {"easy": 0.5, "medium": 0.2, "unbeatable": 0.0}[self.value]
