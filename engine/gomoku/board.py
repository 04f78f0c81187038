"""The search board of Gomoku, in pure Python: the twin of the C kernel ``_gomoku_c.c``, which does the same steps in
the same order (the tests compare both on the same positions: same evaluations, same moves, same counts).

**Lines as windows.** Every five cells in a row on the board (572 windows: 165 across, 165 down, 121 on each
diagonal) keeps the number of stones of each side it holds; a window with stones of one side only is that side's
potential five. The board updates the counts incrementally on each move (each cell lies in at most 20 windows).

**Pattern evaluation** (:meth:`PyBoard.evaluate`): the sum over each side's live windows of a weight growing with the
stones in it (:data:`LINE_WEIGHTS`), the side to move's minus the opponent's. This is the window count evaluation of
the Gomoku programs (e.g. the threat counts of Allis, van den Herik and Huntjens, "Go-Moku and threat-space
search", 1993, taken as line weights); a three in one window is worth ten twos.

**Move generation** (:meth:`PyBoard.candidates`): the empty cells within two cells (both ways, any direction) of a
stone, or the centre on the empty board, ordered by a score of what the move makes (:data:`ATTACK`) plus what it
stops (:data:`DEFENCE`) over its windows, ties by cell.

**Threats**: a *five* cell completes a window holding four of a side's stones; a *four* move puts a fourth stone in a
window holding three and nothing of the opponent (then the opponent must take its fifth cell); an open four (two five
cells) wins. **VCF** (:meth:`PyBoard.vcf`), victory by continuous fours (Allis et al. 1993): the attacker plays only
fours, the defender's reply is forced (the five cell); the attacker wins when a four leaves two five cells or when
its five cannot be stopped. A defender's own five ends the line; a defender's four must be blocked by a four.

**Zobrist keys** (Zobrist, "A new hashing method with application for game playing", 1970): one 64-bit number per
cell and side from splitmix64 (Steele, Lea and Flood 2014) seeded with 1, the same in C.

**States evaluated**: :attr:`PyBoard.count` adds one per node of the threat search (each position it examines).
"""

from __future__ import annotations

from engine.gomoku.rules import CELLS, SIZE

__all__ = ["ATTACK", "CENTRE", "DEFENCE", "LINE_WEIGHTS", "WINDOWS", "ZOBRIST", "PyBoard", "windows_of"]

CENTRE = CELLS // 2
LINE_WEIGHTS = (0, 1, 12, 150, 2000, 0)
"""A live window's weight by the stones in it (a five has ended the game)."""
ATTACK = (1, 6, 40, 800, 100_000)
"""A move's ordering score in a window with ``n`` own stones and none of the opponent's, by ``n``."""
DEFENCE = (0, 3, 20, 400, 50_000)
"""A move's ordering score in a window with ``n`` opponent stones and none of its own, by ``n``."""
_MASK64 = (1 << 64) - 1


def _windows() -> tuple[tuple[int, ...], ...]:
    found = []
    for row_step, column_step in ((0, 1), (1, 0), (1, 1), (1, -1)):
        for row in range(SIZE):
            for column in range(SIZE):
                end_row, end_column = row + 4 * row_step, column + 4 * column_step
                if 0 <= end_row < SIZE and 0 <= end_column < SIZE:
                    found.append(tuple((row + k * row_step) * SIZE + column + k * column_step for k in range(5)))
    return tuple(found)


WINDOWS = _windows()
"""The 572 windows (five cells in a row): across, down, down-right, down-left, each by its first cell."""


def windows_of() -> tuple[tuple[int, ...], ...]:
    """Cell (0-224) → the indices (ascending) of the windows that hold it (5 to 20)."""
    owners: list[list[int]] = [[] for _ in range(CELLS)]
    for index, window in enumerate(WINDOWS):
        for cell in window:
            owners[cell].append(index)
    return tuple(tuple(found) for found in owners)


