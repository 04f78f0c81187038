"""A straightforward textbook tic-tac-toe searcher, the yardstick for ``benchmarks/engine.py``.

This is the kind of program the student labs (the seeds) contain, written independently for the
comparison: the board is a 9-element list of ``"X"``, ``"O"`` and ``" "``; ``player``, ``actions``,
``result``, ``terminal`` and ``utility`` follow AIMA §5.1; ``max_value``/``min_value`` implement
minimax (§5.2) and alpha-beta (§5.3) with a counter of calls, and the decision functions search
every root move with a fresh window, keeping the first best move. Nothing here is optimised.
"""

from __future__ import annotations

from collections.abc import Callable

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
