"""The Ultimate tic-tac-toe kernels in pure Python: MCTS-Solver and a depth-bounded proof search.

This is the readable version and the fallback of ``engine/ultimate/_ultimate_c.c``, which does the same, step for step:
the same moves in the same order, the same random numbers and the same floating-point operations, so the two
return the same tuples for the same position, seed and number of iterations (the tests check it).
:mod:`engine.ultimate.tree` picks the kernel and turns the tuples into moves, values and proofs.

**Positions** are side-relative: side 0 is the player to move at the root. ``mine`` and ``theirs`` are nine
9-bit masks each (cell i of small board b is bit i of mask b), the won boards and the closed boards are 9-bit
masks, ``forced`` is the board to play in or -1. A move is the number 9b + i.

:func:`mcts` is UCT (Kocsis & Szepesvari 2006) on a tree whose nodes are expanded on their second visit, all
children at once, with uniformly random rollouts that take an immediate game win, and the MCTS-Solver's backup
of proven results (Winands, Bjornsson & Saito, "Monte-Carlo Tree Search Solver", 2008), extended to draws: a
node is won when one child is lost for the opponent, and settled when all children are (its best child's
result). The random numbers are splitmix64 (Steele, Lea & Flood 2014).

:func:`prove` is a depth-bounded AND/OR search (no table): does the side that moves on the last of ``depth``
plies force a win within them? Iterating it over the depth gives a proven result's exact distance.
"""

from __future__ import annotations

import math
import time

__all__ = ["DRAW", "LOSS", "UNKNOWN", "WIN", "Children", "MctsResult", "mcts", "prove"]

UNKNOWN, WIN, DRAW, LOSS = 0, 1, 2, 3
_MASK64 = (1 << 64) - 1
_CHECK_EVERY = 64
_LINES = (7, 56, 448, 73, 146, 292, 273, 84)
_WON9 = tuple(any(m & line == line for line in _LINES) for m in range(512))
_WIN_CELLS = tuple(sum(1 << i for i in range(9) if not m >> i & 1 and _WON9[m | 1 << i]) for m in range(512))
_CELLS = tuple(tuple(i for i in range(9) if m >> i & 1) for m in range(512))

Children = tuple[tuple[int, int, int, int, int], ...]
"""Per root move: (move, visits, score (2 a win, 1 a draw, for the mover), proof, distance)."""
MctsResult = tuple[int, int, int, int, int, int, Children, list[int]]
"""(iterations, states, nodes, max_depth, root proof for the mover, its distance, children, principal variation)."""


class _Pos:
    """A mutable position (``c[s][b]``: side s's marks on board b)."""

    __slots__ = ("c", "closed", "forced", "side", "won")

    def __init__(self, c: list[list[int]], won: list[int], closed: int, forced: int, side: int) -> None:
        self.c, self.won, self.closed, self.forced, self.side = c, won, closed, forced, side

    def copy(self) -> _Pos:
        return _Pos([self.c[0][:], self.c[1][:]], self.won[:], self.closed, self.forced, self.side)

    def playable(self) -> int:
        return 1 << self.forced if self.forced >= 0 else 511 & ~self.closed

    def play(self, move: int) -> int:
        """Mark ``move`` for the side to move: 0 (the game goes on), 1 (the mover won) or 2 (a draw)."""
        b, i = divmod(move, 9)
        s = self.side
        mine = self.c[s][b] = self.c[s][b] | 1 << i
        if _WON9[mine]:
            self.won[s] |= 1 << b
            self.closed |= 1 << b
        elif mine | self.c[s ^ 1][b] == 511:
            self.closed |= 1 << b
        self.forced = -1 if self.closed >> i & 1 else i
        self.side = s ^ 1
        if _WON9[self.won[s]]:
            return 1
        return 2 if self.closed == 511 else 0

    def winning_move(self) -> int:
        """The first move (lowest number) that wins the game at once for the side to move, or -1."""
        s, boards, c = self.side, self.playable(), self.c
        for b in range(9):
            if boards >> b & 1 and _WON9[self.won[s] | 1 << b]:
                cells = _WIN_CELLS[c[s][b]] & ~(c[0][b] | c[1][b]) & 511
                if cells:
                    return 9 * b + (cells & -cells).bit_length() - 1
        return -1

    def moves(self) -> list[int]:
        boards, c = self.playable(), self.c
        return [9 * b + i for b in range(9) if boards >> b & 1 for i in _CELLS[~(c[0][b] | c[1][b]) & 511]]