_OWNERS = windows_of()
_NEAR = tuple(
    tuple(
        r * SIZE + c
        for r in range(max(0, cell // SIZE - 2), min(SIZE, cell // SIZE + 3))
        for c in range(max(0, cell % SIZE - 2), min(SIZE, cell % SIZE + 3))
        if r * SIZE + c != cell
    )
    for cell in range(CELLS)
)


def _splitmix64(count: int) -> tuple[int, ...]:
    state, out = 1, []
    for _ in range(count):
        state = (state + 0x9E3779B97F4A7C15) & _MASK64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        out.append(z ^ (z >> 31))
    return tuple(out)


ZOBRIST = _splitmix64(2 * CELLS)
"""The key of a stone of side ``s`` (0 X, 1 O) on ``cell``: ``ZOBRIST[2 * cell + s]``."""


class PyBoard:
    """A Gomoku position for the search: stones, window counts, neighbourhood counts and a Zobrist key.

    Sides are 0 (X) and 1 (O); cells 0-224 as in :mod:`engine.gomoku.rules`. The caller keeps moves legal (an empty
    cell, undone in reverse order).
    """

    def __init__(self) -> None:
        self.cells = [-1] * CELLS
        self.counts = ([0] * len(WINDOWS), [0] * len(WINDOWS))
        self.near = [0] * CELLS
        self.totals = [0, 0]
        self.key = 0
        self.stones = 0
        self.count = 0

    def place(self, cell: int, side: int) -> None:
        """Put a stone of ``side`` on the empty ``cell``."""
        mine, theirs = self.counts[side], self.counts[1 - side]
        totals = self.totals
        for w in _OWNERS[cell]:
            a, b = mine[w], theirs[w]
            if b == 0:
                totals[side] += LINE_WEIGHTS[a + 1] - LINE_WEIGHTS[a]
            elif a == 0:
                totals[1 - side] -= LINE_WEIGHTS[b]
            mine[w] = a + 1
        for other in _NEAR[cell]:
            self.near[other] += 1
        self.cells[cell] = side
        self.key ^= ZOBRIST[2 * cell + side]
        self.stones += 1

    def remove(self, cell: int) -> None:
        """Take back the stone on ``cell`` (the last one placed)."""
        side = self.cells[cell]
        mine, theirs = self.counts[side], self.counts[1 - side]
        totals = self.totals
        for w in _OWNERS[cell]:
            a, b = mine[w] - 1, theirs[w]
            if b == 0:
                totals[side] -= LINE_WEIGHTS[a + 1] - LINE_WEIGHTS[a]
            elif a == 0:
                totals[1 - side] += LINE_WEIGHTS[b]
            mine[w] = a
        for other in _NEAR[cell]:
            self.near[other] -= 1
        self.cells[cell] = -1
        self.key ^= ZOBRIST[2 * cell + side]
        self.stones -= 1

    def evaluate(self, side: int) -> int:
        """The pattern evaluation for ``side`` (to move): its live windows' weights minus the opponent's."""
        return self.totals[side] - self.totals[1 - side]

    def five_cells(self, side: int) -> list[int]:
        """The empty cells (ascending) where ``side`` would complete five."""
        mine, theirs, cells = self.counts[side], self.counts[1 - side], self.cells
        found: set[int] = set()
        for w, a in enumerate(mine):
            if a == 4 and theirs[w] == 0:
                found.update(c for c in WINDOWS[w] if cells[c] < 0)
        return sorted(found)

    def four_moves(self, side: int) -> list[int]:
        """The empty cells where a stone of ``side`` makes a four, the cells in more such windows first, then by
        cell."""
        mine, theirs, cells = self.counts[side], self.counts[1 - side], self.cells
        windows: dict[int, int] = {}
        for w, a in enumerate(mine):
            if a == 3 and theirs[w] == 0:
                for c in WINDOWS[w]:
                    if cells[c] < 0:
                        windows[c] = windows.get(c, 0) + 1
        return sorted(windows, key=lambda c: (-windows[c], c))

    def move_score(self, cell: int, side: int) -> int:
        """The ordering score of ``side`` playing the empty ``cell``: :data:`ATTACK` and :data:`DEFENCE` summed over
        its windows."""
        mine, theirs = self.counts[side], self.counts[1 - side]
        score = 0
        for w in _OWNERS[cell]:
            a, b = mine[w], theirs[w]
            if b == 0:
                score += ATTACK[a]
            elif a == 0:
                score += DEFENCE[b]
        return score

    def candidates(self, side: int) -> list[int]:
        """The empty cells near a stone (the centre on an empty board), best :meth:`move_score` first, ties by cell."""
        if self.stones == 0:
            return [CENTRE]
        cells, near = self.cells, self.near
        scored = [(-self.move_score(c, side), c) for c in range(CELLS) if near[c] and cells[c] < 0]
        scored.sort()
        return [c for _, c in scored]

    def vcf(self, side: int, moves: int) -> list[int] | None:
        """A victory by continuous fours for ``side`` (to move) in at most ``moves`` moves of its own: the line of
        both sides' moves from here to the five (the winner's moves are the even places, the five last), or
        ``None`` when the threat search finds none within ``moves``."""
        line: list[int] = []
        failed: dict[int, int] = {}
        return line if self._vcf(side, moves, line, failed) else None

    def _vcf(self, side: int, moves: int, line: list[int], failed: dict[int, int]) -> bool:
        self.count += 1
        own = self.five_cells(side)
        if own:
            line.append(own[0])
            return True
        if moves < 2:
            return False
        key = self.key ^ side
        if failed.get(key, -1) >= moves:
            return False
        threats = self.five_cells(1 - side)
        if len(threats) > 1:
            tries = []
        else:
            tries = self.four_moves(side)
            if threats:
                tries = [c for c in tries if c == threats[0]]
        for cell in tries:
            self.place(cell, side)
            fives = self.five_cells(side)
            if len(fives) > 1:
                self.remove(cell)
                line += [cell, fives[0], fives[1]]
                return True
            reply = fives[0]
            self.place(reply, 1 - side)
            line += [cell, reply]
            won = self._vcf(side, moves - 1, line, failed)
            self.remove(reply)
            self.remove(cell)
            if won:
                return True
            del line[-2:]
        failed[key] = moves
        return False
