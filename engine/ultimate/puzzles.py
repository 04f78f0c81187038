"""Ultimate tic-tac-toe's puzzles: the kit :mod:`engine.puzzles` mines, grades and checks them with.

Proofs by :class:`engine.ultimate.proof.UltimateProver`. A position's class: the 8 symmetries of the square
(:data:`engine.tictactoe.bitboard.SYMMETRIES`) applied at once to the big board (which small board goes where) and
inside every small board, with the board the mover is sent to moved too. Self-play moves: of alpha-beta's best
:data:`NOISY_CANDIDATES` moves, a noisy pick (:func:`noisy_alpha_beta`). Themes as :mod:`engine.puzzles.grading`
describes them, a plausible move being one that wins a small board or makes a threat in one.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from engine.protocol import PuzzleLine
from engine.tictactoe.bitboard import SYMMETRIES, SYMMETRY_MASKS, THREATS
from engine.ultimate.play import NOISY_CANDIDATES
from engine.ultimate.proof import OutOfBudget, Position, UltimateProver, moves_of, play, position_of
from engine.ultimate.rules import BIT_OF_CELL, WON9, UltimateState, UltimateTicTacToe
from engine.ultimate.search import search as alpha_beta

__all__ = [
    "SLOWER_BUDGET",
    "UltimatePuzzles",
    "noisy_alpha_beta",
    "ultimate_features",
    "ultimate_key",
    "ultimate_threats",
]

SLOWER_BUDGET = 50_000
"""The node budget of each proof of a slower win (a few tenths of a second): beyond it the move counts as no win."""


class UltimatePuzzles:
    """Ultimate's puzzle kit (:class:`engine.protocol.PuzzleKit`)."""

    first_ply = 20
    opening = (2, 12)
    long_build = True

    def __init__(self) -> None:
        self.prover = UltimateProver()

    def key(self, moves: Sequence[int]) -> tuple[int, int, int]:
        """The symmetry class of the position after ``moves`` (:func:`ultimate_key`)."""
        state = UltimateTicTacToe().play(tuple(moves))
        return ultimate_key(state.x, state.o, state.forced)

    def prove(self, moves: Sequence[int]) -> PuzzleLine | None:
        """The puzzle line after ``moves`` (:meth:`UltimateProver.prove`), or ``None``."""
        return self.prover.prove(moves)

    def features(self, moves: Sequence[int], line: PuzzleLine) -> tuple[int, int, tuple[str, ...]]:
        """As :func:`ultimate_features`."""
        return ultimate_features(moves, line)

    def hidden(self, moves: Sequence[int], line: PuzzleLine) -> int:
        """0: ultimate's wins in one are rated by the levels' tries alone."""
        return 0

    def threatened(self, moves: Sequence[int], cell: int) -> bool:
        """True when the opponent of the side to move would win the game at once on ``cell``, if it could play
        there."""
        return cell in ultimate_threats(moves)

    def slower_win(self, moves: Sequence[int], cell: int, wins_in: range) -> int | None:
        """The first k of ``wins_in`` in which ``cell`` played after ``moves`` forces a win, or ``None`` (also when a
        proof exceeds :data:`SLOWER_BUDGET` nodes)."""
        pos = position_of(moves)
        assert pos is not None  # the cell was legal: the game was not over
        prover = UltimateProver(SLOWER_BUDGET)
        try:
            return next((k for k in wins_in if prover.move_wins(pos, BIT_OF_CELL[cell], k)), None)
        except OutOfBudget:
            return None

    def self_play_move(self, state: UltimateState, rng: random.Random, noise: float) -> int:
        """With probability ``noise / 2`` a random legal move, else :func:`noisy_alpha_beta` with a spread of
        ``40 + 400 * noise`` evaluation points."""
        if rng.random() < noise / 2:
            return rng.choice(UltimateTicTacToe().actions(state))
        return noisy_alpha_beta(state, 40.0 + 400 * noise, rng)


