"""The fake's gateway and REST basics: compression, IDENTIFY, RESUME, tokens, shards, the session start limit,
message intents and close codes."""

from __future__ import annotations

import asyncio

import aiohttp
import aiohttp.web
import pytest

from testing.fake_discord import FakeDiscord
from tests.testing.fake_discord.helpers import TOKEN, RawGateway, ShardedClient, pointed_at, running

pytestmark = pytest.mark.asyncio


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
