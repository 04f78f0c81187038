"""Perfect play on 4x4 and 5x5 (engine.mnk.play) against an independent plain solver (tests/engine/mnk_oracle.py)."""

from __future__ import annotations

import random
from functools import cache

import pytest

from engine.errors import GameOverError
from engine.mnk.book import book_for
from engine.mnk.play import analyse, choose_move, game_value, score_of
from engine.mnk.rules import TIC_TAC_TOE_4X4, TIC_TAC_TOE_5X5, MnkState, TicTacToe
from engine.mnk.solver import NATIVE
from engine.protocol import GameValue, Mark
from tests.engine.mnk_oracle import PlainSolver

KERNELS = [
    pytest.param(False, id="python"),
    pytest.param(True, id="c", marks=pytest.mark.skipif(not NATIVE, reason="the C kernel is not built")),
]


@cache
def oracle(size: int) -> PlainSolver:
    """One memoised plain solver per board size, shared by the tests (its memo only grows)."""
    return PlainSolver(size, 4)


def sides(game: TicTacToe, state: MnkState) -> tuple[int, int]:
    return (state.x, state.o) if game.player(state) is Mark.X else (state.o, state.x)


def oracle_value(game: TicTacToe, state: MnkState) -> GameValue:
    me, opp = sides(game, state)
    return game_value(oracle(game.h).value(me, opp), game.cells, state.marks)


def random_position(game: TicTacToe, rng: random.Random, marks: int) -> MnkState:
    while True:
        state = game.initial_state()
        while state.marks < marks and not game.terminal(state):
            state = game.result(state, rng.choice(game.actions(state)))
        if not game.terminal(state):
            return state


def test_game_values_and_scores_convert_both_ways() -> None:
    assert game_value(25, 25, 0) == GameValue("win", 1)
    assert game_value(-20, 25, 4) == GameValue("loss", 2)
    assert game_value(0, 16, 3) == GameValue("draw", 13)
    for score in range(-16, 17):
        assert score_of(game_value(score, 25, 8), 25, 8) == score


@pytest.mark.parametrize("native", KERNELS)
def test_5x5_analysis_agrees_with_a_plain_solver_on_random_late_positions(native: bool) -> None:
    game = TIC_TAC_TOE_5X5
    rng = random.Random(25)
    for _ in range(6):
        state = random_position(game, rng, 15)
        me, opp = sides(game, state)
        result = analyse(game, state, native=native)
        assert [cell for cell, _ in result.values] == list(game.actions(state))
        for cell, value in result.values:
            expected = game_value(oracle(5).move_score(me, opp, cell), game.cells, state.marks)
            assert value == expected, (game.format_board(state), cell)
        assert result.states > 0 and result.elapsed_ms >= 0


@pytest.mark.parametrize("native", KERNELS)
def test_choose_move_finds_every_best_move_and_the_position_value(native: bool) -> None:
    game = TIC_TAC_TOE_4X4
    rng = random.Random(16)
    for _ in range(40):
        state = random_position(game, rng, rng.randint(5, 12))
        me, opp = sides(game, state)
        scores = {cell: oracle(4).move_score(me, opp, cell) for cell in game.actions(state)}
        best = max(scores.values())
        decision = choose_move(game, state, rng, native=native)
        assert decision.source == "search" and decision.states > 0
        assert set(decision.best_moves) == {cell for cell, score in scores.items() if score == best}
        assert decision.move in decision.best_moves
        assert decision.value == game_value(best, game.cells, state.marks) == oracle_value(game, state)


def test_choose_move_draws_among_equally_good_moves() -> None:
    game = TIC_TAC_TOE_4X4
    state = game.initial_state()
    moves = {choose_move(game, state, random.Random(seed)).move for seed in range(40)}
    assert len(moves) > 3


def test_a_book_move_says_so_evaluates_nothing_and_names_its_proof_s_states_apart() -> None:
    game = TIC_TAC_TOE_5X5
    book = book_for(game)
    assert book is not None
    decision = choose_move(game, game.initial_state(), random.Random(1))
    move, score, states = book.entries[(0, 0)]
    assert (decision.source, decision.move, decision.states, decision.book_states) == ("book", move, 0, states)
    assert decision.as_move(Mark.X).book_states == states
    assert decision.value == GameValue("draw", 25) and score == 0 and states > 1_000_000
    after = game.play([0])  # a corner: the book holds it once, in its canonical orientation (another corner)
    answer = choose_move(game, after, random.Random(1))
    assert answer.source == "book" and not (after.x | after.o) >> answer.move & 1


def test_a_finished_game_has_no_move_to_choose_or_analyse() -> None:
    game = TIC_TAC_TOE_4X4
    state = game.play([0, 4, 1, 5, 2, 6, 3])
    with pytest.raises(GameOverError):
        choose_move(game, state)
    with pytest.raises(GameOverError):
        analyse(game, state)


def bot_games(game: TicTacToe, bot: Mark, games: int, seed: int, checked_from: int = 0) -> list[MnkState]:
    """Final positions of seeded games of the bot against a uniformly random player.

    Each bot move in a position with at least ``checked_from`` marks is checked against the plain solver.
    """
    rng = random.Random(seed)
    finals = []
    for _ in range(games):
        state = game.initial_state()
        while not game.terminal(state):
            if game.player(state) is not bot:
                state = game.result(state, rng.choice(game.actions(state)))
                continue
            decision = choose_move(game, state, rng)
            if state.marks < checked_from:
                state = game.result(state, decision.move)
                continue
            expected = oracle_value(game, state)
            assert decision.value == expected, game.format_board(state)
            me, opp = sides(game, state)
            for move in decision.best_moves:  # every move it may pick keeps the value: no faster win is missed
                assert game_value(oracle(game.h).move_score(me, opp, move), game.cells, state.marks) == expected
            state = game.result(state, decision.move)
        finals.append(state)
    return finals


@pytest.mark.parametrize("bot", [Mark.X, Mark.O])
def test_4x4_bot_never_loses_and_never_misses_a_faster_win_against_random_players(bot: Mark) -> None:
    """A sample of the exhaustive check (benchmarks/mnk_exhaustive.py walks every opponent sequence).

    The plain solver checks the bot's moves from five marks on (earlier ones cost it seconds each).
    """
    game = TIC_TAC_TOE_4X4
    finals = bot_games(game, bot, 60, seed=44 if bot is Mark.X else 45, checked_from=5)
    assert all(game.winner(state) in (bot, None) for state in finals)
    assert sum(game.winner(state) is bot for state in finals) > 20  # random players blunder


def test_5x5_bot_never_loses_against_random_players_sample() -> None:
    game = TIC_TAC_TOE_5X5
    rng = random.Random(55)
    for bot in (Mark.X, Mark.O):
        for _ in range(10):
            state = game.initial_state()
            while not game.terminal(state):
                mover = game.player(state)
                move = choose_move(game, state, rng).move if mover is bot else rng.choice(game.actions(state))
                state = game.result(state, move)
            assert game.winner(state) in (bot, None)
