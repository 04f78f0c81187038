"""engine serve with "variant": "connect-four": level 8's move from the book and from the solver, with its exact value
(checked by BitBully, an independent solver), and the state query naming the cells the discs would fall to."""

from __future__ import annotations

import json
import random

import bitbully

from engine.cli.serve import answer_line, describe
from engine.connect_four.book_build import scores_of
from engine.connect_four.rules import CONNECT_FOUR, WIDTH
from engine.connect_four.solver import score_value
from engine.games.connect_four import CONNECT_FOUR_VARIANT as GAME


def ask(request: object) -> dict[str, object]:
    return json.loads(answer_line(json.dumps(request)))  # type: ignore[no-any-return]


def test_the_first_move_is_the_book_s_centre_winning_in_41_plies() -> None:
    reply = ask({"variant": "connect-four", "moves": [], "level": 8})
    assert reply["move"] == 5 * WIDTH + 3 + 1  # the bottom cell of column 4, 1-based
    assert (reply["value"], reply["proven"], reply["source"]) == ("win in 41", True, "book")


def test_a_move_after_the_book_keeps_bitbully_s_exact_value() -> None:
    rng, solver = random.Random(20), bitbully.BitBully()
    for _ in range(3):
        state, columns, cells = CONNECT_FOUR.initial_state(), [], []
        while state.discs < 20:
            column = rng.choice(CONNECT_FOUR.actions(state))
            child = CONNECT_FOUR.result(state, column)
            if CONNECT_FOUR.terminal(child):
                break
            landing = GAME.columns(state)[column]
            assert landing is not None
            columns.append(column)
            cells.append(landing + 1)
            state = child
        reply = ask({"variant": "connect-four", "moves": cells, "level": 8, "budget_ms": 10_000})
        scores = scores_of(solver, columns, state.discs)
        played = (int(reply["move"]) - 1) % WIDTH  # type: ignore[call-overload]
        assert scores[played] == max(scores)
        assert reply["value"] == describe(score_value(max(scores), state.discs))
        assert (reply["proven"], reply["source"]) == (True, "search")


def test_the_state_query_lists_the_cells_the_discs_would_fall_to() -> None:
    reply = ask({"variant": "connect-four", "moves": [39], "query": "state"})
    assert reply["to_move"] == "O" and reply["winner"] is None
    assert reply["legal"] == [36, 37, 38, 32, 40, 41, 42]
