"""The Connect Four solver: its C and Python kernels agree (values and states), and both agree with a plain
negamax written independently over the rules, on late positions; known wins are found at their distance."""

from __future__ import annotations

import random
from functools import cache

import pytest

from engine.connect_four.rules import CELLS, CONNECT_FOUR, ConnectFourState
from engine.connect_four.solver import NATIVE, STOP_CHECK, column_values, new_kernel, score_value, solve, solve_by
from engine.protocol import GameValue

KERNELS = [
    pytest.param(False, id="python"),
    pytest.param(True, id="c", marks=pytest.mark.skipif(not NATIVE, reason="the C kernel is not built")),
]


def random_position(rng: random.Random, discs: int) -> ConnectFourState:
    """A random position with ``discs`` discs, not over, where the side to move cannot win at once (a real search),
    by random playouts (retrying those that end sooner or give an immediate win)."""
    while True:
        state = CONNECT_FOUR.initial_state()
        while state.discs < discs and not CONNECT_FOUR.terminal(state):
            state = CONNECT_FOUR.result(state, rng.choice(CONNECT_FOUR.actions(state)))
        if not CONNECT_FOUR.terminal(state) and not any(
            CONNECT_FOUR.winner(CONNECT_FOUR.result(state, column)) for column in CONNECT_FOUR.actions(state)
        ):
            return state


def plain_negamax(state: ConnectFourState) -> int:
    """The depth-aware score (43 - discs at a win; a loss negated; a draw 0) for the side to move, by negamax over
    every move with no pruning, memoised on the state; only the rules (checked against OpenSpiel) are shared."""
    memo: dict[ConnectFourState, int] = {}

    def negamax(position: ConnectFourState) -> int:
        if position in memo:
            return memo[position]
        if CONNECT_FOUR.winner(position) is not None:  # the side that just moved won
            score = -(CELLS + 1 - position.discs)
        elif CONNECT_FOUR.terminal(position):
            score = 0
        else:
            score = max(-negamax(CONNECT_FOUR.result(position, c)) for c in CONNECT_FOUR.actions(position))
        memo[position] = score
        return score

    return negamax(state)


@cache
def late_positions() -> list[ConnectFourState]:
    rng = random.Random(37)
    return [random_position(rng, rng.randint(28, 36)) for _ in range(40)]


@cache
def plain_scores() -> list[int]:
    """:func:`plain_negamax` of every late position (computed once for both kernels)."""
    return [plain_negamax(state) for state in late_positions()]


@pytest.mark.parametrize("native", KERNELS)
def test_late_positions_match_plain_negamax(native: bool) -> None:
    kernel = new_kernel(native=native, table_bits=16)
    results = set()
    for state, expected in zip(late_positions(), plain_scores(), strict=True):
        got = solve(state, kernel)
        board = CONNECT_FOUR.format_board(state)
        assert (got.score, got.value) == (expected, score_value(expected, state.discs)), board
        results.add(got.value.result)
    assert results == {"win", "loss", "draw"}


def test_column_values_match_plain_negamax() -> None:
    for state in late_positions()[:10]:
        values = column_values(state)
        assert sorted(values) == list(CONNECT_FOUR.actions(state))
        for column, value in values.items():
            child = CONNECT_FOUR.result(state, column)
            assert value == score_value(-plain_negamax(child), state.discs), (CONNECT_FOUR.format_board(state), column)


@pytest.mark.skipif(not NATIVE, reason="the C kernel is not built")
def test_c_and_python_kernels_give_the_same_values_and_states() -> None:
    rng = random.Random(4)
    positions = [random_position(rng, discs) for discs in (18, 19, 20, 21, 22, 23, 24, 26, 28) for _ in range(3)]
    searched = 0
    for state in positions:
        python, c = new_kernel(native=False, table_bits=14), new_kernel(native=True, table_bits=14)
        expected = solve(state, python)
        assert solve(state, c) == expected, CONNECT_FOUR.format_board(state)
        searched += expected.states > 100
    assert searched >= 5  # most positions need a real search, not a threat rule


