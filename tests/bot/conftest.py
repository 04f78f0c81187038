"""Test doubles for Discord: a recorded "world" of messages and fake interactions that answer into it.

The fakes follow discord.py's contracts where the bot relies on them: a response can be sent once
(a second raises, like ``InteractionResponded``), ``edit_original_response`` needs a prior response,
a view with a timeout starts its timer when it is sent. Every outgoing call is recorded, and each
test ends by checking that every interaction was answered exactly once and that every call carried
``AllowedMentions.none()``.
"""

from __future__ import annotations

import asyncio
import itertools
import random
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.ai import AI
from bot.cogs.ttt import TicTacToe
from bot.views import DYNAMIC_ITEMS

ALICE, BOB, CAROL = 111_111_111_111_111_111, 222_222_222_222_222_222, 333_333_333_333_333_333
CHANNEL, GUILD = 900_000_000_000_000_001, 800_000_000_000_000_001
BOT_ID = 700_000_000_000_000_001


@dataclass
class Call:
    """One outgoing Discord call."""

    method: str
    kwargs: dict[str, Any]
    interaction: FakeInteraction | None = None


@dataclass
class StoredMessage:
    """A message as the fake Discord holds it."""

    id: int
    channel_id: int
    content: str | None = None
    view: discord.ui.View | None = None
    ephemeral: bool = False


@dataclass
class World:
    """Everything the bot sent: messages by id and the calls in order."""

    messages: dict[int, StoredMessage] = field(default_factory=dict)
    calls: list[Call] = field(default_factory=list)
    interactions: list[FakeInteraction] = field(default_factory=list)
    ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1_000_000_000_000_000_001))
    fail_next_edit: bool = False

    def record(self, method: str, kwargs: dict[str, Any], interaction: FakeInteraction | None = None) -> None:
        self.calls.append(Call(method, kwargs, interaction))

    def post(self, channel_id: int, kwargs: dict[str, Any]) -> StoredMessage:
        message = StoredMessage(
            next(self.ids), channel_id, kwargs.get("content"), kwargs.get("view"), kwargs.get("ephemeral", False)
        )
        self.messages[message.id] = message
        return message

    def edit(self, message_id: int, kwargs: dict[str, Any]) -> StoredMessage:
        if self.fail_next_edit:
            self.fail_next_edit = False
            raise RuntimeError("simulated failure while editing")
        message = self.messages[message_id]
        if "content" in kwargs:
            message.content = kwargs["content"]
        if "view" in kwargs:
            message.view = kwargs["view"]
        return message

    def public(self) -> list[StoredMessage]:
        return [m for m in self.messages.values() if not m.ephemeral]


class _Store:
    """Stands in for discord.py's ViewStore when a view with a timeout is sent."""

    def remove_view(self, view: discord.ui.View) -> None:
        pass


class FakeResponse:
    """``Interaction.response``: records the one allowed response."""

    def __init__(self, interaction: FakeInteraction) -> None:
        self._interaction = interaction
        self.count = 0
        self.kind: str | None = None
        self.ephemeral = False
        self.content: str | None = None

    def is_done(self) -> bool:
        return self.count > 0

    async def _answer(self, kind: str, kwargs: dict[str, Any]) -> None:
        await asyncio.sleep(0)  # a real response is a network round trip: let other tasks run
        world = self._interaction.world
        world.record(f"response.{kind}", kwargs, self._interaction)
        if self.count:
            raise discord.InteractionResponded(self._interaction)  # type: ignore[arg-type]
        self.count += 1
        self.kind = kind

    async def send_message(self, content: str | None = None, **kwargs: Any) -> Any:
        kwargs["content"] = content
        await self._answer("send_message", kwargs)
        self.ephemeral = kwargs.get("ephemeral", False)
        self.content = content
        message = self._interaction.world.post(self._interaction.channel_id, kwargs)
        self._interaction.response_message_id = message.id
        view = kwargs.get("view")
        if view is not None and view.timeout is not None and not view.is_finished():
            view._start_listening_from_store(_Store())  # type: ignore[arg-type]
        return type("CallbackResponse", (), {"message_id": message.id})()

    async def edit_message(self, **kwargs: Any) -> None:
        await self._answer("edit_message", kwargs)
        assert self._interaction.message is not None, "edit_message needs a component interaction"
        self.content = kwargs.get("content")
        self._interaction.world.edit(self._interaction.message.id, kwargs)

    async def defer(self, *, ephemeral: bool = False, thinking: bool = False) -> None:
        await self._answer("defer", {"ephemeral": ephemeral, "thinking": thinking, "allowed_mentions": _NONE})
        self.ephemeral = ephemeral
        if thinking:  # a "thinking…" message that edit_original_response fills in
            message = self._interaction.world.post(self._interaction.channel_id, {"ephemeral": ephemeral})
            self._interaction.response_message_id = message.id


