"""benchmarks/harness: the figures it reads (quantiles, CPU from /proc, py-spy shares) and how it judges the targets."""

from __future__ import annotations

import math
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from benchmarks.harness import RunResult, cpu_seconds, descendants, quantile_ms, sample_shares, status_kb, targets
from benchmarks.harness.verdict import CPU_RATIO_TARGET, TARGET_N


def test_quantiles_are_nearest_rank_in_ms() -> None:
    seconds = [i / 1000 for i in range(1, 101)]  # 1..100 ms
    assert quantile_ms(seconds, 0.99) == pytest.approx(99.0)
    assert quantile_ms(seconds, 0.5) == pytest.approx(50.0)
    assert quantile_ms(seconds, 1.0) == pytest.approx(100.0)
    assert quantile_ms([0.25], 0.01) == pytest.approx(250.0)
    assert math.isnan(quantile_ms([], 0.99))


def test_cpu_and_memory_of_a_process_tree_come_from_proc() -> None:
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        assert child.pid in descendants(os.getpid())
        before = cpu_seconds(os.getpid())[os.getpid()]
        deadline = time.process_time() + 0.3
        while time.process_time() < deadline:
            pass
        after = cpu_seconds(os.getpid())
        assert after[os.getpid()] - before >= 0.2
        assert child.pid in after
        assert status_kb(os.getpid(), "VmRSS") > 0
    finally:
        child.kill()
        child.wait()
    assert child.pid not in descendants(os.getpid())
    assert status_kb(child.pid, "VmRSS") == 0


def test_py_spy_samples_are_shared_by_package_without_idle_threads(tmp_path: Path) -> None:
    raw = tmp_path / "samples.txt"
    raw.write_text(
        "main (bot/__main__.py:10);play (bot/games/service.py:40) 30\n"
        "main (bot/__main__.py:10);send (aiohttp/client.py:500) 10\n"
        "worker (concurrent/futures/thread.py:81) 1000\n"
    )
    lines = sample_shares(str(raw))
    assert lines[0] == " 75.0%  bot" and lines[1] == " 25.0%  aiohttp"
    assert "(40 samples)" in lines[2]


def _run(bot: str, cpu_s: float, moves: int = 1000) -> RunResult:
    result = RunResult(bot, TARGET_N, moves=moves, games=moves // 3, elapsed=10.0, cpu_main=cpu_s)
    result.latencies = [0.1] * 100
    return result


def test_cpu_target_is_judged_on_the_median_ratio_of_the_runs() -> None:
    floor = _run("floor (dynamic)", 0.5)  # 0.5 ms a press
    rows = [(_run("ours", cpu), [floor], []) for cpu in (0.6, 2.0, 0.65)]  # 1.2x, 4x, 1.3x
    passed, line, why = targets(rows)[0]
    assert passed is True and why == []
    assert "= 1.30x, the median of 3 runs: 1.20x, 1.30x, 4.00x" in line
    rows = [(_run("ours", 0.5 * (CPU_RATIO_TARGET + 0.1)), [floor], [])]
    passed, line, why = targets(rows)[0]
    assert passed is False and why, line
