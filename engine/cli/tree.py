"""``python -m engine tree CELL ...``: the tree the bot's 3x3 search evaluated after the cells played (4x4 and 5x5: a
fresh exact search near the end of a game; ultimate: the MCTS-Solver's first plies), as text, JSON (``--json``) or a
picture (``--png FILE``, ``--svg FILE``; :mod:`engine.tree.draw` and :mod:`engine.tree.draw_mcts`, loaded only then).

The JSON shape is documented in ``docs/engine.md`` and :meth:`engine.tree.node.Node.as_json`.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from engine.coordinates import cell_name
from engine.errors import GameOverError, IllegalMoveError
from engine.minimax.config import ALGORITHM_CONFIGS
from engine.mnk.rules import TIC_TAC_TOE_4X4, TIC_TAC_TOE_5X5
from engine.protocol import Algorithm
from engine.tree.labels import saving_lines
from engine.tree.mcts import TREE_ITERATIONS, record_mcts
from engine.tree.mnk import record_mnk
from engine.tree.node import SearchTree
from engine.tree.record import record
from engine.tree.savings import savings
from engine.tree.step import steps, walk
from engine.tree.summary import summarise
from engine.tree.words import ENGLISH, signed

__all__ = ["add_parser", "tree_command"]

EXIT_OK, EXIT_USAGE, EXIT_NO_PICTURE = 0, 2, 3
TREE_VARIANTS = ("3x3", "4x4", "5x5", "ultimate")
"""The variants whose search can be recorded: 3x3 (alpha-beta and plain minimax, every state), 4x4 and 5x5 (a fresh
exact search, with at most :data:`engine.tree.mnk.TREE_EMPTY_CELLS` empty cells) and ultimate (the MCTS-Solver's first
plies)."""
_MNK = {"4x4": TIC_TAC_TOE_4X4, "5x5": TIC_TAC_TOE_5X5}


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``tree`` to the subcommands of ``python -m engine``."""
    tr_p = sub.add_parser(
        "tree",
        help="show the tree the bot's search evaluated after CELLs (text, JSON or picture)",
        description="Show the tree the bot's search evaluated after CELLs: a summary (the move, its value, the states "
        "and cuts), the whole tree as JSON, or a picture of its first plies (Graphviz). 3x3: the bot's search; 4x4 "
        "and 5x5: a fresh exact search near the end of a game; ultimate: the MCTS-Solver's first plies.",
    )
    tr_p.add_argument("cells", metavar="CELL", type=int, nargs="*", help="the cells played, 1-based row by row")
    tr_p.add_argument("--variant", choices=TREE_VARIANTS, default="3x3", help="the game (default 3x3)")
    tr_p.add_argument(
        "--algorithm", choices=tuple(ALGORITHM_CONFIGS), default="alpha-beta", help="3x3: the search (alpha-beta)"
    )
    tr_p.add_argument("--json", action="store_true", help="print the whole tree as one JSON object")
    tr_p.add_argument(
        "--step",
        action="store_true",
        help="walk the search state by state (window, values, cuts, count); with --json one event per line",
    )
    tr_p.add_argument("--png", type=Path, metavar="FILE", help="draw the tree to FILE (PNG)")
    tr_p.add_argument("--svg", type=Path, metavar="FILE", help="draw the tree to FILE (SVG)")
    tr_p.add_argument(
        "--compare", action="store_true", help="draw plain minimax's tree beside alpha-beta's, each with its count"
    )
    tr_p.add_argument("--depth", type=int, default=2, choices=range(1, 5), help="plies drawn below the root (1-4)")
    tr_p.add_argument("--iterations", type=int, default=TREE_ITERATIONS, help="ultimate: the MCTS iterations")
    tr_p.add_argument("--seed", type=int, default=0, help="ultimate: the search's seed")


