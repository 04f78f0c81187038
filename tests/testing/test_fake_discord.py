"""Tests of the fake Discord: raw REST/gateway protocol, real discord.py clients against it, rule enforcement."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import io
import json
import logging
import os
import sys
import zlib
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import aiohttp
import aiohttp.web
import discord
import jsonschema
import pytest
import pytest_asyncio
import yarl
from discord import app_commands
from PIL import Image
from referencing import Registry
from referencing.jsonschema import DRAFT202012

from testing.fake_discord import (
    CALLBACK_ROUTE,
    SPEC_OPERATIONS,
    FakeDiscord,
    FakeDiscordError,
    SpecValidator,
    find_spec,
)

pytestmark = pytest.mark.asyncio

TOKEN = "test-token"
FLOOR_BOT = Path(__file__).resolve().parents[2] / "testing" / "floor_bot.py"


@pytest_asyncio.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    """A fake answering at once and accepting IDENTIFYs back to back: these tests check the protocol; the network
    tests below set latencies, and the session start limit has tests of its own."""
    async with FakeDiscord(token=TOKEN, latency=(0.0, 0.0), identify_window=0.0) as f:
        yield f


@pytest.fixture
def no_client_errors(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """Fail the test if discord.py logged an error (e.g. an exception swallowed in a command handler)."""
    caplog.set_level(logging.WARNING, logger="discord")
    yield
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR and r.name.startswith("discord")]
    assert errors == []


@pytest_asyncio.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession(headers={"Authorization": f"Bot {TOKEN}"}) as session:
        yield session


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


# ---------------------------------------------------------------------------- REST and gateway protocol


async def test_rest_basics_content_type_and_unknown_routes(fake: FakeDiscord, http: aiohttp.ClientSession) -> None:
    async with http.get(f"{fake.api_base}/users/@me") as resp:
        assert resp.status == 200 and resp.headers["Content-Type"] == "application/json"
        assert (await resp.json())["id"] == fake.application_id
    async with http.get(f"{fake.api_base}/gateway/bot") as resp:
        body = await resp.json()
        assert body["url"] == fake.gateway_url and body["shards"] == 1
        assert body["session_start_limit"]["max_concurrency"] == 1
    async with aiohttp.ClientSession() as anon, anon.get(f"{fake.api_base}/users/@me") as resp:
        assert resp.status == 401
    assert fake.unknown_routes == []
    async with http.get(f"{fake.api_base}/guilds/1/bans") as resp:
        assert resp.status == 404 and resp.headers["Content-Type"] == "application/json"
    async with http.post(f"{fake.api_base}/users/@me") as resp:  # known path, wrong method
        assert resp.status == 404
    assert fake.unknown_routes == ["GET /api/v10/guilds/1/bans", "POST /api/v10/users/@me"]


async def test_gateway_zlib_identify_heartbeat_resume_reconnect(fake: FakeDiscord, http: aiohttp.ClientSession) -> None:
    gw = await RawGateway.open(http, fake)
    ready, guild = await gw.identify()
    assert (ready["t"], ready["s"], guild["t"], guild["s"]) == ("READY", 1, "GUILD_CREATE", 2)
    d = ready["d"]
    assert d["application"]["id"] == fake.application_id and d["shard"] == [0, 1]
    assert d["guilds"] == [{"id": fake.default_guild_id, "unavailable": True}]
    assert d["resume_gateway_url"] == fake.gateway_url
    g = guild["d"]
    assert len(g["channels"]) == 3 and fake.bot_user["id"] in [m["user"]["id"] for m in g["members"]]
    assert g["roles"][0]["name"] == "@everyone" and g["roles"][0]["id"] == g["id"]
    await fake.wait_for_ready(2)
    await gw.send(1, 2)
    assert (await gw.recv())["op"] == 11
    new_channel = fake.add_channel(name="late")
    created = await gw.next_dispatch("CHANNEL_CREATE")
    assert created["d"]["id"] == new_channel and created["s"] == 3

    await gw.ws.close()  # drop; the server survives and can resume the session
    await fake.wait_for_disconnect(2)
    gw2 = await RawGateway.open(http, fake)
    assert (await gw2.recv())["op"] == 10
    await gw2.send(6, {"token": TOKEN, "session_id": d["session_id"], "seq": 2})
    replayed = await gw2.recv()
    assert (replayed["t"], replayed["s"]) == ("CHANNEL_CREATE", 3)
    resumed = await gw2.recv()
    assert (resumed["t"], resumed["s"]) == ("RESUMED", 4)
    await gw2.ws.close()

    gw3 = await RawGateway.open(http, fake, compress=False)  # a fresh client after a "crash"
    await gw3.recv()
    await gw3.send(6, {"token": TOKEN, "session_id": "nope", "seq": 1})
    assert (await gw3.recv()) == {"op": 9, "d": False, "s": None, "t": None}
    await gw3.send(2, {"token": TOKEN, "shard": [0, 1]})
    ready3 = await gw3.recv()
    assert ready3["t"] == "READY" and ready3["d"]["session_id"] != d["session_id"]
    await fake.wait_for_ready(2, count=2)
    await gw3.ws.close()


async def test_gateway_refuses_unsupported_compression(fake: FakeDiscord, http: aiohttp.ClientSession) -> None:
    ws = await http.ws_connect(fake.gateway_url, params={"v": "10", "encoding": "json", "compress": "lz4"})
    msg = await ws.receive(timeout=2)
    assert msg.type is aiohttp.WSMsgType.CLOSE and msg.data == 4002


async def test_gateway_rejects_wrong_token(fake: FakeDiscord, http: aiohttp.ClientSession) -> None:
    gw = await RawGateway.open(http, fake)
    await gw.recv()
    await gw.send(2, {"token": "wrong"})
    msg = await gw.ws.receive(timeout=2)
    assert msg.type is aiohttp.WSMsgType.CLOSE and msg.data == 4004
    assert fake.identify_count == 0


async def test_stopping_refuses_a_client_reconnecting_and_does_not_wait_for_it(
    http: aiohttp.ClientSession, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A client told 1001 reconnects at once (discord.py does). A gateway connection accepted while the fake stops
    would hold its shutdown open for 60 s (aiohttp waits that long for a running handler): it is refused."""
    fake = FakeDiscord(channels=0)
    await fake.start()
    server_closes = asyncio.Event()
    cleanup = aiohttp.web.AppRunner.cleanup

    async def held_cleanup(runner: aiohttp.web.AppRunner) -> None:  # still listening until the test reconnected
        await server_closes.wait()
        await cleanup(runner)

    monkeypatch.setattr(aiohttp.web.AppRunner, "cleanup", held_cleanup)
    query = {"v": "10", "encoding": "json"}
    first = await http.ws_connect(fake.gateway_url, params=query)
    await first.receive(timeout=5)  # HELLO
    stopping = asyncio.create_task(fake.stop())
    msg = await first.receive(timeout=5)
    assert msg.type is aiohttp.WSMsgType.CLOSE and msg.data == 1001
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        await asyncio.wait_for(http.ws_connect(fake.gateway_url, params=query), 5)
    assert refused.value.status == 503
    loop = asyncio.get_running_loop()
    started = loop.time()
    server_closes.set()
    await asyncio.wait_for(stopping, 30)
    assert loop.time() - started < 5 and len(fake.gateway_queries) == 1


# ---------------------------------------------------------------------------- real discord.py clients


async def test_discord_py_client_commands_buttons_followups(fake: FakeDiscord, no_client_errors: None) -> None:
    gid, cid = fake.default_guild_id, fake.channels()[0]
    alice, bob = fake.make_user(1001, "alice"), fake.make_user(1002, "bob")
    client = GameClient()
    with pointed_at(fake):
        async with running(client, client.ready):
            guild = client.get_guild(int(gid))
            assert guild is not None and len(guild.text_channels) == 3 and guild.me is not None
            with pytest.raises(FakeDiscordError, match="not registered"):
                await fake.slash_command(gid, cid, alice, "ttt", "start", {"opponent": bob})

            await client.tree.sync()
            client.tree.copy_global_to(guild=discord.Object(int(gid)))
            synced = await client.tree.sync(guild=discord.Object(int(gid)))
            assert [c.name for c in synced] == ["ttt"] and synced[0].id == int(fake.commands(gid)[0]["id"])
            (glob,) = fake.commands()
            assert glob["name"] == "ttt" and {o["name"] for o in glob["options"]} == {"start", "slow", "file"}
            start_opts = next(o for o in glob["options"] if o["name"] == "start")["options"]
            assert [(o["name"], o["type"], o["required"]) for o in start_opts] == [
                ("opponent", 6, True),
                ("size", 4, False),
            ]
            with pytest.raises(FakeDiscordError, match="missing required"):
                await fake.slash_command(gid, cid, alice, "ttt", "start", {})

            rec = await fake.slash_command(gid, cid, alice, "ttt", "start", {"opponent": bob, "size": 3})
            await rec.wait(5)
            assert rec.error is None and rec.callback_type == 4 and not rec.ephemeral
            assert rec.content == "1001 vs 1002 size 3" and rec.latency is not None and 0 < rec.latency < 3
            assert rec.interaction["data"]["guild_id"] == gid
            board = fake.message(cid, rec.message_id or "")
            assert (
                board is not None
                and board["type"] == 20
                and board["components"][0]["components"][0]["custom_id"] == "board:go"
            )

            press = await fake.press_button(gid, cid, bob, board["id"], "board:go")
            await press
            assert press.callback_type == 7 and press.message_id == board["id"]
            assert board["content"] == "went" and board["components"][0]["components"][0]["disabled"] is True
            assert [m["id"] for m in fake.messages(cid)] == [board["id"]]
            with pytest.raises(FakeDiscordError, match="disabled"):
                await fake.press_button(gid, cid, bob, board["id"], "board:go")

            slow = await fake.slash_command(gid, cid, alice, "ttt", "slow")
            await slow
            assert slow.callback_type == 5 and slow.ephemeral
            followup = await slow.wait_for_event(lambda e: e.kind == "followup", timeout=5)
            assert [e.kind for e in slow.events] == ["callback", "edit_original", "followup"]
            original = fake.message(cid, slow.message_id or "")
            assert original is not None and original["content"] == "done" and original["flags"] == 64
            assert fake.message(cid, followup.message_id or "")["content"] == "extra"  # type: ignore[index]
            assert [m["content"] for m in fake.messages(cid, include_ephemeral=False)] == ["went"]

            sent = await fake.slash_command(gid, cid, alice, "ttt", "file")  # multipart/form-data callback
            await sent
            attached = fake.message(cid, sent.message_id or "")
            assert attached is not None and attached["content"] == "here"
            assert [a["filename"] for a in attached["attachments"]] == ["a.txt"]

            found = await fake.wait_for_message(lambda m: m["content"] == "here", 1, channel_id=cid)
            assert found is attached
    assert fake.violations == [] and fake.unknown_routes == []
    assert 0 < fake.max_first_callback_latency < 3 and len(fake.records) == 4


