"""Reading an ultimate board (``testing/ultimate_boards.py``, used by ``benchmarks/ultimate_load.py``), on boards the
bot draws."""

from __future__ import annotations

from typing import Any

from bot.games.match import EngineMove, Match, initial_for
from bot.i18n.lang import lang
from bot.text.board import message_text
from bot.ui.views import board_message, private_pad
from engine import Mark
from testing import ultimate_boards as boards

EN = lang(None)


def message(board: Match) -> dict[str, Any]:
    """The board as the fake Discord stores it: its id and its components."""
    view, _ = board_message(board, message_text(board, tr=EN), EN)
    assert view is not None
    return {"id": "500", "components": view.to_components()}


def ultimate(*cells: int) -> Match:
    board = Match("0a1b2c", 1, 10, None, message_id=500, variant="ultimate", state=initial_for("ultimate"))
    for cell in cells:
        board = board.play(cell)
    return board


def test_a_free_choice_offers_the_open_boards_and_no_cell() -> None:
    board = message(ultimate())
    assert len(boards.pressable(board, "pick")) == 9 and boards.pressable(board, "cell") == []
    assert boards.version(board) == 0 and not boards.is_over(board)


def test_the_bot_thinking_is_not_its_move_and_not_the_end() -> None:
    thinking = message(ultimate(40))
    assert boards.version(thinking) == 1 and boards.pressable(thinking, "cell") == []
    assert not boards.is_over(thinking) and not boards.shows_bot_move(thinking, 0)


def test_the_bots_move_is_two_versions_past_the_press() -> None:
    answered = message(ultimate(40, 30))
    assert boards.shows_bot_move(answered, 0) and not boards.shows_bot_move(answered, 2)
    assert boards.pressable(answered, "cell")[0] == "ttt:u:0:0a1b2c:2"


def test_a_game_the_player_ended_shows_at_once_and_is_over() -> None:
    resigned = message(ultimate(40).resign(Mark.X))
    assert boards.is_over(resigned) and boards.shows_bot_move(resigned, 0) and boards.pressable(resigned, "rematch")


def test_a_reduced_search_is_read_from_the_bots_move_line() -> None:
    move = EngineMove(30, 900, None, 150.0, depth=3, budget_ms=150.0, reduced=True, mark=Mark.O)
    board = ultimate(40).with_ai(move)
    assert boards.REDUCED in boards.text_of(message(board))
    full = ultimate(40).with_ai(EngineMove(30, 9, None, 1.0, depth=3, budget_ms=1000.0, mark=Mark.O))
    assert boards.REDUCED not in boards.text_of(message(full))


def test_a_private_pad_offers_the_chosen_boards_cells_and_back() -> None:
    pad = {"id": "600", "components": private_pad(ultimate(), 4, EN).to_components()}
    cells = boards.pressable(pad, "cell")
    assert len(cells) == 9 and all(cell.startswith("ttt:up:") for cell in cells)
    assert boards.pressable(pad, "back") and boards.pressable(pad, "pick") == []
    opened = {"id": "601", "components": private_pad(ultimate(), None, EN).to_components()}
    assert len(boards.pressable(opened, "pick")) == 9 and boards.pressable(opened, "cell") == []
