"""An independent plain solver for k-in-a-row on a square board, written for the tests and benchmarks.

It shares no code with the engine: its own lines, its own win test, natural move order, no threat rules, no
symmetry. Negamax alpha-beta (Knuth & Moore, 1975) with every result memoised as a (lower, upper) bound pair,
depth-aware like the engine: a win completed when the board holds ``n`` marks is worth ``cells + 1 - n`` to
the winner.
"""

from __future__ import annotations

INF = 1_000


class PlainSolver:
    """Exact depth-aware values of positions on a ``size`` x ``size`` board with ``k`` in a row."""

    def __init__(self, size: int, k: int) -> None:
        self.cells = size * size
        lines = []
        for r in range(size):
            for c in range(size):
                for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    cells = [(r + dr * i, c + dc * i) for i in range(k)]
                    if all(0 <= rr < size and 0 <= cc < size for rr, cc in cells):
                        lines.append(sum(1 << (rr * size + cc) for rr, cc in cells))
        self.lines = lines
        self.memo: dict[tuple[int, int], tuple[int, int]] = {}

    def won(self, mask: int) -> bool:
        """True when ``mask`` holds a whole line."""
        return any(mask & line == line for line in self.lines)

    def value(self, me: int, opp: int, alpha: int = -INF, beta: int = INF) -> int:
        """The score for the side to move (``me``; ``opp`` moved last), fail-soft within (alpha, beta)."""
        n = (me | opp).bit_count()
        if self.won(opp):
            return -(self.cells + 1 - n)
        if n == self.cells:
            return 0
        low, high = self.memo.get((me, opp), (-INF, INF))
        if low == high or low >= beta:
            return low
        if high <= alpha:
            return high
        alpha, beta = max(alpha, low), min(beta, high)
        best, a = -INF, alpha
        for cell in range(self.cells):
            bit = 1 << cell
            if (me | opp) & bit:
                continue
            v = -self.value(opp, me | bit, -beta, -a)
            best = max(best, v)
            a = max(a, v)
            if a >= beta:
                break
        if best <= alpha:
            high = best
        elif best >= beta:
            low = best
        else:
            low = high = best
        self.memo[(me, opp)] = (low, high)
        return best

    def move_score(self, me: int, opp: int, cell: int) -> int:
        """The exact score for the side to move of playing ``cell``."""
        return -self.value(opp, me | 1 << cell)
