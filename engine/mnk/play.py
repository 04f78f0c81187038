"""Perfect play on m,n,k boards (4x4 and 5x5): the bot's move and every move's exact value.

:func:`choose_move` answers from the opening book (:mod:`engine.mnk.book`) when the position is in it,
and otherwise searches with the exact solver of :mod:`engine.mnk.solver`. :func:`analyse` values every
legal move exactly, for hints and reviews. Both report the states evaluated (nodes visited) and the
elapsed time in ms. Values are :class:`engine.protocol.GameValue` for the side to move: a win or loss in
N plies (fastest win, slowest loss), or a draw (the plies left to fill the board).

One kernel per game is kept in the process, behind a lock, and its transposition table (exact facts about
positions) persists between calls: a call counts the nodes it visits itself, so a position met again
usually costs fewer states the second time.
"""

from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass

from engine.errors import GameOverError
from engine.mnk.book import Book, book_for
from engine.mnk.rules import MnkState, TicTacToe
from engine.mnk.solver import INF, NATIVE, Kernel, move_value, new_kernel
from engine.protocol import EngineMove, GameValue, Mark, Source

__all__ = ["MnkAnalysis", "MnkDecision", "analyse", "choose_move", "game_value", "root_scores", "score_of"]


@dataclass(frozen=True, slots=True)
class MnkDecision:
    """The bot's move in an m,n,k position.

    Attributes:
        move: the chosen cell, 0-based.
        value: the position's exact value for the side to move (the chosen move keeps it); ``None`` when cut short.
        states: nodes the solver visited to choose (0 for a book move: nothing searched; every node visited when
            cut short).
        elapsed_ms: wall-clock ms of this call.
        source: ``"book"`` when the move came from the opening book, ``"search"`` when the solver proved it,
            ``"cut short"`` when the solver reached its cap (``move`` is then -1: the caller chooses a fallback).
        best_moves: every move known to keep ``value`` (search: all of them; book: the book's move; cut short: none).
        book_states: for a book move, the nodes the solver visited to prove it when the book was built; else ``None``.
    """

    move: int
    value: GameValue | None
    states: int
    elapsed_ms: float
    source: Source
    best_moves: tuple[int, ...]
    book_states: int | None = None

    def as_move(self, mark: Mark) -> EngineMove:
        """This decision as the engine's one move record, played by ``mark``."""
        return EngineMove(
            self.move, self.states, self.value, self.elapsed_ms, self.source, book_states=self.book_states, mark=mark
        )


@dataclass(frozen=True, slots=True)
class MnkAnalysis:
    """Every legal move of a position with its exact value for the side to move.

    Attributes:
        values: ``(cell, value)`` per legal move, cells 0-based in natural order.
        states: nodes the solver visited.
        elapsed_ms: wall-clock ms of the analysis.
    """

    values: tuple[tuple[int, GameValue], ...]
    states: int
    elapsed_ms: float


def game_value(score: int, cells: int, marks: int) -> GameValue:
    """The :class:`GameValue` of a depth-aware ``score`` (see :mod:`engine.mnk.solver`) at ``marks`` marks."""
    if score > 0:
        return GameValue("win", cells + 1 - score - marks)
    if score < 0:
        return GameValue("loss", cells + 1 + score - marks)
    return GameValue("draw", cells - marks)


def score_of(value: GameValue, cells: int, marks: int) -> int:
    """The inverse of :func:`game_value`."""
    if value.result == "win":
        return cells + 1 - marks - value.plies
    if value.result == "loss":
        return -(cells + 1 - marks - value.plies)
    return 0


_KERNELS: dict[tuple[int, int, int, bool], tuple[Kernel, threading.Lock]] = {}
_KERNELS_LOCK = threading.Lock()


def _kernel(game: TicTacToe, native: bool | None) -> tuple[Kernel, threading.Lock]:
    """One kernel per game and implementation, kept between calls (its table holds exact facts), with its lock."""
    flavour = NATIVE if native is None else native
    key = (game.h, game.v, game.k, flavour)
    with _KERNELS_LOCK:
        entry = _KERNELS.get(key)
        if entry is None:
            entry = _KERNELS[key] = (new_kernel(game, native=flavour), threading.Lock())
    return entry


def _sides(game: TicTacToe, state: MnkState) -> tuple[int, int]:
    if game.terminal(state):
        raise GameOverError("the game is over: there is no move to choose or analyse")
    return (state.x, state.o) if game.player(state) is Mark.X else (state.o, state.x)


