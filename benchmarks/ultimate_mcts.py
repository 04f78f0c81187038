"""The first method choice for Ultimate tic-tac-toe, in pure Python: alpha-beta against MCTS on the same bitboards.

The engine has since moved to MCTS-Solver in C (``engine/ultimate/_ultimate_c.c``; docs/engine.md says why); this
compares the two methods as they stood in Python, with the alpha-beta search kept in ``engine/ultimate/search.py``.

Run from the repository root with ``python -m benchmarks.ultimate_mcts [GAMES] [BUDGET_MS]`` (default 20
games at 1,000 ms a move, 2 processes). The MCTS here is UCT (Kocsis & Szepesvari 2006; Browne et al. 2012)
with uniformly random rollouts, exploration constant sqrt(2), written as fast as the alpha-beta kernel (the
same board-major bitboards and move tables), so the comparison is of the methods in Python, not of their
implementations' care. It prints the head-to-head W/D/L (games paired with seeded 2-ply openings and
colours swapped) and each method's work rate: MCTS simulations (one rollout each, one node expanded each)
and alpha-beta states (nodes visited) per second.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import time

from engine.protocol import Mark
from engine.ultimate.proof import moves_of as _moves
from engine.ultimate.proof import play as _play
from engine.ultimate.rules import CELL_OF_BIT, WON9, UltimateState, UltimateTicTacToe
from engine.ultimate.search import search

# A raw position: (mover's marks, other's marks, mover's boards, other's boards, closed, forced). The game
# is over when the other side's boards hold a line (it just won) or every board is closed.
Raw = tuple[int, int, int, int, int, int]


def _over(p: Raw) -> int | None:
    """None while the game goes on; else the result for the side to move in ``p``: -1 lost, 0 drawn."""
    if WON9[p[3]]:
        return -1
    return 0 if p[4] == 511 else None


class _Node:
    __slots__ = ("children", "move", "parent", "position", "untried", "visits", "wins")

    def __init__(self, position: Raw, move: int, parent: _Node | None, rng: random.Random) -> None:
        self.position = position
        self.move = move
        self.parent = parent
        self.children: list[_Node] = []
        self.untried = _moves(position) if _over(position) is None else []
        rng.shuffle(self.untried)
        self.visits = 0
        self.wins = 0.0  # for the side that moved into this node


def mcts_move(state: UltimateState, budget_ms: float, rng: random.Random) -> tuple[int, int]:
    """UCT from ``state`` until ``budget_ms`` runs out; return (grid cell, simulations)."""
    deadline = time.perf_counter() + budget_ms / 1000.0
    x_moves = state.x.bit_count() == state.o.bit_count()
    me, opp, mw, ow = (state.x, state.o, state.x_boards, state.o_boards) if x_moves else (
        state.o, state.x, state.o_boards, state.x_boards)  # fmt: skip
    root = _Node((me, opp, mw, ow, state.closed, state.forced), -1, None, rng)
    simulations = 0
    log, sqrt = math.log, math.sqrt
    while time.perf_counter() < deadline:
        node = root
        while not node.untried and node.children:  # selection
            scale = 2.0 * log(node.visits)
            node = max(node.children, key=lambda c: c.wins / c.visits + sqrt(scale / c.visits))
        if node.untried:  # expansion: one node per simulation
            bit = node.untried.pop()
            child = _Node(_play(node.position, bit), bit, node, rng)
            node.children.append(child)
            node = child
        position = node.position
        sign = 1  # rollout result for the side to move in ``position``
        result = _over(position)
        while result is None:
            position = _play(position, rng.choice(_moves(position)))
            sign = -sign
            result = _over(position)
        reward = -result * sign  # for the side that moved into ``node``
        walk: _Node | None = node
        while walk is not None:  # backpropagation, the reward's sign flipping each ply
            walk.visits += 1
            walk.wins += (reward + 1) / 2
            reward = -reward
            walk = walk.parent
        simulations += 1
    best = max(root.children, key=lambda c: c.visits)
    return CELL_OF_BIT[best.move], simulations


def play(index: int, budget_ms: float = 1000.0) -> tuple[int, str, list[int], list[float]]:
    """Game ``index``: alpha-beta is X when ``index`` is even. Return (index, alpha-beta's result, MCTS
    simulations per move, alpha-beta states per second per move)."""
    game = UltimateTicTacToe()
    state = game.initial_state()
    opening = random.Random(2000 + index // 2)
    rng = random.Random(index)
    ours = Mark.X if index % 2 == 0 else Mark.O
    simulations: list[int] = []
    rates: list[float] = []
    for _ in range(2):
        state = game.result(state, opening.choice(game.actions(state)))
    while not state.is_over:
        if game.player(state) is ours:
            report = search(state, budget_ms)
            rates.append(report.states / (report.elapsed_ms / 1000.0))
            cell = report.moves[0].move
        else:
            cell, sims = mcts_move(state, budget_ms, rng)
            simulations.append(sims)
        state = game.result(state, cell)
    outcome = "draw" if state.winner is None else "win" if state.winner is ours else "loss"
    return index, outcome, simulations, rates


def main() -> None:
    """Play the head-to-head given on the command line and print the table."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", type=int, nargs="?", default=20, help="games to play (default 20)")
    parser.add_argument("budget_ms", type=float, nargs="?", default=1000.0, help="ms per move (default 1000)")
    args = parser.parse_args()
    games, budget_ms = args.games, args.budget_ms
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        results = pool.starmap(play, [(i, budget_ms) for i in range(games)])
    count = {k: sum(r[1] == k for r in results) for k in ("win", "draw", "loss")}
    sims = sorted(s for r in results for s in r[2])
    rates = sorted(s for r in results for s in r[3])
    print(f"alpha-beta against pure-Python MCTS, {games} games, {budget_ms:.0f} ms a move:")
    print(f"| alpha-beta W | D | L |\n|---|---|---|\n| {count['win']} | {count['draw']} | {count['loss']} |")
    print(f"MCTS simulations per move: median {sims[len(sims) // 2]:,} (min {sims[0]:,}, max {sims[-1]:,})")
    print(f"alpha-beta states per second: median {rates[len(rates) // 2]:,.0f}")


if __name__ == "__main__":
    main()
