"""A child that runs when idle: lower by the niceness asked for, and under ``SCHED_IDLE`` on Linux."""

from __future__ import annotations

import os
import subprocess
import sys

CHILD = (
    "import os; from bot.ops.priority import run_when_idle; before = os.nice(0); idle = run_when_idle(3); "
    "print(idle, os.nice(0) - before, os.sched_getscheduler(0) == getattr(os, 'SCHED_IDLE', None))"
)


def test_a_child_lowers_its_priority_and_runs_when_idle() -> None:
    done = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, timeout=60, check=True)
    idle, lowered, scheduled = done.stdout.split()
    assert int(lowered) == 3
    assert idle == scheduled == str(hasattr(os, "SCHED_IDLE"))
