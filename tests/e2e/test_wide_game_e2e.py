"""A game wider than buttons allow, written outside the engine (:mod:`tests.e2e.wide_game`: four in a row on 7 x 7) and
registered through ``TTT_GAMES``, is played end to end with no change to ``bot/``: its board is a picture (a valid PNG
at most 1,000 px wide, replaced on every move) with typed moves, never ultimate's pad; the bot answers; bad moves are
refused privately; the game resumes after the bot process was killed and started again; the win is shown, its line
drawn in the picture."""

from __future__ import annotations

import io
import random
import re
from typing import Any

import pytest
from PIL import Image

from testing.fake_discord import FakeDiscord
from testing.players import private_text, public_message, ttt

from .conftest import E2E_TOKEN, BotStarter, make_users
from .test_downtime import crash, until
from .test_outside_game_e2e import stored_versions
from .test_variants_e2e import MOVE_WAIT, buttons, text_of
from .wide_game import SEVEN_BY_SEVEN, Board, tactical_cell

pytestmark = [pytest.mark.asyncio]

GAMES = {"TTT_GAMES": "tests.e2e.wide_game:SEVEN_BY_SEVEN"}
FLAG_COMPONENTS_V2 = 1 << 15
WON = (87, 242, 135)  # the winning line's green in the picture (bot.images.grid)
RULES = SEVEN_BY_SEVEN.game
BOT_PLAYED = re.compile(r"O played ([a-g][1-7]) · ")


def picture(fake: FakeDiscord, board: dict[str, Any]) -> Image.Image:
    """The board's picture: a media gallery showing its one attachment, ``board.png``, a PNG at most 1,000 px."""
    top = board["components"]
    assert board.get("flags", 0) & FLAG_COMPONENTS_V2 and not board.get("content")
    assert [c["type"] for c in top] == [10, 12, 1], top  # text, picture, control row: no pad of cells
    assert top[1]["items"] == [{"media": {"url": "attachment://board.png"}}]
    (attachment,) = board["attachments"]
    assert attachment["filename"] == "board.png"
    image = Image.open(io.BytesIO(fake.files[attachment["id"]][1]))
    assert image.format == "PNG" and max(image.size) <= 1000, (image.format, image.size)
    return image.convert("RGB")


def colours(image: Image.Image) -> set[tuple[int, int, int]]:
    return {colour for _, colour in image.getcolors(maxcolors=1 << 20) or []}


def current_board(fake: FakeDiscord, channel: str) -> dict[str, Any]:
    return fake.messages(channel, include_ephemeral=False)[-1]


async def test_a_7x7_game_is_played_through_its_picture_and_typed_moves(start_bot: BotStarter) -> None:
    async with FakeDiscord(token=E2E_TOKEN, channels=1) as fake:
        bot = await start_bot(fake, **GAMES)
        channel = fake.channels()[0]
        (ana,) = make_users(fake, "ana")

        board = await public_message(fake, await ttt(fake, channel, ana, "start", variant="7x7", level=2, play_as="X"))
        assert "**Tic-tac-toe 7x7, four in a row**" in text_of(board), text_of(board)
        assert "Play with `/ttt move cell:<a1-g7>`." in text_of(board)
        assert not any(b.get("label") == "a1" for b in buttons(board))  # no cell buttons
        first = picture(fake, board)
        assert first.size[0] == first.size[1] and WON not in colours(first)

        refused = await private_text(await ttt(fake, channel, ana, "move", cell="h1"))
        assert "choose a1-g7" in refused, refused

        state: Board = RULES.initial_state()
        rng, seen_pictures, bot_moves, ply = random.Random(7), {board["attachments"][0]["id"]}, 0, 0
        while not RULES.terminal(state):
            cell = tactical_cell(RULES, state, rng)
            rec = await ttt(fake, channel, ana, "move", cell=SEVEN_BY_SEVEN.cell_name(cell).upper())
            board = await public_message(fake, rec)
            state = RULES.result(state, cell)
            if RULES.terminal(state):
                break

            def answered(state: Board = state) -> bool:  # the bot's move, not the one before it
                found = BOT_PLAYED.search(text_of(current_board(fake, channel)))
                return found is not None and state[SEVEN_BY_SEVEN.parse_cell(found[1])] is None

            await fake.wait_for(answered, MOVE_WAIT)
            board = current_board(fake, channel)
            found = BOT_PLAYED.search(text_of(board))
            assert found is not None
            state = RULES.result(state, SEVEN_BY_SEVEN.parse_cell(found[1]))
            bot_moves, ply = bot_moves + 1, ply + 2
            picture(fake, board)
            seen_pictures.add(board["attachments"][0]["id"])
            if bot_moves == 1:
                taken = await private_text(await ttt(fake, channel, ana, "move", cell=SEVEN_BY_SEVEN.cell_name(cell)))
                assert "taken" in taken, taken
            if bot_moves == 2:  # the stored game (named by reference) resumes in a new bot process
                await until(lambda ply=ply, bot=bot: stored_versions(bot) == [ply])
                await crash(fake, bot)
                bot = await start_bot(fake, **GAMES)

        assert RULES.utility(state) == 1, SEVEN_BY_SEVEN.text_grid(state)  # tactics beat a random bot
        board = current_board(fake, channel)
        text = text_of(board)
        assert f"<@{ana['id']}> wins" in text and "/ttt move" not in text, text
        assert [b["label"] for b in buttons(board)] == ["Rematch"]
        assert WON in colours(picture(fake, board))  # the winning line is drawn
        assert bot_moves >= 3 and len(seen_pictures) >= bot_moves  # a new picture for every position
