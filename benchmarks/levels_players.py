"""The players of the levels' calibration (``benchmarks/levels_calibration.py``) and one game between two of them.

A player is named by a string:

- ``level-N``: the engine's level N (1-8) through :func:`engine.levels.choose_move` (no wall-clock cap, so its
  moves depend on the seed alone; ultimate's level 8 searches :data:`engine.levels.TOP_BUDGET_MS` of wall clock);
- ``random``: a uniformly random legal move;
- ``mcts-N``: OpenSpiel's C++ ``pyspiel.MCTSBot`` with N simulations a decision, one random rollout per leaf
  (``RandomRolloutEvaluator(1, seed)``), UCT constant 2 and the MCTS-Solver's proven values on; it plays
  OpenSpiel's own implementation of the game (``tic_tac_toe``, ``mnk(m=4,n=4,k=4)``, ``mnk(m=5,n=5,k=4)``,
  ``ultimate_tic_tac_toe``), kept in step with the engine's. OpenSpiel's ultimate makes a free move in two
  decisions (the board, then the cell), each searched with N simulations.
"""

from __future__ import annotations

import random
from typing import Any

import pyspiel

from benchmarks.connect_four_perfect import perfect_column
from engine.connect_four.cells import landing_cells
from engine.connect_four.rules import WIDTH
from engine.levels import TOP, choose_move
from engine.registry import variant
from engine.ultimate.rules import BIT_OF_CELL, CELL_OF_BIT

__all__ = ["OPENSPIEL_GAMES", "play_game"]

OPENSPIEL_GAMES = {
    "3x3": "tic_tac_toe",
    "4x4": "mnk(m=4,n=4,k=4)",
    "5x5": "mnk(m=5,n=5,k=4)",
    "ultimate": "ultimate_tic_tac_toe",
    "connect-four": "connect_four",
}
ULTIMATE_OPENING_PLIES = 2
"""Ultimate games open with this many seeded random plies, so two players who search deterministically still
meet in different games (the m,n,k games open from the empty board: every level draws on its rng)."""


def _apply(name: str, spiel_state: Any, cell: int) -> None:
    """Play the engine's ``cell`` in OpenSpiel's state of the same game."""
    if name == "connect-four":
        spiel_state.apply_action(cell % WIDTH)
        return
    if name != "ultimate":
        spiel_state.apply_action(cell)
        return
    board, inner = divmod(BIT_OF_CELL[cell], 9)
    first = spiel_state.legal_actions()[0]
    if spiel_state.action_to_string(spiel_state.current_player(), first).startswith("Choose"):
        spiel_state.apply_action(board)
    spiel_state.apply_action(inner)


def _mcts_cell(name: str, bot: Any, spiel_state: Any, state: Any) -> int:
    """The engine's cell for the MCTS bot's move in ``state`` (OpenSpiel's ``spiel_state`` is not changed: a free
    ultimate move runs on a clone)."""
    action = bot.step(spiel_state)
    if name == "connect-four":
        return landing_cells(state)[action]  # type: ignore[no-any-return]
    if name != "ultimate":
        return int(action)
    text = spiel_state.action_to_string(spiel_state.current_player(), action)
    if text.startswith("Choose"):
        board = action
        clone = spiel_state.clone()
        clone.apply_action(board)
        action = bot.step(clone)
    else:
        board = int(text.split(":")[0].split()[-1])
    return CELL_OF_BIT[9 * board + action]


def play_game(name: str, x: str, o: str, seed: str) -> dict[str, Any]:
    """One game of variant ``name`` between players ``x`` (moves first) and ``o``, seeded by ``seed``.

    Returns a JSON-ready record: the players, the seed, ``score`` (X's: 1, 0.5 or 0), the cells played (0-based)
    and each side's states evaluated and moves (levels only).
    """
    game = variant(name)
    rng = random.Random(seed)
    spiel_game = pyspiel.load_game(OPENSPIEL_GAMES[name])
    spiel_state = spiel_game.new_initial_state()
    bots: dict[str, Any] = {}
    rngs: dict[str, random.Random] = {}
    for side, player in (("X", x), ("O", o)):
        rngs[side] = random.Random(rng.getrandbits(64))
        if player.startswith("mcts-"):
            evaluator = pyspiel.RandomRolloutEvaluator(1, rng.getrandbits(31))
            simulations = int(player.removeprefix("mcts-"))
            seed_bits = rng.getrandbits(31)
            bots[side] = pyspiel.MCTSBot(spiel_game, evaluator, 2.0, simulations, 1_000_000, True, seed_bits, False)
    opening = ULTIMATE_OPENING_PLIES if name == "ultimate" else 0
    state = game.game.initial_state()
    moves: list[int] = []
    states = {"X": 0, "O": 0}
    while not game.game.terminal(state):
        side = game.game.player(state).value
        player = x if side == "X" else o
        if len(moves) < opening or player == "random":
            cell = rngs[side].choice(game.game.actions(state))
        elif side in bots:
            cell = _mcts_cell(name, bots[side], spiel_state, state)
        elif name == "connect-four" and player == f"level-{TOP}":
            cell = landing_cells(state)[perfect_column([c % WIDTH for c in moves])]  # type: ignore[assignment]
        else:
            chosen = choose_move(name, state, int(player.removeprefix("level-")), rng=rngs[side])
            cell, states[side] = chosen.cell, states[side] + chosen.states
        state = game.game.result(state, cell)
        _apply(name, spiel_state, cell)
        moves.append(cell)
    if not spiel_state.is_terminal():
        raise AssertionError(f"OpenSpiel's {name} goes on after {moves}")
    won = game.winner(state)
    score = 0.5 if won == "draw" else 1.0 if won is not None and won.value == "X" else 0.0
    return {"variant": name, "x": x, "o": o, "seed": seed, "score": score, "moves": moves, "states": states}
