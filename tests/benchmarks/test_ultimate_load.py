"""The ultimate load benchmark's reading of a board (``benchmarks/ultimate_load.py``), on boards the bot draws."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from bot.games.game import BotMove, Game, initial_for
from bot.i18n.lang import lang
from bot.text.board import message_text
from bot.ui.variant_views import variant_view
from engine import Mark

ROOT = Path(__file__).resolve().parents[2]
MODULE = "ttt_benchmarks_ultimate_load"
EN = lang(None)


def benchmark() -> ModuleType:
    """Import ``benchmarks/ultimate_load.py`` by path (``benchmarks`` is not a package)."""
    if MODULE not in sys.modules:
        spec = importlib.util.spec_from_file_location(MODULE, ROOT / "benchmarks" / "ultimate_load.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[MODULE] = module  # dataclasses look their module up while the file executes
        spec.loader.exec_module(module)
    return sys.modules[MODULE]


def message(board: Game) -> dict[str, Any]:
    """The board as the fake Discord stores it: its id and its components."""
    view, _ = variant_view(board, message_text(board, tr=EN), EN)
    assert view is not None
    return {"id": "500", "components": view.to_components()}


def ultimate(*cells: int) -> Game:
    board = Game("0a1b2c", 1, 10, None, message_id=500, variant="ultimate", state=initial_for("ultimate"))
    for cell in cells:
        board = board.play(cell)
    return board


def test_a_free_choice_offers_the_open_boards_and_no_cell() -> None:
    bench = benchmark()
    board = message(ultimate())
    assert len(bench.pressable(board, "pick")) == 9 and bench.pressable(board, "cell") == []
    assert bench.version(board) == 0 and not bench.is_over(board)


def test_the_bot_thinking_is_not_its_move_and_not_the_end() -> None:
    bench = benchmark()
    thinking = message(ultimate(40))
    assert bench.version(thinking) == 1 and bench.pressable(thinking, "cell") == []
    assert not bench.is_over(thinking) and not bench.shows_bot_move(thinking, 0)


def test_the_bots_move_is_two_versions_past_the_press() -> None:
    bench = benchmark()
    answered = message(ultimate(40, 30))
    assert bench.shows_bot_move(answered, 0) and not bench.shows_bot_move(answered, 2)
    assert bench.pressable(answered, "cell")[0] == "ttt:u:0:0a1b2c:2"


def test_a_game_the_player_ended_shows_at_once_and_is_over() -> None:
    bench = benchmark()
    resigned = message(ultimate(40).resign(Mark.X))
    assert bench.is_over(resigned) and bench.shows_bot_move(resigned, 0) and bench.pressable(resigned, "rematch")


def test_a_reduced_search_is_read_from_the_bots_move_line() -> None:
    bench = benchmark()
    move = BotMove(cell=30, states=900, elapsed_ms=150.0, random=False, depth=3, budget_ms=150.0, reduced=True)
    board = ultimate(40).with_ai(move)
    assert bench.REDUCED in bench.text_of(message(board))
    full = ultimate(40).with_ai(BotMove(cell=30, states=9, elapsed_ms=1.0, random=False, depth=3, budget_ms=1000.0))
    assert bench.REDUCED not in bench.text_of(message(full))


def test_quantiles_are_nearest_rank_in_ms() -> None:
    quantile_ms = benchmark().quantile_ms
    values = [i / 1000 for i in range(1, 101)]  # 1..100 ms
    assert quantile_ms(values, 0.5) == 50.0 and quantile_ms(values, 0.99) == 99.0 and quantile_ms(values, 1.0) == 100.0
