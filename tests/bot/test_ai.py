"""The engine calls run off the event loop, in the process pool the bot uses."""

from __future__ import annotations

import random

from bot.ai import AI, config_for, decide, is_slow, search_executor
from engine import Difficulty, initial_state, parse_board


async def test_searches_and_hints_run_in_the_process_pool() -> None:
    executor = search_executor(1)
    try:
        ai = AI(executor, rng=random.Random(0))
        decision = await ai.choose(parse_board("XX.OO...."), Difficulty.UNBEATABLE, "alpha-beta")
        assert decision.move == 2 and decision.search.states > 0
        minimax = await ai.choose(parse_board("....X...."), Difficulty.UNBEATABLE, "minimax")
        assert minimax.search.states == 55_504  # the textbook figure after X takes the centre
        hint = await ai.analyse(parse_board("....X...."))
        assert hint.minimax_states == 55_504 and len(hint.moves) == 8
    finally:
        executor.shutdown()


def test_options_and_slowness() -> None:
    assert config_for("minimax").algorithm == "minimax" and not config_for("minimax").transposition
    assert config_for("alpha-beta").algorithm == "alphabeta"
    assert is_slow(initial_state(), "minimax") and not is_slow(initial_state(), "alpha-beta")
    assert not is_slow(parse_board("XO.X....."), "minimax")
    moves = {decide(initial_state(), Difficulty.UNBEATABLE, "alpha-beta", seed).move for seed in range(20)}
    assert len(moves) > 1  # the seed picks among equally good moves
    assert {decide(initial_state(), Difficulty.UNBEATABLE, "alpha-beta", 5).move for _ in range(5)} == {
        decide(initial_state(), Difficulty.UNBEATABLE, "alpha-beta", 5).move
    }
