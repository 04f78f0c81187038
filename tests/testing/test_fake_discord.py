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

from testing.fake_discord import FakeDiscord, FakeDiscordError

pytestmark = pytest.mark.asyncio

TOKEN = "test-token"
FLOOR_BOT = Path(__file__).resolve().parents[2] / "testing" / "floor_bot.py"


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
        ({"name": "ttt", "description": "d", "description_localizations": {"fr": ""}}, "1-100 characters"),
        ({"name": "ttt", "description": "d", "options": [{"type": 3, "name": "a b", "description": "d"}]}, "a b"),
        ({"name": "ttt", "description": "d", "contexts": [5]}, "contexts"),
    ],
)
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
