"""The game's vocabulary, below both the records and the game service."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime
from typing import get_args

import pytest

from bot import vocabulary
from bot.records import FinishedGame


def test_the_records_import_the_games_vocabulary_and_nothing_of_the_game_service() -> None:
    code = (
        "import sys, bot.records; print(any(m.startswith('bot.games') for m in sys.modules),"
        " 'bot.vocabulary' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False", "True"]


def test_the_records_refuse_a_game_outside_the_vocabulary() -> None:
    assert get_args(vocabulary.EndReason) == vocabulary.END_REASONS
    assert set(vocabulary.COUNTED_END_REASONS) < set(vocabulary.END_REASONS)
    now = datetime.now(UTC)
    game = {"game_id": "g1", "channel_id": 1, "guild_id": None, "x_user_id": 2, "o_user_id": None, "bot_side": "O"}
    game |= {"algorithm": "alpha-beta", "moves": (0, 3, 1, 4, 2), "result": "X", "end_reason": "win"}
    game |= {"states_evaluated": 10, "started_at": now, "ended_at": now}
    assert FinishedGame(**game, level=8).level == 8
    with pytest.raises(ValueError, match="level"):
        FinishedGame(**game, level=9)
