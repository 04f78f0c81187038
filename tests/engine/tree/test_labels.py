"""engine.tree.labels: what the tree's picture says, checked as data (no Graphviz) on every tree the command draws.

On random positions of each variant ``python -m engine tree`` records (3x3 alpha-beta and minimax side by side, the
textbook searches, 4x4 and 5x5 near the end), at every drawn depth: each value's words say the value's own plies
(counted from the root, as the legend states), each bound is said as a bound and holds, each alpha or beta beside a
cut is the value its words speak of and the one the cut reached, every node missing children says why in its own box,
and side by side the panels draw one principal line.
"""

from __future__ import annotations

import re

import pytest

from engine.coordinates import cell_name
from engine.minimax.config import TEXTBOOK_ALPHA_BETA, TEXTBOOK_MINIMAX
from engine.minimax.search import search, stabiliser
from engine.mnk.rules import TIC_TAC_TOE_4X4, TIC_TAC_TOE_5X5
from engine.tictactoe.rules import result
from engine.tree.labels import Box, Panel, panels
from engine.tree.mnk import record_mnk
from engine.tree.node import Node, SearchTree
from engine.tree.record import record, record_config
from engine.tree.words import ENGLISH
from tests.engine.tree.explaining import explain
from tests.engine.tree.test_mnk import positions
from tests.engine.tree.test_record import random_games, state_after

VALUE = r"(?P<rel>[≥≤] )?(?P<num>[+-]?\d+) \((?P<words>[^)]*)\)"
HEAD = re.compile(rf"^(?P<mark>[XO]) (?P<cell>\w+): {VALUE}$")
HELD = re.compile(
    r"^(?P<letter>[αβ]) = (?P<num>[+-]?\d+) \((?P<words>[^)]*)\): (?P<side>[XO]) already has it elsewhere "
    r"\((?P<mark>[XO]) (?P<cell>\w+) at ply (?P<ply>\d+)\)$"
)
HERE = re.compile(r"^(?P<letter>[αβ]) = (?P<num>[+-]?\d+): known before searching this position \((?P<words>[^)]*)\)$")
SINGULAR_PLURAL = re.compile(r"(?<![\d,])1 (states|moves|cuts|visits|iterations)\b")


def exact_words(value: int) -> str:
    """What an exact value must be called: plies from the root, 10 - |value|."""
    return "draw" if value == 0 else f"{'X' if value > 0 else 'O'} wins at ply {10 - abs(value)}"


def bound_words(value: int, lower: bool) -> str:
    """What X's bound ``≥ value`` (``lower``) or ``≤ value`` must be called."""
    side, other = ("X", "O") if lower else ("O", "X")
    if value == 0:
        return f"at least a draw for {side}"
    good = value > 0 if lower else value < 0
    ply = 10 - abs(value)
    return f"{side} wins by ply {ply}" if good else f"{other} cannot win before ply {ply}"


def check_value(text: str, node: Node) -> None:
    match = re.fullmatch(VALUE, text)
    assert match, text
    assert int(match["num"]) == node.value, text
    if match["rel"] is None:
        assert node.bound in (None, "exact") and match["words"] == exact_words(node.value), text
    else:
        lower = match["rel"].strip() == "≥"
        side_to_move = "O" if node.mark == "X" else "X"
        assert node.bound == ("lower" if lower == (side_to_move == "X") else "upper"), text
        assert match["words"] == bound_words(node.value, lower), text


def legal_moves(tree: SearchTree, path: list[Node]) -> int:
    return tree.width**2 - len(tree.cells) - len(path)


def check_panel(panel: Panel) -> None:
    tree, boxes = panel.tree, {box.name: box for box in panel.boxes}
    root = panel.boxes[0]
    value = f"{tree.root.value:+d}" if tree.root.value else "0"
    assert root.node is tree.root and root.lines[0].endswith(f"to move: {value} ({exact_words(tree.root.value)})")
    assert len(tree.root.children) + len(tree.same_as) == legal_moves(tree, [])
    if tree.same_as:
        assert any(box.style == "note" and box.lines[0] == ENGLISH.mirrors for box in panel.boxes)
    for box in panel.boxes[1:]:
        text = " ".join((*box.lines, *box.notes))
        assert " in 0" not in text and not SINGULAR_PLURAL.search(text), text
        if box.node is None:
            continue
        node, path = box.node, ancestors(boxes, box)
        head = HEAD.match(box.lines[0])
        assert head and head["mark"] == node.mark, box.lines
        check_value(box.lines[0].split(": ", 1)[1], node)
        check_omitted(tree, box, path)
        if node.kind == "cut":
            check_cut(tree, box, path)
        else:
            assert not box.notes


