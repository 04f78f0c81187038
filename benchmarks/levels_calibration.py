"""Calibrate the levels: play levels 1-8 against reference players, fit Elo ratings, write ``engine/levels.json``.

Run from the repository root (see ``docs/levels.md`` for the commands that made the committed table)::

    python -m benchmarks.levels_calibration play 3x3 --games 40 --procs 2 --minutes 20 --out calib/3x3.jsonl
    python -m benchmarks.levels_calibration fit calib/3x3.jsonl calib/4x4.jsonl ... --write engine/levels.json

``play`` plays every pairing of the variant's plan (:func:`pairings`) ``--games`` times, colours alternating,
one JSON line per game (``benchmarks/levels_players.py``), in round-robin order (every pairing's first game,
then every second game ...), so that a run cut short by ``--minutes`` still leaves every pairing about as many
games. It skips the games already in ``--out``, so a run can be resumed or extended. Each game's seed is the
string ``"{seed}/{variant}/{x}/{o}/{index}"``.

``fit`` counts each pair's games and score, fits Elo ratings per variant (``benchmarks/elo_fit.py``) with the
anchor ``mcts-1000`` = 1500, prints them, and with ``--write`` stores the table with the commands, seed and
game counts; a variant without games in the files keeps its table (and the commands that made it: those that do
not name a variant fitted now) from the file written. It exits 1 when a variant's level ratings do not increase
with the level.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from collections import defaultdict
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Any

from benchmarks.elo_fit import Pairing, fit
from benchmarks.levels_players import play_game
from engine.levels import SPECS

ANCHOR, ANCHOR_RATING = "mcts-1000", 1500.0
PRIOR_DRAWS = 1.0
"""Virtual draws added to every pairing played (see ``benchmarks/elo_fit.py``): a player who won every game
still gets a finite rating."""
MNK_REFERENCES = ("random", "mcts-10", "mcts-30", "mcts-100", "mcts-300", "mcts-1000", "mcts-3000", "mcts-10000")
ULTIMATE_REFERENCES = (
    "random",
    "mcts-30",
    "mcts-100",
    "mcts-300",
    "mcts-1000",
    "mcts-3000",
    "mcts-10000",
    "mcts-30000",
    "mcts-100000",
)
REFERENCES = {
    "3x3": MNK_REFERENCES,
    "4x4": MNK_REFERENCES,
    "5x5": MNK_REFERENCES[:-1],  # a game of MCTSBot(10,000 simulations) costs 30-80 s on 5x5
    "ultimate": ULTIMATE_REFERENCES,
    "connect-four": MNK_REFERENCES,
}
PARTNERS = {
    "ultimate": {1: (0, 4), 2: (0, 4), 3: (0, 5), 4: (1, 6), 5: (2, 7), 6: (3, 8), 7: (4, 9), 8: (5, 9)},
    "4x4": dict.fromkeys(range(1, 9), (0, 5)),
    "5x5": {1: (0, 5), 2: (0, 6), 3: (1, 6), 4: (2, 7), 5: (3, 7), 6: (3, 7), 7: (4, 7), 8: (4, 7)},
}
"""Where given, level N plays only the references ``REFERENCES[lo:hi]``: on ultimate (slow games) and 5x5 those near
it (on 5x5 by the levels' earlier ratings, up to MCTSBot with 3,000 simulations, whose games cost up to 20 s);
on 4x4 the five weakest (up to 300 simulations): in the first runs, 522 of 599 games between a level and MCTSBot with
300 simulations or more were draws, and each cost up to 5 s."""


def pairings(name: str) -> list[tuple[str, str]]:
    """The variant's plan: each level against the references (:data:`PARTNERS`), each level against the next, and
    each reference against the next."""
    refs = REFERENCES[name]
    plan: list[tuple[str, str]] = []
    for level in range(1, 9):
        lo, hi = PARTNERS[name][level] if name in PARTNERS else (0, len(refs))
        plan += [(f"level-{level}", ref) for ref in refs[lo:hi]]
    plan += [(f"level-{level}", f"level-{level + 1}") for level in range(1, 8)]
    plan += [(refs[i], refs[i + 1]) for i in range(len(refs) - 1)]
    return plan


def _tasks(name: str, games: int, seed: int, done: set[tuple[str, str, str]]) -> list[tuple[str, str, str, str]]:
    tasks = []
    for index in range(games):
        for a, b in pairings(name):
            x, o = (a, b) if index % 2 == 0 else (b, a)
            game_seed = f"{seed}/{name}/{x}/{o}/{index}"
            if (x, o, game_seed) not in done:
                tasks.append((name, x, o, game_seed))
    return tasks


def _run(task: tuple[str, str, str, str]) -> dict[str, Any]:
    started = time.perf_counter()
    record = play_game(*task)
    record["seconds"] = round(time.perf_counter() - started, 3)
    return record


def play(name: str, games: int, seed: int, procs: int, minutes: float, out: Path) -> int:
    """Play the plan's missing games into ``out`` until done or ``minutes`` have passed; returns games played."""
    records = _read([out]) if out.exists() else []
    done = {(r["x"], r["o"], r["seed"]) for r in records}
    pending = _tasks(name, games, seed, done)
    deadline = time.monotonic() + minutes * 60.0
    played = 0
    with ProcessPoolExecutor(procs) as pool, out.open("a", encoding="utf-8") as sink:
        running: set[Any] = set()
        while pending or running:
            while pending and len(running) < 2 * procs and time.monotonic() < deadline:
                running.add(pool.submit(_run, pending.pop(0)))
            if not running:
                break
            finished, running = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:
                sink.write(json.dumps(future.result()) + "\n")
                sink.flush()
                played += 1
    print(f"{name}: {played} games played, {len(pending)} left undone", file=sys.stderr)
    return played


def _read(paths: list[Path]) -> list[dict[str, Any]]:
    return [json.loads(line) for path in paths for line in path.read_text(encoding="utf-8").splitlines() if line]


def fit_variant(name: str, records: list[dict[str, Any]]) -> dict[str, Any]:
    """The variant's fitted table: its levels (with how each searches) and references with ratings, 95 %
    intervals and games."""
    totals: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0, 0.0])
    for r in records:
        a, b = sorted((r["x"], r["o"]))
        totals[a, b][0] += 1
        totals[a, b][1] += r["score"] if r["x"] == a else 1.0 - r["score"]
    result = fit(
        [Pairing(a, b, int(n), s) for (a, b), (n, s) in totals.items()], ANCHOR, ANCHOR_RATING, prior_draws=PRIOR_DRAWS
    )

    def row(player: str) -> dict[str, Any]:
        low, high = result.intervals[player]
        return {
            "rating": round(result.ratings[player]),
            "low": round(low),
            "high": round(high),
            "games": result.games[player],
        }

    levels = [{"level": n} | row(f"level-{n}") | {"search": SPECS[name][n - 1].search} for n in range(1, 9)]
    references = [{"player": p} | row(p) for p in sorted(result.ratings) if not p.startswith("level-")]
    references.sort(key=lambda entry: entry["rating"])
    return {
        "anchor": {"player": ANCHOR, "rating": ANCHOR_RATING},
        "games": len(records),
        "levels": levels,
        "references": references,
    }


