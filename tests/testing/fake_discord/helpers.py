"""Shared helpers of the fake's tests: a raw gateway client, discord.py clients pointed at the fake, message
builders, and raw REST calls of every message route."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import zlib
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import aiohttp
import discord
import yarl
from discord import app_commands
from PIL import Image

from testing.fake_discord import FakeDiscord

TOKEN = "test-token"
FLOOR_BOT = Path(__file__).resolve().parents[3] / "testing" / "floor_bot.py"


def button(custom_id: str, label: str = "x", disabled: bool = False) -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id, "disabled": disabled}


def row(*buttons: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(buttons)}


class RawGateway:
    """A minimal gateway client speaking zlib-stream (or plain JSON), to test the protocol directly."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse, compress: bool) -> None:
        self.ws = ws
        self.inflater = zlib.decompressobj() if compress else None

    @classmethod
    async def open(cls, http: aiohttp.ClientSession, fake: FakeDiscord, *, compress: bool = True) -> RawGateway:
        query = {"v": "10", "encoding": "json"} | ({"compress": "zlib-stream"} if compress else {})
        ws = await http.ws_connect(fake.gateway_url, params=query)
        return cls(ws, compress)

    async def recv(self, timeout: float = 2.0) -> dict[str, Any]:
        msg = await self.ws.receive(timeout=timeout)
        if self.inflater is not None:
            assert msg.type is aiohttp.WSMsgType.BINARY, msg
            assert msg.data.endswith(b"\x00\x00\xff\xff")
            return json.loads(self.inflater.decompress(msg.data))  # type: ignore[no-any-return]
        assert msg.type is aiohttp.WSMsgType.TEXT, msg
        return json.loads(msg.data)  # type: ignore[no-any-return]

    async def send(self, op: int, d: Any) -> None:
        await self.ws.send_str(json.dumps({"op": op, "d": d}))

    async def identify(
        self, token: str = TOKEN, shard: tuple[int, int] = (0, 1), intents: int = 513
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """IDENTIFY (default intents: guilds and guild messages); returns READY and the first GUILD_CREATE."""
        hello = await self.recv()
        assert hello["op"] == 10 and hello["d"]["heartbeat_interval"] > 0
        await self.send(2, {"token": token, "intents": intents, "properties": {}, "shard": list(shard)})
        ready, guild = await self.recv(), await self.recv()
        return ready, guild

    async def dispatches(self, event: str, quiet: float = 0.3) -> list[dict[str, Any]]:
        """Every ``event`` dispatch until nothing arrives for ``quiet`` seconds."""
        found = []
        with contextlib.suppress(TimeoutError):
            while True:
                frame = await self.recv(quiet)
                if frame["op"] == 0 and frame["t"] == event:
                    found.append(frame)
        return found

    async def next_dispatch(self, event: str, timeout: float = 2.0) -> dict[str, Any]:
        while True:
            frame = await self.recv(timeout)
            if frame["op"] == 0 and frame["t"] == event:
                return frame


@contextlib.contextmanager
def pointed_at(fake: FakeDiscord) -> Iterator[None]:
    """Point discord.py's REST base and default gateway at the fake, restoring them afterwards."""
    old = discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    discord.http.Route.BASE = fake.api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)
    try:
        yield
    finally:
        discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old


@contextlib.asynccontextmanager
async def running(client: discord.Client, ready: asyncio.Event) -> AsyncIterator[None]:
    """Run ``client`` until ``ready`` is set (or fail fast if it crashes), then close it."""
    task = asyncio.create_task(client.start(TOKEN))
    waiter = asyncio.create_task(ready.wait())
    try:
        done, _ = await asyncio.wait({task, waiter}, timeout=10, return_when=asyncio.FIRST_COMPLETED)
        if task in done:
            task.result()
        assert waiter in done, "client never became ready"
        yield
    finally:
        waiter.cancel()
        await client.close()
        with contextlib.suppress(asyncio.CancelledError, asyncio.TimeoutError):
            await asyncio.wait_for(task, 5)


class BoardView(discord.ui.View):
    @discord.ui.button(label="Go", custom_id="board:go")
    async def go(self, interaction: discord.Interaction, btn: discord.ui.Button[BoardView]) -> None:
        btn.disabled = True
        await interaction.response.edit_message(content="went", view=self)


