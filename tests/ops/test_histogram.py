"""The event-loop histogram: the same exposition as prometheus_client's Histogram for the same observations."""

from __future__ import annotations

import pytest
from prometheus_client import CollectorRegistry, Histogram, generate_latest

from bot.ops.histogram import LoopHistogram

BUCKETS = (0.01, 0.1, 1.0, 10.0)
OBSERVED = [0.0, 0.01, 0.010001, 0.05, 0.1, 0.5, 1.0, 3.0, 10.0, 11.0, 1e9]


def samples(registry: CollectorRegistry) -> list[str]:
    """The exposition's sample lines, without comments and ``_created``."""
    text = generate_latest(registry).decode()
    return sorted(line for line in text.splitlines() if line and not line.startswith("#") and "_created" not in line)


def test_the_exposition_equals_prometheus_clients_histogram() -> None:
    ours, theirs = CollectorRegistry(), CollectorRegistry()
    loop = LoopHistogram("ttt_x_seconds", "x", ["kind"], buckets=BUCKETS, registry=ours)
    reference = Histogram("ttt_x_seconds", "x", ["kind"], buckets=BUCKETS, registry=theirs)
    for index, amount in enumerate(OBSERVED):
        kind = "button" if index % 3 else "command"
        loop.labels(kind).observe(amount)
        reference.labels(kind).observe(amount)
    assert samples(ours) == samples(theirs)
    assert 'ttt_x_seconds_bucket{kind="button",le="0.01"} 1.0' in samples(ours)  # 0.01 itself: le is inclusive


def test_without_labels_and_with_bad_ones() -> None:
    registry = CollectorRegistry()
    lag = LoopHistogram("ttt_lag_seconds", "lag", buckets=(0.5,), registry=registry)
    lag.observe(0.25)
    lag.observe(2.0)
    assert registry.get_sample_value("ttt_lag_seconds_bucket", {"le": "0.5"}) == 1
    assert registry.get_sample_value("ttt_lag_seconds_bucket", {"le": "+Inf"}) == 2
    assert registry.get_sample_value("ttt_lag_seconds_sum") == 2.25
    with pytest.raises(ValueError, match="takes labels"):
        lag.labels("extra")
    with pytest.raises(ValueError, match="must increase"):
        LoopHistogram("ttt_bad", "bad", buckets=(1.0, 0.5), registry=registry)
