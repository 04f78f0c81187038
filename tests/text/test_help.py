"""/ttt help (bot.text.help)."""

from __future__ import annotations

from bot.text.board import (
    board_grid,
)
from bot.text.help import help_text
from engine import parse_board


def test_help_text_explains_the_numbering_and_the_state_counts() -> None:
    text = help_text()
    assert board_grid(parse_board(".........")) in text
    for phrase in ("three in a row", "Minimax", "Alpha-beta", "prunes", "549,945", "/ttt hint"):
        assert phrase in text
