"""Benchmark: the Connect Four solver's speed, C against Python on the same positions, and its solve time by ply.

Run from the repository root with ``python benchmarks/connect_four_solver.py [--positions N] [--speed-plies 14,16]
[--plies 20,16,14,12,10,8] [--seed S]`` (about 1 minute with the defaults).

Positions are random playouts (seeded) stopped after the given number of plies, not over, where the side to move
cannot win at once (so every one needs a search). Part 1 solves the same positions with the C kernel and the
pure-Python one, each from an empty table, checks that both give the same value and states, and prints the states
per second of each and their ratio. Part 2 solves positions at each ply of ``--plies`` with the C kernel (its table
emptied before each) and prints the median and the longest solve time, and the states: the figures that size the opening
book (the plies before which a solve is too slow for a move). Random playouts are looser than good play, so
positions from strong games can take longer than these at the same ply.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

_HERE = Path(__file__).resolve().parent
if __name__ == "__main__":  # run as a script: this file's folder would shadow the engine package
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
    sys.path.insert(0, str(_HERE.parent))

from engine.connect_four.rules import CONNECT_FOUR, ConnectFourState  # noqa: E402
from engine.connect_four.solver import NATIVE, Kernel, Solution, new_kernel, solve  # noqa: E402


def quiet_position(rng: random.Random, plies: int) -> ConnectFourState:
    """A random position after ``plies`` plies, not over, with no immediate win for the side to move."""
    while True:
        state = CONNECT_FOUR.initial_state()
        while state.discs < plies and not CONNECT_FOUR.terminal(state):
            state = CONNECT_FOUR.result(state, rng.choice(CONNECT_FOUR.actions(state)))
        if CONNECT_FOUR.terminal(state):
            continue
        if not any(CONNECT_FOUR.winner(CONNECT_FOUR.result(state, c)) for c in CONNECT_FOUR.actions(state)):
            return state


def timed_solve(state: ConnectFourState, kernel: Kernel) -> tuple[Solution, float]:
    """The solution and the seconds it took, from an emptied table (the emptying not timed)."""
    kernel.clear()
    started = time.perf_counter()
    solution = solve(state, kernel)
    return solution, time.perf_counter() - started


def speed(positions: list[ConnectFourState]) -> None:
    """Part 1: states per second of both kernels on the same positions."""
    totals = {True: [0, 0.0], False: [0, 0.0]}
    python_kernel, c_kernel = new_kernel(native=False), new_kernel(native=True)
    for state in positions:
        python, python_s = timed_solve(state, python_kernel)
        c, c_s = timed_solve(state, c_kernel)
        if (c.value, c.states) != (python.value, python.states):
            raise SystemExit(f"the kernels disagree on {CONNECT_FOUR.format_board(state)}: {c} against {python}")
        totals[False][0] += python.states
        totals[False][1] += python_s
        totals[True][0] += c.states
        totals[True][1] += c_s
    c_rate = totals[True][0] / totals[True][1]
    python_rate = totals[False][0] / totals[False][1]
    print("| kernel | positions | states | seconds | states/s |\n|---|---:|---:|---:|---:|")
    for native, name in ((True, "C"), (False, "Python")):
        states, seconds = totals[native]
        print(f"| {name} | {len(positions)} | {states:,} | {seconds:.2f} | {states / seconds:,.0f} |")
    print(f"\nC / Python: {c_rate / python_rate:.0f}x (same values and states on every position)")


def by_ply(rng: random.Random, plies: list[int], count: int) -> None:
    """Part 2: the C kernel's solve time by the plies already played."""
    print("| plies played | positions | median | longest | median states | most states |")
    print("|---:|---:|---:|---:|---:|---:|")
    kernel = new_kernel(native=True)
    for ply in plies:
        times, states = [], []
        for _ in range(count):
            solution, seconds = timed_solve(quiet_position(rng, ply), kernel)
            times.append(seconds)
            states.append(solution.states)
        print(
            f"| {ply} | {count} | {statistics.median(times) * 1000:,.1f} ms | {max(times) * 1000:,.1f} ms "
            f"| {statistics.median(states):,.0f} | {max(states):,} |"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=5, help="positions per ply (default 5)")
    parser.add_argument("--speed-plies", default="14,16", help="plies of the C-against-Python positions (14,16)")
    parser.add_argument("--plies", default="20,16,14,12,10,8", help="plies of the solve-time rows, C only")
    parser.add_argument("--seed", type=int, default=37, help="the playouts' seed (default 37)")
    args = parser.parse_args()
    if not NATIVE:
        print("the C kernel is not built (or TTT_ENGINE_PURE_PYTHON is set): run pip install -e . first")
        return 1
    rng = random.Random(args.seed)
    speed_plies = [int(p) for p in args.speed_plies.split(",")]
    print(f"## C against Python on the same positions (plies {args.speed_plies}, {args.positions} each)")
    speed([quiet_position(rng, ply) for ply in speed_plies for _ in range(args.positions)])
    print(f"\n## Solve time by plies played (C kernel, {args.positions} positions each)")
    by_ply(rng, [int(p) for p in args.plies.split(",")], args.positions)
    return 0


if __name__ == "__main__":
    sys.exit(main())
