"""Tests of the fake Discord: raw REST/gateway protocol, real discord.py clients against it, rule enforcement."""

from __future__ import annotations

import asyncio
import contextlib
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
import discord
import pytest
import pytest_asyncio
import yarl
from discord import app_commands

from .fake_discord import FakeDiscord, FakeDiscordError

pytestmark = pytest.mark.asyncio

TOKEN = "test-token"
FLOOR_BOT = Path(__file__).with_name("floor_bot.py")


@pytest_asyncio.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    """A fake answering at once: these tests check the protocol; the network tests below set latencies."""
    async with FakeDiscord(token=TOKEN, latency=(0.0, 0.0)) as f:
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

    async def identify(self, token: str = TOKEN) -> tuple[dict[str, Any], dict[str, Any]]:
        hello = await self.recv()
        assert hello["op"] == 10 and hello["d"]["heartbeat_interval"] > 0
        await self.send(2, {"token": token, "intents": 513, "properties": {}, "shard": [0, 1]})
        ready, guild = await self.recv(), await self.recv()
        return ready, guild

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
        ({"content": "wide", "components": [row(*[button(f"b{i}") for i in range(6)])]}, "1 to 5 items"),
        ({"content": "label", "components": [row(button("a", label="L" * 81))]}, "label must be 80"),
        ({"content": "id", "components": [row(button("c" * 101))]}, "custom_id must be 100"),
        ({"content": "dup", "components": [row(button("a"), button("a"))]}, "duplicate custom_id"),
        ({}, "empty message"),
    ],
)
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
