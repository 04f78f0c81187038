"""A child that runs when idle: lower by the niceness asked for, and under ``SCHED_IDLE`` on Linux; so do the bot's
search workers and its drawing process, while the bot keeps its own priority."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor

import pytest

from bot.games.pool import WORKER_NICENESS, variant_executor
from bot.ui.pictures import DRAWING_NICENESS, picture_executor

CHILD = (
    "import os; from bot.games.workers import run_when_idle; before = os.nice(0); idle = run_when_idle(3); "
    "print(idle, os.nice(0) - before, os.sched_getscheduler(0) == getattr(os, 'SCHED_IDLE', None))"
)


def test_a_child_lowers_its_priority_and_runs_when_idle() -> None:
    done = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, timeout=60, check=True)
    idle, lowered, scheduled = done.stdout.split()
    assert int(lowered) == 3
    assert idle == scheduled == str(hasattr(os, "SCHED_IDLE"))


@pytest.mark.parametrize(
    ("make", "niceness"),
    [(lambda: variant_executor(1), WORKER_NICENESS), (picture_executor, DRAWING_NICENESS)],
    ids=["search workers", "drawing process"],
)
def test_the_bots_child_processes_run_on_idle_cores_only(
    make: Callable[[], ProcessPoolExecutor], niceness: int
) -> None:
    executor = make()
    try:
        assert executor.submit(os.nice, 0).result(timeout=60) == os.nice(0) + niceness
        assert executor.submit(os.sched_getscheduler, 0).result(timeout=60) == os.SCHED_IDLE
        assert os.sched_getscheduler(0) != os.SCHED_IDLE  # the bot itself keeps its own
    finally:
        executor.shutdown()
