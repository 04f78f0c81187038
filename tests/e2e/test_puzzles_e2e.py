"""Puzzles end to end, with the real bot process and the fake Discord: one puzzle solved and one failed, the puzzle
ratings moving each way, another player refused, a puzzle going on after SIGKILL and a restart, the daily one, a
slower win told and the puzzle going on unrated, and an ultimate puzzle solved on its pad."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from bot.records.puzzle_values import PuzzleRating, rate, starting
from engine.puzzles import Puzzle, load
from engine.puzzles.slower import slower_win
from engine.registry import variant
from engine.ultimate.rules import BIT_OF_CELL
from testing.boards import button_labelled
from testing.fake_discord import FakeDiscord
from testing.players import answered, public_message, refusal, ttt, updated_message

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
        legal = rules.game.actions(rules.replay(second.moves))
        wrong = next(c for c in legal if c != second.solution[0] and slower_win(second, 0, c) is None)
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
        for cell in puzzle_of(daily).solution:
            daily = await updated_message(fake, await play(fake, channel, lee, daily, cell))
        assert "Solved!" in daily["content"], daily["content"]
        done = await refusal(await ttt(fake, channel, lee, "puzzle", variant="4x4", daily=True))
        assert "already tried today's daily puzzle (solved); 1 solved it so far" in done, done
        await bot.kill()


async def puzzle_where(
    fake: FakeDiscord, channel: str, user: dict[str, Any], name: str, wanted: Callable[[Puzzle], bool], tries: int
) -> tuple[dict[str, Any], Puzzle]:
    """``/ttt puzzle`` of variant ``name`` asked until the puzzle given is ``wanted`` (at most ``tries`` times)."""
    for _ in range(tries):
        message = await public_message(fake, await ttt(fake, channel, user, "puzzle", variant=name))
        found = re.search(rf"Puzzle `({name}-[0-9a-f]{{12}})`", message["content"])
        assert found is not None, message["content"]
        puzzle = next(p for p in load(name) if p.id == found[1])
        if wanted(puzzle):
            return message, puzzle
    pytest.fail(f"no wanted {name} puzzle in {tries}")


async def press_labelled(
    fake: FakeDiscord, channel: str, user: dict[str, Any], message: dict[str, Any], label: str
) -> dict[str, Any]:
    """Press the live button labelled ``label`` on ``message``; returns the message as the bot then shows it."""
    button = button_labelled(message, label)
    assert button is not None and not button.get("disabled"), (label, message["components"])
    rec = await fake.press_button(fake.default_guild_id, channel, user, message["id"], button["custom_id"])
    return await updated_message(fake, rec)


def slower_wins(puzzle: Puzzle) -> list[tuple[int, int]]:
    """``(cell, N)``: the first moves other than the solution's that win in N, slower."""
    rules = variant(puzzle.variant)
    legal = rules.game.actions(rules.replay(puzzle.moves))
    return [(c, k) for c in legal if c != puzzle.solution[0] and (k := slower_win(puzzle, 0, c))]


async def test_a_slower_win_is_told_and_the_puzzle_goes_on_unrated(start_bot: BotStarter) -> None:
    async with FakeDiscord(token=E2E_TOKEN, channels=1) as fake:
        channel = fake.channels()[0]
        (kim,) = make_users(fake, "kim")
        bot = await start_bot(fake)
        rules = variant("5x5")
        # about one 5x5 puzzle in three has a slower win on its first move
        message, puzzle = await puzzle_where(fake, channel, kim, "5x5", lambda p: bool(slower_wins(p)), 40)
        (cell, wins_in), *_ = slower_wins(puzzle)
        message = await press_labelled(fake, channel, kim, message, rules.cell_name(cell))
        told = f"{rules.cell_name(cell)} wins too, but in {wins_in}: find the win in {puzzle.win_in}"
        assert told in message["content"], message["content"]
        for move in puzzle.solution:  # the same board, still live: the solution now
            message = await press_labelled(fake, channel, kim, message, rules.cell_name(move))
        assert "Solved!" in message["content"] and "you had found a slower win first" in message["content"]
        rating = await public_message(fake, await ttt(fake, channel, kim, "rating", variant="5x5"))
        assert "puzzles: 1500 ± 350 · 0 solved of 0 rated" in rating["content"], rating["content"]
        await bot.kill()


