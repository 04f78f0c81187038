"""The engine calls run off the event loop: alpha-beta in threads, minimax and hints in the process pool."""

from __future__ import annotations

import random
import threading

import pytest

from bot.games.ai import AI, config_for, decide, fast_executor, is_slow, search_executor
from bot.games.moves import BotMove
from engine import GameOverError, initial_state, parse_board


async def test_alpha_beta_runs_in_threads_minimax_and_hints_in_the_process_pool() -> None:
    fast, slow = fast_executor(1), search_executor(1)
    try:
        ai = AI(fast, rng=random.Random(0), slow_executor=slow)
        decision = await ai.choose(parse_board("XX.OO...."), 8, "alpha-beta")
        assert not isinstance(decision, BotMove) and decision.move == 2 and decision.search.states > 0
        assert any(t.name.startswith("alpha-beta") for t in threading.enumerate())
        minimax = await ai.choose(parse_board("....X...."), 8, "minimax")
        assert (
            not isinstance(minimax, BotMove) and minimax.search.states == 55_504
        )  # the textbook figure after X takes the centre
        assert slow._processes  # type: ignore[attr-defined]  # the pool started a worker for it
        hint = await ai.analyse(parse_board("....X...."))
        assert hint.minimax_states == 55_504 and len(hint.moves) == 8
    finally:
        fast.shutdown()
        slow.shutdown()


def test_options_and_slowness() -> None:
    assert config_for("minimax").algorithm == "minimax" and not config_for("minimax").transposition
    assert config_for("alpha-beta").algorithm == "alpha-beta"
    assert is_slow(initial_state(), "minimax") and not is_slow(initial_state(), "alpha-beta")
    assert not is_slow(parse_board("XO.X....."), "minimax")
    moves = {cell(decide(initial_state(), 8, "alpha-beta", seed)) for seed in range(20)}
    assert len(moves) > 1  # the seed picks among equally good moves
    assert {cell(decide(initial_state(), 8, "alpha-beta", 5)) for _ in range(5)} == {
        cell(decide(initial_state(), 8, "alpha-beta", 5))
    }


def cell(decision: object) -> int:
    return decision.cell if isinstance(decision, BotMove) else decision.move  # type: ignore[attr-defined]


def test_the_3x3_levels_below_8_search_a_few_plies_and_8_never_misses_a_win() -> None:
    win_or_block = parse_board("XX.OO....")  # X to move: 2 wins at once
    for level in range(1, 9):
        decision = decide(win_or_block, level, "minimax", 1)
        assert isinstance(decision, BotMove) == (level < 8)  # below 8 the level's own search, whatever the option
        assert cell(decision) in range(9)
    assert all(cell(decide(win_or_block, 8, "alpha-beta", seed)) == 2 for seed in range(5))
    fork = parse_board("X...O...X")  # O to move must take an edge; depth 1 cannot see why
    weak = {cell(decide(fork, 1, "alpha-beta", seed)) for seed in range(40)}
    assert weak - {1, 3, 5, 7}, "level 1 never misplayed the classic fork defence in 40 seeds"
    assert {cell(decide(fork, 8, "alpha-beta", seed)) for seed in range(20)} <= {1, 3, 5, 7}
    with pytest.raises(ValueError, match="level"):
        decide(initial_state(), 9, "alpha-beta", 1)
    with pytest.raises(GameOverError):
        decide(parse_board("XXXOO...."), 3, "alpha-beta", 1)
