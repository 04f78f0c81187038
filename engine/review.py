"""Game review: every move of a game valued exactly and labelled, as chess sites annotate games.

For each ply the review gives the mover's game-theoretic value before and after the move (from the
memoised exact solver, :mod:`engine.tictactoe.solver`), the moves that would have kept the best value, a label,
and the states the default alpha-beta search (:data:`engine.DEFAULT`) evaluates in that position:
the same count the bot reports when it moves there.

Labels compare the value after the move with the value before it, both for the mover:

- ``"best"``: the move keeps the best value: the same result, as fast as possible (the fastest win,
  the slowest loss; in a drawn position every move that keeps the draw). Exactly the moves listed
  in ``best_moves``.
- ``"slower"``: a won position stays won, but the win takes more plies than it had to.
- ``"inaccuracy"``: a lost position stays lost, but the loss comes in fewer plies than it had to.
- ``"mistake"``: a won position becomes a draw.
- ``"blunder"``: a won or drawn position becomes a loss.

A result can never improve with a move (the value before is the best over all moves), so every move
gets exactly one of these labels.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from engine.errors import IllegalMoveError, IllegalSequenceError
from engine.minimax.search import DEFAULT, search
from engine.protocol import GameValue
from engine.tictactoe import bitboard as bb
from engine.tictactoe.rules import Mark, State, initial_state, player, result
from engine.tictactoe.solver import exact_value, value_of

__all__ = ["Label", "PlyReview", "SideSummary", "review", "summary"]

Label = Literal["best", "slower", "inaccuracy", "mistake", "blunder"]
"""How a move changed the mover's value; defined in the module docstring."""


@dataclass(frozen=True, slots=True)
class PlyReview:
    """One move of a reviewed game.

    Attributes:
        ply: the move's number in the game, 1-based (X plays the odd plies).
        mover: the mark that moved.
        cell: the cell played, 0-8.
        state: the position before the move.
        before: the mover's exact value of ``state`` (plies counted from ``state``).
        after: the mover's exact value of the position after the move (plies counted from there,
            so a best move that keeps a win in 3 gives a win in 2; a move that ends the game gives
            plies 0).
        label: see the module docstring.
        best_moves: every cell (0-8, ascending) that keeps the value ``before``; ``cell`` is among
            them exactly when ``label`` is ``"best"``.
        states: states the default alpha-beta search (:data:`engine.DEFAULT`) evaluates to choose
            a move in ``state``.
    """

    ply: int
    mover: Mark
    cell: int
    state: State
    before: GameValue
    after: GameValue
    label: Label
    best_moves: tuple[int, ...]
    states: int


@dataclass(frozen=True, slots=True)
class SideSummary:
    """One side's moves in a reviewed game, by label; the ply numbers are 1-based.

    Attributes:
        mark: the side.
        moves: how many moves the side played.
        best: how many of them were labelled ``"best"``.
        slower, inaccuracies, mistakes, blunders: the ply numbers of the moves with each label.
    """

    mark: Mark
    moves: int
    best: int
    slower: tuple[int, ...]
    inaccuracies: tuple[int, ...]
    mistakes: tuple[int, ...]
    blunders: tuple[int, ...]


def review(moves: Iterable[int]) -> tuple[PlyReview, ...]:
    """Review a game given as the cells played (0-8), in order, from the empty board.

    The game may be unfinished; an empty list gives an empty review. Values come from the memoised
    exact solver (at most 5,478 positions are ever valued, so a whole review costs well under a
    millisecond once they are known); the state counts come from running the default search once
    per ply.

    Returns:
        One :class:`PlyReview` per move, in order.

    Raises:
        IllegalSequenceError: a move is not an int in 0-8, takes an occupied cell or comes after
            the game has ended; the message names the move's number and the cell, and the error
            is raised from the :class:`engine.IllegalMoveError` that :func:`engine.result` raised.
    """
    played: list[tuple[State, int]] = []
    state = initial_state()
    for ply, cell in enumerate(moves, start=1):
        try:
            child = result(state, cell)
        except IllegalMoveError as exc:
            raise IllegalSequenceError(f"move {ply} ({cell!r}) cannot be played: {exc}", ply, cell) from exc
        played.append((state, cell))
        state = child
    return tuple(_review_ply(ply, before, cell) for ply, (before, cell) in enumerate(played, start=1))


def summary(reviews: Iterable[PlyReview]) -> dict[Mark, SideSummary]:
    """Count each side's labels in a review: a :class:`SideSummary` for X and for O (in that order).

    A side that did not move gets zero moves and empty tuples.
    """
    by_label: dict[Mark, dict[str, list[int]]] = {
        mark: {label: [] for label in ("best", "slower", "inaccuracy", "mistake", "blunder")} for mark in Mark
    }
    for ply in reviews:
        by_label[ply.mover][ply.label].append(ply.ply)
    return {
        mark: SideSummary(
            mark=mark,
            moves=sum(len(plies) for plies in labels.values()),
            best=len(labels["best"]),
            slower=tuple(labels["slower"]),
            inaccuracies=tuple(labels["inaccuracy"]),
            mistakes=tuple(labels["mistake"]),
            blunders=tuple(labels["blunder"]),
        )
        for mark, labels in by_label.items()
    }


def _review_ply(ply: int, state: State, cell: int) -> PlyReview:
    mover = player(state)
    me, opp = (state.x, state.o) if mover is Mark.X else (state.o, state.x)
    marks = state.marks
    best_value = exact_value(me, opp)
    move_values = {c: -exact_value(opp, me | (1 << c)) for c in bb.FREE_CELLS[me | opp]}
    before = value_of(best_value, marks)
    after = value_of(move_values[cell], marks + 1)
    return PlyReview(
        ply=ply,
        mover=mover,
        cell=cell,
        state=state,
        before=before,
        after=after,
        label=_label(before, after),
        best_moves=tuple(c for c, v in move_values.items() if v == best_value),
        states=search(state, config=DEFAULT).states,
    )


def _label(before: GameValue, after: GameValue) -> Label:
    if after.result != before.result:
        return "blunder" if after.result == "loss" else "mistake"
    if after.plies == before.plies - 1:
        return "best"
    return "slower" if before.result == "win" else "inaccuracy"