async def test_an_ultimate_puzzle_is_solved_on_its_pad(start_bot: BotStarter) -> None:
    async with FakeDiscord(token=E2E_TOKEN, channels=1) as fake:
        channel = fake.channels()[0]
        (kim,) = make_users(fake, "kim")
        bot = await start_bot(fake)
        rules = variant("ultimate")

        def free_choice(puzzle: Puzzle) -> bool:
            return len(rules.replay(puzzle.moves).playable_boards) > 1

        # 3 of the 20 puzzles nearest 1500 start with a free choice: (17/20)^100 < 1e-7 to miss
        message, puzzle = await puzzle_where(fake, channel, kim, "ultimate", free_choice, 100)
        assert [a["filename"] for a in message["attachments"]] == ["ultimate.png"]  # the grid's picture
        for i, cell in enumerate(puzzle.solution):
            state = rules.replay((*puzzle.moves, *puzzle.line[: 2 * i]))
            if len(state.playable_boards) > 1:  # a free choice: open the small board first
                board = BIT_OF_CELL[cell] // 9
                pad = button_labelled(message, variant("ultimate").block_name(board))
                assert pad is not None, message["components"]
                rec = await fake.press_button(fake.default_guild_id, channel, kim, message["id"], pad["custom_id"])
                message = await updated_message(fake, rec)
                assert button_labelled(message, "Back") is not None
            button = button_labelled(message, rules.cell_name(cell))
            assert button is not None, (cell, message["components"])
            rec = await fake.press_button(fake.default_guild_id, channel, kim, message["id"], button["custom_id"])
            message = await updated_message(fake, rec)
        assert "Solved!" in message["content"], message["content"]
        await bot.kill()


async def daily_outcome(fake: FakeDiscord, rec: Any) -> str:
    """What a ``/ttt puzzle daily:True`` got: ``"public"`` (a new puzzle) or the text of the private refusal."""
    await answered(rec)
    event = await rec.wait_for_event(
        lambda e: e.kind == "edit_original" or (e.kind == "followup" and bool((e.payload.get("flags") or 0) & 64)),
    )
    if event.kind == "edit_original" and not rec.ephemeral:
        assert "Daily puzzle of" in (await public_message(fake, rec))["content"]
        return "public"
    return str(event.payload.get("content") or "")


async def test_the_daily_puzzle_is_one_try_asked_twice_or_twice_at_once(start_bot: BotStarter) -> None:
    async with FakeDiscord(token=E2E_TOKEN, channels=1) as fake:
        channel = fake.channels()[0]
        kim, lee = make_users(fake, "kim", "lee")
        await start_bot(fake)
        message = await public_message(fake, await ttt(fake, channel, kim, "puzzle", variant="4x4", daily=True))
        puzzle = puzzle_of(message)
        second = await refusal(await ttt(fake, channel, kim, "puzzle", variant="4x4", daily=True))
        assert "already started today's daily puzzle" in second, second
        rules = variant("4x4")
        values, _ = rules.move_values(rules.replay(puzzle.moves))
        wrong = next(cell for cell, value in values if value.result != "win")  # a slower win would be "try again"
        message = await updated_message(fake, await play(fake, channel, kim, message, wrong))
        assert "The solution:" in message["content"], message["content"]
        third = await refusal(await ttt(fake, channel, kim, "puzzle", variant="4x4", daily=True))
        assert "already tried today's daily puzzle (not solved); 0 solved it so far" in third, third

        both = [await ttt(fake, channel, lee, "puzzle", variant="4x4", daily=True) for _ in range(2)]  # one instant
        outcomes = [await daily_outcome(fake, rec) for rec in both]
        assert sorted(outcomes, key=len)[0] == "public", outcomes
        assert "already started today's daily puzzle" in sorted(outcomes, key=len)[1], outcomes
        message = fake.message(
            channel, next(r for r, o in zip(both, outcomes, strict=True) if o == "public").message_id or ""
        )
        assert message is not None
        for cell in puzzle.solution:
            message = await updated_message(fake, await play(fake, channel, lee, message, cell))
        assert "Solved!" in message["content"], message["content"]
        for user, result in ((lee, "solved"), (kim, "not solved")):  # the solvers count each player's one try
            done = await refusal(await ttt(fake, channel, user, "puzzle", variant="4x4", daily=True))
            assert f"already tried today's daily puzzle ({result}); 1 solved it so far" in done, done