def ancestors(boxes: dict[str, Box], box: Box) -> list[Node]:
    """The nodes from the root's child down to ``box``'s node."""
    path: list[Node] = []
    current: Box | None = box
    while current is not None and current.parent is not None:
        assert current.node is not None
        path.append(current.node)
        current = boxes[current.parent]
    return path[::-1]


def check_omitted(tree: SearchTree, box: Box, path: list[Node]) -> None:
    """A node with fewer children than legal moves says why, in its own box."""
    node = box.node
    assert node is not None
    free = legal_moves(tree, path)
    if node.kind == "terminal" or len(node.children) == free:
        return
    said = " ".join((*box.lines[1:], *box.notes))
    if node.kind == "cut":
        assert len(node.children) + len(node.skipped) == free
    elif node.kind == "table":
        assert ENGLISH.table in said
    elif node.hidden:
        assert "state" in said  # minimax recorded to a depth: the states below are counted
    else:
        side = "O" if node.mark == "X" else "X"
        assert node.rule is not None, node
        phrases = {"forced block": ENGLISH.must_block, "double threat": ENGLISH.two_threats,
                   "win now": ENGLISH.wins_next, "last cell": ENGLISH.last_cell,
                   "out of reach": ENGLISH.out_of_reach}  # fmt: skip
        if node.rule == "out of reach" and node.bound == "lower":
            phrases["out of reach"] = ENGLISH.out_of_reach_good.replace("{other}", "O" if side == "X" else "X")
        assert phrases[node.rule].format(side=side) in said


def check_cut(tree: SearchTree, box: Box, path: list[Node]) -> None:
    """The cut's note lists its skipped moves, and its alpha or beta is a value the other side really has elsewhere on
    the path (a child searched earlier at one of its nodes above), which the node's value reached."""
    node = box.node
    assert node is not None and len(box.notes) == 2
    names = [str(c + 1) if tree.width == 3 else cell_name(c, tree.width) for c in node.skipped]
    assert box.notes[0] == "✂ not searched: " + ", ".join(names)
    side = "O" if node.mark == "X" else "X"
    held = HELD.match(box.notes[1])
    if held is None:
        here = HERE.match(box.notes[1])
        assert here, box.notes[1]
        window = node.beta if side == "X" else node.alpha
        assert window is not None and int(here["num"]) == window
        assert (node.value >= window) if side == "X" else (node.value <= window)
        assert here["words"] == bound_words(window, side == "O")
        return
    value, ply = int(held["num"]), int(held["ply"])
    assert (
        held["letter"] == ("β" if side == "X" else "\N{GREEK SMALL LETTER ALPHA}")
        and held["side"] == held["mark"] != side
    )
    assert held["words"] == exact_words(value)
    assert (node.value >= value) if side == "X" else (node.value <= value)
    assert ply > 1 or tree.root_window == "shared"  # a fresh root window bounds nothing below it
    chooser = tree.root if ply == 1 else path[ply - 2]  # where the other side chose that move, before this line
    taken = next(i for i, child in enumerate(chooser.children) if child is path[ply - 1])
    cell = cell_of(tree, held["cell"])
    assert any(c.move == cell and c.value == value for c in chooser.children[:taken]), box.notes


def cell_of(tree: SearchTree, label: str) -> int:
    names = {str(c + 1) if tree.width == 3 else cell_name(c, tree.width): c for c in range(tree.width**2)}
    return names[label]


