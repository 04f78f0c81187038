"""bot.ui.stepper: the stepper's ids, text and buttons (the presses themselves: tests/e2e/test_stepper_e2e.py)."""

from __future__ import annotations

import re

import pytest

from bot.i18n.lang import lang
from bot.ui.stepper import ID_TEMPLATE, MAX_CONTENT, StepPress, is_step_id, read_step, step_through, stepper_message
from engine.tree.step import Cursor, steps
from tests.engine.tree.explaining import stepped

EN, DE = lang(None), lang("de")


def buttons(view: object) -> dict[str, dict[str, object]]:
    (row,) = view.to_components()  # type: ignore[attr-defined]
    return {str(b["custom_id"]).split(":")[4]: b for b in row["components"]}


def test_an_id_names_the_board_and_the_step_and_reads_back() -> None:
    view = step_through("abc123", (24, 0, 15), False, EN)
    (button,) = buttons(view).values()
    assert button["custom_id"] == "tsx:abc123:o0f:w:s:0" and button["label"] == "Step through"
    assert is_step_id(str(button["custom_id"])) and not is_step_id("ttt:4:abc:48:8amb:1:b:3")
    match = re.fullmatch(ID_TEMPLATE, str(button["custom_id"]))
    assert match and read_step(match) == StepPress("abc123", (24, 0, 15), False, "s", 0)
    assert buttons(step_through("abc123", (4,), True, DE))["s"]["label"] == "Schritt für Schritt"


def test_each_button_names_the_step_the_cursor_leads_to_and_is_off_where_there_is_none() -> None:
    tree = stepped("3x3", (4,), 8)
    cursor = Cursor(tuple(steps(tree)))
    for index in range(len(cursor.steps)):
        content, view = stepper_message(tree, StepPress("g", (4, 8), False, "n", index), EN)
        assert content.startswith(f"**Step {index + 1} of 71** · alpha-beta: 71 states") and len(content) <= MAX_CONTENT
        shown = buttons(view)
        out = cursor.out(index)
        expected = {"b": cursor.back(index), "n": cursor.next(index), "i": cursor.into(index),
                    "o": index if out is None else out, "c": cursor.cut(index)}  # fmt: skip
        for action, target in expected.items():
            assert shown[action]["custom_id"] == f"tsx:g:48:w:{action}:{target}"
            assert bool(shown[action].get("disabled")) == (target == index)
    last, _ = stepper_message(tree, StepPress("g", (4, 8), False, "n", 70), EN)
    assert last.split("```")[1].strip().endswith("O to move: 0 (draw): 71 states")  # the root's value at the end
    with pytest.raises(IndexError):
        stepper_message(tree, StepPress("g", (4, 8), False, "n", 71), EN)


def test_long_walks_stay_within_a_message_in_every_language() -> None:
    for tree in (stepped("3x3", (), None), stepped("4x4", (0, 1, 2, 3, 4, 5, 6), None)):
        for tr in (EN, DE, lang("ja"), lang("pt-BR")):
            for index in range(0, len(list(steps(tree))), 7):
                content, _ = stepper_message(tree, StepPress("g", (), True, "n", index), tr)
                assert len(content) <= MAX_CONTENT and content.count("```") == 2
