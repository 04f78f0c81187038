"""engine.cli.serve: the JSON-lines protocol, in process and as ``python -m engine serve`` / ``bestmove``."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
import time

import pytest

from engine.cli.serve import answer_line, serve
from engine.registry import variant


def ask(request: object) -> dict[str, object]:
    return json.loads(answer_line(json.dumps(request)))  # type: ignore[no-any-return]


def test_a_move_request_is_answered_with_the_move_its_count_and_exact_value() -> None:
    reply = ask({"variant": "3x3", "moves": [5], "budget_ms": 1000})
    assert set(reply) == {"move", "states", "value", "proven", "elapsed_ms", "source"}
    assert reply["move"] in (1, 3, 7, 9)  # only a corner keeps the draw against the centre
    assert reply["value"] == "draw"
    assert reply["source"] == "search"
    assert isinstance(reply["states"], int) and reply["states"] > 0


def test_a_won_position_is_valued_in_plies_from_the_movers_view() -> None:
    assert ask({"variant": "3x3", "moves": [1, 4, 2, 5]})["value"] == "win in 1"
    assert ask({"variant": "3x3", "moves": [1, 4, 2, 5]})["move"] == 3
    # X (1, 5) threatens 9; O must block it and still loses to X on 7, which makes two threats
    assert ask({"variant": "3x3", "moves": [1, 2, 5]}) | {"states": 0, "elapsed_ms": 0} == {
        "move": 9,
        "states": 0,
        "value": "loss in 4",
        "proven": True,
        "elapsed_ms": 0,
        "source": "search",
    }


def test_a_state_query_gives_the_mover_the_legal_moves_and_the_winner() -> None:
    assert ask({"variant": "3x3", "moves": [5], "query": "state"}) == {
        "to_move": "O",
        "legal": [1, 2, 3, 4, 6, 7, 8, 9],
        "winner": None,
    }
    assert ask({"variant": "3x3", "moves": [1, 4, 2, 5, 3], "query": "state"}) == {
        "to_move": None,
        "legal": [],
        "winner": "X",
    }
    drawn = [5, 1, 9, 3, 2, 8, 4, 6, 7]
    assert ask({"variant": "3x3", "moves": drawn, "query": "state"})["winner"] == "draw"


@pytest.mark.parametrize(
    ("line", "kind"),
    [
        ('{"variant": "3x3", "moves": [5, 5]}', "CellOccupiedError"),
        ('{"variant": "3x3", "moves": [10]}', "CellOutOfRangeError"),
        ('{"variant": "3x3", "moves": [0]}', "CellOutOfRangeError"),
        ('{"variant": "3x3", "moves": [1, 4, 2, 5, 3, 6]}', "GameOverError"),
        ('{"variant": "3x3", "moves": [1, 4, 2, 5, 3]}', "GameOverError"),
        ('{"variant": "9x9", "moves": []}', "UnknownVariantError"),
        ('{"moves": []}', "UnknownVariantError"),
        ('{"variant": "3x3", "moves": "5"}', "RequestError"),
        ('{"variant": "3x3", "moves": [true]}', "RequestError"),
        ('{"variant": "3x3", "budget_ms": 0}', "RequestError"),
        ('{"variant": "3x3", "level": 0}', "RequestError"),
        ('{"variant": "3x3", "level": 9}', "RequestError"),
        ('{"variant": "3x3", "level": "8"}', "RequestError"),
        ('{"variant": "3x3", "level": true}', "RequestError"),
        ('{"variant": "3x3", "query": "everything"}', "RequestError"),
        ("[5]", "RequestError"),
        ("{not json", "RequestError"),
    ],
)
def test_bad_input_is_answered_with_the_engines_error_class(line: str, kind: str) -> None:
    reply = json.loads(answer_line(line))
    assert reply["kind"] == kind
    assert isinstance(reply["error"], str) and reply["error"]


@pytest.mark.parametrize(
    ("line", "error"),
    [
        (
            '{"variant": "3x3", "moves": [10]}',
            "move 1 (cell 10) cannot be played: cell 10 is off the board: choose 1-9",
        ),
        ('{"variant": "3x3", "moves": [0]}', "move 1 (cell 0) cannot be played: cell 0 is off the board: choose 1-9"),
        ('{"variant": "3x3", "moves": [5, 5]}', "move 2 (cell 5) cannot be played: cell 5 is already taken by X"),
        (
            '{"variant": "5x5", "moves": [26]}',
            "move 1 (cell 26) cannot be played: cell 26 is off the board: choose 1-25",
        ),
        ('{"variant": "4x4", "moves": [6, 6]}', "move 2 (cell 6) cannot be played: cell 6 (b2) is already taken by X"),
        (
            '{"variant": "ultimate", "moves": [82]}',
            "move 1 (cell 82) cannot be played: cell 82 is off the board: choose 1-81",
        ),
        (
            '{"variant": "ultimate", "moves": [1, 41]}',
            "move 2 (cell 41) cannot be played: cell 41 (e5) is in small board 5: the move must be in board 1",
        ),
    ],
)
def test_errors_number_cells_and_boards_as_people_see_them(line: str, error: str) -> None:
    assert json.loads(answer_line(line))["error"] == error


def test_a_request_in_the_games_notation_is_answered_in_it() -> None:
    assert ask({"variant": "5x5", "moves": ["c3", "B2"], "query": "state"})["legal"][:3] == ["a1", "b1", "c1"]
    reply = ask({"variant": "5x5", "moves": ["c3", "b2"], "budget_ms": 1000})
    assert reply["value"] == "draw" and isinstance(reply["move"], str) and reply["move"] not in ("c3", "b2")
    assert ask({"variant": "3x3", "moves": ["1", "4", "2", "5"]})["move"] == "3"  # 3x3 names its cells 1-9
    assert ask({"variant": "3x3", "moves": ["a1", "a2", "b1", "b2"]})["move"] == "3"
    assert ask({"variant": "ultimate", "moves": ["e5", "f4"], "query": "state"})["legal"] == [
        "g1", "h1", "i1", "g2", "h2", "i2", "g3", "h3", "i3"
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("line", "error", "kind"),
    [
        (
            '{"variant": "5x5", "moves": ["c3", "c3"]}',
            "move 2 (c3) cannot be played: c3 is already taken by X",
            "CellOccupiedError",
        ),
        (
            '{"variant": "5x5", "moves": ["f1"]}',
            "move 1 (f1) cannot be played: cell 'f1' is not on this board: give a coordinate a1-e5 or a number 1-25",
            "CellOutOfRangeError",
        ),
        (
            '{"variant": "ultimate", "moves": ["a1", "e5"]}',
            "move 2 (e5) cannot be played: e5 is outside a1-c3, the small board this move must go to",
            "WrongBoardError",
        ),
        (
            '{"variant": "3x3", "moves": ["1", "4", "2", "5", "3", "6"]}',
            "move 6 (6) cannot be played: the game is over: no more moves can be played",
            "GameOverError",
        ),
        ('{"variant": "3x3", "moves": [1, "2"]}', None, "RequestError"),
        ('{"variant": "3x3", "columns": [1]}', None, "RequestError"),
        ('{"variant": "connect-four", "columns": [4], "moves": [39]}', None, "RequestError"),
        ('{"variant": "connect-four", "columns": ["d"]}', None, "RequestError"),
    ],
)
def test_errors_in_notation_name_cells_in_it(line: str, error: str | None, kind: str) -> None:
    reply = json.loads(answer_line(line))
    assert reply["kind"] == kind
    assert reply["error"] == error if error else reply["error"]


def test_a_move_into_a_decided_small_board_is_refused_in_the_requests_notation() -> None:
    """A random ultimate game (seed 0) up to where the player may go anywhere and a small board is already decided."""
    game, rng = variant("ultimate"), random.Random(0)
    state, moves = game.game.initial_state(), []
    while game.forced_block(state) is not None or not any(game.block_result(state, b) for b in range(9)):
        moves.append(rng.choice(game.game.actions(state)))
        state = game.game.result(state, moves[-1])
    decided = next(b for b in range(9) if game.block_result(state, b))
    cell = next(c for c in game.block_cells(decided) if game.mark(state, c) is None)
    names = [game.cell_name(c) for c in (*moves, cell)]
    reply = ask({"variant": "ultimate", "moves": names})
    where = f"{names[-1]} is in {game.block_name(decided)}, a small board already decided"
    assert (reply["error"], reply["kind"]) == (
        f"move {len(names)} ({names[-1]}) cannot be played: {where}",
        "WrongBoardError",
    )
    assert ask({"variant": "ultimate", "moves": [c + 1 for c in (*moves, cell)]})["kind"] == "WrongBoardError"


def test_the_server_keeps_serving_after_bad_lines() -> None:
    out = io.StringIO()
    lines = ["{bad\n", "\n", '{"variant": "3x3", "moves": [5, 5]}\n', '{"variant": "3x3", "query": "state"}\n']
    assert serve(io.StringIO("".join(lines)), out) == 0
    replies = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [r.get("kind") for r in replies] == ["RequestError", "CellOccupiedError", None]
    assert replies[2]["to_move"] == "X"


def test_python_m_engine_serve_and_bestmove_run_as_programs() -> None:
    requests = '{"variant": "3x3", "moves": [1, 4, 2, 5]}\nnope\n{"variant": "3x3", "moves": [1], "query": "state"}\n'
    done = subprocess.run(
        [sys.executable, "-m", "engine", "serve"], input=requests, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    assert [replies[0]["move"], replies[1]["kind"], replies[2]["to_move"]] == [3, "RequestError", "O"]

    one = subprocess.run(
        [sys.executable, "-m", "engine", "bestmove", "3x3", "1", "4", "2", "5", "--budget-ms", "500"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (one.returncode, json.loads(one.stdout)["move"]) == (0, 3)
    bad = subprocess.run(
        [sys.executable, "-m", "engine", "bestmove", "nine"], capture_output=True, text=True, timeout=60
    )
    assert (bad.returncode, json.loads(bad.stdout)["kind"]) == (2, "UnknownVariantError")


def test_the_issues_5x5_request_is_answered_from_the_book_with_an_exact_value() -> None:
    reply = ask({"variant": "5x5", "moves": [13, 7], "budget_ms": 1000})
    assert reply["value"] == "draw"  # 5x5 four in a row is a draw, and O's b2 (cell 7) keeps it
    assert reply["source"] in ("book", "search")
    assert isinstance(reply["move"], int) and 1 <= reply["move"] <= 25 and reply["move"] not in (13, 7)
    assert isinstance(reply["states"], int) and (reply["states"] == 0) == (reply["source"] == "book")  # a book read


def test_4x4_moves_and_states_use_the_whole_board() -> None:
    assert ask({"variant": "4x4", "moves": [1, 5, 2, 6, 3, 7]})["move"] == 4  # X completes the top row
    state = ask({"variant": "4x4", "moves": [16], "query": "state"})
    assert state["legal"] == list(range(1, 16)) and state["to_move"] == "O"
    assert ask({"variant": "4x4", "moves": [17]})["kind"] == "CellOutOfRangeError"


def test_the_issues_ultimate_state_query_sends_x_to_the_top_right_board() -> None:
    assert ask({"variant": "ultimate", "moves": [41, 33], "query": "state"}) == {
        "to_move": "X",
        "legal": [7, 8, 9, 16, 17, 18, 25, 26, 27],
        "winner": None,
    }
    assert ask({"variant": "ultimate", "moves": [41, 1]})["kind"] == "WrongBoardError"


def test_an_ultimate_move_is_searched_and_has_no_exact_value() -> None:
    reply = ask({"variant": "ultimate", "moves": [41, 33], "budget_ms": 100})
    assert reply["move"] in (7, 8, 9, 16, 17, 18, 25, 26, 27)
    assert (reply["value"], reply["source"]) == (None, "search")
    assert isinstance(reply["states"], int) and reply["states"] > 0
    # level 8 (the default) searches until its budget, less the finish margin (a twentieth of it), is spent
    assert isinstance(reply["elapsed_ms"], float) and reply["elapsed_ms"] >= 95.0


def test_a_move_request_takes_a_level_and_only_level_8_gives_an_exact_value() -> None:
    # X (1, 5) threatens 9; a level that looks one ply ahead does not see the loss, level 8 blocks it
    assert ask({"variant": "3x3", "moves": [1, 2, 5], "level": 8})["move"] == 9
    assert ask({"variant": "3x3", "moves": [1, 2, 5]})["value"] == "loss in 4"  # the default is level 8
    weak = ask({"variant": "3x3", "moves": [1, 2, 5], "level": 1})
    assert (weak["value"], weak["source"]) == (None, "search")
    assert isinstance(weak["states"], int) and 0 < weak["states"] <= 6
    for name, moves in (("5x5", [13]), ("ultimate", [41, 33])):
        reply = ask({"variant": name, "moves": moves, "level": 3})
        assert reply["value"] is None and reply["states"] > 0


def test_an_ultimate_move_says_win_in_n_where_the_search_proved_it() -> None:
    # A random game (seed 0) stopped where X has a proven win in 5 plies (0-based cells, served 1-based).
    won_in_5 = (49, 75, 64, 50, 70, 32, 15, 29, 8, 6, 10, 41, 35, 7, 4, 21, 55, 13, 59, 17, 53, 71, 52, 68, 33, 19,
                77, 60, 9, 45, 73, 57, 18, 27, 1, 22, 58)  # fmt: skip
    reply = ask({"variant": "ultimate", "moves": [m + 1 for m in won_in_5], "budget_ms": 60_000})
    assert reply["value"] == "win in 5" and reply["source"] == "search"
    assert isinstance(reply["elapsed_ms"], float) and reply["elapsed_ms"] < 30_000  # proved: it answers early
    move = reply["move"]
    assert isinstance(move, int)
    after = ask({"variant": "ultimate", "moves": [*(m + 1 for m in won_in_5), move]})
    assert after["value"] == "loss in 4"


def test_a_3x3_request_names_its_algorithm_and_counts_what_the_bot_shows() -> None:
    assert ask({"variant": "3x3", "moves": [5]})["states"] == 71  # the bot's alpha-beta after X takes the centre
    assert ask({"variant": "3x3", "moves": [5], "algorithm": "minimax"})["states"] == 55_504
    assert ask({"variant": "3x3", "algorithm": "negamax"})["kind"] == "RequestError"
    assert ask({"variant": "4x4", "algorithm": "minimax"})["kind"] == "RequestError"


def test_every_line_gets_one_answer_line_and_the_next_is_served() -> None:
    """Deeply nested, huge or unreadable lines are answered as errors; the server never dies."""
    lines = [
        "[" * 1100,
        '{"variant": "3x3", "moves": [' + " " * 1_200_000 + "]}",
        '{"variant": "3x3", "moves": [' + "9" * 5000 + "]}",
        '{"variant": "3x3", "moves": [5], "query": "state"}',
    ]
    done = subprocess.run(
        [sys.executable, "-m", "engine", "serve"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (done.returncode, done.stderr) == (0, "")
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r.get("kind") for r in replies] == ["RequestError", "RequestError", "RequestError", None]
    assert "deeper than 32" in replies[0]["error"] and "longer than 1,000,000" in replies[1]["error"]
    assert replies[3]["to_move"] == "O"


def test_a_5x5_position_off_the_book_is_answered_within_its_budget() -> None:
    """The exact search of 5x5 after [22, 15] runs for minutes: the answer comes within the budget, level 7's move,
    its value not proven."""
    for budget in (1000, 200):
        started = time.perf_counter()
        reply = ask({"variant": "5x5", "moves": [22, 15], "budget_ms": budget})
        elapsed_ms = (time.perf_counter() - started) * 1000
        assert elapsed_ms < budget + 1000, elapsed_ms
        assert (reply["value"], reply["proven"]) == (None, False)
        assert isinstance(reply["move"], int) and reply["move"] not in (22, 15) and 1 <= reply["move"] <= 25
    quick = ask({"variant": "5x5", "moves": [13, 7], "budget_ms": 1000})  # in the book: exact at once
    assert (quick["value"], quick["proven"]) == ("draw", True)
