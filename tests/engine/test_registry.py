"""engine.registry: a game is registered only when its declared layout is one the bot draws; the built-in games
declare theirs, and a game that declares none gets one derived from its shape."""

from __future__ import annotations

from typing import Any

import pytest

from engine import MAX_SIDE, VARIANTS, CellOutOfRangeError, Layout, UndrawableGameError, Variant, register
from engine.registry import check_layout


class _Empty:
    """Rules whose only use here is an initial state (the default layout asks where the first disc would fall)."""

    def initial_state(self) -> tuple[()]:
        return ()


def board(
    width: int, height: int, *, block: int = 0, layout: Any = None, by_column: bool = False, name: str = "wide"
) -> Variant:
    """A game ``width`` x ``height`` that declares ``layout`` (``None``: none, the default is derived)."""

    class Board(Variant):
        title = description = name
        code = "zz"
        game: Any = _Empty()

        def mark(self, state: Any, cell: int) -> None:
            return None

        def play(self, state: Any, *args: Any, **kwargs: Any) -> Any:
            raise AssertionError("registering a game never plays it")

        def columns(self, state: Any) -> tuple[int | None, ...]:
            return tuple(range(self.width)) if by_column else ()

    Board.name, Board.width, Board.height, Board.block = name, width, height, block
    if layout is not None:
        Board.layout = lambda self: layout  # type: ignore[method-assign]
    return Board()


def test_the_built_in_games_declare_their_layouts() -> None:
    declared = {name: (type(v).layout is not Variant.layout, v.layout()) for name, v in VARIANTS.items()}
    assert declared == {
        "3x3": (True, Layout("grid", 3, 3)),
        "4x4": (True, Layout("grid", 4, 4)),
        "5x5": (True, Layout("grid", 5, 5)),
        "ultimate": (True, Layout("blocks", 9, 9, block=3)),
        "connect-four": (True, Layout("columns", 7, 6, pieces="discs")),
    }


def test_a_game_that_declares_no_layout_gets_one_from_its_shape() -> None:
    assert board(6, 6).layout() == Layout("grid", 6, 6)
    assert board(8, 7, by_column=True).layout() == Layout("columns", 8, 7, pieces="discs")
    assert board(9, 9, block=3).layout() == Layout("blocks", 9, 9, block=3)


@pytest.mark.parametrize(
    ("game", "message"),
    [
        (board(20, 6), "up to 19 x 19 cells, not 20 x 6"),
        (board(6, 20), "up to 19 x 19 cells, not 6 x 20"),
        (board(6, 6, layout=Layout("hex", 6, 6)), "no presenter draws a 'hex' layout"),  # type: ignore[arg-type]
        (board(6, 6, layout=Layout("grid", 7, 6)), "its layout is 7 x 6"),
        (board(12, 12, block=4), r"small boards are drawn as ultimate's"),
        (board(6, 6, layout=Layout("grid", 6, 6, pieces="stones")), "pieces are"),  # type: ignore[arg-type]
    ],
)
def test_register_refuses_a_game_no_presenter_draws(game: Variant, message: str) -> None:
    with pytest.raises(UndrawableGameError, match=message) as refused:
        register(game)
    assert isinstance(refused.value, ValueError) and "<Board 'wide'>" in str(refused.value)
    assert "wide" not in VARIANTS


@pytest.mark.parametrize("side", [1, 6, 15, MAX_SIDE])
def test_any_grid_up_to_19_by_19_is_drawable(side: int) -> None:
    check_layout(board(side, side))
    check_layout(board(side, side, by_column=True))


def test_the_default_notation_names_every_cell_of_a_19_by_19_board() -> None:
    go = board(19, 19)
    assert [go.cell_name(c) for c in (0, 18, 19, 360)] == ["a1", "s1", "a2", "s19"]
    assert all(go.parse_cell(go.cell_name(cell)) == cell for cell in range(go.cells))
    assert go.parse_cell("S19") == go.parse_cell("361") == 360 and go.parse_cell("j10") == 9 * 19 + 9
    for off_board in ("t1", "a20", "362", "0"):
        with pytest.raises(CellOutOfRangeError, match="a1-s19 or a number 1-361"):
            go.parse_cell(off_board)
