"""The command line, driven in-process through ``main(argv, stdout, stderr)`` with string streams."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from engine.cli.commands import main, render_board
from engine.levels import ladder
from engine.puzzles import load
from engine.registry import VARIANTS
from engine.review import review
from engine.tictactoe.rules import parse_board


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, out, err)
    return code, out.getvalue(), err.getvalue()


def test_render_board_numbers_the_empty_cells() -> None:
    assert render_board(parse_board("X...O....")) == " X | 2 | 3\n---+---+---\n 4 | O | 6\n---+---+---\n 7 | 8 | 9"


def test_play_is_not_a_command() -> None:
    """Playing in a terminal is the bot's console; the engine's CLI only analyses and reviews."""
    code, out, err = run(["play"])
    assert code == 2 and out == ""
    assert "invalid choice: 'play'" in err


# --- analyse ------------------------------------------------------------------------------------------


def test_analyse_text() -> None:
    code, out, err = run(["analyse", "XO..X...."])
    assert code == 0 and err == ""
    assert "O to move." in out
    assert "Best move: 9 (value +6: X wins in 4 plies with best play)" in out
    assert re.search(r"^alpha-beta evaluated [\d,]+ states in \d+\.\d\d ms$", out, re.M)
    assert "Principal variation: 9 " in out
    assert "  9: loss in 4 plies" in out
    assert "  3: loss in 2 plies" in out


def test_analyse_textbook_reproduces_the_seed() -> None:
    code, out, _ = run(["analyse", "...X.....", "--textbook"])
    assert code == 0
    assert "Best move: 1 (value 0: draw with best play)" in out
    assert "alpha-beta evaluated 7,641 states" in out
    code, out, _ = run(["analyse", "....X....", "--textbook", "--algorithm", "minimax"])
    assert "minimax evaluated 55,504 states" in out


def test_analyse_json() -> None:
    code, out, err = run(["analyse", "XO..X....", "--json"])
    assert code == 0 and err == ""
    assert out.count("\n") == 1
    data = json.loads(out)
    assert {"move", "value", "states", "elapsed_ms", "pv", "algorithm"} <= data.keys()
    assert data["move"] == 9
    assert data["value"] == 6
    assert data["pv"][0] == 9 and all(1 <= c <= 9 for c in data["pv"])
    assert data["algorithm"] == "alpha-beta"
    assert data["to_move"] == "O"
    assert isinstance(data["states"], int) and data["states"] > 0
    assert isinstance(data["elapsed_ms"], float)
    assert {m["cell"] for m in data["moves"]} == {3, 4, 6, 7, 8, 9}


def test_analyse_json_minimax_from_the_empty_board() -> None:
    code, out, _ = run(["analyse", ".........", "--json", "--algorithm", "minimax"])
    data = json.loads(out)
    assert (code, data["states"], data["value"], data["algorithm"]) == (0, 549_945, 0, "minimax")


@pytest.mark.parametrize(
    ("board", "fragment"),
    [
        ("XO?......", "contains '?'"),
        ("XO", "has 2 cells"),
        ("XX.......", "X must equal O or O + 1"),
        ("XXXOOO...", "both X and O winning"),
        ("XXXOO....", "already over"),
        ("XOXXOOOXX", "already over"),
    ],
)
@pytest.mark.parametrize("as_json", [False, True])
def test_analyse_bad_board_exits_2_with_one_line(board: str, fragment: str, as_json: bool) -> None:
    code, out, err = run(["analyse", board, *(["--json"] if as_json else [])])
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("error: ")
    assert fragment in err


def test_bad_arguments_exit_2() -> None:
    assert run([])[0] == 2
    assert run(["analyse", "....X....", "--algorithm", "alphabeta"])[0] == 2  # spelled "alpha-beta"
    code, _, err = run(["analyse"])
    assert code == 2 and "BOARD" in err
    code, _, err = run(["review"])
    assert code == 2 and "CELL" in err
    assert run(["review", "4", "x"])[0] == 2


def test_help_exits_0() -> None:
    code, out, _ = run(["--help"])
    assert code == 0 and "analyse" in out and "review" in out


def test_python_dash_m_engine_analyse_smoke() -> None:
    root = Path(__file__).resolve().parents[3]
    proc = subprocess.run(
        [sys.executable, "-m", "engine", "analyse", "....X....", "--json"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["move"] in (1, 3, 7, 9)  # only the corners draw against the centre
    assert data["value"] == 0
    bad = subprocess.run(
        [sys.executable, "-m", "engine", "analyse", "XXX"], cwd=root, capture_output=True, text=True, check=False
    )
    assert bad.returncode == 2
    assert bad.stderr.count("\n") == 1 and "Traceback" not in bad.stderr


# --- review -------------------------------------------------------------------------------------------


def test_review_text_labels_the_blunder_and_names_the_best_moves() -> None:
    code, out, err = run(["review", "5", "2", "1", "9", "7", "4", "3"])
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith("Cells 1-9")
    assert len(lines) == 1 + 7 + 2
    assert re.match(r"^ 1\. X 5  draw in 9 -> draw in 8 +best +[\d,]+ states$", lines[1])
    assert re.match(r"^ 2\. O 2  draw in 8 -> loss in 5 +blunder \(best: 1 3 7 9\) +[\d,]+ states$", lines[2])
    assert re.match(r"^ 7\. X 3  win in 1 -> won +best +\d+ states?$", lines[7])
    assert lines[-2:] == ["X: 4 of 4 best", "O: 2 of 3 best; blunder at ply 2"]


def test_the_readmes_game_is_reviewed() -> None:
    code, out, err = run(["review", "5", "2", "1", "9", "7", "3", "4"])
    assert (code, err) == (0, "")
    assert out.splitlines()[-2:] == ["X: 4 of 4 best", "O: 2 of 3 best; blunder at ply 2"]
    assert " 2. O 2  draw in 8 -> loss in 5" in out


def test_review_text_lists_every_kind_of_error() -> None:
    code, out, _ = run(["review", "1", "5", "2", "6", "4", "3", "9"])
    assert code == 0
    assert " 5. X 4  win in 1 -> win in 2" in out and "slower (best: 3)" in out
    assert out.splitlines()[-2:] == [
        "X: 2 of 4 best; blunder at ply 7; slower at ply 5",
        "O: 2 of 3 best; blunder at ply 4",
    ]
    _, out, _ = run(["review", "1", "2", "4", "3", "7"])
    assert out.splitlines()[-1] == "O: 0 of 2 best; blunder at ply 2; inaccuracy at ply 4"


def test_review_json_matches_engine_review_in_cells_people_see() -> None:
    moves = [4, 1, 0, 8]
    code, out, err = run(["review", *(str(m + 1) for m in moves), "--json"])
    assert code == 0 and err == ""
    assert out.count("\n") == 1
    data = json.loads(out)
    assert data["algorithm"] == "alpha-beta"
    assert data["moves"] == [m + 1 for m in moves]
    for got, want in zip(data["plies"], review(moves), strict=True):
        assert got["ply"] == want.ply and got["mover"] == want.mover.value and got["cell"] == want.cell + 1
        assert parse_board(got["board"]) == want.state
        assert got["before"] == {"result": want.before.result, "plies": want.before.plies}
        assert got["after"] == {"result": want.after.result, "plies": want.after.plies}
        assert got["label"] == want.label and got["best_moves"] == [c + 1 for c in want.best_moves]
        assert got["states"] == want.states
    assert data["summary"]["O"] == {
        "moves": 2,
        "best": 1,
        "slower": [],
        "inaccuracies": [],
        "mistakes": [],
        "blunders": [2],
    }
    assert data["summary"]["X"]["best"] == 2


@pytest.mark.parametrize(
    ("cells", "fragment"),
    [
        (["5", "5"], "move 2 (cell 5) cannot be played: cell 5 is already taken by X"),
        (["5", "10"], "move 2 (cell 10) cannot be played: cell 10 is off the board: choose 1-9"),
        (["0"], "move 1 (cell 0) cannot be played: cell 0 is off the board: choose 1-9"),
        (["1", "4", "2", "5", "3", "6"], "move 6 (cell 6) cannot be played: the game is over (X won)"),
    ],
)
@pytest.mark.parametrize("as_json", [False, True])
def test_review_illegal_list_exits_2_with_one_line(cells: list[str], fragment: str, as_json: bool) -> None:
    code, out, err = run(["review", *cells, *(["--json"] if as_json else [])])
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("error: ")
    assert fragment in err


def test_python_dash_m_engine_review_smoke() -> None:
    root = Path(__file__).resolve().parents[3]
    proc = subprocess.run(
        [sys.executable, "-m", "engine", "review", "5", "1", "9", "--json"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert [p["label"] for p in json.loads(proc.stdout)["plies"]] == ["best", "best", "best"]


def test_levels_prints_a_table_of_every_games_ratings_and_how_each_level_plays() -> None:
    code, out, err = run(["levels"])
    assert (code, err) == (0, "")
    lines = out.splitlines()
    for name in VARIANTS:
        ratings = [str(level.rating) for level in ladder(name)]
        (row,) = (line.split() for line in lines if line.split()[:1] == [name] and "(" not in line)
        assert row == [name, *ratings]  # the overview: one row per game, levels 1-8
        heading = next(i for i, line in enumerate(lines) if line.startswith(f"{name} ("))
        for level, line in zip(ladder(name), lines[heading + 2 : heading + 10], strict=True):
            assert line.split()[:4] == [
                str(level.level),
                str(level.rating),
                f"{level.low}-{level.high}",
                f"{level.games:,}",
            ]
            assert line.endswith(level.search)
    assert "MCTSBot" in out and "1500" in out  # the scale's anchor
    assert run(["levels", "--variant", "5x5"])[1].count("perfect play") == 1


def test_levels_json_prints_every_games_ladder_as_json() -> None:
    code, out, err = run(["levels", "--json"])
    assert (code, err) == (0, "")
    payload = json.loads(out)
    assert list(payload) == ["3x3", "4x4", "5x5", "ultimate", "connect-four"]
    for levels in payload.values():
        assert [row["level"] for row in levels] == list(range(1, 9))
        assert set(levels[0]) == {"level", "rating", "low", "high", "games", "search"}
        assert all(isinstance(row["rating"], int) for row in levels)


def test_bestmove_takes_a_level() -> None:
    code, out, _ = run(["bestmove", "3x3", "1", "2", "5", "--level", "8"])
    assert (code, json.loads(out)["move"]) == (0, 9)
    assert run(["bestmove", "3x3", "--level", "9"])[0] == 2


def test_bestmove_takes_columns_or_the_games_notation() -> None:
    code, out, _ = run(["bestmove", "connect-four", "--columns", "4", "4", "5"])
    assert (code, json.loads(out)["move"]) == (0, 3)  # the book's answer, a column
    code, out, _ = run(["bestmove", "connect-four", "d", "d", "e"])
    assert (code, json.loads(out)["move"]) == (0, "3")
    code, out, _ = run(["bestmove", "5x5", "c3", "b2"])
    assert code == 0 and json.loads(out)["value"] == "draw"
    code, out, _ = run(["bestmove", "connect-four", "--columns", "4", "4", "4", "4", "4", "4", "4"])
    assert (code, json.loads(out)["error"]) == (2, "move 7 (column 4) cannot be played: column 4 is full")
    code, _, err = run(["bestmove", "connect-four", "--columns", "d"])
    assert code == 2 and "invalid int value: 'd'" in err
    code, out, _ = run(["bestmove", "connect-four", "39", "--columns", "4"])
    assert (code, json.loads(out)["kind"]) == (2, "RequestError")  # moves or columns, not both


# --- puzzles, pipes -----------------------------------------------------------------------------------


def test_puzzles_text_shows_each_position() -> None:
    code, out, _ = run(["puzzles", "--variant", "4x4"])
    first = load("4x4")[0]
    lines = out.splitlines()
    assert code == 0 and lines[0].startswith(f"{first.id} rating {first.rating}: ")
    assert lines[1].split() == ["a", "b", "c", "d"]
    board = [row.split()[1:] for row in lines[2:6]]
    for ply, cell in enumerate(first.moves):
        assert board[cell // 4][cell % 4] == "XO"[ply % 2]
    assert sum(row.count(".") for row in board) == 16 - len(first.moves)


@pytest.mark.parametrize(
    "argv", [["puzzles", "--variant", "ultimate", "--json"], ["levels"], ["puzzles", "--variant", "5x5"]]
)
def test_piped_output_closes_quietly(argv: list[str]) -> None:
    """``python -m engine ... | head -c 10``: the reader goes early; no BrokenPipeError, exit 0."""
    root = Path(__file__).resolve().parents[3]
    with subprocess.Popen(
        [sys.executable, "-m", "engine", *argv], cwd=root, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    ) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        assert proc.stdout.read(10)
        proc.stdout.close()
        errors = proc.stderr.read().decode()
        assert (proc.wait(60), errors) == (0, "")
