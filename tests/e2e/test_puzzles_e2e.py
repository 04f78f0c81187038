"""Puzzles end to end, with the real bot process and the fake Discord: one puzzle solved and one failed, the puzzle
ratings moving each way, another player refused, a puzzle going on after SIGKILL and a restart, and the daily one."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.puzzles.play import PuzzleRating, rate, starting
from engine.puzzles import Puzzle, load
from engine.variants import variant
from testing.boards import button_labelled
from testing.fake_discord import FakeDiscord
from testing.players import public_message, refusal, ttt, updated_message

from .conftest import E2E_TOKEN, BotStarter, make_users

pytestmark = [pytest.mark.asyncio]

PUZZLE_ID = re.compile(r"Puzzle `(4x4-[0-9a-f]{12})`")
PUZZLE_RATING = re.compile(r"puzzles: (\d+) ± (\d+) · (\d+) solved of (\d+) rated")


def puzzle_of(message: dict[str, Any]) -> Puzzle:
    found = PUZZLE_ID.search(message["content"])
    assert found is not None, message["content"]
    return next(p for p in load("4x4") if p.id == found[1])


async def play(fake: FakeDiscord, channel: str, user: dict[str, Any], message: dict[str, Any], cell: int) -> Any:
    button = button_labelled(message, variant("4x4").cell_name(cell))
    assert button is not None, (cell, message["components"])
    return await fake.press_button(fake.default_guild_id, channel, user, message["id"], button["custom_id"])


async def shown_puzzle_rating(fake: FakeDiscord, channel: str, user: dict[str, Any]) -> tuple[int, int, int, int]:
    message = await public_message(fake, await ttt(fake, channel, user, "rating", variant="4x4"))
    found = PUZZLE_RATING.search(message["content"])
    assert found is not None, message["content"]
    return int(found[1]), int(found[2]), int(found[3]), int(found[4])


async def test_a_puzzle_solved_and_one_failed_move_the_ratings(start_bot: BotStarter) -> None:
    async with FakeDiscord(token=E2E_TOKEN, channels=1) as fake:
        channel = fake.channels()[0]
        kim, lee = make_users(fake, "kim", "lee")
        bot = await start_bot(fake)
        assert await shown_puzzle_rating(fake, channel, kim) == (1500, 350, 0, 0)

        message = await public_message(fake, await ttt(fake, channel, kim, "puzzle", variant="4x4"))
        puzzle = puzzle_of(message)
        side = "X" if len(puzzle.moves) % 2 == 0 else "O"
        assert f"**{side} to play and win in {puzzle.win_in}**" in message["content"]
        others = await refusal(await play(fake, channel, lee, message, puzzle.solution[0]))
        assert "Only" in others and str(kim["id"]) in others

        for i, cell in enumerate(puzzle.solution):
            if i == 1:  # a restart in the middle: the running puzzle is in the records database
                await bot.kill()
                bot = await start_bot(fake)
            message = await updated_message(fake, await play(fake, channel, kim, message, cell))
            if i < len(puzzle.replies):
                reply = variant("4x4").cell_name(puzzle.replies[i])
                assert f"The engine answers {reply}" in message["content"], message["content"]
        assert "Solved!" in message["content"], message["content"]
        player, _ = rate(PuzzleRating(), starting(puzzle), True)
        assert f"Your puzzle rating: 1500 → {round(player.rating)}" in message["content"]
        assert await shown_puzzle_rating(fake, channel, kim) == (round(player.rating), round(player.deviation), 1, 1)

        message = await public_message(fake, await ttt(fake, channel, kim, "puzzle", variant="4x4"))
        second = puzzle_of(message)
        assert second.id != puzzle.id
        rules = variant("4x4")
        wrong = next(c for c in rules.game.actions(rules.replay(second.moves)) if c != second.solution[0])
        message = await updated_message(fake, await play(fake, channel, kim, message, wrong))
        assert f"{rules.cell_name(wrong)} does not win in time" in message["content"], message["content"]
        assert f"The solution: {' '.join(rules.cell_name(c) for c in second.line)}" in message["content"]
        failed, _ = rate(player, starting(second), False)
        assert f"Your puzzle rating: {round(player.rating)} → {round(failed.rating)}" in message["content"]
        assert failed.rating < player.rating
        assert await shown_puzzle_rating(fake, channel, kim) == (round(failed.rating), round(failed.deviation), 1, 2)

        daily = await public_message(fake, await ttt(fake, channel, lee, "puzzle", variant="4x4", daily=True))
        assert "Daily puzzle of" in daily["content"] and "solved by 0 so far" in daily["content"]
        again = await public_message(fake, await ttt(fake, channel, kim, "puzzle", variant="4x4", daily=True))
        assert puzzle_of(again).id == puzzle_of(daily).id  # the same for everyone today
        await bot.kill()
