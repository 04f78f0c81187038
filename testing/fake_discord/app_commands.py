"""Application commands: the synced command trees (bulk overwrite and listing) and slash commands built from them."""

from __future__ import annotations

from typing import Any, Literal

from aiohttp import web

from testing.fake_discord.command_rules import command_errors
from testing.fake_discord.protocol import (
    CONTEXT_BOT_DM,
    CONTEXT_GUILD,
    CONTEXT_PRIVATE_CHANNEL,
    INSTALL_GUILD,
    INTERACTION_COMMAND,
    MEMBER_PERMISSIONS,
    json_response,
)
from testing.fake_discord.records import FakeDiscordError, InteractionRecord


class AppCommands:
    """The part of :class:`FakeDiscord` that stores the command trees (``_commands``: ``None`` for global, else a
    guild id) and injects CHAT_INPUT commands that match them."""

    def commands(self, guild_id: str | None = None) -> list[dict[str, Any]]:
        """The command tree last synced globally (``None``) or for ``guild_id``."""
        return self._commands.get(None if guild_id is None else str(guild_id), [])

    @staticmethod
    def _check_available(cmd: dict[str, Any], scope: str | None, context: int, owners: dict[str, str]) -> None:
        """A Discord client only offers a command where its ``contexts`` and ``integration_types`` allow it."""
        if context != CONTEXT_GUILD and scope is not None:
            raise FakeDiscordError(f"/{cmd['name']} is a guild command: it is not offered in DMs")
        installs = cmd.get("integration_types") or [INSTALL_GUILD]
        if not any(int(kind) in installs for kind in owners):
            raise FakeDiscordError(f"/{cmd['name']} has integration_types {installs}: not for this installation")
        contexts = cmd.get("contexts")
        if contexts is None:
            contexts = [CONTEXT_GUILD, CONTEXT_PRIVATE_CHANNEL]
            if cmd.get("dm_permission") is not False:
                contexts.append(CONTEXT_BOT_DM)
        if context not in contexts:
            raise FakeDiscordError(f"/{cmd['name']} has contexts {contexts}: not offered in context {context}")

    def _find_command(self, name: str, guild_id: str | None) -> tuple[dict[str, Any] | None, str | None]:
        for scope in (guild_id, None) if guild_id is not None else (None,):
            for cmd in self._commands.get(scope, []):
                if cmd["name"] == name and cmd.get("type", 1) == 1:
                    return cmd, scope
        return None, None

    def _build_options(
        self,
        guild_id: str | None,
        schema: list[dict[str, Any]] | None,
        values: dict[str, Any],
        resolved: dict[str, Any],
        forged: bool = False,
    ) -> list[dict[str, Any]]:
        by_name = {o["name"]: o for o in schema or []}
        if schema is not None:
            unknown = set(values) - set(by_name)
            missing = {n for n, o in by_name.items() if o.get("required") and n not in values}
            if unknown or missing:
                raise FakeDiscordError(f"bad options: unknown {sorted(unknown)}, missing required {sorted(missing)}")
        out = []
        for name, value in values.items():
            spec = by_name.get(name, {})
            otype = spec.get("type") or self._infer_option_type(value)
            if otype in (6, 9) and isinstance(value, dict):
                user = value
                self.users.setdefault(user["id"], user)
                resolved.setdefault("users", {})[user["id"]] = user
                if guild_id is not None:
                    member = self.add_member(guild_id, user)
                    resolved.setdefault("members", {})[user["id"]] = {
                        **{k: v for k, v in member.items() if k != "user"},
                        "permissions": MEMBER_PERMISSIONS,
                    }
                value = user["id"]
            elif otype == 7:
                if guild_id is None:
                    raise FakeDiscordError("channel options are not supported in DMs by this fake")
                channel = self._check_channel(guild_id, str(value))
                resolved.setdefault("channels", {})[channel["id"]] = {
                    k: channel[k] for k in ("id", "name", "type", "parent_id")
                } | {"permissions": MEMBER_PERMISSIONS}
                value = channel["id"]
            elif otype == 4:
                value = int(value)
            elif otype == 10:
                value = float(value)
            elif otype == 5:
                value = bool(value)
            elif otype == 3:
                value = str(value)
            choices = spec.get("choices")
            if choices and value not in [c["value"] for c in choices] and not forged:
                raise FakeDiscordError(f"option {name}={value!r} is not one of the declared choices")
            low, high = spec.get("min_value"), spec.get("max_value")
            if (low is not None and value < low) or (high is not None and value > high):
                raise FakeDiscordError(f"option {name}={value!r} is outside [{low}, {high}]")
            out.append({"name": name, "type": otype, "value": value})
        return out

    @staticmethod
    def _infer_option_type(value: Any) -> int:
        if isinstance(value, bool):
            return 5
        if isinstance(value, int):
            return 4
        if isinstance(value, float):
            return 10
        if isinstance(value, dict) and "username" in value:
            return 6
        return 3

    async def slash_command(
        self,
        guild_id: str | None,
        channel_id: str,
        user: dict[str, Any],
        name: str = "ttt",
        subcommand: str | None = None,
        options: dict[str, Any] | None = None,
        *,
        install: Literal["guild", "user"] | None = None,
        forged: bool = False,
    ) -> InteractionRecord:
        """Dispatch a CHAT_INPUT APPLICATION_COMMAND interaction; ``subcommand`` may be ``"group sub"``.

        ``channel_id`` may be a guild channel (``guild_id`` ``None``: the default guild) or a DM / group DM made by
        :meth:`add_dm_channel` / :meth:`add_group_dm` (``guild_id`` must then be ``None``). ``install`` says which
        installation authorises the command: ``"guild"`` (default in guilds and the bot DM) or ``"user"`` (default
        in other DMs and group DMs); the command must allow it and the context (``integration_types``,
        ``contexts``), or a Discord client would not offer it (FakeDiscordError).

        Option types come from the synced command tree when the command is registered (and are validated against
        it); otherwise they are inferred from the Python values (user dicts become USER options with resolved data).
        ``forged``: a modified client's command, whose option values may lie outside the declared choices.
        """
        gid, cid = self._where(guild_id, channel_id)
        owners = self._owners(gid, cid, user, install)
        context = CONTEXT_GUILD if gid is not None else self._private_context(cid)
        cmd, scope = self._find_command(name, gid)
        if cmd is None and not self.allow_unregistered_commands:
            raise FakeDiscordError(f"command {name!r} is not registered for guild {gid} or globally")
        if cmd is not None:
            self._check_available(cmd, scope, context, owners)
        resolved: dict[str, Any] = {}
        schema: list[dict[str, Any]] | None = cmd.get("options", []) if cmd else None
        path = subcommand.split() if subcommand else []
        chain: list[tuple[str, int]] = []
        for i, part in enumerate(path):
            sub = next((o for o in schema or [] if o["name"] == part and o["type"] in (1, 2)), None)
            if cmd is not None and sub is None:
                raise FakeDiscordError(f"/{name} has no subcommand {part!r}")
            chain.append((part, sub["type"] if sub else (1 if i == len(path) - 1 else 2)))
            schema = sub.get("options", []) if sub else None
        leaf = self._build_options(gid, schema, options or {}, resolved, forged)
        for part, otype in reversed(chain):
            leaf = [{"name": part, "type": otype, "options": leaf}]
        data: dict[str, Any] = {"id": cmd["id"] if cmd else self._snowflake(), "name": name, "type": 1, "options": leaf}
        if scope is not None:
            data["guild_id"] = scope
        if resolved:
            data["resolved"] = resolved
        return await self._inject(INTERACTION_COMMAND, gid, cid, user, data, owners=owners)

    def _scope(self, request: web.Request) -> str | None:
        if request.match_info["app_id"] != self.application_id:
            raise self._refuse("wrong_application", 403, 50001, "Missing Access", request)
        gid = request.match_info.get("guild_id")
        if gid is not None and gid not in self.guilds:
            raise self._refuse("unknown_guild", 403, 50001, "Missing Access", request)
        return gid

    async def _get_commands(self, request: web.Request) -> web.Response:
        return json_response(self._commands.get(self._scope(request), []))

    async def _put_commands(self, request: web.Request) -> web.Response:
        scope = self._scope(request)
        body, _ = await self._read_payload(request)
        self._check_spec(request, body)
        if not isinstance(body, list):
            raise self._refuse("invalid_commands", 400, 50035, "Invalid Form Body", request, errors=["not a list"])
        errors = []
        if len(body) > 100:
            errors.append("at most 100 commands per scope")
        for cmd in body:
            errors += command_errors(cmd)
        if errors:
            raise self._refuse("invalid_commands", 400, 50035, "Invalid Form Body", request, errors=errors)
        old = {(c["name"], c.get("type", 1)): c["id"] for c in self._commands.get(scope, [])}
        stored = []
        for cmd in body:
            entry = {
                "type": 1,
                "default_member_permissions": None,
                "nsfw": False,
                "options": [],
                **cmd,
                "id": old.get((cmd["name"], cmd.get("type", 1))) or self._snowflake(),
                "application_id": self.application_id,
                "version": self._snowflake(),
            }
            if scope is not None:
                entry["guild_id"] = scope
            stored.append(entry)
        self._commands[scope] = stored
        self._notify()
        return json_response(stored)
