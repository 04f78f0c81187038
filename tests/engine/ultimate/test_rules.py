"""Ultimate tic-tac-toe rules: the routing rule, closed boards, the grid's win and draw, errors, and OpenSpiel."""

from __future__ import annotations

import random
import re

import pytest

from engine.errors import CellOccupiedError, CellOutOfRangeError, GameOverError, IllegalMoveError
from engine.protocol import Mark
from engine.ultimate.rules import (
    BIT_OF_CELL,
    CELL_OF_BIT,
    BoardStatus,
    UltimateState,
    UltimateTicTacToe,
    WrongBoardError,
    cell_name,
    parse_cell,
    place,
)

GAME = UltimateTicTacToe()


def cell(board: int, inner: int) -> int:
    """The grid cell of cell ``inner`` of small board ``board`` (both 0-8, row by row)."""
    return 9 * (3 * (board // 3) + inner // 3) + 3 * (board % 3) + inner % 3


def test_cells_map_between_grid_and_boards() -> None:
    assert sorted(BIT_OF_CELL) == list(range(81))
    assert all(CELL_OF_BIT[BIT_OF_CELL[g]] == g for g in range(81))
    assert BIT_OF_CELL[cell(4, 4)] == 40 and cell(4, 4) == 40  # the centre of the centre board is e5
    assert cell(2, 0) == 6 and cell(3, 0) == 27 and cell(8, 8) == 80
    assert (cell_name(0), cell_name(8), cell_name(40), cell_name(80)) == ("a1", "i1", "e5", "i9")
    assert parse_cell("e5") == 40 and parse_cell(" A1 ") == 0 and parse_cell("81") == 80


def test_place_closes_a_won_or_full_small_board_and_routes_the_next_move() -> None:
    # Board 4 holds my 3 and 4 and their 0, 1, 2, 6, 8: my 5 completes a row; with their 5, my 7 fills the board.
    mine = (1 << 9 * 4 + 3) | (1 << 9 * 4 + 4)
    theirs = sum(1 << 9 * 4 + i for i in (0, 1, 2, 6, 8))
    assert place(mine, theirs, 0, 0, 9 * 4 + 5) == (mine | 1 << 9 * 4 + 5, 1 << 4, 1 << 4, 5)
    assert place(mine, theirs | 1 << 9 * 4 + 5, 0, 0, 9 * 4 + 7) == (mine | 1 << 9 * 4 + 7, 0, 1 << 4, 7)
    # A move to cell 4 of board 0 sends the other side to board 4: any open board once board 4 is closed.
    assert place(0, 0, 0, 0, 4) == (1 << 4, 0, 0, 4)
    assert place(0, 0, 0, 1 << 4, 4) == (1 << 4, 0, 1 << 4, -1)


@pytest.mark.parametrize("text", ["j1", "a0", "0", "82", "e", "", "²", "①", "e²", "1" * 5000])
def test_bad_coordinates_are_refused(text: str) -> None:
    with pytest.raises(CellOutOfRangeError, match=re.escape(repr(text)[:20])):
        parse_cell(text)


def test_the_first_move_is_free_and_each_move_sends_the_opponent() -> None:
    state = GAME.initial_state()
    assert GAME.player(state) is Mark.X and len(GAME.actions(state)) == 81 and state.forced_board is None
    state = GAME.result(state, cell(0, 4))
    assert state.forced_board == 4 and state.last_move == cell(0, 4) and state.to_move is Mark.O
    assert GAME.actions(state) == tuple(sorted(cell(4, i) for i in range(9)))
    with pytest.raises(WrongBoardError, match="the move must be in board 5"):  # boards as people number them
        GAME.result(state, cell(0, 0))
    with pytest.raises(CellOccupiedError):
        GAME.result(GAME.result(state, cell(4, 0)), cell(0, 4))
    for bad in (-1, 81, 3.0, True):
        with pytest.raises(CellOutOfRangeError):
            GAME.result(state, bad)  # type: ignore[arg-type]


def test_a_won_board_closes_and_sending_there_frees_the_opponent() -> None:
    # X wins board 4 with its cells 0, 1, 2; each O reply in cell 4 of its board sends X back to board 4.
    moves = [cell(4, 0), cell(0, 4), cell(4, 1), cell(1, 4), cell(4, 2)]
    state = GAME.play(moves)
    assert state.board_status(4) is BoardStatus.X and state.forced_board == 2
    state = GAME.result(state, cell(2, 4))  # sends X to board 4, which is closed: X may play any open board
    assert state.forced_board is None and state.to_move is Mark.X
    assert state.playable_boards == (0, 1, 2, 3, 5, 6, 7, 8)
    assert len(GAME.actions(state)) == 8 * 9 - 3 and cell(4, 5) not in GAME.actions(state)
    with pytest.raises(WrongBoardError, match="closed"):
        GAME.result(state, cell(4, 5))
    assert GAME.result(state, cell(7, 7)).forced_board == 7


def test_three_won_boards_in_a_line_win_and_the_game_then_refuses_moves() -> None:
    state = UltimateState()
    for board in (0, 1):
        state = _won_by_x(state, board)
    x = state.x | 1 << (9 * 2) | 1 << (9 * 2 + 1)
    o = state.o | 1 << (9 * 3) | 1 << (9 * 5)
    state = UltimateState(x, o, state.x_boards, state.o_boards, state.closed, 2, -1)
    assert state.to_move is Mark.X and GAME.utility(state) == 0
    final = GAME.result(state, CELL_OF_BIT[9 * 2 + 2])
    assert final.winner is Mark.X and GAME.terminal(final) and GAME.utility(final) == 1
    assert final.to_move is None and final.forced_board is None and GAME.actions(final) == ()
    assert final.board_statuses[:3] == (BoardStatus.X, BoardStatus.X, BoardStatus.X)
    with pytest.raises(GameOverError):
        GAME.result(final, cell(8, 8))
    assert issubclass(WrongBoardError, IllegalMoveError)


def _won_by_x(state: UltimateState, board: int) -> UltimateState:
    """``state`` with board ``board`` won by X (cells 0-2) and three O marks in board 8 and 7 to keep turns even."""
    x = state.x | 0b111 << (9 * board)
    o_cells = [9 * 8 + i for i in (0, 4, 8)] if board == 0 else [9 * 7 + i for i in (0, 4, 8)]
    o = state.o | sum(1 << b for b in o_cells)
    return UltimateState(x, o, state.x_boards | 1 << board, state.o_boards, state.closed | 1 << board, -1, -1)


def test_a_grid_of_closed_boards_without_a_line_is_a_draw() -> None:
    game_over_draws = 0
    for seed in range(40):
        state = _random_playout(seed)
        assert state.is_over
        if state.is_draw:
            game_over_draws += 1
            assert state.closed == 511 and state.winner is None and GAME.utility(state) == 0
            assert BoardStatus.OPEN not in state.board_statuses
    assert game_over_draws > 0


def _random_playout(seed: int) -> UltimateState:
    rng = random.Random(seed)
    state = GAME.initial_state()
    while not state.is_over:
        state = GAME.result(state, rng.choice(GAME.actions(state)))
    return state


def test_text_shows_the_grid_row_by_row() -> None:
    rows = str(GAME.play([cell(0, 0), cell(0, 8)])).splitlines()
    assert rows[0] == "X.. ... ..." and rows[2] == "..O ... ..." and len(rows) == 9


def test_rules_agree_with_openspiel_on_random_playouts() -> None:
    from benchmarks import ultimate_oracle  # imports OpenSpiel

    plies = ultimate_oracle.compare_playouts(300, seed=2026)
    assert plies > 300 * 30
