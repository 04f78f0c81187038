"""A hint on any game: the moves of the player to move with their values, as one plain value (:class:`Hint`).

- 3x3, 4x4, 5x5 are solved: every legal move's exact value (3x3: :func:`engine.analysis.analyse`, which also counts
  what alpha-beta and plain minimax evaluate from the position; 4x4, 5x5: :func:`engine.mnk_play.analyse`, exact
  search after Uiterwijk 2019).
- Ultimate is searched under a time budget: the MCTS-Solver's three best moves with the expected score of the player
  to move (a draw counts half; :mod:`engine.ultimate_scale`) or the result the search proved
  (:func:`engine.ultimate_play.hints`). An estimate, not a proof.

Each variant names its own function (:attr:`engine.variants.Variant.hint`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine import mnk_play, ultimate_play
from engine.analysis import analyse
from engine.game import State
from engine.mnk import MnkState, TicTacToe
from engine.protocol import Mark
from engine.review import value_rank
from engine.solver import GameValue
from engine.ultimate import UltimateState, UltimateTicTacToe

__all__ = ["HINT_BUDGET_MS", "Hint", "HintMove", "mnk_hint", "tictactoe_hint", "ultimate_hint"]

HINT_BUDGET_MS = 1000.0
"""Ultimate: the search budget of a hint, ms."""

_EXPECTED = {"win": 1.0, "draw": 0.5, "loss": 0.0}


@dataclass(frozen=True, slots=True)
class HintMove:
    """One move of a hint, for the player to move.

    Attributes:
        cell: the cell, 0-based row by row over the whole board.
        value: the move's exact value ("win in N", "draw", "loss in N"; N counts plies from the position before the
            move to the end with best play, this move included), or on an unsolved game the result the search
            proved; ``None`` when it is an estimate. A proven draw or a result proven without its distance has
            ``plies`` 0.
        expected: the expected score of the player to move after the move (0-1, a draw 1/2): exactly 1, 1/2 or 0
            when ``value`` is known.
    """

    cell: int
    value: GameValue | None
    expected: float


@dataclass(frozen=True, slots=True)
class Hint:
    """The moves of the player to move with their values, and what the search cost.

    Attributes:
        to_move: the player the hint is for.
        moves: exact: every legal move in cell order; estimated: the search's best moves (up to three), best first.
        exact: true when every value is exact (a solved game), false for an estimate under a budget.
        states: states (nodes) the hint's search evaluated.
        elapsed_ms: its wall time, ms.
        depth: an estimate's search depth reached, plies (``None`` when exact).
        budget_ms: an estimate's time budget, ms (``None`` when exact).
        alpha_beta_states, minimax_states: 3x3 only: the states the default alpha-beta search and plain minimax
            evaluate to choose a move here (the bot's two algorithms side by side), else ``None``.
    """

    to_move: Mark
    moves: tuple[HintMove, ...]
    exact: bool
    states: int
    elapsed_ms: float
    depth: int | None = None
    budget_ms: float | None = None
    alpha_beta_states: int | None = None
    minimax_states: int | None = None

    @property
    def best(self) -> tuple[HintMove, ...]:
        """The best moves: exact, those with the best value (the fastest win or the slowest loss); estimated, the
        first (the search's best move)."""
        if not self.exact:
            return self.moves[:1]
        top = max(self.moves, key=lambda m: (-1, 0) if m.value is None else value_rank(m.value))
        return tuple(m for m in self.moves if m.value == top.value)


def tictactoe_hint(state: State) -> Hint:
    """3x3: every legal move's exact value, with alpha-beta's and plain minimax's counts from ``state``.

    Raises:
        GameOverError: the game is over.
    """
    found = analyse(state)
    moves = tuple(HintMove(m.cell, GameValue(m.outcome, m.plies), _EXPECTED[m.outcome]) for m in found.moves)
    return Hint(
        found.to_move,
        moves,
        exact=True,
        states=found.states,
        elapsed_ms=found.elapsed * 1000.0,
        alpha_beta_states=found.alpha_beta_states,
        minimax_states=found.minimax_states,
    )


def mnk_hint(game: TicTacToe) -> Callable[[MnkState], Hint]:
    """4x4, 5x5 (an m,n,k ``game``): ``hint(state)``, every legal move's exact value.

    The returned function raises GameOverError when the game is over; before the opening book's plies on 5x5 it
    searches for minutes (:attr:`engine.variants.Variant.hint_from` says from which ply it is fast).
    """

    def hint(state: MnkState) -> Hint:
        found = mnk_play.analyse(game, state)
        moves = tuple(HintMove(cell, value, _EXPECTED[value.result]) for cell, value in found.values)
        return Hint(game.player(state), moves, exact=True, states=found.states, elapsed_ms=found.elapsed_ms)

    return hint


def ultimate_hint(state: UltimateState, budget_ms: float = HINT_BUDGET_MS, seed: int = 0) -> Hint:
    """Ultimate: the search's best moves (up to three, best first) after a ``budget_ms`` search (an estimate).

    Raises:
        GameOverError: the game is over.
    """
    found = ultimate_play.hints(state, budget_ms, seed=seed)
    moves = tuple(HintMove(cell, _proven(a), a.expected) for cell, a in found.best)
    return Hint(UltimateTicTacToe().player(state), moves, False, found.states, found.elapsed_ms, found.depth, budget_ms)


def _proven(assessment: ultimate_play.Assessment) -> GameValue | None:
    """The result an ultimate search proved, with its distance when measured (else plies 0), or ``None``."""
    if assessment.proven is None:
        return None
    return GameValue(assessment.proven, assessment.plies or 0)
