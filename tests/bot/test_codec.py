"""custom_id encoding: round trips, the 100-character limit and rejection of foreign ids."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot import codec
from bot.codec import GameCode
from bot.sessions import Session
from bot.views import CellButton, RematchButton, ResignButton, board_view
from engine import Difficulty, State, actions, initial_state, result

BIGGEST_SNOWFLAKE = 2**64 - 1  # 20 digits


@st.composite
def states(draw: st.DrawFn) -> State:
    state = initial_state()
    for _ in range(draw(st.integers(0, 9))):
        moves = actions(state)
        if not moves:
            break
        state = result(state, draw(st.sampled_from(moves)))
    return state


players = st.one_of(st.none(), st.integers(0, BIGGEST_SNOWFLAKE))
codes = st.builds(
    GameCode,
    game_id=st.text("0123456789abcdef", min_size=6, max_size=6),
    state=states(),
    x_id=players,
    o_id=players,
    difficulty=st.sampled_from(list(Difficulty)),
    algorithm=st.sampled_from(["alpha-beta", "minimax"]),
    mode=st.sampled_from(["buttons", "text"]),
)
kinds = st.one_of(st.integers(0, 8), st.sampled_from(["r", "n"]))


@given(codes, kinds)
def test_round_trip_and_length(code: GameCode, kind: int | str) -> None:
    custom_id = codec.encode(code, kind)  # type: ignore[arg-type]
    assert len(custom_id) <= codec.MAX_CUSTOM_ID
    assert codec.decode(custom_id) == (code, kind)


def test_worst_case_length_is_68() -> None:
    code = GameCode("ffffff", initial_state(), BIGGEST_SNOWFLAKE, BIGGEST_SNOWFLAKE, Difficulty.EASY, "minimax", "text")
    for kind in (*range(9), "r", "n"):
        custom_id = codec.encode(code, kind)  # type: ignore[arg-type]
        assert len(custom_id) == 68 <= codec.MAX_CUSTOM_ID


def test_format_is_readable() -> None:
    code = GameCode("0a1b2c", result(initial_state(), 4), 123, None, Difficulty.UNBEATABLE, "alpha-beta", "buttons")
    assert codec.encode(code, 3) == "ttt:3:0a1b2c:....X....:uab:123:b"
    assert codec.encode(code, "r") == "ttt:r:0a1b2c:....X....:uab:123:b"


@pytest.mark.parametrize(
    "custom_id",
    [
        "",
        "ttt:9:0a1b2c:....X....:uab:123:b",  # no cell 9
        "ttt:3:0a1b2:....X....:uab:123:b",  # short game id
        "ttt:3:0a1b2c:....X...:uab:123:b",  # eight cells
        "ttt:3:0a1b2c:....X....:xab:123:b",  # unknown difficulty
        "ttt:3:0a1b2c:....X....:uab:123456789012345678901:b",  # 21 digits
        "ttt:3:0a1b2c:OO.......:uab:1:b",  # O cannot move first
        "ttt:3:0a1b2c:XXX.OO.OO:uab:1:b",  # impossible counts
        "other:3:0a1b2c:....X....:uab:123:b",
    ],
)
def test_foreign_or_impossible_ids_are_rejected(custom_id: str) -> None:
    with pytest.raises(codec.CodecError):
        codec.decode(custom_id)


def test_each_button_kind_matches_only_its_template() -> None:
    code = GameCode("0a1b2c", initial_state(), 1, 2, Difficulty.UNBEATABLE, "alpha-beta", "buttons")
    templates = {cls: cls.__discord_ui_compiled_template__ for cls in (CellButton, ResignButton, RematchButton)}
    for kind, owner in ((0, CellButton), (8, CellButton), ("r", ResignButton), ("n", RematchButton)):
        custom_id = codec.encode(code, kind)  # type: ignore[arg-type]
        assert [cls for cls, t in templates.items() if re.fullmatch(t, custom_id)] == [owner]


async def test_every_component_of_a_worst_case_board_fits() -> None:
    session = Session("ffffff", 1, BIGGEST_SNOWFLAKE, BIGGEST_SNOWFLAKE - 1, guild_id=BIGGEST_SNOWFLAKE)
    view = board_view(session)
    assert view is not None and len(view.children) == 10
    assert all(len(item.custom_id) <= 100 for item in view.children)  # type: ignore[attr-defined]
    assert len({item.custom_id for item in view.children}) == 10  # type: ignore[attr-defined]
