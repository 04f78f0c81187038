"""The cell buttons' faces (bot.ui.faces)."""

from __future__ import annotations

import pytest
from discord import ButtonStyle

from bot.ui.faces import LOST_STYLE, ButtonFace, cell_faces
from engine import Mark, registry
from engine.registry import variant
from engine.tictactoe.rules import parse_board
from tests.e2e.misere_game import MISERE


def test_cell_faces() -> None:
    state = parse_board("XXXOO....")
    faces = cell_faces(state, True)
    assert [f.style for f in faces[:3]] == [ButtonStyle.success] * 3
    assert faces[3] == ButtonFace(None, "⭕", ButtonStyle.primary, True)
    assert faces[5] == ButtonFace("6", None, ButtonStyle.secondary, True)
    running = cell_faces(parse_board("X........"), False)[0]
    assert running == ButtonFace(None, "❌", ButtonStyle.danger, True)
    assert cell_faces(parse_board("X........"), False)[1] == ButtonFace("2", None, ButtonStyle.secondary, False)


def test_boards_share_their_faces() -> None:
    """The cached boards hold shared faces, not nine new objects each (they stay on the collector's heap)."""
    one, other = cell_faces(parse_board("X........"), False), cell_faces(parse_board("XO......."), False)
    assert one[0] is other[0] and one[8] is other[8]
    assert one[1] is not other[1]


def test_a_larger_board_names_its_cells_by_coordinate_and_shows_its_winning_line() -> None:
    rules = variant("4x4")
    won = rules.replay((0, 4, 1, 5, 2, 6, 3))
    faces = cell_faces(won, True, "4x4")
    assert len(faces) == 16 and [f.style for f in faces[:4]] == [ButtonStyle.success] * 4
    assert faces[4] == ButtonFace(None, "⭕", ButtonStyle.primary, True)
    assert faces[7] == ButtonFace("d2", None, ButtonStyle.secondary, True)
    assert cell_faces(rules.replay(()), False, "4x4")[15] == ButtonFace("d4", None, ButtonStyle.secondary, False)


def test_a_line_that_lost_is_painted_as_a_loss_not_a_win(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry._REGISTRY, MISERE.name, MISERE)
    lost = parse_board("XXXOO....")  # X completed three in a row: in misère X lost
    faces = cell_faces(lost, True, MISERE.name)
    assert [f.style for f in faces[:3]] == [LOST_STYLE] * 3 and LOST_STYLE is not ButtonStyle.success
    assert [f.emoji for f in faces[:3]] == ["❌"] * 3
    assert MISERE.deciding_line(lost) == (frozenset({0, 1, 2}), Mark.O)
    assert variant("3x3").deciding_line(lost) == (frozenset({0, 1, 2}), Mark.X)
