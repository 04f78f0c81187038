"""The m,n,k solver's kernels (pure Python and C) against the textbook reference and the 3x3 exact solver."""

from __future__ import annotations

import random
from functools import cache

import pytest

from engine.minimax.reference import ReferenceResult, alpha_beta_search
from engine.mnk.rules import TIC_TAC_TOE_4X4, TIC_TAC_TOE_5X5, MnkState, TicTacToe
from engine.mnk.solver import INF, NATIVE, initial_threats, move_value, new_kernel
from engine.protocol import Mark
from engine.tictactoe import bitboard as bb
from engine.tictactoe import solver as solver_3x3

KERNELS = [
    pytest.param(False, id="python"),
    pytest.param(True, id="c", marks=pytest.mark.skipif(not NATIVE, reason="the C kernel is not built")),
]


def sides(game: TicTacToe, state: MnkState) -> tuple[int, int]:
    return (state.x, state.o) if game.player(state) is Mark.X else (state.o, state.x)


def random_position(game: TicTacToe, rng: random.Random, marks: int) -> MnkState:
    """A random non-terminal position with ``marks`` marks (retrying playouts that end sooner)."""
    while True:
        state = game.initial_state()
        while state.marks < marks and not game.terminal(state):
            state = game.result(state, rng.choice(game.actions(state)))
        if not game.terminal(state):
            return state


def sign(value: float) -> int:
    return (value > 0) - (value < 0)


@pytest.mark.parametrize("native", KERNELS)
def test_every_3x3_position_scores_as_the_exact_3x3_solver(native: bool) -> None:
    """Depth-aware scores share a scale (10 - marks at the end on 3x3), so they must be equal, not just signs."""
    game = TicTacToe(3, 3, 3)
    kernel = new_kernel(game, native=native)
    seen = 0
    for x in range(512):
        for o in range(512):
            state = MnkState(x, o)
            if x & o or x.bit_count() - o.bit_count() not in (0, 1) or game.terminal(state):
                continue
            me, opp = sides(game, state)
            if bb.WINS[me]:  # the side to move cannot have won already in a reachable position
                continue
            n = state.marks
            got = kernel.value(me, opp, n, -INF, INF, initial_threats(game, me), initial_threats(game, opp))
            assert got == solver_3x3.exact_value(me, opp), game.format_board(state)
            seen += 1
    assert seen > 4_000


@cache
def reference_cases() -> list[tuple[MnkState, ReferenceResult]]:
    """Random 4x4 positions with 8-10 marks and the textbook alpha-beta's result on each (computed once)."""
    rng = random.Random(4)
    states = [random_position(TIC_TAC_TOE_4X4, rng, rng.randint(8, 10)) for _ in range(30)]
    return [(state, alpha_beta_search(TIC_TAC_TOE_4X4, state)) for state in states]


@pytest.mark.parametrize("native", KERNELS)
def test_4x4_move_values_agree_with_textbook_alpha_beta(native: bool) -> None:
    game = TIC_TAC_TOE_4X4
    for state, reference in reference_cases():
        me, opp = sides(game, state)
        to_move = 1 if game.player(state) is Mark.X else -1
        kernel = new_kernel(game, native=native)
        for cell, value in reference.values:
            assert sign(move_value(kernel, game, me, opp, cell)) == value * to_move, (game.format_board(state), cell)


@pytest.mark.skipif(not NATIVE, reason="the C kernel is not built")
def test_the_c_and_python_kernels_agree_on_5x5() -> None:
    game = TIC_TAC_TOE_5X5
    rng = random.Random(5)
    for _ in range(12):
        state = random_position(game, rng, rng.randint(9, 12))
        me, opp = sides(game, state)
        scores = []
        for native in (False, True):
            kernel = new_kernel(game, native=native)
            scores.append(
                kernel.value(me, opp, state.marks, -INF, INF, initial_threats(game, me), initial_threats(game, opp))
            )
        assert scores[0] == scores[1], game.format_board(state)


