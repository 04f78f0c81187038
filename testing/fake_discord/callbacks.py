"""Interaction responses: the callback (with its 3 s deadline and single acknowledgement), followups, and the
edits and deletes of their messages through the interaction's webhook."""

from __future__ import annotations

import time
from typing import Any

from aiohttp import web

from testing.fake_discord.bodies import Upload
from testing.fake_discord.protocol import (
    ARRIVED,
    CB_AUTOCOMPLETE,
    CB_DEFERRED_MESSAGE,
    CB_DEFERRED_UPDATE,
    CB_MESSAGE,
    CB_MODAL,
    CB_UPDATE,
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    INTERACTION_COMPONENT,
    INTERACTION_MODAL,
    json_response,
)
from testing.fake_discord.records import ApiError, CallbackEvent, InteractionRecord


class Callbacks:
    """The part of :class:`FakeDiscord` that answers ``/interactions/.../callback`` and ``/webhooks/...``."""

    async def _interaction_callback(self, request: web.Request) -> web.StreamResponse:
        now: float = request.get(ARRIVED) or time.perf_counter()
        record = self._records_by_id.get(request.match_info["interaction_id"])
        if record is None or record.token != request.match_info["token"]:
            raise self._refuse("unknown_interaction", 404, 10062, "Unknown interaction", request)
        record._attempted(now)
        try:
            body, uploads = await self._read_payload(request)
            message = self._apply_callback(record, body, uploads, request, now)
        except ApiError as err:
            if record.first_callback_at == now:
                record.error = err
            record._resolve_first()
            raise
        record._resolve_first()
        self._notify()
        if request.query.get("with_response", "").lower() not in ("1", "true"):
            return web.Response(status=204)
        ctype = record.callback_type
        resource: dict[str, Any] = {"type": ctype}
        if message is not None and ctype in (CB_MESSAGE, CB_DEFERRED_MESSAGE, CB_UPDATE):
            resource["message"] = message
        return json_response(
            {
                "interaction": {
                    "id": record.id,
                    "type": record.type,
                    "activity_instance_id": None,
                    "response_message_id": record.message_id,
                    "response_message_loading": ctype == CB_DEFERRED_MESSAGE,
                    "response_message_ephemeral": record.ephemeral,
                },
                "resource": resource,
            }
        )

    def _apply_callback(
        self,
        record: InteractionRecord,
        body: dict[str, Any],
        uploads: list[Upload],
        request: web.Request,
        now: float,
    ) -> dict[str, Any] | None:
        self._check_spec(request, body, record)
        if record.acknowledged:
            if record.answer_lost:  # the client never learnt of the acknowledgement: a retry is no rule broken
                raise ApiError(400, 40060, "Interaction has already been acknowledged.")
            raise self._refuse(
                "double_acknowledgement", 400, 40060, "Interaction has already been acknowledged.", request, record
            )
        if now - record.dispatched_at > self.ack_deadline:
            raise self._refuse(
                "late_callback",
                404,
                10062,
                "Unknown interaction",
                request,
                record,
                [f"first callback after {now - record.dispatched_at:.3f}s > {self.ack_deadline}s"],
            )
        ctype, data = body.get("type"), body.get("data") or {}
        component_only = (CB_DEFERRED_UPDATE, CB_UPDATE)
        if ctype not in (CB_MESSAGE, CB_DEFERRED_MESSAGE, *component_only, CB_AUTOCOMPLETE, CB_MODAL) or (
            ctype in component_only and record.type not in (INTERACTION_COMPONENT, INTERACTION_MODAL)
        ):
            raise self._refuse(
                "invalid_callback_type",
                400,
                50035,
                "Invalid Form Body",
                request,
                record,
                [f"callback type {ctype} is not valid for interaction type {record.type}"],
            )
        message = None
        if ctype == CB_MESSAGE:
            ephemeral = bool((data.get("flags") or 0) & FLAG_EPHEMERAL)
            attachments = self._validate(data, uploads, request, record, ephemeral=ephemeral)
            message = self._new_message(record.channel_id, data, author=self.bot_user, record=record, files=attachments)
        elif ctype == CB_DEFERRED_MESSAGE:
            message = self._new_message(
                record.channel_id,
                {"flags": data.get("flags")},
                author=self.bot_user,
                record=record,
                extra_flags=FLAG_LOADING,
            )
        elif ctype in component_only:
            if (
                record.component_message_id is None
                or self.message(record.channel_id, record.component_message_id) is None
            ):
                raise self._refuse("unknown_message", 404, 10008, "Unknown Message", request, record)
            message = self.message(record.channel_id, record.component_message_id)
            if ctype == CB_UPDATE:
                assert message is not None
                attachments = self._validate(
                    data, uploads, request, record, current=message, ephemeral=bool(message["flags"] & FLAG_EPHEMERAL)
                )
                message = self._edit_message(record.channel_id, record.component_message_id, data, attachments)
        record.acknowledged = True
        record.callback_type = ctype
        # the response's message flags; an ephemeral message updated (UPDATE_MESSAGE) stays ephemeral
        answered_with = message is not None and ctype in (CB_MESSAGE, CB_DEFERRED_MESSAGE, CB_UPDATE)
        record.flags = message["flags"] if message is not None and answered_with else data.get("flags") or 0
        record.payload = data
        if message is not None:
            record.message_id = message["id"]
            record.message_ids.add(message["id"])
        record._add_event(CallbackEvent("callback", now, data, record.message_id, ctype))
        return message

    def _webhook_record(self, request: web.Request) -> InteractionRecord:
        record = self._records_by_token.get(request.match_info["token"])
        if record is None or request.match_info["app_id"] != self.application_id:
            raise self._refuse("unknown_webhook", 404, 10015, "Unknown Webhook", request)
        age = time.perf_counter() - record.dispatched_at
        if age > self.token_lifetime:  # Discord: 401/50027 once the token's 15 minutes are over
            raise self._refuse(
                "expired_token",
                401,
                50027,
                "Invalid Webhook Token",
                request,
                record,
                [f"interaction token used {age:.3f}s after dispatch > {self.token_lifetime}s"],
            )
        if not record.acknowledged:
            raise self._refuse(
                "followup_before_ack",
                404,
                10015,
                "Unknown Webhook",
                request,
                record,
                ["the interaction was never acknowledged"],
            )
        return record

    async def _create_followup(self, request: web.Request) -> web.Response:
        record = self._webhook_record(request)
        body, uploads = await self._read_payload(request)
        self._check_spec(request, body, record)
        ephemeral = bool((body.get("flags") or 0) & FLAG_EPHEMERAL)
        attachments = self._validate(body, uploads, request, record, ephemeral=ephemeral)
        msg = self._new_message(record.channel_id, body, author=self.bot_user, record=record, files=attachments)
        record.message_ids.add(msg["id"])
        record._add_event(CallbackEvent("followup", time.perf_counter(), body, msg["id"]))
        self._notify()
        if request.query.get("wait", "").lower() in ("1", "true"):
            return json_response(msg)
        return web.Response(status=204)

    async def _webhook_message(self, request: web.Request) -> web.Response:
        record = self._webhook_record(request)
        raw_id = request.match_info["message_id"]
        original = raw_id == "@original"
        mid = record.message_id if original else raw_id
        if mid is None or mid not in record.message_ids or self.message(record.channel_id, mid) is None:
            if request.method == "GET":
                raise ApiError(404, 10008, "Unknown Message")
            raise self._refuse("unknown_message", 404, 10008, "Unknown Message", request, record)
        suffix = "original" if original else "message"
        if request.method == "GET":
            return json_response(self.message(record.channel_id, mid))
        if request.method == "DELETE":
            self._delete_message(record.channel_id, mid)
            record._add_event(CallbackEvent(f"delete_{suffix}", time.perf_counter(), {}, mid))
            return web.Response(status=204)
        body, uploads = await self._read_payload(request)
        self._check_spec(request, body, record)
        current = self.message(record.channel_id, mid)
        assert current is not None
        ephemeral = bool(current["flags"] & FLAG_EPHEMERAL)
        attachments = self._validate(body, uploads, request, record, current=current, ephemeral=ephemeral)
        msg = self._edit_message(record.channel_id, mid, body, attachments)
        record._add_event(CallbackEvent(f"edit_{suffix}", time.perf_counter(), body, mid))
        return json_response(msg)
