"""Benchmark: the engine's DEFAULT search against seed 002's alpha-beta, and against a textbook baseline.

Run from the repository root with ``python -m benchmarks.engine_speed`` (or ``python -m benchmarks.engine_speed``).

The headline is the time of one first move from the empty board: ``engine.minimax.search`` with
:data:`engine.DEFAULT` (what the bot calls) against the reproduction of seed 002's alpha-beta in
``benchmarks/baseline.py``, timed in the same process with the two interleaved (many repetitions,
best-of and median), as a ratio. The machine is shared and noisy, so absolute times move from run to
run; the ratio measured in one run is the figure that counts. Then come Markdown tables of states,
times and rates for the textbook configurations against the list-based textbook baseline, and for
each engine option in turn, and one PASS/MISS line per target.

It takes about 40 s. The exit code is 1 when a target is missed (0 otherwise); an AssertionError
means the searchers disagree on the seeds' moves and counts, so the comparison would not be fair.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable

from benchmarks import baseline
from engine.minimax.search import DEFAULT, TEXTBOOK_ALPHA_BETA, TEXTBOOK_MINIMAX, SearchConfig, search
from engine.tictactoe.rules import State, initial_state, parse_board, result

EMPTY = "........."
CENTRE = "....X...."
SPEED_TARGET = 100.0
"""DEFAULT's first move from the empty board must be at least this many times faster than seed 002's."""


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


def seed_002_states(text: str) -> tuple[int, int]:
    """Seed 002's move and states evaluated (calls of its value function) from a position."""
    board = baseline.board_from_text(text)
    move, calls = baseline.count_calls(
        baseline.seed_002_minimax.__code__, lambda: baseline.seed_002_find_best_move(board)
    )
    return move, calls


def check_fairness() -> None:
    """All searchers must reproduce the seeds' counts and agree on the moves they choose."""
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
        if decide is baseline.alpha_beta_decision:  # seed 002's alpha-beta is the same search
            assert seed_002_states(text) == (move, states), (text, seed_002_states(text))
    for text in (EMPTY, CENTRE):  # the baselines' alpha-beta is the engine's textbook alpha-beta
        textbook = search(parse_board(text), config=TEXTBOOK_ALPHA_BETA)
        assert baseline.alpha_beta_decision(baseline.board_from_text(text))[2] == textbook.states
        assert seed_002_states(text) == (textbook.move, textbook.states)
    assert seed_002_states(EMPTY) == (0, 30_709)
    default = search(initial_state(), config=DEFAULT)
    assert default.value == 0 and set(default.best_moves) == set(range(9))  # every opening draws


def headline(text: str, rounds: int = 31) -> tuple[int, int, list[float], list[float], list[float]]:
    """Seed 002 against DEFAULT from ``text``, interleaved: ``rounds`` seed calls and batches of engine calls.

    Returns seed 002's states, DEFAULT's states, seed 002's seconds per call, DEFAULT's seconds per
    whole ``search()`` call (each a batch mean) and DEFAULT's seconds of search proper
    (``SearchResult.elapsed``, without the principal-variation walk), one value per round.
    """
    board = baseline.board_from_text(text)
    state = parse_board(text)
    seed_states = seed_002_states(text)[1]
    engine_states = search(state, config=DEFAULT).states
    seed_times, engine_times, engine_search_times = [], [], []
    batch = 200
    baseline.seed_002_find_best_move(board)  # warm-up
    for _ in range(3):
        search(state, config=DEFAULT)
    for _ in range(rounds):
        started = time.perf_counter()
        baseline.seed_002_find_best_move(board)
        seed_times.append(time.perf_counter() - started)
        elapsed = []
        started = time.perf_counter()
        for _ in range(batch):
            elapsed.append(search(state, config=DEFAULT).elapsed)
        engine_times.append((time.perf_counter() - started) / batch)
        engine_search_times.append(statistics.median(elapsed))
    return seed_states, engine_states, seed_times, engine_times, engine_search_times


