"""How each level plays Gomoku: a five now is always played, the opponent's five cell always taken, then the threat
search for a forced win (VCF, then VCT at levels 6-8: :mod:`engine.gomoku.threats`), then alpha-beta
(:mod:`engine.gomoku.search`) with the level's depth, width, time budget and noise.

**Levels** (:data:`LEVELS`): 1-3 search one or two plies with noise (a uniform random amount up to ``noise``
evaluation points added to each root move's score); 4-5 add a VCF of up to 4 and 6 moves and search deeper; 6-8
search by iterative deepening within a time budget (0.25 s, 0.5 s, 1 s a move), look for VCFs of up to 10-12 moves
and VCTs of one or two threes (within a third of the budget), and set aside a move after which the opponent has a
VCF (``guard``). Ratings are not given yet (they are calibrated later).

**A forced win** is reported in the winner's moves, the five included: a VCF "in 3" is four, four, five for the
winner (two forced replies between); :attr:`Choice.forced` names the search that proved it.

**States** are the search's (:attr:`engine.gomoku.search.Search.states`): every alpha-beta and threat-search node
(VCF and VCT).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from engine.errors import GameOverError
from engine.gomoku.board import PyBoard
from engine.gomoku.rules import GOMOKU, GomokuState
from engine.gomoku.search import PROVEN, WIN, Board, Search
from engine.gomoku.threats import vct
from engine.native import native_module
from engine.protocol import EngineMove, GameValue, Mark

__all__ = ["LEVELS", "NATIVE", "Choice", "Level", "choose", "level_move", "new_board"]

NATIVE = native_module("engine.gomoku._gomoku_c")
"""The C kernel's module (its ``Board`` the twin of :class:`PyBoard`), or ``None`` when it is not built."""


@dataclass(frozen=True, slots=True)
class Level:
    """How a level plays.

    Attributes:
        depth: alpha-beta plies at most.
        width: candidate moves searched at each node.
        budget_ms: the time a move may take (``None``: the full depth whatever the time).
        noise: the largest random amount added to a root move's score (evaluation points; 0 plays the best).
        vcf: the longest VCF looked for, in the winner's moves (0: none).
        guard: root moves checked for an opponent's VCF after them (0: none).
        vct: the most threes in a VCT looked for (0: none), within a third of the time budget.
    """

    depth: int
    width: int
    budget_ms: float | None
    noise: int
    vcf: int
    guard: int
    vct: int = 0


LEVELS = {
    1: Level(depth=1, width=12, budget_ms=None, noise=3000, vcf=0, guard=0),
    2: Level(depth=1, width=12, budget_ms=None, noise=600, vcf=0, guard=0),
    3: Level(depth=2, width=8, budget_ms=None, noise=150, vcf=2, guard=0),
    4: Level(depth=2, width=10, budget_ms=None, noise=40, vcf=4, guard=0),
    5: Level(depth=3, width=10, budget_ms=None, noise=0, vcf=6, guard=4),
    6: Level(depth=10, width=10, budget_ms=250.0, noise=0, vcf=10, guard=6, vct=1),
    7: Level(depth=10, width=12, budget_ms=500.0, noise=0, vcf=10, guard=8, vct=1),
    8: Level(depth=12, width=12, budget_ms=1000.0, noise=0, vcf=12, guard=10, vct=2),
}
"""Level (1-8) → how it plays."""


@dataclass(frozen=True, slots=True)
class Choice:
    """A chosen move.

    Attributes:
        cell: the cell (0-224).
        states: states evaluated (alpha-beta and threat-search nodes).
        forced: ``"five"``, ``"VCF"``, ``"VCT"`` or ``"alpha-beta"`` when the move is part of a proven win, else
            ``None``.
        moves: the winner's moves to the five when ``forced``, the five included, else 0.
        depth: the alpha-beta's depth completed (0 when it did not run).
        elapsed_ms: wall-clock ms.
    """

    cell: int
    states: int
    forced: str | None
    moves: int
    depth: int
    elapsed_ms: float

    def describe(self) -> str:
        """``"wins by VCF in 3"`` for a proven win, else ``""``."""
        return f"wins by {self.forced} in {self.moves}" if self.forced else ""


