"""Where puzzles come from: any list of games (the records store's finished games, or the engine's self-play).

:func:`mine` examines the positions of each game (0-based move sequences), proves the ones that are puzzles and
keeps one per symmetry class. :func:`self_play` makes the games a new install mines: the engine against itself
with a random opening and noise so that games differ, deterministic from its seed. On 4x4 and 5x5 the player is
the quick one of :func:`greedy_move` (win, else block, else the cell on the most promising open lines, with a
random move now and then); on ultimate it is :func:`engine.ultimate.play.choose_move` with a small state budget
and noise; on Connect Four the quick :func:`connect_four_move` (win, else block, else a disc not under the
opponent's winning cell, on the most promising open windows, with a random move now and then).
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Hashable, Iterable, Iterator, Sequence
from dataclasses import replace

from engine.connect_four.cells import ConnectFourCells, cell_of
from engine.connect_four.heuristic import WINDOWS
from engine.connect_four.rules import ConnectFourState, has_four
from engine.connect_four.solver import threat_cells
from engine.mnk.rules import MnkState, TicTacToe
from engine.mnk.solver import initial_threats
from engine.protocol import Mark
from engine.puzzles.connect_four_proof import ConnectFourProver, drops
from engine.puzzles.grading import (
    connect_four_features,
    connect_four_hidden,
    estimate_rating,
    mnk_features,
    mnk_hidden,
    ultimate_features,
)
from engine.puzzles.mnk_proof import Line, MnkProver
from engine.puzzles.model import Puzzle, puzzle_variant
from engine.puzzles.quality import is_defence
from engine.puzzles.symmetry import connect_four_key, mnk_key, ultimate_key
from engine.puzzles.ultimate_proof import UltimateProver
from engine.ultimate.rules import UltimateState, UltimateTicTacToe
from engine.ultimate.search import search as alpha_beta

__all__ = ["FIRST_PLY", "OPENING", "Miner", "connect_four_move", "greedy_move", "mine", "self_play"]

FIRST_PLY = {"4x4": 5, "5x5": 7, "ultimate": 20, "connect-four": 10}
"""Positions with fewer marks than this are not examined: forced short wins start later."""


OPENING = {"4x4": (0, 5), "5x5": (1, 6), "ultimate": (2, 12), "connect-four": (0, 6)}
"""Self-play opens with a random number of random moves in this range (inclusive), so that games differ early."""
NOISY_CANDIDATES = 4
"""Self-play on ultimate: how many of alpha-beta's best moves the noisy pick chooses among."""


class Miner:
    """Proves and grades candidate positions of one variant, keeping one puzzle per symmetry class."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.seen: set[Hashable] = set()
        rules = puzzle_variant(name).game
        self.mnk: TicTacToe | None = rules if isinstance(rules, TicTacToe) else None
        self.mnk_prover = MnkProver(self.mnk) if self.mnk is not None else None
        self.ultimate_prover = UltimateProver()
        self.connect_four = ConnectFourProver() if isinstance(rules, ConnectFourCells) else None

    def key(self, moves: Sequence[int]) -> Hashable:
        """The symmetry class of the position after ``moves``."""
        if self.mnk is not None:
            state = self.mnk.play(tuple(moves))
            return mnk_key(self.mnk, state.x, state.o)
        if self.connect_four is not None:
            discs = puzzle_variant(self.name).replay(moves)
            return connect_four_key(discs.x, discs.o)
        state_u = UltimateTicTacToe().play(tuple(moves))
        return ultimate_key(state_u.x, state_u.o, state_u.forced)

    def examine(self, moves: Sequence[int]) -> Puzzle | None:
        """The puzzle at the position after ``moves`` (0-based), or ``None``: not a puzzle, or its class was seen.

        Raises:
            IllegalMoveError: (a subclass) a move cannot be played.
        """
        key = self.key(moves)
        if key in self.seen:
            return None
        self.seen.add(key)
        prover = self.mnk_prover or self.connect_four or self.ultimate_prover
        line = prover.prove(moves)
        if line is None:
            return None
        return self.grade(moves, line, key)

    def grade(self, moves: Sequence[int], line: Line, key: Hashable) -> Puzzle:
        """The :class:`Puzzle` of a proved ``line``, its themes (``defence`` when its first move only blocks, see
        :func:`engine.puzzles.quality.is_defence`) and starting rating."""
        hidden = 0
        if self.mnk is not None:
            branching, plausible, themes = mnk_features(self.mnk, moves, line)
            hidden = mnk_hidden(self.mnk, moves, line)
        elif self.connect_four is not None:
            branching, plausible, themes = connect_four_features(moves, line)
            hidden = connect_four_hidden(moves, line)
        else:
            branching, plausible, themes = ultimate_features(moves, line)
        digest = hashlib.sha256(repr(key).encode()).hexdigest()[:12]
        puzzle = Puzzle(f"{self.name}-{digest}", self.name, tuple(moves), line.solution, line.replies, 0, themes)
        if is_defence(puzzle):
            themes = ("defence", *(theme for theme in themes if theme != "quiet"))
        rating = estimate_rating(len(line.solution), branching, plausible, themes, hidden)
        return replace(puzzle, rating=rating, themes=themes)


def mine(name: str, games: Iterable[Sequence[int]], miner: Miner | None = None) -> Iterator[Puzzle]:
    """Every new puzzle in ``games`` of variant ``name`` (each a 0-based move sequence from the empty board),
    positions from :data:`FIRST_PLY` marks on, latest first in each game (where short wins are).

    Pass a ``miner`` to keep its classes seen across calls. Games with an illegal move are skipped.
    """
    miner = miner if miner is not None else Miner(name)
    rules = puzzle_variant(name)
    for game in games:
        try:
            rules.replay(game)
        except ValueError:
            continue
        for ply in range(len(game) - 1, FIRST_PLY[name] - 1, -1):
            found = miner.examine(game[:ply])
            if found is not None:
                yield found


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


def self_play(name: str, seed: int) -> Iterator[list[int]]:
    """Endless self-play games of variant ``name`` (0-based moves), deterministic from ``seed``."""
    rng = random.Random(seed)
    rules = puzzle_variant(name)
    while True:
        state = rules.game.initial_state()
        moves: list[int] = []
        noise = rng.choice((0.05, 0.15, 0.3))
        opening = rng.randint(*OPENING[name])
        while not rules.game.terminal(state):
            if len(moves) < opening:
                move = rng.choice(rules.game.actions(state))
            elif isinstance(rules.game, TicTacToe):
                move = greedy_move(rules.game, state, rng, noise)
            elif isinstance(state, ConnectFourState):
                move = connect_four_move(state, rng, noise)
            elif rng.random() < noise / 2:
                move = rng.choice(rules.game.actions(state))
            else:
                move = _noisy_alpha_beta(state, 40.0 + 400 * noise, rng)
            moves.append(move)
            state = rules.game.result(state, move)
        yield moves


def _noisy_alpha_beta(state: UltimateState, noise: float, rng: random.Random) -> int:
    """A self-play move on ultimate: of alpha-beta's best :data:`NOISY_CANDIDATES` moves (400 states, exact
    scores in evaluation points), the one whose score plus a Gaussian(0, ``noise``) drawn from ``rng`` is highest.
    Deterministic given ``rng``, so ``make puzzles`` rebuilds the same set."""
    report = alpha_beta(state, math.inf, max_nodes=400, multipv=NOISY_CANDIDATES)
    exact = [m for m in report.moves if m.exact][:NOISY_CANDIDATES]
    return max(exact, key=lambda m: m.score + rng.gauss(0.0, noise)).move
