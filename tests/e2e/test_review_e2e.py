"""``/ttt review`` end to end: a finished game, read back from the records, move by move.

The player plays O and answers the bot's opening with a move that loses; the review labels that move a
blunder and names the drawing moves instead. Also: the refusals (a running game, an unknown id, a game from
another server, a channel with no finished game) are private and say why.
"""

from __future__ import annotations

import re

import pytest

from engine.review import review
from testing.boards import board_of, button_labelled
from testing.fake_discord import FakeDiscord
from testing.players import answered, press, private_text, refusal, start_game, ttt, updated_message

from .conftest import BotProcess, make_users

pytestmark = [pytest.mark.asyncio(loop_scope="module")]


def losing_reply(opening: int) -> int:
    """A reply of O to X's ``opening`` that loses with best play (found with the engine)."""
    losing = [cell for cell in range(9) if cell != opening and review([opening, cell])[1].label == "blunder"]
    assert losing, f"no losing reply to {opening}"
    return losing[0]


async def test_a_losing_reply_is_reviewed_as_a_blunder_with_the_drawing_moves(
    shared_fake: FakeDiscord, shared_bot: BotProcess
) -> None:
    fake = shared_fake
    channel = fake.add_channel()
    (olga,) = make_users(fake, "olga")
    board = await start_game(fake, channel, olga, play_as="O")
    shown = board_of(board) or ""
    assert shown.count("X") == 1
    opening = shown.index("X")
    reply = losing_reply(opening)
    board = await updated_message(fake, await press(fake, channel, olga, board, reply))

    running = await refusal(await ttt(fake, channel, olga, "review"))
    assert "still running" in running and "/ttt hint" in running

    resign = button_labelled(board, "Resign")
    assert resign is not None
    rec = await fake.press_button(fake.default_guild_id, channel, olga, board["id"], resign["custom_id"])
    final = await updated_message(fake, rec)
    game_id = re.search(r"Game `([0-9a-z]+)`", final["content"])
    assert game_id is not None and "/ttt review" in final["content"], final["content"]

    text = await private_text(await ttt(fake, channel, olga, "review"))
    assert f"Review of game `{game_id[1]}`" in text
    line = next(line for line in text.splitlines() if line.startswith("`2.`"))
    drawing = [c for c in range(9) if c not in (opening, reply) and review([opening, c])[1].label == "best"]
    assert f"O {reply + 1} · **blunder** · draw → loss" in line, line
    assert f"best: {', '.join(str(c + 1) for c in drawing)}" in line, line
    assert re.search(r"· [\d,]+ states?$", line), line
    assert text.splitlines()[-1] == "X: 0 mistakes · O: 1 blunder (move 2)", text
    assert len(text) <= 2000

    by_id = await private_text(await ttt(fake, channel, olga, "review", game=game_id[1].upper()))
    assert by_id == text


async def test_review_refusals_are_private_and_say_why(shared_fake: FakeDiscord, shared_bot: BotProcess) -> None:
    fake = shared_fake
    channel = fake.add_channel()
    (pat,) = make_users(fake, "pat")
    assert "No game has finished in this channel" in await refusal(await ttt(fake, channel, pat, "review"))
    assert "No finished game has the id `nosuchgame`" in await refusal(
        await ttt(fake, channel, pat, "review", game="nosuchgame")
    )
    crafted = await refusal(await ttt(fake, channel, pat, "review", game="x` **@everyone**"))
    assert "the id `x' **@everyone**` —" in crafted, crafted  # a typed id stays inside its code span

    board = await start_game(fake, channel, pat)
    await answered(await press(fake, channel, pat, board, 4))
    running = board_of(fake.message(channel, board["id"]) or {}) or ""
    assert running.count("X") == 1
    game = re.search(r"ttt:\d:([0-9a-z]+):", str(board["components"]))
    assert game is not None
    assert "still running" in await refusal(await ttt(fake, channel, pat, "review", game=game[1]))

    elsewhere = fake.add_guild("Elsewhere")
    other_channel = fake.channels(elsewhere)[0]
    fake.add_member(elsewhere, pat)
    resign = button_labelled(fake.message(channel, board["id"]) or {}, "Resign")
    assert resign is not None
    await answered(await fake.press_button(fake.default_guild_id, channel, pat, board["id"], resign["custom_id"]))
    text = await refusal(
        await fake.slash_command(elsewhere, other_channel, pat, subcommand="review", options={"game": game[1]})
    )
    assert "another server" in text
