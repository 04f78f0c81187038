"""/ttt help (bot.text.help)."""

from __future__ import annotations

from typing import get_args

from bot.text.board import board_grid
from bot.text.help import help_text
from engine import parse_board
from engine.review import Label


def test_help_text_explains_the_numbering_and_the_state_counts() -> None:
    text = help_text()
    assert board_grid(parse_board(".........")) in text
    for phrase in ("three in a row", "Minimax", "Alpha-beta", "prunes", "549,945", "/ttt hint"):
        assert phrase in text


def test_help_explains_every_label_the_review_can_show() -> None:
    """The legend names each label engine.review emits (a new label fails this until /ttt help explains it)."""
    text = help_text()
    for label in get_args(Label):
        assert f"*{label}*" in text, label
