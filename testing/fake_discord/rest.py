"""REST plumbing: each route's answer passes authorization, the injected faults, the round trip and the log;
a refused request is recorded as a violation."""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable
from typing import Any

from aiohttp import web

from testing.fake_discord.protocol import API_PREFIX, ARRIVED, CALLBACK_ROUTE, ROUTE, json_response
from testing.fake_discord.records import ApiError, InteractionRecord, RestCall, Violation

log = logging.getLogger(__name__)


class RestPlumbing:
    """The part of :class:`FakeDiscord` that wraps every REST handler (:meth:`_wrap`) and refuses broken rules
    (:meth:`_refuse`)."""

    def _wrap(self, handler: Callable[..., Any], path: str) -> Callable[[web.Request], Any]:
        needs_auth = not path.startswith(("/interactions/", "/webhooks/"))
        bucket = secrets.token_hex(8)  # X-RateLimit-Bucket: one per route, as Discord hashes them

        async def wrapped(request: web.Request) -> web.StreamResponse:
            self.in_flight += 1
            try:
                return await answer(request)
            finally:
                self.in_flight -= 1
                if self.in_flight == 0:
                    self._notify()

        async def answer(request: web.Request) -> web.StreamResponse:
            arrived = time.perf_counter()
            request[ARRIVED] = arrived
            request[ROUTE] = path
            self.route_hits[f"{request.method} {path}"] += 1
            rel = request.path[len(API_PREFIX) :]
            record = self._record_of(request)
            response: web.StreamResponse | None
            fault = None
            if needs_auth and not self._authorized(request):
                response = json_response({"message": "401: Unauthorized", "code": 0}, 401)
            else:
                fault = self._match_fault(request.method, rel, record)
                if fault is not None and not fault.applied and (fault.status is not None or fault.drop):
                    response = fault.response(bucket)
                else:
                    try:
                        response = await handler(request)
                    except ApiError as err:
                        response = err.response()
                    if fault is not None and fault.applied:
                        if 200 <= response.status < 300:
                            response = fault.response(bucket)
                            if record is not None and path == CALLBACK_ROUTE:
                                record.answer_lost = True
                        else:  # nothing was applied, so the fault did not happen
                            fault.give_back()
                            fault = None
                if fault is not None:
                    fault.hits.append(f"{request.method} {rel}")
            delay = fault.delay if fault is not None and fault.delay is not None else self._draw_delay(path)
            if delay > 0:
                await asyncio.sleep(delay)
            status = 0 if response is None else response.status
            self.rest_log.append(RestCall(request.method, rel, status, arrived, time.perf_counter()))
            if record is not None and path == CALLBACK_ROUTE:
                record.callback_statuses.append(status)
                self._notify()
            if response is None:
                if request.transport is not None:
                    request.transport.close()
                return web.Response(status=204)  # never reaches the client: its connection is gone
            return response

        return wrapped

    def _authorized(self, request: web.Request) -> bool:
        auth = request.headers.get("Authorization", "")
        return auth.startswith("Bot ") and (self.token is None or auth == f"Bot {self.token}")

    def _record_of(self, request: web.Request) -> InteractionRecord | None:
        """The interaction a callback or webhook request belongs to, if any."""
        interaction_id = request.match_info.get("interaction_id")
        if interaction_id is not None:
            return self._records_by_id.get(interaction_id)
        token = request.match_info.get("token")
        return None if token is None else self._records_by_token.get(token)

    async def _unknown(self, request: web.Request) -> web.Response:
        route = f"{request.method} {request.path}"
        self.unknown_routes.append(route)
        log.warning("unknown route %s", route)
        return json_response({"message": "404: Not Found", "code": 0}, 404)

    def _refuse(
        self,
        rule: str,
        status: int,
        code: int,
        message: str,
        request: web.Request,
        record: InteractionRecord | None = None,
        errors: list[str] | None = None,
        tree: dict[str, Any] | None = None,
    ) -> ApiError:
        """Record a rule violation and build the Discord error to answer with."""
        violation = Violation(
            rule,
            "; ".join(errors or []) or message,
            f"{request.method} {request.path}",
            status,
            code,
            record.id if record else None,
        )
        self.violations.append(violation)
        log.warning("violation: %s", violation)
        self._notify()
        return ApiError(status, code, message, errors, tree)
