"""The command line, driven in-process through ``main(argv, stdin, stdout, stderr)`` with scripted input."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from engine.cli import main, render_board
from engine.game import parse_board

AI_LINE = re.compile(
    r"^([XO]) played ([1-9])( \(a random move at \w+\))? · "
    r"(alpha-beta|minimax) evaluated ([\d,]+) states in \d+\.\d\d ms$"
)
ALL_CELLS = "".join(f"{n}\n" for n in range(1, 10))


def run(argv: list[str], stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, io.StringIO(stdin), out, err)
    return code, out.getvalue(), err.getvalue()


def ai_lines(out: str) -> list[re.Match[str]]:
    return [m for line in out.splitlines() if (m := AI_LINE.match(line))]


class InterruptingStdin(io.StringIO):
    """Answers the first prompt, then behaves as if the person pressed Ctrl-C."""

    def __init__(self, first: str) -> None:
        super().__init__(first)
        self.calls = 0

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        self.calls += 1
        if self.calls > 1:
            raise KeyboardInterrupt
        return super().readline()


# --- play ---------------------------------------------------------------------------------------------


def test_render_board_numbers_the_empty_cells() -> None:
    assert render_board(parse_board("X...O....")) == " X | 2 | 3\n---+---+---\n 4 | O | 6\n---+---+---\n 7 | 8 | 9"


def test_bad_input_gets_a_message_and_the_prompt_again() -> None:
    code, out, err = run(["play", "--seed", "3"], "abc\n0\n10\n\n5\n5\nq\n")
    assert code == 0 and err == ""
    assert "'abc' is not a cell number: type a number from 1 to 9." in out
    assert "0 is out of range: type a number from 1 to 9." in out
    assert "10 is out of range: type a number from 1 to 9." in out
    assert "'' is not a cell number" in out
    assert "Cell 5 is already taken by X: choose one of" in out
    assert out.count("Your move (X): ") == 7  # every line read was prompted for
    (reply,) = ai_lines(out)
    assert reply.group(1) == "O" and reply.group(4) == "alpha-beta"
    assert int(reply.group(5).replace(",", "")) > 0
    assert out.rstrip().endswith("Game abandoned.")


def test_eof_mid_game_exits_cleanly() -> None:
    code, out, err = run(["play", "--seed", "1"], "5\n")
    assert code == 0 and err == ""
    assert "Input ended." in out and "Game abandoned." in out
    assert "Traceback" not in out + err
    assert "Result:" not in out


def test_ctrl_c_exits_with_130() -> None:
    out = io.StringIO()
    code = main(["play", "--seed", "1"], InterruptingStdin("5\n"), out, io.StringIO())
    assert code == 130
    assert out.getvalue().rstrip().endswith("Interrupted: game abandoned.")
    assert len(ai_lines(out.getvalue())) == 1


@pytest.mark.parametrize("seed", range(4))
def test_full_game_as_x(seed: int) -> None:
    # Trying 1, 2, ..., 9 in turn always finds a free cell; taken ones are rejected and skipped.
    code, out, err = run(["play", "--as", "X", "--seed", str(seed)], ALL_CELLS)
    assert code == 0 and err == ""
    replies = ai_lines(out)
    assert replies and all(m.group(1) == "O" for m in replies)
    last = out.rstrip().splitlines()[-1]
    assert last in ("Result: draw.", *(f"Result: O wins on {line} (the AI wins)." for line in _lines()))
    assert "you win" not in out


@pytest.mark.parametrize("seed", range(4))
def test_full_game_as_o(seed: int) -> None:
    code, out, err = run(["play", "--as", "o", "--seed", str(seed)], ALL_CELLS)
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "You are O, the AI is X (alpha-beta, unbeatable)."
    assert AI_LINE.match(lines[2])  # the AI moves first
    replies = ai_lines(out)
    assert all(m.group(1) == "X" for m in replies)
    assert out.rstrip().splitlines()[-1].startswith("Result: ")
    assert "you win" not in out
    assert "Your move (O): " in out


def test_same_seed_same_session() -> None:
    assert len(ai_lines(run(["play", "--seed", "9"], ALL_CELLS)[1])) >= 3
    first = [m.group(2) for m in ai_lines(run(["play", "--seed", "9"], ALL_CELLS)[1])]
    second = [m.group(2) for m in ai_lines(run(["play", "--seed", "9"], ALL_CELLS)[1])]
    assert first == second


def test_minimax_reports_its_full_count() -> None:
    code, out, _ = run(["play", "--as", "O", "--algorithm", "minimax", "--seed", "0"], "")
    assert code == 0
    first = ai_lines(out)[0]
    assert first.group(4) == "minimax"
    assert first.group(5) == "549,945"


def test_easy_difficulty_says_when_it_moved_at_random() -> None:
    notes = 0
    for seed in range(10):
        _, out, _ = run(["play", "--difficulty", "easy", "--seed", str(seed)], ALL_CELLS)
        notes += sum(1 for m in ai_lines(out) if m.group(3))
    assert notes > 0


def test_x_can_win_against_easy_sometimes() -> None:
    results = {
        run(["play", "--difficulty", "easy", "--seed", str(seed)], ALL_CELLS)[1].splitlines()[-1] for seed in range(30)
    }
    assert any("(you win)" in r for r in results)


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
    assert run(["play", "--as", "Z"])[0] == 2
    assert run(["play", "--seed", "x"])[0] == 2
    code, _, err = run(["analyse"])
    assert code == 2 and "BOARD" in err


def test_help_exits_0() -> None:
    code, out, _ = run(["--help"])
    assert code == 0 and "analyse" in out


def test_python_dash_m_engine_analyse_smoke() -> None:
    root = Path(__file__).resolve().parents[2]
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


def _lines() -> list[str]:
    return ["1-2-3", "4-5-6", "7-8-9", "1-4-7", "2-5-8", "3-6-9", "1-5-9", "3-5-7"]
