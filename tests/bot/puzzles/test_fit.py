"""The shipped puzzles' ratings fitted from the levels' tries (bot.puzzles.fit)."""

from __future__ import annotations

import random

import pytest

from bot.puzzles.fit import _fit_one, fitted
from engine.puzzles import PUZZLE_VARIANTS, load
from engine.puzzles.attempts import attempts


@pytest.mark.parametrize("name", PUZZLE_VARIANTS)
def test_the_shipped_ratings_are_the_fit_of_the_levels_tries(name: str) -> None:
    for puzzle in random.Random(3).sample(load(name), 4):
        # fitted from its graded estimate: a second fit changes nothing
        assert _fit_one(puzzle) == puzzle, f"not the fit: run python -m bot.puzzles.fit --variant {name}"


def test_a_puzzle_the_levels_fail_is_rated_above_one_they_solve() -> None:
    puzzles = [p for p in load("5x5") if p.win_in >= 2]
    scored = [(sum(solved for _, solved in attempts(p)), p) for p in puzzles[::10]]
    easy = max(scored, key=lambda pair: pair[0])[1]
    hard = min(scored, key=lambda pair: pair[0])[1]
    assert fitted(hard, 1200) > 1200 > fitted(easy, 1200)