async def test_autosharded_client_uses_gateway_bot(fake: FakeDiscord, no_client_errors: None) -> None:
    client = ShardedClient()
    with pointed_at(fake):
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL("ws://127.0.0.1:9/never-used")
        async with running(client, client.ready):
            assert fake.route_hits["GET /gateway/bot"] == 1 and fake.route_hits["GET /oauth2/applications/@me"] == 1
            assert fake.identifies[-1]["shard"] == [0, 1] and fake.identifies[-1]["intents"] == client.intents.value
            assert [g.id for g in client.guilds] == [int(fake.default_guild_id)]
            assert client.shard_count == 1
            assert fake.gateway_queries == [{"v": "10", "encoding": "json", "compress": "zlib-stream"}]
    await fake.wait_for_disconnect(5)
    assert fake.unknown_routes == [] and fake.violations == []


# ---------------------------------------------------------------------------- rule enforcement


async def _callback(http: aiohttp.ClientSession, fake: FakeDiscord, rec: Any, body: dict[str, Any]) -> Any:
    url = f"{fake.api_base}/interactions/{rec.id}/{rec.token}/callback"
    async with http.post(url, json=body, params={"with_response": "1"}) as resp:
        assert resp.headers.get("Content-Type") == "application/json"
        return resp.status, await resp.json()


@pytest.mark.parametrize(
    ("data", "needle"),
    [
        ({"content": "x" * 2001}, "2000 or fewer"),
        ({"content": "rows", "components": [row(button(f"r{i}")) for i in range(6)]}, "5 or fewer"),
        ({"content": "wide", "components": [row(*[button(f"b{i}") for i in range(6)])]}, "5 or fewer in length"),
        (
            {"content": "label", "components": [row(button("a", label="L" * 81))]},
            "data.components.0.components.0.label: Must be 80 or fewer in length.",
        ),
        ({"content": "id", "components": [row(button("c" * 101))]}, "custom_id: Must be 100 or fewer"),
        ({"content": "dup", "components": [row(button("a"), button("a"))]}, "duplicate custom_id"),
        ({}, "empty message"),
    ],
)
@pytest.mark.invalid_bodies
async def test_invalid_messages_are_refused(
    fake: FakeDiscord, http: aiohttp.ClientSession, data: dict[str, Any], needle: str
) -> None:
    gw = await RawGateway.open(http, fake)
    await gw.identify()
    fake.allow_unregistered_commands = True
    rec = await fake.slash_command(None, fake.channels()[0], fake.make_user(7, "u"), "ttt", "start")
    status, body = await _callback(http, fake, rec, {"type": 4, "data": data})
    assert status == 400 and body["code"] in (50035, 50006)
    assert len(fake.violations) == 1 and needle in fake.violations[0].detail
    assert rec.error is not None and rec.callback_type is None and fake.messages(fake.channels()[0]) == []
    status, body = await _callback(http, fake, rec, {"type": 4, "data": {"content": "fine"}})  # not yet acked
    assert status == 200 and body["resource"]["message"]["content"] == "fine"


async def test_ack_rules_late_double_wrong_type_followup(fake: FakeDiscord, http: aiohttp.ClientSession) -> None:
    gw = await RawGateway.open(http, fake)
    await gw.identify()
    fake.allow_unregistered_commands = True
    cid, user = fake.channels()[1], fake.make_user(8, "u")

    rec = await fake.slash_command(None, cid, user, "ttt", "start", {"size": 3, "name": "x", "fast": True})
    event = await gw.next_dispatch("INTERACTION_CREATE")
    opts = event["d"]["data"]["options"][0]
    assert (opts["type"], [(o["name"], o["type"]) for o in opts["options"]]) == (
        1,
        [("size", 4), ("name", 3), ("fast", 5)],
    )
    async with http.post(
        f"{fake.api_base}/webhooks/{fake.application_id}/{rec.token}", json={"content": "early"}
    ) as resp:
        assert resp.status == 404 and (await resp.json())["code"] == 10015
    assert fake.violations[-1].rule == "followup_before_ack"
    status, body = await _callback(http, fake, rec, {"type": 7, "data": {"content": "no message to update"}})
    assert status == 400 and fake.violations[-1].rule == "invalid_callback_type"
    status, body = await _callback(http, fake, rec, {"type": 4, "data": {"content": "ok", "flags": 64}})
    assert status == 200
    assert body["interaction"] == {
        "id": rec.id,
        "type": 2,
        "activity_instance_id": None,
        "response_message_id": rec.message_id,
        "response_message_loading": False,
        "response_message_ephemeral": True,
    }
    status, body = await _callback(http, fake, rec, {"type": 4, "data": {"content": "again"}})
    assert (status, body["code"]) == (400, 40060) and fake.violations[-1].rule == "double_acknowledgement"
    assert rec.callback_type == 4 and rec.content == "ok" and rec.ephemeral and len(rec.events) == 1

    fake.ack_deadline = 0.05
    late = await fake.slash_command(None, cid, user, "ttt", "start")
    await asyncio.sleep(0.1)
    status, body = await _callback(http, fake, late, {"type": 5})
    assert (status, body["code"]) == (404, 10062) and fake.violations[-1].rule == "late_callback"
    await late
    assert late.error is not None and late.error.code == 10062 and late.latency is not None and late.latency > 0.05
    assert fake.max_first_callback_latency == late.latency
    assert [v.rule for v in fake.violations] == [
        "followup_before_ack",
        "invalid_callback_type",
        "double_acknowledgement",
        "late_callback",
    ]


@pytest.mark.invalid_bodies
async def test_press_button_rules_and_component_flow(fake: FakeDiscord, http: aiohttp.ClientSession) -> None:
    gw = await RawGateway.open(http, fake)
    await gw.identify()
    gid, cid, user = fake.default_guild_id, fake.channels()[2], fake.make_user(9, "u")
    board = fake.create_message(cid, "board", components=[row(button("off", disabled=True), button("on"))])
    with pytest.raises(FakeDiscordError, match="disabled"):
        await fake.press_button(gid, cid, user, board["id"], "off")
    with pytest.raises(FakeDiscordError, match="no component"):
        await fake.press_button(gid, cid, user, board["id"], "missing")
    with pytest.raises(FakeDiscordError, match="does not exist"):
        await fake.press_button(gid, cid, user, "123", "on")
    with pytest.raises(FakeDiscordError, match="not in guild"):
        await fake.press_button(gid, "456", user, board["id"], "on")

    rec = await fake.press_button(gid, cid, user, board["id"], "on")
    event = (await gw.next_dispatch("INTERACTION_CREATE"))["d"]
    assert event["type"] == 3 and event["data"] == {"custom_id": "on", "component_type": 2}
    assert event["message"]["id"] == board["id"] and event["member"]["user"]["id"] == "9"
    waiter = asyncio.create_task(fake.wait_for_message(lambda m: m["content"] == "moved", 2, channel_id=cid))
    status, _ = await _callback(http, fake, rec, {"type": 7, "data": {"content": "moved"}})
    assert status == 200 and (await waiter) is board and board["components"][0]["components"][1]["custom_id"] == "on"
    assert rec.interaction["message"]["content"] == "board"  # a snapshot of what was dispatched
    async with http.patch(
        f"{fake.api_base}/webhooks/{fake.application_id}/{rec.token}/messages/@original",
        json={"components": [row(button("on", disabled=True))]},
    ) as resp:
        assert resp.status == 200 and (await resp.json())["id"] == board["id"]
    assert [e.kind for e in rec.events] == ["callback", "edit_original"]
    with pytest.raises(FakeDiscordError, match="disabled"):
        await fake.press_button(gid, cid, user, board["id"], "on")

    async with http.post(f"{fake.api_base}/channels/{cid}/messages", json={"content": "y" * 2001}) as resp:
        assert resp.status == 400
    async with http.post(f"{fake.api_base}/channels/{cid}/messages", json={"content": "hi"}) as resp:
        posted = await resp.json()
    async with http.patch(f"{fake.api_base}/channels/{cid}/messages/{posted['id']}", json={"content": "ho"}) as resp:
        assert resp.status == 200
    assert [m["content"] for m in fake.messages(cid)] == ["moved", "ho"]
    async with http.delete(f"{fake.api_base}/channels/{cid}/messages/{posted['id']}") as resp:
        assert resp.status == 204
    assert fake.message(cid, posted["id"]) is None and len(fake.violations) == 1


