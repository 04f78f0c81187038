"""How an attempt moves the puzzle ratings (bot.records.puzzle_values)."""

from __future__ import annotations

from bot.records.puzzle_values import PuzzleRating, rate, starting
from engine.puzzles import load


def test_a_solve_raises_the_player_and_lowers_the_puzzle() -> None:
    puzzle = starting(load("5x5")[0])
    player, after = rate(PuzzleRating(), puzzle, True)
    assert player.rating > 1500 and after.rating < puzzle.rating
    assert (player.attempts, player.solved, after.attempts, after.solved) == (1, 1, 1, 1)
    failed, harder = rate(PuzzleRating(), puzzle, False)
    assert failed.rating < 1500 and harder.rating > puzzle.rating and failed.solved == 0
