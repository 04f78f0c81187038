"""The load benchmark's tables and summary lines (Markdown), from its :class:`RunResult` values."""

from __future__ import annotations

import math
import pstats
import statistics
import sys
from collections.abc import Sequence

from benchmarks.harness.launcher import ROOT, checkout_name
from benchmarks.harness.results import RunResult

__all__ = [
    "History",
    "Row",
    "fmt",
    "history_table",
    "metrics_cost",
    "minimal_comparison",
    "print_profile",
    "scaling",
    "table",
    "table_head",
]


def fmt(value: float | None, digits: int = 1) -> str:
    return "n/a" if value is None or math.isnan(value) else f"{value:.{digits}f}"


def _mb(kb: int) -> str:
    return f"{kb / 1024:.1f}"


def table_head(head: Sequence[str]) -> list[str]:
    """A Markdown table's first two lines for the column titles ``head``."""
    return ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]


Row = tuple[RunResult, Sequence[RunResult], Sequence[RunResult]]
"""Per N: our bot in one process; the reference bots: the floor (the first, the one compared with), the raw floor and
the minimal bot when run; our bot in more processes."""


def table(rows: Sequence[Row]) -> str:
    """The Markdown table: per N our bot, the floor(s), then our bot in more processes."""
    head = [
        "N",
        "bot",
        "presses",
        "presses/s",
        "p50 ms",
        "p99 ms",
        "max ms",
        "p99 ÷ floor",
        "callbacks > 3 s",
        "CPU ms/press (main + workers)",
        "CPU ms/interaction",
        "CPU/press ÷ floor",
        "peak RSS MB (main; workers)",
        "KB per active game",
        "games stored / ended",
        "worst loop lag ms",
    ]
    lines = table_head(head)
    for ours, floors, scaled in rows:
        floor = floors[0] if floors else None
        for res in (ours, *floors, *scaled):
            compared = floor is not None and not res.bot.startswith("floor")
            cpu = fmt(res.per_move_ms(res.cpu_main + res.cpu_children), 2)
            if res.children:
                cpu += f" ({fmt(res.per_move_ms(res.cpu_main), 2)} + {fmt(res.per_move_ms(res.cpu_children), 2)})"
            rss = _mb(res.hwm_main_kb)
            if res.hwm_children_kb:
                rss += "; " + ", ".join(_mb(k) for k in res.hwm_children_kb)
            kb = res.kb_per_game
            cells = [
                str(res.n),
                res.bot,
                str(res.moves),
                fmt(res.moves_per_s, 0),
                fmt(res.pct(0.5)),
                fmt(res.pct(0.99)),
                fmt(res.pct(1.0)),
                f"{res.pct(0.99) / floor.pct(0.99):.2f}x" if compared and floor else "",
                str(res.late),
                cpu,
                fmt(res.cpu_per_interaction_ms, 2),
                f"{res.cpu_per_press_ms / floor.cpu_per_press_ms:.2f}x" if compared and floor else "",
                rss,
                "" if kb is None else f"{kb:.1f}",
                f"{res.stored} / {res.finished}" if res.finished else "",
                fmt(res.lag_ms),
            ]
            lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def scaling(rows: Sequence[Row]) -> list[str]:
    """One line per N run in more processes: presses per second and p99, against one process."""
    out = []
    for ours, _, scaled in rows:
        for more in scaled:
            out.append(
                f"N={ours.n}: 1 process {ours.moves_per_s:.0f} presses/s, p99 {ours.pct(0.99):.0f} ms; {more.bot}: "
                f"{more.moves_per_s:.0f} presses/s ({more.moves_per_s / ours.moves_per_s:.2f}x), "
                f"p99 {more.pct(0.99):.0f} ms ({more.pct(0.99) / ours.pct(0.99):.2f}x)"
            )
    return out


