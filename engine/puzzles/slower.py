"""A move that is not the puzzle's but still wins, only slower: in how many moves it forces the win.

A puzzle asks for the fastest win; lichess accepts any mate in one, and a person who finds a win in 3 where a win
in 1 was asked has not blundered. :func:`slower_win` tells the bot so: the solver's moves (the one played
included) in which ``cell`` still forces a win against every defence, proved as the puzzles are (by the game's kit:
:meth:`engine.protocol.PuzzleKit.slower_win`).
"""

from __future__ import annotations

from engine.puzzles.model import Puzzle, puzzle_kit, puzzle_variant

__all__ = ["SLOWER_LIMIT", "slower_win"]

SLOWER_LIMIT = 5
"""The slowest win looked for, in the solver's moves from the turn played (a slower one counts as no win)."""


def slower_win(puzzle: Puzzle, progress: int, cell: int, limit: int = SLOWER_LIMIT) -> int | None:
    """In how many of the solver's moves ``cell`` (0-based, not the line's move) forces a win when played after
    ``progress`` plies of the line (an even ply: the solver's turn); ``None`` when it does not within ``limit`` (or,
    where the game bounds its proofs, a proof exceeds the bound).

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
    return puzzle_kit(puzzle.variant).slower_win(moves, cell, range(left + 1, limit + 1))
