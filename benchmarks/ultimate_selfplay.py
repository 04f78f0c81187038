"""Ultimate tic-tac-toe self-play: the fit of the expected-score scale, and the choice of the UCT constant.

Run from the repository root::

    python -m benchmarks.ultimate_selfplay fit --games 120 --iterations 50000
    python -m benchmarks.ultimate_selfplay tune --games 60 --iterations 20000 --constants 0.7 1.0

``fit`` plays the engine (``engine.ultimate.tree.search``, a fixed number of MCTS iterations a move, seeded) against
itself from seeded 4-ply random openings, records each searched move's mean rollout score for the mover and the
mover's final score (1, 1/2, 0), and fits ``expected = 1 / (1 + exp(-(a + b x)))``, ``x`` the log-odds of the mean
(clipped as ``engine.ultimate.scale`` clips it), by maximum likelihood (Newton's method on the log-likelihood with
fractional targets: the logistic regression of a score on one feature). It prints ``a`` and ``b``
(``engine.ultimate.scale.INTERCEPT`` and ``SLOPE``), the log-loss of the fit against the raw mean and against a
constant, and the mean and the fitted scale by decile of the mean.

``tune`` plays the engine with the first constant against itself with the second, games paired with colours swapped
after the same seeded 2-ply opening, and prints the first one's W/D/L and score with its 95% Wilson interval.
Games run in ``--procs`` processes (2: the machine's cores).
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import statistics

from engine.protocol import Mark
from engine.ultimate.rules import UltimateTicTacToe
from engine.ultimate.scale import CLIP
from engine.ultimate.tree import search

Sample = tuple[float, float]


def fit_game(task: tuple[int, int]) -> list[Sample]:
    """One self-play game: (the searched move's mean for the mover, the mover's final score) per unproven move."""
    index, iterations = task
    game = UltimateTicTacToe()
    state = game.initial_state()
    opening = random.Random(7000 + index)
    seen: list[tuple[float, Mark]] = []
    for _ in range(4):
        state = game.result(state, opening.choice(game.actions(state)))
    while not state.is_over:
        mover = game.player(state)
        report = search(state, math.inf, iterations=iterations, seed=index * 100 + len(seen))
        if report.best.proof is None:
            seen.append((report.best.mean, mover))
        state = game.result(state, report.best.move)
    winner = state.winner
    return [(mean, 0.5 if winner is None else 1.0 if winner is mover else 0.0) for mean, mover in seen]


def log_odds(mean: float) -> float:
    """The log-odds of ``mean`` clipped to [CLIP, 1 - CLIP]."""
    m = min(max(mean, CLIP), 1.0 - CLIP)
    return math.log(m / (1.0 - m))


def logistic_fit(samples: list[Sample]) -> tuple[float, float]:
    """``(a, b)`` maximising the likelihood of the scores under ``1 / (1 + exp(-(a + b log_odds(mean))))``."""
    a, b = 0.0, 1.0
    for _ in range(50):
        ga = gb = haa = hab = hbb = 0.0
        for mean, score in samples:
            x = log_odds(mean)
            p = 1.0 / (1.0 + math.exp(-(a + b * x)))
            w = p * (1.0 - p)
            ga += score - p
            gb += (score - p) * x
            haa += w
            hab += w * x
            hbb += w * x * x
        det = haa * hbb - hab * hab
        da, db = (hbb * ga - hab * gb) / det, (haa * gb - hab * ga) / det
        a, b = a + da, b + db
        if abs(da) + abs(db) < 1e-10:
            break
    return a, b


def log_loss(samples: list[Sample], predict: object) -> float:
    """The mean cross-entropy of the scores under ``predict(mean)`` (clipped away from 0 and 1)."""
    assert callable(predict)
    total = 0.0
    for mean, score in samples:
        p = min(max(predict(mean), 1e-6), 1 - 1e-6)
        total -= score * math.log(p) + (1 - score) * math.log(1 - p)
    return total / len(samples)


def tune_game(task: tuple[int, int, float, float]) -> float:
    """The first constant's score (1, 1/2, 0) in game ``index`` of the paired match."""
    index, iterations, first, second = task
    pair, first_is_o = divmod(index, 2)
    game = UltimateTicTacToe()
    state = game.initial_state()
    opening = random.Random(9000 + pair)
    ours = Mark.O if first_is_o else Mark.X
    for _ in range(2):
        state = game.result(state, opening.choice(game.actions(state)))
    ply = 0
    while not state.is_over:
        constant = first if game.player(state) is ours else second
        report = search(state, math.inf, iterations=iterations, seed=index * 1000 + ply, exploration=constant)
        state = game.result(state, report.best.move)
        ply += 1
    return 0.5 if state.winner is None else 1.0 if state.winner is ours else 0.0


def main() -> None:
    """Fit the scale or compare two constants, as the module docstring shows."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=("fit", "tune"))
    parser.add_argument("--games", type=int, default=120)
    parser.add_argument("--iterations", type=int, default=50_000)
    parser.add_argument("--constants", type=float, nargs=2, default=(0.7, 1.0))
    parser.add_argument("--procs", type=int, default=2)
    args = parser.parse_args()
    with multiprocessing.get_context("spawn").Pool(args.procs) as pool:
        if args.mode == "tune":
            tasks = [(i, args.iterations, *args.constants) for i in range(args.games)]
            scores = pool.map(tune_game, tasks)
            wins, draws = scores.count(1.0), scores.count(0.5)
            n, total = len(scores), sum(scores)
            p, z = total / n, 1.96
            centre = (p + z * z / (2 * n)) / (1 + z * z / n)
            half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
            print(
                f"c={args.constants[0]} against c={args.constants[1]}, {args.iterations} iterations a move: "
                f"W {wins} D {draws} L {n - wins - draws}, score {p:.1%} (95% Wilson {centre - half:.1%}-"
                f"{centre + half:.1%})"
            )
            return
        samples = [s for game in pool.map(fit_game, [(i, args.iterations) for i in range(args.games)]) for s in game]
    a, b = logistic_fit(samples)
    average = statistics.fmean(score for _, score in samples)
    print(f"{len(samples)} moves from {args.games} games at {args.iterations} iterations a move")
    print(f"INTERCEPT = {a:.3f}, SLOPE = {b:.3f}")
    fitted = log_loss(samples, lambda m: 1.0 / (1.0 + math.exp(-(a + b * log_odds(m)))))
    print(
        f"log-loss: fitted {fitted:.4f}, raw mean {log_loss(samples, lambda m: m):.4f}, "
        f"constant {log_loss(samples, lambda m: average):.4f}"
    )
    ordered = sorted(samples)
    for d in range(10):
        part = ordered[d * len(ordered) // 10 : (d + 1) * len(ordered) // 10]
        mean = statistics.fmean(m for m, _ in part)
        print(
            f"decile {d + 1}: mean {mean:.3f}, players scored {statistics.fmean(s for _, s in part):.3f}, "
            f"fitted {1.0 / (1.0 + math.exp(-(a + b * log_odds(mean)))):.3f}"
        )


if __name__ == "__main__":
    main()
