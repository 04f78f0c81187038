"""The world the fake serves: users, guilds with their members and channels, DMs and group DMs, snowflakes."""

from __future__ import annotations

import time
from typing import Any

from testing.fake_discord.protocol import (
    CHANNEL_DM,
    CHANNEL_GROUP_DM,
    CONTEXT_BOT_DM,
    CONTEXT_PRIVATE_CHANNEL,
    DISCORD_EPOCH_MS,
    MEMBER_PERMISSIONS,
    now_iso,
)
from testing.fake_discord.records import FakeDiscordError


class World:
    """The part of :class:`FakeDiscord` that builds the world; a guild or channel added while a bot is connected
    is announced to it through the gateway part (``_target``)."""

    def _snowflake(self, shard: tuple[int, int] | None = None) -> str:
        """A new, increasing id; with ``shard=(id, count)`` one whose guild would live on that shard."""
        value = max((int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22, self._last_snowflake + 1)
        if shard is not None:
            shard_id, count = shard
            if not 0 <= shard_id < count:
                raise ValueError(f"shard {shard_id} is not in 0..{count - 1}")
            stamp = value >> 22
            while stamp % count != shard_id:
                stamp += 1
            if stamp != value >> 22:
                value = stamp << 22
        self._last_snowflake = value
        return str(value)

    @staticmethod
    def shard_of(guild_id: str | int | None, shard_count: int) -> int:
        """The shard that receives a guild's events: ``(guild_id >> 22) % shard_count``; DMs go to shard 0."""
        return 0 if guild_id is None else (int(guild_id) >> 22) % shard_count

    def make_user(self, id: int | str, name: str, bot: bool = False) -> dict[str, Any]:
        """A Discord user object (also remembered for ``GET /users/{id}``)."""
        user: dict[str, Any] = {
            "id": str(id),
            "username": name,
            "global_name": name,
            "discriminator": "0",
            "avatar": None,
            "bot": bot,
            "public_flags": 0,
            "flags": 0,
        }
        self.users[user["id"]] = user
        return user

    def add_guild(self, name: str = "Guild", *, channels: int = 1, shard: tuple[int, int] | None = None) -> str:
        """Create a guild (with @everyone and the bot as member) and ``channels`` text channels.

        ``shard=(shard_id, shard_count)`` picks an id that shard owns. A client already connected on the owning
        shard gets GUILD_CREATE, as when a bot joins a guild.
        """
        gid = self._snowflake(shard)
        self.guilds[gid] = {
            "id": gid,
            "name": name,
            "channels": {},
            "members": {},
            "roles": [
                {
                    "id": gid,
                    "name": "@everyone",
                    "permissions": MEMBER_PERMISSIONS,
                    "position": 0,
                    "color": 0,
                    "hoist": False,
                    "managed": False,
                    "mentionable": False,
                    "flags": 0,
                }
            ],
        }
        self.add_member(gid, self.bot_user)
        self.guilds[gid]["announced"] = False  # its channels arrive with GUILD_CREATE, not as CHANNEL_CREATEs
        self.add_channels(channels, guild_id=gid)
        self.guilds[gid]["announced"] = True
        conn = self._target(gid)
        if conn is not None:
            conn.dispatch("GUILD_CREATE", self._guild_payload(gid))
        return gid

    def add_member(self, guild_id: str, user: dict[str, Any]) -> dict[str, Any]:
        """Make ``user`` a member of the guild (idempotent); returns the member object."""
        members = self.guilds[str(guild_id)]["members"]
        uid = user["id"]
        if uid not in members:
            self.users.setdefault(uid, user)
            members[uid] = {
                "user": user,
                "roles": [],
                "joined_at": now_iso(),
                "deaf": False,
                "mute": False,
                "flags": 0,
                "nick": None,
                "pending": False,
            }
        return members[uid]  # type: ignore[no-any-return]

    def add_channel(self, guild_id: str | None = None, name: str | None = None) -> str:
        """Add a text channel (announced with CHANNEL_CREATE to a connected bot); returns its id."""
        gid = str(guild_id or self.default_guild_id)
        guild = self.guilds[gid]
        cid = self._snowflake()
        channel = {
            "id": cid,
            "type": 0,
            "guild_id": gid,
            "name": name or f"channel-{len(guild['channels'])}",
            "position": len(guild["channels"]),
            "permission_overwrites": [],
            "parent_id": None,
            "nsfw": False,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
        }
        guild["channels"][cid] = channel
        self._channel_guild[cid] = gid
        self._messages[cid] = {}
        conn = self._target(gid)
        if conn is not None and guild.get("announced", True):
            conn.dispatch("CHANNEL_CREATE", channel)
        return cid

    def add_dm_channel(self, user: dict[str, Any], *, other: dict[str, Any] | None = None) -> str:
        """A DM channel of ``user``; returns its id.

        Without ``other`` it is the DM with the bot (interaction context 1, BOT_DM): the bot is a recipient and may
        use the channel's REST routes. With ``other`` it is the DM between two users (context 2, PRIVATE_CHANNEL),
        where only a user-installed app's interactions reach the bot: channel REST answers 403/50001.
        """
        self.users.setdefault(user["id"], user)
        cid = self._snowflake()
        peer = other or self.bot_user
        if other is not None:
            self.users.setdefault(other["id"], other)
        self.private_channels[cid] = {
            "id": cid,
            "type": CHANNEL_DM,
            "recipients": [peer],
            "last_message_id": None,
            "flags": 0,
        }
        self._private_members[cid] = {user["id"], peer["id"]}
        if other is None:
            self._bot_in_private.add(cid)
        self._messages[cid] = {}
        return cid

    def add_group_dm(self, users: list[dict[str, Any]], *, name: str | None = None) -> str:
        """A group DM of ``users`` (the first owns it); the bot is not a member (context 2: channel REST -> 403)."""
        if len(users) < 2:
            raise FakeDiscordError("a group DM needs at least two users")
        for user in users:
            self.users.setdefault(user["id"], user)
        cid = self._snowflake()
        self.private_channels[cid] = {
            "id": cid,
            "type": CHANNEL_GROUP_DM,
            "recipients": list(users),
            "owner_id": users[0]["id"],
            "name": name,
            "icon": None,
            "last_message_id": None,
            "flags": 0,
        }
        self._private_members[cid] = {u["id"] for u in users}
        self._messages[cid] = {}
        return cid

    def add_channels(self, count: int, guild_id: str | None = None) -> list[str]:
        return [self.add_channel(guild_id) for _ in range(count)]

    def channels(self, guild_id: str | None = None) -> list[str]:
        return list(self.guilds[str(guild_id or self.default_guild_id)]["channels"])

    def _guild_payload(self, gid: str) -> dict[str, Any]:
        g = self.guilds[gid]
        return {
            "id": gid,
            "name": g["name"],
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": self.bot_user["id"],
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": g["roles"],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "preferred_locale": "en-US",
            "premium_tier": 0,
            "nsfw_level": 0,
            "joined_at": now_iso(),
            "large": False,
            "unavailable": False,
            "member_count": len(g["members"]),
            "members": list(g["members"].values()),
            "channels": list(g["channels"].values()),
            "threads": [],
            "presences": [],
            "voice_states": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    def _member_payload(self, guild_id: str, user: dict[str, Any]) -> dict[str, Any]:
        return {**self.add_member(guild_id, user), "permissions": MEMBER_PERMISSIONS}

    def _check_channel(self, guild_id: str, channel_id: str) -> dict[str, Any]:
        channel = self.guilds.get(guild_id, {}).get("channels", {}).get(channel_id)
        if channel is None:
            raise FakeDiscordError(f"channel {channel_id} is not in guild {guild_id}")
        return channel  # type: ignore[no-any-return]

    def _is_private(self, channel_id: str) -> bool:
        return channel_id in self.private_channels

    def _private_context(self, channel_id: str) -> int:
        return CONTEXT_BOT_DM if channel_id in self._bot_in_private else CONTEXT_PRIVATE_CHANNEL

    def _check_private(self, channel_id: str, user: dict[str, Any]) -> dict[str, Any]:
        if user["id"] not in self._private_members[channel_id]:
            raise FakeDiscordError(f"user {user['id']} is not a recipient of private channel {channel_id}")
        return self.private_channels[channel_id]
