"""The search board: window counts against the rules, and the threat search (VCF) against an oracle."""

from __future__ import annotations

import random

import pytest

from engine.gomoku.board import LINE_WEIGHTS, WINDOWS, PyBoard
from engine.gomoku.play import new_board
from engine.gomoku.rules import GOMOKU, GomokuState
from engine.protocol import Mark
from tests.engine.gomoku.positions import clustered, five_cells, has_vcf, put, side_to_move, stones


def totals_from_scratch(state: GomokuState) -> list[int]:
    """Each side's sum of live-window weights, counted window by window."""
    totals = [0, 0]
    for window in WINDOWS:
        counts = [sum(1 for c in window if stones(state, s) >> (c + c // 15) & 1) for s in (0, 1)]
        for s in (0, 1):
            if counts[1 - s] == 0:
                totals[s] += LINE_WEIGHTS[counts[s]]
    return totals


def test_counts_follow_moves_and_take_backs() -> None:
    rng = random.Random(3)
    for _ in range(20):
        state = clustered(rng, rng.randrange(1, 60))
        board = new_board(state)
        assert board.totals == totals_from_scratch(state)
        for side in (0, 1):
            assert set(board.five_cells(side)) == five_cells(state, side)
        empty = [c for c in range(225) if board.cells[c] < 0]
        extra = rng.sample(empty, 5)
        key = board.key
        for i, cell in enumerate(extra):
            board.place(cell, i % 2)
        for cell in reversed(extra):
            board.remove(cell)
        assert board.totals == totals_from_scratch(state) and board.key == key


def test_candidates_are_empty_cells_near_stones_best_first() -> None:
    board = PyBoard()
    assert board.candidates(0) == [112]
    board.place(112, 0)
    found = board.candidates(1)
    assert len(found) == 24 and 112 not in found
    scores = [board.move_score(c, 1) for c in found]
    assert scores == sorted(scores, reverse=True)


def test_a_double_four_is_a_vcf_in_two() -> None:
    # X: h8 h9 h10 (down) and i7 j7 k7 (across), O scattered; X at h7 makes two fours at once.
    state = GOMOKU.play("h8 a1 h9 a3 h10 a5 i7 a7 j7 a9 k7 o1")
    board = new_board(state)
    line = board.vcf(0, 2)
    assert line is not None and line[0] == GOMOKU.parse_cell("h7") and len(line) == 3
    assert board.vcf(0, 1) is None


def test_a_forced_sequence_of_fours_is_found() -> None:
    # X: f5 g5 h5 (e5 blocked), f8 g8 h8 (e8 blocked), i6 i7 (i4 blocked). i5 is a four (O j5 forced), then i8 is
    # two fours (row 8 and i5-i8): a VCF in 3, and no double four at once.
    state = GOMOKU.play("f5 e5 g5 e8 h5 i4 f8 a1 g8 o1 h8 a15 i6 o15 i7 c13")
    assert side_to_move(state) == 0 and has_vcf(state, 0, 3) and not has_vcf(state, 0, 2)
    board = new_board(state)
    assert board.vcf(0, 2) is None
    line = board.vcf(0, 3)
    assert line is not None and len(line) == 5
    assert_line_wins(state, 0, line)
    assert board.vcf(1, 6) is None  # O has nothing


def assert_line_wins(state: GomokuState, side: int, line: list[int]) -> None:
    """Play ``line`` through the rules: each of ``side``'s moves a four (or the five), each reply forced."""
    for index, cell in enumerate(line):
        mover = side if index % 2 == 0 else 1 - side
        if mover == side and index < len(line) - 1:
            assert five_cells(put(state, cell, side), side), "an attacking move that is not a four"
        if mover != side:
            assert cell in five_cells(state, side), "a reply that is not the forced block"
        state = put(state, cell, mover)
    assert GOMOKU.winner(state) is (Mark.X if side == 0 else Mark.O)


@pytest.mark.parametrize("seed", range(4))
def test_vcf_is_found_exactly_where_the_oracle_finds_one(seed: int) -> None:
    rng = random.Random(seed)
    found = missing = 0
    for _ in range(25):
        state = clustered(rng, rng.randrange(12, 50))
        side = side_to_move(state)
        for attacker in (side, 1 - side):
            expected = has_vcf(state, attacker, 3)
            board = new_board(state)
            line = board.vcf(attacker, 3)
            assert (line is not None) == expected
            if line is not None:
                assert_line_wins(state, attacker, line)
                found += 1
            else:
                missing += 1
    assert found >= 3 and missing >= 3
