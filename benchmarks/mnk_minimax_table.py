"""Benchmark: plain minimax against alpha-beta on 4x4 (four in a row) from a few early positions, in states.

Run from the repository root with ``python -m benchmarks.mnk_minimax_table [--budget-s 120]``.

Columns (states evaluated = calls of MAX-VALUE/MIN-VALUE below the root, as in ``engine.minimax.reference``):

- **minimax**: ``engine.minimax.reference.minimax_search`` where it finishes within the budget (marked *run*);
  elsewhere the number of nodes of the game tree below the root, which is exactly what plain minimax
  visits, *counted* by a memoised walk (one entry per position: the tree below a position depends on the
  position alone), without running minimax. Not an estimate.
- **alpha-beta**: textbook alpha-beta (AIMA §5.3, natural order, a fresh window per root move) by a bitboard
  copy of ``engine.minimax.reference.alpha_beta_search`` that reproduces its counts (checked here on the small
  cases); *out of reach* when it does not finish within the budget, with the time it would need
  *estimated* from the growth of the previous rows.
- **solver**: the engine's exact solver (``engine.mnk.play.root_scores`` as ``analyse`` calls it: every root
  move with a full window), with a fresh transposition table for each row.
"""

from __future__ import annotations

import argparse
import sys
import time

from engine.minimax.reference import alpha_beta_search, minimax_search
from engine.mnk.play import root_scores
from engine.mnk.rules import TIC_TAC_TOE_4X4 as GAME
from engine.mnk.solver import new_kernel
from engine.protocol import Mark

LINES = GAME.lines
LINES_THROUGH = GAME.lines_through
FULL = GAME.full
OPENINGS = [(), (5,), (5, 10), (5, 10, 6), (5, 10, 6, 9), (5, 10, 6, 9, 0, 15), (5, 10, 6, 9, 0, 15, 4, 7)]


class Timeout(Exception):
    """The search ran past its budget."""


def tree_size(x: int, o: int, memo: dict[tuple[int, int], int]) -> int:
    """Nodes of the game tree strictly below position (x, o), X to move when the counts are equal."""
    key = (x, o)
    if key in memo:
        return memo[key]
    x_to_move = x.bit_count() == o.bit_count()
    total = 0
    free = FULL ^ (x | o)
    while free:
        bit = free & -free
        free ^= bit
        nx, no = (x | bit, o) if x_to_move else (x, o | bit)
        mover = nx if x_to_move else no
        total += 1
        if not any(mover & line == line for line in LINES_THROUGH[bit.bit_length() - 1]) and (nx | no) != FULL:
            total += tree_size(nx, no, memo)
    memo[key] = total
    return total


def textbook_alpha_beta(x: int, o: int, deadline: float) -> int:
    """States of textbook alpha-beta from (x, o): the same visits as engine.minimax.reference.alpha_beta_search."""
    count = 0

    def value(x: int, o: int, alpha: int, beta: int, last: int) -> int:
        nonlocal count
        count += 1
        if count & 0xFFFF == 0 and time.perf_counter() > deadline:
            raise Timeout
        x_moved = x.bit_count() != o.bit_count()  # the side that made the last move
        mover = x if x_moved else o
        if any(mover & line == line for line in LINES_THROUGH[last]):
            return 1 if x_moved else -1
        if (x | o) == FULL:
            return 0
        maximising = not x_moved
        v = -2 if maximising else 2
        for cell in range(GAME.cells):
            bit = 1 << cell
            if (x | o) & bit:
                continue
            child = value(x | bit, o, alpha, beta, cell) if maximising else value(x, o | bit, alpha, beta, cell)
            if maximising:
                v = max(v, child)
                if v >= beta:
                    return v
                alpha = max(alpha, v)
            else:
                v = min(v, child)
                if v <= alpha:
                    return v
                beta = min(beta, v)
        return v

    x_to_move = x.bit_count() == o.bit_count()
    for cell in range(GAME.cells):
        bit = 1 << cell
        if not (x | o) & bit:
            value(x | bit, o, -2, 2, cell) if x_to_move else value(x, o | bit, -2, 2, cell)
    return count


def main() -> int:
    sys.setrecursionlimit(10_000)  # the plain solver recurses once per ply
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget-s", type=float, default=120.0, help="time allowed per alpha-beta or minimax run")
    args = parser.parse_args()
    for cells in (OPENINGS[-1], OPENINGS[-2]):  # the bitboard alpha-beta visits what the reference does
        state = GAME.play(list(cells))
        assert textbook_alpha_beta(state.x, state.o, float("inf")) == alpha_beta_search(GAME, state).states
    print(
        "| position (cells 1-16) | marks | minimax | alpha-beta (textbook) | solver (engine) | minimax / alpha-beta |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    memo: dict[tuple[int, int], int] = {}
    measured: list[tuple[int, int, float]] = []  # (marks, states, seconds) of the alpha-beta runs that finished
    for cells in reversed(OPENINGS):
        state = GAME.play(list(cells))
        counted = tree_size(state.x, state.o, memo)
        minimax = f"{counted:,} (counted)"
        if counted < 3_000_000:
            run = minimax_search(GAME, state).states
            assert run == counted, (cells, run, counted)
            minimax = f"{run:,} (run)"
        started = time.perf_counter()
        try:
            ab_states = textbook_alpha_beta(state.x, state.o, started + args.budget_s)
            ab_seconds = time.perf_counter() - started
            measured.append((len(cells), ab_states, ab_seconds))
            alpha_beta = f"{ab_states:,} ({ab_seconds:.1f} s)"
            ratio = f"{counted / ab_states:,.0f}"
        except Timeout:
            # Extrapolate with the growth per ply between the last two rows that finished.
            (m1, s1, t1), (m2, s2, _) = measured[-2], measured[-1]
            growth = (s2 / s1) ** (1 / (m1 - m2))
            estimate = s2 * growth ** (m2 - len(cells))
            seconds = estimate * t1 / s1
            alpha_beta = (
                f"out of reach (> {args.budget_s:.0f} s): estimated {estimate:,.2g} states, "
                f"{seconds / 60:,.0f} min (x{growth:.1f} per ply)"
            )
            ratio = f"{counted / estimate:,.0f} (estimated)"
        kernel = new_kernel(GAME)  # a fresh table for each row: the count is this position's alone
        me, opp = (state.x, state.o) if GAME.player(state) is Mark.X else (state.o, state.x)
        started = time.perf_counter()
        root_scores(kernel, GAME, me, opp, shared=False)
        solver_ms = (time.perf_counter() - started) * 1000
        shown = " ".join(str(c + 1) for c in cells) or "empty"
        to_move = "X" if GAME.player(state) is Mark.X else "O"
        print(
            f"| {shown} ({to_move} to move) | {len(cells)} | {minimax} | {alpha_beta} | {kernel.count:,} "
            f"({solver_ms:.0f} ms) | {ratio} |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