def minimal_comparison(rows: Sequence[Row]) -> list[str]:
    """One line per N run with the minimal bot: its CPU per press against the floor's, and ours against its."""
    out = []
    for ours, references, _ in rows:
        minimal = next((r for r in references if r.bot == "minimal"), None)
        if minimal is None or not references or minimal is references[0]:
            continue
        floor = references[0]
        out.append(
            f"N={ours.n}: CPU per press: minimal {minimal.cpu_per_press_ms:.2f} ms = "
            f"{minimal.cpu_per_press_ms / floor.cpu_per_press_ms:.2f}x the floor's; ours {ours.cpu_per_press_ms:.2f} ms"
            f" = {ours.cpu_per_press_ms / minimal.cpu_per_press_ms:.2f}x the minimal bot's (per interaction: minimal "
            f"{minimal.cpu_per_interaction_ms:.2f} ms, ours {ours.cpu_per_interaction_ms:.2f} ms); p99 minimal "
            f"{minimal.pct(0.99):.0f} ms, ours {ours.pct(0.99):.0f} ms"
        )
    return out


def print_profile(path: str, title: str, limit: int = 15) -> None:
    print(f"\n#### {title}: top {limit} functions by own time ({path})\n```")
    stats = pstats.Stats(path, stream=sys.stdout)
    stats.sort_stats("tottime").print_stats(limit)
    print("```")


History = tuple[RunResult, Sequence[RunResult], RunResult]
"""Per N with ``--bot-root``: this checkout's bot, the other checkouts' bots and the floor, under the same load."""


def history_table(history: Sequence[History]) -> str:
    """A Markdown table per N of ``--bot-root``: each checkout's CPU per 3x3 press, the floor's in the same run,
    their ratio, and each against this checkout's."""
    head = [
        "N",
        "bot (commit)",
        "presses",
        "CPU ms/press",
        "floor CPU ms/press",
        "÷ floor",
        "÷ this checkout",
        "p99 ms",
    ]
    lines = table_head(head)
    for ours, others, floor in history:
        for res in (*others, ours):
            name = res.bot if res is not ours else f"ours @ {checkout_name(ROOT)} (this checkout)"
            cells = [
                str(res.n),
                name,
                str(res.moves),
                fmt(res.cpu_per_press_ms, 3),
                fmt(floor.cpu_per_press_ms, 3),
                f"{res.cpu_per_press_ms / floor.cpu_per_press_ms:.2f}x",
                f"{res.cpu_per_press_ms / ours.cpu_per_press_ms:.2f}x",
                fmt(res.pct(0.99)),
            ]
            lines.append("| " + " | ".join(cells) + " |")
    if len(history) > 1:  # the medians over the runs, per checkout (the same order in every run)
        for index, name in enumerate([*(res.bot for res in history[0][1]), "ours (this checkout)"]):
            runs = [(o, [*others, o][index], f) for o, others, f in history]
            cpu = statistics.median(r.cpu_per_press_ms for _, r, _ in runs)
            per_floor = statistics.median(r.cpu_per_press_ms / f.cpu_per_press_ms for _, r, f in runs)
            per_ours = statistics.median(r.cpu_per_press_ms / o.cpu_per_press_ms for o, r, _ in runs)
            lines.append(f"| median of {len(runs)} | {name} | | {cpu:.3f} | | {per_floor:.2f}x | {per_ours:.2f}x | |")
    return "\n".join(lines)


def metrics_cost(metered: Sequence[RunResult]) -> list[str]:
    """One line per ``--metrics`` run (two shard processes side by side, one with its metrics on): the CPU per press
    of each, their ratio, and the median ratio."""
    lines, ratios = [], []
    for res in metered:
        assert res.metered_shard is not None and len(res.cpu_by_process) == 2
        guilds = list(res.moves_by_guild)
        on_shard, off_shard = res.metered_shard, 1 - res.metered_shard
        on_presses, off_presses = res.moves_by_guild[guilds[on_shard]], res.moves_by_guild[guilds[off_shard]]
        if not on_presses or not off_presses:
            lines.append(f"N={res.n}: no presses on a shard ({on_presses} with metrics, {off_presses} without)")
            continue
        on_ms = res.cpu_by_process[on_shard] * 1000 / on_presses
        off_ms = res.cpu_by_process[off_shard] * 1000 / off_presses
        ratios.append(on_ms / off_ms)
        lines.append(
            f"N={res.n}: CPU per press {off_ms:.3f} ms without metrics (shard {off_shard}, {off_presses} presses), "
            f"{on_ms:.3f} ms with (shard {on_shard}, {on_presses} presses): {on_ms / off_ms:.3f}x"
        )
    if ratios:
        median = statistics.median(ratios)
        lines.append(f"median ratio {median:.3f}x over {len(ratios)} runs (target: at most 1.05x)")
    return lines