def main() -> int:
    """Print the headline, the comparison tables and the target lines; return 1 when a target is missed."""
    check_fairness()
    print(
        f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs. "
        "The machine is shared and noisy: absolute times vary between runs; the ratios measured "
        "within one run are what count."
    )
    print()

    print("## First move: engine DEFAULT against seed 002's alpha-beta (same process, interleaved)")
    print()
    print("| Position | Searcher | States | Best of runs | Median |")
    print("|---|---|---:|---:|---:|")
    ratios: dict[str, tuple[float, float]] = {}
    empty_default_ms = 0.0
    for text, where in ((EMPTY, "empty board"), (CENTRE, "after X centre")):
        seed_states, engine_states, seed_t, engine_t, search_t = headline(text)
        for name, states, times in (
            ("seed 002 alpha-beta", seed_states, seed_t),
            ("engine DEFAULT, whole search() call", engine_states, engine_t),
            ("engine DEFAULT, search proper (SearchResult.elapsed)", engine_states, search_t),
        ):
            print(f"| {where} | {name} | {states:,} | {ms(min(times))} | {ms(statistics.median(times))} |")
        ratios[where] = (min(seed_t) / min(engine_t), statistics.median(seed_t) / statistics.median(engine_t))
        if text == EMPTY:
            empty_default_ms = statistics.median(engine_t) * 1000
    print()
    for where, (best, median) in ratios.items():
        print(f"- {where}: DEFAULT is {median:,.0f}x faster than seed 002 (medians; best of runs: {best:,.0f}x)")
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

    print("## Textbook configurations against the list-based textbook baseline")
    print()
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

    plain: dict[str, bool] = {"transposition": False, "symmetry": False, "threats": False}
    configs: list[tuple[str, SearchConfig]] = [
        ("minimax (textbook)", TEXTBOOK_MINIMAX),
        ("alpha-beta natural plain, fresh window (textbook)", TEXTBOOK_ALPHA_BETA),
        ("alpha-beta centre-first plain", SearchConfig("alpha-beta", "centre", "plain", root_window="fresh", **plain)),
        ("alpha-beta natural depth", SearchConfig("alpha-beta", "natural", "depth", root_window="fresh", **plain)),
        ("alpha-beta centre-first depth", SearchConfig("alpha-beta", "centre", "depth", root_window="fresh", **plain)),
        ("+ shared root window", SearchConfig("alpha-beta", "centre", "depth", root_window="shared", **plain)),
        (
            "+ transposition table",
            SearchConfig("alpha-beta", "centre", "depth", True, "shared", symmetry=False, threats=False),
        ),
        (
            "+ symmetry (root moves, table keys)",
            SearchConfig("alpha-beta", "centre", "depth", True, "shared", symmetry=True, threats=False),
        ),
        ("+ threat rules (DEFAULT)", DEFAULT),
        ("DEFAULT without the table", SearchConfig(transposition=False)),
        ("DEFAULT without symmetry", SearchConfig(symmetry=False)),
        ("DEFAULT in natural order", SearchConfig(ordering="natural")),
        ("minimax + root symmetry", SearchConfig("minimax", "natural", "plain", False, "fresh", True)),
    ]
    print("## Engine configurations, one option at a time (whole search() calls, medians)")
    print()
    print("| Engine configuration | States (empty) | Time (empty) | States (after X centre) | Time (after X centre) |")
    print("|---|---:|---:|---:|---:|")
    for name, config in configs:
        s_empty, t_empty = time_engine(empty, config)
        s_centre, t_centre = time_engine(centre, config)
        print(f"| {name} | {s_empty:,} | {ms(t_empty)} | {s_centre:,} | {ms(t_centre)} |")
    print()

    b_rate = b_mm_empty[0] / b_mm_empty[1]
    e_rate = e_mm_empty[0] / e_mm_empty[1]
    speedup = ratios["empty board"][1]
    targets = [
        (f"engine minimax states/second >= 5x baseline: {e_rate / b_rate:,.1f}x", e_rate >= 5 * b_rate),
        (f"whole 549,945-state minimax tree <= 0.25 s: {e_mm_empty[1]:.3f} s", e_mm_empty[1] <= 0.25),
        (f"DEFAULT first move from the empty board <= 0.2 ms: {empty_default_ms:.3f} ms", empty_default_ms <= 0.2),
        (
            f"DEFAULT >= {SPEED_TARGET:,.0f}x faster than seed 002's alpha-beta on the empty board: {speedup:,.0f}x",
            speedup >= SPEED_TARGET,
        ),
    ]
    for text, ok in targets:
        print(f"- {'PASS' if ok else 'MISS'}: {text}")
    return 0 if all(ok for _, ok in targets) else 1


if __name__ == "__main__":
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    sys.exit(main())