def truth(cells: tuple[int, ...], panel: Panel) -> None:
    """Every drawn 3x3 value is the position's exact value, or a bound it keeps (a full search of the position)."""
    boxes = {box.name: box for box in panel.boxes}
    for box in panel.boxes[1:]:
        if box.node is None:
            continue
        path = ancestors(boxes, box)
        state = state_after(cells)
        for node in path:
            assert node.move is not None
            state = result(state, node.move)
        node, depth = box.node, len(path)
        if node.kind == "terminal":
            continue
        value = search(state).value  # X's, plies from the node's own position
        exact = value - depth if value > 0 else value + depth if value < 0 else 0
        if node.bound in (None, "exact"):
            assert exact == node.value, (cells, box.lines)
        elif box.lines[0].split(": ", 1)[1].startswith("≥"):
            assert exact >= node.value, (cells, box.lines)
        else:
            assert exact <= node.value, (cells, box.lines)


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_3x3_words_agree_with_numbers_and_every_number_is_true(depth: int) -> None:
    for cells in random_games(40, 10 + depth, "minimax"):
        pair = [record(cells, "minimax", keep=depth), record(cells)]
        for panel in panels(pair, depth):
            check_panel(panel)
            truth(cells, panel)


def test_3x3_alpha_beta_from_any_number_of_marks_and_the_textbook_searches() -> None:
    for cells in random_games(60, 21, "alpha-beta"):
        tree = record(cells)
        (panel,) = panels([tree], 3)
        check_panel(panel)
        truth(cells, panel)
    for cells in random_games(15, 22, "minimax"):
        for config in (TEXTBOOK_ALPHA_BETA, TEXTBOOK_MINIMAX):
            textbook = record_config(state_after(cells), config, cells)
            assert textbook.root_window == "fresh"
            for panel in panels([textbook], 2):  # plain ±1 scores: only the cut notes' logic applies
                if config is TEXTBOOK_ALPHA_BETA:
                    assert all(box.node is None or box.node.kind != "cut" or box.notes for box in panel.boxes)


@pytest.mark.parametrize("game", [TIC_TAC_TOE_4X4, TIC_TAC_TOE_5X5], ids=("4x4", "5x5"))
def test_4x4_and_5x5_words_agree_with_numbers(game: object) -> None:
    for cells, _ in positions(game, 30, 7):  # type: ignore[arg-type]
        tree = record_mnk(game, cells)  # type: ignore[arg-type]
        for depth in (2, 3):
            (panel,) = panels([tree], depth)
            check_panel(panel)


def test_the_centre_reads_as_the_docs_tell_it() -> None:
    _, alpha_beta = panels([record([4], "minimax", keep=2), record([4])])
    lines = {box.lines[0]: box for box in alpha_beta.boxes}
    assert "O 2: ≥ +4 (X wins by ply 6)" in lines  # was "+4 (X wins in 5)": plies from the node beside the root's
    cut = lines["O 2: ≥ +4 (X wins by ply 6)"]
    assert cut.notes == ("✂ not searched: 3, 7, 9, 4, 6, 8", "β = 0 (draw): O already has it elsewhere (O 1 at ply 1)")
    assert "X 9: ≤ 0 (at least a draw for O)" in lines  # was "≤ 0 (draw)": a bound said as an outcome


def test_side_by_side_the_panels_draw_one_principal_line() -> None:
    for cells in random_games(40, 30, "minimax"):
        for played in set(record(cells).best_moves):
            minimax, alpha_beta = panels(explain("3x3", cells, played, "alpha-beta").trees)  # type: ignore[arg-type]
            drawn = alpha_beta.line[0]
            perm = tuple(range(9))
            if drawn != played:
                x = sum(1 << c for c in cells[0::2])
                o = sum(1 << c for c in cells[1::2])
                perm = next(p for p in stabiliser(x, o) if p[drawn] == played)
                assert f"plays {played + 1}, the mirror image of {drawn + 1}" in alpha_beta.boxes[0].lines[1]
            assert minimax.line[0] == played and f"plays {played + 1}" == minimax.boxes[0].lines[1]
            mapped = tuple(perm[c] for c in alpha_beta.line)
            assert minimax.line == mapped[: len(minimax.line)] and len(minimax.line) == min(2, len(mapped))
