"""The bot's Prometheus metrics, in a registry of their own, with the process and platform collectors.

Names follow Prometheus's conventions (https://prometheus.io/docs/practices/naming/): base units (seconds),
``_total`` on counters, the unit as suffix. Every metric is prefixed ``ttt_``. ``variant`` names the board
(``3x3`` today); it comes from the game, so new variants become new label values.

Values that exist elsewhere in the bot (games running, queue depths, gateway latency, shard state) are read at
scrape time by :class:`StateCollector`, so keeping them costs nothing between scrapes.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Generic, TypeVar

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.gc_collector import GCCollector
from prometheus_client.metrics_core import Metric
from prometheus_client.platform_collector import PlatformCollector
from prometheus_client.process_collector import ProcessCollector
from prometheus_client.registry import Collector

from engine import VARIANTS

__all__ = [
    "INTERACTION_KINDS",
    "LATE_SECONDS",
    "SEARCHED_VARIANTS",
    "SEARCH_STAGES",
    "Children",
    "Metrics",
    "Readings",
    "StateCollector",
]

LATE_SECONDS = 3.0
"""Discord's deadline for an interaction's first callback; later, the user sees "This interaction failed"."""

SEARCHED_VARIANTS = tuple(VARIANTS)
"""The games registered when the metrics are made (``ttt_search_failures_total`` starts at 0 for each)."""
SEARCH_STAGES = ("search", "retry", "fallback")
"""The ``stage`` label of ``ttt_search_failures_total`` (:data:`bot.games.bot_moves.Stage`)."""

INTERACTION_KINDS = {1: "ping", 2: "command", 3: "button", 4: "autocomplete", 5: "modal"}
"""Interaction type (Discord's ``InteractionType``) to the ``kind`` label; components here are buttons."""

_ANSWER_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0)
_SEARCH_SECONDS_BUCKETS = (1e-5, 3e-5, 1e-4, 3e-4, 1e-3, 3e-3, 0.01, 0.03, 0.1, 0.3, 1.0, 3.0)
_STATES_BUCKETS = (1, 10, 30, 100, 300, 1_000, 3_000, 10_000, 30_000, 100_000, 300_000, 1_000_000)
_LAG_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


_M = TypeVar("_M", Counter, Histogram)


class Children(Generic[_M]):
    """``metric``'s child per label values, kept in a dict: ``labels()`` validates and locks on every call
    (measured here: 11 us for ``labels(...).inc()`` against 4 us for ``inc()`` on a kept child)."""

    def __init__(self, metric: _M) -> None:
        self.metric: _M = metric
        self._children: dict[tuple[str, ...], _M] = {}

    def __call__(self, *values: str) -> _M:
        """The child of ``values`` (in the metric's label order)."""
        child = self._children.get(values)
        if child is None:
            child = self._children[values] = self.metric.labels(*values)
        return child