_NONE = discord.AllowedMentions.none()


class FakeFollowup:
    """``Interaction.followup``."""

    def __init__(self, interaction: FakeInteraction) -> None:
        self._interaction = interaction
        self.sent: list[dict[str, Any]] = []

    async def send(self, content: str | None = None, **kwargs: Any) -> None:
        assert self._interaction.response.is_done(), "a follow-up needs a response first"
        kwargs["content"] = content
        self.sent.append(kwargs)
        self._interaction.world.record("followup.send", kwargs, self._interaction)


@dataclass
class FakeMessage:
    id: int


@dataclass
class FakeCommand:
    name: str


class FakeInteraction:
    """A ``discord.Interaction`` double: user, channel, message, response, follow-up and the client."""

    def __init__(
        self,
        world: World,
        client: FakeBot,
        user: int,
        *,
        channel_id: int = CHANNEL,
        guild_id: int | None = GUILD,
        message_id: int | None = None,
        bot: bool = False,
    ) -> None:
        self.world = world
        self.client = client
        self.user = FakeUser(user, bot=bot)
        self.channel_id = channel_id
        self.guild_id = guild_id
        self.message = FakeMessage(message_id) if message_id is not None else None
        self.response = FakeResponse(self)
        self.followup = FakeFollowup(self)
        self.response_message_id: int | None = None
        self.command = FakeCommand("start")
        self.data: dict[str, Any] = {}
        world.interactions.append(self)

    async def edit_original_response(self, **kwargs: Any) -> FakeMessage:
        self.world.record("edit_original_response", kwargs, self)
        assert self.response.is_done(), "edit_original_response before any response"
        target = self.response_message_id if self.response_message_id is not None else self.message.id  # type: ignore[union-attr]
        self.world.edit(target, kwargs)
        self.response.content = kwargs.get("content", self.response.content)
        return FakeMessage(target)

    async def original_response(self) -> FakeMessage:
        assert self.response_message_id is not None
        return FakeMessage(self.response_message_id)

    # what the player sees privately
    def private_texts(self) -> list[str]:
        texts = [self.response.content] if self.response.ephemeral and self.response.content else []
        return texts + [f["content"] for f in self.followup.sent if f.get("ephemeral")]


@dataclass
class FakeUser:
    id: int
    bot: bool = False

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


class FakePartialMessage:
    def __init__(self, world: World, message_id: int) -> None:
        self.world, self.id = world, message_id

    async def edit(self, **kwargs: Any) -> None:
        self.world.record("message.edit", kwargs)
        self.world.edit(self.id, kwargs)


class FakeChannel:
    def __init__(self, world: World, channel_id: int) -> None:
        self.world, self.id = world, channel_id

    def get_partial_message(self, message_id: int) -> FakePartialMessage:
        return FakePartialMessage(self.world, message_id)

    async def history(self, *, limit: int) -> AsyncIterator[SimpleNamespace]:
        """The channel's public messages, newest first, shaped like ``discord.Message`` (author, components)."""
        self.world.record("channel.history", {"limit": limit, "allowed_mentions": _NONE})
        mine = [m for m in self.world.public() if m.channel_id == self.id]
        for message in sorted(mine, key=lambda m: m.id, reverse=True)[:limit]:
            children = [
                SimpleNamespace(custom_id=item.custom_id, disabled=getattr(item, "item", item).disabled)
                for item in (message.view.children if message.view is not None else [])
                if hasattr(getattr(item, "item", item), "disabled")
            ]
            rows = [SimpleNamespace(children=children)] if children else []
            yield SimpleNamespace(id=message.id, author=SimpleNamespace(id=BOT_ID), components=rows)