def test_shared_kernels_keep_agreeing_across_solves() -> None:
    """The tables persist between solves and are small enough to be overwritten: values and counts still agree."""
    if not NATIVE:
        pytest.skip("the C kernel is not built")
    python, c = new_kernel(native=False, table_bits=10), new_kernel(native=True, table_bits=10)
    for state in late_positions()[:20]:
        assert solve(state, c) == solve(state, python)
    assert python.count == c.count > 0


@pytest.mark.parametrize("native", KERNELS)
def test_forced_wins_are_found_at_their_distance(native: bool) -> None:
    # X holds c1 and d1, O c2 and d2: X makes an open three and wins with its second disc from now.
    assert solve(CONNECT_FOUR.play("4433"), new_kernel(native=native)).value == GameValue("win", 3)
    # ... and after X's e1, O faces two threats.
    assert solve(CONNECT_FOUR.play("44335"), new_kernel(native=native)).value == GameValue("loss", 2)
    # A disc that wins at once is a win in one ply, one state.
    once = solve(CONNECT_FOUR.play("445566"), new_kernel(native=native))
    assert once.value == GameValue("win", 1) and once.states == 1


def test_finished_games_have_their_value() -> None:
    won = CONNECT_FOUR.play("4455667")
    assert solve(won).value == GameValue("loss", 0)
    full = CONNECT_FOUR.play("442761225377252342545563474175371666631311")
    assert solve(full).value == GameValue("draw", 0)
    assert column_values(won) == {}


def test_the_environment_can_turn_the_c_kernel_off(monkeypatch: pytest.MonkeyPatch) -> None:
    from engine.connect_four import solver

    monkeypatch.setenv("TTT_ENGINE_PURE_PYTHON", "1")
    assert solver._load_native() is None
    monkeypatch.delenv("TTT_ENGINE_PURE_PYTHON")
    assert (solver._load_native() is not None) == NATIVE
    monkeypatch.setattr(solver, "_NATIVE", None)
    with pytest.raises(RuntimeError, match="not built"):
        new_kernel(native=True)
    assert type(new_kernel(native=False)).__name__ == "PyKernel"


@pytest.mark.parametrize("native", KERNELS)
def test_a_table_size_out_of_range_is_refused(native: bool) -> None:
    for bits in (0, 31):
        with pytest.raises(ValueError, match="table_bits"):
            new_kernel(native=native, table_bits=bits)


@pytest.mark.skipif(not NATIVE, reason="the C kernel is not built")
def test_the_c_kernel_refuses_what_is_not_a_position() -> None:
    kernel = new_kernel(native=True, table_bits=4)
    with pytest.raises(ValueError, match="not a position"):
        kernel.value(1, 0, 1, -1, 1)  # a disc of the side to move outside the board's discs
    with pytest.raises(ValueError, match="not a position"):
        kernel.value(0, 1 << 6, 1, -1, 1)  # a disc on a sentinel


@pytest.mark.skipif(not NATIVE, reason="the C kernel is not built")
def test_both_kernels_stop_at_a_deadline_at_the_same_state_and_then_solve_alike() -> None:
    state = CONNECT_FOUR.initial_state()
    for column in (4, 3, 1, 0, 4, 4, 0, 4, 0, 5, 3, 3, 4, 0, 0, 1):  # a loss in 20: about 30,000 states
        state = CONNECT_FOUR.result(state, column)
    kernels = [new_kernel(native=False, table_bits=16), new_kernel(native=True, table_bits=16)]
    for kernel in kernels:
        assert solve_by(state, kernel, 1.0) is None  # a deadline long past: stopped at the first clock reading
        assert (kernel.count, kernel.stopped, kernel.deadline) == (STOP_CHECK + 1, False, 0.0)
    python, c = (solve(state, kernel) for kernel in kernels)
    assert python == c
