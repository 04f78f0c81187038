"""Interactions: the callback's rules (deadline, one acknowledgement, types), presses of stored and forged
buttons, webhooks and tokens, and user installs in DMs and group DMs."""

from __future__ import annotations

import asyncio
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands

from testing.fake_discord import FakeDiscord, FakeDiscordError
from tests.testing.fake_discord.helpers import (
    BoardView,
    RawGateway,
    button,
    callback,
    identified,
    pointed_at,
    row,
    running,
)

pytestmark = pytest.mark.asyncio


@pytest.mark.spec  # the limits come from Discord's specification
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
    status, body = await callback(http, fake, rec, {"type": 4, "data": data})
    assert status == 400 and body["code"] in (50035, 50006)
    assert len(fake.violations) == 1 and needle in fake.violations[0].detail
    assert rec.error is not None and rec.callback_type is None and fake.messages(fake.channels()[0]) == []
    status, body = await callback(http, fake, rec, {"type": 4, "data": {"content": "fine"}})  # not yet acked
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
    status, body = await callback(http, fake, rec, {"type": 7, "data": {"content": "no message to update"}})
    assert status == 400 and fake.violations[-1].rule == "invalid_callback_type"
    status, body = await callback(http, fake, rec, {"type": 4, "data": {"content": "ok", "flags": 64}})
    assert status == 200
    assert body["interaction"] == {
        "id": rec.id,
        "type": 2,
        "activity_instance_id": None,
        "response_message_id": rec.message_id,
        "response_message_loading": False,
        "response_message_ephemeral": True,
    }
    status, body = await callback(http, fake, rec, {"type": 4, "data": {"content": "again"}})
    assert (status, body["code"]) == (400, 40060) and fake.violations[-1].rule == "double_acknowledgement"
    assert rec.callback_type == 4 and rec.content == "ok" and rec.ephemeral and len(rec.events) == 1

    fake.ack_deadline = 0.05
    late = await fake.slash_command(None, cid, user, "ttt", "start")
    await asyncio.sleep(0.1)
    status, body = await callback(http, fake, late, {"type": 5})
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
    status, _ = await callback(http, fake, rec, {"type": 7, "data": {"content": "moved"}})
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
    status, _ = await callback(http, fake, rec, {"type": 6})
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


async def test_press_custom_id_sends_any_id(fake: FakeDiscord, http: aiohttp.ClientSession) -> None:
    gw = await identified(http, fake)
    cid, user = fake.channels()[0], fake.make_user(41, "u")
    board = fake.create_message(cid, "board", components=[row(button("first"), button("real", disabled=True))])
    rec = await fake.press_custom_id(None, cid, user, board["id"], "ttt:zz:whatever", like="real")
    event = (await gw.next_dispatch("INTERACTION_CREATE"))["d"]
    assert event["data"] == {"custom_id": "ttt:zz:whatever", "component_type": 2}
    assert event["message"]["id"] == board["id"] and rec.component_message_id == board["id"]
    pressed = event["message"]["components"][0]["components"]
    assert [(b["custom_id"], b["disabled"]) for b in pressed] == [("first", False), ("ttt:zz:whatever", False)]
    assert board["components"][0]["components"][1]["custom_id"] == "real", "the stored message is unchanged"
    status, _ = await callback(http, fake, rec, {"type": 4, "data": {"content": "no longer active", "flags": 64}})
    assert status == 200 and rec.ephemeral
    with pytest.raises(FakeDiscordError, match="does not exist"):
        await fake.press_custom_id(None, cid, user, "404", "foo")
    with pytest.raises(FakeDiscordError, match="no button"):
        await fake.press_custom_id(None, cid, user, board["id"], "foo", like="missing")
    default = await fake.press_custom_id(None, cid, user, board["id"], "foo")
    assert default.interaction["message"]["components"][0]["components"][0]["custom_id"] == "foo"
