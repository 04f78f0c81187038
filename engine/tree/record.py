"""Record the 3x3 search behind a move: :func:`record` replays :func:`engine.minimax.search.search` and keeps every
state it evaluates as a :class:`engine.tree.node.Node`.

The replay is a second, slower pass that mirrors :mod:`engine.minimax.kernels` step by step (the same move order,
transposition table keyed by symmetry class, threat rules, fail-soft window and root symmetries), so the fast search
that plays stays as it is and the tree's node count is the count it reports. The tests check the two agree on
random positions. Sources: AIMA §5.2-5.3; fail-soft negamax as in Knuth & Moore (1975); the table of exact values
and bounds as in Marsland (1986).
"""

from __future__ import annotations

from engine.errors import GameOverError
from engine.minimax.config import ALGORITHM_CONFIGS, ORDERS, WIN_SCORES, SearchConfig
from engine.minimax.kernels import INF, Kernels
from engine.minimax.search import stabiliser, to_root_relative
from engine.protocol import Algorithm
from engine.tictactoe import bitboard as bb
from engine.tictactoe.rules import Mark, State, player, result, terminal
from engine.tree.node import Node, SearchTree

__all__ = ["record", "record_config"]

_EXACT, _LOWER, _UPPER = 0, 1, 2
_BOUND_NAMES = ("exact", "lower", "upper")


def record(
    cells: tuple[int, ...] | list[int],
    algorithm: Algorithm = "alpha-beta",
    move: int | None = None,
    *,
    keep: int | None = None,
) -> SearchTree:
    """The tree the bot's 3x3 search (:data:`engine.minimax.search.ALGORITHM_CONFIGS`) evaluates after ``cells``.

    Args:
        cells: 0-based cells played from the empty board.
        algorithm: ``"alpha-beta"`` (the bot's default) or ``"minimax"``.
        move: the move the bot played there, one of the best moves (default: the first in search order).
        keep: minimax only: record nodes down to this many plies below the root and count the states below them
            (:attr:`Node.hidden`) with the fast kernel; ``None`` records every state (549,945 from the empty board,
            about 5 s).

    Raises:
        IllegalMoveError: a cell cannot be played.
        GameOverError: the game after ``cells`` is over.
        ValueError: ``move`` is not one of the best moves.
    """
    state = State()
    for cell in cells:
        state = result(state, cell)
    return record_config(state, ALGORITHM_CONFIGS[algorithm], tuple(cells), move, keep=keep)


def record_config(
    state: State, cfg: SearchConfig, cells: tuple[int, ...] = (), move: int | None = None, *, keep: int | None = None
) -> SearchTree:
    """:func:`record` for any configuration (e.g. :data:`engine.minimax.config.TEXTBOOK_MINIMAX`)."""
    if terminal(state):
        raise GameOverError(f"the position {state!s} is already over: there is no search to show")
    return _Recorder(state, cfg, keep).tree(cells, move)


