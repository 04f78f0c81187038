"""A misère game written outside the engine (:mod:`tests.e2e.misere_game`: three in a row loses), registered through
``TTT_GAMES`` and played to its end through the real bot: the line that decided it is the loser's, and its buttons
are painted as a loss (grey), never as a win (green)."""

from __future__ import annotations

from typing import Any

import pytest

from testing.fake_discord import FakeDiscord
from testing.players import public_message, ttt

from .conftest import E2E_TOKEN, BotStarter, make_users
from .misere_game import MISERE
from .test_outside_game_e2e import bot_moved, moves_of
from .test_variants_e2e import answered, buttons, free_cells, over, text_of

pytestmark = [pytest.mark.asyncio]

GAMES = {"TTT_GAMES": "tests.e2e.misere_game:MISERE"}
GREY, GREEN = 2, 3


async def test_the_line_that_lost_a_misere_game_is_painted_as_a_loss(start_bot: BotStarter) -> None:
    async with FakeDiscord(token=E2E_TOKEN, channels=1) as fake:
        await start_bot(fake, **GAMES)
        channel = fake.channels()[0]
        (ana,) = make_users(fake, "ana")
        board: dict[str, Any] = await public_message(
            fake, await ttt(fake, channel, ana, "start", variant="misere", play_as="X")
        )
        while not over(board):  # Ana takes the first free cell each time: a perfect bot leaves her a line to complete
            ply = len(moves_of(board))
            await answered(await fake.press_button(None, channel, ana, board["id"], free_cells(board)[0]))
            board = await bot_moved(fake, channel, board["id"], ply + 2)
        state = MISERE.replay(moves_of(board))
        line, winner = MISERE.deciding_line(state)
        assert line and winner is not None and all(MISERE.mark(state, cell) is winner.other for cell in line)
        cells = [b for b in buttons(board) if b["custom_id"].startswith("ttt:")][: MISERE.cells]
        assert [cells[cell]["style"] for cell in sorted(line)] == [GREY] * len(line), cells
        assert all(cells[cell].get("emoji") and not cells[cell].get("label") for cell in line), cells  # the loser's
        assert all(b["style"] != GREEN for b in cells), cells
        assert "wins" in text_of(board), text_of(board)
