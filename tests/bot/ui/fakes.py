"""Small stand-ins for the discord.py objects the ui layer talks to: an interaction that records what was sent,
and a client whose partial messages record their edits. Nothing goes over a network."""

from __future__ import annotations

import datetime
import itertools
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import discord

_IDS = itertools.count(9000)


@dataclass
class Call:
    """One call the code under test made: the method's name and its keyword arguments."""

    name: str
    kwargs: dict[str, Any]


class FakeResponse:
    """``interaction.response``: answered at most once, as discord.py's ``InteractionResponse`` is."""

    def __init__(self, owner: FakeInteraction) -> None:
        self._owner = owner
        self.type: discord.InteractionResponseType | None = None

    def is_done(self) -> bool:
        return self.type is not None

    def _answer(self, kind: discord.InteractionResponseType, name: str, kwargs: dict[str, Any]) -> None:
        if self.is_done():
            raise discord.InteractionResponded(self._owner)  # type: ignore[arg-type]
        self._owner.calls.append(Call(name, kwargs))
        self._owner.raise_if_failing(name)
        self.type = kind

    async def send_message(self, content: str | None = None, **kwargs: Any) -> Any:
        self._answer(discord.InteractionResponseType.channel_message, "send_message", {"content": content, **kwargs})
        self._owner.message_id = next(_IDS)
        return SimpleNamespace(message_id=self._owner.message_id)

    async def edit_message(self, **kwargs: Any) -> None:
        self._answer(discord.InteractionResponseType.message_update, "edit_message", kwargs)

    async def defer(self, *, ephemeral: bool = False, thinking: bool = False) -> None:
        kind = (
            discord.InteractionResponseType.deferred_channel_message
            if thinking
            else discord.InteractionResponseType.deferred_message_update
        )
        self._answer(kind, "defer", {"ephemeral": ephemeral, "thinking": thinking})


class FakeFollowup:
    def __init__(self, owner: FakeInteraction) -> None:
        self._owner = owner

    async def send(self, content: str, **kwargs: Any) -> None:
        self._owner.calls.append(Call("followup", {"content": content, **kwargs}))
        self._owner.raise_if_failing("followup")


class FakeInteraction:
    """What the responder uses of ``discord.Interaction``; ``failing`` maps a method name to the error it
    raises (once). ``pressed``: the id of the message a press came from (``None``: a command), ``ephemeral`` when that
    message is one only its user sees (a private pad); ``private``: from a
    group DM or another person's DM (context PRIVATE_CHANNEL); ``installed``: in a guild, whether the app is installed
    there (``False``: only a user install brought the interaction); ``age``: seconds since Discord created it."""

    def __init__(
        self,
        *,
        locale: str = "en-US",
        channel_id: int = 1,
        guild_id: int | None = 5,
        pressed: int | None = None,
        ephemeral: bool = False,
        private: bool = False,
        installed: bool = True,
        age: float = 0.0,
    ) -> None:
        self.locale = discord.Locale(locale)
        self.channel_id = channel_id
        self.guild_id = None if private else guild_id
        self.installed = installed
        flags = discord.MessageFlags(ephemeral=ephemeral)
        self.message = None if pressed is None else SimpleNamespace(id=pressed, flags=flags)
        self.context = discord.AppCommandContext(guild=not private, private_channel=private)
        self.expires_at = discord.utils.utcnow() + datetime.timedelta(minutes=15, seconds=-age)
        self.token = f"itok-{next(_IDS)}-secret"
        self.user = SimpleNamespace(id=10)
        self.extras: dict[str, Any] = {}
        self.response = FakeResponse(self)
        self.followup = FakeFollowup(self)
        self.calls: list[Call] = []
        self.failing: dict[str, Exception] = {}
        self.message_id: int | None = None

    def is_guild_integration(self) -> bool:
        return self.guild_id is not None and self.installed

    def raise_if_failing(self, name: str) -> None:
        error = self.failing.pop(name, None)
        if error is not None:
            raise error

    async def edit_original_response(self, **kwargs: Any) -> Any:
        self.calls.append(Call("edit_original_response", kwargs))
        self.raise_if_failing("edit_original_response")
        if self.message_id is None:
            self.message_id = next(_IDS)
        return SimpleNamespace(id=self.message_id)

    async def original_response(self) -> Any:
        self.calls.append(Call("original_response", {}))
        self.raise_if_failing("original_response")
        return SimpleNamespace(id=self.message_id)

    async def delete_original_response(self) -> None:
        self.calls.append(Call("delete_original_response", {}))

    def named(self, name: str) -> list[dict[str, Any]]:
        """The keyword arguments of every call to ``name``."""
        return [call.kwargs for call in self.calls if call.name == name]


@dataclass
class Edit:
    channel_id: int
    message_id: int
    kwargs: dict[str, Any]


@dataclass
class FakeClient:
    """``client.get_partial_messageable(...).get_partial_message(id).edit(...)``, recorded in ``edits``."""

    edits: list[Edit] = field(default_factory=list)
    failing: dict[int, Exception] = field(default_factory=dict)
    closed: bool = False

    def is_closed(self) -> bool:
        return self.closed

    def get_partial_messageable(self, channel_id: int, *, guild_id: int | None = None) -> Any:
        client = self

        class _Message:
            def __init__(self, message_id: int) -> None:
                self.message_id = message_id

            async def edit(self, **kwargs: Any) -> None:
                client.edits.append(Edit(channel_id, self.message_id, kwargs))
                error = client.failing.pop(self.message_id, None)
                if error is not None:
                    raise error

        return SimpleNamespace(get_partial_message=_Message)


def http_error(status: int, code: int = 0) -> discord.HTTPException:
    """A ``discord.HTTPException`` as discord.py raises it for a response with ``status`` and error ``code``."""
    response = SimpleNamespace(status=status, reason="test")
    return discord.HTTPException(response, {"code": code, "message": "test"})  # type: ignore[arg-type]
