"""States per second of the Gomoku engine, with the C kernel and with its pure-Python twin, on the same positions.

Run from the repository root (niced: the machine is shared)::

    nice python -m benchmarks.gomoku_speed --positions 20

The positions come from seeded games of level 3 against itself (``--seed``), every 6th ply from ply 6 on. For each
kernel (:class:`engine.gomoku.board.PyBoard` and the C ``Board``, where built) it times, position by position, the
threat search (``vcf`` of up to ``--vcf`` moves for the side to move and for the other) and a depth-``--depth``
alpha-beta (:class:`engine.gomoku.search.Search`, width 10), and prints the states each counted (equal for both
kernels: the same nodes), the seconds and the states per second.
"""

from __future__ import annotations

import argparse
import random
import time

from engine.gomoku.play import LEVELS, NATIVE, choose, new_board
from engine.gomoku.rules import GOMOKU, GomokuState
from engine.gomoku.search import WIN, Search
from engine.protocol import Mark


def positions(count: int, seed: int) -> list[GomokuState]:
    """``count`` positions from level 3's games against itself (every 6th ply from ply 6)."""
    rng = random.Random(seed)
    found: list[GomokuState] = []
    while len(found) < count:
        state = GOMOKU.result(GOMOKU.initial_state(), rng.randrange(80, 145))
        while not GOMOKU.terminal(state) and len(found) < count:
            state = GOMOKU.result(state, choose(state, LEVELS[3], rng).cell)
            if state.stones % 6 == 0 and not GOMOKU.terminal(state):
                found.append(state)
    return found


def measure(states: list[GomokuState], native: bool, vcf: int, depth: int) -> tuple[int, float, int, float]:
    """(threat-search states, seconds, alpha-beta states, seconds) over ``states``."""
    vcf_states = search_states = 0
    vcf_time = search_time = 0.0
    for state in states:
        side = 0 if GOMOKU.player(state) is Mark.X else 1
        board = new_board(state, native=native)
        started = time.perf_counter()
        board.vcf(side, vcf)
        board.vcf(1 - side, vcf)
        vcf_time += time.perf_counter() - started
        vcf_states += board.count
        board = new_board(state, native=native)
        search = Search(board, 10)
        started = time.perf_counter()
        search.negamax(side, depth, -WIN - 1, WIN + 1, 0)
        search_time += time.perf_counter() - started
        search_states += search.states
    return vcf_states, vcf_time, search_states, search_time


def main() -> None:
    """Measure as the module docstring shows."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--seed", type=int, default=47)
    parser.add_argument("--vcf", type=int, default=10, help="the threat search's longest VCF, winner's moves")
    parser.add_argument("--depth", type=int, default=3, help="the alpha-beta's depth, plies")
    args = parser.parse_args()
    states = positions(args.positions, args.seed)
    print(f"{len(states)} positions; VCF up to {args.vcf} moves for both sides; alpha-beta depth {args.depth}")
    print("| kernel | VCF states | VCF states/s | alpha-beta states | alpha-beta states/s |")
    print("|---|---|---|---|---|")
    for native in (False, True) if NATIVE is not None else (False,):
        vcf_states, vcf_time, search_states, search_time = measure(states, native, args.vcf, args.depth)
        print(
            f"| {'C' if native else 'Python'} | {vcf_states:,} | {vcf_states / vcf_time:,.0f} | {search_states:,} | "
            f"{search_states / search_time:,.0f} |"
        )


if __name__ == "__main__":
    main()