def noisy_alpha_beta(state: UltimateState, noise: float, rng: random.Random) -> int:
    """Of alpha-beta's best :data:`NOISY_CANDIDATES` moves (400 states, exact scores in evaluation points), the one
    whose score plus a Gaussian(0, ``noise``) drawn from ``rng`` is highest. Deterministic given ``rng``, so
    ``make puzzles`` rebuilds the same set."""
    report = alpha_beta(state, math.inf, max_nodes=400, multipv=NOISY_CANDIDATES)
    exact = [m for m in report.moves if m.exact][:NOISY_CANDIDATES]
    return max(exact, key=lambda m: m.score + rng.gauss(0.0, noise)).move


def _ultimate_image(marks: int, k: int) -> int:
    perm, masks = SYMMETRIES[k], SYMMETRY_MASKS[k]
    return sum(masks[marks >> 9 * b & 511] << 9 * perm[b] for b in range(9))


def ultimate_key(x: int, o: int, forced: int) -> tuple[int, int, int]:
    """The class key of the ultimate position with board-major masks ``x``, ``o`` and the board ``forced`` (-1: any)."""
    return min(
        (_ultimate_image(x, k), _ultimate_image(o, k), -1 if forced < 0 else SYMMETRIES[k][forced]) for k in range(8)
    )


def ultimate_threats(moves: Sequence[int]) -> set[int]:
    """Grid cells where the opponent of the side to move would win the game at once, if it could play there."""
    state = UltimateTicTacToe().play(tuple(moves))
    mover_x = len(moves) % 2 == 0
    opp, opp_boards = (state.o, state.o_boards) if mover_x else (state.x, state.x_boards)
    occupied = state.x | state.o
    cells: set[int] = set()
    for board in range(9):
        if state.closed >> board & 1 or not WON9[opp_boards | 1 << board]:
            continue
        open_threats = THREATS[opp >> 9 * board & 511] & ~(occupied >> 9 * board) & 511
        cells |= {c for c in range(81) if BIT_OF_CELL[c] // 9 == board and open_threats >> BIT_OF_CELL[c] % 9 & 1}
    return cells


def _game_threats(pos: Position) -> int:
    """The cells that would win the game at once for the side to move, wherever it is sent."""
    me, opp, mw, _, closed, _ = pos
    count = 0
    for b in range(9):
        if not closed >> b & 1 and WON9[mw | 1 << b]:
            count += (THREATS[me >> 9 * b & 511] & ~((me | opp) >> 9 * b) & 511).bit_count()
    return count


def _small_threat(pos: Position, bit: int) -> bool:
    me, opp = pos[0], pos[1]
    b = bit // 9
    mine, theirs = me >> 9 * b & 511, opp >> 9 * b & 511
    return bool(THREATS[mine] >> bit % 9 & 1 or THREATS[mine | 1 << bit % 9] & ~(mine | theirs | 1 << bit % 9) & 511)


def ultimate_features(moves: Sequence[int], line: PuzzleLine) -> tuple[int, int, tuple[str, ...]]:
    """``(branching, plausible, themes)`` of an ultimate puzzle: the legal moves, the other moves that win a small
    board or make a threat in one, and the themes."""
    pos = position_of(moves)
    if pos is None:
        raise ValueError("the game is over: no puzzle")
    first = BIT_OF_CELL[line.solution[0]]
    legal = moves_of(pos)
    plausible = sum(1 for bit in legal if bit != first and _small_threat(pos, bit))
    themes: list[str] = []
    if WON9[(pos[0] | 1 << first) >> 9 * (first // 9) & 511]:
        themes.append("board_win")
    forcing, fork, decided = True, False, False
    for i, cell in enumerate(line.solution[:-1]):
        after = play(pos, BIT_OF_CELL[cell])
        mine = (after[1], after[0], after[3], after[2], after[4], -1)
        threats = _game_threats(mine)
        fork = fork or threats >= 2
        forcing = forcing and threats >= 1
        decided = decided or after[5] < 0
        if i == 0 and threats == 0 and not _small_threat(pos, BIT_OF_CELL[cell]):
            themes.append("quiet")
        pos = play(after, BIT_OF_CELL[line.replies[i]])
    if fork:
        themes.insert(0, "double_threat")
    if decided:
        themes.append("decided_board")
    if forcing and len(line.solution) > 1:
        themes.append("forcing")
    return len(legal), plausible, tuple(themes)