def new_board(state: GomokuState, *, native: bool = True) -> Board:
    """A search board holding ``state``'s stones: the C kernel's where built and ``native``, else :class:`PyBoard`."""
    board: Board = NATIVE.Board() if native and NATIVE is not None else PyBoard()
    x, o = state.cells(Mark.X), state.cells(Mark.O)
    for cell in x:
        board.place(cell, 0)
    for cell in o:
        board.place(cell, 1)
    board.count = 0
    return board


def choose(state: GomokuState, level: Level, rng: random.Random, board: Board | None = None) -> Choice:
    """``level``'s move in ``state`` (see the module's docstring); ``board`` a fresh one by default.

    Raises:
        GameOverError: the game is over.
    """
    started = time.perf_counter()
    if GOMOKU.terminal(state):
        raise GameOverError("the game is over: no more moves can be played")
    board = board if board is not None else new_board(state)
    side = 0 if GOMOKU.player(state) is Mark.X else 1

    def done(cell: int, forced: str | None = None, moves: int = 0, search: Search | None = None) -> Choice:
        states = search.states if search is not None else board.count + 1
        depth = search.depth if search is not None else 0
        return Choice(cell, states, forced, moves, depth, (time.perf_counter() - started) * 1000.0)

    own = board.five_cells(side)
    if own:
        return done(own[0], "five", 1)
    threats = board.five_cells(1 - side)
    if threats:
        return done(threats[0])
    if level.vcf:
        line = board.vcf(side, level.vcf)
        if line is not None:
            return done(line[0], "VCF", (len(line) + 1) // 2)
    deadline = None if level.budget_ms is None else started + level.budget_ms / 1000.0
    if level.vct:
        quick = None if level.budget_ms is None else started + level.budget_ms / 3000.0
        won = vct(board, side, level.vct, level.vcf, quick)
        if won is not None:
            return done(won[0], "VCT", won[1])
    search = Search(board, level.width, deadline)
    moves = board.candidates(side)[: level.width]
    if len(moves) == 1:
        return done(moves[0])
    if level.guard:
        safe = [cell for cell in moves[: level.guard] if not _gives_vcf(board, cell, side, level.vcf)]
        moves = safe + moves[level.guard :] if safe else moves
    scores = search.best(side, level.depth, moves)
    noisy = {cell: score + (rng.uniform(0, level.noise) if level.noise else 0) for cell, score in scores.items()}
    cell = max(moves, key=lambda c: (noisy.get(c, -WIN - 1), -moves.index(c)))
    if scores[cell] >= PROVEN:
        plies = WIN - scores[cell]
        return done(cell, "alpha-beta", (plies + 1) // 2, search)
    return done(cell, None, 0, search)


def _gives_vcf(board: Board, cell: int, side: int, moves: int) -> bool:
    """True when, after ``side`` plays ``cell``, the opponent has a VCF of at most ``moves`` moves."""
    board.place(cell, side)
    try:
        return board.vcf(1 - side, moves) is not None
    finally:
        board.remove(cell)


def level_move(state: GomokuState, level: int, rng: random.Random) -> EngineMove:
    """Level ``level`` (1-8)'s move as the engine's move record; a proven win carries its value (``win`` in the
    plies to the five).

    Raises:
        GameOverError: the game is over.
        KeyError: ``level`` is not 1-8.
    """
    played = LEVELS[level]
    choice = choose(state, played, rng)
    mover = GOMOKU.player(state)
    value = GameValue("win", 2 * choice.moves - 1) if choice.forced else None
    budget = played.budget_ms
    return EngineMove(
        choice.cell, choice.states, value, choice.elapsed_ms, depth=choice.depth or None, budget_ms=budget, mark=mover
    )
