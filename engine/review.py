"""A finished game reviewed move by move, the way chess sites annotate games.

Each ply is valued with the exact game-theoretic value of its position (minimax with depth-aware
scores: a win or a loss counts the plies to the end, so a faster win is better), before and after
the move, from the mover's point of view, and labelled:

- **best**: the move keeps the best value available (the fastest win, a draw, or the slowest loss);
- **slower**: the move keeps a win but a slower one;
- **inaccuracy**: in a lost position, the move loses sooner than it had to;
- **mistake**: the move turns a win into a draw;
- **blunder**: the move turns a win or a draw into a loss.

Source of the terms: chess annotation (Lichess's computer analysis labels inaccuracies, mistakes and
blunders); of the values: minimax, Russell & Norvig, AIMA 4th ed., §5.2.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from engine.analysis import Analysis, MoveAnalysis, Outcome, analyse
from engine.errors import IllegalMoveError
from engine.game import Mark, initial_state, result, terminal
from engine.search import DEFAULT, search

__all__ = ["Label", "PlyReview", "Value", "review"]

Label = Literal["best", "slower", "inaccuracy", "mistake", "blunder"]
_RANK = {"win": 0, "draw": 1, "loss": 2}


@dataclass(frozen=True, slots=True)
class Value:
    """A position's value for one side with best play from both: ``result`` and the plies to the end of the
    game counted from that position (the move about to be played included)."""

    result: Outcome
    plies: int


@dataclass(frozen=True, slots=True)
class PlyReview:
    """One ply of a reviewed game.

    Attributes:
        ply: 1 for the first move of the game.
        mover: the side that moved.
        cell: the cell played, 0-8.
        before: the mover's value before the move (with the best move).
        after: the mover's value with the move played, counted from the same position.
        label: see the module docstring.
        best: every cell that keeps ``before`` (empty when the move played was among them).
        states: states the default alpha-beta search evaluates in this position, the count the bot reports
            for its own move here.
    """

    ply: int
    mover: Mark
    cell: int
    before: Value
    after: Value
    label: Label
    best: tuple[int, ...]
    states: int


def review(moves: Iterable[int]) -> tuple[PlyReview, ...]:
    """Review a game given as the cells played (0-8) in order from the empty board.

    Every position is solved exactly (a few thousand states at most; a whole game takes milliseconds).

    Raises:
        IllegalMoveError: a cell is out of range or taken, or a move follows the end of the game.
    """
    state = initial_state()
    reviewed = []
    for ply, cell in enumerate(moves, 1):
        if terminal(state):
            raise IllegalMoveError(f"move {ply} (cell {cell!r}) comes after the game ended")
        analysis = analyse(state, compare=False)
        played = next((m for m in analysis.moves if m.cell == cell), None)
        if played is None:
            result(state, cell)  # raises the precise error: out of range or taken
            raise IllegalMoveError(f"cell {cell!r} cannot be played at move {ply}")
        reviewed.append(_review_ply(ply, analysis, played, search(state, config=DEFAULT).states))
        state = result(state, cell)
    return tuple(reviewed)


def _review_ply(ply: int, analysis: Analysis, played: MoveAnalysis, states: int) -> PlyReview:
    best_moves = analysis.best
    top = best_moves[0]
    before, after = Value(top.outcome, top.plies), Value(played.outcome, played.plies)
    keeps_best = played.cell in {m.cell for m in best_moves}
    return PlyReview(
        ply=ply,
        mover=analysis.to_move,
        cell=played.cell,
        before=before,
        after=after,
        label="best" if keeps_best else _label(before, after),
        best=() if keeps_best else tuple(sorted(m.cell for m in best_moves)),
        states=states,
    )


def _label(before: Value, after: Value) -> Label:
    """The label of a move that is not among the best (so ``after`` is worse than ``before``)."""
    if after.result == "loss":
        return "inaccuracy" if before.result == "loss" else "blunder"
    if before.result == "win":
        return "slower" if after.result == "win" else "mistake"
    return "inaccuracy"  # unreachable: every drawing move of a drawn position is best
