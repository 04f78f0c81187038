"""Connect Four's puzzles (engine.connect_four.proof and the shipped set): every shipped puzzle holds under
the plain oracle, a sample under the exact solver's values of every column, the prover finds the oracle's winning
moves, a position and its mirror image are one puzzle, and the quality rules read Connect Four's threats."""

from __future__ import annotations

import random
from collections import Counter

from engine.connect_four.cells import CELLS_GAME
from engine.connect_four.proof import ConnectFourProver, replay, sides
from engine.connect_four.puzzles import connect_four_move
from engine.connect_four.rules import WIDTH
from engine.connect_four.solver import column_values, new_kernel
from engine.protocol import GameValue
from engine.puzzles import Puzzle, load
from engine.puzzles.mining import Miner, mine, self_play
from engine.puzzles.quality import is_defence

from .puzzle_oracle import PlainOracle

SET = "connect-four"
# X: f6 g6 f5 (cells 40 41 33), O: a6 b6 c6 (35 36 37); X to move, O threatens d6 (38).
THREATENED = (41, 35, 40, 36, 33, 37)


def mirror(cell: int) -> int:
    """The cell's image when the board is reflected left to right."""
    row, column = divmod(cell, WIDTH)
    return row * WIDTH + WIDTH - 1 - column


def test_the_set_holds_at_least_300_puzzles_of_each_length_from_1_to_5() -> None:
    puzzles = load(SET)
    by_n = Counter(p.win_in for p in puzzles)
    assert len(puzzles) >= 300 and sorted(by_n) == [1, 2, 3, 4, 5] and min(by_n.values()) >= 10
    assert by_n[1] <= len(puzzles) / 4


def test_every_shipped_puzzle_holds_under_the_plain_oracle() -> None:
    oracle = PlainOracle(CELLS_GAME)
    for puzzle in load(SET):
        oracle.memo.clear()
        oracle.check(puzzle.moves, puzzle.solution, puzzle.replies)


def test_a_sample_agrees_with_the_solvers_exact_values_of_every_column() -> None:
    """At each solver turn one column wins in the plies left and none faster; each reply loses slowest."""
    kernel = new_kernel()
    rng = random.Random(37)
    puzzles = load(SET)
    for n in range(1, 6):
        for puzzle in rng.sample([p for p in puzzles if p.win_in == n], 8):
            state = replay(puzzle.moves)
            for i, cell in enumerate(puzzle.solution):
                left = 2 * (n - i) - 1
                values = column_values(state, kernel)
                assert [c for c, v in values.items() if v == GameValue("win", left)] == [cell % WIDTH], puzzle.id
                assert not any(v.result == "win" and v.plies < left for v in values.values()), puzzle.id
                state = CELLS_GAME.result(state, cell)
                if i < len(puzzle.replies):
                    replies = column_values(state, kernel)
                    assert replies[puzzle.replies[i] % WIDTH] == GameValue("loss", left - 1), puzzle.id
                    state = CELLS_GAME.result(state, puzzle.replies[i])
            assert CELLS_GAME.terminal(state) and CELLS_GAME.utility(state) != 0


def test_the_prover_finds_exactly_the_oracles_winning_moves() -> None:
    prover, oracle = ConnectFourProver(), PlainOracle(CELLS_GAME)
    rng = random.Random(8)
    wins = 0
    for _ in range(40):
        state, moves = CELLS_GAME.initial_state(), []
        while not CELLS_GAME.terminal(state):
            moves.append(rng.choice(CELLS_GAME.actions(state)))
            state = CELLS_GAME.result(state, moves[-1])
        moves = moves[: max(0, len(moves) - rng.randint(1, 7))]
        state = replay(moves)
        cur, mask = sides(moves)
        for k in (1, 2, 3):
            expected = [c for c in CELLS_GAME.actions(state) if oracle.move_wins(state, c, k)]
            found = [c for c in CELLS_GAME.actions(state) if prover.cell_wins(moves, c, k)]
            assert found == expected and len(prover.winning_moves(cur, mask, k)) == len(expected), (moves, k)
            wins += bool(expected)
    assert wins >= 10


def test_a_position_and_its_mirror_image_are_one_puzzle() -> None:
    game = next(g for g in self_play(SET, 4) if len(g) > 24)
    miner = Miner(SET)
    assert miner.key(game[:20]) == miner.key([mirror(c) for c in game[:20]])
    assert miner.key(game[:20]) != miner.key(game[:19])
    found = list(mine(SET, [game, [mirror(c) for c in game]]))
    assert found and all(len(p.moves) <= len(game) and p.moves == tuple(game[: len(p.moves)]) for p in found)


def test_moves_are_the_cells_discs_fall_to() -> None:
    for puzzle in load(SET)[::40]:
        state = replay(puzzle.moves)
        for cell in puzzle.line:
            assert cell in CELLS_GAME.actions(state)  # a landing cell, not a column
            state = CELLS_GAME.result(state, cell)


def test_a_first_move_that_blocks_the_immediate_four_makes_a_defence_puzzle() -> None:
    assert is_defence(Puzzle("t", SET, THREATENED, (38, 26), (39,), 1000))
    assert not is_defence(Puzzle("t", SET, THREATENED, (39, 26), (38,), 1000))
    assert not is_defence(Puzzle("t", SET, THREATENED[:-1], (37, 26), (39,), 1000))  # nothing threatens there


def test_the_self_play_player_wins_at_once_and_blocks() -> None:
    rng = random.Random(1)
    three_up = (41, 35, 34, 36, 27, 37)  # X: g6 g5 g4, O: a6 b6 c6; X to move wins on g3 (20)
    assert all(connect_four_move(replay(three_up), rng, noise) == 20 for noise in (0.0, 0.3))
    assert connect_four_move(replay(THREATENED), rng, 0.0) == 38
