"""Alpha-beta agrees with minimax on every reachable position, and never evaluates more states.

Runs every combination of ordering, scoring, transposition table, root window, symmetry and threat
rules on all 4,520 non-terminal reachable positions (each minimax sweep is cached per option set).
"""

from __future__ import annotations

import dataclasses
import itertools
from functools import cache
from typing import TYPE_CHECKING, Any

import pytest

from engine.minimax.search import TEXTBOOK_ALPHA_BETA, TEXTBOOK_MINIMAX, SearchConfig, SearchResult, search
from engine.tictactoe.rules import State, initial_state, result

if TYPE_CHECKING:
    from conftest import Oracle

OPTIONS = list(
    itertools.product(
        ("natural", "centre"), ("plain", "depth"), (False, True), ("fresh", "shared"), (False, True), (False, True)
    )
)


@cache
def minimax_sweep(
    positions: tuple[State, ...], ordering: Any, scoring: Any, symmetry: bool
) -> tuple[SearchResult, ...]:
    """Plain minimax on every position, computed once per option set."""
    cfg = SearchConfig("minimax", ordering, scoring, transposition=False, root_window="fresh", symmetry=symmetry)
    return tuple(search(s, config=cfg) for s in positions)


@pytest.mark.parametrize(("ordering", "scoring", "transposition", "root_window", "symmetry", "threats"), OPTIONS)
def test_alpha_beta_matches_minimax(
    ordering: Any,
    scoring: Any,
    transposition: bool,
    root_window: Any,
    symmetry: bool,
    threats: bool,
    non_terminal: list[State],
) -> None:
    cfg = SearchConfig("alpha-beta", ordering, scoring, transposition, root_window, symmetry, threats)
    reference = minimax_sweep(tuple(non_terminal), ordering, scoring, symmetry)
    assert len(reference) == len(non_terminal) == 4_520
    fewer = 0
    for state, mm in zip(non_terminal, reference, strict=True):
        ab = search(state, config=cfg)
        assert ab.value == mm.value, state
        assert ab.best_moves == mm.best_moves, state
        assert ab.move == mm.move, state
        assert ab.states <= mm.states, state
        fewer += ab.states < mm.states
    assert fewer > 1_000  # pruning actually happens


@pytest.mark.parametrize(("ordering", "scoring"), list(itertools.product(("natural", "centre"), ("plain", "depth"))))
def test_minimax_values_match_the_oracle(
    ordering: Any, scoring: Any, non_terminal: list[State], oracle: Oracle
) -> None:
    for state, mm in zip(non_terminal, minimax_sweep(tuple(non_terminal), ordering, scoring, False), strict=True):
        expected = oracle.x_value(state)
        if scoring == "plain":
            expected = (expected > 0) - (expected < 0)
        assert mm.value == expected, state


def test_minimax_counts_do_not_depend_on_ordering_or_scoring(non_terminal: list[State]) -> None:
    counts = {
        (o, s): tuple(r.states for r in minimax_sweep(tuple(non_terminal), o, s, False))
        for o, s in itertools.product(("natural", "centre"), ("plain", "depth"))
    }
    assert len(set(counts.values())) == 1
    assert sum(next(iter(counts.values()))) == 2_121_015  # the sum of subtree sizes over all positions


def test_textbook_alpha_beta_matches_textbook_minimax(non_terminal: list[State]) -> None:
    for state in non_terminal:
        ab = search(state, config=TEXTBOOK_ALPHA_BETA)
        mm = search(state, config=TEXTBOOK_MINIMAX)
        assert (ab.value, ab.move, ab.best_moves) == (mm.value, mm.move, mm.best_moves), state
        assert ab.states <= mm.states


def test_pruning_savings_from_the_empty_board() -> None:
    mm = search(initial_state(), config=TEXTBOOK_MINIMAX)
    ab = search(initial_state(), config=TEXTBOOK_ALPHA_BETA)
    assert mm.states == 549_945
    assert ab.states < mm.states // 10
    after_centre = result(initial_state(), 4)
    assert search(after_centre, config=TEXTBOOK_ALPHA_BETA).states < 55_504


def test_counts_do_not_depend_on_earlier_searches(non_terminal: list[State]) -> None:
    """Each search starts afresh: the same position gives the same count whatever was searched before."""
    forward = [search(s).states for s in non_terminal]
    backward = [search(s).states for s in reversed(non_terminal)]
    assert forward == backward[::-1]
    again = [search(s).states for s in non_terminal]
    assert forward == again


def test_threat_rules_save_states_overall(non_terminal: list[State]) -> None:
    with_rules = sum(search(s).states for s in non_terminal)
    without = sum(search(s, threats=False).states for s in non_terminal)
    assert with_rules < 0.75 * without


def test_minimax_ignores_the_table_and_the_threat_rules() -> None:
    after_centre = result(initial_state(), 4)
    for transposition, threats in itertools.product((False, True), repeat=2):
        res = search(after_centre, config=TEXTBOOK_MINIMAX, transposition=transposition, threats=threats)
        assert res.states == 55_504


def test_search_overrides_take_precedence_over_config() -> None:
    res = search(result(initial_state(), 4), config=TEXTBOOK_ALPHA_BETA, algorithm="minimax")
    assert res.states == 55_504
    assert res.config == dataclasses.replace(TEXTBOOK_ALPHA_BETA, algorithm="minimax")


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("algorithm", "negamax"),
        ("algorithm", "alphabeta"),  # one spelling only: "alpha-beta"
        ("ordering", "random"),
        ("scoring", "x"),
        ("root_window", "y"),
    ],
)
def test_unknown_options_are_rejected(option: str, value: str) -> None:
    with pytest.raises(ValueError, match=value):
        kwargs: dict[str, Any] = {option: value}
        search(initial_state(), **kwargs)
