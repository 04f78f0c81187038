"""A move that is not the puzzle's but still wins, only slower: in how many moves it forces the win.

A puzzle asks for the fastest win; lichess accepts any mate in one, and a person who finds a win in 3 where a win
in 1 was asked has not blundered. :func:`slower_win` tells the bot so: the solver's moves (the one played
included) in which ``cell`` still forces a win against every defence, proved as the puzzles are
(:class:`engine.puzzles.mnk_proof.MnkProver`, :class:`engine.puzzles.ultimate_proof.UltimateProver`,
:class:`engine.puzzles.connect_four_proof.ConnectFourProver`).
"""

from __future__ import annotations

from engine.connect_four.cells import ConnectFourCells
from engine.mnk.rules import TicTacToe
from engine.protocol import Mark
from engine.puzzles.connect_four_proof import ConnectFourProver
from engine.puzzles.mnk_proof import MnkProver
from engine.puzzles.model import Puzzle, puzzle_variant
from engine.puzzles.ultimate_proof import OutOfBudget, UltimateProver, position_of
from engine.ultimate.rules import BIT_OF_CELL

__all__ = ["SLOWER_BUDGET", "SLOWER_LIMIT", "slower_win"]

SLOWER_LIMIT = 5
"""The slowest win looked for, in the solver's moves from the turn played (a slower one counts as no win)."""
SLOWER_BUDGET = 50_000
"""Ultimate: the node budget of each proof (a few tenths of a second): beyond it the move counts as no win."""


def slower_win(puzzle: Puzzle, progress: int, cell: int, limit: int = SLOWER_LIMIT) -> int | None:
    """In how many of the solver's moves ``cell`` (0-based, not the line's move) forces a win when played after
    ``progress`` plies of the line (an even ply: the solver's turn); ``None`` when it does not within ``limit`` (or,
    on ultimate, the proof exceeds its node budget).

    Raises:
        IllegalMoveError: (a subclass) ``cell`` cannot be played there.
    """
    moves = (*puzzle.moves, *puzzle.line[:progress])
    left = puzzle.win_in - progress // 2  # the line's moves still to play: nothing this fast but the line's
    game = puzzle_variant(puzzle.variant)
    rules = game.game
    state = rules.result(game.replay(moves), cell)  # raises for an illegal cell
    if rules.terminal(state):
        return 1 if game.winner(state) not in (None, "draw") else None
    slower = range(left + 1, limit + 1)
    if isinstance(rules, TicTacToe):
        me, opp = (state.x, state.o) if rules.player(state) is Mark.O else (state.o, state.x)
        prover = MnkProver(rules)
        return next((k for k in slower if prover.wins_with(me & ~(1 << cell), opp, cell, k)), None)
    if isinstance(rules, ConnectFourCells):
        connect_four = ConnectFourProver()
        return next((k for k in slower if connect_four.cell_wins(moves, cell, k)), None)
    pos = position_of(moves)
    assert pos is not None  # the cell was legal: the game was not over
    ultimate = UltimateProver(SLOWER_BUDGET)
    try:
        return next((k for k in slower if ultimate.move_wins(pos, BIT_OF_CELL[cell], k)), None)
    except OutOfBudget:
        return None
