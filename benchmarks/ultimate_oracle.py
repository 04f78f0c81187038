"""Rules check: engine.ultimate against OpenSpiel's ``ultimate_tic_tac_toe`` on random playouts.

Run from the repository root with ``python -m benchmarks.ultimate_oracle [PLAYOUTS] [SEED]`` (default 10,000
playouts, seed 17). At every ply of every playout it compares the legal moves, whether the game is over and
the winner; it stops at the first disagreement with an AssertionError that shows the moves so far.
``tests/engine/ultimate/test_rules.py`` runs :func:`compare_playouts` on a sample.

OpenSpiel plays a move in one step when the player is sent to an open board (the action is the cell 0-8
inside it) and in two steps when the player may choose (first the board 0-8, then the cell); its action
strings ("Choose local board b", "Local board b: ...") say which step is next. A move of ours, grid cell g,
is (board, cell) = divmod(BIT_OF_CELL[g], 9) on OpenSpiel's side.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

import pyspiel

from engine.protocol import Mark
from engine.ultimate.rules import BIT_OF_CELL, UltimateTicTacToe


def _openspiel_moves(state: Any) -> set[tuple[int, int]]:
    """OpenSpiel's legal moves as (board, cell) pairs, opening the choose-a-board step when there is one."""
    legal = state.legal_actions()
    if not legal:
        return set()
    player = state.current_player()
    if state.action_to_string(player, legal[0]).startswith("Choose"):
        pairs = set()
        for board in legal:
            child = state.clone()
            child.apply_action(board)
            pairs.update((board, cell) for cell in child.legal_actions())
        return pairs
    board = int(state.action_to_string(player, legal[0]).split(":")[0].split()[-1])
    return {(board, cell) for cell in legal}


def _openspiel_play(state: Any, board: int, cell: int) -> None:
    legal = state.legal_actions()
    if state.action_to_string(state.current_player(), legal[0]).startswith("Choose"):
        state.apply_action(board)
    state.apply_action(cell)


def compare_playouts(playouts: int, seed: int) -> int:
    """Play ``playouts`` uniformly random games in both implementations; return the plies compared.

    Raises:
        AssertionError: the implementations disagree (the message gives the moves and what differed).
    """
    rng = random.Random(seed)
    game = UltimateTicTacToe()
    spiel = pyspiel.load_game("ultimate_tic_tac_toe")
    plies = 0
    for _ in range(playouts):
        ours = game.initial_state()
        theirs = spiel.new_initial_state()
        moves: list[int] = []
        while True:
            plies += 1
            legal = game.actions(ours)
            pairs = {divmod(BIT_OF_CELL[g], 9) for g in legal}
            assert pairs == _openspiel_moves(theirs), f"legal moves differ after {moves}"
            assert game.terminal(ours) == theirs.is_terminal(), f"end of game differs after {moves}"
            if game.terminal(ours):
                returns = theirs.returns()
                expected = Mark.X if returns[0] > 0 else Mark.O if returns[1] > 0 else None
                assert game.winner(ours) == expected, f"winner differs after {moves}"
                assert game.utility(ours) == int(returns[0]), f"utility differs after {moves}"
                break
            move = rng.choice(legal)
            moves.append(move)
            ours = game.result(ours, move)
            _openspiel_play(theirs, *divmod(BIT_OF_CELL[move], 9))
    return plies


def main() -> None:
    """Compare the playouts given on the command line and print the count, the plies and the time."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("playouts", type=int, nargs="?", default=10_000, help="random games (default 10,000)")
    parser.add_argument("seed", type=int, nargs="?", default=17, help="the games' seed (default 17)")
    args = parser.parse_args()
    playouts, seed = args.playouts, args.seed
    start = time.perf_counter()
    plies = compare_playouts(playouts, seed)
    elapsed = time.perf_counter() - start
    print(f"{playouts} playouts, {plies} plies: rules agree with OpenSpiel at every ply ({elapsed:.1f} s, seed {seed})")


if __name__ == "__main__":
    main()
