"""/ttt help (bot.text.help)."""

from __future__ import annotations

from typing import get_args

import pytest

from bot.i18n.lang import lang
from bot.text.grid import board_grid
from bot.text.help import MAX_HELP, help_text
from engine.review import BLUNDER_POINTS, INACCURACY_POINTS, MISTAKE_POINTS, Label
from engine.tictactoe.rules import parse_board


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


@pytest.mark.parametrize("locale", [None, "de", "fr", "es-ES", "pt-BR", "ja"])
def test_help_states_the_ultimate_thresholds_and_fits_one_message_in_every_language(locale: str | None) -> None:
    text = help_text(lang(locale))
    assert len(text) <= MAX_HELP
    for points in (BLUNDER_POINTS, MISTAKE_POINTS, INACCURACY_POINTS):
        assert str(points) in text
    assert "b3" in text and "a1" in text


def test_the_games_played_by_column_are_named_with_their_rule() -> None:
    text = help_text()
    assert "**Played by column** (`connect-four`: Drop discs in 7 columns: four in a row wins)" in text
    assert "`/ttt move cell:4`" in text