class _Random:
    """splitmix64, drawn as the C kernel draws it."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK64

    def below(self, n: int) -> int:
        self.state = z = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return (((z ^ (z >> 31)) >> 32) * n) >> 32


class _Tree:
    def __init__(self, root: _Pos, seed: int, c: float, cap: int) -> None:
        self.root, self.rng, self.c, self.cap = root, _Random(seed), c, max(cap, 82)
        # One list per field, indexed by node; node 0 is the root.
        self.first, self.count, self.move = [0], [0], [0]
        self.visits, self.score, self.proof, self.dist = [0], [0], [UNKNOWN], [0]
        self.states = 0
        self.max_depth = 0

    def _columns(self) -> tuple[list[int], ...]:
        return (self.first, self.count, self.move, self.visits, self.score, self.proof, self.dist)

    def rollout(self, p: _Pos) -> int:
        """The winner's side (0 or 1) or 2 for a draw, playing random moves that take an immediate win."""
        rng, c = self.rng, p.c
        while True:
            s = p.side
            if p.winning_move() >= 0:
                self.states += 1
                return s
            boards = p.playable()
            empties = [(b, ~(c[0][b] | c[1][b]) & 511) for b in range(9) if boards >> b & 1]
            k = rng.below(sum(e.bit_count() for _, e in empties))
            for b, e in empties:
                n = e.bit_count()
                if k < n:
                    r = p.play(9 * b + _CELLS[e][k])
                    break
                k -= n
            self.states += 1
            if r:
                return s if r == 1 else 2

    def expand(self, n: int, p: _Pos) -> bool:
        moves = p.moves()
        if len(self.move) + len(moves) > self.cap:
            return False
        self.first[n], self.count[n] = len(self.move), len(moves)
        for m in moves:
            r = p.copy().play(m)
            proof = WIN if r == 1 else DRAW if r == 2 else UNKNOWN
            for column, value in zip(self._columns(), (0, 0, m, 0, 0, proof, 0), strict=True):
                column.append(value)
        return True

    def select(self, n: int) -> int:
        visits, score, proof, c = self.visits, self.score, self.proof, self.c
        best, best_value = 0, -1.0
        logn = math.log(visits[n]) if visits[n] else -math.inf  # as C's log(0); then every child is unvisited
        for k in range(self.first[n], self.first[n] + self.count[n]):
            if proof[k] == LOSS:
                continue
            v = visits[k]
            if v == 0:
                return k
            value = score[k] / (2.0 * v) + c * math.sqrt(logn / v)
            if value > best_value:
                best, best_value = k, value
        return best

    def resolve(self, n: int) -> bool:
        """Settle node ``n`` from its children when they prove it; True when it became proven."""
        if self.proof[n] != UNKNOWN or self.count[n] == 0:
            return False
        kids = range(self.first[n], self.first[n] + self.count[n])
        found: dict[int, list[int]] = {WIN: [], DRAW: [], LOSS: [], UNKNOWN: []}
        for k in kids:
            found[self.proof[k]].append(self.dist[k])
        if found[WIN]:
            self.proof[n], self.dist[n] = LOSS, 1 + min(found[WIN])
        elif found[UNKNOWN]:
            return False
        elif found[DRAW]:
            self.proof[n], self.dist[n] = DRAW, 1 + max(found[DRAW])
        else:
            self.proof[n], self.dist[n] = WIN, 1 + max(found[LOSS])
        return True

    def iterate(self) -> None:
        p = self.root.copy()
        path, n = [0], 0
        while True:
            if self.proof[n] != UNKNOWN:
                into = p.side ^ 1
                outcome = into if self.proof[n] == WIN else into ^ 1 if self.proof[n] == LOSS else 2
                break
            if self.count[n] == 0:
                if (self.visits[n] == 0 and len(path) > 1) or not self.expand(n, p):
                    outcome = self.rollout(p)
                    break
                if self.resolve(n):
                    continue
            n = self.select(n)
            p.play(self.move[n])
            self.states += 1
            path.append(n)
        self.max_depth = max(self.max_depth, len(path) - 1)
        for i, node in enumerate(path):
            self.visits[node] += 1
            self.score[node] += 1 if outcome == 2 else 2 if outcome == (i + 1) & 1 else 0
        for node in reversed(path[:-1]):
            if not self.resolve(node):
                break

    def principal_variation(self) -> list[int]:
        line, n = [], 0
        while self.count[n]:
            kids = range(self.first[n], self.first[n] + self.count[n])
            best = max(kids, key=lambda k: (self.visits[k], -k))
            if self.visits[best] == 0:
                break
            line.append(self.move[best])
            n = best
        return line


