"""The load benchmark's report: its table, one PASS/SKIP/MISS line per target, and the diagnostics asked for."""

from __future__ import annotations

from collections.abc import Sequence

from benchmarks.harness.phase import sample_shares
from benchmarks.harness.report import (
    History,
    Row,
    history_table,
    metrics_cost,
    minimal_comparison,
    print_profile,
    scaling,
    table,
)
from benchmarks.harness.results import RunResult
from benchmarks.harness.verdict import targets

__all__ = ["print_report"]


def print_report(rows: Sequence[Row], metered: Sequence[RunResult], history: Sequence[History]) -> bool:
    """Print the table of ``rows``, a line per target, the ``--metrics`` and ``--bot-root`` comparisons and every
    run's errors, profile, samples and heap growth; returns whether a target was missed."""
    print(table(rows))
    print()
    failed = False
    for passed, line, why in targets(rows):
        failed = failed or passed is False
        print(f"{'SKIP' if passed is None else 'PASS' if passed else 'MISS'}: {line}")
        for reason in why:
            print(f"  - {reason}")
    for line in scaling(rows):
        print(f"SCALE: {line}")
    for line in minimal_comparison(rows):
        print(f"MINIMAL: {line}")
    for line in metrics_cost(metered):
        print(f"METRICS: {line}")
    if history:
        print("\n#### CPU per 3x3 press by checkout (each with the floor of the same N)\n")
        print(history_table(history))
    extra = {id(ours): others for ours, others, _ in history}
    for ours, floors, scaled in rows:
        for res in (ours, *floors, *scaled, *extra.get(id(ours), ())):
            if res.refused or res.errors or res.unknown_routes:
                print(f"\n{res.bot} N={res.n}: {res.refused} refused presses, unknown routes {res.unknown_routes}")
                print("\n".join("    " + line for line in res.errors[:60]))
            if res.profile:
                print_profile(res.profile, f"{res.bot} N={res.n}")
            if res.samples:
                print(f"\n#### {res.bot} N={res.n}: py-spy samples by package, then by function ({res.samples})\n```")
                print("\n".join(sample_shares(res.samples)) + "\n```")
            if res.memory_top:
                print(f"\n#### {res.bot} N={res.n}: what the held games added to the heap (tracemalloc)\n```")
                print("\n".join(res.memory_top) + "\n```")
    return failed
