"""The m,n,k rules (engine.mnk.rules.TicTacToe) against OpenSpiel's ``mnk`` game, and their surface for people."""

from __future__ import annotations

import random

import pyspiel
import pytest

from engine.errors import CellOccupiedError, CellOutOfRangeError, GameOverError
from engine.minimax.reference import alpha_beta_search, minimax_search
from engine.mnk.rules import TIC_TAC_TOE_4X4, TIC_TAC_TOE_5X5, MnkState, TicTacToe
from engine.protocol import Mark
from engine.tictactoe import rules as game_3x3

GAMES = {"4x4": (TIC_TAC_TOE_4X4, "mnk(m=4,n=4,k=4)"), "5x5": (TIC_TAC_TOE_5X5, "mnk(m=5,n=5,k=4)")}


def agree_on_playouts(game: TicTacToe, spiel_name: str, playouts: int, seed: int) -> int:
    """Play random games in both implementations, comparing every ply; returns the plies compared."""
    spiel_game = pyspiel.load_game(spiel_name)
    rng = random.Random(seed)
    plies = 0
    for _ in range(playouts):
        state, spiel = game.initial_state(), spiel_game.new_initial_state()
        while True:
            plies += 1
            assert game.terminal(state) == spiel.is_terminal(), game.format_board(state)
            if spiel.is_terminal():
                assert game.utility(state) == spiel.returns()[0]
                assert game.actions(state) == ()
                break
            assert list(game.actions(state)) == spiel.legal_actions()
            assert (game.player(state) is Mark.X) == (spiel.current_player() == 0)
            move = rng.choice(game.actions(state))
            state = game.result(state, move)
            spiel.apply_action(move)
    return plies


@pytest.mark.parametrize("name", sorted(GAMES))
def test_rules_agree_with_openspiel_on_random_playouts(name: str) -> None:
    game, spiel_name = GAMES[name]
    assert agree_on_playouts(game, spiel_name, 300, seed=17) > 300 * 7


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(GAMES))
def test_rules_agree_with_openspiel_on_ten_thousand_playouts(name: str) -> None:
    game, spiel_name = GAMES[name]
    agree_on_playouts(game, spiel_name, 10_000, seed=2019)


def test_lines_count_every_window_of_k() -> None:
    assert len(TIC_TAC_TOE_4X4.lines) == 10  # 4 rows, 4 columns, 2 diagonals
    assert len(TIC_TAC_TOE_5X5.lines) == 28  # 10 + 10 in rows and columns, 4 + 4 on the diagonals
    assert len(TicTacToe(3, 3, 3).lines) == 8
    assert all(line.bit_count() == 4 for line in TIC_TAC_TOE_5X5.lines)
    assert len(TIC_TAC_TOE_5X5.lines_through[12]) == 8 and len(TIC_TAC_TOE_5X5.lines_through[0]) == 3


def test_3x3_as_a_class_instance_reproduces_the_lab_figures() -> None:
    game = TicTacToe(3, 3, 3)
    assert minimax_search(game, game.play([4])).states == 55_504
    for cells, states in (((3,), 7_641), ((3, 0, 6), 552), ((3, 0, 6, 1, 8), 27)):
        as_module = game_3x3.parse_board(game.format_board(game.play(list(cells))))
        assert alpha_beta_search(game, game.play(list(cells))).states == states
        assert alpha_beta_search(game_3x3, as_module).states == states


def test_a_diagonal_of_four_wins_and_the_game_ends() -> None:
    game = TIC_TAC_TOE_5X5
    state = game.play([1, 0, 7, 5, 13, 10, 19])  # X on b1 c2 d3 e4
    assert game.winner(state) is Mark.X and game.terminal(state) and game.utility(state) == 1
    assert game.winning_cells(state) == frozenset({1, 7, 13, 19})
    assert game.actions(state) == ()
    with pytest.raises(GameOverError):
        game.result(state, 24)


def test_bad_moves_raise_the_engine_errors() -> None:
    game = TIC_TAC_TOE_4X4
    state = game.play([5])
    with pytest.raises(CellOccupiedError, match=r"cell 6 \(b2\) is already taken by X"):
        game.result(state, 5)
    for bad in (16, -1, True, "3"):
        with pytest.raises(CellOutOfRangeError, match="choose 1-16"):
            game.result(state, bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="sizes must be"):
        TicTacToe(4, 4, 5)


def test_coordinates_put_a1_at_the_top_left() -> None:
    game = TIC_TAC_TOE_5X5
    assert [game.coordinate(c) for c in (0, 4, 5, 24)] == ["a1", "e1", "a2", "e5"]
    assert TIC_TAC_TOE_4X4.coordinate(15) == "d4"
    assert all(game.parse_cell(game.coordinate(c)) == c for c in range(25))
    assert game.parse_cell(" 25 ") == 24 and game.parse_cell("C3") == 12
    for bad in ("f1", "a6", "0", "26", "", "xx", "²", "①", "b²", "1" * 5000):
        with pytest.raises(CellOutOfRangeError, match="a1-e5"):
            game.parse_cell(bad)


def test_symmetries_map_lines_onto_lines() -> None:
    for game in (TIC_TAC_TOE_4X4, TIC_TAC_TOE_5X5, TicTacToe(4, 3, 3)):
        lines = set(game.lines)
        assert game.symmetries[0] == tuple(range(game.cells))
        assert len(game.symmetries) == (8 if game.h == game.v else 4)
        for perm in game.symmetries:
            assert {sum(1 << perm[c] for c in range(game.cells) if line >> c & 1) for line in lines} == lines


def test_format_board_and_marks() -> None:
    state = TIC_TAC_TOE_4X4.play([0, 15, 5])
    assert TIC_TAC_TOE_4X4.format_board(state) == "X.../.X../..../...O"
    assert state.marks == 3 and state == MnkState(0b100001, 1 << 15)
    assert TIC_TAC_TOE_4X4.player(state) is Mark.O