async def test_a_deferred_update_keeps_the_pressed_message_as_original_and_tokens_expire(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    gw = await RawGateway.open(http, fake)
    await gw.identify()
    alice, bob = fake.make_user(41, "alice"), fake.make_user(42, "bob")
    group = fake.add_group_dm([alice, bob])
    board = fake.create_message(group, "board", components=[row(button("pick"))])
    rec = await fake.press_button(None, group, alice, board["id"], "pick")
    assert rec.interaction["context"] == 2
    status, _ = await _callback(http, fake, rec, {"type": 6})
    assert status == 200 and rec.message_id == board["id"] and board["content"] == "board"
    hook = f"{fake.api_base}/webhooks/{fake.application_id}/{rec.token}"
    async with http.post(hook, json={"content": "only you", "flags": 64}, params={"wait": "true"}) as resp:
        private = await resp.json()
    async with http.post(hook, json={"content": "everyone"}, params={"wait": "true"}) as resp:
        public = await resp.json()
    assert private["flags"] & 64 and not public["flags"] & 64
    with pytest.raises(FakeDiscordError, match="ephemeral"):
        await fake.press_button(None, group, bob, private["id"], "pick")
    async with http.patch(f"{hook}/messages/@original", json={"content": "edited"}) as resp:
        assert resp.status == 200 and (await resp.json())["id"] == board["id"]
    assert board["content"] == "edited" and fake.messages(group, include_ephemeral=False)[-1]["id"] == public["id"]
    async with http.patch(f"{fake.api_base}/channels/{group}/messages/{board['id']}", json={"content": "x"}) as resp:
        assert resp.status == 403  # the bot is not in the group DM: only the interaction can edit the board

    fake.token_lifetime = 0.05
    await asyncio.sleep(0.1)
    async with http.patch(f"{hook}/messages/@original", json={"content": "late"}) as resp:
        assert (resp.status, (await resp.json())["code"]) == (401, 50027)
    async with http.post(hook, json={"content": "late"}) as resp:
        assert resp.status == 401
    assert board["content"] == "edited"
    assert [v.rule for v in fake.violations] == ["missing_access", "expired_token", "expired_token"]


async def test_injection_requires_a_connected_client(fake: FakeDiscord) -> None:
    fake.allow_unregistered_commands = True
    with pytest.raises(FakeDiscordError, match="no gateway client"):
        await fake.slash_command(None, fake.channels()[0], fake.make_user(1, "u"), "ttt")
    with pytest.raises(asyncio.TimeoutError):
        await fake.wait_for_ready(0.05)


# ---------------------------------------------------------------------------- the floor bot subprocess


@pytest.mark.parametrize("mode", ["raw", "dynamic"])
async def test_floor_bot_subprocess_answers_with_update(fake: FakeDiscord, tmp_path: Path, mode: str) -> None:
    cid = fake.channels()[0]
    log_path = tmp_path / "floor.log"
    with log_path.open("wb") as log_file:
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            str(FLOOR_BOT),
            "--mode",
            mode,
            env={**os.environ, **fake.env()},
            stdout=log_file,
            stderr=log_file,
        )
    try:
        try:
            await fake.wait_for_ready(20)
        except TimeoutError:
            pytest.fail(f"floor bot never identified:\n{log_path.read_text()}")
        board = fake.create_message(cid, "board", components=[row(button("cell:0"), button("cell:1"))])
        rec = await fake.press_button(None, cid, fake.make_user(5, "p"), board["id"], "cell:1")
        await rec.wait(10)
        assert rec.error is None and rec.callback_type == 7 and board["content"] == "pressed"
        assert fake.violations == [] and fake.unknown_routes == []
    finally:
        proc.kill()
        await asyncio.wait_for(proc.wait(), 10)
    assert "Traceback" not in log_path.read_text()
    await fake.wait_for_disconnect(5)  # a killed client doesn't take the server down


# ---------------------------------------------------------------------------- network behaviour: latency and faults


async def _identified(http: aiohttp.ClientSession, fake: FakeDiscord) -> RawGateway:
    gw = await RawGateway.open(http, fake)
    await gw.identify()
    fake.allow_unregistered_commands = True
    return gw


async def test_latency_delays_answers_but_applies_on_arrival(fake: FakeDiscord, http: aiohttp.ClientSession) -> None:
    await _identified(http, fake)
    cid, user = fake.channels()[0], fake.make_user(11, "u")
    fake.latency = (0.2, 0.2)
    fake.callback_latency = (0.4, 0.4)
    rec = await fake.slash_command(None, cid, user, "ttt", "start")
    seen_before_answer = asyncio.create_task(fake.wait_for_message(lambda m: m["content"] == "hi", 2, channel_id=cid))
    started = asyncio.get_running_loop().time()
    status, _ = await _callback(http, fake, rec, {"type": 4, "data": {"content": "hi"}})
    answered = asyncio.get_running_loop().time() - started
    assert status == 200 and 0.4 <= answered < 1.0
    assert seen_before_answer.done(), "the callback must be applied when it arrives, before its answer"
    assert rec.latency is not None and rec.latency < 0.2, "first-callback latency is measured at arrival"
    async with http.get(f"{fake.api_base}/channels/{cid}/messages") as resp:
        assert resp.status == 200
    call = fake.rest_log[-1]
    assert (call.method, call.path, call.status) == ("GET", f"/channels/{cid}/messages", 200)
    assert 0.2 <= call.answered - call.arrived < 0.3

    fake.latency, fake.callback_latency = (0.01, 0.05), None  # changed at run time; callbacks follow latency
    for _ in range(5):
        async with http.get(f"{fake.api_base}/users/@me") as resp:
            assert resp.status == 200
    assert all(0.01 <= c.answered - c.arrived < 0.1 for c in fake.rest_log[-5:])
    with pytest.raises(ValueError, match="low <= high"):
        fake.latency = (0.2, 0.1)
    first, second = FakeDiscord(seed=7, latency=(0, 1)), FakeDiscord(seed=7, latency=(0, 1))
    assert [first._draw_delay("/x") for _ in range(3)] == [second._draw_delay("/x") for _ in range(3)]


async def test_inject_429_with_discords_body_and_headers(fake: FakeDiscord, http: aiohttp.ClientSession) -> None:
    cid = fake.channels()[0]
    fault = fake.inject("POST", rf"^/channels/{cid}/messages$", status=429, retry_after=4.0, times=1)
    async with http.post(f"{fake.api_base}/channels/{cid}/messages", json={"content": "a"}) as resp:
        assert resp.status == 429
        assert await resp.json() == {"message": "You are being rate limited.", "retry_after": 4.0, "global": False}
        headers = resp.headers
        assert headers["Retry-After"] == "4" and headers["X-RateLimit-Remaining"] == "0"
        assert float(headers["X-RateLimit-Reset-After"]) == 4.0 and headers["X-RateLimit-Bucket"]
        assert headers["Via"] and headers["X-RateLimit-Scope"] == "user" and "X-RateLimit-Global" not in headers
    assert fake.messages(cid) == [] and fault.hits == [f"POST /channels/{cid}/messages"] and not fault.active
    async with http.post(f"{fake.api_base}/channels/{cid}/messages", json={"content": "b"}) as resp:
        assert resp.status == 200
    fake.inject("*", r"^/users/@me$", retry_after=0.5, global_=True)
    async with http.get(f"{fake.api_base}/users/@me") as resp:
        body = await resp.json()
        assert resp.status == 429 and body["global"] is True and resp.headers["X-RateLimit-Global"] == "true"
    with pytest.raises(ValueError):
        fake.inject("GET", "x", status=200)
    with pytest.raises(ValueError):
        fake.inject("GET", "x", status=None)


async def test_discord_py_waits_out_an_injected_429(fake: FakeDiscord, no_client_errors: None) -> None:
    fake.latency = (0.05, 0.15)
    cid = fake.channels()[0]
    client = GameClient()
    with pointed_at(fake):
        async with running(client, client.ready):
            channel = client.get_channel(int(cid))
            assert isinstance(channel, discord.TextChannel)
            fault = fake.inject("POST", rf"^/channels/{cid}/messages$", retry_after=0.6, times=2)
            started = asyncio.get_running_loop().time()
            sent = await channel.send("after the rate limit")
            waited = asyncio.get_running_loop().time() - started
            assert len(fault.hits) == 2 and waited >= 1.2, waited
            assert fake.message(cid, str(sent.id)) is not None
            statuses = [c.status for c in fake.rest_log if c.path == f"/channels/{cid}/messages"]
            assert statuses == [429, 429, 200]


async def test_inject_5xx_times_and_always(fake: FakeDiscord, http: aiohttp.ClientSession) -> None:
    cid = fake.channels()[0]
    msg = fake.create_message(cid, "board")
    url = f"{fake.api_base}/channels/{cid}/messages/{msg['id']}"
    fake.inject("PATCH", rf"/messages/{msg['id']}$", status=500, times=2)
    for expected in (500, 500, 200):
        async with http.patch(url, json={"content": "edited"}) as resp:
            assert resp.status == expected
            if expected == 500:
                assert (await resp.json())["message"] == "500: Internal Server Error"
                assert msg["content"] == "board", "a refused edit is not applied"
    always = fake.inject("PATCH", rf"/messages/{msg['id']}$", status=503, times="always")
    for _ in range(3):
        async with http.patch(url, json={"content": "never"}) as resp:
            assert resp.status == 503
    assert len(always.hits) == 3 and always.active and msg["content"] == "edited"
    fake.clear_faults()
    async with http.patch(url, json={"content": "again"}) as resp:
        assert resp.status == 200


