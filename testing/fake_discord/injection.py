"""Injecting interactions as a Discord client would: the INTERACTION_CREATE payload, its installation and
context, and button presses on stored messages."""

from __future__ import annotations

import json
import secrets
import time
from typing import Any

from testing.fake_discord.message_rules import walk_components
from testing.fake_discord.protocol import (
    CONTEXT_GUILD,
    CONTEXT_PRIVATE_CHANNEL,
    INSTALL_GUILD,
    INSTALL_USER,
    INTERACTION_COMPONENT,
    MEMBER_PERMISSIONS,
    PRIVATE_APP_PERMISSIONS,
    dumps,
)
from testing.fake_discord.records import FakeDiscordError, InteractionRecord


class Injection:
    """The part of :class:`FakeDiscord` that dispatches interactions and records them (``records``); refuses with
    FakeDiscordError what a real client could not do."""

    async def _inject(
        self,
        itype: int,
        guild_id: str | None,
        channel_id: str,
        user: dict[str, Any],
        data: dict[str, Any],
        message: dict[str, Any] | None = None,
        *,
        owners: dict[str, str] | None = None,
    ) -> InteractionRecord:
        """Dispatch an INTERACTION_CREATE; ``guild_id`` ``None`` means ``channel_id`` is a DM or group DM."""
        private = guild_id is None
        channel = self._check_private(channel_id, user) if private else self._check_channel(str(guild_id), channel_id)
        conn = self._target(guild_id)
        if conn is None:
            raise FakeDiscordError("no gateway client is connected and ready")
        payload: dict[str, Any] = {
            "id": self._snowflake(),
            "application_id": self.application_id,
            "type": itype,
            "data": data,
            "channel_id": channel_id,
            "token": "itok_" + secrets.token_urlsafe(24),
            "version": 1,
            "locale": user.get("locale", "en-US"),  # the user's client language (make_user(..., locale=...))
            "entitlements": [],
            "authorizing_integration_owners": owners or {str(INSTALL_GUILD): guild_id},
            "context": CONTEXT_GUILD,
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if private:
            payload.update(
                channel=channel,
                user=user,
                context=self._private_context(channel_id),
                app_permissions=PRIVATE_APP_PERMISSIONS
                if payload["context"] == CONTEXT_PRIVATE_CHANNEL
                else MEMBER_PERMISSIONS,
            )
        else:
            assert guild_id is not None
            payload.update(
                guild_id=guild_id,
                guild={"id": guild_id, "locale": "en-US", "features": []},
                channel={**channel, "permissions": MEMBER_PERMISSIONS},
                member=self._member_payload(guild_id, user),
                app_permissions=MEMBER_PERMISSIONS,
                guild_locale="en-US",
            )
        if message is not None:
            payload["message"] = message
        raw = dumps(payload)
        record = InteractionRecord(payload, raw, component_message_id=message["id"] if message else None)
        self.records.append(record)
        self._records_by_id[record.id] = record
        self._records_by_token[record.token] = record
        record.dispatched_at = time.perf_counter()
        record.shard = conn.session.shard if conn.session is not None else None
        if not conn.dispatch("INTERACTION_CREATE", None, raw_data=raw):
            raise FakeDiscordError("the gateway client disconnected while dispatching")
        return record

    def _where(self, guild_id: str | None, channel_id: str | int) -> tuple[str | None, str]:
        """``(guild_id, channel_id)`` of an injection: ``None`` for a private channel, else the guild (default
        guild when ``guild_id`` is ``None``)."""
        cid = str(channel_id)
        if self._is_private(cid):
            if guild_id is not None:
                raise FakeDiscordError(f"channel {cid} is a private channel, not in guild {guild_id}")
            return None, cid
        return str(guild_id or self.default_guild_id), cid

    def _owners(
        self, guild_id: str | None, channel_id: str, user: dict[str, Any], install: str | None
    ) -> dict[str, str]:
        """authorizing_integration_owners: ``{"1": user}`` for a user install, ``{"0": guild or "0"}`` otherwise."""
        install = install or ("guild" if guild_id is not None or channel_id in self._bot_in_private else "user")
        if install == "user":
            return {str(INSTALL_USER): user["id"]}
        if install != "guild":
            raise ValueError(f"install must be 'guild' or 'user', not {install!r}")
        if guild_id is None and channel_id not in self._bot_in_private:
            raise FakeDiscordError("a guild-installed app can't be used in other people's DMs or group DMs")
        return {str(INSTALL_GUILD): guild_id or "0"}

    async def press_button(
        self, guild_id: str | None, channel_id: str, user: dict[str, Any], message_id: str, custom_id: str
    ) -> InteractionRecord:
        """Dispatch a MESSAGE_COMPONENT interaction for an enabled button on a stored message.

        Raises FakeDiscordError for anything a Discord client can't click: a missing message, a custom_id not on
        it, a disabled or link button, or someone else's ephemeral message.
        """
        gid, cid = self._where(guild_id, channel_id)
        msg = self._pressable(gid, cid, user, str(message_id))
        comp = next((c for c in walk_components(msg.get("components") or []) if c.get("custom_id") == custom_id), None)
        if comp is None:
            raise FakeDiscordError(f"message {msg['id']} has no component with custom_id {custom_id!r}")
        if comp.get("type") != 2 or comp.get("style") in (5, 6):
            raise FakeDiscordError(f"component {custom_id!r} is not a clickable button")
        if comp.get("disabled"):
            raise FakeDiscordError(f"button {custom_id!r} on message {msg['id']} is disabled")
        data = {"custom_id": custom_id, "component_type": 2}
        if "id" in comp:
            data["id"] = comp["id"]
        return await self._inject(
            INTERACTION_COMPONENT, gid, cid, user, data, message=msg, owners=self._message_owners(gid, cid, msg, user)
        )

    async def press_custom_id(
        self,
        guild_id: str | None,
        channel_id: str,
        user: dict[str, Any],
        message_id: str,
        custom_id: str,
        *,
        like: str | None = None,
    ) -> InteractionRecord:
        """Dispatch a press on a stored message's button as if that button carried ``custom_id``: what the bot sees
        for a board sent by an older version of itself or a tampered one (forged or unmatched ids).

        Discord only sends presses of components that are on the message, and discord.py ignores a press whose
        custom_id is missing from the interaction's message, so the dispatched message snapshot has the button
        ``like`` (default: its first button) carrying ``custom_id``; the stored message is not changed.

        Raises FakeDiscordError for a missing message, one without such a button, or someone else's ephemeral one.
        """
        gid, cid = self._where(guild_id, channel_id)
        msg = self._pressable(gid, cid, user, str(message_id))
        snapshot = json.loads(dumps(msg))
        target = next(
            (
                c
                for c in walk_components(snapshot.get("components") or [])
                if c.get("type") == 2 and c.get("custom_id") and (like is None or c["custom_id"] == like)
            ),
            None,
        )
        if target is None:
            raise FakeDiscordError(f"message {msg['id']} has no button {like or ''} to press")
        target.update(custom_id=custom_id, disabled=False)
        data = {"custom_id": custom_id, "component_type": 2}
        return await self._inject(
            INTERACTION_COMPONENT,
            gid,
            cid,
            user,
            data,
            message=snapshot,
            owners=self._message_owners(gid, cid, msg, user),
        )

    def _pressable(
        self, guild_id: str | None, channel_id: str, user: dict[str, Any], message_id: str
    ) -> dict[str, Any]:
        if guild_id is None:
            self._check_private(channel_id, user)
        else:
            self._check_channel(guild_id, channel_id)
        msg = self.message(channel_id, message_id)
        if msg is None:
            raise FakeDiscordError(f"message {message_id} does not exist in channel {channel_id}")
        owner = self._ephemeral_owner.get(message_id)
        if owner is not None and owner != user["id"]:
            raise FakeDiscordError(f"message {message_id} is ephemeral and belongs to user {owner}")
        return msg

    def _message_owners(
        self, guild_id: str | None, channel_id: str, message: dict[str, Any], user: dict[str, Any]
    ) -> dict[str, str]:
        """A component interaction is authorised by the installation that made its message."""
        metadata = message.get("interaction_metadata") or {}
        owners = metadata.get("authorizing_integration_owners")
        return dict(owners) if owners else self._owners(guild_id, channel_id, user, None)
