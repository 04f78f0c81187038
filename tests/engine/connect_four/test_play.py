"""Level 8's counts on Connect Four, checked against an instrumented search: the pure-Python kernel's value function
and the fallback's negamax are counted by a profiler (every call of their code objects), independently of the
counters the engine keeps, on the same positions: a book move, a fresh search and a search cut short."""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from types import CodeType, FrameType
from typing import Any

import pytest

from engine.connect_four import horizon, play
from engine.connect_four.rules import CONNECT_FOUR, ConnectFourState
from engine.connect_four.solver import STOP_CHECK, PyKernel, new_kernel, solve, solve_by
from engine.levels import choose_move
from engine.protocol import GameValue

KERNEL = PyKernel(table_bits=20)
KERNEL_CODE = KERNEL.value.__code__  # type: ignore[attr-defined]
NEGAMAX_CODE = horizon._searcher([0]).__code__


@pytest.fixture(autouse=True)
def python_kernel(monkeypatch: pytest.MonkeyPatch) -> PyKernel:
    """Level 8 searches with the pure-Python kernel (the C kernel's twin), whose calls a profiler can see."""
    KERNEL.clear()
    monkeypatch.setattr(play, "_kernel", KERNEL)
    return KERNEL


@contextmanager
def calls() -> Iterator[dict[CodeType, int]]:
    """Counts every call of the kernel's value function and of the fallback's negamax while the block runs."""
    counted = {KERNEL_CODE: 0, NEGAMAX_CODE: 0}

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        if event == "call" and frame.f_code in counted:
            counted[frame.f_code] += 1

    sys.setprofile(profile)
    try:
        yield counted
    finally:
        sys.setprofile(None)


def game(columns: list[int]) -> ConnectFourState:
    state = CONNECT_FOUR.initial_state()
    for column in columns:
        state = CONNECT_FOUR.result(state, column)
    return state


def settled_by_rules(state: ConnectFourState) -> bool:
    """True when the side to move, or the side to move after one of its moves, wins at once (the rules settle it)."""

    def wins_now(position: ConnectFourState) -> bool:
        return any(
            CONNECT_FOUR.winner(CONNECT_FOUR.result(position, c)) is not None for c in CONNECT_FOUR.actions(position)
        )

    return wins_now(state) or any(
        CONNECT_FOUR.terminal(child) or wins_now(child)
        for child in (CONNECT_FOUR.result(state, c) for c in CONNECT_FOUR.actions(state))
    )


def quiet_positions(count: int, plies: int, seed: int) -> list[ConnectFourState]:
    rng, found = random.Random(seed), []
    while len(found) < count:
        state = CONNECT_FOUR.initial_state()
        while state.discs < plies and not CONNECT_FOUR.terminal(state):
            state = CONNECT_FOUR.result(state, rng.choice(list(CONNECT_FOUR.actions(state))))
        if state.discs == plies and not CONNECT_FOUR.terminal(state) and not settled_by_rules(state):
            found.append(state)
    return found


def test_a_book_move_evaluates_nothing_and_says_it_was_read() -> None:
    state = game([3])
    with calls() as counted:
        move = choose_move("connect-four", state, 8, rng=random.Random(1))
    assert counted[KERNEL_CODE] == counted[NEGAMAX_CODE] == 0
    assert (move.source, move.states, move.book_states) == ("book", 0, None)
    assert move.value is not None and move.value.result == "loss"  # X's centre opening wins: O loses


@pytest.mark.parametrize("state", quiet_positions(4, 22, seed=5))
def test_a_fresh_search_reports_every_state_it_evaluated(state: ConnectFourState) -> None:
    with calls() as counted:
        move = choose_move("connect-four", state, 8, rng=random.Random(2))
    assert move.source == "search" and move.value == solve(state, new_kernel()).value
    assert counted[NEGAMAX_CODE] == 0
    assert move.states == counted[KERNEL_CODE] > 0


def test_a_search_cut_short_counts_both_searches_and_proves_nothing() -> None:
    state = game([0, 2, 4, 3, 4, 0, 2, 4])  # 8 discs, off the book: about a million states, far more than 1 ms
    with calls() as counted:
        best = play.perfect_move(state, cap_ms=1.0, rng=random.Random(3))
    assert (best.source, best.value, best.depth) == ("cut short", None, play.FALLBACK_DEPTH)
    exact, fallback = counted[KERNEL_CODE], counted[NEGAMAX_CODE]
    assert exact > 0 and fallback > 0
    assert best.states == exact + fallback
    assert best.column in CONNECT_FOUR.actions(state)


def test_a_win_in_one_is_played_before_any_search() -> None:
    state = game([0, 6, 0, 6, 0, 5])  # X wins at once in column 1 (0 here)
    with calls() as counted:
        move = choose_move("connect-four", state, 8, rng=random.Random(4))
    assert counted[KERNEL_CODE] == 0
    assert (move.states, move.value, move.cell % 7) == (0, GameValue("win", 1), 0)


def test_a_stopped_kernel_keeps_only_finished_work_and_a_later_search_solves() -> None:
    state = game([4, 3, 1, 0, 4, 4, 0, 4, 0, 5, 3, 3, 4, 0, 0, 1])  # a loss in 20, about 30,000 states
    kernel = PyKernel(table_bits=16)
    assert solve_by(state, kernel, 1.0) is None  # a deadline long past: stopped at the first clock reading
    assert not kernel.stopped and kernel.deadline == 0.0 and kernel.count == STOP_CHECK + 1  # its first reading
    again = solve(state, kernel)
    assert again.value == solve(state, new_kernel(native=False)).value == GameValue("loss", 20)


def test_level_8_s_cap_is_the_longer_of_its_own_and_the_caller_s_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """A caller's shorter budget does not cut the exact search short (the bot gives every search 1 s); a longer one
    extends the cap."""
    monkeypatch.setattr(play, "EXACT_CAP_MS", 1.0)
    state = game([4, 3, 1, 0, 4, 4, 0, 4, 0, 5, 3, 3, 4, 0, 0, 1])  # a loss in 20, about 30,000 states
    with calls() as counted:
        cut = choose_move("connect-four", state, 8, rng=random.Random(5), budget_ms=0.5)
    assert (cut.source, cut.value, cut.depth) == ("cut short", None, play.FALLBACK_DEPTH)
    assert cut.states == counted[KERNEL_CODE] + counted[NEGAMAX_CODE]
    KERNEL.clear()
    proven = choose_move("connect-four", state, 8, rng=random.Random(5), budget_ms=600_000.0)
    assert (proven.source, proven.value, proven.depth) == ("search", GameValue("loss", 20), None)
