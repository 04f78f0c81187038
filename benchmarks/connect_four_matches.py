"""Benchmark: Connect Four's level 8 as X from the empty board against random play and OpenSpiel's MCTSBot, every move
checked by an independent exact solver.

Run from the repository root (needs the test extra: OpenSpiel and BitBully)::

    nice -n 10 python -m benchmarks.connect_four_matches --random-games 100 --mcts-games 20

- Against uniform random play: ``--random-games`` games (seeded).
- Against OpenSpiel's C++ ``pyspiel.MCTSBot`` on ``connect_four`` (UCT, c = 2, ``--simulations`` a move, one random
  rollout per leaf through ``pyspiel.RandomRolloutEvaluator``, solver off, seeded per game): ``--mcts-games`` games.
  OpenSpiel's actions are columns 0-6, as ours.

Level 8 (:meth:`engine.Variant.play` at level 8: the opening book, then the solver) plays X in one process, its
solver's table warm from move to move. Every move of the bot is checked with BitBully (M. Thill; its 12-ply distance
database): the column it played must score the best of the position, i.e. keep its exact value, plies included. It
prints per opponent the games, wins, draws and losses, the bot's moves and how many lost exact value (0 expected), the
bot's time per move (mean, longest), the time of each game's review (:meth:`engine.Variant.review`: every move
valued exactly) and the wall time.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

import bitbully
import pyspiel

from engine.connect_four.book_build import scores_of
from engine.connect_four.rules import CONNECT_FOUR, WIDTH, ConnectFourState
from engine.games.connect_four import CONNECT_FOUR_VARIANT as GAME
from engine.protocol import Mark
from engine.registry import VARIANTS, register

Opponent = Callable[[ConnectFourState, Any], int]
"""The opponent's column in a position (the second argument: OpenSpiel's state of the same position)."""


def match(games: int, opponent: Callable[[int], Opponent], solver: Any) -> str:
    """``games`` games of level 8 as X against ``opponent(game_number)``'s player; one line of figures."""
    spiel_game = pyspiel.load_game("connect_four")
    wins = draws = losses = moves_checked = lost = 0
    times: list[float] = []
    reviews: list[float] = []
    started = time.perf_counter()
    for game_number in range(games):
        play_opponent = opponent(game_number)
        rng = random.Random(game_number)
        state, spiel, moves, cells = CONNECT_FOUR.initial_state(), spiel_game.new_initial_state(), [], []
        while not CONNECT_FOUR.terminal(state):
            if state.discs % 2 == 0:
                before = time.perf_counter()
                column = GAME.play(state, 8, rng=rng).cell % WIDTH
                times.append(time.perf_counter() - before)
                scores = scores_of(solver, moves, state.discs)
                moves_checked += 1
                lost += scores[column] != max(scores)
            else:
                column = play_opponent(state, spiel)
            cells.append(GAME.columns(state)[column])
            state = CONNECT_FOUR.result(state, column)
            spiel.apply_action(column)
            moves.append(column)
        assert spiel.is_terminal()
        before = time.perf_counter()
        assert len(GAME.review(cells)) == len(cells)
        reviews.append(time.perf_counter() - before)
        winner = CONNECT_FOUR.winner(state)
        wins += winner is Mark.X
        draws += winner is None
        losses += winner is Mark.O
    return (
        f"{games} games: {wins} won, {draws} drawn, {losses} lost; {moves_checked} moves of the bot, {lost} lost exact "
        f"value; {1000 * sum(times) / len(times):.0f} ms a move on average, longest {1000 * max(times):.0f} ms; "
        f"each game reviewed in {1000 * sum(reviews) / len(reviews):.0f} ms on average, longest "
        f"{1000 * max(reviews):.0f} ms; {time.perf_counter() - started:.0f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--random-games", type=int, default=100)
    parser.add_argument("--mcts-games", type=int, default=20)
    parser.add_argument("--simulations", type=int, default=1_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if GAME.name not in VARIANTS:  # until the engine registers it: as an outside game is (docs/adding-a-game.md)
        register(GAME)
    solver = bitbully.BitBully()
    spiel_game = pyspiel.load_game("connect_four")

    def uniform(game_number: int) -> Opponent:
        rng = random.Random(args.seed * 10_000 + game_number)
        return lambda state, _: rng.choice(CONNECT_FOUR.actions(state))

    def mcts(game_number: int) -> Opponent:
        seed = args.seed * 10_000 + game_number
        evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
        bot = pyspiel.MCTSBot(spiel_game, evaluator, 2.0, args.simulations, 1_000, False, seed, False)
        return lambda _, spiel: int(bot.step(spiel))

    if args.random_games:
        print(f"level 8 as X against uniform random play: {match(args.random_games, uniform, solver)}")
    if args.mcts_games:
        print(f"level 8 as X against MCTSBot({args.simulations:,} simulations): {match(args.mcts_games, mcts, solver)}")


if __name__ == "__main__":
    main()
