"""The Ultimate tic-tac-toe search: both kernels agree, proofs are exact, budgets and errors are kept."""

from __future__ import annotations

import math
import os
import random
import subprocess
import sys

import pytest

from engine.errors import GameOverError
from engine.ultimate import mcts as ultimate_mcts
from engine.ultimate import tree as ultimate_tree
from engine.ultimate.rules import UltimateState, UltimateTicTacToe
from engine.ultimate.search import WIN
from engine.ultimate.search import search as alpha_beta
from engine.ultimate.tree import raw_position, search

GAME = UltimateTicTacToe()
try:
    from engine.ultimate import _ultimate_c  # type: ignore[attr-defined, unused-ignore]
except ImportError:  # no compiler where the suite runs: the fallback alone is tested
    _ultimate_c = None
native = pytest.mark.skipif(_ultimate_c is None, reason="the C kernel is not built")

# Random games (seeds 0, 79 and 100 of random.Random) stopped where the player to move has a proven win.
WON_IN_5 = (49, 75, 64, 50, 70, 32, 15, 29, 8, 6, 10, 41, 35, 7, 4, 21, 55, 13, 59, 17, 53, 71, 52, 68, 33, 19, 77,
            60, 9, 45, 73, 57, 18, 27, 1, 22, 58)  # fmt: skip
WON_IN_7 = (56, 8, 16, 49, 58, 3, 1, 23, 70, 48, 72, 74, 79, 68, 52, 76, 77, 78, 64, 30, 0, 2, 6, 10, 39, 36, 45, 26,
            60, 20, 80, 9, 29, 17, 33, 19, 59, 38, 44, 34, 21, 43, 40)  # fmt: skip
ALSO_WON_IN_7 = (58, 5, 24, 65, 53, 61, 4, 22, 68, 42, 36, 37, 32, 17, 51, 63, 38, 35, 26, 79, 77, 78, 55, 21, 56, 16,
                 40, 50, 80, 70, 49, 67, 48, 54, 9, 46, 76, 66, 47, 75, 73, 59, 15, 27, 1, 13, 33)  # fmt: skip


def random_positions(count: int, seed: int) -> list[UltimateState]:
    rng = random.Random(seed)
    found: list[UltimateState] = []
    while len(found) < count:
        state = GAME.initial_state()
        for _ in range(rng.randrange(0, 55)):
            if state.is_over:
                break
            state = GAME.result(state, rng.choice(GAME.actions(state)))
        if not state.is_over:
            found.append(state)
    return found


@native
@pytest.mark.parametrize("state", random_positions(6, seed=29))
def test_both_kernels_grow_the_same_tree_from_the_same_seed(state: UltimateState) -> None:
    pos = raw_position(state)
    args = (2_000, math.inf, 2029, ultimate_tree.EXPLORATION, ultimate_tree.MAX_NODES)
    in_c = _ultimate_c.mcts(*pos, *args)
    in_python = ultimate_mcts.mcts(*pos, *args)
    assert in_c[:6] == in_python[:6] and tuple(in_c[6]) == in_python[6] and list(in_c[7]) == in_python[7]
    assert in_c[0] == 2_000 or in_c[4] != ultimate_mcts.UNKNOWN  # all iterations, unless the root was proven
    assert sum(child[1] for child in in_c[6]) <= in_c[0]


@native
def test_both_kernels_grow_the_same_tree_when_it_runs_out_of_nodes() -> None:
    pos = raw_position(GAME.play([40, 30]))
    args = (3_000, math.inf, 5, 0.7, 500)
    in_c, in_python = _ultimate_c.mcts(*pos, *args), ultimate_mcts.mcts(*pos, *args)
    assert in_c[2] <= 500 and in_c[:6] == in_python[:6] and tuple(in_c[6]) == in_python[6]


@native
@pytest.mark.parametrize("moves", [WON_IN_5, WON_IN_7])
def test_both_proof_searches_agree_at_every_depth(moves: tuple[int, ...]) -> None:
    pos = raw_position(GAME.play(moves))
    for depth in range(1, 8):
        assert _ultimate_c.prove(*pos, depth, 10**7, math.inf) == ultimate_mcts.prove(*pos, depth, 10**7, math.inf)
    assert _ultimate_c.prove(*pos, 7, 10, math.inf) == ultimate_mcts.prove(*pos, 7, 10, math.inf) == (-1, -1, 11)


