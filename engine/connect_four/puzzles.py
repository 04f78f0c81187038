"""Connect Four's puzzles: the kit :mod:`engine.puzzles` mines, grades and checks them with.

Proofs by :class:`engine.connect_four.proof.ConnectFourProver`; a position's class is the board or its mirror image
(gravity leaves no other symmetry), the smaller of ``x << 49 | o``; self-play moves by :func:`connect_four_move`.
On Connect Four a threat is an empty cell that would complete four; a threat the defender must answer at once is one a
disc can fall to, and a double threat is two of them, or one right above another of the same side (the block gives
the win).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.connect_four.cells import bit_of, cell_of
from engine.connect_four.heuristic import WINDOWS
from engine.connect_four.proof import ConnectFourProver, drops, replay, sides
from engine.connect_four.rules import BOARD, BOTTOM, STRIDE, WIDTH, ConnectFourState, column_mask, has_four
from engine.connect_four.solver import threat_cells
from engine.protocol import PuzzleLine

__all__ = [
    "ConnectFourPuzzles",
    "connect_four_features",
    "connect_four_hidden",
    "connect_four_key",
    "connect_four_move",
    "connect_four_threats",
]


class ConnectFourPuzzles:
    """Connect Four's puzzle kit (:class:`engine.protocol.PuzzleKit`); its prover is made at first use."""

    first_ply = 10
    opening = (0, 6)
    long_build = True

    def __init__(self) -> None:
        self._prover: ConnectFourProver | None = None

    @property
    def prover(self) -> ConnectFourProver:
        """The prover (one solver kernel, its table kept between proofs)."""
        if self._prover is None:
            self._prover = ConnectFourProver()
        return self._prover

    def key(self, moves: Sequence[int]) -> int:
        """The symmetry class of the position after ``moves`` (:func:`connect_four_key`)."""
        discs = replay(moves)
        return connect_four_key(discs.x, discs.o)

    def prove(self, moves: Sequence[int]) -> PuzzleLine | None:
        """The puzzle line after ``moves`` (:meth:`ConnectFourProver.prove`), or ``None``."""
        return self.prover.prove(moves)

    def features(self, moves: Sequence[int], line: PuzzleLine) -> tuple[int, int, tuple[str, ...]]:
        """As :func:`connect_four_features`."""
        return connect_four_features(moves, line)

    def hidden(self, moves: Sequence[int], line: PuzzleLine) -> int:
        """As :func:`connect_four_hidden`."""
        return connect_four_hidden(moves, line)

    def threatened(self, moves: Sequence[int], cell: int) -> bool:
        """True when the opponent of the side to move would win at once on ``cell`` (a disc can fall there)."""
        return bool(connect_four_threats(moves) & bit_of(cell))

    def slower_win(self, moves: Sequence[int], cell: int, wins_in: range) -> int | None:
        """The first k of ``wins_in`` in which ``cell`` played after ``moves`` forces a win, or ``None``."""
        prover = ConnectFourProver()
        return next((k for k in wins_in if prover.cell_wins(moves, cell, k)), None)

    def self_play_move(self, state: ConnectFourState, rng: random.Random, noise: float) -> int:
        """As :func:`connect_four_move`."""
        return connect_four_move(state, rng, noise)


def _mirror(discs: int) -> int:
    """A Connect Four bitboard reflected left to right (column ``c`` to ``6 - c``)."""
    out = 0
    for column in range(WIDTH):
        out |= (discs & column_mask(column)) >> (column * STRIDE) << ((WIDTH - 1 - column) * STRIDE)
    return out


def connect_four_key(x: int, o: int) -> int:
    """The class key of the Connect Four position with bitboards ``x`` and ``o``."""
    shift = WIDTH * STRIDE
    return min(x << shift | o, _mirror(x) << shift | _mirror(o))


def connect_four_threats(moves: Sequence[int]) -> int:
    """The bits of the cells where the opponent of the side to move would win at once (a disc can fall there)."""
    cur, mask = sides(moves)
    return threat_cells(cur ^ mask, mask) & (mask + BOTTOM) & BOARD


