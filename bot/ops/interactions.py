"""Interactions observed from outside the handlers: when each arrived, when its first callback left, how it ended.

Two wrappers see every interaction without touching a handler, both installed by :mod:`bot.app.patches`: one
around discord.py's parser of the gateway's ``INTERACTION_CREATE`` (the arrival) and one around its webhook
adapter's ``create_interaction_response`` (the first callback, which every response method sends). The result is
``answered``, ``refused`` when the handler put ``"refused"`` under :data:`RESULT_KEY` in ``interaction.extras``
before answering (a private refusal), ``failed`` when it put ``"failed"`` there (an apology after an error), when
Discord rejected the callback, or when no callback was sent within :data:`~bot.ops.metrics.LATE_SECONDS`.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

import discord

from bot.ops.metrics import INTERACTION_KINDS, LATE_SECONDS, Metrics

__all__ = ["RESULT_KEY", "InteractionTracker"]

RESULT_KEY = "result"
"""The key of ``interaction.extras`` a handler sets to ``"refused"`` or ``"failed"`` before answering."""
ALREADY_ACKNOWLEDGED = 40060


class _Pending:
    __slots__ = ("arrived", "interaction", "kind", "sent")

    def __init__(self, arrived: float, kind: str) -> None:
        self.arrived = arrived
        self.kind = kind
        self.sent = False
        self.interaction: discord.Interaction[Any] | None = None


class InteractionTracker:
    """Counts interactions by kind and result and times their first callbacks into ``metrics``.

    Feed it with :meth:`arrived` (the gateway payload), :meth:`attach` (the ``discord.Interaction``, from an
    ``on_interaction`` listener), and :meth:`callback` (wrapping the first callback's request); :meth:`run` ends
    as failed the interactions left without a callback after ``deadline`` seconds.
    """

    def __init__(
        self, metrics: Metrics, *, deadline: float = LATE_SECONDS, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.metrics = metrics
        self.deadline = deadline
        self.clock = clock
        self._pending: dict[int, _Pending] = {}

    def __len__(self) -> int:
        return len(self._pending)

    def arrived(self, data: dict[str, Any]) -> None:
        """An ``INTERACTION_CREATE`` payload was received."""
        kind = INTERACTION_KINDS.get(int(data.get("type", 0)), "other")
        self._pending[int(data["id"])] = _Pending(self.clock(), kind)

    def attach(self, interaction: discord.Interaction[Any]) -> None:
        """Keep the interaction object, to read the result its handler noted in ``extras``."""
        pending = self._pending.get(interaction.id)
        if pending is not None:
            pending.interaction = interaction

    async def callback(self, interaction_id: int, send: Callable[[], Any]) -> Any:
        """Await ``send()`` (a callback request of ``interaction_id``); the first one is timed and decides the
        interaction's result. Whatever ``send()`` raises is raised again."""
        pending = self._pending.get(interaction_id)
        if pending is None or pending.sent:
            return await send()
        pending.sent = True
        waited = self.clock() - pending.arrived
        self.metrics.first_callback_by(pending.kind).observe(waited)
        late = waited > self.deadline
        if late:
            self.metrics.late_callbacks_by(pending.kind).inc()
        try:
            response = await send()
        except discord.HTTPException as error:
            rejected = error.status < 500 and error.code != ALREADY_ACKNOWLEDGED
            self._finish(interaction_id, "failed" if rejected or late else None)
            raise
        except BaseException:
            self._finish(interaction_id, "failed" if late else None)  # a time-out: Discord may have applied it
            raise
        self._finish(interaction_id, "failed" if late else None)
        return response

    def _finish(self, interaction_id: int, result: str | None) -> None:
        pending = self._pending.pop(interaction_id, None)
        if pending is None:
            return
        if result is None:
            noted = pending.interaction.extras.get(RESULT_KEY) if pending.interaction is not None else None
            result = noted if noted in ("refused", "failed") else "answered"
        self.metrics.interactions_by(pending.kind, result).inc()

    def expire(self) -> int:
        """End as failed every interaction still without a callback after the deadline; returns how many."""
        limit = self.clock() - self.deadline
        expired = [key for key, p in self._pending.items() if not p.sent and p.arrived < limit]
        for key in expired:
            self._finish(key, "failed")
        return len(expired)

    async def run(self, every: float = 1.0) -> None:
        """Call :meth:`expire` every ``every`` seconds, until cancelled."""
        while True:
            await asyncio.sleep(every)
            self.expire()