def root_scores(kernel: Kernel, game: TicTacToe, me: int, opp: int, *, shared: bool) -> list[tuple[int, int]]:
    """Score every legal move for the side to move: ``[(cell, score), ...]`` in the kernel's search order.

    Each move is first searched with the window (-1, 1) around the draw, which settles a drawing move.
    ``shared=False`` makes every score exact: a win is searched again with the window (0, +inf), a loss with
    (-inf, 0). ``shared=True`` finds every best move at less cost: when the best is a draw the probes settle
    it (drawing moves score 0, the others a bound of at most -1); otherwise the moves are searched again with
    the window one point below the best score so far, so every move as good as the best gets its exact score
    and any worse one an upper bound below the best.

    Empty when the kernel stopped at its deadline (:attr:`engine.mnk.solver.Kernel.stopped`, which the caller resets):
    no further search is started after the stop.
    """
    free = game.full ^ (me | opp)
    order = [cell for cell in range(game.cells) if free >> cell & 1]
    order.sort(key=lambda cell: -len(game.lines_through[cell]))
    probes: list[tuple[int, int]] = []
    for cell in order:
        probes.append((cell, move_value(kernel, game, me, opp, cell, -1, 1)))
        if kernel.stopped:
            return []
    if not shared:
        exact = []
        for cell, score in probes:
            if score > 0:
                score = move_value(kernel, game, me, opp, cell, 0, INF)
            elif score < 0:
                score = move_value(kernel, game, me, opp, cell, -INF, 0)
            exact.append((cell, score))
        return exact
    best = max(score for _, score in probes)
    if best == 0:
        return probes
    if best > 0:  # some move wins: only winning moves can be best
        order = [cell for cell, score in probes if score > 0]
    scores: list[tuple[int, int]] = []
    best = -INF
    for cell in order:
        alpha = best - 1 if best > -INF else -INF
        score = move_value(kernel, game, me, opp, cell, alpha, INF)
        if kernel.stopped:
            return []
        scores.append((cell, score))
        best = max(best, score)
    return scores


def choose_move(
    game: TicTacToe,
    state: MnkState,
    rng: random.Random | None = None,
    *,
    book: Book | None = None,
    use_book: bool = True,
    native: bool | None = None,
    cap_ms: float | None = None,
) -> MnkDecision:
    """The bot's move: from the opening book when the position is in it, else by exact search.

    Args:
        game, state: the game and a reachable position that is not over.
        rng: draws among equally good moves (default: a fresh ``random.Random()``).
        book: the opening book (default: the one shipped for ``game``, if any); ``use_book=False`` ignores it.
        native: force the C kernel (True) or the pure-Python one (False); default: C when built.
        cap_ms: the longest the search may run, wall-clock ms (``None``: until it proves the value); past it the
            search stops itself (:data:`engine.mnk.solver.STOP_CHECK`) and the decision is cut short.

    Returns:
        An :class:`MnkDecision`; its ``states`` are the nodes visited (0 for a book move, whose proof's count is
        ``book_states``); cut short, every node visited until the cap, with no move and no value.

    Raises:
        GameOverError: the game in ``state`` is over.
    """
    started = time.perf_counter()
    me, opp = _sides(game, state)
    marks = state.marks
    rng = rng or random.Random()
    if use_book:
        book = book or book_for(game)
        entry = book.lookup(state) if book is not None else None
        if entry is not None:
            move, score, states = entry
            return MnkDecision(
                move=move,
                value=game_value(score, game.cells, marks),
                states=0,
                elapsed_ms=(time.perf_counter() - started) * 1000.0,
                source="book",
                best_moves=(move,),
                book_states=states,
            )
    kernel, lock = _kernel(game, native)
    with lock:
        before = kernel.count
        kernel.deadline = 0.0 if cap_ms is None else time.monotonic() + max(cap_ms, 0.0) / 1000.0
        try:
            scores = root_scores(kernel, game, me, opp, shared=True)
            stopped = kernel.stopped
        finally:
            kernel.deadline, kernel.stopped = 0.0, False
        states = kernel.count - before
    if stopped:
        elapsed_ms = (time.perf_counter() - started) * 1000.0
        return MnkDecision(move=-1, value=None, states=states, elapsed_ms=elapsed_ms, source="cut short", best_moves=())
    best = max(score for _, score in scores)
    best_moves = tuple(sorted(cell for cell, score in scores if score == best))
    return MnkDecision(
        move=rng.choice(best_moves),
        value=game_value(best, game.cells, marks),
        states=states,
        elapsed_ms=(time.perf_counter() - started) * 1000.0,
        source="search",
        best_moves=best_moves,
    )


def analyse(game: TicTacToe, state: MnkState, *, native: bool | None = None) -> MnkAnalysis:
    """Every legal move's exact value for the side to move, by search (full window per move).

    Fast from the plies that search alone handles (5x5: four marks on; 4x4: everywhere); earlier on 5x5 it
    runs for minutes.

    Raises:
        GameOverError: the game in ``state`` is over.
    """
    started = time.perf_counter()
    me, opp = _sides(game, state)
    kernel, lock = _kernel(game, native)
    with lock:
        before = kernel.count
        scores = dict(root_scores(kernel, game, me, opp, shared=False))
        states = kernel.count - before
    marks = state.marks
    return MnkAnalysis(
        values=tuple((cell, game_value(scores[cell], game.cells, marks)) for cell in sorted(scores)),
        states=states,
        elapsed_ms=(time.perf_counter() - started) * 1000.0,
    )
