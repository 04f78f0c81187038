"""Benchmark: the engine against a list-based textbook baseline, timed in the same process.

Run from the repository root with ``python benchmarks/engine.py`` (or ``python -m benchmarks.engine``).
It prints Markdown tables of states evaluated, median times and states per second, with ratios
measured in this run, then one PASS/MISS line per target. It takes about 35 s; the exit code is
1 when a target is missed (0 otherwise), and an AssertionError means the two searchers disagree on
the seed counts, so the comparison would not be fair.
"""

from __future__ import annotations

import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

_HERE = Path(__file__).resolve().parent
if __name__ == "__main__":  # run as a script: this file's folder would shadow the engine package
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
    sys.path.insert(0, str(_HERE.parent))

from benchmarks import baseline  # noqa: E402
from engine.game import State, initial_state, parse_board, result  # noqa: E402
from engine.search import DEFAULT, TEXTBOOK_ALPHA_BETA, TEXTBOOK_MINIMAX, SearchConfig, search  # noqa: E402

EMPTY = "........."
CENTRE = "....X...."


def median_seconds(fn: Callable[[], object], runs: int) -> float:
    """The median wall-clock time of ``runs`` calls of ``fn`` (after one warm-up call)."""
    fn()
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def runs_for(seconds_per_call: float) -> int:
    """5-7 runs for big trees, hundreds for small ones, keeping each measurement to a few seconds."""
    if seconds_per_call > 0.5:
        return 5
    if seconds_per_call > 0.02:
        return 7
    return max(200, min(2_000, int(0.5 / max(seconds_per_call, 1e-6))))


def time_engine(state: State, config: SearchConfig) -> tuple[int, float]:
    """States and median seconds of a whole ``search()`` call (move choice and principal variation)."""
    states = search(state, config=config).states
    probe = median_seconds(lambda: search(state, config=config), 3)
    return states, median_seconds(lambda: search(state, config=config), runs_for(probe))


def time_baseline(text: str, decide: Callable[[baseline.Board], tuple[int, float, int]]) -> tuple[int, float]:
    """States and median seconds of a baseline decision function."""
    board = baseline.board_from_text(text)
    states = decide(board)[2]
    probe = median_seconds(lambda: decide(board), 1)
    return states, median_seconds(lambda: decide(board), runs_for(probe))


def ms(seconds: float) -> str:
    return f"{seconds * 1000:,.3f} ms" if seconds < 0.01 else f"{seconds * 1000:,.1f} ms"


def rate(states: int, seconds: float) -> str:
    return f"{states / seconds / 1e6:,.2f} M/s"


def check_fairness() -> None:
    """Both searchers must reproduce the seeds' counts and agree on the moves they choose."""
    cases = [
        (baseline.minimax_decision, TEXTBOOK_MINIMAX, CENTRE, 55_504, 0),
        (baseline.minimax_decision, TEXTBOOK_MINIMAX, EMPTY, 549_945, 0),
        (baseline.alpha_beta_decision, TEXTBOOK_ALPHA_BETA, "...X.....", 7_641, 0),
        (baseline.alpha_beta_decision, TEXTBOOK_ALPHA_BETA, "O..X..X..", 552, 1),
        (baseline.alpha_beta_decision, TEXTBOOK_ALPHA_BETA, "OO.X..X.X", 27, 2),
    ]
    for decide, config, text, states, move in cases:
        b_move, _, b_states = decide(baseline.board_from_text(text))
        e = search(parse_board(text), config=config)
        assert (b_move, b_states) == (move, states), (text, b_move, b_states)
        assert (e.move, e.states) == (move, states), (text, e.move, e.states)
    for text in (EMPTY, CENTRE):  # the baseline's alpha-beta is the engine's textbook alpha-beta
        assert (
            baseline.alpha_beta_decision(baseline.board_from_text(text))[2]
            == search(parse_board(text), config=TEXTBOOK_ALPHA_BETA).states
        )


