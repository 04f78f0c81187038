"""The interaction tracker: results and first-callback times, observed from outside the handlers."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.ops.interactions import RESULT_KEY, InteractionTracker
from bot.ops.metrics import Metrics


class Clock:
    def __init__(self) -> None:
        self.now = 50.0

    def __call__(self) -> float:
        return self.now


def sample(metrics: Metrics, name: str, **labels: str) -> float:
    value = metrics.registry.get_sample_value(name, labels)
    return 0.0 if value is None else value


def http_error(status: int, code: int) -> discord.HTTPException:
    response = SimpleNamespace(status=status, reason="x")
    return discord.HTTPException(response, {"code": code, "message": "x"})  # type: ignore[arg-type]


@pytest.fixture
def tracked() -> tuple[InteractionTracker, Metrics, Clock]:
    clock = Clock()
    metrics = Metrics()
    return InteractionTracker(metrics, clock=clock), metrics, clock


def arrive(tracker: InteractionTracker, interaction_id: int, kind: int, result: str | None = None) -> None:
    tracker.arrived({"id": str(interaction_id), "type": kind})
    interaction: Any = SimpleNamespace(id=interaction_id, extras={} if result is None else {RESULT_KEY: result})
    tracker.attach(interaction)


async def ok() -> str:
    return "sent"


async def test_results_and_times(tracked: tuple[InteractionTracker, Metrics, Clock]) -> None:
    tracker, metrics, clock = tracked
    arrive(tracker, 1, 2)
    arrive(tracker, 2, 3, "refused")
    arrive(tracker, 3, 3, "failed")
    clock.now += 0.2
    assert await tracker.callback(1, ok) == "sent"
    assert await tracker.callback(1, ok) == "sent"  # a second callback (a followup) counts nothing more
    await tracker.callback(2, ok)
    await tracker.callback(3, ok)
    assert sample(metrics, "ttt_interactions_total", kind="command", result="answered") == 1
    assert sample(metrics, "ttt_interactions_total", kind="button", result="refused") == 1
    assert sample(metrics, "ttt_interactions_total", kind="button", result="failed") == 1
    assert sample(metrics, "ttt_interaction_first_callback_seconds_count", kind="button") == 2
    assert sample(metrics, "ttt_interaction_first_callback_seconds_sum", kind="command") == pytest.approx(0.2)
    assert sample(metrics, "ttt_interaction_late_callbacks_total", kind="command") == 0
    assert len(tracker) == 0


async def test_late_rejected_and_missing_callbacks_fail(tracked: tuple[InteractionTracker, Metrics, Clock]) -> None:
    tracker, metrics, clock = tracked
    arrive(tracker, 1, 3)
    arrive(tracker, 2, 3)
    arrive(tracker, 3, 3)
    arrive(tracker, 4, 3)
    clock.now += 3.5
    await tracker.callback(1, ok)  # late: Discord has shown "This interaction failed" already

    async def rejected() -> None:
        raise http_error(400, 40060 + 1)

    async def unknown() -> None:
        raise http_error(503, 0)

    with pytest.raises(discord.HTTPException):
        await tracker.callback(2, rejected)
    clock.now -= 3.0
    with pytest.raises(discord.HTTPException):
        await tracker.callback(3, unknown)  # a 5xx in time: Discord may have applied it
    clock.now += 3.0
    assert tracker.expire() == 1  # 4 never got a callback
    assert sample(metrics, "ttt_interactions_total", kind="button", result="failed") == 3
    assert sample(metrics, "ttt_interactions_total", kind="button", result="answered") == 1
    assert sample(metrics, "ttt_interaction_late_callbacks_total", kind="button") == 2  # 1 and 2
    assert len(tracker) == 0


Tracked = tuple[InteractionTracker, Metrics, Clock]


async def test_callbacks_of_unknown_interactions_pass_through(tracked: Tracked) -> None:
    tracker, metrics, _ = tracked
    assert await tracker.callback(99, ok) == "sent"
    assert sample(metrics, "ttt_interaction_first_callback_seconds_count", kind="button") == 0
