"""The figures of one bot under one load (:class:`RunResult`) and the quantiles they are read with."""

from __future__ import annotations

import collections
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.harness.process import BotProcess
from testing.fake_discord import FakeDiscord

__all__ = ["LATE", "RunResult", "collect", "quantile_ms", "with_profile"]

LATE = 3.0
"""Discord refuses a first callback later than this many seconds."""


@dataclass
class RunResult:
    """The figures of one bot under one N."""

    bot: str
    n: int
    moves: int = 0
    games: int = 0
    """Games finished in the timed phase."""
    elapsed: float = 0.0
    latencies: list[float] = field(default_factory=list)
    """Press-to-first-callback latencies (s) in the timed phase."""
    start_latencies: list[float] = field(default_factory=list)
    """``/ttt start`` latencies (s), every phase."""
    late: int = 0
    """Interactions (every phase) answered after ``LATE`` seconds, or never."""
    records: int = 0
    violations: list[str] = field(default_factory=list)
    unknown_routes: list[str] = field(default_factory=list)
    refused: int = 0
    """Presses answered with something other than a board update (none expected)."""
    cpu_main: float = 0.0
    cpu_children: float = 0.0
    children: int = 0
    cpu_driver: float = 0.0
    """CPU seconds of this process (the fake Discord and the players) in the timed phase."""
    hwm_main_kb: int = 0
    hwm_children_kb: list[int] = field(default_factory=list)
    rss_before_kb: int = 0
    rss_held_kb: int = 0
    lag_ms: float | None = None
    """Worst event-loop lag over the timed phase."""
    cpu_by_process: list[float] = field(default_factory=list)
    """CPU seconds of each bot process (with its workers) in the timed phase, in shard order."""
    moves_by_guild: collections.Counter[str] = field(default_factory=collections.Counter)
    """Timed-phase presses per guild (one guild per shard)."""
    metered_shard: int | None = None
    """With ``metrics``: the shard process whose metrics were on (the others had them off)."""
    lag_start_ms: float | None = None
    """Worst event-loop lag since the bot started (startup, warm-up and the hold phase included)."""
    finished: int = 0
    """Games that ended on their board, in every phase: the records the bot must have written."""
    stored: int = 0
    """Rows in the records database after the bot stopped."""
    memory_top: list[str] = field(default_factory=list)
    """With ``--tracemalloc``: what the held games added to the heap, by line of code."""
    samples: str | None = None
    """With ``--py-spy DIR``: the raw py-spy stacks of the timed phase."""
    errors: list[str] = field(default_factory=list)
    profile: str | None = None

    def pct(self, q: float) -> float:
        """The ``q`` quantile (nearest rank) of the timed-phase press latencies, in ms."""
        return quantile_ms(self.latencies, q)

    def pct_start(self, q: float) -> float:
        """The ``q`` quantile (nearest rank) of the ``/ttt start`` latencies, in ms."""
        return quantile_ms(self.start_latencies, q)

    @property
    def moves_per_s(self) -> float:
        return self.moves / self.elapsed if self.elapsed else math.nan

    @property
    def cpu_per_press_ms(self) -> float:
        """Bot CPU (main process and workers) per timed-phase press, in ms."""
        return self.per_move_ms(self.cpu_main + self.cpu_children)

    @property
    def cpu_per_interaction_ms(self) -> float:
        """Bot CPU per timed-phase interaction (the presses and the ``/ttt start`` of each new game), in ms."""
        interactions = self.moves + self.games
        return (self.cpu_main + self.cpu_children) * 1000 / interactions if interactions else math.nan

    def per_move_ms(self, seconds: float) -> float:
        """``seconds`` of CPU per timed-phase move, in ms."""
        return seconds * 1000 / self.moves if self.moves else math.nan

    @property
    def kb_per_game(self) -> float | None:
        """(VmRSS with N games held mid-game - VmRSS before they started) / N, in KB."""
        return (self.rss_held_kb - self.rss_before_kb) / self.n if self.rss_held_kb else None


def quantile_ms(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0-1, nearest rank) of ``values`` (seconds), in ms; NaN when there are none."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)] * 1000


def collect(result: RunResult, fake: FakeDiscord, bots: Sequence[BotProcess]) -> None:
    result.records = len(fake.records)
    result.late = sum(1 for r in fake.records if r.latency is None or r.latency > LATE)
    result.violations = [str(v) for v in fake.violations]
    result.unknown_routes = list(fake.unknown_routes)
    result.errors = [line for bot in bots for line in bot.errors()]
    lags = [lag for bot in bots if (lag := bot.lag_since_start_ms()) is not None]
    result.lag_start_ms = max(lags, default=None)


def with_profile(result: RunResult, profile: Path | None) -> RunResult:
    if profile is not None and profile.exists():
        result.profile = str(profile)
    return result
