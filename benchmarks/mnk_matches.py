"""Benchmark: the perfect 5x5 player (engine.mnk.play) against random players and OpenSpiel's MCTSBot.

Run from the repository root with ``python -m benchmarks.mnk_matches [--random-games N] [--mcts-games N]``.

- Against a uniformly random player: ``N`` seeded games with the bot as X and ``N`` as O (default 1,000).
- Against OpenSpiel's C++ ``pyspiel.MCTSBot`` (UCT, c = 2, 1,000 simulations a move, one random rollout per
  leaf through ``pyspiel.RandomRolloutEvaluator``, solver off, seeded): ``N`` games, half with the bot as X
  (default 40). OpenSpiel is a benchmark dependency only.

It prints W/D/L per pairing from the bot's side and exits 1 if the bot lost any game (the target is zero).
"""

from __future__ import annotations

import argparse
import random
import sys
import time

import pyspiel

from engine.mnk.play import choose_move
from engine.mnk.rules import TIC_TAC_TOE_5X5 as GAME
from engine.protocol import Mark


def play_random(bot: Mark, games: int, seed: int) -> tuple[int, int, int]:
    """W/D/L for the bot playing ``bot`` against a uniformly random player."""
    rng = random.Random(seed)
    wins = draws = losses = 0
    for _ in range(games):
        state = GAME.initial_state()
        while not GAME.terminal(state):
            bot_turn = GAME.player(state) is bot
            move = choose_move(GAME, state, rng).move if bot_turn else rng.choice(GAME.actions(state))
            state = GAME.result(state, move)
        winner = GAME.winner(state)
        wins += winner is bot
        draws += winner is None
        losses += winner is not None and winner is not bot
    return wins, draws, losses


def play_mcts(bot: Mark, games: int, seed: int) -> tuple[int, int, int, float]:
    """W/D/L for the bot against MCTSBot(1,000 simulations), and MCTS's mean seconds per move."""
    spiel_game = pyspiel.load_game("mnk(m=5,n=5,k=4)")
    rng = random.Random(seed)
    wins = draws = losses = 0
    mcts_seconds, mcts_moves = 0.0, 0
    for game_number in range(games):
        evaluator = pyspiel.RandomRolloutEvaluator(1, seed + game_number)
        mcts = pyspiel.MCTSBot(spiel_game, evaluator, 2.0, 1_000, 1_000, False, seed + game_number, False)
        state, spiel = GAME.initial_state(), spiel_game.new_initial_state()
        while not GAME.terminal(state):
            if GAME.player(state) is bot:
                move = choose_move(GAME, state, rng).move
            else:
                started = time.perf_counter()
                move = mcts.step(spiel)
                mcts_seconds += time.perf_counter() - started
                mcts_moves += 1
            state = GAME.result(state, move)
            spiel.apply_action(move)
        assert spiel.is_terminal()
        winner = GAME.winner(state)
        wins += winner is bot
        draws += winner is None
        losses += winner is not None and winner is not bot
    return wins, draws, losses, mcts_seconds / max(mcts_moves, 1)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--random-games", type=int, default=1_000)
    parser.add_argument("--mcts-games", type=int, default=40)
    args = parser.parse_args()
    print("| opponent | bot plays | games | W | D | L | time |")
    print("|---|---|---:|---:|---:|---:|---:|")
    lost = 0
    for bot in (Mark.X, Mark.O):
        started = time.perf_counter()
        won, drew, lose = play_random(bot, args.random_games, seed=500 if bot is Mark.X else 501)
        lost += lose
        elapsed = time.perf_counter() - started
        print(f"| random | {bot.value} | {won + drew + lose} | {won} | {drew} | {lose} | {elapsed:.0f} s |")
    for bot in (Mark.X, Mark.O):
        started = time.perf_counter()
        won, drew, lose, per_move = play_mcts(bot, args.mcts_games // 2, seed=1_000 if bot is Mark.X else 2_000)
        lost += lose
        elapsed = time.perf_counter() - started
        print(
            f"| MCTSBot(1,000 simulations; {per_move * 1000:.0f} ms a move) | {bot.value} | {won + drew + lose} "
            f"| {won} | {drew} | {lose} | {elapsed:.0f} s |"
        )
    print(f"\n{'PASS' if lost == 0 else 'MISS'}: {lost} games lost (target 0)")
    return 0 if lost == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
