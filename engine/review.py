"""Game review: every move of a game valued and labelled, as chess sites annotate games; one
:class:`PlyReview` per move on every game, and the labelling rules in one place.

On 3x3 (:func:`review`), 4x4, 5x5 and any game with exact values (:func:`exact_review`) the values are exact.
On 3x3, for each ply the review gives the mover's game-theoretic value before and after the move (from the
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
gets exactly one of these labels (:func:`exact_label`).

On ultimate (:func:`ultimate_review`) each move is compared with the best move a fixed-budget MCTS-Solver search
finds (an estimate): the label says how much expected score the move gave away (``"inaccuracy"``, ``"mistake"``,
``"blunder"`` from :data:`engine.ultimate.play.REVIEW_THRESHOLDS`; throwing away a proven win, or walking into a
proven loss, is always a blunder), ``"best"`` below the thresholds.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from engine.errors import IllegalMoveError, IllegalSequenceError
from engine.minimax.search import DEFAULT, search
from engine.protocol import Game, GameValue
from engine.tictactoe import bitboard as bb
from engine.tictactoe.rules import Mark, State, initial_state, player, result
from engine.tictactoe.solver import exact_value, value_of
from engine.ultimate import play as ultimate_play
from engine.ultimate.rules import UltimateTicTacToe

__all__ = [
    "BLUNDER_POINTS",
    "INACCURACY_POINTS",
    "LABELS",
    "MISTAKE_POINTS",
    "REVIEW_BUDGET_MS",
    "Label",
    "PlyReview",
    "SideSummary",
    "exact_label",
    "exact_review",
    "review",
    "summary",
    "ultimate_review",
    "value_rank",
]

REVIEW_BUDGET_MS = 100.0
"""Ultimate: the fixed search budget per reviewed move, ms (a 60-move game: about 6 s)."""
_POINTS = {name: round(100 * loss) for name, loss in ultimate_play.REVIEW_THRESHOLDS}
BLUNDER_POINTS = _POINTS["blunder"]
"""Ultimate: a move whose expected score is at least this many percentage points below the best move found is a
blunder (25); throwing away a proven win, or walking into a proven loss, always is."""
MISTAKE_POINTS = _POINTS["mistake"]
"""Ultimate: a loss of at least this many percentage points (below :data:`BLUNDER_POINTS`) is a mistake (12)."""
INACCURACY_POINTS = _POINTS["inaccuracy"]
"""Ultimate: a loss of at least this many percentage points (below :data:`MISTAKE_POINTS`) is an inaccuracy (5)."""

Label = Literal["best", "slower", "inaccuracy", "mistake", "blunder"]
"""How a move changed the mover's value; defined in the module docstring."""
LABELS: tuple[Label, ...] = ("best", "slower", "inaccuracy", "mistake", "blunder")
"""Every label, the best first."""


@dataclass(frozen=True, slots=True)
class PlyReview:
    """One move of a reviewed game, on any game.

    Attributes:
        ply: the move's number in the game, 1-based (X plays the odd plies).
        mover: the mark that moved.
        cell: the cell played, 0-based row by row over the whole board.
        state: the position before the move (the game's own state type).
        before: the mover's exact value of ``state`` (plies counted from ``state``); ``None`` for an estimate.
        after: the mover's exact value of the position after the move (plies counted from there,
            so a best move that keeps a win in 3 gives a win in 2; a move that ends the game gives
            plies 0); ``None`` for an estimate.
        label: see the module docstring; for an estimate, ``"best"`` when the move gave away less than the
            inaccuracy threshold.
        best_moves: exact: every cell (ascending) that keeps the value ``before``; ``cell`` is among
            them exactly when ``label`` is ``"best"``. Estimated: the one best move the search found.
        states: exact: states the default search evaluates to choose a move in ``state`` (3x3: alpha-beta,
            :data:`engine.DEFAULT`; 4x4, 5x5: the exact solver's analysis); estimated: the review's search.
        depth: an estimate's search depth reached, plies (``None`` when exact).
        score, best_score: an estimate's expected score for the mover after the move and after the best move,
            in percent (``None`` when exact).
        loss: ``best_score - score``, percentage points, never negative (``None`` when exact).
    """

    ply: int
    mover: Mark
    cell: int
    state: Any
    before: GameValue | None
    after: GameValue | None
    label: Label
    best_moves: tuple[int, ...]
    states: int
    depth: int | None = None
    score: int | None = None
    best_score: int | None = None
    loss: int | None = None

    @property
    def exact(self) -> bool:
        """True when the move's values are exact (``before`` and ``after`` are set)."""
        return self.before is not None

    @property
    def values(self) -> tuple[GameValue, GameValue]:
        """``(before, after)`` of an exact review.

        Raises:
            ValueError: the move was reviewed by an estimate (no exact values).
        """
        if self.before is None or self.after is None:
            raise ValueError(f"move {self.ply} was reviewed by an estimate: it has no exact values")
        return self.before, self.after


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
            raise IllegalSequenceError.at(ply, cell, exc) from exc
        played.append((state, cell))
        state = child
    return tuple(_review_ply(ply, before, cell) for ply, (before, cell) in enumerate(played, start=1))


