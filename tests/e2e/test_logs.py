"""The real bot's log at DEBUG: no token of any kind in it, in either format; JSON lines carry their context. At INFO
its start-up is a few plain lines."""

from __future__ import annotations

import json

import pytest

from bot.records.migrate import head_revision
from testing.fake_discord import FakeDiscord
from testing.players import press, private_text, start_game, ttt, updated_message

from .conftest import E2E_TOKEN, BotStarter, make_users

pytestmark = [pytest.mark.asyncio]


@pytest.mark.parametrize("log_format", ["human", "json"])
async def test_no_token_is_logged_at_debug(start_bot: BotStarter, log_format: str) -> None:
    async with FakeDiscord(token=E2E_TOKEN, channels=1) as fake:
        bot = await start_bot(fake, LOG_LEVEL="DEBUG", LOG_FORMAT=log_format)
        channel = fake.channels()[0]
        (ann,) = make_users(fake, "ann")
        board = await start_game(fake, channel, ann, play_as="X")
        pressed = await press(fake, channel, ann, board, 0)
        await updated_message(fake, pressed)
        hint = await ttt(fake, channel, ann, "hint")
        assert "Hint" in await private_text(hint)
        await bot.kill()
        log = bot.log_text()
        tokens = [rec.token for rec in fake.records]
        assert len(tokens) == 3 and all(len(token) > 20 for token in tokens)
        assert "WebSocket Event" in log and "INTERACTION_CREATE" in log  # discord.py's gateway lines are there
        assert [token for token in tokens if token in log] == []
        assert E2E_TOKEN not in log
        if log_format == "human":
            return
        lines = [json.loads(line) for line in log.splitlines() if line.strip()]  # every line is one JSON object
        assert all({"timestamp", "level", "logger", "message"} <= line.keys() for line in lines)
        started = [line for line in lines if line["message"].startswith("game started")]
        assert len(started) == 1, started
        assert started[0]["level"] == "INFO" and started[0]["logger"] == "bot.games.service"
        assert started[0]["channel"] == channel and started[0]["guild"] == fake.default_guild_id
        assert started[0]["shard"] == "0" and started[0]["game"] in started[0]["message"]
        assert any(line.get("shard") == "0" and line["logger"] == "discord.gateway" for line in lines)


async def test_the_start_up_log_in_a_file_is_plain_and_says_what_matters_once(start_bot: BotStarter) -> None:
    """The real bot logging to a file at INFO: no colour codes (not a terminal, even inside Docker), no warning about
    voice packages it never uses, Alembic's progress left to DEBUG with one line for the records' revision, and one
    line saying Ctrl-C stops it."""
    async with FakeDiscord(token=E2E_TOKEN, channels=1) as fake:
        bot = await start_bot(fake)
        await bot.kill()
        raw = bot.log_path.read_text()
        assert "\x1b[" not in raw
        assert "voice" not in raw and "alembic" not in raw and "Running upgrade" not in raw, raw
        (revision,) = [line for line in raw.splitlines() if " at revision " in line]
        assert "INFO" in revision and revision.endswith(
            f" at revision {head_revision()} (upgraded from an empty database)"
        )
        assert len([line for line in raw.splitlines() if "Ctrl-C" in line]) == 1, raw
