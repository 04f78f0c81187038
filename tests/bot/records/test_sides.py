"""The bot's record on one side (the games it played as X, or as O), on SQLite and PostgreSQL: on Connect Four, which
the first player wins with perfect play, how often people playing first beat it; the same with games still unwritten,
and in words."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.games.levels import beatable_side
from bot.records import FinishedGame, Record, RecordsStore, RecordWriter
from bot.records.fresh import FreshRecords
from bot.text.records import bot_record_text, bot_records_text
from engine import Mark
from engine.games.connect_four import CONNECT_FOUR_VARIANT
from tests.bot.records.test_records import CH1, G1, A, make

FOUR_DOWN = (38, 39, 31, 32, 24, 25, 17)
"""X drops four discs in column 4 (d6-d3), O three beside them in column 5: X wins."""


@pytest.fixture
def columns_game() -> str:
    """The game played by column the engine registers."""
    return CONNECT_FOUR_VARIANT.name


async def test_the_bots_record_as_the_second_player(store: RecordsStore, columns_game: str) -> None:
    def game(game_id: str, moves: tuple[int, ...], **fields: object) -> FinishedGame:
        return replace(make(game_id, len(game_id), CH1, G1, level=8, **fields), variant=columns_game, moves=moves)  # type: ignore[arg-type]

    games = [
        game("c1", FOUR_DOWN, x=A, o=None, result="X", reason="win"),  # A, playing first, beats the bot
        game("c2", FOUR_DOWN, x=None, o=A, result="X", reason="win"),
        game("c3", (38, 39), x=A, o=None, result=None, reason="abandoned"),  # A's time-out: the bot (O) wins
    ]
    assert await store.save_many(games[:2]) == 2
    writer = RecordWriter(store)  # not started: the time-out stays unwritten
    assert writer.submit(games[2])
    fresh = FreshRecords(store, writer)
    assert (await store.bot_record(variant=columns_game, side="O"))[8] == Record(0, 0, 1)
    assert (await fresh.bot_records(columns_game, side="O"))[columns_game][8] == Record(1, 0, 1)  # A's time-out
    assert (await fresh.bot_records(columns_game, side="X"))[columns_game][8] == Record(1, 0, 0)
    assert (await fresh.bot_records())[columns_game][8] == Record(2, 0, 1)
    with pytest.raises(ValueError):
        await fresh.bot_records(side="O")


def test_the_record_says_how_often_people_playing_first_beat_it(columns_game: str) -> None:
    assert beatable_side(columns_game) is Mark.O and beatable_side("4x4") is None and beatable_side("3x3") is None
    second = {columns_game: (Mark.O, {8: Record(wins=7, draws=0, losses=3)})}
    records = {columns_game: {8: Record(wins=17, draws=0, losses=3)}, "4x4": {8: Record(draws=2)}}
    lines = bot_records_text("the bot", records, beatable=second).splitlines()
    assert lines[1].endswith(": beaten 3 times in 20 games · playing O: beaten 3 times in 10 games"), lines
    assert lines[1].startswith("Connect Four, level 8 (") and "unbeatable" not in lines[1]
    assert lines[2].endswith("unbeatable): beaten 0 times in 2 games")
    one = bot_record_text("the bot", columns_game, records[columns_game], beatable=second).splitlines()
    assert one[1].endswith("· 17 W · 0 D · 3 L · playing O: beaten 3 times in 10 games"), one
