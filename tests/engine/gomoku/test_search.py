"""The alpha-beta: forced wins and losses it proves, the table, the clock."""

from __future__ import annotations

import time

from engine.gomoku.play import new_board
from engine.gomoku.rules import GOMOKU
from engine.gomoku.search import WIN, Search


def test_an_open_three_made_into_an_open_four_wins_in_three_plies() -> None:
    # X to move with g8 h8 i8 open on both sides: f8 or j8 makes an open four, a five two moves later.
    state = GOMOKU.play("g8 a1 h8 a3 i8 a5")
    board = new_board(state)
    moves = board.candidates(0)[:10]
    scores = Search(board, 10).best(0, 3, moves)
    winners = {GOMOKU.cell_name(c) for c, s in scores.items() if s == WIN - 3}
    assert winners >= {"f8", "j8"} and all(s < WIN - 3 or GOMOKU.cell_name(c) in winners for c, s in scores.items())


def test_a_double_open_four_threat_is_a_loss_for_the_defender() -> None:
    # O to move after X's open four on row 8 (f8-i8): whatever O plays, X makes five next.
    state = GOMOKU.play("f8 a1 g8 a3 h8 a5 i8")
    board = new_board(state)
    search = Search(board, 10)
    assert search.negamax(1, 2, -WIN - 1, WIN + 1, 0) == -(WIN - 2)  # X's five is the second ply


def test_the_table_gives_the_same_scores_as_a_search_without_it() -> None:
    state = GOMOKU.play("h8 h9 i9 g7 j10 k11")
    moves = new_board(state).candidates(0)[:6]
    with_table = Search(new_board(state), 6)
    scores = with_table.best(0, 3, moves)
    fresh = {}
    for cell in moves:
        search = Search(new_board(state), 6)
        search.board.place(cell, 0)
        fresh[cell] = -search.negamax(1, 2, -WIN - 1, WIN + 1, 1)
    assert scores == fresh and with_table.table


def test_the_clock_stops_deepening_but_the_first_iteration_completes() -> None:
    state = GOMOKU.play("h8 h9 i9 g7")
    board = new_board(state)
    moves = board.candidates(0)[:10]
    search = Search(board, 10, deadline=time.perf_counter())
    scores = search.best(0, 8, moves)
    assert search.depth == 1 and set(scores) == set(moves)
