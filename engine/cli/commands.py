"""The command line: ``python -m engine analyse BOARD``, ``review CELL ...``, ``serve``, ``bestmove``, ``levels``,
``puzzles`` and ``tree`` (:mod:`engine.cli.tree`).

Every entry point takes its argument list and text streams as parameters (:func:`main`,
:func:`analyse_command`, :func:`review_command` from :mod:`engine.cli.review`), so tests run them in-process with
``io.StringIO``. Every command numbers cells as people see them, from 1, in what it reads, prints and
reports as an error. Playing in a terminal is the bot's console
(``python -m bot --console``), not part of the engine.

Exit codes: 0 success, 2 bad usage, a bad board or an illegal move list, 130 interrupted with Ctrl-C.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from engine.analysis import MoveAnalysis, analyse
from engine.cli.puzzles import puzzles_command
from engine.cli.review import EXIT_OK, EXIT_USAGE, review_command
from engine.cli.serve import DEFAULT_BUDGET_MS, answer_line, serve
from engine.cli.tree import add_parser as add_tree_parser
from engine.cli.tree import tree_command
from engine.errors import GameOverError, InvalidBoardError
from engine.levels import ladder
from engine.minimax.search import (
    ALGORITHM_CONFIGS,
    TEXTBOOK_ALPHA_BETA,
    TEXTBOOK_MINIMAX,
    SearchConfig,
    SearchResult,
    search,
)
from engine.protocol import Algorithm
from engine.puzzles import PUZZLE_VARIANTS
from engine.registry import VARIANTS
from engine.tictactoe.rules import State, format_board, parse_board, player

__all__ = [
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_USAGE",
    "analyse_command",
    "build_parser",
    "describe_value",
    "main",
    "render_board",
    "review_command",
]

EXIT_INTERRUPTED = 130

_TEXTBOOK_CONFIGS: dict[Algorithm, SearchConfig] = {"alpha-beta": TEXTBOOK_ALPHA_BETA, "minimax": TEXTBOOK_MINIMAX}


def render_board(state: State) -> str:
    """The board as three rows, marks shown as X/O and empty cells by their number 1-9."""
    cells = [m.value if (m := state[i]) else str(i + 1) for i in range(9)]
    rows = [" " + " | ".join(cells[r * 3 : r * 3 + 3]) for r in range(3)]
    return "\n---+---+---\n".join(rows)


def describe_value(value: int, scoring: str) -> str:
    """Explain a search value (X's point of view) in words, e.g. ``"X wins in 3 plies"``."""
    if value == 0:
        return "draw with best play"
    side = "X" if value > 0 else "O"
    if scoring == "depth":
        plies = 10 - abs(value)
        return f"{side} wins in {plies} {'ply' if plies == 1 else 'plies'} with best play"
    return f"{side} wins with best play"


def _search_line(res: SearchResult) -> str:
    return f"{res.config.algorithm} evaluated {res.states:,} states in {res.elapsed_ms:.2f} ms"


def _people(cells: Sequence[int]) -> list[int]:
    return [c + 1 for c in cells]


def _move_text(move: MoveAnalysis) -> str:
    if move.outcome == "draw":
        return "draw"
    return f"{move.outcome} in {move.plies} {'ply' if move.plies == 1 else 'plies'}"


def build_parser() -> argparse.ArgumentParser:
    """The argparse parser for ``python -m engine`` and its ``analyse`` and ``review`` subcommands."""
    parser = argparse.ArgumentParser(
        prog="python -m engine",
        description="Analyse a tic-tac-toe position, or review a game move by move.",
    )
    sub = parser.add_subparsers(
        dest="command", required=True, metavar="{analyse,review,serve,bestmove,levels,puzzles,tree}"
    )

    an_p = sub.add_parser("analyse", aliases=["analyze"], help="choose a move for a position and explain it")
    an_p.add_argument("board", metavar="BOARD", help="nine characters of X, O and '.', row by row, e.g. '....X....'")
    an_p.add_argument("--algorithm", choices=tuple(ALGORITHM_CONFIGS), default="alpha-beta")
    an_p.add_argument(
        "--textbook",
        action="store_true",
        help="use the seeds' plain configuration (natural order, +1/0/-1, no table) to reproduce their state counts",
    )
    an_p.add_argument("--json", action="store_true", help="print one JSON object instead of text")

    re_p = sub.add_parser("review", help="label every move of a game: best, slower, inaccuracy, mistake or blunder")
    re_p.add_argument(
        "cells",
        metavar="CELL",
        type=int,
        nargs="+",
        help="the cells played, in order from the empty board, numbered 1-9 row by row from the top-left",
    )
    re_p.add_argument("--json", action="store_true", help="print one JSON object instead of text")

    sub.add_parser("serve", help="answer JSON requests, one per line on stdin (see engine.cli.serve)")
    bm_p = sub.add_parser("bestmove", help="answer one request: the engine's move in a game of VARIANT")
    bm_p.add_argument("variant", metavar="VARIANT", help=f"one of {', '.join(VARIANTS)}")
    bm_p.add_argument("moves", metavar="CELL", type=int, nargs="*", help="the cells played, 1-based row by row")
    bm_p.add_argument("--budget-ms", type=float, default=DEFAULT_BUDGET_MS, help="the search's budget (ms)")
    bm_p.add_argument("--level", type=int, default=8, choices=range(1, 9), help="the engine's level, 1-8 (default 8)")
    sub.add_parser("levels", help="print every game's levels 1-8 with their measured ratings, as JSON")
    pz_p = sub.add_parser("puzzles", help="print the shipped puzzles of a variant (find the only winning move)")
    pz_p.add_argument("--variant", choices=PUZZLE_VARIANTS, required=True)
    pz_p.add_argument("--json", action="store_true", help="print one JSON array instead of text")
    add_tree_parser(sub)
    return parser


def main(
    argv: Sequence[str] | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run ``python -m engine`` with ``argv`` (default ``sys.argv[1:]``) on the given streams.

    Returns the exit code: 0 on success, 2 for bad arguments, a bad or finished board or an illegal
    move list (one line on ``stderr``; argparse adds its usage line for bad arguments).
    """
    stdout = stdout if stdout is not None else sys.stdout
    stderr = stderr if stderr is not None else sys.stderr
    parser = build_parser()
    try:
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            args = parser.parse_args(list(argv) if argv is not None else None)
    except SystemExit as exc:  # --help exits 0, bad arguments 2
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE
    if args.command == "serve":
        return serve(sys.stdin, stdout)
    if args.command == "bestmove":
        request = {"variant": args.variant, "moves": args.moves, "budget_ms": args.budget_ms, "level": args.level}
        line = answer_line(json.dumps(request))
        print(line, file=stdout)
        return EXIT_USAGE if '"error"' in line else EXIT_OK
    if args.command == "levels":
        payload = {name: [dataclasses.asdict(level) for level in ladder(name)] for name in VARIANTS}
        print(json.dumps(payload), file=stdout)
        return EXIT_OK
    if args.command == "puzzles":
        return puzzles_command(args.variant, as_json_output=args.json, stdout=stdout)
    if args.command == "tree":
        return tree_command(args, stdout, stderr)
    if args.command == "review":
        return review_command(args.cells, as_json=args.json, stdout=stdout, stderr=stderr)
    return analyse_command(
        args.board,
        algorithm=args.algorithm,
        textbook=args.textbook,
        as_json=args.json,
        stdout=stdout,
        stderr=stderr,
    )


def analyse_command(
    board: str,
    *,
    algorithm: Algorithm = "alpha-beta",
    textbook: bool = False,
    as_json: bool = False,
    stdout: TextIO,
    stderr: TextIO,
) -> int:
    """Search ``board`` and print the chosen cell (1-9), its value, the states evaluated and the time.

    The text form adds the principal variation and one line per legal move (win/draw/loss in n
    plies, from :func:`engine.analysis.analyse`). With ``as_json`` it prints exactly one JSON
    object with keys ``board``, ``to_move``, ``move`` (1-9), ``value`` (X's point of view),
    ``states``, ``elapsed_ms``, ``pv`` and ``best_moves`` (1-9), ``algorithm``, ``scoring`` and
    ``moves`` (per-move outcomes, cells 1-9).

    Returns:
        0 on success; 2 when the board is invalid or the game in it is over, after printing one
        line starting ``error:`` on ``stderr``.
    """
    try:
        state = parse_board(board)
        config = (_TEXTBOOK_CONFIGS if textbook else ALGORITHM_CONFIGS)[algorithm]
        res = search(state, config=config)
    except (InvalidBoardError, GameOverError) as exc:
        stderr.write(f"error: {exc}\n")
        return EXIT_USAGE
    moves = analyse(state, compare=False).moves
    if as_json:
        payload: dict[str, Any] = {
            "board": format_board(state),
            "to_move": player(state).value,
            "move": res.move + 1,
            "value": res.value,
            "states": res.states,
            "elapsed_ms": res.elapsed_ms,
            "pv": _people(res.pv),
            "best_moves": _people(res.best_moves),
            "algorithm": res.config.algorithm,
            "scoring": res.config.scoring,
            "moves": [{"cell": m.cell + 1, "outcome": m.outcome, "plies": m.plies} for m in moves],
        }
        stdout.write(json.dumps(payload) + "\n")
        return EXIT_OK
    lines = [
        render_board(state),
        "",
        f"{player(state).value} to move.",
        f"Best move: {res.move + 1} (value {res.value:+d}: {describe_value(res.value, res.config.scoring)})"
        if res.value
        else f"Best move: {res.move + 1} (value 0: {describe_value(0, res.config.scoring)})",
        f"{_search_line(res)}",
        f"Equally good: {', '.join(map(str, _people(res.best_moves)))}",
        f"Principal variation: {' '.join(map(str, _people(res.pv)))}",
        "Moves:",
        *(f"  {m.cell + 1}: {_move_text(m)}" for m in moves),
    ]
    stdout.write("\n".join(lines) + "\n")
    return EXIT_OK