def connect_four_move(state: ConnectFourState, rng: random.Random, noise: float) -> int:
    """A quick Connect Four move (the cell its disc falls to): win at once, else block (unless ``noise`` strikes),
    else with probability ``noise`` a random column, else a disc that does not let the opponent win on top of it,
    on the open windows holding most of the mover's discs (4 ** discs per window)."""
    mask = state.x | state.o
    me = state.x if mask.bit_count() % 2 == 0 else state.o
    opp = me ^ mask
    columns = drops(mask)
    theirs = threat_cells(opp, mask)
    wins = [d for d in columns if has_four(me | d)]
    blocks = [d for d in columns if d & theirs]
    safe = [d for d in columns if not d << 1 & theirs] or columns
    if wins:
        disc = rng.choice(wins)
    elif blocks and rng.random() >= noise / 2:
        disc = rng.choice(blocks)
    elif rng.random() < noise:
        disc = rng.choice(columns)
    else:

        def worth(d: int) -> float:
            return float(sum(4 ** (w & me).bit_count() for w in WINDOWS if w & d and not w & opp)) + rng.random()

        disc = max(safe, key=worth)
    return cell_of(disc.bit_length() - 1)


def _pressing(mine: int, mask: int) -> int:
    """How many threats of ``mine`` the defender must answer at once: the cells a disc can fall to that would
    complete four, counted 2 when one of them lies right below another threat (blocking it gives the win)."""
    threats = threat_cells(mine, mask)
    playable = threats & (mask + BOTTOM) & BOARD
    return 2 if playable & (threats >> 1) else playable.bit_count()


def connect_four_hidden(moves: Sequence[int], line: PuzzleLine) -> int:
    """Points for how hidden a Connect Four win in one is (0 for longer wins): +300 when the opponent threatens to
    win at once too (the block tempts), +150 when the four is a diagonal, +75 when it is a row, +30 for each open
    window of either side two discs short of a four (a distraction, at most 10)."""
    if len(line.solution) != 1:
        return 0
    cur, mask = sides(moves)
    opp = cur ^ mask
    points = 300 if threat_cells(opp, mask) & (mask + BOTTOM) & BOARD else 0
    disc = next(d for d in drops(mask) if has_four(cur | d))
    won = cur | disc
    for shift, worth in ((STRIDE - 1, 150), (STRIDE + 1, 150), (STRIDE, 75)):
        pairs = won & won >> shift
        fours = pairs & pairs >> 2 * shift
        if any(fours << step * shift & disc for step in range(4)):
            points += worth
            break
    near = sum(1 for w in WINDOWS for a, b in ((cur, opp), (opp, cur)) if not w & b and (w & a).bit_count() == 2)
    return points + 30 * min(near, 10)


def connect_four_features(moves: Sequence[int], line: PuzzleLine) -> tuple[int, int, tuple[str, ...]]:
    """``(branching, plausible, themes)`` of a Connect Four puzzle: the columns open at the
    start, the other moves that make a new threat or block an immediate one, and the themes."""
    cur, mask = sides(moves)
    opp = cur ^ mask
    blocks = threat_cells(opp, mask) & (mask + BOTTOM)
    before = threat_cells(cur, mask)
    first = bit_of(line.solution[0])
    open_columns = drops(mask)
    plausible = 0
    for disc in open_columns:
        if disc != first:
            plausible += bool(threat_cells(cur | disc, mask | disc) & ~before or disc & blocks)
    themes: list[str] = []
    pressing = []
    for i, cell in enumerate(line.solution[:-1]):
        disc = bit_of(cell)
        cur, mask = cur | disc, mask | disc
        pressing.append(_pressing(cur, mask))
        if i == 0 and not pressing[0] and not threat_cells(cur, mask) & ~before:
            themes.append("quiet")  # nothing to answer at once, and no new cell that would complete four
        mask |= bit_of(line.replies[i])
    if any(p >= 2 for p in pressing):
        themes.insert(0, "double_threat")
    if pressing and all(p >= 1 for p in pressing):
        themes.append("forcing")
    return len(open_columns), plausible, tuple(themes)
