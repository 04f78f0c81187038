"""The board of a game played by column: a button per column in two rows under the grid of discs, a classic message;
the other games' layouts unchanged; the puzzles' buttons by column too."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import pytest

from bot.games.answers import BotMoved, Shown
from bot.games.codec import REF_TEMPLATE, decode
from bot.games.match import BoardRef, Match, initial_for
from bot.i18n.lang import lang
from bot.text.discs import DISC
from bot.ui.columns import column_rows, row_count
from bot.ui.present import present
from bot.ui.puzzles import is_puzzle_id, puzzle_view, status_text
from bot.ui.views import board_message, button_rows, is_layout, is_layout_board
from engine import Mark
from engine.games.connect_four import CONNECT_FOUR_VARIANT
from engine.puzzles import Puzzle

EN = lang(None)


@pytest.fixture
def columns_game() -> str:
    """The game played by column the engine registers."""
    return CONNECT_FOUR_VARIANT.name


def game(name: str, *columns: int, **fields: Any) -> Match:
    board = Match("0a1b2c", 1, 10, None, message_id=500, variant=name, state=initial_for(name), **fields)
    for column in columns:
        board = board.play(board.kind.move_at(board.state, column))
    return board


def buttons(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [b for row in components for b in row["components"]]


def test_rows_are_as_even_as_five_buttons_a_row_allow() -> None:
    assert [row_count(n) for n in (1, 5, 6, 7, 10, 11)] == [1, 1, 2, 2, 2, 3]
    assert [len(r["components"]) for r in column_rows([{"n": i} for i in range(7)])] == [4, 3]
    assert [len(r["components"]) for r in column_rows([{"n": i} for i in range(11)])] == [4, 4, 3]


def test_a_column_board_is_a_classic_message_with_a_button_per_column(columns_game: str) -> None:
    board = game(columns_game, 3, 3, 3, 3, 3, 3, 2, 1)  # column 4 full; X to move
    reply = present(Shown(board), EN, challenge_seconds=60.0)
    assert not is_layout_board(board) and button_rows(board) == 2 and not is_layout(reply.view)
    assert reply.view is not None and DISC[Mark.X] in reply.content
    rows = reply.view.to_components()
    assert [len(row["components"]) for row in rows] == [4, 3, 1] and rows[2]["components"][0]["label"] == "Resign"
    columns = buttons(rows[:2])
    assert [b["label"] for b in columns] == list("1234567")
    assert [b.get("disabled", False) for b in columns] == [False, False, False, True, False, False, False]
    ids = [b["custom_id"] for b in buttons(rows)]
    assert len(set(ids)) == len(ids) and all(re.fullmatch(REF_TEMPLATE, i) and len(i) <= 100 for i in ids)
    pressed = [decode(i, channel_id=1, message_id=500) for i in ids[:7]]
    assert all(isinstance(ref, BoardRef) and ref.version == board.ply for ref, _ in pressed)
    assert [kind for _, kind in pressed] == [35, 29, 30, 3, 39, 40, 41]  # landing cells; the full column's top cell


def test_a_frozen_or_finished_column_board_takes_no_press(columns_game: str) -> None:
    # the bot (level 8) to move after the opening book (13 discs): its search runs in the pool
    thinking = game(columns_game, *range(7), *range(6))
    assert thinking.thinking
    view, _ = board_message(thinking, "", EN)
    assert view is not None and all(b.get("disabled") for b in buttons(view.to_components()[:2]))
    won = game(columns_game, 0, 0, 1, 1, 2, 2, 3)
    reply = present(BotMoved(won), EN, challenge_seconds=60.0)
    assert reply.view is not None
    rows = reply.view.to_components()
    assert all(b.get("disabled") for b in buttons(rows[:2])) and rows[2]["components"][0]["label"] == "Rematch"
    assert game(columns_game, mode="text").mode == "text"
    text_view, _ = board_message(game(columns_game, mode="text"), "", EN)
    assert text_view is not None and [len(r["components"]) for r in text_view.to_components()] == [1]


def test_the_other_games_keep_their_layouts() -> None:
    layouts = {name: is_layout_board(game(name)) for name in ("3x3", "4x4", "5x5", "ultimate")}
    assert layouts == {"3x3": False, "4x4": False, "5x5": True, "ultimate": True}
    assert [button_rows(game(name)) for name in ("3x3", "4x4", "5x5", "ultimate")] == [3, 4, 5, None]


@dataclass(frozen=True)
class _Run:
    """What the puzzle view reads of a run (a shipped puzzle set for this game is built elsewhere)."""

    puzzle: Puzzle
    run_id: int = 7
    progress: int = 0
    pad: int = -1


def test_a_column_puzzle_gets_a_button_per_column(columns_game: str) -> None:
    puzzle = Puzzle(f"{columns_game}-000000000000", columns_game, (35, 28, 36, 29, 37, 30), (38,), (), 1500)
    rows = puzzle_view(_Run(puzzle), EN).to_components()  # type: ignore[arg-type]
    keys = [b["custom_id"] for b in buttons(rows)]
    assert [len(r["components"]) for r in rows] == [4, 3]
    assert keys == [f"tpz:7:0:{cell}" for cell in (21, 22, 23, 38, 39, 40, 41)] and all(map(is_puzzle_id, keys))
    assert not any(b.get("disabled") for b in buttons(rows))
    over = puzzle_view(_Run(puzzle), EN, live=False).to_components()  # type: ignore[arg-type]
    assert all(b.get("disabled") for b in buttons(over))
    assert DISC[Mark.O] in status_text(puzzle, 0, "head", [])
