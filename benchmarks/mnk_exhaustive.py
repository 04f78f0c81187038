"""Benchmark: the 4x4 bot against every sequence of opponent moves, as X and as O, checked by a plain solver.

Run from the repository root with ``python -m benchmarks.mnk_exhaustive``.

The bot (``engine.mnk.play.choose_move``, its random choice seeded by the position, so it is one fixed
strategy) plays every opponent reply at every ply, memoised by position. At each of its turns the
independent plain solver of ``tests/engine/mnk_oracle.py`` checks that the value it reports is the
position's and that every move it may choose (``best_moves``) keeps that value: it never misses a faster
win nor hastens a loss. At each end of game it checks the bot did not lose. Prints the positions checked,
the games' ends (wins and draws) and PASS or MISS; exits 1 on any failure.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from engine.mnk.play import choose_move, game_value
from engine.mnk.rules import TIC_TAC_TOE_4X4 as GAME
from engine.protocol import Mark
from tests.engine.mnk_oracle import PlainSolver


def main() -> int:
    sys.setrecursionlimit(10_000)  # the plain solver recurses once per ply
    oracle = PlainSolver(4, 4)
    failures: list[str] = []
    started = time.perf_counter()
    for bot in (Mark.X, Mark.O):
        visited: set[tuple[int, int]] = set()
        checked = 0
        ends = {"win": 0, "draw": 0, "loss": 0}
        stack = [GAME.initial_state()]
        while stack:
            state = stack.pop()
            if (state.x, state.o) in visited:
                continue
            visited.add((state.x, state.o))
            if GAME.terminal(state):
                winner = GAME.winner(state)
                ends["draw" if winner is None else "win" if winner is bot else "loss"] += 1
                if winner not in (bot, None):
                    failures.append(f"lost as {bot.value}: {GAME.format_board(state)}")
                continue
            if GAME.player(state) is not bot:
                stack.extend(GAME.result(state, cell) for cell in GAME.actions(state))
                continue
            decision = choose_move(GAME, state, random.Random(state.x << 16 | state.o))
            me, opp = (state.x, state.o) if bot is Mark.X else (state.o, state.x)
            expected = game_value(oracle.value(me, opp), GAME.cells, state.marks)
            kept = {game_value(oracle.move_score(me, opp, m), GAME.cells, state.marks) for m in decision.best_moves}
            if decision.value != expected or kept != {expected}:
                failures.append(f"{GAME.format_board(state)}: {decision} but the value is {expected}")
            checked += 1
            stack.append(GAME.result(state, decision.move))
        print(
            f"bot as {bot.value}: {checked:,} positions checked, {len(visited):,} visited; game ends: "
            f"{ends['win']:,} won, {ends['draw']:,} drawn, {ends['loss']:,} lost "
            f"({time.perf_counter() - started:.0f} s so far)",
            flush=True,
        )
    for failure in failures[:20]:
        print(failure)
    print(f"{'PASS' if not failures else 'MISS'}: {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    sys.exit(main())
