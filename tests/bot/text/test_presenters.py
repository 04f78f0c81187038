"""bot.text.presenters: the way a board is drawn follows the layout its game declares, never its name or its width."""

from __future__ import annotations

import pytest

from bot.text.presenters import presenter
from engine import MAX_SIDE, VARIANTS, Layout


def test_the_built_in_games_keep_their_boards() -> None:
    chosen = {name: presenter(v.layout(), "buttons") for name, v in VARIANTS.items()}
    assert chosen == {
        "3x3": "buttons",
        "4x4": "buttons",
        "5x5": "buttons",
        "ultimate": "pad",
        "connect-four": "columns",
    }
    assert {presenter(v.layout(), "text") for v in VARIANTS.values()} == {"text"}


@pytest.mark.parametrize(
    ("layout", "expected"),
    [
        (Layout("grid", 5, 5), "buttons"),
        (Layout("grid", 5, 1), "buttons"),
        (Layout("grid", 6, 6), "picture"),  # wider than 5: a picture, not ultimate's pad
        (Layout("grid", 6, 2), "picture"),
        (Layout("grid", 3, 6), "picture"),  # higher than 5 rows of buttons
        (Layout("grid", 9, 9), "picture"),  # 81 cells without small boards: a grid, not ultimate
        (Layout("grid", MAX_SIDE, MAX_SIDE), "picture"),
        (Layout("columns", 6, 7, pieces="discs"), "columns"),
        (Layout("columns", 8, 7, pieces="discs"), "picture"),  # 56 discs: too long as emoji text
        (Layout("blocks", 9, 9, block=3), "pad"),
    ],
)
def test_a_board_in_buttons_mode_is_drawn_by_what_fits_its_layout(layout: Layout, expected: str) -> None:
    assert presenter(layout, "buttons") == expected
    assert presenter(layout, "text") == "text"
