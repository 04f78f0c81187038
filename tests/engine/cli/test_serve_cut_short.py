"""engine serve's answers when the exact search does not finish in the budget: the states are the whole work done
(checked against a profiler counting the pure-Python kernel's calls), the answer says it was cut short, and a search
that cannot stop itself answers its states as unknown (null) rather than a partial count."""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

import pytest

from engine.cli.serve import answer_line
from engine.levels import choose_move
from engine.mnk import play as mnk_play
from engine.mnk.rules import TIC_TAC_TOE_5X5
from engine.mnk.solver import PyKernel
from engine.registry import variant

KERNEL_CODE = PyKernel(TIC_TAC_TOE_5X5).value.__code__  # type: ignore[attr-defined]


@contextmanager
def kernel_calls() -> Iterator[list[int]]:
    """Counts every call of the pure-Python m,n,k kernel's value function while the block runs."""
    counted = [0]

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        if event == "call" and frame.f_code is KERNEL_CODE:
            counted[0] += 1

    sys.setprofile(profile)
    try:
        yield counted
    finally:
        sys.setprofile(None)


def test_a_5x5_search_cut_short_counts_every_state_it_evaluated(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mnk_play, "NATIVE", False)
    monkeypatch.setattr(mnk_play, "_KERNELS", {})
    request = {"variant": "5x5", "moves": [22, 15], "budget_ms": 400}  # off the book: minutes of search
    with kernel_calls() as counted:
        reply = json.loads(answer_line(json.dumps(request), rng=random.Random(7)))
    assert (reply["source"], reply["value"], reply["proven"]) == ("cut short", None, False)
    seed = random.Random(7).getrandbits(64)
    state = variant("5x5").replay([21, 14])
    fallback = choose_move("5x5", state, 7, rng=random.Random(seed))  # level 7's move, as serve plays it
    assert counted[0] > 0
    assert reply["states"] == counted[0] + fallback.states
    assert reply["move"] == fallback.cell + 1


def test_a_search_that_cannot_stop_itself_answers_its_states_as_unknown() -> None:
    """3x3's minimax from the empty board (549,946 states) runs in a child process, stopped after 50 ms."""
    reply = json.loads(answer_line(json.dumps({"variant": "3x3", "algorithm": "minimax", "budget_ms": 200})))
    assert (reply["source"], reply["states"], reply["value"], reply["proven"]) == ("cut short", None, None, False)
    assert reply["move"] in range(1, 10)


def test_a_finished_exact_search_is_answered_as_before() -> None:
    reply = json.loads(answer_line(json.dumps({"variant": "4x4", "moves": [1, 6], "budget_ms": 60_000})))
    assert (reply["source"], reply["value"], reply["proven"]) == ("search", "draw", True)
    assert isinstance(reply["states"], int) and reply["states"] > 0
