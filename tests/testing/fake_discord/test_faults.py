"""The network: latency applied on the way back, and injected 429s, 5xx, lost answers and slow answers."""

from __future__ import annotations

import asyncio

import aiohttp
import discord
import pytest
from discord import app_commands

from testing.fake_discord import FakeDiscord
from tests.testing.fake_discord.helpers import GameClient, callback, identified, pointed_at, running

pytestmark = pytest.mark.asyncio


async def test_latency_delays_answers_but_applies_on_arrival(fake: FakeDiscord, http: aiohttp.ClientSession) -> None:
    await identified(http, fake)
    cid, user = fake.channels()[0], fake.make_user(11, "u")
    fake.latency = (0.2, 0.2)
    fake.callback_latency = (0.4, 0.4)
    rec = await fake.slash_command(None, cid, user, "ttt", "start")
    seen_before_answer = asyncio.create_task(fake.wait_for_message(lambda m: m["content"] == "hi", 2, channel_id=cid))
    started = asyncio.get_running_loop().time()
    status, _ = await callback(http, fake, rec, {"type": 4, "data": {"content": "hi"}})
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
    await identified(http, fake)
    cid, user = fake.channels()[1], fake.make_user(12, "u")
    rec = await fake.slash_command(None, cid, user, "ttt", "start")
    fake.inject("POST", r"/callback$", status=502, applied=True, interaction=lambda r: r.id == rec.id)
    status, _ = await callback(http, fake, rec, {"type": 4, "data": {"content": "applied"}})
    assert status == 502 and rec.acknowledged and rec.answer_lost and rec.content == "applied"
    assert [m["content"] for m in fake.messages(cid)] == ["applied"]
    status, body = await callback(http, fake, rec, {"type": 4, "data": {"content": "retried"}})
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
    await identified(http, fake)
    cid = fake.channels()[0]
    slow_user, quick_user = fake.make_user(14, "slow"), fake.make_user(15, "quick")
    fake.inject("POST", r"/callback$", status=None, delay=0.5, interaction=lambda r: r.user["id"] == slow_user["id"])
    slow = await fake.slash_command(None, cid, slow_user, "ttt", "start")
    quick = await fake.slash_command(None, cid, quick_user, "ttt", "start")
    loop = asyncio.get_running_loop()
    started = loop.time()
    (slow_status, _), (quick_status, _) = await asyncio.gather(
        callback(http, fake, slow, {"type": 4, "data": {"content": "slow"}}),
        callback(http, fake, quick, {"type": 4, "data": {"content": "quick"}}),
    )
    assert slow_status == quick_status == 200 and loop.time() - started >= 0.5
    durations = {c.path.split("/")[2]: c.answered - c.arrived for c in fake.rest_log[-2:]}
    assert durations[slow.id] >= 0.5 > durations[quick.id]
