"""Game ids (bot.games.ids): made from a snowflake in base 36, and read back from what people type."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from bot.games.ids import new_game_id, to_base36, typed_game_id


def test_a_game_id_is_its_snowflake_in_base_36() -> None:
    assert to_base36(0) == "0" and to_base36(35) == "z" and to_base36(36) == "10"
    assert int(new_game_id(1_181_432_987_654_321_098), 36) == 1_181_432_987_654_321_098
    assert re.fullmatch(r"[0-9a-z]{1,13}", new_game_id())


def test_a_typed_id_is_read_as_the_board_shows_it_and_anything_else_is_none() -> None:
    assert typed_game_id(" DONE1 ") == "done1" and typed_game_id("\uff44one1") == "done1"  # full-width d
    assert typed_game_id(new_game_id(42)) == "16" and typed_game_id("a3f9c1") == "a3f9c1"  # an early hex id
    for text in ("", " ", "²", "done\x00", "\ud800", "done-1", "x" * 65, "`x`"):
        assert typed_game_id(text) is None, text


@given(st.text())
def test_any_text_is_an_id_of_base_36_digits_or_none(text: str) -> None:
    """/ttt review's ``game``: no exception, and nothing reaches the database but an id that could be stored."""
    read = typed_game_id(text)
    assert read is None or re.fullmatch(r"[0-9a-z]{1,64}", read, re.ASCII), read
