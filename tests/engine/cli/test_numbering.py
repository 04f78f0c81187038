"""engine.cli.numbering: a request's moves read as cells, columns or the game's notation, and named back the same way.

(The answers and errors of whole requests are in test_serve.py and test_serve_connect_four.py.)"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import engine.cli.numbering
import engine.cli.serve
from engine.cli.numbering import Numbering, read_request
from engine.errors import IllegalSequenceError, RequestError
from engine.registry import VARIANTS, variant

CONNECT_FOUR, FIVE = variant("connect-four"), variant("5x5")


def test_the_request_says_which_numbering_it_uses() -> None:
    assert read_request(FIVE, {}) == (Numbering(FIVE, "cells"), [])
    assert read_request(FIVE, {"moves": [13, 7]}) == (Numbering(FIVE, "cells"), [13, 7])
    assert read_request(FIVE, {"moves": ["c3", "b2"]}) == (Numbering(FIVE, "notation"), ["c3", "b2"])
    assert read_request(CONNECT_FOUR, {"columns": [4, 4]}) == (Numbering(CONNECT_FOUR, "columns"), [4, 4])
    for bad in ({"moves": [1, "b2"]}, {"moves": "13"}, {"moves": [True]}, {"columns": [4], "moves": []}):
        with pytest.raises(RequestError):
            read_request(CONNECT_FOUR, bad)
    with pytest.raises(RequestError, match="5x5 is played by cell"):
        read_request(FIVE, {"columns": [3]})


def test_the_three_numberings_play_the_same_game_and_name_its_cells_alike() -> None:
    by_cells, by_columns, by_names = (Numbering(CONNECT_FOUR, form) for form in ("cells", "columns", "notation"))
    state = by_columns.replay([4, 4, 5])
    assert by_cells.replay([39, 32, 40]) == state == by_names.replay(["d", "4", "e"])
    assert [by_cells.show(33), by_columns.show(33), by_names.show(33)] == [34, 6, "6"]  # f5
    assert by_columns.legal(state) == [1, 2, 3, 4, 5, 6, 7]
    assert by_names.legal(state) == ["1", "2", "3", "4", "5", "6", "7"]
    assert Numbering(FIVE, "notation").show(12) == "c3"


def test_a_refusal_keeps_the_rules_error_class_and_names_the_move_as_the_request_did() -> None:
    with pytest.raises(IllegalSequenceError, match=r"^move 7 \(column 4\) cannot be played: column 4 is full$") as info:
        Numbering(CONNECT_FOUR, "columns").replay([4] * 7)
    assert (type(info.value.__cause__).__name__, info.value.ply, info.value.cell) == ("CellOccupiedError", 7, 4)


@pytest.mark.parametrize("module", [engine.cli.numbering, engine.cli.serve])
def test_the_serve_tools_ask_the_game_and_never_name_one(module: object) -> None:
    source = Path(str(getattr(module, "__file__", ""))).read_text(encoding="utf-8")
    tree = ast.parse(source)
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert not {name for name in imported if name and name.startswith(("engine.games", "engine.connect_four"))}
    strings = {node.value for node in ast.walk(tree) if isinstance(node, ast.Constant) and isinstance(node.value, str)}
    assert not strings & set(VARIANTS)
    assert "isinstance(game" not in source
