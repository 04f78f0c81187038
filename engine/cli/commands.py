"""The command line's entry point, :func:`main`: ``python -m engine analyse BOARD`` (here), ``review CELL ...``,
``serve``, ``bestmove MOVE ...`` (here), ``levels``, ``puzzles`` and ``tree``, parsed by :mod:`engine.cli.parser`.

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
import json
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from engine.analysis import MoveAnalysis, analyse
from engine.cli.levels import levels_command
from engine.cli.parser import build_parser
from engine.cli.puzzles import puzzles_command
from engine.cli.review import EXIT_OK, EXIT_USAGE, review_command
from engine.cli.serve import answer_line, serve
from engine.cli.tree import tree_command
from engine.errors import GameOverError, InvalidBoardError
from engine.levels import calibrated
from engine.minimax.search import (
    ALGORITHM_CONFIGS,
    TEXTBOOK_ALPHA_BETA,
    TEXTBOOK_MINIMAX,
    SearchConfig,
    SearchResult,
    search,
)
from engine.protocol import Algorithm
from engine.tictactoe.rules import State, format_board, parse_board, player

__all__ = [
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_USAGE",
    "analyse_command",
    "bestmove_command",
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
        return bestmove_command(args, stdout)
    if args.command == "levels":
        names = [args.variant] if args.variant else list(calibrated())
        return levels_command(names, as_json=args.json, stdout=stdout)
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


def bestmove_command(args: argparse.Namespace, stdout: TextIO) -> int:
    """Answer the one request ``bestmove`` names and print its JSON answer. MOVEs that are all whole numbers are
    1-based cells, else names in the game's notation; ``--columns`` gives 1-based columns instead.

    Returns:
        0; 2 when the request is refused (its JSON error is printed all the same).
    """
    request: dict[str, object] = {"variant": args.variant, "budget_ms": args.budget_ms, "level": args.level}
    if args.moves or args.columns is None:
        numbers = [int(move) for move in args.moves if move.isdecimal()]
        request["moves"] = numbers if len(numbers) == len(args.moves) else args.moves
    if args.columns is not None:
        request["columns"] = args.columns
    line = answer_line(json.dumps(request))
    stdout.write(line + "\n")
    return EXIT_USAGE if "error" in json.loads(line) else EXIT_OK


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
