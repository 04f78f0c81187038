"""engine.review: every ply's value and label, checked against an independent plain-minimax oracle."""

from __future__ import annotations

import functools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import IllegalMoveError, Mark, review

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


def won(board: str, mark: str) -> bool:
    return any(all(board[c] == mark for c in line) for line in LINES)


@functools.cache
def oracle(board: str) -> tuple[str, int]:
    """Plain minimax over strings, for the player to move: (win/draw/loss, plies to the end with best play),
    preferring fast wins and slow losses. Independent of engine/."""
    mark = "X" if board.count("X") == board.count("O") else "O"
    options = []
    for cell in (c for c in range(9) if board[c] == "."):
        options.append(oracle_after(board, cell, mark))
    return max(options, key=_rank)


def oracle_after(board: str, cell: int, mark: str) -> tuple[str, int]:
    """The mover's value of playing ``cell``, counted from ``board`` (the move included)."""
    after = board[:cell] + mark + board[cell + 1 :]
    if won(after, mark):
        return ("win", 1)
    if "." not in after:
        return ("draw", 1)
    result, plies = oracle(after)
    return ({"win": "loss", "loss": "win", "draw": "draw"}[result], plies + 1)


def _rank(value: tuple[str, int]) -> tuple[int, int]:
    result, plies = value
    return (2, -plies) if result == "win" else (1, 0) if result == "draw" else (0, plies)


def play(moves: list[int]) -> str:
    board = "." * 9
    for i, cell in enumerate(moves):
        board = board[:cell] + "XO"[i % 2] + board[cell + 1 :]
    return board


def test_an_edge_reply_to_the_centre_is_a_blunder_and_the_corners_are_named() -> None:
    plies = review([4, 1, 0, 8, 6, 2, 3])
    assert [p.label for p in plies] == ["best", "blunder", "best", "best", "best", "best", "best"]
    blunder = plies[1]
    assert blunder.mover is Mark.O and blunder.cell == 1 and blunder.best == (0, 2, 6, 8)
    assert (blunder.before.result, blunder.after.result) == ("draw", "loss")
    assert plies[-1].before.result == "win" and plies[-1].before.plies == 1


def test_a_missed_win_is_a_mistake_a_slower_win_slower_and_a_faster_loss_an_inaccuracy() -> None:
    # X 6, O 5 ... O to move at ply 4 wins by playing 0; 4 only draws
    mistake = review([5, 6, 7, 4])[-1]
    assert (mistake.label, mistake.mover, mistake.best) == ("mistake", Mark.O, (0,))
    assert (mistake.before.result, mistake.after.result) == ("win", "draw")
    # O could win at once with 2 and plays 0, which still wins two plies later
    slower = review([5, 6, 7, 4, 3, 0])[-1]
    assert (slower.label, slower.best) == ("slower", (2,))
    assert (slower.before.plies, slower.after.plies) == (1, 3)
    # X is lost either way, but 3 loses two plies sooner than 6
    inaccuracy = review([5, 7, 2, 8, 3])[-1]
    assert (inaccuracy.label, inaccuracy.best) == ("inaccuracy", (6,))
    assert (inaccuracy.before.plies, inaccuracy.after.plies) == (4, 2)


def test_labels_follow_their_definitions_on_every_ply_of_random_games() -> None:
    rng = random.Random(7)
    for _ in range(200):
        moves: list[int] = []
        board = "." * 9
        while not (won(board, "X") or won(board, "O") or "." not in board):
            moves.append(rng.choice([c for c in range(9) if board[c] == "."]))
            board = play(moves)
        for p in review(moves):
            before, after = (p.before.result, p.before.plies), (p.after.result, p.after.plies)
            if p.label == "best":
                assert before == after and p.best == ()
            else:
                assert _rank(after) < _rank(before) and p.cell not in p.best and p.best
                expected = {
                    ("win", "win"): "slower",
                    ("win", "draw"): "mistake",
                    ("win", "loss"): "blunder",
                    ("draw", "loss"): "blunder",
                    ("loss", "loss"): "inaccuracy",
                }[(before[0], after[0])]
                assert p.label == expected


@settings(max_examples=150, deadline=None)
@given(st.permutations(range(9)), st.integers(1, 9))
def test_every_ply_agrees_with_plain_minimax(order: list[int], length: int) -> None:
    moves: list[int] = []
    for cell in order[:length]:
        board = play(moves)
        if won(board, "X") or won(board, "O"):
            break
        moves.append(cell)
    for p in review(moves):
        board = play(moves[: p.ply - 1])
        mark = "XO"[(p.ply - 1) % 2]
        assert p.mover.value == mark
        assert (p.before.result, p.before.plies) == oracle(board)
        assert (p.after.result, p.after.plies) == oracle_after(board, p.cell, mark)
        best = {c for c in range(9) if board[c] == "." and oracle_after(board, c, mark) == oracle(board)}
        assert (p.cell in best) == (p.label == "best")
        assert p.label == "best" or set(p.best) == best
        assert p.states > 0


@pytest.mark.parametrize("moves", [[4, 4], [9], [-1], [0, 3, 1, 4, 2, 5]])
def test_illegal_games_are_refused(moves: list[int]) -> None:
    with pytest.raises(IllegalMoveError):
        review(moves)