def summary(reviews: Iterable[PlyReview]) -> dict[Mark, SideSummary]:
    """Count each side's labels in a review: a :class:`SideSummary` for X and for O (in that order).

    A side that did not move gets zero moves and empty tuples.
    """
    by_label: dict[Mark, dict[str, list[int]]] = {mark: {label: [] for label in LABELS} for mark in Mark}
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
        label=exact_label(before, after),
        best_moves=tuple(c for c, v in move_values.items() if v == best_value),
        states=search(state, config=DEFAULT).states,
    )


def exact_label(before: GameValue, after: GameValue) -> Label:
    """The label of a move (module docstring) from the mover's exact values: ``before`` the position before the
    move (plies counted from it), ``after`` the position after it (plies counted from there)."""
    if after.result != before.result:
        return "blunder" if after.result == "loss" else "mistake"
    if after.plies == before.plies - 1:
        return "best"
    return "slower" if before.result == "win" else "inaccuracy"


def exact_review(
    game: Game[Any],
    moves: Sequence[int],
    move_values: Callable[[Any], tuple[tuple[tuple[int, GameValue], ...], int]],
    start: int = 0,
) -> tuple[PlyReview, ...]:
    """Any game with exact values (4x4, 5x5, a registered game): each move of ``moves`` (0-based cells from the
    initial state) from ply ``start + 1`` on, valued by ``move_values(state)`` (every legal move's exact value for the
    player to move, and the states evaluated: :meth:`engine.Variant.move_values`) and labelled as on 3x3.

    Raises:
        IllegalSequenceError: the moves are not a legal game (raised before any search).
    """
    reviewed: list[PlyReview] = []
    for ply, (state, cell) in enumerate(zip(_replayed(game, moves), moves, strict=False), start=1):
        if ply <= start:
            continue
        found, states = move_values(state)
        values = dict(found)
        before = max(values.values(), key=value_rank)
        best = tuple(sorted(c for c, v in values.items() if v == before))
        played = values[cell]
        after = GameValue(played.result, played.plies - 1)
        label = exact_label(before, after)
        reviewed.append(PlyReview(ply, game.player(state), cell, state, before, after, label, best, states))
    return tuple(reviewed)


def ultimate_review(moves: Sequence[int], budget_ms: float = REVIEW_BUDGET_MS) -> tuple[PlyReview, ...]:
    """Ultimate: every move against the best move a ``budget_ms`` search finds (an estimate; module docstring).

    Raises:
        IllegalSequenceError: the moves are not a legal game (raised before any search).
    """
    game = UltimateTicTacToe()
    reviewed: list[PlyReview] = []
    for ply, (state, cell) in enumerate(zip(_replayed(game, moves), moves, strict=False), start=1):
        found = ultimate_play.review_move(state, cell, budget_ms)
        score, best_score = round(100 * found.move_value.expected), round(100 * found.best_value.expected)
        label: Label = next((known for known in LABELS if known == found.label), "best")
        reviewed.append(
            PlyReview(
                ply,
                game.player(state),
                cell,
                state,
                None,
                None,
                label,
                (found.best,),
                found.states,
                found.depth,
                score,
                best_score,
                best_score - score,
            )
        )
    return tuple(reviewed)


def _replayed(game: Game[Any], moves: Sequence[int]) -> list[Any]:
    """The positions before each move (and after the last), from the initial state.

    Raises:
        IllegalSequenceError: a move cannot be played where it stands.
    """
    state = game.initial_state()
    states: list[Any] = [state]
    for ply, cell in enumerate(moves, start=1):
        try:
            state = game.result(state, cell)
        except IllegalMoveError as exc:
            raise IllegalSequenceError.at(ply, cell, exc) from exc
        states.append(state)
    return states


def value_rank(value: GameValue) -> tuple[int, int]:
    """Orders values for the mover: a win beats a draw beats a loss; a faster win and a slower loss are better."""
    order = {"win": 2, "draw": 1, "loss": 0}[value.result]
    return (order, -value.plies if value.result == "win" else value.plies)
