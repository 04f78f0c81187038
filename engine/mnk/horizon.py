"""Depth-limited alpha-beta with a heuristic evaluation on m,n,k boards: how the weaker levels look ahead.

Source: negamax alpha-beta (AIMA §5.3; Knuth & Moore 1975) cut off at a fixed depth, where a static
evaluation stands in for the rest of the game (AIMA §5.4, "heuristic alpha-beta tree search"). The evaluation
is the usual one for k-in-a-row games: every line still open to one side only scores for that side by how many
of its marks it holds (:data:`LINE_WEIGHTS`), and the other side's open lines count against it.

A search to depth ``d`` sees every win, loss and block within ``d`` plies of the root and nothing beyond, so
its mistakes are those of a player who looks ``d`` moves ahead: a fork it does not see coming, a threat it
makes too late. Scores are points for the side to move; a win completed ``p`` plies below the root is worth
``WIN - p`` (the fastest win, the slowest loss), an evaluated leaf at most a few thousand points.

**States evaluated** are nodes visited: one per position the search examines below the root, as in
:mod:`engine.minimax.search`.
"""

from __future__ import annotations

import random
import time
from collections.abc import Collection
from dataclasses import dataclass

from engine.errors import GameOverError
from engine.mnk.rules import MnkState, TicTacToe
from engine.protocol import Mark

__all__ = ["LINE_WEIGHTS", "WIN", "HorizonResult", "evaluate", "horizon_search"]

WIN = 100_000
INF = 1_000_000
LINE_WEIGHTS: tuple[int, ...] = (0, 1, 8, 64, 512, 4096)
"""The worth of an open line holding 0, 1, 2, ... marks of one side and none of the other's."""


@dataclass(frozen=True, slots=True)
class HorizonResult:
    """One depth-limited search.

    Attributes:
        move: the chosen cell, 0-based.
        score: its score, points for the side to move (``WIN - p``: a win in ``p`` plies).
        states: nodes visited below the root.
        elapsed_ms: wall-clock ms.
        best_moves: every root move with the best score, in natural order (``move`` is one of them).
    """

    move: int
    score: int
    states: int
    elapsed_ms: float
    best_moves: tuple[int, ...]


def evaluate(game: TicTacToe, me: int, opp: int) -> int:
    """The static worth of a position for the side holding ``me`` (masks), by its open lines (see above)."""
    score = 0
    for line in game.lines:
        mine, theirs = me & line, opp & line
        if mine and not theirs:
            score += LINE_WEIGHTS[mine.bit_count()]
        elif theirs and not mine:
            score -= LINE_WEIGHTS[theirs.bit_count()]
    return score


def _order(game: TicTacToe) -> tuple[int, ...]:
    """Cells by the number of lines through them, most first (the centre first on a square board)."""
    return tuple(sorted(range(game.cells), key=lambda cell: (-len(game.lines_through[cell]), cell)))


class _Search:
    def __init__(self, game: TicTacToe) -> None:
        self.game = game
        self.order = _order(game)
        self.count = 0

    def value(self, me: int, opp: int, depth: int, alpha: int, beta: int, ply: int) -> int:
        """Negamax value for the side holding ``me`` to move, fail-soft within (alpha, beta); ``opp`` has not won."""
        game = self.game
        occupied = me | opp
        if occupied == game.full:
            return 0
        if depth == 0:
            return evaluate(game, me, opp)
        best = -INF
        for cell in self.order:
            bit = 1 << cell
            if occupied & bit:
                continue
            self.count += 1
            child = me | bit
            if any(child & line == line for line in game.lines_through[cell]):
                return WIN - ply  # nothing beats the fastest win
            score = -self.value(opp, child, depth - 1, -beta, -max(alpha, best), ply + 1)
            if score > best:
                best = score
                if best >= beta:
                    break
        return best


def horizon_search(
    game: TicTacToe,
    state: MnkState,
    depth: int,
    rng: random.Random | None = None,
    noise: float = 0.0,
    moves: Collection[int] | None = None,
) -> HorizonResult:
    """Choose a move by alpha-beta to ``depth`` plies (1 or more) with :func:`evaluate` at the cut-off.

    Every root move as good as the best gets an exact score; ``rng`` draws among them (default: the first).
    With ``noise`` > 0 every root move gets an exact score and the pick is the highest score plus a
    Gaussian(0, ``noise``) points drawn from ``rng`` (a default ``random.Random()`` when none is given), as a
    chess engine's skill levels do: a close second choice is often played, a move that loses a line rarely,
    a move the search sees losing the game never (a win or loss is worth ``WIN`` points). ``moves`` limits the
    root moves searched (default: every legal move), e.g. to the moves a perfect player found equally good.

    Raises:
        GameOverError: the game in ``state`` is over.
        ValueError: ``depth`` is below 1, or ``moves`` holds no legal move.
    """
    if depth < 1:
        raise ValueError(f"depth {depth!r} must be at least 1")
    if game.terminal(state):
        raise GameOverError("the game is over: there is no move to search")
    started = time.perf_counter()
    me, opp = (state.x, state.o) if game.player(state) is Mark.X else (state.o, state.x)
    search = _Search(game)
    scores: list[tuple[int, int]] = []
    best = -INF
    for cell in search.order:
        bit = 1 << cell
        if (me | opp) & bit or (moves is not None and cell not in moves):
            continue
        search.count += 1
        child = me | bit
        if any(child & line == line for line in game.lines_through[cell]):
            score = WIN - 1
        else:
            alpha = best - 1 if best > -INF and noise <= 0 else -INF
            score = -search.value(opp, child, depth - 1, -INF, -alpha, 2)
        scores.append((cell, score))
        best = max(best, score)
    if not scores:
        raise ValueError(f"none of the moves {sorted(moves or ())!r} is legal")
    best_moves = tuple(sorted(cell for cell, score in scores if score == best))
    if noise > 0:
        rng = rng if rng is not None else random.Random()
        move, best = max(scores, key=lambda pair: pair[1] + rng.gauss(0.0, noise))
    else:
        move = rng.choice(best_moves) if rng is not None else best_moves[0]
    elapsed_ms = (time.perf_counter() - started) * 1000.0
    return HorizonResult(move, best, search.count, elapsed_ms, best_moves)