@pytest.mark.parametrize("native", KERNELS)
def test_a_narrow_window_gives_a_bound_on_the_right_side(native: bool) -> None:
    """Fail-soft: a score at or below alpha is an upper bound, at or above beta a lower bound."""
    game = TIC_TAC_TOE_4X4
    rng = random.Random(6)
    for _ in range(20):
        state = random_position(game, rng, 8)
        me, opp = sides(game, state)
        mine, theirs = initial_threats(game, me), initial_threats(game, opp)
        exact = new_kernel(game, native=native).value(me, opp, state.marks, -INF, INF, mine, theirs)
        for alpha, beta in ((-1, 1), (0, 1), (-1, 0), (3, 5)):
            bound = new_kernel(game, native=native).value(me, opp, state.marks, alpha, beta, mine, theirs)
            if bound <= alpha:
                assert exact <= bound
            elif bound >= beta:
                assert exact >= bound
            else:
                assert exact == bound


@pytest.mark.parametrize("native", KERNELS)
def test_count_is_nodes_visited_and_the_table_is_reused(native: bool) -> None:
    game = TIC_TAC_TOE_4X4
    kernel = new_kernel(game, native=native)
    assert kernel.count == 0
    first = kernel.value(0, 0, 0, -INF, INF, 0, 0)
    cold = kernel.count
    kernel.value(0, 0, 0, -INF, INF, 0, 0)
    assert first == 0 and cold > 1_000 and kernel.count == cold + 1  # the second call is one table hit
    kernel.clear()
    kernel.value(0, 0, 0, -INF, INF, 0, 0)
    assert kernel.count == 2 * cold + 1


def test_new_kernel_refuses_a_missing_c_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    from engine.mnk import solver as mnk_solver

    monkeypatch.setattr(mnk_solver, "_NATIVE", None)
    with pytest.raises(RuntimeError, match="not built"):
        new_kernel(TIC_TAC_TOE_4X4, native=True)
    assert type(new_kernel(TIC_TAC_TOE_4X4, native=False)).__name__ == "PyKernel"


def test_the_environment_can_turn_the_c_kernel_off(monkeypatch: pytest.MonkeyPatch) -> None:
    from engine.mnk import solver as mnk_solver

    monkeypatch.setenv("TTT_ENGINE_PURE_PYTHON", "1")
    assert mnk_solver._load_native() is None
    monkeypatch.delenv("TTT_ENGINE_PURE_PYTHON")
    assert (mnk_solver._load_native() is not None) == NATIVE


@pytest.mark.parametrize("native", [False, pytest.param(True, marks=pytest.mark.skipif(not NATIVE, reason="no C"))])
def test_a_kernel_past_its_deadline_stops_at_its_first_clock_reading_and_keeps_only_finished_work(native: bool) -> None:
    """Both kernels read the clock at the same count and, stopped, store nothing: a later search finds the value."""
    from engine.mnk.play import root_scores
    from engine.mnk.solver import STOP_CHECK

    game = TIC_TAC_TOE_5X5
    me, opp = 1 << 21, 1 << 14  # 5x5 after [22, 15]: minutes of search, far past the first reading
    kernel = new_kernel(game, native=native)
    kernel.deadline = 1.0  # long past
    assert root_scores(kernel, game, me, opp, shared=True) == []
    assert kernel.stopped and kernel.count == STOP_CHECK + 1
    kernel.deadline, kernel.stopped = 0.0, False
    small = new_kernel(TIC_TAC_TOE_4X4, native=native)
    reference = new_kernel(TIC_TAC_TOE_4X4, native=False)
    small.deadline = 1.0
    root_scores(small, TIC_TAC_TOE_4X4, 1, 1 << 5, shared=True)
    small.deadline, small.stopped = 0.0, False
    after = root_scores(small, TIC_TAC_TOE_4X4, 1, 1 << 5, shared=False)
    assert after == root_scores(reference, TIC_TAC_TOE_4X4, 1, 1 << 5, shared=False)
