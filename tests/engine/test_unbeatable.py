"""The AI never loses, never misses a faster win and delays every forced loss: checked exhaustively.

The AI plays with the DEFAULT configuration. Where it may break ties at random, the walk follows
*every* move in ``SearchResult.best_moves`` (the set ``rng.choice`` draws from), so the check
covers every game the AI could play against every sequence of opponent moves.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import pytest

from engine.errors import GameOverError
from engine.minimax.search import DEFAULT, search
from engine.registry import variant
from engine.tictactoe.rules import Mark, State, actions, initial_state, parse_board, player, result, terminal, winner

if TYPE_CHECKING:
    from conftest import Oracle


@dataclass
class Walk:
    """Tallies of an exhaustive walk over the AI's games."""

    ai_positions: int = 0
    endings: dict[str, int] = field(default_factory=lambda: {"win": 0, "draw": 0, "loss": 0})
    seen: set[State] = field(default_factory=set)


def walk(state: State, ai: Mark, oracle: Oracle, tally: Walk) -> None:
    """Follow every opponent move and every equally good AI move from ``state``."""
    if terminal(state):
        w = winner(state)
        tally.endings["draw" if w is None else "win" if w is ai else "loss"] += 1
        return
    if state in tally.seen:
        return
    tally.seen.add(state)
    if player(state) is not ai:
        for cell in actions(state):
            walk(result(state, cell), ai, oracle, tally)
        return
    tally.ai_positions += 1
    res = search(state, config=DEFAULT)
    assert set(res.best_moves) == oracle.optimal(state), state
    assert res.move in res.best_moves
    value = oracle.value(state)
    for cell in res.best_moves:
        child = result(state, cell)
        # The AI's move keeps the position's exact value: a draw stays a draw, a forced win in k
        # plies stays a forced win in k - 1 (never slower), a loss is put off as long as possible.
        assert -oracle.value(child) == value
        if value > 0:
            assert oracle.plies(child) == oracle.plies(state) - 1
        walk(child, ai, oracle, tally)


@pytest.mark.parametrize("ai", [Mark.X, Mark.O])
def test_never_loses_against_any_opponent(ai: Mark, oracle: Oracle) -> None:
    tally = Walk()
    walk(initial_state(), ai, oracle, tally)
    assert tally.endings["loss"] == 0
    assert tally.endings["win"] > 0  # opponents' mistakes are punished...
    assert tally.endings["draw"] > 0  # ...and perfect opponents get a draw
    assert tally.ai_positions > 100


def test_best_moves_equal_the_oracles_optimal_moves_everywhere(non_terminal: list[State], oracle: Oracle) -> None:
    """On all 4,520 non-terminal reachable positions, the tie-break set is exactly the optimal set."""
    for state in non_terminal:
        res = search(state)
        assert set(res.best_moves) == oracle.optimal(state), state
        assert len(res.best_moves) == len(set(res.best_moves))
        assert res.value == oracle.x_value(state), state


@pytest.mark.parametrize("seed", range(5))
def test_random_tie_breaking_only_picks_optimal_moves(seed: int, non_terminal: list[State], oracle: Oracle) -> None:
    rng = random.Random(seed)
    for state in non_terminal[::7]:
        decision = variant("3x3").play(state, rng=rng)
        assert decision.cell in oracle.optimal(state)
        assert search(state, rng=rng).move in oracle.optimal(state)


def test_random_tie_breaking_uses_the_whole_set() -> None:
    """From the empty board every cell draws, so different seeds pick different first moves."""
    picks = {search(initial_state(), rng=random.Random(seed)).move for seed in range(200)}
    assert picks == set(range(9))


def test_takes_the_fastest_win(non_terminal: list[State], oracle: Oracle) -> None:
    wins = [s for s in non_terminal if oracle.value(s) > 0]
    assert len(wins) > 1000
    for state in wins:
        k = oracle.plies(state)
        for cell in search(state).best_moves:
            child = result(state, cell)
            if terminal(child):
                assert k == 1 and winner(child) is player(state)
            else:
                assert oracle.outcome(child) == "loss" and oracle.plies(child) == k - 1


def test_immediate_win_is_preferred_to_a_slower_one() -> None:
    # X can win at once on 2 (0-1-2) or set up a win elsewhere; only the immediate win is best.
    state = parse_board("XX.OO....")
    res = search(state)
    assert res.best_moves == (2,)
    assert res.value == 9  # X wins in 1 ply: 10 - 1


def test_delays_a_forced_loss(non_terminal: list[State], oracle: Oracle) -> None:
    lost = [s for s in non_terminal if oracle.value(s) < 0]
    assert len(lost) > 100
    delayed = 0
    for state in lost:
        longest = max(oracle.plies(result(state, c)) for c in actions(state)) + 1
        move = search(state).move
        assert oracle.plies(result(state, move)) + 1 == longest, state
        delayed += any(oracle.plies(result(state, c)) + 1 < longest for c in actions(state))
    assert delayed > 50  # plenty of lost positions where a careless move loses sooner


def test_delays_the_loss_in_a_known_trap() -> None:
    """X 1, O 2, X 5 (people's cells): O is lost. Blocking on 9 loses in 4 plies, anything else in 2."""
    state = parse_board("XO..X....")
    assert player(state) is Mark.O
    res = search(state)
    assert res.best_moves == (8,)
    assert res.value == 6  # X wins, 4 plies from here


def test_search_refuses_finished_games() -> None:
    with pytest.raises(GameOverError):
        search(parse_board("XXXOO...."))
    with pytest.raises(GameOverError):
        variant("3x3").play(parse_board("XOXXOOOXX"))
