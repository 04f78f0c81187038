"""The negamax value functions behind :func:`engine.minimax.search.root_values`: minimax and alpha-beta on masks.

Sources: Russell & Norvig, *AIMA* 4th ed., §5.2 and §5.3; fail-soft alpha-beta as in Knuth & Moore (1975);
the transposition table of exact values and bounds as in Marsland (1986). What the kernels count as
states evaluated is described in :mod:`engine.minimax.search`.
"""

from __future__ import annotations

from engine.tictactoe import bitboard as bb

__all__ = ["INF", "Kernels"]

INF = 1_000
"""Larger than any score (scores are at most 10 in absolute value)."""
# Read as module globals by the alpha-beta kernel: every variable its closure captures costs each call.
_FULL, _WINS = bb.FULL, bb.WINS
_EXACT, _LOWER, _UPPER = 0, 1, 2

# Canonical transposition keys (see bb.canonical_key), filled in as positions are met. This memo of a
# pure function of the position is shared by all searches; it changes no search's visits or counts.
_CANONICAL_KEYS: dict[int, int] = {}


def _canonical_key(me: int, opp: int) -> int:
    """Compute and remember a position's canonical key (a key is 0 only for the empty board)."""
    key = _CANONICAL_KEYS[me << 9 | opp] = bb.canonical_key(me, opp)
    return key


class Kernels:
    """The negamax value functions of one search, sharing its counter and its transposition table.

    Two kernels: :meth:`minimax_child` and :meth:`alpha_beta_child`, whose table and threat rules are
    options chosen when the kernels are built. Each takes ``(me, opp, n, beta)``: the masks of the side
    to move and of the side that just moved, the number of marks on the board, and the upper end of the
    window (the lower end is -inf). ``opp`` has not won and the board is not full (the parent tests that
    inline, and counts the child either way).
    """

    def __init__(
        self,
        free_bits: list[tuple[int, ...]],
        win_scores: tuple[int, ...],
        *,
        transposition: bool,
        symmetry: bool,
        threats: bool,
    ) -> None:
        """Share ``free_bits[occupied]`` (the move order) and ``win_scores[marks]`` across the kernels.

        ``transposition``, ``symmetry`` and ``threats`` are the options of
        :class:`engine.minimax.config.SearchConfig`; only :meth:`alpha_beta_child` reads them.
        """
        self.count = 0
        self.free_bits = free_bits
        self.win_scores = win_scores
        self.table: dict[int, tuple[int, int]] | None = {} if transposition else None
        self.canonical = symmetry
        self.threats = threats

    def minimax_child(self, me: int, opp: int, n: int, beta: int) -> int:
        """MINIMAX-VALUE (AIMA §5.2) in negamax form: every child is visited; ``beta`` is ignored."""
        wins, free_bits, win_scores = bb.WINS, self.free_bits, self.win_scores

        def value(me: int, opp: int, n: int) -> int:
            moves = free_bits[me | opp]
            self.count += len(moves)
            n1 = n + 1
            win = win_scores[n1]
            if n1 == 9:
                return win if wins[me | moves[0]] else 0
            best = -INF
            for bit in moves:
                child = me | bit
                v = win if wins[child] else -value(opp, child, n1)  # noqa: F821 (deleted once the search ends)
                if v > best:
                    best = v
            return best

        try:
            return value(me, opp, n)
        finally:
            del value  # it refers to itself through its closure: left alone, each search is a cycle to collect

    def alpha_beta_child(self, me: int, opp: int, n: int, beta: int) -> int:
        """ALPHA-BETA-SEARCH's MAX-VALUE/MIN-VALUE (AIMA §5.3) in fail-soft negamax form (Knuth & Moore 1975).

        With no option on, this is the textbook search: children in order, a terminal child counted and
        valued inline. With the table or the threat rules on, a position whose side to move can complete
        a line is valued as a win at once (the winning child is the one counted), so none of the children
        searched is terminal. The threat rules add the double-threat and forced-block rules of
        :class:`engine.minimax.config.SearchConfig`; a chain of forced blocks is followed in a loop rather
        than by recursion, and ``sign`` is +1 when the side to move is the caller's side and -1 when it
        is the other side. The table is probed once those rules have not settled the position, and
        stores its exact value or bound after the children (Marsland 1986).
        """
        threat_cells, free_bits, win_scores = bb.THREATS, self.free_bits, self.win_scores
        table = self.table
        lookup = table.get if table is not None else None
        # 0: the textbook search; 1: an immediate win is taken first; 2: the threat rules too.
        rules = 2 if self.threats else 1 if table is not None else 0
        canonical = self.canonical
        keys = _CANONICAL_KEYS
        count = 0

        def value(me: int, opp: int, n: int, alpha: int, beta: int) -> int:
            nonlocal count
            sign = 1
            n += 1  # the marks on the board once the side to move has moved
            if rules:
                while True:
                    free = _FULL ^ (me | opp)
                    if threat_cells[me] & free:  # a line to complete: a win now (its child is counted)
                        count += 1
                        return sign * win_scores[n]
                    if n == 9:  # the last cell completes no line: a draw
                        count += 1
                        return 0
                    if rules == 1:
                        break
                    threats = threat_cells[opp] & free
                    if not threats:
                        break
                    if threats & (threats - 1):  # two threats cannot both be blocked: lost in two plies
                        return -sign * win_scores[n + 1]
                    count += 1  # one threat: the block is the only child searched
                    me, opp = opp, me | threats
                    alpha, beta = -beta, -alpha
                    sign = -sign
                    n += 1
            elif n == 9:  # the textbook search's last cell: its only child, counted and valued inline
                count += 1
                return win_scores[9] if _WINS[_FULL ^ opp] else 0

            key = 0
            if lookup is not None:
                key = me << 9 | opp
                if canonical:
                    key = keys.get(key) or _canonical_key(me, opp)
                entry = lookup(key)
                if entry is not None:
                    flag, stored = entry
                    if flag == _EXACT:
                        return sign * stored
                    if flag == _LOWER:
                        if stored >= beta:
                            return sign * stored
                        if stored > alpha:
                            alpha = stored
                    else:
                        if stored <= alpha:
                            return sign * stored
                        if stored < beta:
                            beta = stored
            alpha_in = alpha
            best = -INF
            win = win_scores[n]
            for bit in free_bits[me | opp]:
                count += 1
                child = me | bit
                v = win if _WINS[child] else -value(opp, child, n, -beta, -alpha)  # noqa: F821 (deleted after the search)
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
                        if v >= beta:
                            break
            if table is not None:
                table[key] = (_UPPER if best <= alpha_in else _LOWER if best >= beta else _EXACT, best)
            return sign * best

        try:
            result = value(me, opp, n, -INF, beta)
        finally:
            del value  # as in minimax_child: no cycle left for the collector
        self.count += count
        return result
