"""The engine calls run off the event loop: alpha-beta in threads, minimax and hints in the process pool."""

from __future__ import annotations

import random
import threading

from bot.games.ai import AI, config_for, decide, fast_executor, is_slow, search_executor
from engine import Difficulty, initial_state, parse_board


async def test_alpha_beta_runs_in_threads_minimax_and_hints_in_the_process_pool() -> None:
    fast, slow = fast_executor(1), search_executor(1)
    try:
        ai = AI(fast, rng=random.Random(0), slow_executor=slow)
        decision = await ai.choose(parse_board("XX.OO...."), Difficulty.UNBEATABLE, "alpha-beta")
        assert decision.move == 2 and decision.search.states > 0
        assert any(t.name.startswith("alpha-beta") for t in threading.enumerate())
        minimax = await ai.choose(parse_board("....X...."), Difficulty.UNBEATABLE, "minimax")
        assert minimax.search.states == 55_504  # the textbook figure after X takes the centre
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
    moves = {decide(initial_state(), Difficulty.UNBEATABLE, "alpha-beta", seed).move for seed in range(20)}
    assert len(moves) > 1  # the seed picks among equally good moves
    assert {decide(initial_state(), Difficulty.UNBEATABLE, "alpha-beta", 5).move for _ in range(5)} == {
        decide(initial_state(), Difficulty.UNBEATABLE, "alpha-beta", 5).move
    }
