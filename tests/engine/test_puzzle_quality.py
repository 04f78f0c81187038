"""Puzzles worth solving (engine.puzzles.quality, attempts, slower): the shipped sets give a choice at every solver
turn, hold few defence puzzles, no line through another's start and spread ratings; the levels' tries; a slower
win is told from a move that does not win."""

from __future__ import annotations

import random

import pytest

from engine.puzzles import PUZZLE_SETS, PUZZLE_VARIANTS, Puzzle, load, puzzle_variant
from engine.puzzles.attempts import attempt, attempts
from engine.puzzles.quality import DEFENCE_SHARE, forced_turns, is_defence, line_keys, position_key, statistics
from engine.puzzles.slower import slower_win

from .puzzle_oracle import PlainOracle

# 4x4, X to move: O holds a1 b1 c1 (cells 0-2) and threatens d1 (cell 3); X holds a2 b3 c4 (4, 9, 14).
THREATENED = (4, 0, 9, 1, 14, 2)


@pytest.mark.parametrize("name", PUZZLE_SETS)
def test_the_shipped_set_is_worth_solving(name: str) -> None:
    puzzles = load(name)
    figures = statistics(puzzles)
    assert figures["count"] == 600
    assert figures["forced_turns"] == 0
    assert figures["defence_share"] <= DEFENCE_SHARE and figures["defence_quiet"] == 0
    assert figures["lines_through_starts"] == 0
    assert all(("defence" in p.themes) == is_defence(p) for p in puzzles)


@pytest.mark.parametrize("name", PUZZLE_VARIANTS)
def test_the_offered_sets_ratings_spread(name: str) -> None:
    """The ratings of an offered set are fitted from the levels' tries (bot.puzzles.fit), which spreads them."""
    figures = statistics(load(name))
    for n, count in figures["by_win_in"].items():
        if count >= 20:
            assert figures["rating_sd"][n] >= 60, f"{name}: fit it (python -m bot.puzzles.fit): {figures['rating_sd']}"


def test_a_first_move_that_blocks_an_immediate_win_makes_a_defence_puzzle() -> None:
    block = Puzzle("t", "4x4", THREATENED, (3, 8), (12,), 1000)
    assert is_defence(block)
    assert not is_defence(Puzzle("t", "4x4", THREATENED, (7, 8), (12,), 1000))
    assert not is_defence(Puzzle("t", "4x4", THREATENED[:-1], (3,), (), 1000))  # nothing threatens there
    # a win in one on the opponent's threat cell is a win, not a defence
    assert not is_defence(Puzzle("t", "4x4", (0, 4, 1, 9, 2, 14), (3,), (), 1000))


def test_a_solver_turn_with_one_legal_move_is_counted() -> None:
    full = tuple(c - 1 for c in (16, 10, 8, 1, 14, 6, 15, 13, 12, 4, 7, 5, 9, 2, 11))  # 15 marks: cell 3 is left
    assert forced_turns(Puzzle("t", "4x4", full, (2,), (), 700)) == 1
    assert forced_turns(Puzzle("t", "4x4", THREATENED, (3, 8), (12,), 1000)) == 0


def test_line_keys_are_the_positions_inside_the_line() -> None:
    puzzle = Puzzle("t", "4x4", THREATENED, (3, 8), (12,), 1000)
    keys = line_keys(puzzle)
    assert position_key("4x4", (*THREATENED, 3)) in keys and position_key("4x4", (*THREATENED, 3, 12)) in keys
    assert position_key("4x4", THREATENED) not in keys and len(keys) == 2


@pytest.mark.parametrize("name", PUZZLE_SETS)
def test_level_8_solves_what_level_1_often_does_not(name: str) -> None:
    sample = random.Random(5).sample([p for p in load(name) if p.win_in in (2, 3)], 12)
    assert all(attempt(p, 8, random.Random(0)) for p in sample)
    assert sum(attempt(p, 1, random.Random(0)) for p in sample) < len(sample)
    tries = attempts(sample[0])
    assert [level for level, _ in tries] == sorted(level for level, _ in tries) and len(tries) >= 8


@pytest.mark.parametrize("name", PUZZLE_SETS)
def test_a_slower_win_is_found_and_agrees_with_the_plain_oracle(name: str) -> None:
    rules = puzzle_variant(name)
    oracle = PlainOracle(rules.game)
    found = 0
    for puzzle in [p for p in load(name) if p.win_in <= 2][::25]:
        state = rules.replay(puzzle.moves)
        for cell in rules.game.actions(state)[:12]:
            if cell == puzzle.solution[0]:
                continue
            k = slower_win(puzzle, 0, cell, limit=3)
            oracle.memo.clear()
            if k is None:
                assert not oracle.move_wins(state, cell, 3) or name == "ultimate", (puzzle.id, cell)
                continue
            found += 1
            assert k > puzzle.win_in and oracle.move_wins(state, cell, k) and not oracle.move_wins(state, cell, k - 1)
    assert found
    with pytest.raises(ValueError):
        slower_win(load(name)[0], 0, load(name)[0].moves[0])
