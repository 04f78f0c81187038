"""A puzzle's message and buttons (bot.ui.puzzles), from the puzzle service's answers."""

from __future__ import annotations

from typing import Any

from bot.i18n.lang import lang
from bot.puzzles.messages import DAILY_DONE, DAILY_SOLVED, RIGHT, Term
from bot.puzzles.service import PuzzleRefusal, PuzzleShown
from bot.records.puzzle_values import Run
from bot.ui.puzzles import is_puzzle_id, puzzle_view, refusal_text, shown_message
from engine.puzzles import load
from engine.registry import variant


def _ids(view: Any) -> list[str]:
    return [b["custom_id"] for row in view.to_components() for b in row["components"] if not b.get("disabled")]


def test_ultimate_puzzles_get_a_pad_and_every_id_is_a_puzzle_id() -> None:
    tr = lang(None)
    free = next(p for p in load("ultimate") if len(variant("ultimate").replay(p.moves).playable_boards) > 1)
    run = Run(7, 1, None, "ultimate", free.id)
    boards = _ids(puzzle_view(run, tr))
    assert boards and all(i.startswith("tpz:7:0:b") and is_puzzle_id(i) for i in boards)
    opened = Run(7, 1, None, "ultimate", free.id, pad=int(boards[0][-1]))
    cells = _ids(puzzle_view(opened, tr))
    assert cells[-1] == "tpz:7:0:k" and all(is_puzzle_id(i) for i in cells)
    forced = next(p for p in load("ultimate") if variant("ultimate").replay(p.moves).forced_board is not None)
    keys = _ids(puzzle_view(Run(8, 1, None, "ultimate", forced.id), tr))
    assert keys and all(k.split(":")[-1].isdigit() for k in keys)
    assert not _ids(puzzle_view(Run(8, 1, None, "ultimate", forced.id), tr, live=False))
    assert not is_puzzle_id("tpz:1:0:x") and not is_puzzle_id("ttt:1:0:1")


def test_an_answer_is_translated_with_its_values() -> None:
    tr = lang("fr")
    refusal = PuzzleRefusal(DAILY_DONE, {"result": Term(DAILY_SOLVED), "solvers": 3})
    assert refusal_text(refusal, tr) == tr(DAILY_DONE, result=tr(DAILY_SOLVED), solvers=3)
    puzzle = next(p for p in load("4x4") if p.win_in >= 2)
    shown = PuzzleShown(
        Run(7, 1, None, "4x4", puzzle.id, progress=2), 2, 1600.0, ((RIGHT, {"cell": "a1", "reply": "b2"}),)
    )
    text, view = shown_message(shown, tr)
    assert text.endswith(tr(RIGHT, cell="a1", reply="b2")) and "1600" in text.splitlines()[0]
    assert _ids(view) and all(i.startswith("tpz:7:2:") for i in _ids(view))
