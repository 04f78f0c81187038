"""The yardsticks for ``benchmarks/engine_speed.py``: a textbook searcher, and seed 002's alpha-beta.

**The textbook searcher** is the kind of program the student labs (the seeds) contain, written
independently for the comparison: the board is a 9-element list of ``"X"``, ``"O"`` and ``" "``;
``player``, ``actions``, ``result``, ``terminal`` and ``utility`` follow AIMA §5.1;
``max_value``/``min_value`` implement minimax (§5.2) and alpha-beta (§5.3) with a counter of calls,
and the decision functions search every root move with a fresh window, keeping the first best move.
Nothing here is optimised.

**Seed 002** ("Tic-Tac-Toe with Alpha-Beta Pruning", /work/shared/seeds/002_*.txt) is reproduced by
the ``seed_002_*`` functions, in this project's code and words, from the write-up's description and
pseudocode, for timing only: one list of nine cells changed in place and undone after each try; the
evaluation ``check_winner`` (+1 X has a line, -1 O has one, 0 otherwise) and ``moves_left``; a single
recursive ``minimax(board, is_ai_turn, alpha, beta)`` that returns the evaluation at a won or full
board, and otherwise tries the empty cells in order 0-8, O (the AI) minimising and X maximising,
updating beta (or alpha) with the best score so far and breaking off when ``alpha >= beta``; and a
``find_best_move`` that gives every root move a fresh window (the write-up's worked example starts
from alpha = -1000, beta = 1000) and keeps the first strictly better one. The write-up's AI plays O
and only ever minimises at the root; to time a first move from the empty board, X's root mirrors it
(maximising). The timed code carries no counter, as in the write-up; :func:`count_calls` counts its
states from outside with a profiler hook.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import CodeType, FrameType
from typing import Any

Board = list[str]

EMPTY = " "
WIN_LINES = (
    (0, 1, 2),
    (3, 4, 5),
    (6, 7, 8),
    (0, 3, 6),
    (1, 4, 7),
    (2, 5, 8),
    (0, 4, 8),
    (2, 4, 6),
)


class Counter:
    """Counts value-function calls: one per state evaluated below the root."""

    def __init__(self) -> None:
        self.calls = 0


def empty_board() -> Board:
    """The initial state: nine blanks."""
    return [EMPTY] * 9


def board_from_text(text: str) -> Board:
    """Nine characters of X, O and '.' (empty) to a list board."""
    return [EMPTY if c == "." else c for c in text]


def player(board: Board) -> str:
    """Whose turn it is: X when the counts are equal."""
    return "X" if board.count("X") == board.count("O") else "O"


def actions(board: Board) -> list[int]:
    """The indices of the empty cells."""
    return [i for i in range(9) if board[i] == EMPTY]


def result(board: Board, action: int) -> Board:
    """A copy of ``board`` with the player to move's mark on ``action``."""
    child = board.copy()
    child[action] = player(board)
    return child


def has_won(board: Board, mark: str) -> bool:
    """True when ``mark`` holds a whole line."""
    return any(board[a] == board[b] == board[c] == mark for a, b, c in WIN_LINES)


def terminal(board: Board) -> bool:
    """True when someone has won or no cell is empty."""
    return has_won(board, "X") or has_won(board, "O") or EMPTY not in board


def utility(board: Board) -> int:
    """+1 if X has won, -1 if O has won, else 0."""
    if has_won(board, "X"):
        return 1
    if has_won(board, "O"):
        return -1
    return 0


# --- minimax --------------------------------------------------------------------------------------


def minimax_max_value(board: Board, counter: Counter) -> int:
    """MAX-VALUE without pruning."""
    counter.calls += 1
    if terminal(board):
        return utility(board)
    best = -2
    for action in actions(board):
        best = max(best, minimax_min_value(result(board, action), counter))
    return best


def minimax_min_value(board: Board, counter: Counter) -> int:
    """MIN-VALUE without pruning."""
    counter.calls += 1
    if terminal(board):
        return utility(board)
    best = 2
    for action in actions(board):
        best = min(best, minimax_max_value(result(board, action), counter))
    return best


# --- alpha-beta -----------------------------------------------------------------------------------


def alpha_beta_max_value(board: Board, alpha: float, beta: float, counter: Counter) -> float:
    """MAX-VALUE with alpha-beta cut-offs."""
    counter.calls += 1
    if terminal(board):
        return utility(board)
    value = float("-inf")
    for action in actions(board):
        value = max(value, alpha_beta_min_value(result(board, action), alpha, beta, counter))
        if value >= beta:
            return value
        alpha = max(alpha, value)
    return value


