"""Do the levels play a win in one, and block a single threat? Rates per game and level, through ``engine serve``.

Run from the repository root::

    python -m benchmarks.level_tactics [--variant 3x3 --variant 4x4 ...] [--positions 300] [--seed 1]

Each position is asked of ``engine serve``'s request handler (:func:`engine.cli.serve.answer`, the function a
``{"variant": ..., "moves": [...], "level": N}`` line reaches) once per level, with a seeded random generator
per position and level. Two kinds of positions count:

- **win**: the side to move can complete a line at once. Counted: a move that wins at once (``win %``).
- **block**: the side to move cannot win at once and the opponent threatens exactly one immediate win (one
  cell). Counted: a move on that cell (``block %``).

3x3 takes every reachable position of each kind; 4x4, 5x5 and Connect Four take ``--positions`` of each kind from
random games (uniform random moves, a seeded generator), each position once per symmetry-free move list. On Connect
Four a threat is a column whose next disc would complete four, and the block is a disc in that column; its level 8
(perfect play: the solver, minutes a move in the first plies) is left to the solver's own tests. The table prints
the number of positions beside each kind.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Iterator
from typing import Any

from engine.cli.serve import answer
from engine.connect_four.cells import CELLS_GAME, bit_of
from engine.connect_four.rules import has_four
from engine.levels import LEVELS
from engine.mnk.rules import TicTacToe
from engine.mnk.solver import initial_threats
from engine.protocol import Mark

GAMES: dict[str, TicTacToe | Any] = {
    "3x3": TicTacToe(3, 3, 3),
    "4x4": TicTacToe(4, 4, 4),
    "5x5": TicTacToe(5, 5, 4),
    "connect-four": CELLS_GAME,
}


def classify(game: TicTacToe | Any, state: Any) -> tuple[str, int] | None:
    """``("win", wins)`` or ``("block", threat)`` for ``state``, else ``None``: ``wins`` is the mask of cells that win
    at once, ``threat`` the mask of the opponent's one winning cell."""
    if game.terminal(state):
        return None
    me, opp = (state.x, state.o) if game.player(state) is Mark.X else (state.o, state.x)
    if isinstance(game, TicTacToe):
        free = game.full ^ (me | opp)
        wins, threats = initial_threats(game, me) & free, initial_threats(game, opp) & free
    else:  # Connect Four: the cells the discs would fall to (its bitboards number cells otherwise)
        wins = sum(1 << cell for cell in game.actions(state) if has_four(me | bit_of(cell)))
        threats = sum(1 << cell for cell in game.actions(state) if has_four(opp | bit_of(cell)))
    if wins:
        return "win", wins
    if threats.bit_count() == 1:
        return "block", threats
    return None


def every_3x3() -> Iterator[tuple[tuple[int, ...], str, int]]:
    """Every reachable 3x3 position that is a win or block position, once each (by its marks)."""
    game = GAMES["3x3"]
    seen: set[tuple[int, int]] = set()
    stack: list[tuple[int, ...]] = [()]
    while stack:
        moves = stack.pop()
        state = game.play(moves)
        if (state.x, state.o) in seen:
            continue
        seen.add((state.x, state.o))
        if game.terminal(state):
            continue
        kind = classify(game, state)
        if kind is not None:
            yield moves, *kind
        stack.extend((*moves, cell) for cell in game.actions(state))


def sampled(name: str, per_kind: int, rng: random.Random) -> Iterator[tuple[tuple[int, ...], str, int]]:
    """``per_kind`` win and ``per_kind`` block positions of ``name`` from uniformly random games, no repeats."""
    game = GAMES[name]
    wanted = {"win": per_kind, "block": per_kind}
    seen: set[tuple[int, int]] = set()
    while any(wanted.values()):
        moves: tuple[int, ...] = ()
        state = game.initial_state()
        while not game.terminal(state):
            kind = classify(game, state)
            if kind is not None and wanted[kind[0]] and (state.x, state.o) not in seen:
                seen.add((state.x, state.o))
                wanted[kind[0]] -= 1
                yield moves, *kind
                break  # one position per game, so that positions do not share a history
            cell = rng.choice(game.actions(state))
            moves += (cell,)
            state = game.result(state, cell)


def measure(name: str, positions: list[tuple[tuple[int, ...], str, int]], seed: int) -> dict[int, dict[str, float]]:
    """Per level: ``{"win": share, "block": share, "seconds": s}`` over ``positions``."""
    rates: dict[int, dict[str, float]] = {}
    for level in LEVELS[:-1] if name == "connect-four" else LEVELS:
        hits = {"win": 0, "block": 0}
        started = time.perf_counter()
        for index, (moves, kind, cells) in enumerate(positions):
            request = {"variant": name, "moves": [m + 1 for m in moves], "level": level, "budget_ms": 60_000}
            move = answer(request, rng=random.Random(f"{seed}/{name}/{level}/{index}"))["move"] - 1
            hits[kind] += bool(cells >> move & 1)
        counts = {kind: sum(1 for p in positions if p[1] == kind) for kind in hits}
        rates[level] = {kind: hits[kind] / counts[kind] if counts[kind] else float("nan") for kind in hits}
        rates[level]["seconds"] = time.perf_counter() - started
    return rates


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", action="append", choices=tuple(GAMES), help="repeat for several (default all)")
    parser.add_argument("--positions", type=int, default=300, help="but 3x3: positions of each kind (default 300)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print("| game | positions (win / block) | level | win % | block % | s |")
    print("|---|---|---|---|---|---|")
    for name in args.variant or tuple(GAMES):
        rng = random.Random(f"{args.seed}/{name}")
        positions = list(every_3x3() if name == "3x3" else sampled(name, args.positions, rng))
        counts = f"{sum(p[1] == 'win' for p in positions)} / {sum(p[1] == 'block' for p in positions)}"
        for level, rate in measure(name, positions, args.seed).items():
            print(
                f"| {name} | {counts} | {level} | {100 * rate['win']:.1f} | {100 * rate['block']:.1f} "
                f"| {rate['seconds']:.1f} |",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
