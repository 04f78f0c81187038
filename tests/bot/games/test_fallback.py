"""The fallback move: legal, cheap (never the exact solver), the book's move where there is one, and marked as a
shorter search."""

from __future__ import annotations

import random
from unittest import mock

import pytest

from bot.games import moves as bot_moves
from bot.games.moves import FALLBACK_BUDGET_MS
from engine import EngineMove, GameOverError
from engine.mnk import play as mnk_play
from engine.mnk.rules import TIC_TAC_TOE_4X4
from engine.mnk.tactics import tactical_cell
from engine.registry import VARIANTS


def fallback_move(name: str, moves: tuple[int, ...], level: int, seed: int) -> EngineMove:
    return bot_moves.fallback_move(VARIANTS[name], moves, level, seed)


def variant_move(name: str, moves: tuple[int, ...], level: int, budget_ms: float | None, seed: int) -> EngineMove:
    return bot_moves.bot_move(VARIANTS[name], moves, level, "alpha-beta", budget_ms, seed)


def test_a_line_of_its_own_comes_before_blocking_one_and_blocking_before_building() -> None:
    rng = random.Random(0)
    wins = TIC_TAC_TOE_4X4.play([0, 4, 1, 5, 2, 6])  # X a1-c1, O a2-c2: X to move completes its row
    assert tactical_cell(TIC_TAC_TOE_4X4, wins, rng) == (3, 10)
    blocks = TIC_TAC_TOE_4X4.play([0, 4, 1, 5, 15, 6])  # O threatens d2; X has no three
    assert tactical_cell(TIC_TAC_TOE_4X4, blocks, rng) == (7, 10)
    opening = TIC_TAC_TOE_4X4.initial_state()  # a diagonal's cells lie on three lines, the others on two
    assert {tactical_cell(TIC_TAC_TOE_4X4, opening, random.Random(seed))[0] for seed in range(40)} == {
        0,
        3,
        5,
        6,
        9,
        10,
        12,
        15,
    }
    with pytest.raises(GameOverError):
        tactical_cell(TIC_TAC_TOE_4X4, TIC_TAC_TOE_4X4.play([0, 4, 1, 5, 2, 6, 3]), rng)


def test_a_5x5_position_in_the_book_gets_the_books_move() -> None:
    searched = variant_move("5x5", (12,), 8, None, 1)
    fallback = fallback_move("5x5", (12,), 8, 1)
    assert searched.book and fallback.book and fallback.cell == searched.cell
    assert fallback.reduced and not searched.reduced and fallback.budget_ms is None


def test_the_exact_solver_is_never_run() -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the fallback ran the exact solver")

    with mock.patch.object(mnk_play, "choose_move", refuse), mock.patch.object(mnk_play, "root_scores", refuse):
        for variant, moves in (("4x4", (5,)), ("5x5", (0, 1, 2, 3, 4, 5)), ("5x5", (24, 0))):
            move = fallback_move(variant, moves, 8, 7)
            state = VARIANTS[variant].replay(moves)
            assert move.cell in VARIANTS[variant].game.actions(state) and move.reduced
        with pytest.raises(AssertionError):  # the check above can fail: the real player does run it
            variant_move("4x4", (5,), 8, None, 7)


def test_ultimate_searches_with_the_small_budget_at_its_level() -> None:
    move = fallback_move("ultimate", (40,), 8, 3)
    state = VARIANTS["ultimate"].replay((40,))
    assert move.cell in VARIANTS["ultimate"].game.actions(state)
    assert move.budget_ms == FALLBACK_BUDGET_MS and move.reduced and move.depth is not None and move.depth >= 1


def test_the_lower_levels_play_their_own_search() -> None:
    with mock.patch.object(mnk_play, "choose_move", side_effect=AssertionError("the exact solver ran")):
        for level in range(1, 8):
            moves = {fallback_move("4x4", (0, 4, 1, 5, 2, 6), level, seed).cell for seed in range(10)}
            assert moves == {3}, f"level {level} missed the win in one"  # every level sees one ply ahead


def test_a_game_over_is_refused() -> None:
    with pytest.raises(GameOverError):
        fallback_move("4x4", (0, 4, 1, 5, 2, 6, 3), 8, 1)