async def test_applied_but_lost_answers(fake: FakeDiscord, http: aiohttp.ClientSession) -> None:
    await _identified(http, fake)
    cid, user = fake.channels()[1], fake.make_user(12, "u")
    rec = await fake.slash_command(None, cid, user, "ttt", "start")
    fake.inject("POST", r"/callback$", status=502, applied=True, interaction=lambda r: r.id == rec.id)
    status, _ = await _callback(http, fake, rec, {"type": 4, "data": {"content": "applied"}})
    assert status == 502 and rec.acknowledged and rec.answer_lost and rec.content == "applied"
    assert [m["content"] for m in fake.messages(cid)] == ["applied"]
    status, body = await _callback(http, fake, rec, {"type": 4, "data": {"content": "retried"}})
    assert (status, body["code"]) == (400, 40060) and body["message"] == "Interaction has already been acknowledged."
    assert rec.callback_statuses == [502, 400] and fake.violations == [], "a retry after a lost answer breaks no rule"
    assert [m["content"] for m in fake.messages(cid)] == ["applied"]

    # a message send applied, then the connection dropped: the client sees no answer at all
    fake.inject("POST", rf"^/channels/{cid}/messages$", applied=True, drop=True)
    with pytest.raises(aiohttp.ServerDisconnectedError):
        async with http.post(f"{fake.api_base}/channels/{cid}/messages", json={"content": "sent"}):
            pass
    assert [m["content"] for m in fake.messages(cid)] == ["applied", "sent"]
    assert fake.rest_log[-1].status == 0
    # an applied fault whose request fails anyway is not used up
    lost = fake.inject("PATCH", r"/messages/", status=502, applied=True)
    async with http.patch(f"{fake.api_base}/channels/{cid}/messages/1", json={"content": "x"}) as resp:
        assert resp.status == 404
    assert lost.active and lost.hits == []


async def test_discord_py_retries_a_lost_callback_answer_into_40060(fake: FakeDiscord) -> None:
    """discord.py's webhook adapter retries a 5xx after 1 s; the retry meets 40060, which the app sees."""
    errors: list[Exception] = []
    client = GameClient()
    group = client.tree.get_command("ttt")
    assert isinstance(group, app_commands.Group)

    @group.command(name="echo", description="Answer once")
    async def echo(interaction: discord.Interaction) -> None:
        try:
            await interaction.response.send_message("echo")
        except discord.HTTPException as exc:
            errors.append(exc)

    gid, cid = fake.default_guild_id, fake.channels()[0]
    with pointed_at(fake):
        async with running(client, client.ready):
            client.tree.copy_global_to(guild=discord.Object(int(gid)))
            await client.tree.sync(guild=discord.Object(int(gid)))
            fake.inject("POST", r"/callback$", status=502, applied=True)
            rec = await fake.slash_command(gid, cid, fake.make_user(13, "u"), "ttt", "echo")
            await rec.wait(5)
            await fake.wait_for(lambda: len(rec.callback_statuses) == 2, 5)
    assert rec.content == "echo" and rec.callback_statuses == [502, 400]
    assert len(errors) == 1 and isinstance(errors[0], discord.HTTPException) and errors[0].code == 40060
    assert [m["content"] for m in fake.messages(cid)] == ["echo"] and fake.violations == []


async def test_slow_answer_for_one_interaction(fake: FakeDiscord, http: aiohttp.ClientSession) -> None:
    await _identified(http, fake)
    cid = fake.channels()[0]
    slow_user, quick_user = fake.make_user(14, "slow"), fake.make_user(15, "quick")
    fake.inject("POST", r"/callback$", status=None, delay=0.5, interaction=lambda r: r.user["id"] == slow_user["id"])
    slow = await fake.slash_command(None, cid, slow_user, "ttt", "start")
    quick = await fake.slash_command(None, cid, quick_user, "ttt", "start")
    loop = asyncio.get_running_loop()
    started = loop.time()
    (slow_status, _), (quick_status, _) = await asyncio.gather(
        _callback(http, fake, slow, {"type": 4, "data": {"content": "slow"}}),
        _callback(http, fake, quick, {"type": 4, "data": {"content": "quick"}}),
    )
    assert slow_status == quick_status == 200 and loop.time() - started >= 0.5
    durations = {c.path.split("/")[2]: c.answered - c.arrived for c in fake.rest_log[-2:]}
    assert durations[slow.id] >= 0.5 > durations[quick.id]


# ---------------------------------------------------------------------------- gateway: shards and closes


async def test_shards_get_only_their_guilds(fake: FakeDiscord, http: aiohttp.ClientSession) -> None:
    zero_guild = fake.add_guild("zero", shard=(0, 2))
    one_guild = fake.add_guild("one", shard=(1, 2))
    assert FakeDiscord.shard_of(zero_guild, 2) == 0 and FakeDiscord.shard_of(one_guild, 2) == 1
    shards = {}
    for shard_id in (0, 1):
        gw = await RawGateway.open(http, fake)
        ready, _ = await gw.identify(shard=(shard_id, 2))
        owned = {g["id"] for g in ready["d"]["guilds"]}
        assert owned == {g for g in fake.guilds if FakeDiscord.shard_of(g, 2) == shard_id}
        assert (zero_guild if shard_id == 0 else one_guild) in owned
        await gw.dispatches("GUILD_CREATE", quiet=0.1)
        shards[shard_id] = gw
    assert sorted(fake.connected_shards()) == [(0, 2), (1, 2)]

    fake.allow_unregistered_commands = True
    user = fake.make_user(21, "u")
    for gid in (zero_guild, one_guild):
        fake.add_member(gid, user)
        cid = fake.add_channel(gid)
        await fake.slash_command(gid, cid, user, "ttt")
    dm = fake.add_dm_channel(user)
    await fake.slash_command(None, dm, user, "ttt")
    late_guild = fake.add_guild("late", shard=(1, 2))
    assert [r.shard for r in fake.records] == [(0, 2), (1, 2), (0, 2)]
    got = {shard_id: await gw.dispatches("INTERACTION_CREATE") for shard_id, gw in shards.items()}
    assert [f["d"].get("guild_id") for f in got[0]] == [zero_guild, None], "DMs go to shard 0"
    assert [f["d"].get("guild_id") for f in got[1]] == [one_guild]

    fake.add_channel(late_guild)
    assert await shards[0].dispatches("CHANNEL_CREATE", quiet=0.2) == []
    assert len(await shards[1].dispatches("CHANNEL_CREATE", quiet=0.2)) == 1

    bad = await RawGateway.open(http, fake)
    await bad.recv()
    await bad.send(2, {"token": TOKEN, "shard": [2, 2]})
    msg = await bad.ws.receive(timeout=2)
    assert msg.type is aiohttp.WSMsgType.CLOSE and msg.data == 4010


async def test_an_identify_too_early_in_its_bucket_gets_an_invalid_session(http: aiohttp.ClientSession) -> None:
    window = 0.5
    async with FakeDiscord(token=TOKEN, latency=(0.0, 0.0), max_concurrency=2, identify_window=window) as fake:
        async with http.get(f"{fake.api_base}/gateway/bot") as resp:
            assert (await resp.json())["session_start_limit"]["max_concurrency"] == 2
        for shard_id in range(4):  # RawGateway.identify waits for a GUILD_CREATE
            fake.add_guild(f"guild {shard_id}", shard=(shard_id, 4))
        assert fake.env()["DISCORD_IDENTIFY_WINDOW_SECONDS"] == "0.5"
        first, other_bucket, too_early = [await RawGateway.open(http, fake) for _ in range(3)]
        await first.identify(shard=(0, 4))
        await other_bucket.identify(shard=(1, 4))  # bucket 1: its own window
        await too_early.recv()
        await too_early.send(2, {"token": TOKEN, "intents": 1, "properties": {}, "shard": [2, 4]})  # bucket 0 again
        refusal = await too_early.recv()
        assert (refusal["op"], refusal["d"]) == (9, False)
        assert [(i.reason, i.shard) for i in fake.invalid_sessions] == [("identify too early", (2, 4))]
        assert sorted(fake.connected_shards()) == [(0, 4), (1, 4)]

        await asyncio.sleep(window)  # the bucket's window has passed: the same IDENTIFY is accepted
        retry = await RawGateway.open(http, fake)
        ready, _ = await retry.identify(shard=(2, 4))
        assert ready["t"] == "READY" and ready["d"]["shard"] == [2, 4]
        assert len(fake.invalid_sessions) == 1 and fake.identify_count == 3


async def test_a_new_fake_keeps_discords_five_seconds() -> None:
    fake = FakeDiscord(spec=False)
    assert fake.identify_window == 5.0 and fake.max_concurrency == 1
    assert fake.env()["DISCORD_IDENTIFY_WINDOW_SECONDS"] == "5"
    with pytest.raises(ValueError, match="max_concurrency"):
        FakeDiscord(spec=False, max_concurrency=0)


