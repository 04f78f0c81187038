"""A game played by column drawn as emoji text (bot.text.discs) and its board message's text."""

from __future__ import annotations

import pytest

from bot.games.match import Match, initial_for
from bot.i18n.lang import lang
from bot.text.board import message_text
from bot.text.common import level_name
from bot.text.discs import DISC, EMPTY, LAST_DISC, WON, column_heading, disc_grid, played_by_column
from bot.text.hints import hint_text
from engine import Mark, variant
from engine.games.connect_four import CONNECT_FOUR_VARIANT
from engine.hints import Hint, HintMove
from engine.protocol import GameValue

EN = lang(None)


@pytest.fixture
def columns_game() -> str:
    """The game played by column the engine registers."""
    return CONNECT_FOUR_VARIANT.name


def game(name: str, *columns: int, mode: str = "buttons") -> Match:
    """A game against the bot (level 3) after discs dropped in 0-based ``columns``."""
    board = Match("g", 1, 10, None, level=3, mode=mode, variant=name, state=initial_for(name))  # type: ignore[arg-type]
    for column in columns:
        board = board.play(board.kind.move_at(board.state, column))
    return board


def test_only_a_game_played_by_column_is_drawn_with_discs(columns_game: str) -> None:
    assert played_by_column(variant(columns_game), initial_for(columns_game))
    assert not any(played_by_column(variant(name), initial_for(name)) for name in ("3x3", "4x4", "5x5", "ultimate"))


def test_the_grid_marks_the_last_disc_and_then_the_winning_four(columns_game: str) -> None:
    kind = variant(columns_game)
    keycaps = [f"{n}\N{VARIATION SELECTOR-16}\N{COMBINING ENCLOSING KEYCAP}" for n in "1234567"]
    assert column_heading(kind) == "".join(keycaps)
    board = game(columns_game, 3, 3, 2)  # X d6, O d5, X c6
    rows = disc_grid(kind, board.state, board.moves[-1]).splitlines()
    assert len(rows) == 7 and rows[0] == column_heading(kind)
    assert rows[1:5] == [EMPTY * 7] * 4
    assert rows[5] == EMPTY * 3 + DISC[Mark.O] + EMPTY * 3
    assert rows[6] == EMPTY * 2 + LAST_DISC[Mark.X] + DISC[Mark.X] + EMPTY * 3
    won = game(columns_game, 0, 0, 1, 1, 2, 2, 3)  # X a6-d6 across the bottom
    assert won.over and won.winner is Mark.X
    bottom = disc_grid(kind, won.state, won.moves[-1]).splitlines()[-1]
    assert bottom == WON * 4 + EMPTY * 3
    assert disc_grid(kind, won.state, won.moves[-1]).splitlines()[-2] == DISC[Mark.O] * 3 + EMPTY * 4


def test_the_board_message_shows_the_discs_with_buttons_and_the_text_grid_in_text_mode(columns_game: str) -> None:
    board = game(columns_game, 3)
    text = message_text(board, tr=EN)
    heading = f"**Connect Four** · {DISC[Mark.X]} <@10> vs {DISC[Mark.O]} the bot · {level_name(columns_game, 3, EN)}"
    assert text.splitlines()[0] == heading
    assert disc_grid(board.kind, board.state, 38) in text and len(text) < 2000
    text_board = game(columns_game, 3, mode="text")
    shown = message_text(text_board, tr=EN)
    assert "```\n1 2 3 4 5 6 7\n" in shown and DISC[Mark.X] not in shown
    assert "Play with `/ttt move cell:<1-7>`." in shown


def test_level_8_is_called_unbeatable_only_on_the_side_that_wins_with_perfect_play(columns_game: str) -> None:
    as_second = Match("g", 1, 10, None, level=8, variant=columns_game, state=initial_for(columns_game))
    as_first = Match("g", 1, None, 10, level=8, variant=columns_game, state=initial_for(columns_game))
    assert "unbeatable" not in message_text(as_second, tr=EN).splitlines()[0]
    assert "unbeatable" in message_text(as_first, tr=EN).splitlines()[0]
    assert "unbeatable" not in level_name(columns_game, 8, EN)  # the records: either side
    assert "unbeatable" in level_name("4x4", 8, EN) and "unbeatable" in level_name("4x4", 8, EN, Mark.O)


def test_a_hint_names_the_side_by_its_disc(columns_game: str) -> None:
    board = game(columns_game)
    hint = Hint(Mark.X, (HintMove(38, GameValue("win", 41), 1.0),), exact=True, states=7, elapsed_ms=0.1)
    assert hint_text(board, hint, EN).startswith(f"**Hint for {DISC[Mark.X]} X**")
    assert "`4` win in 41 plies" in hint_text(board, hint, EN)
