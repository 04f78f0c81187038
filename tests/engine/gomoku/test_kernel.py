"""The C kernel against its pure-Python twin: the same evaluations, moves, threat-search lines and counts."""

from __future__ import annotations

import random

import pytest

from engine.gomoku.play import LEVELS, NATIVE, choose, new_board
from engine.gomoku.rules import GomokuState
from tests.engine.gomoku.positions import clustered

pytestmark = pytest.mark.skipif(NATIVE is None, reason="the C kernel is not built")


def boards(state: GomokuState) -> tuple[object, object]:
    return new_board(state), new_board(state, native=False)


def test_the_native_board_is_the_c_one() -> None:
    c_board, py_board = boards(GomokuState())
    assert type(c_board).__module__ == "engine.gomoku._gomoku_c" and type(py_board).__name__ == "PyBoard"


@pytest.mark.parametrize("seed", range(3))
def test_both_kernels_agree_on_every_query(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(15):
        state = clustered(rng, rng.randrange(1, 70))
        c_board, py_board = boards(state)
        for b in (c_board, py_board):
            b.place(next(c for c in range(225) if b.cells[c] < 0), 0)  # type: ignore[attr-defined]
        assert c_board.key == py_board.key and c_board.stones == py_board.stones  # type: ignore[attr-defined]
        assert c_board.totals == py_board.totals and c_board.cells == py_board.cells  # type: ignore[attr-defined]
        for side in (0, 1):
            for query in ("evaluate", "five_cells", "four_moves", "candidates"):
                assert getattr(c_board, query)(side) == getattr(py_board, query)(side), query
            assert [c_board.move_score(c, side) for c in range(225)] == [  # type: ignore[attr-defined]
                py_board.move_score(c, side)  # type: ignore[attr-defined]
                for c in range(225)
            ]
            assert c_board.vcf(side, 6) == py_board.vcf(side, 6)  # type: ignore[attr-defined]
            assert c_board.count == py_board.count > 0  # type: ignore[attr-defined]


@pytest.mark.parametrize("level", [3, 4, 5])
def test_both_kernels_choose_the_same_move_with_the_same_states(level: int) -> None:
    rng = random.Random(level)
    for _ in range(4):
        state = clustered(rng, rng.randrange(6, 40))
        c_choice = choose(state, LEVELS[level], random.Random(1), new_board(state))
        py_choice = choose(state, LEVELS[level], random.Random(1), new_board(state, native=False))
        assert (c_choice.cell, c_choice.states, c_choice.forced) == (py_choice.cell, py_choice.states, py_choice.forced)


def test_bad_arguments_raise_instead_of_corrupting() -> None:
    board = new_board(GomokuState())
    board.place(112, 0)
    with pytest.raises(ValueError):
        board.place(112, 1)
    with pytest.raises(ValueError):
        board.remove(0)
    with pytest.raises(ValueError):
        board.five_cells(2)