async def test_message_events_reach_only_connections_with_the_intent(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    fake.message_events = True
    chatty, quiet = fake.add_guild("chatty", shard=(0, 2)), fake.add_guild("quiet", shard=(1, 2))
    gateways = {}
    for shard_id, intents in ((0, 1 | 1 << 9), (1, 1)):  # guilds + guild messages; guilds only
        gateway = await RawGateway.open(http, fake)
        await gateway.identify(shard=(shard_id, 2), intents=intents)
        await gateway.dispatches("GUILD_CREATE", quiet=0.1)
        gateways[shard_id] = gateway
    user = fake.make_user(31, "chatter")
    for guild in (chatty, quiet):
        channel = fake.add_channel(guild)
        fake.create_message(channel, "hello", author=user)
        fake.create_message(channel, "hello again", author=user)
    assert [f["d"]["content"] for f in await gateways[0].dispatches("MESSAGE_CREATE")] == ["hello", "hello again"]
    assert await gateways[1].dispatches("MESSAGE_CREATE") == []


async def test_gateway_close_codes_are_recorded(fake: FakeDiscord, http: aiohttp.ClientSession) -> None:
    client = ShardedClient()
    with pointed_at(fake):
        async with running(client, client.ready):
            pass
    await fake.wait_for(lambda: bool(fake.gateway_closes), 5)
    assert [(c.code, c.by, c.shard) for c in fake.gateway_closes] == [(1000, "client", (0, 1))]

    gw = await RawGateway.open(http, fake)
    await gw.identify()
    assert await fake.close_gateway(4004, "Authentication failed.") == 1
    msg = await gw.ws.receive(timeout=2)
    assert msg.type is aiohttp.WSMsgType.CLOSE and msg.data == 4004
    await fake.wait_for(lambda: len(fake.gateway_closes) == 2, 5)
    assert (fake.gateway_closes[-1].code, fake.gateway_closes[-1].by) == (4004, "server")


# ---------------------------------------------------------------------------- DMs, group DMs, user installs


class InstallClient(discord.Client):
    """An app whose /dice command may be user-installed and used anywhere; /guildonly stays a guild command."""

    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.05)
        self.ready = asyncio.Event()
        self.tree = app_commands.CommandTree(self)

        @self.tree.command(name="dice", description="Roll a die")
        @app_commands.allowed_installs(guilds=True, users=True)
        @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
        async def dice(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("rolled 4", view=BoardView())
            await interaction.followup.send("and a followup")
            await interaction.edit_original_response(content="rolled 5")

        @self.tree.command(name="guildonly", description="Only in servers")
        @app_commands.allowed_installs(guilds=True, users=False)
        @app_commands.allowed_contexts(guilds=True, dms=False, private_channels=False)
        async def guildonly(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("guild")

    async def on_ready(self) -> None:
        self.ready.set()


async def test_group_dm_and_dm_interactions_of_a_user_install(
    fake: FakeDiscord, http: aiohttp.ClientSession, no_client_errors: None
) -> None:
    alice, bob, carol = (fake.make_user(31 + i, n) for i, n in enumerate(("alice", "bob", "carol")))
    group = fake.add_group_dm([alice, bob, carol], name="friends")
    dm_between_users = fake.add_dm_channel(alice, other=bob)
    bot_dm = fake.add_dm_channel(alice)
    client = InstallClient()
    with pointed_at(fake):
        async with running(client, client.ready):
            await client.tree.sync()
            dice = next(c for c in fake.commands() if c["name"] == "dice")
            assert dice["integration_types"] == [0, 1] and dice["contexts"] == [0, 1, 2]
            with pytest.raises(FakeDiscordError, match="integration_types"):
                await fake.slash_command(None, group, alice, "guildonly")
            with pytest.raises(FakeDiscordError, match="not a recipient"):
                await fake.slash_command(None, group, fake.make_user(39, "stranger"), "dice")

            rec = await fake.slash_command(None, group, bob, "dice")
            payload = rec.interaction
            assert payload["context"] == 2 and "guild_id" not in payload and "member" not in payload
            assert payload["user"]["id"] == bob["id"] and payload["authorizing_integration_owners"] == {"1": bob["id"]}
            assert payload["channel"]["type"] == 3 and len(payload["channel"]["recipients"]) == 3
            await rec.wait_for_event(lambda e: e.kind == "edit_original", 5)
            original = fake.message(group, rec.message_id or "")
            assert original is not None and original["content"] == "rolled 5" and original["guild_id"] is None
            assert [e.kind for e in rec.events] == ["callback", "followup", "edit_original"]
            owners = original["interaction_metadata"]["authorizing_integration_owners"]
            assert owners == {"1": bob["id"]}

            press = await fake.press_button(None, group, carol, original["id"], "board:go")
            await press
            assert press.callback_type == 7 and press.interaction["authorizing_integration_owners"] == owners
            assert fake.message(group, original["id"])["content"] == "went"  # type: ignore[index]

            in_dm = await fake.slash_command(None, dm_between_users, alice, "dice")
            await in_dm.wait_for_event(lambda e: e.kind == "edit_original", 5)
            assert in_dm.interaction["context"] == 2 and in_dm.interaction["channel"]["type"] == 1
            with_bot = await fake.slash_command(None, bot_dm, alice, "dice", install="guild")
            await with_bot
            assert with_bot.interaction["context"] == 1
            assert with_bot.interaction["authorizing_integration_owners"] == {"0": "0"}
            with pytest.raises(FakeDiscordError, match="guild-installed"):
                await fake.slash_command(None, group, alice, "dice", install="guild")

    for cid in (group, dm_between_users):
        async with http.post(f"{fake.api_base}/channels/{cid}/messages", json={"content": "hi"}) as resp:
            assert (resp.status, (await resp.json())["code"]) == (403, 50001)
        async with http.get(f"{fake.api_base}/channels/{cid}/messages") as resp:
            assert resp.status == 403
        async with http.patch(
            f"{fake.api_base}/channels/{cid}/messages/{fake.messages(cid)[0]['id']}", json={"content": "x"}
        ) as resp:
            assert (resp.status, (await resp.json())["message"]) == (403, "Missing Access")
    async with http.post(f"{fake.api_base}/channels/{bot_dm}/messages", json={"content": "hi"}) as resp:
        assert resp.status == 200, "the bot is a recipient of its own DM"
    assert {v.rule for v in fake.violations} == {"missing_access"} and len(fake.violations) == 6


# ---------------------------------------------------------------------------- command trees and forged presses


class FrenchTranslator(app_commands.Translator):
    """Translates into French from a table (``bad`` adds a name Discord refuses)."""

    def __init__(self, bad: bool = False) -> None:
        self.table = {"dice": "de", "Roll a die": "Lancer un dé", "faces": "faces", "Six": "Six faces"}
        if bad:
            self.table["faces"] = "Nombre De Faces"

    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: app_commands.TranslationContext
    ) -> str | None:
        return self.table.get(string.message) if locale is discord.Locale.french else None


class LocalizedClient(discord.Client):
    def __init__(self, translator: app_commands.Translator) -> None:
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.05)
        self.ready = asyncio.Event()
        self.tree = app_commands.CommandTree(self)
        self.translator = translator

        @self.tree.command(name="dice", description="Roll a die")
        @app_commands.describe(faces="Roll a die")
        @app_commands.rename(faces="faces")
        @app_commands.choices(faces=[app_commands.Choice(name="Six", value=6)])
        @app_commands.allowed_installs(guilds=True, users=True)
        async def dice(interaction: discord.Interaction, faces: int) -> None:
            await interaction.response.send_message(str(faces))

    async def setup_hook(self) -> None:
        await self.tree.set_translator(self.translator)

    async def on_ready(self) -> None:
        self.ready.set()


@pytest.mark.invalid_bodies
async def test_synced_commands_keep_localizations_installs_and_contexts(fake: FakeDiscord) -> None:
    client = LocalizedClient(FrenchTranslator())
    with pointed_at(fake):
        async with running(client, client.ready):
            await client.tree.sync()
    (dice,) = fake.commands()
    assert dice["name_localizations"] == {"fr": "de"} and dice["description_localizations"] == {"fr": "Lancer un dé"}
    assert dice["integration_types"] == [0, 1]
    (faces,) = dice["options"]
    assert faces["name_localizations"] == {"fr": "faces"} and faces["description_localizations"]["fr"]
    assert faces["choices"][0]["name_localizations"] == {"fr": "Six faces"}
    assert fake.violations == []

    bad = LocalizedClient(FrenchTranslator(bad=True))
    with pointed_at(fake):
        async with running(bad, bad.ready):
            with pytest.raises(discord.HTTPException) as refused:
                await bad.tree.sync()
    assert refused.value.status == 400 and refused.value.code == 50035
    (violation,) = fake.violations
    assert violation.rule == "invalid_commands" and "Nombre De Faces" in violation.detail
    assert "options.0.name_localizations.fr" in violation.detail


@pytest.mark.parametrize(
    ("command", "needle"),
    [
        ({"name": "Ttt", "description": "d"}, "invalid name 'Ttt'"),
        ({"name": "ttt", "description": "d", "name_localizations": {"de": "zwei worte"}}, "invalid name"),
        ({"name": "ttt", "description": "d", "name_localizations": {"xx": "ttt"}}, "not a Discord locale"),
        ({"name": "ttt", "description": "d", "description_localizations": {"fr": ""}}, "fr: Must be 1 or more"),
        ({"name": "ttt", "description": "d", "options": [{"type": 3, "name": "a b", "description": "d"}]}, "a b"),
        ({"name": "ttt", "description": "d", "contexts": [5]}, "contexts"),
    ],
)
@pytest.mark.invalid_bodies
async def test_invalid_command_trees_are_refused(
    fake: FakeDiscord, http: aiohttp.ClientSession, command: dict[str, Any], needle: str
) -> None:
    async with http.put(f"{fake.api_base}/applications/{fake.application_id}/commands", json=[command]) as resp:
        assert resp.status == 400 and (await resp.json())["code"] == 50035
    assert len(fake.violations) == 1 and needle in fake.violations[0].detail and fake.commands() == []
    ok = {"name": "tic-tac-toe_3", "description": "d", "name_localizations": {"hi": "खेल", "th": "เกม", "ru": "игра"}}
    async with http.put(f"{fake.api_base}/applications/{fake.application_id}/commands", json=[ok]) as resp:
        assert resp.status == 200


