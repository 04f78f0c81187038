"""Build an opening book (:mod:`engine.mnk.book`) from scratch with the project's own solver.

``python -m engine.mnk.book_build [--game 5x5] [--plies 4] [--out PATH]`` (``make books``) walks every
position the bot can face with fewer than ``plies`` marks, as X and as O: at the bot's turn it proves one
best move with :func:`prove` and follows it; at the opponent's it follows every legal reply (one per
symmetry class). Each proof starts from an empty transposition table, so the states stored with a
position are the nodes needed to prove it alone.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from engine.mnk.book import Book, book_path, canonical
from engine.mnk.rules import TIC_TAC_TOE_4X4, TIC_TAC_TOE_5X5, MnkState, TicTacToe
from engine.mnk.solver import INF, NATIVE, Kernel, move_value, new_kernel
from engine.protocol import Mark

__all__ = ["GAMES", "build", "main", "prove"]

GAMES = {"4x4": TIC_TAC_TOE_4X4, "5x5": TIC_TAC_TOE_5X5}


def prove(kernel: Kernel, game: TicTacToe, me: int, opp: int) -> tuple[int, int]:
    """One best move and the exact score (see :mod:`engine.mnk.solver`) of a position that is not over.

    First a window of (-1, 1) around the draw, which settles a drawn position cheaply; if some move wins or
    every move loses, the moves are searched again for the exact score. Ties go to the first move in the
    solver's order (most lines through the cell first).

    Returns:
        ``(cell, score)``, cell 0-based.
    """
    free = game.full ^ (me | opp)
    order = sorted((c for c in range(game.cells) if free >> c & 1), key=lambda c: -len(game.lines_through[c]))
    best, best_cell = -INF, order[0]
    for cell in order:
        score = move_value(kernel, game, me, opp, cell, max(best, -1), 1)
        if score > best:
            best, best_cell = score, cell
        if best >= 1:
            break
    if best == 0:
        return best_cell, 0
    best = 0 if best >= 1 else -INF  # a win exists: only wins matter; else every move loses
    for cell in order:
        score = move_value(kernel, game, me, opp, cell, best, INF)
        if score > best:
            best, best_cell = score, cell
    return best_cell, best


def build(game: TicTacToe, plies: int, log: Callable[[str], None] = lambda _: None) -> Book:
    """The book of every position the bot can face with fewer than ``plies`` marks (see the module docstring)."""
    kernel = new_kernel(game)
    entries: dict[tuple[int, int], tuple[int, int, int]] = {}
    visited: set[tuple[int, int, bool]] = set()
    started = time.perf_counter()

    def bot_move(state: MnkState) -> int:
        x, o, perm = canonical(game, state)
        if (x, o) not in entries:
            me, opp = (state.x, state.o) if game.player(state) is Mark.X else (state.o, state.x)
            kernel.clear()
            kernel.count = 0
            cell, score = prove(kernel, game, me, opp)
            entries[(x, o)] = (perm[cell], score, kernel.count)
            log(
                f"{len(entries):5d} ply {state.marks} {game.format_board(state)} move {cell + 1} score {score} "
                f"states {kernel.count:,} at {time.perf_counter() - started:.0f} s"
            )
        return perm.index(entries[(x, o)][0])

    def walk(state: MnkState, bot_is_x: bool) -> None:
        if state.marks >= plies or game.terminal(state):
            return
        x, o, _ = canonical(game, state)
        if (x, o, bot_is_x) in visited:
            return
        visited.add((x, o, bot_is_x))
        if (game.player(state) is Mark.X) == bot_is_x:
            walk(game.result(state, bot_move(state)), bot_is_x)
        else:
            for cell in game.actions(state):
                walk(game.result(state, cell), bot_is_x)

    walk(game.initial_state(), True)
    walk(game.initial_state(), False)
    elapsed = time.perf_counter() - started
    header = [
        f"Opening book for {game!r}: the bot's proven move in every position it can face below {plies} marks.",
        f"Built by `make books` (python -m engine.mnk.book_build --game {game.h}x{game.v} --plies {plies})",
        f"on {datetime.now(UTC):%Y-%m-%d %H:%M} UTC in {elapsed:.0f} s with the {'C' if NATIVE else 'pure-Python'}"
        f" kernel of engine.mnk.solver: {len(entries)} positions, {sum(e[2] for e in entries.values()):,} states.",
        "Columns: x o move score states (see engine/mnk/book.py).",
    ]
    return Book(game, entries, header)


def main(argv: list[str] | None = None) -> int:
    """Build a book and write it (default: the shipped file for the game)."""
    parser = argparse.ArgumentParser(prog="python -m engine.mnk.book_build", description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(GAMES), default="5x5")
    parser.add_argument("--plies", type=int, default=4, help="cover positions with fewer marks than this")
    parser.add_argument("--out", type=Path, default=None, help="output file (default: the shipped book)")
    args = parser.parse_args(argv)
    game = GAMES[args.game]
    started = time.perf_counter()
    book = build(game, args.plies, log=lambda line: print(line, file=sys.stderr, flush=True))
    out = args.out or book_path(game)
    book.save(out)
    seconds = time.perf_counter() - started
    print(f"{out}: {len(book)} positions, {out.stat().st_size:,} bytes; built in {seconds:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
