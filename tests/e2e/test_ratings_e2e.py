"""Ratings end to end, with the real bot process and the fake Discord: a game at a level moves the player's rating
the right way, ``/ttt rating`` and ``/ttt stats`` show it, and it survives SIGKILL and a restart."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.games.levels import rating_of
from bot.records.ratings import LEVEL_DEVIATION, STARTING, rated
from engine.analysis import analyse
from engine.tictactoe.rules import parse_board
from testing.boards import board_of, button_labelled, finished, winner
from testing.fake_discord import FakeDiscord
from testing.players import press, public_message, start_game, ttt, updated_message

from .conftest import E2E_TOKEN, BotStarter, make_users

pytestmark = [pytest.mark.asyncio]

SHOWN = re.compile(r"vs the bot: (\d+) ± (\d+) · (\d+) games?")


async def shown_rating(fake: FakeDiscord, channel: str, user: dict[str, Any], **options: Any) -> tuple[int, int, int]:
    """The rating against the bot that ``/ttt rating`` shows: (rating, deviation, games)."""
    message = await public_message(fake, await ttt(fake, channel, user, "rating", **options))
    found = SHOWN.search(message["content"])
    assert found is not None, message["content"]
    return int(found[1]), int(found[2]), int(found[3])


async def resign_at(fake: FakeDiscord, channel: str, user: dict[str, Any], level: int) -> None:
    board = await start_game(fake, channel, user, level=level)
    assert f"· level {level} ({rating_of('3x3', level)}) ·" in board["content"], board["content"]
    resign = button_labelled(board, "Resign")
    assert resign is not None
    rec = await fake.press_button(fake.default_guild_id, channel, user, board["id"], resign["custom_id"])
    assert "resigned" in (await updated_message(fake, rec))["content"]


async def play_perfectly_at(fake: FakeDiscord, channel: str, user: dict[str, Any], level: int) -> str:
    """A whole game as X at ``level``, every move a best one (the engine's analysis); returns the final board."""
    message = await start_game(fake, channel, user, level=level, play_as="X")
    board = board_of(message)
    while board is not None and not finished(board):
        best = max(analyse(parse_board(board), compare=False).moves, key=lambda move: OUTCOME[move.outcome])
        message = await updated_message(fake, await press(fake, channel, user, message, best.cell))
        board = board_of(message)
    assert board is not None
    return board


OUTCOME = {"win": 2, "draw": 1, "loss": 0}


async def test_a_rated_game_moves_the_rating_and_survives_sigkill(start_bot: BotStarter) -> None:
    async with FakeDiscord(token=E2E_TOKEN, channels=1) as fake:
        channel = fake.channels()[0]
        (kim,) = make_users(fake, "kim")
        bot = await start_bot(fake)
        assert await shown_rating(fake, channel, kim) == (1500, 350, 0)  # no game yet: the starting rating

        await resign_at(fake, channel, kim, 3)  # a resignation is a loss: down
        after_loss = rated(STARTING, rating_of("3x3", 3), LEVEL_DEVIATION, 0.0, 3)
        lost = await shown_rating(fake, channel, kim)
        assert lost == (round(after_loss.rating), round(after_loss.deviation), 1) and lost[0] < 1500

        final = await play_perfectly_at(fake, channel, kim, 8)
        assert winner(final) is None  # perfect play against level 8 draws
        after_draw = rated(after_loss, rating_of("3x3", 8), LEVEL_DEVIATION, 0.5, 8)
        drew = await shown_rating(fake, channel, kim)
        assert drew == (round(after_draw.rating), round(after_draw.deviation), 2)
        toward = 1 if rating_of("3x3", 8) > after_loss.rating else -1  # a draw moves it toward the level's rating
        assert (drew[0] - lost[0]) * toward > 0

        stats = await public_message(fake, await ttt(fake, channel, kim, "stats"))
        assert f"rating vs the bot, 3x3: {drew[0]} ± {drew[1]} · 2 games" in stats["content"], stats["content"]
        assert await shown_rating(fake, channel, kim, variant="4x4") == (1500, 350, 0)  # one rating per game

        await bot.kill()  # SIGKILL: the rating was written with the game, in one transaction
        again = await start_bot(fake)
        assert await shown_rating(fake, channel, kim) == drew
        asked = await fake.slash_command(None, channel, kim, subcommand="stats", options={"user": fake.bot_user})
        mine = (await public_message(fake, asked))["content"]
        assert f"3x3, level 3 ({rating_of('3x3', 3)}): beaten 0 times in 1 game" in mine, mine
        assert f"3x3, level 8 ({rating_of('3x3', 8)}, unbeatable): beaten 0 times in 1 game" in mine, mine
        await again.kill()


async def test_a_turn_that_times_out_is_a_loss(start_bot: BotStarter) -> None:
    async with FakeDiscord(token=E2E_TOKEN, channels=1) as fake:
        channel = fake.channels()[0]
        (lou,) = make_users(fake, "lou")
        bot = await start_bot(fake, TTT_TURN_TIMEOUT="1")
        board = await start_game(fake, channel, lou, level=4)
        abandoned = await fake.wait_for_message(
            lambda m: m["id"] == board["id"] and "did not move in time, which counts as a loss" in m["content"],
            10,
            channel_id=channel,
        )
        assert f"<@{lou['id']}> did not move in time" in abandoned["content"]
        expected = rated(STARTING, rating_of("3x3", 4), LEVEL_DEVIATION, 0.0, 4)
        assert await shown_rating(fake, channel, lou) == (round(expected.rating), round(expected.deviation), 1)
        await bot.kill()
