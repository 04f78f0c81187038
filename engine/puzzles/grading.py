"""Puzzle themes and starting ratings, from the rules alone (no search).

Themes (named as lichess names its puzzle themes, where one fits):

- ``double_threat``: a solver move before the last leaves two or more cells that would win at once (a fork).
- ``forcing``: every solver move before the last makes a threat the defender must answer.
- ``quiet``: the first move makes no threat at all (never on a ``defence`` puzzle).
- ``defence``: the first move blocks the opponent's immediate win (:func:`engine.puzzles.quality.is_defence`).
- ``board_win`` (ultimate): the first move wins a small board.
- ``decided_board`` (ultimate): a solver move before the last sends the defender to a decided (closed) small board.

On Connect Four a threat is an empty cell that would complete four; a threat the defender must answer at once is one
a disc can fall to, and a double threat is two of them, or one right above another of the same side (the block
gives the win).

The starting rating is a difficulty estimate in Glicko-2 points: a base per N (the solver's moves), raised by the
moves that look good at the start (the threats, blocks and small-board wins other than the solution) and by the
branching, lowered for a forcing line. Players' ratings then move it (:mod:`bot.puzzles` rates every attempt).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.connect_four.cells import bit_of
from engine.connect_four.heuristic import WINDOWS
from engine.connect_four.rules import BOARD, BOTTOM, STRIDE, has_four
from engine.connect_four.solver import threat_cells
from engine.mnk.rules import TicTacToe
from engine.mnk.solver import initial_threats
from engine.protocol import Mark
from engine.puzzles.connect_four_proof import drops, sides
from engine.puzzles.mnk_proof import Line
from engine.puzzles.ultimate_proof import Position, moves_of, play, position_of
from engine.tictactoe.bitboard import THREATS
from engine.ultimate.rules import BIT_OF_CELL, WON9

__all__ = [
    "BASE_RATING",
    "connect_four_features",
    "connect_four_hidden",
    "estimate_rating",
    "mnk_features",
    "mnk_hidden",
    "ultimate_features",
]

BASE_RATING = {1: 700, 2: 1100, 3: 1400, 4: 1650, 5: 1850}
"""The starting rating of a win in N before the adjustments."""


def estimate_rating(win_in: int, branching: int, plausible: int, themes: Sequence[str], hidden: int = 0) -> int:
    """The starting rating: :data:`BASE_RATING` ``[win_in]`` + 25 per plausible alternative (at most 12) + 4 per
    legal move beyond 10 (at most 40 moves), + 100 when ``quiet``, - 75 when ``forcing``, + ``hidden`` points
    (:func:`mnk_hidden`); within 400-2600."""
    rating = BASE_RATING[min(win_in, 5)] + 25 * min(plausible, 12) + 4 * (min(branching, 40) - 10) + hidden
    rating += 100 if "quiet" in themes else 0
    rating -= 75 if "forcing" in themes else 0
    return max(400, min(2600, rating))


def mnk_hidden(game: TicTacToe, moves: Sequence[int], line: Line) -> int:
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


def mnk_features(game: TicTacToe, moves: Sequence[int], line: Line) -> tuple[int, int, tuple[str, ...]]:
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


def ultimate_features(moves: Sequence[int], line: Line) -> tuple[int, int, tuple[str, ...]]:
    """``(branching, plausible, themes)`` of an ultimate puzzle, as :func:`mnk_features`; a plausible move wins a
    small board or makes a threat in one."""
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


def _pressing(mine: int, mask: int) -> int:
    """How many threats of ``mine`` the defender must answer at once: the cells a disc can fall to that would
    complete four, counted 2 when one of them lies right below another threat (blocking it gives the win)."""
    threats = threat_cells(mine, mask)
    playable = threats & (mask + BOTTOM) & BOARD
    return 2 if playable & (threats >> 1) else playable.bit_count()


def connect_four_hidden(moves: Sequence[int], line: Line) -> int:
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


def connect_four_features(moves: Sequence[int], line: Line) -> tuple[int, int, tuple[str, ...]]:
    """``(branching, plausible, themes)`` of a Connect Four puzzle, as :func:`mnk_features`: the columns open at the
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
