"""Real discord.py clients (and the floor bot subprocess) against the fake, end to end."""

from __future__ import annotations

import asyncio
import io
import os
import sys
from pathlib import Path

import aiohttp
import discord
import pytest
import yarl
from discord import app_commands

from testing.fake_discord import FakeDiscord, FakeDiscordError
from tests.testing.fake_discord.helpers import (
    CV2,
    FLOOR_BOT,
    GameClient,
    ShardedClient,
    button,
    png,
    pointed_at,
    row,
    running,
)

pytestmark = pytest.mark.asyncio


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
