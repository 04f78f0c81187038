"""The load benchmark's targets, judged at N=100 on the median of the runs: one PASS/MISS line each."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from benchmarks.harness.report import Row, fmt
from benchmarks.harness.results import LATE, RunResult

__all__ = ["TARGET_N", "targets"]

TARGET_N = 100
"""The issue's targets hold at 100 concurrent games."""
CPU_RATIO_TARGET = 1.4
P99_RATIO_TARGET = 1.5
MEMORY_TARGET_KB = 10.0
LAG_TARGET_MS = 50.0


def _judged(ratio: float, limit: float, line: str, why: list[str]) -> tuple[bool, str, list[str]]:
    """A ratio target's result: passed when ``ratio`` ≤ ``limit``; the why lines only when it missed."""
    return ratio <= limit, line, why if ratio > limit else []


def targets(rows: Sequence[Row]) -> list[tuple[bool | None, str, list[str]]]:
    """``(passed, or None when not measured; the PASS/MISS line; why lines)`` per target of the issue, at N=100."""
    out: list[tuple[bool | None, str, list[str]]] = []
    pairs = [(ours, floors[0]) for ours, floors, _ in rows if ours.n == TARGET_N and floors]
    at = f"at N={TARGET_N}"
    if not pairs:
        out.append((None, f"CPU per press and p99 {at} against the floor: N={TARGET_N} with a floor not run", []))
    else:
        out.append(_against_floor(pairs, "CPU per press", CPU_RATIO_TARGET, _cpu, 2, _cpu_why))
        out.append(_against_floor(pairs, "p99", P99_RATIO_TARGET, _p99, 1, _p99_why))
    held = [ours for ours, _, _ in rows if ours.n == TARGET_N and ours.kb_per_game is not None]
    if not held:
        out.append((None, f"memory per active game {at}: not run", []))
    else:
        ours = sorted(held, key=lambda r: r.kb_per_game or 0.0)[len(held) // 2]
        kb = ours.kb_per_game
        why = [f"VmRSS {ours.rss_before_kb} kB before, {ours.rss_held_kb} kB with {ours.n} games held"]
        out.append(
            (
                None if kb is None else kb <= MEMORY_TARGET_KB,
                f"RSS per active game {at} ≤ {MEMORY_TARGET_KB:g} KB: {fmt(kb)} KB",
                why,
            )
        )

    every = [r for ours, floors, scaled in rows for r in (ours, *floors, *scaled)]
    late = sum(r.late for r in every)
    problems = [f"{r.bot} N={r.n}: {len(r.violations)} violations, first: {r.violations[:1]}" for r in every]
    problems = [line for line, r in zip(problems, every, strict=True) if r.violations]
    out.append(
        (
            late == 0 and not problems,
            f"zero callbacks past {LATE:g} s: {late} late, in {sum(r.records for r in every)} interactions",
            [f"{r.bot} N={r.n}: {r.late} late" for r in every if r.late] + problems,
        )
    )

    ours_runs = [r for ours, _, scaled in rows for r in (ours, *scaled)]
    lost = [f"{r.bot} N={r.n}: {r.stored} of {r.finished} ended games stored" for r in ours_runs]
    lost = [line for line, r in zip(lost, ours_runs, strict=True) if r.stored != r.finished]
    out.append(
        (
            not lost,
            f"records written: every ended game is in the records database ({sum(r.stored for r in ours_runs)} games)",
            lost,
        )
    )

    # A saturated closed loop queues work on every bot's loop, the floor's too: the searches' own share of the lag
    # is what ours adds to the floor's under the same load.
    excess = [
        (ours.lag_ms - floors[0].lag_ms, ours, floors[0])
        for ours, floors, _ in rows
        if floors and ours.lag_ms is not None and floors[0].lag_ms is not None
    ]
    worst = max(excess, default=None, key=lambda item: item[0])
    out.append(
        (
            None if worst is None else worst[0] <= LAG_TARGET_MS,
            "event-loop lag while searches run ≤ the floor's + "
            + (
                f"{LAG_TARGET_MS:g} ms: worst {fmt(worst[1].lag_ms)} ms vs the floor's {fmt(worst[2].lag_ms)} ms "
                f"(N={worst[1].n})"
                if worst is not None
                else f"{LAG_TARGET_MS:g} ms: not measured"
            ),
            [],
        )
    )
    return out


Pair = tuple[RunResult, RunResult]
"""Our bot and the floor, run under the same load one after the other."""


def _cpu(result: RunResult) -> float:
    return result.cpu_per_press_ms


def _p99(result: RunResult) -> float:
    return result.pct(0.99)


def _cpu_why(ours: RunResult, floor: RunResult) -> list[str]:
    per_interaction = ours.cpu_per_interaction_ms / floor.cpu_per_interaction_ms
    return [
        f"a press in our bot is the player's move, the bot's search (in an executor) and the reply in one message "
        f"update; every {ours.moves / max(ours.games, 1):.1f} presses a game ends and the player sends /ttt start, "
        f"so per interaction our bot spends {ours.cpu_per_interaction_ms:.2f} ms "
        f"({per_interaction:.2f}x the floor's per press)",
    ]


def _p99_why(ours: RunResult, floor: RunResult) -> list[str]:
    return [
        f"closed loop: {TARGET_N} presses are always in flight, so latency ≈ {TARGET_N} / throughput: ours "
        f"{ours.moves_per_s:.0f} presses/s vs the floor's {floor.moves_per_s:.0f}; the p99 follows the CPU per "
        f"press (with --think the bot is not saturated)",
    ]


def _against_floor(
    pairs: Sequence[Pair],
    name: str,
    limit: float,
    figure: Callable[[RunResult], float],
    digits: int,
    why: Callable[[RunResult, RunResult], list[str]],
) -> tuple[bool, str, list[str]]:
    """A target on ``figure`` (ms) of ours ÷ the floor's, judged on the pair whose ratio is the median (the upper one
    of an even count), with every run's ratio when the load ran more than once."""
    ratios = sorted((figure(o) / figure(f), i) for i, (o, f) in enumerate(pairs))
    ratio, median = ratios[len(ratios) // 2]
    ours, floor = pairs[median]
    line = (
        f"{name} at N={TARGET_N} ≤ {limit:g}x the floor's: {figure(ours):.{digits}f} ms vs "
        f"{figure(floor):.{digits}f} ms = {ratio:.2f}x"
    )
    if len(pairs) > 1:
        line += f", the median of {len(pairs)} runs: " + ", ".join(f"{r:.2f}x" for r, _ in ratios)
    return _judged(ratio, limit, line, why(ours, floor))