class GameClient(discord.Client):
    """A small discord.py app with a /ttt group, used to drive the fake end to end."""

    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.05)
        self.ready = asyncio.Event()
        self.tree = app_commands.CommandTree(self)
        group = app_commands.Group(name="ttt", description="Tic-tac-toe")

        @group.command(name="start", description="Start a game")
        async def start(interaction: discord.Interaction, opponent: discord.User, size: int = 3) -> None:
            await interaction.response.send_message(
                f"{interaction.user.id} vs {opponent.id} size {size}", view=BoardView()
            )

        @group.command(name="slow", description="Defer, edit, follow up")
        async def slow(interaction: discord.Interaction) -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            await interaction.edit_original_response(content="done")
            await interaction.followup.send("extra", ephemeral=True)

        @group.command(name="file", description="Send an attachment")
        async def file(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("here", file=discord.File(io.BytesIO(b"abc"), "a.txt"))

        self.tree.add_command(group)

    async def on_ready(self) -> None:
        self.ready.set()


class ShardedClient(discord.AutoShardedClient):
    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.05)
        self.ready = asyncio.Event()

    async def on_ready(self) -> None:
        self.ready.set()


async def callback(http: aiohttp.ClientSession, fake: FakeDiscord, rec: Any, body: dict[str, Any]) -> Any:
    url = f"{fake.api_base}/interactions/{rec.id}/{rec.token}/callback"
    async with http.post(url, json=body, params={"with_response": "1"}) as resp:
        assert resp.headers.get("Content-Type") == "application/json"
        return resp.status, await resp.json()


async def identified(http: aiohttp.ClientSession, fake: FakeDiscord) -> RawGateway:
    gw = await RawGateway.open(http, fake)
    await gw.identify()
    fake.allow_unregistered_commands = True
    return gw


CV2 = 1 << 15


def text(content: str) -> dict[str, Any]:
    return {"type": 10, "content": content}


def container(*children: dict[str, Any]) -> dict[str, Any]:
    return {"type": 17, "components": list(children)}


def gallery(*urls: str) -> dict[str, Any]:
    return {"type": 12, "items": [{"media": {"url": url}} for url in urls]}


def layout(*components: dict[str, Any]) -> dict[str, Any]:
    """A Components V2 message body."""
    return {"flags": CV2, "components": list(components)}


async def refused(resp: aiohttp.ClientResponse) -> tuple[int, Any]:
    return resp.status, await resp.json() if resp.content_type == "application/json" else None


async def send(http: aiohttp.ClientSession, fake: FakeDiscord, path: str, data: dict[str, Any]) -> tuple[int, Any]:
    """Send ``data`` as a new or edited message through one of the fake's message routes."""
    gid, cid, user = fake.default_guild_id, fake.channels()[0], fake.make_user(31, "player")
    hook = f"{fake.api_base}/webhooks/{fake.application_id}"
    if path in ("callback", "followup", "edit_original"):
        rec = await fake.slash_command(None, cid, user, "ttt", "start")
        if path == "callback":
            return await callback(http, fake, rec, {"type": 4, "data": data})
        assert (await callback(http, fake, rec, {"type": 5}))[0] == 200
        if path == "followup":
            async with http.post(f"{hook}/{rec.token}", json=data, params={"wait": "true"}) as resp:
                return await refused(resp)
        async with http.patch(f"{hook}/{rec.token}/messages/@original", json=data) as resp:
            return await refused(resp)
    if path == "update":
        board = fake.create_message(cid, "", components=[row(button("base"))])
        rec = await fake.press_button(gid, cid, user, board["id"], "base")
        return await callback(http, fake, rec, {"type": 7, "data": data})
    if path == "channel_post":
        async with http.post(f"{fake.api_base}/channels/{cid}/messages", json=data) as resp:
            return await refused(resp)
    assert path == "channel_edit"
    base = fake.create_message(cid, "", components=[row(button("base"))])
    async with http.patch(f"{fake.api_base}/channels/{cid}/messages/{base['id']}", json=data) as resp:
        return await refused(resp)


MESSAGE_PATHS = ["callback", "update", "followup", "edit_original", "channel_post", "channel_edit"]


def png(width: int, height: int, colour: str = "red") -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), colour).save(out, "PNG")
    return out.getvalue()