def alpha_beta_min_value(board: Board, alpha: float, beta: float, counter: Counter) -> float:
    """MIN-VALUE with alpha-beta cut-offs."""
    counter.calls += 1
    if terminal(board):
        return utility(board)
    value = float("inf")
    for action in actions(board):
        value = min(value, alpha_beta_max_value(result(board, action), alpha, beta, counter))
        if value <= alpha:
            return value
        beta = min(beta, value)
    return value


# --- decisions ------------------------------------------------------------------------------------


def _decide(board: Board, value_of: Callable[[Board, bool, Counter], float]) -> tuple[int, float, int]:
    counter = Counter()
    maximising = player(board) == "X"
    best_move, best_value = -1, float("-inf") if maximising else float("inf")
    for action in actions(board):
        value = value_of(result(board, action), maximising, counter)
        if (maximising and value > best_value) or (not maximising and value < best_value):
            best_move, best_value = action, value
    return best_move, best_value, counter.calls


def minimax_decision(board: Board) -> tuple[int, float, int]:
    """The first best move for the player to move by plain minimax: ``(move, value, states)``."""

    def value_of(child: Board, maximising: bool, counter: Counter) -> float:
        return minimax_min_value(child, counter) if maximising else minimax_max_value(child, counter)

    return _decide(board, value_of)


def alpha_beta_decision(board: Board) -> tuple[int, float, int]:
    """The first best move by alpha-beta, each root move with a fresh (-inf, +inf) window."""

    def value_of(child: Board, maximising: bool, counter: Counter) -> float:
        inf = float("inf")
        if maximising:
            return alpha_beta_min_value(child, -inf, inf, counter)
        return alpha_beta_max_value(child, -inf, inf, counter)

    return _decide(board, value_of)


# --- seed 002 -------------------------------------------------------------------------------------

SEED_002_INFINITY = 1000


def seed_002_check_winner(board: Board) -> int:
    """Seed 002's evaluation: +1 when X holds a line, -1 when O does, 0 otherwise."""
    for a, b, c in WIN_LINES:
        if board[a] == board[b] == board[c] and board[a] != EMPTY:
            return 1 if board[a] == "X" else -1
    return 0


def seed_002_moves_left(board: Board) -> bool:
    """True while some cell is empty."""
    return EMPTY in board


def seed_002_minimax(board: Board, is_ai_turn: bool, alpha: int, beta: int) -> int:
    """Seed 002's alpha-beta minimax on a board changed in place: O (the AI) minimises, X maximises."""
    score = seed_002_check_winner(board)
    if score == 1 or score == -1:
        return score
    if not seed_002_moves_left(board):
        return 0
    if is_ai_turn:
        best_score = SEED_002_INFINITY
        for i in range(9):
            if board[i] == EMPTY:
                board[i] = "O"
                score = seed_002_minimax(board, False, alpha, beta)
                board[i] = EMPTY
                best_score = min(best_score, score)
                beta = min(beta, best_score)
                if alpha >= beta:
                    break
        return best_score
    best_score = -SEED_002_INFINITY
    for i in range(9):
        if board[i] == EMPTY:
            board[i] = "X"
            score = seed_002_minimax(board, True, alpha, beta)
            board[i] = EMPTY
            best_score = max(best_score, score)
            alpha = max(alpha, best_score)
            if alpha >= beta:
                break
    return best_score


def seed_002_find_best_move(board: Board) -> int:
    """Seed 002's root: each empty cell (0-8) with a fresh window; the first strictly best move wins.

    O minimises as in the write-up; X, which the write-up never searches for, maximises. ``board``
    is changed during the search and restored before returning.
    """
    o_to_move = board.count("X") > board.count("O")
    best_value = SEED_002_INFINITY if o_to_move else -SEED_002_INFINITY
    best_move = -1
    for i in range(9):
        if board[i] == EMPTY:
            board[i] = "O" if o_to_move else "X"
            move_value = seed_002_minimax(board, not o_to_move, -SEED_002_INFINITY, SEED_002_INFINITY)
            board[i] = EMPTY
            if (move_value < best_value) if o_to_move else (move_value > best_value):
                best_move = i
                best_value = move_value
    return best_move


def count_calls(code: CodeType, run: Callable[[], Any]) -> tuple[Any, int]:
    """``run()``'s result and how many times it called the function whose code object is ``code``.

    A profiler hook (``sys.setprofile``) does the counting, so the counted function carries no
    counter of its own; with ``seed_002_minimax.__code__`` this is seed 002's states evaluated below
    the root (one per call of the value function, the seeds' convention).
    """
    calls = 0

    def hook(frame: FrameType, event: str, arg: object) -> None:
        nonlocal calls
        if event == "call" and frame.f_code is code:
            calls += 1

    previous = sys.getprofile()
    sys.setprofile(hook)
    try:
        value = run()
    finally:
        sys.setprofile(previous)
    return value, calls