def main() -> int:
    """Print the comparison tables and the target lines; return 1 when a target is missed."""
    check_fairness()
    print(
        f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs; medians of repeated runs."
    )
    print()

    empty, centre = initial_state(), result(initial_state(), 4)
    rows: list[tuple[str, str, int, float, int, float]] = []
    b_mm_empty = time_baseline(EMPTY, baseline.minimax_decision)
    e_mm_empty = time_engine(empty, TEXTBOOK_MINIMAX)
    rows.append(("textbook minimax", "empty board", *b_mm_empty, *e_mm_empty))
    rows.append(
        (
            "textbook minimax",
            "after X centre",
            *time_baseline(CENTRE, baseline.minimax_decision),
            *time_engine(centre, TEXTBOOK_MINIMAX),
        )
    )
    b_ab_empty = time_baseline(EMPTY, baseline.alpha_beta_decision)
    rows.append(("textbook alpha-beta", "empty board", *b_ab_empty, *time_engine(empty, TEXTBOOK_ALPHA_BETA)))
    rows.append(
        (
            "textbook alpha-beta",
            "after X centre",
            *time_baseline(CENTRE, baseline.alpha_beta_decision),
            *time_engine(centre, TEXTBOOK_ALPHA_BETA),
        )
    )
    e_default = time_engine(empty, DEFAULT)
    rows.append(("baseline alpha-beta vs engine DEFAULT", "empty board", *b_ab_empty, *e_default))

    header = ["Search", "Position", "Baseline states", "Baseline time", "Baseline rate"]
    header += ["Engine states", "Engine time", "Engine rate", "Time ratio", "Rate ratio"]
    print("| " + " | ".join(header) + " |")
    print("|---|---|" + "---:|" * (len(header) - 2))
    for name, where, b_states, b_time, e_states, e_time in rows:
        print(
            f"| {name} | {where} | {b_states:,} | {ms(b_time)} | {rate(b_states, b_time)} "
            f"| {e_states:,} | {ms(e_time)} "
            f"| {rate(e_states, e_time)} | {b_time / e_time:,.1f}x | "
            f"{(e_states / e_time) / (b_states / b_time):,.1f}x |"
        )
    print()

    configs: list[tuple[str, SearchConfig]] = [
        ("minimax (textbook)", TEXTBOOK_MINIMAX),
        ("alpha-beta natural plain, fresh window (textbook)", TEXTBOOK_ALPHA_BETA),
        ("alpha-beta centre-first plain", SearchConfig("alpha-beta", "centre", "plain", False, "fresh", False)),
        ("alpha-beta natural depth", SearchConfig("alpha-beta", "natural", "depth", False, "fresh", False)),
        ("alpha-beta centre-first depth", SearchConfig("alpha-beta", "centre", "depth", False, "fresh", False)),
        ("+ shared root window", SearchConfig("alpha-beta", "centre", "depth", False, "shared", False)),
        ("+ transposition table", SearchConfig("alpha-beta", "centre", "depth", True, "shared", False)),
        ("+ root symmetry (DEFAULT)", DEFAULT),
        (
            "alpha-beta natural depth + TT, shared, symmetry",
            SearchConfig("alpha-beta", "natural", "depth", True, "shared", True),
        ),
        ("minimax + root symmetry", SearchConfig("minimax", "natural", "plain", False, "fresh", True)),
    ]
    print("| Engine configuration | States (empty) | Time (empty) | States (after X centre) | Time (after X centre) |")
    print("|---|---:|---:|---:|---:|")
    for name, config in configs:
        s_empty, t_empty = time_engine(empty, config)
        s_centre, t_centre = time_engine(centre, config)
        print(f"| {name} | {s_empty:,} | {ms(t_empty)} | {s_centre:,} | {ms(t_centre)} |")
    print()

    b_rate = b_mm_empty[0] / b_mm_empty[1]
    e_rate = e_mm_empty[0] / e_mm_empty[1]
    speedup = b_ab_empty[1] / e_default[1]
    targets = [
        (f"engine minimax states/second >= 5x baseline: {e_rate / b_rate:,.1f}x", e_rate >= 5 * b_rate),
        (f"whole 549,945-state minimax tree <= 0.25 s: {e_mm_empty[1]:.3f} s", e_mm_empty[1] <= 0.25),
        (f"DEFAULT first move from the empty board <= 0.5 ms: {e_default[1] * 1000:.3f} ms", e_default[1] <= 0.0005),
        (f"DEFAULT >= 100x faster than baseline alpha-beta on the empty board: {speedup:,.0f}x", speedup >= 100),
    ]
    for text, ok in targets:
        print(f"- {'PASS' if ok else 'MISS'}: {text}")
    return 0 if all(ok for _, ok in targets) else 1


if __name__ == "__main__":
    sys.exit(main())