class FakeBot:
    """The parts of the bot the cog and the views use."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.user = SimpleNamespace(id=BOT_ID)
        self.cog: TicTacToe | None = None

    def get_cog(self, name: str) -> TicTacToe | None:
        return self.cog if name == "TicTacToe" else None

    def get_partial_messageable(self, channel_id: int, *, guild_id: int | None = None) -> FakeChannel:
        return FakeChannel(self.world, channel_id)


class Harness:
    """A world, a bot with the cog, and helpers to invoke commands and press buttons as a user."""

    def __init__(self, world: World, *, turn_timeout: float = 600.0, challenge_timeout: float = 60.0) -> None:
        self.world = world
        self.bot = FakeBot(world)
        self.cog = TicTacToe(
            self.bot,
            ai=AI(rng=random.Random(7)),
            turn_timeout=turn_timeout,
            challenge_timeout=challenge_timeout,
            rng=random.Random(3),
        )
        self.bot.cog = self.cog

    def interaction(self, user: int, **kwargs: Any) -> FakeInteraction:
        return FakeInteraction(self.world, self.bot, user, **kwargs)

    async def command(self, name: str, user: int, /, channel_id: int = CHANNEL, **options: Any) -> FakeInteraction:
        interaction = self.interaction(user, channel_id=channel_id)
        interaction.command = FakeCommand(name)
        command = getattr(TicTacToe, name if name not in ("stats", "help") else f"{name}_")
        await command.callback(self.cog, interaction, **options)
        return interaction

    def current(self, channel_id: int = CHANNEL) -> StoredMessage:
        session = self.cog.sessions.get(channel_id)
        assert session is not None and session.message_id is not None
        return self.world.messages[session.message_id]

    async def press(
        self, message_id: int, user: int, *, cell: int | None = None, label: str | None = None
    ) -> FakeInteraction:
        """Press a button of a stored message the way discord.py dispatches a DynamicItem."""
        view = self.world.messages[message_id].view
        assert view is not None, "the message has no components"
        wanted = [
            item
            for item in view.children
            if (cell is not None and getattr(item, "cell", None) == cell)
            or (label is not None and item.item.label == label)  # type: ignore[attr-defined]
        ]
        assert len(wanted) == 1, f"no single button for cell={cell} label={label}"
        return await self.press_custom_id(wanted[0].custom_id, user, message_id, disabled=wanted[0].item.disabled)  # type: ignore[attr-defined]

    async def press_custom_id(
        self, custom_id: str, user: int, message_id: int, *, disabled: bool = False, channel_id: int = CHANNEL
    ) -> FakeInteraction:
        """Dispatch a press from the ``custom_id`` alone (as after a restart)."""
        interaction = self.interaction(user, message_id=message_id, channel_id=channel_id)
        interaction.data = {"custom_id": custom_id, "component_type": 2}
        base = discord.ui.Button(custom_id=custom_id, disabled=disabled)
        for factory in DYNAMIC_ITEMS:
            match = factory.__discord_ui_compiled_template__.fullmatch(custom_id)
            if match is not None:
                item = await factory.from_custom_id(interaction, base, match)  # type: ignore[arg-type]
                assert await item.interaction_check(interaction)  # type: ignore[arg-type]
                await item.callback(interaction)  # type: ignore[arg-type]
                return interaction
        raise AssertionError(f"no dynamic item matches {custom_id!r}")

    async def click(self, message_id: int, label: str, user: int) -> FakeInteraction:
        """Press a button by its label: a ``DynamicItem`` as from its ``custom_id``, any other through discord.py's
        own view dispatch."""
        view = self.world.messages[message_id].view
        assert view is not None
        item = next(i for i in view.children if getattr(getattr(i, "item", i), "label", None) == label)
        if isinstance(item, discord.ui.DynamicItem):
            return await self.press_custom_id(item.custom_id, user, message_id)
        interaction = self.interaction(user, message_id=message_id)
        await view._scheduled_task(item, interaction)  # type: ignore[arg-type]
        return interaction


def allowed_none(kwargs: dict[str, Any]) -> bool:
    mentions = kwargs.get("allowed_mentions")
    return isinstance(mentions, discord.AllowedMentions) and mentions.to_dict() == _NONE.to_dict()


@pytest.fixture
def world() -> Any:
    world = World()
    yield world
    unanswered = [i for i in world.interactions if i.response.count != 1]
    assert not unanswered, f"{len(unanswered)} interaction(s) not answered exactly once"
    pinging = [c for c in world.calls if c.method != "response.defer" and not allowed_none(c.kwargs)]
    assert not pinging, f"calls without AllowedMentions.none(): {[c.method for c in pinging]}"


@pytest.fixture
async def harness(world: World) -> Any:
    harness = Harness(world)
    yield harness
    harness.cog.sessions.close()


def custom_ids(message: StoredMessage) -> list[str]:
    assert message.view is not None
    return [item.custom_id for item in message.view.children]  # type: ignore[attr-defined]


def cell_items(message: StoredMessage) -> list[Any]:
    assert message.view is not None
    return sorted((i for i in message.view.children if hasattr(i, "cell")), key=lambda i: i.cell)


MENTION = re.compile(r"<@\d+>")
