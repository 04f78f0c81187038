"""The bot's 3x3 move (bot.games.moves.bot_move) and the tree engine.tree records for it count the same states."""

from __future__ import annotations

import random

import pytest

from bot.games.moves import bot_move
from engine import variant
from engine.tictactoe.rules import State, actions, result, terminal
from engine.tree.record import record


@pytest.mark.parametrize("algorithm", ["alpha-beta", "minimax"])
def test_the_bots_reply_and_its_recorded_tree_count_the_same_states(algorithm: str) -> None:
    rng = random.Random(7)
    checked = 0
    while checked < 40:
        state, cells = State(), []
        for _ in range(rng.randint(0 if algorithm == "alpha-beta" else 2, 8)):
            cell = rng.choice(actions(state))
            state, cells = result(state, cell), [*cells, cell]
            if terminal(state):
                break
        if terminal(state):
            continue
        seed = rng.randrange(1 << 30)
        chosen = bot_move(variant("3x3"), tuple(cells), 8, algorithm, None, seed)  # type: ignore[arg-type]
        tree = record(cells, algorithm, move=chosen.cell)  # type: ignore[arg-type]
        assert (tree.states, tree.move) == (chosen.states, chosen.cell)
        checked += 1
