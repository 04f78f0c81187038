"""The engine calls run off the event loop: alpha-beta in threads, minimax and hints in the process pool."""

from __future__ import annotations

import random
import threading

import pytest

from bot.games.ai import AI, fast_executor, hint, review, search_executor
from bot.games.match import Match, initial_for
from bot.games.moves import bot_move
from engine import Algorithm, EngineMove, GameOverError, IllegalSequenceError, Mark
from engine.registry import VARIANTS
from engine.tictactoe.rules import State, initial_state, parse_board

THREE = VARIANTS["3x3"]


def decide(state: State, level: int, algorithm: Algorithm, seed: int) -> EngineMove:
    """3x3's move at ``level`` in ``state`` (:meth:`engine.Variant.play`), seeded."""
    return THREE.play(state, level, algorithm=algorithm, rng=random.Random(seed))


async def test_alpha_beta_runs_in_threads_minimax_and_hints_in_the_process_pool() -> None:
    fast, slow = fast_executor(1), search_executor(1)
    try:
        ai = AI(fast, rng=random.Random(0), slow_executor=slow)
        bot_x = Match("g0", 1, None, 10, moves=(0, 3, 1, 4), state=THREE.replay((0, 3, 1, 4)))
        decision = await ai.move(bot_x)
        assert decision.cell == 2 and decision.states > 0 and decision.mark is Mark.X
        assert any(t.name.startswith("alpha-beta") for t in threading.enumerate())
        bot_o = Match("g1", 1, 10, None, algorithm="minimax", moves=(4,), state=THREE.replay((4,)))
        minimax = await ai.move(bot_o)
        assert minimax.states == 55_504 and minimax.algorithm == "minimax"  # the textbook figure after X's centre
        assert slow._processes  # type: ignore[attr-defined]  # the pool started a worker for it
        game = Match("g1", 1, 10, None, moves=(4,), state=VARIANTS["3x3"].replay((4,)))
        hinted = await ai.hint(game)
        assert hinted.minimax_states == 55_504 and len(hinted.moves) == 8 and hinted.exact
        reviewed = await ai.review("3x3", (4, 1))  # an edge answer to the centre loses
        assert [row.ply for row in reviewed] == [1, 2] and reviewed[1].label == "blunder"
    finally:
        fast.shutdown()
        slow.shutdown()


def test_options_and_slowness() -> None:
    three = VARIANTS["3x3"]
    shown = bot_move(three, (4,), 8, "minimax", None, 1)
    assert shown.algorithm == "minimax" and not shown.reduced and shown.budget_ms is None
    assert bot_move(three, (4,), 8, "minimax", None, 1, three.replay((4,))).states == shown.states  # a held state
    game = Match("g2", 1, 10, None, algorithm="minimax", moves=(4,), state=three.replay((4,)))
    kept = game.with_ai(shown).last_ai
    assert kept is not None and kept.value is None and kept.depth is None  # the board shows neither on 3x3
    moves = {decide(initial_state(), 8, "alpha-beta", seed).cell for seed in range(20)}
    assert len(moves) > 1  # the seed picks among equally good moves
    assert {decide(initial_state(), 8, "alpha-beta", 5).cell for _ in range(5)} == {
        decide(initial_state(), 8, "alpha-beta", 5).cell
    }


def test_the_3x3_levels_below_8_search_a_few_plies_and_8_never_misses_a_win() -> None:
    win_or_block = parse_board("XX.OO....")  # X to move: 2 wins at once
    for level in range(1, 9):
        decision = decide(win_or_block, level, "minimax", 1)
        # below 8 the level's own search (alpha-beta), whatever the option
        assert decision.algorithm == ("minimax" if level == 8 else "alpha-beta") and decision.cell in range(9)
        assert not decision.book
    assert all(decide(win_or_block, 8, "alpha-beta", seed).cell == 2 for seed in range(5))
    fork = parse_board("X...O...X")  # O to move must take an edge; depth 1 cannot see why
    weak = {decide(fork, 1, "alpha-beta", seed).cell for seed in range(40)}
    assert weak - {1, 3, 5, 7}, "level 1 never misplayed the classic fork defence in 40 seeds"
    assert {decide(fork, 8, "alpha-beta", seed).cell for seed in range(20)} <= {1, 3, 5, 7}
    with pytest.raises(ValueError, match="level"):
        decide(initial_state(), 9, "alpha-beta", 1)
    with pytest.raises(GameOverError):
        decide(parse_board("XXXOO...."), 3, "alpha-beta", 1)


def test_every_variants_hint_and_review_run_through_one_worker_function() -> None:
    assert hint(VARIANTS["4x4"], (5, 0, 6)).exact and len(hint(VARIANTS["4x4"], (5, 0, 6)).moves) == 13
    with pytest.raises(ValueError, match="4 marks"):
        hint(VARIANTS["5x5"], (12, 0, 6))
    assert [row.ply for row in review(VARIANTS["4x4"], (5, 0, 6))] == [1, 2, 3]
    with pytest.raises(IllegalSequenceError):
        review(VARIANTS["ultimate"], (40, 40))
    assert initial_for("ultimate") == VARIANTS["ultimate"].replay(())
