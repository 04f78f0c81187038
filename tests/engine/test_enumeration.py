"""Counts of the whole game tree, from an enumerator written here with its own string-based rules.

Nothing here uses engine.minimax.search; the last tests cross-check this enumerator with engine.tictactoe.rules.
"""

from __future__ import annotations

from functools import cache

from engine.tictactoe.rules import State, format_board, winner

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
EMPTY = "........."


def won(board: str, mark: str) -> bool:
    return any(board[a] == board[b] == board[c] == mark for a, b, c in LINES)


def to_move(board: str) -> str:
    return "X" if board.count("X") == board.count("O") else "O"


def over(board: str) -> bool:
    return won(board, "X") or won(board, "O") or "." not in board


def children(board: str) -> list[str]:
    if over(board):
        return []
    mark = to_move(board)
    return [board[:i] + mark + board[i + 1 :] for i, c in enumerate(board) if c == "."]


@cache
def tree_nodes(board: str) -> int:
    """Nodes of the game tree below and including ``board`` (paths, not distinct positions)."""
    return 1 + sum(tree_nodes(child) for child in children(board))


@cache
def games(board: str) -> tuple[int, int, int]:
    """Complete games from ``board``: (X wins, O wins, draws)."""
    if won(board, "X"):
        return (1, 0, 0)
    if won(board, "O"):
        return (0, 1, 0)
    if "." not in board:
        return (0, 0, 1)
    totals = [0, 0, 0]
    for child in children(board):
        for i, n in enumerate(games(child)):
            totals[i] += n
    return (totals[0], totals[1], totals[2])


def all_boards() -> set[str]:
    seen = {EMPTY}
    stack = [EMPTY]
    while stack:
        for child in children(stack.pop()):
            if child not in seen:
                seen.add(child)
                stack.append(child)
    return seen


def rotate(board: str) -> str:
    """Quarter turn clockwise: new cell (r, c) takes old cell (2 - c, r)."""
    return "".join(board[(2 - c) * 3 + r] for r in range(3) for c in range(3))


def mirror(board: str) -> str:
    return "".join(board[r * 3 + 2 - c] for r in range(3) for c in range(3))


def canonical(board: str) -> str:
    images = []
    for b in (board, mirror(board)):
        for _ in range(4):
            images.append(b)
            b = rotate(b)
    return min(images)


def test_tree_has_549_946_nodes() -> None:
    assert tree_nodes(EMPTY) == 549_946


def test_complete_games_by_outcome() -> None:
    x_wins, o_wins, draws = games(EMPTY)
    assert (x_wins, o_wins, draws) == (131_184, 77_904, 46_080)
    assert x_wins + o_wins + draws == 255_168


def test_5478_reachable_positions() -> None:
    positions = all_boards()
    assert len(positions) == 5_478
    assert sum(1 for b in positions if not over(b)) == 4_520
    assert sum(1 for b in positions if over(b)) == 958


def test_765_positions_up_to_symmetry() -> None:
    assert len({canonical(b) for b in all_boards()}) == 765


def test_symmetry_group_has_eight_elements() -> None:
    board = "XO......."  # no symmetry of its own, so all 8 images differ
    images = set()
    for b in (board, mirror(board)):
        for _ in range(4):
            images.add(b)
            b = rotate(b)
    assert len(images) == 8
    assert rotate(rotate(rotate(rotate(board)))) == board


def test_engine_rules_reach_the_same_positions(reachable: list[State]) -> None:
    """engine.tictactoe.rules, walked by the conftest enumerator, reaches exactly the positions this one does."""
    assert {format_board(s) for s in reachable} == all_boards()


def test_engine_winner_agrees_on_every_position(reachable: list[State]) -> None:
    for s in reachable:
        board = format_board(s)
        expected = "X" if won(board, "X") else "O" if won(board, "O") else None
        w = winner(s)
        assert (w.value if w else None) == expected