def _position(
    mine: tuple[int, ...], theirs: tuple[int, ...], my_boards: int, opp_boards: int, closed: int, forced: int
) -> _Pos:
    return _Pos([list(mine), list(theirs)], [my_boards, opp_boards], closed, forced, 0)


def mcts(
    mine: tuple[int, ...],
    theirs: tuple[int, ...],
    my_boards: int,
    opp_boards: int,
    closed: int,
    forced: int,
    iterations: int,
    budget_ms: float,
    seed: int,
    c: float,
    max_nodes: int,
) -> MctsResult:
    """Run MCTS-Solver from the position until ``iterations`` (negative: no limit) are done, ``budget_ms`` (wall
    time, read every 64 iterations) is spent or the root is proven; at most ``max_nodes`` tree nodes.

    Returns :data:`MctsResult`; proofs are ``WIN``, ``DRAW``, ``LOSS`` for the mover at the root (``UNKNOWN``:
    none), distances in plies (an upper bound on a win's or loss's: the proof found, not necessarily the best).
    """
    tree = _Tree(_position(mine, theirs, my_boards, opp_boards, closed, forced), seed, c, max_nodes)
    done = 0
    deadline = time.perf_counter() + budget_ms / 1000.0
    while tree.proof[0] == UNKNOWN and (iterations < 0 or done < iterations):
        tree.iterate()
        done += 1
        if done % _CHECK_EVERY == 0 and time.perf_counter() >= deadline:
            break
    children = tuple(
        (tree.move[k], tree.visits[k], tree.score[k], tree.proof[k], tree.dist[k])
        for k in range(tree.first[0], tree.first[0] + tree.count[0])
    )
    proof = {WIN: LOSS, LOSS: WIN}.get(tree.proof[0], tree.proof[0])
    pv = tree.principal_variation()
    return (done, tree.states, len(tree.move), tree.max_depth, proof, tree.dist[0], children, pv)


class _Budget(Exception):
    pass


class _Prover:
    def __init__(self, max_nodes: int, budget_ms: float) -> None:
        self.nodes, self.max_nodes = 0, max_nodes
        self.deadline = time.perf_counter() + budget_ms / 1000.0

    def spend(self) -> None:
        self.nodes += 1
        if self.nodes > self.max_nodes or (self.nodes % 4096 == 0 and time.perf_counter() >= self.deadline):
            raise _Budget

    def win(self, p: _Pos, depth: int) -> int:
        """The first move that forces a win within ``depth`` plies (odd), or -1."""
        self.spend()
        w = p.winning_move()
        if w >= 0 or depth < 3:
            return w
        for m in p.moves():
            q = p.copy()
            if not q.play(m) and self.lose(q, depth - 1) < 0:
                return m
        return -1

    def lose(self, p: _Pos, depth: int) -> int:
        """-1 when every move loses within ``depth`` plies (even), else the first move that escapes."""
        self.spend()
        w = p.winning_move()
        if w >= 0:
            return w
        for m in p.moves():
            q = p.copy()
            if q.play(m) or self.win(q, depth - 1) < 0:
                return m
        return -1


def prove(
    mine: tuple[int, ...],
    theirs: tuple[int, ...],
    my_boards: int,
    opp_boards: int,
    closed: int,
    forced: int,
    depth: int,
    max_nodes: int,
    budget_ms: float,
) -> tuple[int, int, int]:
    """Whether the side that moves on ply ``depth`` (1-81; odd: the mover, even: the other side) forces a win
    within ``depth`` plies: ``(1, move, nodes)`` yes, ``(0, move, nodes)`` no, ``(-1, move, nodes)`` when
    ``max_nodes`` nodes or ``budget_ms`` (wall time) ran out first. ``move`` is the first winning move (odd
    depth, yes), the first move that escapes (even depth, no), else -1.

    Raises:
        ValueError: ``depth`` is not in 1-81.
    """
    if not 1 <= depth <= 81:
        raise ValueError("depth is 1-81 plies")
    prover = _Prover(max_nodes, budget_ms)
    p = _position(mine, theirs, my_boards, opp_boards, closed, forced)
    try:
        if depth % 2:
            move = prover.win(p, depth)
            return (1 if move >= 0 else 0, move, prover.nodes)
        move = prover.lose(p, depth)
        return (1 if move < 0 else 0, move, prover.nodes)
    except _Budget:
        return (-1, -1, prover.nodes)
