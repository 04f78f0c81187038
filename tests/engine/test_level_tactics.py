"""engine.levels as ``engine serve`` plays them: every level takes a win in one; the single immediate threat is
blocked by level 1 in 75 % of positions or more, level 2 in 90 %, levels 3-8 always (benchmarks/level_tactics.py
measures the full rates). On Connect Four a threat is a column whose next disc completes four; its level 8 (perfect
play, minutes a move in the first plies before the opening book) is left to the solver's tests."""

from __future__ import annotations

import random

import pytest

from engine.cli.serve import answer
from engine.connect_four.cells import CELLS_GAME, bit_of
from engine.connect_four.rules import has_four
from engine.levels import LEVELS, TOP
from engine.mnk.rules import TicTacToe
from engine.protocol import Mark
from engine.tictactoe.rules import State

GAMES = {"3x3": TicTacToe(3, 3, 3), "4x4": TicTacToe(4, 4, 4), "5x5": TicTacToe(5, 5, 4)}
BLOCK_FLOOR = {1: 0.75, 2: 0.90}


def _winning_cells(game: TicTacToe, mine: int, occupied: int) -> set[int]:
    return {c for c in range(game.cells) if not occupied >> c & 1 and game.has_line(mine | 1 << c)}


def _kind(game: TicTacToe, x: int, o: int) -> tuple[str, set[int]] | None:
    me, opp = (x, o) if x.bit_count() == o.bit_count() else (o, x)
    wins = _winning_cells(game, me, x | o)
    threats = _winning_cells(game, opp, x | o)
    if wins:
        return "win", wins
    return ("block", threats) if len(threats) == 1 else None


def _moves(x: int, o: int) -> list[int]:
    """1-based moves reaching the position (X and O alternating, X first)."""
    xs = [c + 1 for c in range(25) if x >> c & 1]
    os_ = [c + 1 for c in range(25) if o >> c & 1]
    return [m for pair in zip(xs, [*os_, 0], strict=False) for m in pair if m]


def _random_positions(name: str, count: int) -> list[tuple[list[int], str, set[int]]]:
    game, rng = GAMES[name], random.Random(f"tactics/{name}")
    found: list[tuple[list[int], str, set[int]]] = []
    while len(found) < count:
        state, moves = game.initial_state(), []
        while not game.terminal(state):
            kind = _kind(game, state.x, state.o)
            if kind is not None:
                found.append((moves, *kind))
                break
            cell = rng.choice(game.actions(state))
            moves.append(cell + 1)
            state = game.result(state, cell)
    return found


def _positions(name: str, non_terminal: list[State]) -> list[tuple[list[int], str, set[int]]]:
    if name != "3x3":
        return _random_positions(name, 240)
    found = []
    for state in non_terminal[::3]:
        kind = _kind(GAMES[name], state.x, state.o)
        if kind is not None:
            found.append((_moves(state.x, state.o), *kind))
    return found


def _connect_four_positions(count: int) -> list[tuple[list[int], str, set[int]]]:
    """``count`` win or block positions of Connect Four, one per uniformly random game: 1-based cells played, the
    kind, and the cells (where the discs would fall) that win at once or block the single threat."""
    rng, found = random.Random("tactics/connect-four"), []
    while len(found) < count:
        state, moves = CELLS_GAME.initial_state(), []
        while not CELLS_GAME.terminal(state):
            me, opp = (state.x, state.o) if CELLS_GAME.player(state) is Mark.X else (state.o, state.x)
            wins = {cell for cell in CELLS_GAME.actions(state) if has_four(me | bit_of(cell))}
            threats = {cell for cell in CELLS_GAME.actions(state) if has_four(opp | bit_of(cell))}
            if wins or len(threats) == 1:
                found.append((moves, "win" if wins else "block", wins or threats))
                break
            cell = rng.choice(CELLS_GAME.actions(state))
            moves.append(cell + 1)
            state = CELLS_GAME.result(state, cell)
    return found


@pytest.mark.parametrize("name", [*GAMES, "connect-four"])
def test_every_level_wins_at_once_and_blocks_a_single_threat(name: str, non_terminal: list[State]) -> None:
    positions = _connect_four_positions(240) if name == "connect-four" else _positions(name, non_terminal)
    assert sum(kind == "block" for _, kind, _ in positions) >= 60
    for level in LEVELS[: TOP - 1] if name == "connect-four" else LEVELS:
        hits = {"win": 0, "block": 0, "all_win": 0, "all_block": 0}
        for index, (moves, kind, cells) in enumerate(positions):
            request = {"variant": name, "moves": moves, "level": level, "budget_ms": 60_000}
            move = answer(request, rng=random.Random(index))["move"] - 1
            hits[kind] += move in cells
            hits[f"all_{kind}"] += 1
        assert hits["win"] == hits["all_win"], (name, level)
        floor = BLOCK_FLOOR.get(level, 1.0)
        assert hits["block"] >= floor * hits["all_block"], (name, level, hits)
        if level in BLOCK_FLOOR:  # a weak level still misses a threat now and then
            assert hits["block"] < hits["all_block"], (name, level)
