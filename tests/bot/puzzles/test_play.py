"""Choosing and judging puzzles (bot.puzzles.play)."""

from __future__ import annotations

import datetime
import random
from typing import Any

import pytest

from bot.puzzles.play import NEAREST, choose, daily, judge
from bot.records.puzzle_values import PuzzleRating
from engine.puzzles import load
from engine.puzzles.slower import slower_win
from engine.registry import variant


def test_a_puzzle_is_chosen_near_the_rating_and_not_twice() -> None:
    rng = random.Random(1)
    for rating in (800.0, 1500.0, 2000.0):
        puzzles = load("4x4")
        nearest = sorted(abs(p.rating - rating) for p in puzzles)[NEAREST - 1]
        chosen = choose("4x4", rating, set(), {}, rng)
        assert abs(chosen.rating - rating) <= nearest
    first = choose("5x5", 1500.0, set(), {}, random.Random(2))
    moved = {first.id: PuzzleRating(3000.0, 60.0)}  # its rating moved far away: no longer near 1500
    assert all(choose("5x5", 1500.0, set(), moved, random.Random(s)).id != first.id for s in range(30))
    assert all(choose("5x5", 1500.0, {first.id}, {}, random.Random(s)).id != first.id for s in range(30))


def test_the_daily_puzzle_is_the_same_all_day_per_server() -> None:
    day = datetime.date(2026, 11, 26)
    assert daily("4x4", day, 5) == daily("4x4", day, 5)
    assert daily("4x4", day, 5).win_in >= 2
    days = {daily("4x4", day + datetime.timedelta(days=d), 5).id for d in range(10)}
    servers = {daily("4x4", day, g).id for g in range(10)}
    assert len(days) > 5 and len(servers) > 5


def test_moves_are_judged_against_the_line() -> None:
    puzzle = next(p for p in load("4x4") if p.win_in == 2)
    assert judge(puzzle, 0, puzzle.solution[0]).outcome == "right"
    assert judge(puzzle, 0, puzzle.solution[0]).reply == puzzle.replies[0]
    assert judge(puzzle, 2, puzzle.solution[1]).outcome == "solved"
    rules = variant("4x4")
    others = [c for c in rules.game.actions(rules.replay(puzzle.moves)) if c != puzzle.solution[0]]
    wrong = next(c for c in others if slower_win(puzzle, 0, c) is None)
    seen: list[Any] = []
    verdict = judge(puzzle, 0, wrong, lambda state: seen.append(state) or 7)
    assert verdict.outcome == "wrong" and verdict.reply == 7 and seen


def test_a_slower_win_is_told_apart_from_a_wrong_move() -> None:
    rules = variant("5x5")
    for puzzle in (p for p in load("5x5") if p.win_in == 1):
        legal = rules.game.actions(rules.replay(puzzle.moves))
        slower = [c for c in legal if c != puzzle.solution[0] and slower_win(puzzle, 0, c)]
        if slower:
            break
    verdict = judge(puzzle, 0, slower[0], lambda state: 0)
    assert verdict.outcome == "slower" and verdict.wins_in is not None and verdict.wins_in >= 2
    assert verdict.reply is None
    with pytest.raises(ValueError):
        judge(puzzle, 0, puzzle.moves[0])  # an occupied cell
