"""The puzzles of an m,n,k game (4x4, 5x5): the kit :mod:`engine.puzzles` mines, grades and checks them with.

Proofs by :class:`engine.mnk.proof.MnkProver`; a position's class is the smallest ``x << cells | o`` over the board's
symmetries (:attr:`TicTacToe.symmetries`); self-play moves by :func:`greedy_move`; themes and the hidden-win points as
:mod:`engine.puzzles.grading` describes them.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.mnk.proof import MnkProver
from engine.mnk.rules import MnkState, TicTacToe
from engine.mnk.solver import initial_threats
from engine.protocol import Mark, PuzzleLine

__all__ = ["MnkPuzzles", "greedy_move", "mnk_features", "mnk_hidden", "mnk_key"]


class MnkPuzzles:
    """The puzzle kit of the m,n,k ``game`` (:class:`engine.protocol.PuzzleKit`); its prover is made at first use."""

    long_build = False

    def __init__(self, game: TicTacToe, first_ply: int, opening: tuple[int, int]) -> None:
        self.game = game
        self.first_ply = first_ply
        self.opening = opening
        self._prover: MnkProver | None = None

    @property
    def prover(self) -> MnkProver:
        """The prover (one solver kernel, its table kept between proofs)."""
        if self._prover is None:
            self._prover = MnkProver(self.game)
        return self._prover

    def key(self, moves: Sequence[int]) -> int:
        """The symmetry class of the position after ``moves`` (:func:`mnk_key`)."""
        state = self.game.play(tuple(moves))
        return mnk_key(self.game, state.x, state.o)

    def prove(self, moves: Sequence[int]) -> PuzzleLine | None:
        """The puzzle line after ``moves`` (:meth:`MnkProver.prove`), or ``None``."""
        return self.prover.prove(moves)

    def features(self, moves: Sequence[int], line: PuzzleLine) -> tuple[int, int, tuple[str, ...]]:
        """As :func:`mnk_features`."""
        return mnk_features(self.game, moves, line)

    def hidden(self, moves: Sequence[int], line: PuzzleLine) -> int:
        """As :func:`mnk_hidden`."""
        return mnk_hidden(self.game, moves, line)

    def threatened(self, moves: Sequence[int], cell: int) -> bool:
        """True when the opponent of the side to move would win at once on ``cell``."""
        state = self.game.play(tuple(moves))
        opp = state.o if self.game.player(state) is Mark.X else state.x
        threats = initial_threats(self.game, opp) & (self.game.full ^ (state.x | state.o))
        return bool(threats >> cell & 1)

    def slower_win(self, moves: Sequence[int], cell: int, wins_in: range) -> int | None:
        """The first k of ``wins_in`` in which ``cell`` played after ``moves`` forces a win, or ``None``."""
        state = self.game.result(self.game.play(tuple(moves)), cell)
        me, opp = (state.x, state.o) if self.game.player(state) is Mark.O else (state.o, state.x)
        prover = MnkProver(self.game)
        return next((k for k in wins_in if prover.wins_with(me & ~(1 << cell), opp, cell, k)), None)

    def self_play_move(self, state: MnkState, rng: random.Random, noise: float) -> int:
        """As :func:`greedy_move`."""
        return greedy_move(self.game, state, rng, noise)


def mnk_key(game: TicTacToe, x: int, o: int) -> int:
    """The class key of the m,n,k position with masks ``x`` and ``o``."""
    best = -1
    for perm in game.symmetries:
        a = sum(1 << perm[c] for c in range(game.cells) if x >> c & 1)
        b = sum(1 << perm[c] for c in range(game.cells) if o >> c & 1)
        key = a << game.cells | b
        if best < 0 or key < best:
            best = key
    return best


def greedy_move(game: TicTacToe, state: MnkState, rng: random.Random, noise: float) -> int:
    """A quick m,n,k move: win at once, else block (unless ``noise`` strikes), else with probability ``noise`` a
    random cell, else the cell whose open lines hold most of the mover's marks (4 ** marks per line)."""
    me, opp = (state.x, state.o) if game.player(state) is Mark.X else (state.o, state.x)
    free = game.full ^ (me | opp)
    cells = [c for c in range(game.cells) if free >> c & 1]
    wins, blocks = initial_threats(game, me) & free, initial_threats(game, opp) & free
    if wins:
        return rng.choice([c for c in cells if wins >> c & 1])
    if blocks and rng.random() >= noise / 2:
        return rng.choice([c for c in cells if blocks >> c & 1])
    if rng.random() < noise:
        return rng.choice(cells)

    def worth(cell: int) -> float:
        open_lines = sum(4 ** (line & me).bit_count() for line in game.lines_through[cell] if not line & opp)
        return float(open_lines) + rng.random()

    return max(cells, key=worth)


def mnk_hidden(game: TicTacToe, moves: Sequence[int], line: PuzzleLine) -> int:
    """Points for how hidden a win in one is (0 for longer wins, whose difficulty the levels' tries measure): +300
    when the opponent threatens to win at once too (the block tempts), +150 when the winning line is a diagonal,
    +30 for each open line of either side two marks short of a win (a distraction, at most 10)."""
    if len(line.solution) != 1:
        return 0
    state = game.play(tuple(moves))
    me, opp = (state.x, state.o) if game.player(state) is Mark.X else (state.o, state.x)
    cell = line.solution[0]
    points = 300 if initial_threats(game, opp) & (game.full ^ (me | opp)) else 0
    won = next(ln for ln in game.lines_through[cell] if (me | 1 << cell) & ln == ln)
    cells = [c for c in range(game.cells) if won >> c & 1]
    points += 150 if len({c // game.h for c in cells}) > 1 and len({c % game.h for c in cells}) > 1 else 0
    near = sum(
        1 for ln in game.lines for a, b in ((me, opp), (opp, me)) if not ln & b and (ln & a).bit_count() == game.k - 2
    )
    return points + 30 * min(near, 10)


def mnk_features(game: TicTacToe, moves: Sequence[int], line: PuzzleLine) -> tuple[int, int, tuple[str, ...]]:
    """``(branching, plausible, themes)`` of an m,n,k puzzle: the legal moves at the start, the other moves that
    make or block a threat there, and the themes of the module docstring."""
    state = game.play(tuple(moves))
    me, opp = (state.x, state.o) if game.player(state) is Mark.X else (state.o, state.x)
    free = game.full ^ (me | opp)
    blocks = initial_threats(game, opp) & free
    plausible = 0
    for cell in range(game.cells):
        if free >> cell & 1 and cell != line.solution[0]:
            makes = initial_threats(game, me | 1 << cell) & (free & ~(1 << cell))
            plausible += bool(makes or blocks >> cell & 1)
    themes: list[str] = []
    threats_made = []
    for i, cell in enumerate(line.solution[:-1]):
        me |= 1 << cell
        open_cells = game.full ^ (me | opp)
        threats_made.append((initial_threats(game, me) & open_cells).bit_count())
        if i == 0 and threats_made[0] == 0:
            themes.append("quiet")
        opp |= 1 << line.replies[i]
    if any(t >= 2 for t in threats_made):
        themes.insert(0, "double_threat")
    if threats_made and all(t >= 1 for t in threats_made):
        themes.append("forcing")
    return bin(free).count("1"), plausible, tuple(themes)
