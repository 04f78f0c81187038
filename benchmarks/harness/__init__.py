"""The harness of the benchmarks that drive the real bot through the fake Discord (``testing/fake_discord``).

By concern, low to high: :mod:`~benchmarks.harness.procfs` (CPU and memory from ``/proc``),
:mod:`~benchmarks.harness.launcher` (how a bot process starts, its environment), :mod:`~benchmarks.harness.process`
(a bot subprocess and its log), :mod:`~benchmarks.harness.results` (one run's figures, quantiles),
:mod:`~benchmarks.harness.players` (members pressing, the 3x3 games), :mod:`~benchmarks.harness.phase` (the timed
phase: CPU, wall time, loop lag, py-spy), :mod:`~benchmarks.harness.memory` (tracemalloc), the runs
(:mod:`~benchmarks.harness.ours`, :mod:`~benchmarks.harness.floor`), and the load benchmark's report
(:mod:`~benchmarks.harness.report`, :mod:`~benchmarks.harness.verdict`, :mod:`~benchmarks.harness.summary`).
"""

from benchmarks.harness.floor import run_floor
from benchmarks.harness.launcher import LAUNCHER, ROOT, bot_env, checkout_name
from benchmarks.harness.ours import run_ours
from benchmarks.harness.phase import sample_shares, timed_phase
from benchmarks.harness.players import Budget, OursDriver, Player, answered, gather
from benchmarks.harness.process import BenchmarkError, BotProcess, launch
from benchmarks.harness.procfs import cpu_seconds, descendants, status_kb
from benchmarks.harness.report import History, Row, fmt, table
from benchmarks.harness.results import LATE, RunResult, quantile_ms
from benchmarks.harness.summary import print_report
from benchmarks.harness.verdict import targets

__all__ = [
    "LATE",
    "LAUNCHER",
    "ROOT",
    "BenchmarkError",
    "BotProcess",
    "Budget",
    "History",
    "OursDriver",
    "Player",
    "Row",
    "RunResult",
    "answered",
    "bot_env",
    "checkout_name",
    "cpu_seconds",
    "descendants",
    "fmt",
    "gather",
    "launch",
    "print_report",
    "quantile_ms",
    "run_floor",
    "run_ours",
    "sample_shares",
    "status_kb",
    "table",
    "targets",
    "timed_phase",
]
