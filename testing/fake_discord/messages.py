"""The per-channel message store: creating, editing and deleting messages, and the gateway events that tell the bot."""

from __future__ import annotations

from typing import Any

from testing.fake_discord.message_rules import message_errors
from testing.fake_discord.protocol import (
    FLAG_COMPONENTS_V2,
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    INTENT_DIRECT_MESSAGES,
    INTENT_GUILD_MESSAGES,
    INTERACTION_COMMAND,
    now_iso,
)
from testing.fake_discord.records import ApiError, FakeDiscordError, InteractionRecord


class MessageStore:
    """The part of :class:`FakeDiscord` that holds every channel's messages (``_messages``: channel id -> message id
    -> message) and who owns each ephemeral one."""

    def messages(self, channel_id: str, *, include_ephemeral: bool = True) -> list[dict[str, Any]]:
        """Messages of a channel, oldest first (live objects: don't mutate)."""
        msgs = self._messages.get(str(channel_id), {}).values()
        return [m for m in msgs if include_ephemeral or not m["flags"] & FLAG_EPHEMERAL]

    def message(self, channel_id: str, message_id: str) -> dict[str, Any] | None:
        return self._messages.get(str(channel_id), {}).get(str(message_id))

    def create_message(
        self,
        channel_id: str,
        content: str = "",
        *,
        components: list[dict[str, Any]] | None = None,
        author: dict[str, Any] | None = None,
        flags: int = 0,
    ) -> dict[str, Any]:
        """Put a message straight into the store (default author: the bot), e.g. a board for ``press_button``."""
        data = {"content": content, "components": components or [], "flags": flags}
        errors = message_errors(data)
        if errors:
            raise FakeDiscordError("; ".join(errors))
        return self._new_message(str(channel_id), data, author=author or self.bot_user)

    def _new_message(
        self,
        channel_id: str,
        data: dict[str, Any],
        *,
        author: dict[str, Any],
        record: InteractionRecord | None = None,
        files: list[dict[str, Any]] | None = None,
        extra_flags: int = 0,
    ) -> dict[str, Any]:
        flags = ((data.get("flags") or 0) & (FLAG_EPHEMERAL | FLAG_COMPONENTS_V2 | 4 | 4096)) | extra_flags
        msg: dict[str, Any] = {
            "id": self._snowflake(),
            "channel_id": channel_id,
            "guild_id": self._channel_guild.get(channel_id),
            "author": author,
            "content": data.get("content") or "",
            "timestamp": now_iso(),
            "edited_timestamp": None,
            "tts": bool(data.get("tts")),
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": files or [],
            "embeds": data.get("embeds") or [],
            "pinned": False,
            "type": 0,
            "flags": flags,
            "components": data.get("components") or [],
        }
        if record is not None:
            msg.update(
                webhook_id=self.application_id,
                application_id=self.application_id,
                interaction_metadata={
                    "id": record.id,
                    "type": record.type,
                    "user": record.user,
                    "authorizing_integration_owners": record.interaction["authorizing_integration_owners"],
                },
            )
            if record.type == INTERACTION_COMMAND and not record.message_ids:
                msg["type"] = 20  # CHAT_INPUT_COMMAND
            if flags & FLAG_EPHEMERAL:
                self._ephemeral_owner[msg["id"]] = record.user["id"]
        self._messages[channel_id][msg["id"]] = msg
        self._message_event("MESSAGE_CREATE", msg)
        self._notify(msg)
        return msg

    def _edit_message(
        self,
        channel_id: str,
        message_id: str,
        data: dict[str, Any],
        attachments: list[dict[str, Any]] | None = None,
    ) -> dict[str, Any]:
        """Apply an edit; ``attachments`` (from :meth:`_validate`) replaces the message's unless ``None``."""
        msg = self.message(channel_id, message_id)
        if msg is None:
            raise ApiError(404, 10008, "Unknown Message")
        for key in ("content", "embeds", "components"):
            if key in data:
                msg[key] = data[key] if data[key] is not None else ("" if key == "content" else [])
        if attachments is not None:
            for gone in {a["id"] for a in msg["attachments"]} - {a["id"] for a in attachments}:
                self.files.pop(gone, None)
            msg["attachments"] = attachments
        msg["flags"] = self._edited_flags(msg["flags"], data.get("flags")) & ~FLAG_LOADING
        msg["edited_timestamp"] = now_iso()
        self._message_event("MESSAGE_UPDATE", msg)
        self._notify(msg)
        return msg

    def _delete_message(self, channel_id: str, message_id: str) -> None:
        msg = self._messages.get(channel_id, {}).pop(message_id, None)
        if msg is None:
            raise ApiError(404, 10008, "Unknown Message")
        self._ephemeral_owner.pop(message_id, None)
        for attachment in msg["attachments"]:
            self.files.pop(attachment["id"], None)
        self._message_event(
            "MESSAGE_DELETE",
            {"id": message_id, "channel_id": channel_id, "guild_id": msg.get("guild_id")},
            ephemeral=bool(msg["flags"] & 64),
        )
        self._notify()

    def _message_event(self, event: str, msg: dict[str, Any], *, ephemeral: bool | None = None) -> None:
        if not self.message_events or (msg.get("flags", 0) & FLAG_EPHEMERAL if ephemeral is None else ephemeral):
            return
        if self._is_private(msg["channel_id"]) and msg["channel_id"] not in self._bot_in_private:
            return  # the bot is not in that channel
        guild_id = self._channel_guild.get(msg["channel_id"])
        conn = self._target(guild_id)
        wanted = INTENT_DIRECT_MESSAGES if guild_id is None else INTENT_GUILD_MESSAGES
        if conn is not None and conn.session is not None and conn.session.intents & wanted:
            conn.dispatch(event, msg)

    @staticmethod
    def _edited_flags(old: int, new: int | None) -> int:
        """A message's flags after an edit: ephemeral stays as it was, IS_COMPONENTS_V2 once set stays set (Discord:
        a message can't opt out of Components V2), SUPPRESS_EMBEDS and IS_COMPONENTS_V2 may be set."""
        kept = old & (FLAG_EPHEMERAL | FLAG_COMPONENTS_V2 | 4)
        if new is None:
            return kept
        return (old & (FLAG_EPHEMERAL | FLAG_COMPONENTS_V2)) | (new & (FLAG_COMPONENTS_V2 | 4))
