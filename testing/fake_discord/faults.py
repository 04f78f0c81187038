"""The network between the bot and the fake: the round trip added to every REST answer, and the failures
:meth:`FakeDiscord.inject` makes chosen requests meet (429, 5xx, lost answers, dropped connections, slow answers)."""

from __future__ import annotations

import contextlib
import math
import random
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from aiohttp import web

from testing.fake_discord.protocol import CALLBACK_ROUTE, JSON_HEADERS, RATE_LIMIT_BODY, dumps, json_response
from testing.fake_discord.records import InteractionRecord


@dataclass(eq=False)
class Fault:
    """An injected failure (see :meth:`FakeDiscord.inject`); ``hits`` lists the requests it answered."""

    method: str
    route: re.Pattern[str]
    status: int | None
    retry_after: float
    global_: bool
    remaining: int | None  # None: always
    applied: bool
    drop: bool
    delay: float | None
    code: int
    message: str | None
    interaction: Callable[[InteractionRecord], bool] | None
    hits: list[str] = field(default_factory=list)

    @property
    def active(self) -> bool:
        """Whether it still answers requests (``times`` not used up)."""
        return self.remaining is None or self.remaining > 0

    def matches(self, method: str, path: str, record: InteractionRecord | None) -> bool:
        """Whether this active fault applies to a request (path without the API prefix)."""
        if not self.active or self.method not in ("*", method) or self.route.search(path) is None:
            return False
        return self.interaction is None or (record is not None and self.interaction(record))

    def take(self) -> None:
        """Reserve one use (at match time, so concurrent requests can't share the last one)."""
        if self.remaining is not None:
            self.remaining -= 1

    def give_back(self) -> None:
        """Return a reserved use that did not happen (an ``applied`` fault whose request failed anyway)."""
        if self.remaining is not None:
            self.remaining += 1

    def response(self, bucket: str) -> web.Response | None:
        """What the client gets: Discord's 429 (with the headers discord.py honours), a 5xx/4xx body, or ``None``
        for a dropped connection (or a fault that only delays)."""
        if self.drop or self.status is None:
            return None
        if self.status == 429:
            reset_after = f"{self.retry_after:.3f}"
            headers = {
                **JSON_HEADERS,
                "Retry-After": str(math.ceil(self.retry_after)),
                "X-RateLimit-Limit": "5",
                "X-RateLimit-Remaining": "0",
                "X-RateLimit-Reset": f"{time.time() + self.retry_after:.3f}",
                "X-RateLimit-Reset-After": reset_after,
                "X-RateLimit-Bucket": bucket,
                "X-RateLimit-Scope": "global" if self.global_ else "user",
                "Via": "1.1 google",  # without it discord.py takes a 429 for a Cloudflare ban and gives up
            }
            if self.global_:
                headers["X-RateLimit-Global"] = "true"
            body = {"message": RATE_LIMIT_BODY, "retry_after": self.retry_after, "global": self.global_}
            return web.Response(body=dumps(body).encode(), status=429, headers=headers)
        reason = self.message or {500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable"}.get(
            self.status, "Error"
        )
        body = {"message": reason if self.status < 500 else f"{self.status}: {reason}", "code": self.code}
        return json_response(body, self.status)


class Network:
    """The part of :class:`FakeDiscord` that decides how each REST request is answered on the way back: its round
    trip (drawn from :attr:`latency` with :attr:`rng`) and the injected :attr:`faults` it meets."""

    rng: random.Random
    faults: list[Fault]

    @property
    def latency(self) -> tuple[float, float]:
        """The (low, high) range in seconds of the round trip added to every REST answer."""
        return self._latency

    @latency.setter
    def latency(self, value: tuple[float, float]) -> None:
        self._latency = self._checked_range(value)

    @property
    def callback_latency(self) -> tuple[float, float] | None:
        """The range for interaction callback answers; ``None``: :attr:`latency`."""
        return self._callback_latency

    @callback_latency.setter
    def callback_latency(self, value: tuple[float, float] | None) -> None:
        self._callback_latency = None if value is None else self._checked_range(value)

    @staticmethod
    def _checked_range(value: tuple[float, float]) -> tuple[float, float]:
        low, high = (float(v) for v in value)
        if not 0 <= low <= high:
            raise ValueError(f"a latency range needs 0 <= low <= high, got {value!r}")
        return low, high

    def _draw_delay(self, route: str) -> float:
        low, high = (self.callback_latency if route == CALLBACK_ROUTE else None) or self.latency
        return low if low == high else self.rng.uniform(low, high)

    def inject(
        self,
        method: str,
        route_regex: str,
        *,
        status: int | None = 429,
        retry_after: float = 1.0,
        times: int | Literal["always"] = 1,
        global_: bool = False,
        applied: bool = False,
        drop: bool = False,
        delay: float | None = None,
        code: int = 0,
        message: str | None = None,
        interaction: Callable[[InteractionRecord], bool] | None = None,
    ) -> Fault:
        """Make the next ``times`` matching REST requests (or every one: ``"always"``) fail.

        A request matches when its method is ``method`` (``"*"``: any) and ``re.search(route_regex, path)`` finds
        its path without the ``/api/v10`` prefix (e.g. ``/channels/1/messages/2``,
        ``/interactions/1/tok/callback``, ``/webhooks/app/tok/messages/@original``); ``interaction`` further
        restricts callback and webhook requests to the interactions it accepts. The earliest injected matching
        fault wins.

        - ``status=429``: refused with Discord's rate-limit body and headers (``retry_after``, ``global_``);
        - ``status`` 4xx/5xx: refused with that status (``code``/``message`` in the JSON body);
        - ``applied=True``: the request IS applied (the message posted/edited, the callback acknowledged) but its
          answer is ``status`` (e.g. 502); a retried interaction callback then gets 400/40060, as on Discord;
        - ``drop=True``: the connection is closed without an answer (before or, with ``applied``, after applying);
        - ``status=None``: answered normally; only ``delay`` applies;
        - ``delay``: the answer's round trip in seconds, instead of one drawn from :attr:`latency`.

        Raises ValueError for a combination that means nothing (e.g. ``applied`` with a 2xx status).
        """
        if times != "always" and (not isinstance(times, int) or times < 1):
            raise ValueError(f"times must be a positive int or 'always', got {times!r}")
        if status is not None and not 400 <= status <= 599:
            raise ValueError(f"status must be a 4xx/5xx error or None, got {status}")
        if applied and status is None and not drop:
            raise ValueError("applied=True needs an error status or drop=True: what should the answer be?")
        if status is None and not drop and delay is None:
            raise ValueError("a fault without status, drop or delay changes nothing")
        fault = Fault(
            method=method.upper(),
            route=re.compile(route_regex),
            status=None if drop else status,
            retry_after=retry_after,
            global_=global_,
            remaining=None if times == "always" else times,
            applied=applied,
            drop=drop,
            delay=delay,
            code=code,
            message=message,
            interaction=interaction,
        )
        self.faults.append(fault)
        return fault

    def remove_fault(self, fault: Fault) -> None:
        """Stop ``fault`` (requests already answered by it stay answered)."""
        with contextlib.suppress(ValueError):
            self.faults.remove(fault)

    def clear_faults(self) -> None:
        """Remove every injected fault."""
        self.faults.clear()

    def _match_fault(self, method: str, path: str, record: InteractionRecord | None) -> Fault | None:
        for fault in self.faults:
            if fault.matches(method, path, record):
                fault.take()
                return fault
        return None