def tree_command(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    """Run ``tree`` with parsed ``args``. Returns 0, 2 for cells that are not a legal unfinished game, or 3 when a
    picture was asked for and Graphviz, its Python package or Pillow is missing (one ``error:`` line on ``stderr``)."""
    cells = [cell - 1 for cell in args.cells]
    if args.variant == "ultimate":
        if args.step:
            stderr.write("error: --step walks a minimax or alpha-beta search (3x3, 4x4, 5x5), not ultimate's MCTS\n")
            return EXIT_USAGE
        return _ultimate(args, cells, stdout, stderr)
    algorithm: Algorithm = args.algorithm
    game = _MNK.get(args.variant)  # 4x4 and 5x5: a fresh exact alpha-beta search
    if game is not None and (algorithm != "alpha-beta" or args.compare):
        stderr.write(f"error: {args.variant} records alpha-beta alone (no --algorithm minimax, no --compare)\n")
        return EXIT_USAGE
    size = 9 if game is None else game.cells
    try:
        if any(not 0 <= cell < size for cell in cells):
            raise IllegalMoveError(f"cells are 1-{size}, not {' '.join(map(str, args.cells))}")
        tree = record(cells, algorithm) if game is None else record_mnk(game, cells)
    except (IllegalMoveError, GameOverError, ValueError) as exc:  # ValueError: too many empty cells to draw
        stderr.write(f"error: {exc}\n")
        return EXIT_USAGE
    if args.step:
        _step(tree, args.json, stdout)
    elif args.json:
        stdout.write(json.dumps(tree.as_json()) + "\n")
    elif not (args.png or args.svg):
        stdout.write(summary(tree) + "\n")
    trees = [tree]
    if args.compare:
        other: Algorithm = "minimax" if algorithm == "alpha-beta" else "alpha-beta"
        trees = (
            [record(cells, "minimax", keep=args.depth), tree] if other == "minimax" else [tree, record(cells, other)]
        )
    return _draw(args, lambda fmt: _render(trees, fmt, args.depth), stderr)


def _step(tree: SearchTree, as_json: bool, stdout: TextIO) -> None:
    """``--step``: the search's steps (:mod:`engine.tree.step`), one JSON event per line, or walked for a person,
    waiting for Enter after each step when both ends are a terminal (``q`` stops)."""
    if as_json:
        for step in steps(tree):
            stdout.write(json.dumps(step.as_json()) + "\n")
        return
    side = "X" if len(tree.cells) % 2 == 0 else "O"
    stdout.write(
        f"{tree.algorithm}: {tree.states:,} states; {side} to move. X maximises, O minimises; values are X's, plies\n"
        "counted from here. A line per state: the states so far, the move, the window its replies are searched with\n"
        "(alpha, beta), a leaf's value; '←' a value going back up; '✂' a cut, with the alpha or beta that allowed it.\n"
        "At the root's own moves the window sits one point past the best so far, so equally good moves are found.\n"
    )
    pause = stdout is sys.stdout and sys.stdin.isatty() and sys.stdout.isatty()
    for _, lines in walk(tree):
        stdout.write("".join(line + "\n" for line in lines))
        if pause:
            stdout.flush()
            if sys.stdin.readline().strip().lower() == "q":
                return


def _render(trees: list[SearchTree], fmt: str, depth: int) -> bytes:
    from engine.tree.draw import render

    return render(trees, fmt, depth=depth)


def _ultimate(args: argparse.Namespace, cells: list[int], stdout: TextIO, stderr: TextIO) -> int:
    if args.iterations < 1:
        stderr.write(f"error: --iterations must be at least 1, not {args.iterations}\n")
        return EXIT_USAGE
    try:
        tree = record_mcts(cells, args.iterations, args.seed)
    except (IllegalMoveError, GameOverError) as exc:
        stderr.write(f"error: {exc}\n")
        return EXIT_USAGE
    if args.json:
        stdout.write(json.dumps(tree.as_json()) + "\n")
    elif not (args.png or args.svg):
        best = tree.moves[0]
        stdout.write(
            f"MCTS: {tree.iterations:,} iterations, {tree.states:,} states; plays {cell_name(best.move, 9)}"
            f" ({best.visits:,} visits, win rate {best.mean:.0%}"
            + (f", proven {best.proof}" if best.proof else "")
            + ")\n"
        )

    def render(fmt: str) -> bytes:
        from engine.tree.draw_mcts import render_mcts

        return render_mcts(tree, fmt)

    return _draw(args, render, stderr)


def _draw(args: argparse.Namespace, render: Callable[[str], bytes], stderr: TextIO) -> int:
    for fmt, path in (("png", args.png), ("svg", args.svg)):
        if path is not None:
            try:
                path.write_bytes(render(fmt))
            except (ImportError, OSError) as exc:
                stderr.write(f"error: cannot draw the tree: {exc}\n")
                return EXIT_NO_PICTURE
            except RuntimeError as exc:  # graphviz.ExecutableNotFound
                stderr.write(f"error: cannot draw the tree (is Graphviz's dot installed?): {exc}\n")
                return EXIT_NO_PICTURE
    return EXIT_OK


def summary(tree: SearchTree) -> str:
    """A few lines about ``tree``: who moves, the move and its value, the states and what alpha-beta cut; on 3x3 what
    each idea of the bot's search saved in the position (:func:`engine.tree.savings.savings`)."""
    facts = summarise(tree)
    side = "X" if len(tree.cells) % 2 == 0 else "O"
    lines = [
        f"{side} to move; {tree.algorithm} plays {tree.move + 1}: {ENGLISH.value(tree.root.value)}"
        f" (value {signed(tree.root.value)}; plies counted from this position).",
        f"{_count(facts.states, 'state')} evaluated: {facts.terminal:,} terminal, {facts.table:,} from the table, "
        f"{_count(facts.cuts, 'cut')} skipping {_count(facts.skipped, 'move')}.",
    ]
    if tree.same_as:
        lines.append(f"Not searched (mirror images): {', '.join(str(cell + 1) for cell in sorted(tree.same_as))}.")
    if tree.width == 3:
        known = tree.states if tree.algorithm == "minimax" else None
        lines += saving_lines(savings(tree.cells, minimax_states=known))
    return "\n".join(lines)


def _count(count: int, noun: str) -> str:
    return f"{count:,} {noun}{'' if count == 1 else 's'}"
