"""Record a fresh exact search of a 4x4 or 5x5 position: :func:`record_mnk` runs the solver's own negamax alpha-beta
(:class:`engine.mnk.solver.PyKernel`: its move order, threat rules, mate-distance bounds and transposition table, empty
at the start) and keeps every state it evaluates as a :class:`engine.tree.node.Node`.

The bot's own search keeps its table between moves (:mod:`engine.mnk.play`), so its count cannot be replayed; this is
the search it would run from an empty table, and its count is that search's own (the tests check the recorder against
a fresh :class:`~engine.mnk.solver.PyKernel` and the C kernel). The root moves are searched in the solver's root order
with the window one point below the best so far, so every best move gets its exact value. Positions with at most
:data:`TREE_EMPTY_CELLS` empty cells only: the tree stays drawable and the recording takes about a second in pure
Python (docs/engine.md). Sources: fail-soft negamax alpha-beta (Knuth & Moore, 1975); the table of bounds (Marsland,
1986); the threat rules of k-in-a-row solvers (Allis, 1994).

Values are in :mod:`engine.tree.node`'s units (X's, relative to the root, ``10 - p`` for a win p plies away): the
solver's score of a win is ``cells + 1 - marks``, which is ``10 - p`` shifted by ``9 - empty`` at a root with
``empty`` empty cells, so at most 9 empty cells keep every value's sign and meaning.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.errors import GameOverError
from engine.mnk.rules import TicTacToe
from engine.mnk.solver import _EXACT, _LOWER, _SYMMETRY_PLIES, _UPPER, INF, PyKernel, initial_threats, threats_after
from engine.protocol import Mark
from engine.tree.node import Node, SearchTree

__all__ = ["TREE_EMPTY_CELLS", "record_at_once", "record_mnk", "root_order"]

TREE_EMPTY_CELLS = 9
"""The most empty cells a recorded 4x4 or 5x5 position may have (docs/engine.md measures the trees)."""

_BOUND_NAMES = ("exact", "lower", "upper")


def root_order(game: TicTacToe, me: int, opp: int) -> list[int]:
    """The empty cells in the solver's root order (most lines through them first, then by cell), as
    :func:`engine.mnk.play.root_scores` searches them."""
    free = game.full ^ (me | opp)
    return sorted((cell for cell in range(game.cells) if free >> cell & 1), key=lambda c: -len(game.lines_through[c]))


def record_mnk(
    game: TicTacToe, cells: Sequence[int], move: int | None = None, *, most_empty: int = TREE_EMPTY_CELLS
) -> SearchTree:
    """The tree of a fresh exact search of ``game`` (4x4 or 5x5 rules) after 0-based ``cells``.

    Args:
        move: the move to explain, one of the best moves (default: the first in search order).
        most_empty: the most empty cells allowed (a benchmark measures past :data:`TREE_EMPTY_CELLS`; there the
            counts hold but a win more than 9 plies away leaves the units: ``10 - p`` is no longer positive).

    Raises:
        IllegalMoveError: a cell cannot be played.
        GameOverError: the game after ``cells`` is over.
        ValueError: more than :data:`TREE_EMPTY_CELLS` cells are empty (the message counts them), or ``move`` is
            not one of the best moves (1-based in the message).
    """
    state = game.initial_state()
    for cell in cells:
        state = game.result(state, cell)
    if game.terminal(state):
        raise GameOverError("the game is over: there is no search to show")
    empty = game.cells - state.marks
    if empty > most_empty:
        raise ValueError(
            f"{empty} empty cells after {len(cells)} moves: a {game.h}x{game.v} search is drawn from at most "
            f"{most_empty} empty cells (play at least {game.cells - most_empty} cells)"
        )
    x_root = game.player(state) is Mark.X
    me, opp = (state.x, state.o) if x_root else (state.o, state.x)
    return _Recorder(game, state.marks, x_root).tree(me, opp, tuple(cells), move)


def record_at_once(game: TicTacToe, cells: Sequence[int], move: int | None = None) -> SearchTree | None:
    """The tree of a win in one as the bot plays it (:func:`engine.levels.choose_move`: before any search, nothing
    else evaluated), or ``None`` when the side to move has no win in one. The root's rule is ``"win now"`` and its
    children are the winning cells alone, each a finished game, in natural order; ``move`` is the one explained
    (default and when it does not win: the first, the one every level plays).

    Raises:
        IllegalMoveError: a cell cannot be played.
        GameOverError: the game after ``cells`` is over.
    """
    state = game.initial_state()
    for cell in cells:
        state = game.result(state, cell)
    if game.terminal(state):
        raise GameOverError("the game is over: there is no search to show")
    x_root = game.player(state) is Mark.X
    me, opp = (state.x, state.o) if x_root else (state.o, state.x)
    found = initial_threats(game, me) & (game.full ^ (me | opp))
    wins = tuple(cell for cell in range(game.cells) if found >> cell & 1)
    if not wins:
        return None
    value = 9 if x_root else -9  # a win at ply 1 (engine.tree.node's units)
    root = Node(None, ("O" if x_root else "X") if state.marks else None, value, rule="win now")
    root.children = [Node(cell, _mark(x_root), value, kind="terminal") for cell in wins]
    chosen = move if move in wins else wins[0]
    return SearchTree(root, tuple(cells), "alpha-beta", root.size(), chosen, wins, {}, width=game.h)


class _Recorder:
    def __init__(self, game: TicTacToe, marks: int, x_root: bool) -> None:
        self.game, self.marks, self.x_root = game, marks, x_root
        self.shift = game.cells - marks - 9  # a score minus the shift is 10 - plies from the root
        self.kernel = PyKernel(game)  # its order, symmetry keys and a fresh table: the search's own
        self.table = self.kernel.table

    def units(self, score: int, x_to_move: bool) -> int:
        """A negamax score of the side to move as X's value in :mod:`engine.tree.node`'s units."""
        value = score - self.shift if score > 0 else score + self.shift if score < 0 else 0
        return value if x_to_move else -value

    def window(self, alpha: int, beta: int, x_to_move: bool) -> tuple[int | None, int | None]:
        low = None if alpha <= -INF else self.units(alpha, x_to_move)
        high = None if beta >= INF else self.units(beta, x_to_move)
        return (low, high) if x_to_move else (high, low)

    def tree(self, me: int, opp: int, cells: tuple[int, ...], move: int | None) -> SearchTree:
        game, x_root, n = self.game, self.x_root, self.marks
        root = Node(None, ("O" if x_root else "X") if n else None, 0)
        mine, theirs = initial_threats(game, me), initial_threats(game, opp)
        best, values = -INF, []
        for cell in root_order(game, me, opp):
            if mine >> cell & 1 or n + 1 == game.cells:
                score = game.cells - n if mine >> cell & 1 else 0
                node = Node(cell, _mark(x_root), self.units(score, x_root), kind="terminal")
            else:
                alpha = best - 1 if best > -INF else -INF
                child = me | 1 << cell
                threats = threats_after(game, mine, child, cell)
                node = Node(cell, _mark(x_root), 0)
                score = -self.value(node, opp, child, n + 1, -INF, -alpha, theirs, threats, not x_root)
            root.children.append(node)
            values.append((cell, score))
            best = max(best, score)
        root.value = self.units(best, x_root)
        best_moves = tuple(cell for cell, score in values if score == best)
        chosen = best_moves[0] if move is None else move
        if chosen not in best_moves:
            raise ValueError(f"cell {chosen + 1} is not one of the best moves {[c + 1 for c in best_moves]}")
        return SearchTree(root, cells, "alpha-beta", root.size(), chosen, best_moves, {}, width=game.h)

    def value(
        self, node: Node, me: int, opp: int, n: int, alpha: int, beta: int, mine: int, theirs: int, x_me: bool
    ) -> int:
        """:class:`engine.mnk.solver.PyKernel`'s value function, step by step, filling ``node`` (the position, whose
        side to move holds ``me``); returns its score for that side."""
        node.alpha, node.beta = self.window(alpha, beta, x_me)
        score = self.search(node, me, opp, n, alpha, beta, mine, theirs, x_me)
        node.value = self.units(score, x_me)
        if node.kind != "table" and node.rule in (None, "forced block"):
            node.bound = "upper" if score <= alpha else "lower" if score >= beta else None  # fail-soft
        return score

    def search(
        self, node: Node, me: int, opp: int, n: int, alpha: int, beta: int, mine: int, theirs: int, x_me: bool
    ) -> int:
        game = self.game
        cells, free = game.cells, game.full ^ (me | opp)
        left = cells - n
        if mine & free:
            node.rule = "win now"
            return left
        if left == 1:
            node.rule = "last cell"
            return 0
        forced = theirs & free
        if forced:
            if forced & (forced - 1):
                node.rule = "double threat"
                return n + 1 - cells
            node.rule = "forced block"
            cell = forced.bit_length() - 1
            child = me | forced
            kid = Node(cell, _mark(x_me), 0)
            node.children.append(kid)
            return -self.value(kid, opp, child, n + 1, -beta, -alpha, theirs, threats_after(game, mine, child, cell),
                               not x_me)  # fmt: skip
        high, low = left - 2, 3 - left if left > 3 else 0
        if high <= alpha or low >= beta:
            node.rule, node.bound = "out of reach", "upper" if high <= alpha else "lower"
            return high if high <= alpha else low
        beta, alpha = min(beta, high), max(alpha, low)
        key = self.kernel.canonical_key(me, opp) if n <= _SYMMETRY_PLIES else me << cells | opp
        entry = self.table.get(key)
        hint = -1
        if entry is not None:
            flag, stored, hint = entry
            if flag == _EXACT or (stored >= beta if flag == _LOWER else stored <= alpha):
                node.kind, node.bound = "table", _BOUND_NAMES[flag]
                return stored
            alpha, beta = (max(alpha, stored), beta) if flag == _LOWER else (alpha, min(beta, stored))
            if n <= _SYMMETRY_PLIES:
                hint = -1  # stored in another orientation
        node.alpha, node.beta = self.window(alpha, beta, x_me)
        alpha_in, best, best_cell = alpha, -INF, -1
        moves = [c for c in self.kernel.order if free >> c & 1]
        if hint >= 0 and free >> hint & 1:
            moves.remove(hint)
            moves.insert(0, hint)
        for i, cell in enumerate(moves):
            child = me | 1 << cell
            kid = Node(cell, _mark(x_me), 0)
            node.children.append(kid)
            v = -self.value(kid, opp, child, n + 1, -beta, -alpha, theirs, threats_after(game, mine, child, cell),
                            not x_me)  # fmt: skip
            if v > best:
                best, best_cell = v, cell
                if v > alpha:
                    alpha = v
                    if v >= beta:
                        if moves[i + 1 :]:
                            node.kind, node.skipped = "cut", tuple(moves[i + 1 :])
                        break
        flag = _UPPER if best <= alpha_in else _LOWER if best >= beta else _EXACT
        self.table[key] = (flag, best, best_cell)
        return best


def _mark(x: bool) -> str:
    return "X" if x else "O"