async def test_press_custom_id_sends_any_id(fake: FakeDiscord, http: aiohttp.ClientSession) -> None:
    gw = await _identified(http, fake)
    cid, user = fake.channels()[0], fake.make_user(41, "u")
    board = fake.create_message(cid, "board", components=[row(button("first"), button("real", disabled=True))])
    rec = await fake.press_custom_id(None, cid, user, board["id"], "ttt:zz:whatever", like="real")
    event = (await gw.next_dispatch("INTERACTION_CREATE"))["d"]
    assert event["data"] == {"custom_id": "ttt:zz:whatever", "component_type": 2}
    assert event["message"]["id"] == board["id"] and rec.component_message_id == board["id"]
    pressed = event["message"]["components"][0]["components"]
    assert [(b["custom_id"], b["disabled"]) for b in pressed] == [("first", False), ("ttt:zz:whatever", False)]
    assert board["components"][0]["components"][1]["custom_id"] == "real", "the stored message is unchanged"
    status, _ = await _callback(http, fake, rec, {"type": 4, "data": {"content": "no longer active", "flags": 64}})
    assert status == 200 and rec.ephemeral
    with pytest.raises(FakeDiscordError, match="does not exist"):
        await fake.press_custom_id(None, cid, user, "404", "foo")
    with pytest.raises(FakeDiscordError, match="no button"):
        await fake.press_custom_id(None, cid, user, board["id"], "foo", like="missing")
    default = await fake.press_custom_id(None, cid, user, board["id"], "foo")
    assert default.interaction["message"]["components"][0]["components"][0]["custom_id"] == "foo"


# ---------------------------------------------------------------------------- Discord's specification

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


async def _refused(resp: aiohttp.ClientResponse) -> tuple[int, Any]:
    return resp.status, await resp.json() if resp.content_type == "application/json" else None


async def _send(http: aiohttp.ClientSession, fake: FakeDiscord, path: str, data: dict[str, Any]) -> tuple[int, Any]:
    """Send ``data`` as a new or edited message through one of the fake's message routes."""
    gid, cid, user = fake.default_guild_id, fake.channels()[0], fake.make_user(31, "player")
    hook = f"{fake.api_base}/webhooks/{fake.application_id}"
    if path in ("callback", "followup", "edit_original"):
        rec = await fake.slash_command(None, cid, user, "ttt", "start")
        if path == "callback":
            return await _callback(http, fake, rec, {"type": 4, "data": data})
        assert (await _callback(http, fake, rec, {"type": 5}))[0] == 200
        if path == "followup":
            async with http.post(f"{hook}/{rec.token}", json=data, params={"wait": "true"}) as resp:
                return await _refused(resp)
        async with http.patch(f"{hook}/{rec.token}/messages/@original", json=data) as resp:
            return await _refused(resp)
    if path == "update":
        board = fake.create_message(cid, "", components=[row(button("base"))])
        rec = await fake.press_button(gid, cid, user, board["id"], "base")
        return await _callback(http, fake, rec, {"type": 7, "data": data})
    if path == "channel_post":
        async with http.post(f"{fake.api_base}/channels/{cid}/messages", json=data) as resp:
            return await _refused(resp)
    assert path == "channel_edit"
    base = fake.create_message(cid, "", components=[row(button("base"))])
    async with http.patch(f"{fake.api_base}/channels/{cid}/messages/{base['id']}", json=data) as resp:
        return await _refused(resp)


MESSAGE_PATHS = ["callback", "update", "followup", "edit_original", "channel_post", "channel_edit"]


async def test_every_body_route_has_an_operation_in_the_spec() -> None:
    spec = SpecValidator.shared()
    assert spec.path == find_spec() and spec.path.parts[-3:] == ("shared", "discord-api-spec", "openapi.json")
    for method, route in SPEC_OPERATIONS:
        assert spec.validator(method, route) is not None, (method, route)
    assert spec.validator("GET", "/users/@me") is None


SPEC_SAMPLES: list[tuple[str, dict[str, Any] | list[Any]]] = [
    (CALLBACK_ROUTE, {"type": 4, "data": {"content": "hi", "components": [row(button("a"), button("b"))]}}),
    (CALLBACK_ROUTE, {"type": 7, "data": layout(container(text("t"), row(button("a"))), gallery("attachment://x"))}),
    (CALLBACK_ROUTE, {"type": 4, "data": {"attachments": [{"id": "0", "filename": "b.png"}], "flags": 64}}),
    (CALLBACK_ROUTE, {"type": 6}),
    (CALLBACK_ROUTE, {"type": 4, "data": {"content": "w" * 2000}}),
    (CALLBACK_ROUTE, {"type": 4, "data": {"content": "\n" * 2000}}),
    (CALLBACK_ROUTE, {"type": 4, "data": {"content": "x" * 2001}}),
    (CALLBACK_ROUTE, {"type": 4, "data": {"components": [row(button("a", label="L" * 81))]}}),
    (CALLBACK_ROUTE, {"type": 4, "data": {"components": [row({"type": 2, "style": 9, "custom_id": "a"})]}}),
    (CALLBACK_ROUTE, {"type": 4, "data": {"components": [{"type": 2, "style": 1, "custom_id": "a"}]}}),
    (CALLBACK_ROUTE, {"type": 4, "data": layout(container(text("")))}),
    (CALLBACK_ROUTE, {"type": 4, "data": layout(container(row(button("a")), {"type": 99}))}),
    (CALLBACK_ROUTE, {"type": 4, "data": {"attachments": [{"id": "x1"}]}}),
    (CALLBACK_ROUTE, {"type": 42}),
    (CALLBACK_ROUTE, {"type": 6, "data": None}),
    (CALLBACK_ROUTE, {"type": 4, "data": {"content": "x", "allowed_mentions": None, "embeds": None}}),
    (CALLBACK_ROUTE, {"type": 4, "data": {"content": "x", "allowed_mentions": "all"}}),
    (CALLBACK_ROUTE, {"type": 4, "data": {"components": [row(*[button(str(i)) for i in range(5)])]}}),
    (CALLBACK_ROUTE, {"type": 4, "data": {"components": [row(*[button(str(i)) for i in range(6)])]}}),
    (CALLBACK_ROUTE, {"type": 4, "data": {"components": [row({**button("e"), "emoji": None})]}}),
    (CALLBACK_ROUTE, {"type": 4, "data": {"components": [row({**button("e"), "emoji": {"name": 5}})]}}),
    (CALLBACK_ROUTE, {"type": 4, "data": {"components": [row(button("c" * 100))]}}),
    (CALLBACK_ROUTE, {"type": 4, "data": {"components": [row(button("d" * 100))]}}),  # same shape: checked once
    (CALLBACK_ROUTE, {"type": 4, "data": {"components": [row(button("e" * 101))]}}),
    (CALLBACK_ROUTE, {"type": 4, "data": {"components": [row(button(""))]}}),
    (CALLBACK_ROUTE, {"type": 4, "data": {"components": [row(button("x" * 99 + "\n"))]}}),
    (CALLBACK_ROUTE, {"type": 4, "data": {"components": [row(button("\\" * 100))]}}),
    (CALLBACK_ROUTE, {"type": 4, "data": {"components": [row(button("'" * 101))]}}),
    (CALLBACK_ROUTE, {"type": 4, "data": {"components": [row(button("\"'" * 51))]}}),
    (CALLBACK_ROUTE, {"type": 4.0, "data": {"content": "a float type"}}),
    (CALLBACK_ROUTE, {"type": True, "data": {"content": "a boolean type"}}),
    (CALLBACK_ROUTE, {"data": {}}),
    ("/webhooks/{app_id}/{token}", {"embeds": [{"title": "t" * 257}]}),
    ("/webhooks/{app_id}/{token}", {"content": "ok", "allowed_mentions": {"parse": []}}),
    ("/channels/{channel_id}/messages", {"content": "ok", "components": [row(button("a", label=""))]}),
    ("/applications/{app_id}/commands", [{"name": "ttt", "description": "d" * 101}]),
    ("/applications/{app_id}/commands", [{"name": "ttt", "description": "d", "options": [{"type": 1}]}]),
]


@functools.cache
def published_validator(method: str, route: str) -> jsonschema.Draft202012Validator:
    """The operation's request-body schema exactly as Discord publishes it (no rewriting: ~30 ms a body)."""
    raw = json.loads(SpecValidator.shared().path.read_text())
    pointer = "/".join(
        p.replace("~", "~0").replace("/", "~1")
        for p in ("paths", SPEC_OPERATIONS[(method, route)], method.lower(), "requestBody", "content")
    )
    registry = Registry().with_resource("urn:raw", DRAFT202012.create_resource(raw))
    return jsonschema.Draft202012Validator({"$ref": f"urn:raw#/{pointer}/application~1json/schema"}, registry=registry)


@pytest.mark.parametrize(("route", "body"), SPEC_SAMPLES)
async def test_the_faster_schema_judges_as_the_published_one(route: str, body: Any) -> None:
    """The fake rewrites the spec's unions for speed: it must accept and refuse exactly what the spec does."""
    method = {"/channels/{channel_id}/messages": "POST", "/applications/{app_id}/commands": "PUT"}.get(route, "POST")
    published = published_validator(method, route).is_valid(body)
    assert (SpecValidator.shared().errors(method, route, body) == []) is published