class Metrics:
    """Every metric the bot updates as things happen, registered in ``registry`` (a new one by default).

    Counters and histograms only; gauges of the bot's state come from a :class:`StateCollector` registered
    with :meth:`watch`.
    """

    def __init__(self, registry: CollectorRegistry | None = None) -> None:
        self.registry = registry or CollectorRegistry()
        r = self.registry
        ProcessCollector(registry=r)
        PlatformCollector(registry=r)
        GCCollector(registry=r)
        self.interactions = Counter(
            "ttt_interactions",
            "Interactions by kind (command, button) and result (answered, refused, failed).",
            ["kind", "result"],
            registry=r,
        )
        self.first_callback = Histogram(
            "ttt_interaction_first_callback_seconds",
            "Time from an interaction's arrival to the bot sending its first callback.",
            ["kind"],
            buckets=_ANSWER_BUCKETS,
            registry=r,
        )
        self.late_callbacks = Counter(
            "ttt_interaction_late_callbacks",
            f"First callbacks sent more than {LATE_SECONDS:g} s after the interaction arrived.",
            ["kind"],
            registry=r,
        )
        self.search_seconds = Histogram(
            "ttt_search_duration_seconds",
            "Time of the bot's move searches (in the worker), by variant and algorithm.",
            ["variant", "algorithm"],
            buckets=_SEARCH_SECONDS_BUCKETS,
            registry=r,
        )
        self.search_states = Histogram(
            "ttt_search_states_evaluated",
            "States evaluated by each of the bot's move searches, by variant and algorithm.",
            ["variant", "algorithm"],
            buckets=_STATES_BUCKETS,
            registry=r,
        )
        self.search_failures = Counter(
            "ttt_search_failures",
            "Failed attempts at the bot's move on a slow variant, by variant and stage: search (in the worker pool),"
            " retry (its second try), fallback (the cheap move in the bot's process; after it the bot gives up).",
            ["variant", "stage"],
            registry=r,
        )
        self.games_started = Counter(
            "ttt_games_started", "Games and challenges opened, by variant.", ["variant"], registry=r
        )
        self.games_finished = Counter(
            "ttt_games_finished", "Games ended, by variant and end reason.", ["variant", "reason"], registry=r
        )
        self.records_written = Counter("ttt_records_written", "Finished games written to the database.", registry=r)
        self.records_failures = Counter(
            "ttt_records_write_failures", "Failed attempts to write a batch of finished games.", registry=r
        )
        self.records_last_write = Gauge(
            "ttt_records_last_write_timestamp_seconds",
            "Unix time of the last successful write of finished games.",
            registry=r,
        )
        self.search_kernel = Gauge(
            "ttt_search_kernel",
            "1 for the kernel each game's search runs in this process: C, or its pure-Python twin (about 50x slower on"
            " ultimate) when the C extension did not build or TTT_ENGINE_PURE_PYTHON is set.",
            ["variant", "kernel"],
            registry=r,
        )
        for name, game in VARIANTS.items():
            self.search_kernel.labels(name, game.kernel()).set(1)
        self.reconnects = Counter(
            "ttt_gateway_reconnects", "Gateway reconnections (resumed or identified again).", ["shard"], registry=r
        )
        self.loop_lag = Histogram(
            "ttt_event_loop_lag_seconds",
            "How late the event loop wakes a task sleeping 50 ms (sampled every 50 ms).",
            buckets=_LAG_BUCKETS,
            registry=r,
        )

        self.interactions_by = Children(self.interactions)
        self.first_callback_by = Children(self.first_callback)
        self.late_callbacks_by = Children(self.late_callbacks)
        self.search_seconds_by = Children(self.search_seconds)
        self.search_states_by = Children(self.search_states)
        self.search_failures_by = Children(self.search_failures)
        self.games_started_by = Children(self.games_started)
        self.games_finished_by = Children(self.games_finished)
        self.reconnects_by = Children(self.reconnects)
        for kind in ("command", "button"):  # exported as 0 before the first one, so rates and alerts see them
            self.late_callbacks_by(kind)
            for result in ("answered", "refused", "failed"):
                self.interactions_by(kind, result)
        for variant in SEARCHED_VARIANTS:
            for stage in SEARCH_STAGES:
                self.search_failures_by(variant, stage)

    def watch(self, readings: Readings) -> None:
        """Register the gauges read from the bot at each scrape."""
        self.registry.register(StateCollector(readings))


@dataclass(frozen=True, slots=True)
class Readings:
    """Where :class:`StateCollector` reads the bot's state; each callable is called at every scrape."""

    games_running: Callable[[], int]
    search_queue: Callable[[], int]
    records_queue: Callable[[], int]
    gateway_latency: Callable[[], Mapping[int, float]]
    """Seconds by shard id (inf or nan while unknown: left out)."""
    shards_connected: Callable[[], Mapping[int, bool]]
    database_up: Callable[[], bool]


class StateCollector(Collector):
    """Gauges of the bot's state, read when Prometheus scrapes."""

    def __init__(self, readings: Readings) -> None:
        self.readings = readings

    def collect(self) -> Iterable[Metric]:
        """The current values (called by the registry at each scrape)."""
        r = self.readings
        yield GaugeMetricFamily("ttt_games_running", "Games and challenges in progress.", value=r.games_running())
        yield GaugeMetricFamily(
            "ttt_search_queue_depth", "Searches (moves, hints, reviews) submitted and not yet done.", r.search_queue()
        )
        yield GaugeMetricFamily(
            "ttt_records_queue_depth", "Finished games waiting to be written.", value=r.records_queue()
        )
        latency = GaugeMetricFamily(
            "ttt_gateway_latency_seconds", "Time between a heartbeat and its acknowledgement.", labels=["shard"]
        )
        for shard, seconds in sorted(r.gateway_latency().items()):
            if math.isfinite(seconds):
                latency.add_metric([str(shard)], seconds)
        yield latency
        connected = GaugeMetricFamily(
            "ttt_shard_connected", "1 while the shard's gateway connection is up, else 0.", labels=["shard"]
        )
        for shard, up in sorted(r.shards_connected().items()):
            connected.add_metric([str(shard)], 1.0 if up else 0.0)
        yield connected
        yield GaugeMetricFamily(
            "ttt_records_database_up", "1 when the records database answered its last probe, else 0.", r.database_up()
        )
