"""engine serve with "variant": "connect-four": level 8's move from the book and from the solver, with its exact value
(checked by BitBully, an independent solver), and the state query naming the cells the discs would fall to."""

from __future__ import annotations

import json
import random

import bitbully
import pytest

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


def test_a_game_played_by_column_is_asked_and_answered_in_columns_1_to_7() -> None:
    reply = ask({"variant": "connect-four", "columns": [], "level": 8})
    assert (reply["move"], reply["value"], reply["source"]) == (4, "win in 41", "book")  # the centre column
    state = ask({"variant": "connect-four", "columns": [4, 4, 5], "query": "state"})
    assert state == {"to_move": "O", "legal": [1, 2, 3, 4, 5, 6, 7], "winner": None}
    full = ask({"variant": "connect-four", "columns": [4, 4, 4, 4, 4, 4], "query": "state"})
    assert full["legal"] == [1, 2, 3, 5, 6, 7]
    # the same game as the cells the discs fell to, the form the records keep: 39 (d6), 32 (d5), 40 (e6)
    assert ask({"variant": "connect-four", "moves": [39, 32, 40], "query": "state"}) == state | {
        "legal": [36, 37, 38, 25, 33, 41, 42]
    }


def test_a_game_played_by_column_is_asked_and_answered_in_its_own_notation() -> None:
    reply = ask({"variant": "connect-four", "moves": ["d", "4", "e"], "level": 1})
    assert isinstance(reply["move"], str) and reply["move"] in "1234567" and len(reply["move"]) == 1
    state = ask({"variant": "connect-four", "moves": ["d", "d", "e"], "query": "state"})
    assert state == {"to_move": "O", "legal": ["1", "2", "3", "4", "5", "6", "7"], "winner": None}


@pytest.mark.parametrize(
    ("request_", "error", "kind"),
    [
        (
            {"moves": [43]},
            "move 1 (cell 43) cannot be played: cell 43 is off the board: choose 1-42",
            "CellOutOfRangeError",
        ),
        (
            {"moves": [4]},
            "move 1 (cell 4) cannot be played: a disc dropped in column 4 falls to cell 39, not cell 4",
            "FloatingDiscError",
        ),
        (
            {"moves": [39, 39]},
            "move 2 (cell 39) cannot be played: cell 39 holds a disc (column 4)",
            "CellOccupiedError",
        ),
        (
            {"columns": [8]},
            "move 1 (column 8) cannot be played: column 8 is off the board: choose 1-7",
            "CellOutOfRangeError",
        ),
        (
            {"columns": [0]},
            "move 1 (column 0) cannot be played: column 0 is off the board: choose 1-7",
            "CellOutOfRangeError",
        ),
        ({"columns": [4] * 7}, "move 7 (column 4) cannot be played: column 4 is full", "CellOccupiedError"),
        (
            {"columns": [1, 2, 1, 2, 1, 2, 1, 2]},
            "move 8 (column 2) cannot be played: the game is over: no more moves can be played",
            "GameOverError",
        ),
        ({"moves": ["d"] * 7}, "move 7 (d) cannot be played: column d is full", "CellOccupiedError"),
        (
            {"moves": ["h"]},
            "move 1 (h) cannot be played: column 'h' is not on the board: give 1-7 or a-g",
            "CellOutOfRangeError",
        ),
    ],
)
def test_errors_number_cells_and_columns_as_the_request_did(request_: dict[str, object], error: str, kind: str) -> None:
    reply = ask({"variant": "connect-four", **request_})
    assert (reply["error"], reply["kind"]) == (error, kind)