async def test_snowflakes_may_be_integers_as_on_discord() -> None:
    """The one place the fake is laxer than the spec: discord.py sends a file's attachment id as an integer (its
    files[n] index), which Discord takes; the spec only lists strings."""
    body = {"type": 4, "data": {"attachments": [{"id": 0, "filename": "b.png"}]}}
    assert not published_validator("POST", CALLBACK_ROUTE).is_valid(body)
    assert SpecValidator.shared().errors("POST", CALLBACK_ROUTE, body) == []
    assert SpecValidator.shared().errors("POST", CALLBACK_ROUTE, {"type": 4, "data": {"attachments": [{"id": -1}]}})


@pytest.mark.invalid_bodies
async def test_bodies_the_spec_refuses_get_discords_invalid_form_body(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    gw = await _identified(http, fake)
    status, body = await _send(http, fake, "callback", {"components": [row(button("a", label="L" * 81))]})
    label_error = {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 80 or fewer in length."}]}
    assert (status, body) == (
        400,
        {
            "code": 50035,
            "message": "Invalid Form Body",
            "errors": {"data": {"components": {"0": {"components": {"0": {"label": label_error}}}}}},
        },
    )
    (violation,) = fake.violations
    assert violation.rule == "openapi_schema" and violation.invalid_body
    assert violation.detail == "data.components.0.components.0.label: Must be 80 or fewer in length."

    status, body = await _send(
        http, fake, "followup", {"content": "ok", "components": [row({"type": 2, "custom_id": "a"})]}
    )
    assert status == 400 and body["errors"]["components"]["0"]["components"]["0"]["style"]["_errors"] == [
        {"code": "BASE_TYPE_REQUIRED", "message": "This field is required"}
    ]
    status, body = await _send(http, fake, "channel_post", {"content": "ok", "tts": "yes"})
    assert status == 400 and fake.violations[-1].detail == "tts: 'yes' is not of type 'boolean', 'null'"
    assert [v.rule for v in fake.violations] == ["openapi_schema"] * 3
    assert [m["flags"] for m in fake.messages(fake.channels()[0])] == [128]  # only the followup's deferral

    status, body = await _send(http, fake, "callback", {"content": "valid", "components": [row(button("a"))]})
    assert status == 200 and body["resource"]["message"]["content"] == "valid" and len(fake.violations) == 3
    assert not gw.ws.closed


async def test_a_fake_without_the_spec_checks_only_its_own_rules(http: aiohttp.ClientSession) -> None:
    async with FakeDiscord(token=TOKEN, latency=(0.0, 0.0), spec=False) as fake:
        gw = await _identified(http, fake)
        status, _ = await _send(http, fake, "channel_post", {"content": "ok", "tts": "yes"})
        assert status == 200 and fake.violations == [] and not gw.ws.closed


# ---------------------------------------------------------------------------- Components V2


def many_buttons(count: int) -> list[dict[str, Any]]:
    """``count`` components in all: rows of up to 4 buttons, each row counting as one."""
    rows, left, n = [], count, 0
    while left > 0:
        take = min(4, left - 1) if left > 1 else 0
        if take == 0:
            rows.append(text("end"))
            break
        rows.append(row(*[button(f"b{n + i}") for i in range(take)]))
        n, left = n + take, left - take - 1
    return rows


V2_OK = layout(container(text("## Board"), row(button("a"), button("b"))), text("last move: b2"))
V2_REFUSED = [
    ({**V2_OK, "content": "hello"}, "content: can't be used with IS_COMPONENTS_V2 (MESSAGE_CANNOT_USE_LEGACY_FIELDS)"),
    (
        {**V2_OK, "embeds": [{"title": "t"}]},
        "embeds: can't be used with IS_COMPONENTS_V2 (MESSAGE_CANNOT_USE_LEGACY_FIELDS)",
    ),
    (layout(*many_buttons(41)), "components: at most 40 components in total, nested ones included (got 41)"),
    (
        layout(text("x" * 3000), container(text("y" * 1001))),
        "components: text displays hold at most 4000 characters (got 4001)",
    ),
    (layout(container(row(button("a"))), row(button("a"))), "duplicate custom_id 'a'"),
    (layout({**text("a"), "id": 7}, {**text("b"), "id": 7}), "duplicate component id 7"),
    (
        {"components": [container(text("t"))]},
        "components.0: top-level components must be action rows without IS_COMPONENTS_V2 (got type 17)",
    ),
    ({"components": [row(button(f"r{i}")) for i in range(6)]}, "components: must be 5 or fewer in length (got 6 rows)"),
    (
        layout({"type": 13, "file": {"url": "https://example.com/a.txt"}}),
        "a file component must refer to an uploaded file (attachment://<filename>)",
    ),
    (
        layout(gallery("attachment://missing.png")),
        "components.0.items.0.media.url: attachment://missing.png refers to no file of the message",
    ),
]


async def test_forty_components_are_allowed(fake: FakeDiscord, http: aiohttp.ClientSession) -> None:
    gw = await _identified(http, fake)
    body = layout(*many_buttons(40))
    assert sum(1 + len(c.get("components", [])) for c in body["components"]) == 40
    status, answer = await _send(http, fake, "callback", body)
    assert status == 200 and answer["resource"]["message"]["flags"] == CV2 and fake.violations == []
    status, _ = await _send(http, fake, "channel_post", layout(text("x" * 2000), container(text("y" * 2000))))
    assert status == 200 and fake.violations == [] and not gw.ws.closed


@pytest.mark.parametrize("path", MESSAGE_PATHS)
async def test_a_components_v2_message_passes_every_route(
    fake: FakeDiscord, http: aiohttp.ClientSession, path: str
) -> None:
    gw = await _identified(http, fake)
    status, _ = await _send(http, fake, path, V2_OK)
    assert status == 200 and fake.violations == []
    (stored,) = [m for m in fake.messages(fake.channels()[0]) if m["components"] == V2_OK["components"]]
    assert stored["flags"] & CV2 and stored["content"] == "" and not gw.ws.closed


@pytest.mark.invalid_bodies
@pytest.mark.parametrize("path", MESSAGE_PATHS)
@pytest.mark.parametrize(("data", "error"), V2_REFUSED)
async def test_components_v2_rules_on_every_route(
    fake: FakeDiscord, http: aiohttp.ClientSession, path: str, data: dict[str, Any], error: str
) -> None:
    gw = await _identified(http, fake)
    before = {m["id"]: json.dumps(m) for m in fake.messages(fake.channels()[0])}
    status, body = await _send(http, fake, path, data)
    assert (status, body["code"], body["message"]) == (400, 50035, "Invalid Form Body")
    (violation,) = fake.violations
    assert violation.detail == error and violation.invalid_body and error in json.dumps(body["errors"])
    after = {m["id"]: json.dumps(m) for m in fake.messages(fake.channels()[0])}
    assert all(after[i] == before[i] for i in before), "a refused edit changed the message"
    assert all(json.loads(m)["components"] != data["components"] for m in after.values()) and not gw.ws.closed


@pytest.mark.invalid_bodies
async def test_components_v2_is_sticky_and_opting_in_needs_no_content(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    cid = fake.channels()[0]
    messages = f"{fake.api_base}/channels/{cid}/messages"
    async with http.post(messages, json=V2_OK) as resp:
        v2 = await resp.json()
    async with http.patch(f"{messages}/{v2['id']}", json={"flags": 0, "components": [text("still v2")]}) as resp:
        assert resp.status == 200 and (await resp.json())["flags"] == CV2  # the flag can't be dropped
    async with http.patch(f"{messages}/{v2['id']}", json={"content": "back to text", "components": []}) as resp:
        assert resp.status == 400 and fake.violations[-1].detail.startswith("content: can't be used")
    assert fake.message(cid, v2["id"])["components"] == [text("still v2")]  # type: ignore[index]

    async with http.post(messages, json={"content": "classic", "components": [row(button("c"))]}) as resp:
        classic = await resp.json()
    async with http.patch(f"{messages}/{classic['id']}", json=layout(text("now v2"))) as resp:
        assert resp.status == 400, "the old content would stay: Discord wants it set to null"
    async with http.patch(f"{messages}/{classic['id']}", json={**layout(text("now v2")), "content": None}) as resp:
        edited = await resp.json()
        assert resp.status == 200 and edited["flags"] == CV2 and edited["content"] == ""
    assert [v.rule for v in fake.violations] == ["invalid_message", "invalid_message"]


# ---------------------------------------------------------------------------- attachments in multipart form


def png(width: int, height: int, colour: str = "red") -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), colour).save(out, "PNG")
    return out.getvalue()


def form(payload: dict[str, Any], *files: tuple[int, str, bytes], names: list[str] | None = None) -> aiohttp.FormData:
    """A multipart/form-data body as discord.py builds it: ``payload_json``, then ``files[n]`` parts."""
    data = aiohttp.FormData()
    data.add_field("payload_json", json.dumps(payload))
    for i, (index, filename, content) in enumerate(files):
        name = names[i] if names else f"files[{index}]"
        data.add_field(name, content, filename=filename, content_type="application/octet-stream")
    return data


async def _upload(
    http: aiohttp.ClientSession, fake: FakeDiscord, path: str, data: dict[str, Any], *files: tuple[int, str, bytes]
) -> tuple[int, Any]:
    """Send ``data`` with ``files`` (multipart) as a new message through one of the fake's routes."""
    cid, user = fake.channels()[0], fake.make_user(32, "player")
    if path == "channel_post":
        async with http.post(f"{fake.api_base}/channels/{cid}/messages", data=form(data, *files)) as resp:
            return await _refused(resp)
    rec = await fake.slash_command(None, cid, user, "ttt", "start")
    url = f"{fake.api_base}/interactions/{rec.id}/{rec.token}/callback"
    if path == "callback":
        async with http.post(url, data=form({"type": 4, "data": data}, *files), params={"with_response": "1"}) as resp:
            status, body = await _refused(resp)
            return status, body["resource"]["message"] if status == 200 else body
    async with http.post(url, json={"type": 5}) as resp:
        assert resp.status == 204
    hook = f"{fake.api_base}/webhooks/{fake.application_id}/{rec.token}"
    if path == "followup":
        async with http.post(hook, data=form(data, *files), params={"wait": "true"}) as resp:
            return await _refused(resp)
    async with http.patch(f"{hook}/messages/@original", data=form(data, *files)) as resp:
        return await _refused(resp)


PICTURE = layout(container(text("Ultimate"), gallery("attachment://board.png")))


@pytest.mark.parametrize("path", ["callback", "followup", "edit_original", "channel_post"])
async def test_an_uploaded_file_is_stored_and_served(fake: FakeDiscord, http: aiohttp.ClientSession, path: str) -> None:
    gw = await _identified(http, fake)
    picture = png(90, 60)
    attached = {**PICTURE, "attachments": [{"id": 0, "filename": "board.png", "description": "the board"}]}
    status, message = await _upload(http, fake, path, attached, (0, "board.png", picture))
    assert status == 200 and fake.violations == [] and not gw.ws.closed
    (attachment,) = message["attachments"]
    assert {k: attachment[k] for k in ("filename", "size", "content_type", "width", "height", "description")} == {
        "filename": "board.png",
        "size": len(picture),
        "content_type": "image/png",
        "width": 90,
        "height": 60,
        "description": "the board",
    }
    assert attachment["url"].startswith(f"{fake.base_url}/attachments/{attachment['id']}/")
    async with http.get(attachment["url"]) as resp:
        assert resp.status == 200 and resp.content_type == "image/png" and await resp.read() == picture
    assert fake.message(fake.channels()[0], message["id"])["attachments"] == [attachment]  # type: ignore[index]


@pytest.mark.invalid_bodies
@pytest.mark.parametrize(
    ("data", "files", "names", "error"),
    [
        (
            {"attachments": [{"id": 1}], "content": "x"},
            [(0, "a.txt", b"a")],
            None,
            "attachments.0.id: '1' matches no files[n] part",
        ),
        (
            PICTURE,
            [(0, "other.png", b"p")],
            None,
            "components.0.components.1.items.0.media.url: attachment://board.png refers to no file of the message",
        ),
        (
            {"content": "x"},
            [(0, "a.txt", b"a")],
            ["file"],
            "unexpected form part 'file' (expected payload_json or files[n] with a filename)",
        ),
        ({"content": "x"}, [(0, "a.txt", b"a"), (0, "b.txt", b"b")], None, "files[0]: sent twice"),
        ({"content": "x" * 2001}, [(0, "a.txt", b"a")], None, "data.content: Must be 2000 or fewer in length."),
    ],
)
async def test_refused_uploads(
    fake: FakeDiscord,
    http: aiohttp.ClientSession,
    data: dict[str, Any],
    files: list[tuple[int, str, bytes]],
    names: list[str] | None,
    error: str,
) -> None:
    gw = await _identified(http, fake)
    rec = await fake.slash_command(None, fake.channels()[0], fake.make_user(33, "u"), "ttt", "start")
    url = f"{fake.api_base}/interactions/{rec.id}/{rec.token}/callback"
    async with http.post(url, data=form({"type": 4, "data": data}, *files, names=names)) as resp:
        assert resp.status == 400 and (await resp.json())["code"] == 50035
    await rec.wait(1)  # the refused attempt resolves the record at once
    assert rec.error is not None and rec.error.code == 50035 and not rec.acknowledged
    (violation,) = fake.violations
    assert violation.detail == error and violation.invalid_body and not gw.ws.closed
    assert fake.files == {} and fake.messages(fake.channels()[0]) == []


async def test_edits_keep_or_replace_attachments(fake: FakeDiscord, http: aiohttp.ClientSession) -> None:
    gw = await _identified(http, fake)
    first, second = png(10, 10, "red"), png(20, 20, "blue")
    status, message = await _upload(
        http, fake, "channel_post", {"content": "files", "attachments": [{"id": 0}, {"id": 1}]},
        (0, "a.png", first), (1, "b.png", second),
    )  # fmt: skip
    assert status == 200 and [a["filename"] for a in message["attachments"]] == ["a.png", "b.png"]
    old_a, old_b = message["attachments"]
    edit = f"{fake.api_base}/channels/{fake.channels()[0]}/messages/{message['id']}"
    async with http.patch(edit, json={"content": "kept"}) as resp:  # no attachments: all stay
        assert (await resp.json())["attachments"] == [old_a, old_b]
    new = png(30, 30, "green")
    payload = {"attachments": [{"id": old_b["id"]}, {"id": 0, "filename": "c.png"}]}
    async with http.patch(edit, data=form(payload, (0, "upload.png", new))) as resp:  # keep b, add c, drop a
        kept_b, added = (await resp.json())["attachments"]
    assert kept_b == old_b and added["filename"] == "c.png" and added["width"] == 30
    async with http.get(old_a["url"]) as resp:
        assert resp.status == 404  # a dropped file is gone
    async with http.get(added["url"]) as resp:
        assert await resp.read() == new
    async with http.patch(edit, json={"attachments": []}) as resp:
        assert (await resp.json())["attachments"] == [] and fake.files == {}
    status, again = await _upload(http, fake, "channel_post", {"content": "one more"}, (0, "d.png", first))
    assert status == 200 and len(fake.files) == 1
    async with http.delete(f"{fake.api_base}/channels/{fake.channels()[0]}/messages/{again['id']}") as resp:
        assert resp.status == 204 and fake.files == {}  # a deleted message's files go with it
    assert fake.violations == [] and not gw.ws.closed


# ---------------------------------------------------------------------------- discord.py's LayoutView and File


class BoardLayout(discord.ui.LayoutView):
    """A Components V2 board as the bot's 5x5 and ultimate boards are built: a container with a header, the
    picture in a media gallery, and a row of buttons."""

    def __init__(self, header: str) -> None:
        super().__init__(timeout=None)
        move = discord.ui.Button["BoardLayout"](label="Move", custom_id="layout:move")
        move.callback = self.move  # type: ignore[method-assign]
        self.add_item(
            discord.ui.Container(
                discord.ui.TextDisplay(header),
                discord.ui.MediaGallery(discord.MediaGalleryItem("attachment://board.png")),
                discord.ui.ActionRow(move),
            )
        )

    async def move(self, interaction: discord.Interaction) -> None:
        picture = discord.File(io.BytesIO(png(40, 40, "blue")), "board.png")
        await interaction.response.edit_message(view=BoardLayout("## moved"), attachments=[picture])


class LayoutClient(discord.Client):
    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.05)
        self.ready = asyncio.Event()
        self.tree = app_commands.CommandTree(self)

        @self.tree.command(name="board", description="Show a Components V2 board")
        async def board(interaction: discord.Interaction) -> None:
            picture = discord.File(io.BytesIO(png(80, 80)), "board.png")
            await interaction.response.send_message(view=BoardLayout("## Ultimate"), file=picture)

        @self.tree.command(name="broken", description="Send a layout with text beside it")
        async def broken(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("text too", view=BoardLayout("## Ultimate"))

    async def on_ready(self) -> None:
        self.ready.set()


@pytest.mark.invalid_bodies
async def test_discord_py_layout_view_with_a_file(fake: FakeDiscord, http: aiohttp.ClientSession) -> None:
    gid, cid, user = fake.default_guild_id, fake.channels()[0], fake.make_user(1201, "alice")
    client = LayoutClient()
    with pointed_at(fake):
        async with running(client, client.ready):
            await client.tree.sync()
            rec = await fake.slash_command(gid, cid, user, "board")
            await rec.wait(5)
            assert rec.error is None and rec.callback_type == 4
            message = fake.message(cid, rec.message_id or "")
            assert message is not None and message["flags"] == CV2 and message["content"] == ""
            (box,) = message["components"]
            assert [c["type"] for c in box["components"]] == [10, 12, 1]
            (attachment,) = message["attachments"]
            assert (attachment["filename"], attachment["width"]) == ("board.png", 80)
            async with http.get(attachment["url"]) as resp:
                assert await resp.read() == png(80, 80)

            press = await fake.press_button(gid, cid, user, message["id"], "layout:move")
            await press.wait_for_event(lambda e: e.kind == "callback", timeout=5)
            (replaced,) = message["attachments"]
            assert replaced["id"] != attachment["id"] and replaced["width"] == 40  # the picture was replaced
            assert message["components"][0]["components"][0]["content"] == "## moved" and message["flags"] == CV2
            assert fake.violations == []

            broken = await fake.slash_command(gid, cid, user, "broken")
            await broken.wait(5)
            assert broken.error is not None and broken.error.code == 50035
            (violation,) = fake.violations
            assert violation.detail == (
                "content: can't be used with IS_COMPONENTS_V2 (MESSAGE_CANNOT_USE_LEGACY_FIELDS); "
                "components.0.components.1.items.0.media.url: attachment://board.png refers to no file of the message"
            )
