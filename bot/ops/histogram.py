"""A Prometheus histogram for code that runs on the event loop's thread only: no lock, one ``bisect`` per
observation.

``prometheus_client.Histogram.observe`` takes two locks and scans the buckets in order: measured on this project's
machine under load, it and its labelled lookup were most of the metrics' cost per press (``py-spy`` of
``benchmarks/load.py --metrics``). The bot observes its hot-path histograms (first callbacks, searches, loop lag)
on the event loop, and ``/metrics`` is served by the same loop, so one thread writes and reads them and a lock
buys nothing. The exposition stays ``prometheus_client``'s: :meth:`LoopHistogram.collect` yields a standard
``HistogramMetricFamily``.
"""

from __future__ import annotations

import bisect
import itertools
import math
from collections.abc import Iterable, Sequence

from prometheus_client import CollectorRegistry
from prometheus_client.core import HistogramMetricFamily
from prometheus_client.metrics_core import Metric
from prometheus_client.registry import Collector

__all__ = ["HistogramSeries", "LoopHistogram"]


class HistogramSeries:
    """One label set's buckets (not cumulative) and sum."""

    __slots__ = ("bounds", "counts", "sum")

    def __init__(self, bounds: tuple[float, ...]) -> None:
        self.bounds = bounds
        self.counts = [0] * len(bounds)
        self.sum = 0.0

    def observe(self, amount: float) -> None:
        """Count ``amount`` in the first bucket whose upper bound is at least ``amount`` (``le``)."""
        self.counts[bisect.bisect_left(self.bounds, amount)] += 1
        self.sum += amount


class LoopHistogram(Collector):
    """A histogram named ``name`` with ``labelnames`` and upper bounds ``buckets`` (``+Inf`` is added), registered
    in ``registry``. Observe and collect from one thread (the event loop's).

    Raises:
        ValueError: the buckets are not in increasing order.
    """

    def __init__(
        self,
        name: str,
        documentation: str,
        labelnames: Sequence[str] = (),
        *,
        buckets: Sequence[float],
        registry: CollectorRegistry,
    ) -> None:
        bounds = tuple(float(b) for b in buckets)
        if list(bounds) != sorted(set(bounds)):
            raise ValueError(f"histogram {name!r}: buckets must increase, not {buckets!r}")
        self.name = name
        self.documentation = documentation
        self.labelnames = tuple(labelnames)
        self.bounds = bounds if bounds and math.isinf(bounds[-1]) else (*bounds, math.inf)
        self._series: dict[tuple[str, ...], HistogramSeries] = {}
        registry.register(self)

    def labels(self, *values: str) -> HistogramSeries:
        """The series of ``values`` (in ``labelnames`` order), made on first use.

        Raises:
            ValueError: not one value per label name.
        """
        series = self._series.get(values)
        if series is None:
            if len(values) != len(self.labelnames):
                raise ValueError(f"histogram {self.name!r} takes labels {self.labelnames}, not {values!r}")
            series = self._series[values] = HistogramSeries(self.bounds)
        return series

    def observe(self, amount: float) -> None:
        """Observe ``amount`` in the histogram without labels."""
        self.labels().observe(amount)

    def collect(self) -> Iterable[Metric]:
        """The histogram as Prometheus exposes it: cumulative ``_bucket`` counts by ``le``, ``_count`` and ``_sum``."""
        family = HistogramMetricFamily(self.name, self.documentation, labels=self.labelnames)
        bounds = ["+Inf" if math.isinf(bound) else repr(bound) for bound in self.bounds]
        for values, series in self._series.items():
            cumulative = itertools.accumulate(series.counts)
            family.add_metric(list(values), list(zip(bounds, cumulative, strict=True)), series.sum)
        yield family

    def describe(self) -> Iterable[Metric]:
        """The family without samples (for the registry's name check)."""
        yield HistogramMetricFamily(self.name, self.documentation, labels=self.labelnames)