def _names(command: str, name: str) -> bool:
    """Whether a stored ``command`` plays or fits variant ``name`` (``play NAME`` or ``calib/NAME.jsonl``)."""
    return f" {name} " in command or f"calib/{name}.jsonl" in command


def fit_command(paths: list[Path], write: Path | None, commands: list[str]) -> int:
    """Fit every variant found in ``paths``; print the tables; write them to ``write`` when given."""
    by_variant: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for record in _read(paths):
        by_variant[record["variant"]].append(record)
    names = [name for name in REFERENCES if name in by_variant]
    variants = {name: fit_variant(name, by_variant[name]) for name in names}
    status = 0
    for name, table in variants.items():
        ratings = [level["rating"] for level in table["levels"]]
        increasing = all(a < b for a, b in itertools.pairwise(ratings))
        status |= not increasing
        print(f"{name} ({table['games']} games){'' if increasing else ': NOT INCREASING'}")
        for entry in table["levels"] + table["references"]:
            label = f"level {entry['level']}" if "level" in entry else entry["player"]
            print(f"  {label:12} {entry['rating']:5} ({entry['low']}-{entry['high']}), {entry['games']} games")
    if write is not None:
        kept = json.loads(write.read_text(encoding="utf-8")) if write.exists() else {"commands": [], "variants": {}}
        old = {name: table for name, table in kept["variants"].items() if name not in variants}
        document = {
            "method": "Elo by maximum likelihood (Bradley-Terry, draws as half points), benchmarks/elo_fit.py",
            "commands": [c for c in kept["commands"] if not any(_names(c, name) for name in variants)] + commands,
            "variants": {name: (variants | old)[name] for name in REFERENCES if name in variants | old},
        }
        write.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    return status


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    play_p = sub.add_parser("play", help="play the calibration games of one variant")
    play_p.add_argument("variant", choices=tuple(REFERENCES))
    play_p.add_argument("--games", type=int, default=20, help="games per pairing (default 20)")
    play_p.add_argument("--seed", type=int, default=1)
    play_p.add_argument("--procs", type=int, default=2, help="worker processes (default 2)")
    play_p.add_argument("--minutes", type=float, default=30.0, help="stop starting games after this long")
    play_p.add_argument("--out", type=Path, required=True, help="the JSON-lines file of games (appended to)")
    fit_p = sub.add_parser("fit", help="fit the ratings from game files")
    fit_p.add_argument("files", type=Path, nargs="+")
    fit_p.add_argument("--write", type=Path, help="write the table here (engine/levels.json)")
    fit_p.add_argument("--command", action="append", default=[], help="a command that made the games (stored)")
    args = parser.parse_args()
    if args.command == "play":
        play(args.variant, args.games, args.seed, args.procs, args.minutes, args.out)
        return 0
    return fit_command(args.files, args.write, args.command)


if __name__ == "__main__":
    sys.exit(main())
