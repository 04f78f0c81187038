"""The parent-death signal: a worker whose parent is already gone exits instead of running on."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=30)


def test_a_worker_whose_parent_is_not_the_given_one_exits_at_once() -> None:
    done = run("from bot.games.workers import die_with_parent; die_with_parent(1); print('still running')")
    assert (done.returncode, done.stdout) == (1, "")


def test_a_worker_of_its_real_parent_runs_on_with_the_signal_armed() -> None:
    code = (
        "import ctypes, os; from bot.games.workers import die_with_parent; die_with_parent(os.getppid()); "
        "sig = ctypes.c_int(); ctypes.CDLL(None).prctl(2, ctypes.byref(sig), 0, 0, 0); print(sig.value)"
    )
    done = run(code)
    assert (done.returncode, done.stdout.strip()) == (0, "9"), done.stderr  # PR_GET_PDEATHSIG: SIGKILL