@pytest.mark.skipif(not ultimate_tree.NATIVE, reason="the C kernel is not built or turned off")
def test_the_search_reports_the_same_with_either_kernel() -> None:
    state = GAME.play([40, 30])
    one = search(state, math.inf, iterations=3_000, seed=7, native=True, exact=3)
    other = search(state, math.inf, iterations=3_000, seed=7, native=False, exact=3)
    assert one.native and not other.native
    fields = ("moves", "iterations", "states", "nodes", "depth", "pv")
    assert [getattr(one, f) for f in fields] == [getattr(other, f) for f in fields]


def test_the_pure_python_kernel_is_chosen_by_the_environment() -> None:
    code = "from engine.ultimate import tree as ultimate_tree; print(ultimate_tree.NATIVE)"
    env = {**os.environ, "TTT_ENGINE_PURE_PYTHON": "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


@pytest.mark.parametrize(("moves", "plies"), [(WON_IN_5, 5), (WON_IN_7, 7), (ALSO_WON_IN_7, 7)])
def test_a_proven_win_has_the_distance_alpha_beta_finds(moves: tuple[int, ...], plies: int) -> None:
    state = GAME.play(moves)
    report = search(state, math.inf, iterations=20_000, seed=1, native=False)
    assert (report.best.proof, report.best.plies) == ("win", plies)
    oracle = alpha_beta(state, math.inf, max_depth=plies, multipv=None)  # depth-aware scores: WIN - plies
    assert oracle.moves[0].score == WIN - plies
    assert next(m.score for m in oracle.moves if m.move == report.best.move) == WIN - plies
    after = GAME.result(state, report.best.move)
    lost = search(after, math.inf, iterations=20_000, seed=1, native=False)
    assert (lost.best.proof, lost.best.plies) == ("loss", plies - 1)
    assert all(m.proof == "loss" for m in lost.moves)


def test_a_fixed_iteration_search_is_deterministic_and_reports_its_work() -> None:
    state = GAME.play([40])
    one = search(state, math.inf, iterations=500, seed=3)
    assert one.moves == search(state, math.inf, iterations=500, seed=3).moves
    assert one.iterations == 500 and one.states > 500 and 0 < one.nodes <= ultimate_tree.MAX_NODES
    assert {m.move for m in one.moves} == set(GAME.actions(state)) and one.pv[0] == one.best.move
    assert one.depth >= 2 and sum(m.visits for m in one.moves) <= 500
    assert all(0.0 <= m.mean <= 1.0 for m in one.moves)


def single_move_position(seed: int) -> UltimateState:
    """A random game stopped where the player to move has one legal move."""
    rng = random.Random(seed)
    while True:
        state = GAME.initial_state()
        while not state.is_over:
            if len(GAME.actions(state)) == 1:
                return state
            state = GAME.result(state, rng.choice(GAME.actions(state)))


def test_a_single_legal_move_is_searched_briefly_whatever_the_budget() -> None:
    state = single_move_position(3)
    report = search(state, 60_000.0, seed=0)
    assert [m.move for m in report.moves] == list(GAME.actions(state))
    assert report.iterations <= ultimate_tree.FORCED_ITERATIONS and report.elapsed_ms < 30_000
    assert search(state, math.inf, iterations=50, seed=0).iterations <= 50  # a smaller iteration budget stays


def test_a_proved_position_answers_before_its_budget_is_spent() -> None:
    report = search(GAME.play(WON_IN_5), 60_000.0, seed=1)
    assert (report.best.proof, report.best.plies) == ("win", 5)
    assert report.elapsed_ms < 30_000


def test_a_timed_search_runs_until_its_budget_less_the_margin() -> None:
    state = GAME.play([40, 30])
    for budget_ms in (100.0, 300.0):
        report = search(state, budget_ms, seed=2)
        assert report.best.proof is None and report.elapsed_ms >= budget_ms - min(10.0, budget_ms / 20.0)


def test_a_search_needs_a_budget_and_a_game_that_goes_on() -> None:
    with pytest.raises(ValueError, match="budget"):
        search(GAME.initial_state(), math.inf)
    for iterations in (0, -1):
        with pytest.raises(ValueError, match="at least 1"):
            search(GAME.initial_state(), 10.0, iterations=iterations)
    assert search(GAME.initial_state(), 0.001).iterations >= 1  # the clock is read after the first iterations
    won = GAME.play(WON_IN_5)
    while not won.is_over:
        won = GAME.result(won, search(won, math.inf, iterations=2_000, seed=0).best.move)
    with pytest.raises(GameOverError):
        search(won, 10.0)
    with pytest.raises(ValueError, match="depth"):
        ultimate_mcts.prove(*raw_position(GAME.play([40])), 0, 10, math.inf)