class _Recorder:
    def __init__(self, state: State, cfg: SearchConfig, keep: int | None) -> None:
        self.cfg = cfg
        self.keep = keep
        self.x_moves = player(state) is Mark.X
        self.me, self.opp = (state.x, state.o) if self.x_moves else (state.o, state.x)
        self.marks = state.marks
        self.free_bits = bb.FREE_BITS[ORDERS[cfg.ordering]]
        self.wins = WIN_SCORES[cfg.scoring]
        self.table: dict[int, tuple[int, int]] | None = {} if cfg.transposition else None
        self.rules = 2 if cfg.threats else 1 if cfg.transposition else 0
        self.minimax = cfg.algorithm == "minimax"

    def units(self, value: int, x_to_move: bool) -> int:
        """A negamax score of the side to move as X's score relative to the root (see engine.tree.node)."""
        value = value if x_to_move else -value
        return to_root_relative(value, self.marks) if self.cfg.scoring == "depth" else value

    def window(self, alpha: int, beta: int, x_to_move: bool) -> tuple[int | None, int | None]:
        low, high = (alpha, beta) if x_to_move else (-beta, -alpha)
        return (
            None if low <= -INF else self.units(low, True),
            None if high >= INF else self.units(high, True),
        )

    def leaf(self, bit: int, score: int, x_moved: bool) -> Node:
        """A terminal child: ``score`` is from the view of the side that moved into it."""
        return Node(_cell(bit), _mark(x_moved), self.units(score, x_moved), kind="terminal")

    def tree(self, cells: tuple[int, ...], move: int | None) -> SearchTree:
        me, opp, n1, x_root = self.me, self.opp, self.marks + 1, self.x_moves
        shared = self.cfg.root_window == "shared" and not self.minimax
        root = Node(None, _mark(not x_root) if self.marks else None, 0)
        values: list[tuple[int, int]] = []
        same_as: dict[int, int] = {}
        symmetries = stabiliser(me, opp) if self.cfg.symmetry else ()
        best = -INF
        for cell in ORDERS[self.cfg.ordering]:
            bit = 1 << cell
            if (me | opp) & bit:
                continue
            if cell in same_as:
                values.append((cell, next(v for c, v in values if c == same_as[cell])))
                continue
            child = me | bit
            if bb.WINS[child]:
                value, node = self.wins[n1], self.leaf(bit, self.wins[n1], x_root)
            elif n1 == 9:
                value, node = 0, self.leaf(bit, 0, x_root)
            else:
                beta = -(best - 1) if shared and best > -INF else INF
                score, node = self.visit(opp, child, n1, -INF, beta, not x_root, bit)
                value = -score
            root.children.append(node)
            values.append((cell, value))
            for perm in symmetries:
                if perm[cell] != cell and perm[cell] not in same_as:
                    same_as[perm[cell]] = cell
            best = max(best, value)
        root.value = self.units(best, x_root)  # the root's own window is unbounded (None, None)
        best_moves = tuple(cell for cell, v in values if v == best)
        chosen = best_moves[0] if move is None else move
        if chosen not in best_moves:
            raise ValueError(f"cell {chosen + 1} is not one of the best moves {[c + 1 for c in best_moves]}")
        states = root.size()
        window = "fresh" if self.minimax else self.cfg.root_window
        return SearchTree(root, cells, self.cfg.algorithm, states, chosen, best_moves, same_as, root_window=window)

    def visit(self, me: int, opp: int, n: int, alpha: int, beta: int, x_me: bool, bit: int) -> tuple[int, Node]:
        """Search the child reached by ``bit`` (``opp`` just played it); ``n`` marks are on the board. Returns the
        child's negamax score for ``me`` (the side to move there) and its node."""
        node = Node(_cell(bit), _mark(not x_me), 0)
        node.alpha, node.beta = (None, None) if self.minimax else self.window(alpha, beta, x_me)
        score = (
            self.minimax_value(node, me, opp, n, x_me)
            if self.minimax
            else self.ab_value(node, me, opp, n, alpha, beta, x_me)
        )
        node.value = self.units(score, x_me)
        if not self.minimax and node.kind != "table" and node.rule in (None, "forced block"):
            node.bound = "upper" if score <= alpha else "lower" if score >= beta else None  # fail-soft
        return score, node

    def minimax_value(self, node: Node, me: int, opp: int, n: int, x_me: bool) -> int:
        if self.keep is not None and n - self.marks >= self.keep:
            kernels = Kernels(self.free_bits, self.wins, transposition=False, symmetry=False, threats=False)
            score = kernels.minimax_child(me, opp, n, INF)
            node.hidden = kernels.count
            return score
        moves = self.free_bits[me | opp]
        n1 = n + 1
        win = self.wins[n1]
        if n1 == 9:
            score = win if bb.WINS[me | moves[0]] else 0
            node.children.append(self.leaf(moves[0], score, x_me))
            return score
        best = -INF
        for bit in moves:
            child = me | bit
            if bb.WINS[child]:
                v = win
                node.children.append(self.leaf(bit, win, x_me))
            else:
                score, kid = self.visit(opp, child, n1, -INF, INF, not x_me, bit)
                v = -score
                node.children.append(kid)
            best = max(best, v)
        return best

    def ab_value(self, node: Node, me: int, opp: int, n: int, alpha: int, beta: int, x_me: bool) -> int:
        n1 = n + 1
        free = bb.FULL ^ (me | opp)
        if self.rules:
            completing = bb.THREATS[me] & free
            if completing:
                bit = next(b for b in self.free_bits[me | opp] if b & completing)
                node.rule = "win now"
                node.children.append(self.leaf(bit, self.wins[n1], x_me))
                return self.wins[n1]
            if n1 == 9:
                node.rule = "last cell"
                node.children.append(self.leaf(free, 0, x_me))
                return 0
            threats = bb.THREATS[opp] & free if self.rules == 2 else 0
            if threats & (threats - 1):
                node.rule = "double threat"
                return -self.wins[n1 + 1]
            if threats:
                node.rule = "forced block"
                score, kid = self.visit(opp, me | threats, n1, -beta, -alpha, not x_me, threats)
                node.children.append(kid)
                return -score
        elif n1 == 9:
            score = self.wins[9] if bb.WINS[bb.FULL ^ opp] else 0
            node.children.append(self.leaf(free, score, x_me))
            return score
        key = 0
        if self.table is not None:
            key = bb.canonical_key(me, opp) if self.cfg.symmetry else me << 9 | opp
            entry = self.table.get(key)
            if entry is not None:
                flag, stored = entry
                hit = flag == _EXACT or (flag == _LOWER and stored >= beta) or (flag == _UPPER and stored <= alpha)
                if hit:
                    node.kind, node.bound = "table", _BOUND_NAMES[flag]
                    return stored
                if flag == _LOWER:
                    alpha = max(alpha, stored)
                else:
                    beta = min(beta, stored)
                node.alpha, node.beta = self.window(alpha, beta, x_me)
        alpha_in = alpha
        best = -INF
        win = self.wins[n1]
        moves = self.free_bits[me | opp]
        for i, bit in enumerate(moves):
            child = me | bit
            if bb.WINS[child]:
                v = win
                node.children.append(self.leaf(bit, win, x_me))
            else:
                score, kid = self.visit(opp, child, n1, -beta, -alpha, not x_me, bit)
                v = -score
                node.children.append(kid)
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if v >= beta:
                        rest = moves[i + 1 :]
                        if rest:
                            node.kind, node.skipped = "cut", tuple(_cell(b) for b in rest)
                        break
        if self.table is not None:
            self.table[key] = (_UPPER if best <= alpha_in else _LOWER if best >= beta else _EXACT, best)
        return best


def _cell(bit: int) -> int:
    return bit.bit_length() - 1


def _mark(x: bool) -> str:
    return "X" if x else "O"
