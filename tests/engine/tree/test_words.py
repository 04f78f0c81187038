"""engine.tree.words: one convention for values and words (plies from the root), bounds said as bounds, plurals."""

from __future__ import annotations

from engine.tree.node import Node
from engine.tree.words import ENGLISH, Words, principal_path


def test_a_value_is_said_in_plies_from_the_root_never_in_0() -> None:
    assert ENGLISH.value(9) == "X wins at ply 1"  # was "X wins in 0" beside "X 3: +9", one ply below the root
    assert ENGLISH.value(-4) == "O wins at ply 6" and ENGLISH.value(0) == "draw"
    assert all(" 0" not in ENGLISH.value(v) for v in range(-9, 10))


def test_a_bound_is_said_as_a_bound() -> None:
    assert ENGLISH.bound(0, lower=False) == "at least a draw for O"  # was "≤ 0 (draw)"
    assert ENGLISH.bound(4, lower=True) == "X wins by ply 6"
    assert ENGLISH.bound(-3, lower=True) == "O cannot win before ply 7"
    assert ENGLISH.bound(-3, lower=False) == "O wins by ply 7"
    cut = Node(1, "O", 4, kind="cut", bound="lower")  # X to move: at least +4
    assert ENGLISH.value_text(cut) == "≥ +4 (X wins by ply 6)"
    assert ENGLISH.value_text(Node(1, "X", 0, bound="lower")) == "≤ 0 (at least a draw for O)"  # O's lower bound


def test_alpha_and_beta_are_the_values_their_words_speak_of() -> None:
    assert ENGLISH.cut_reason("X", 0, "O 1", 1) == "β = 0 (draw): O already has it elsewhere (O 1 at ply 1)"
    alpha = "\N{GREEK SMALL LETTER ALPHA}"
    assert (
        ENGLISH.cut_reason("O", 5, "X a1", 3)
        == f"{alpha} = +5 (X wins at ply 5): X already has it elsewhere (X a1 at ply 3)"
    )
    known = "β = +6: known before searching this position (X cannot win before ply 4)"
    assert ENGLISH.cut_reason("X", None, window=6) == known


def test_counts_take_the_plural_rule_of_the_language() -> None:
    assert ENGLISH.count(ENGLISH.states, 1) == "1 state" and ENGLISH.count(ENGLISH.states, 55_504) == "55,504 states"
    assert ENGLISH.count(ENGLISH.more_moves, 1) == "1 more move"  # was "1 more moves"
    calls: list[tuple[str, str, int]] = []

    def plurals(one: str, many: str, count: int, /, **values: object) -> str:
        calls.append((one, many, count))
        return f"[{count}]"

    words = Words().translated(str.upper, str, str, plurals)
    assert words.draw == "DRAW" and words.count(words.visits, 3) == "[3]" and calls == [(*ENGLISH.visits, 3)]


def test_the_principal_line_follows_exact_values_only() -> None:
    bound = Node(2, "X", 0, bound="upper")
    exact = Node(3, "X", 0)
    root = Node(None, None, 0, children=[Node(0, "O", 0, children=[bound, exact])])
    assert [node.move for node in principal_path(root, 0)] == [0, 3]
