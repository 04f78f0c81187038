"""``python -m engine tree``: the recorded search as text, JSON and pictures, cells numbered as people see them."""

from __future__ import annotations

import html
import io
import json
import subprocess
import sys
from pathlib import Path

from engine.cli.commands import main


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["tree", *argv], out, err)
    return code, out.getvalue(), err.getvalue()


def test_the_json_is_the_tree_of_the_move_the_bot_would_play() -> None:
    code, out, _ = run("5", "--json")
    tree = json.loads(out)
    assert code == 0 and tree["move"] is None and tree["states"] == 71 and tree["played"] == 1
    assert tree["kind"] == "node" and [child["move"] for child in tree["children"]] == [1, 2]
    assert tree["same_as"] == {"3": 1, "4": 2, "6": 2, "7": 1, "8": 2, "9": 1}


def test_minimax_counts_55504_states_after_x_takes_the_centre() -> None:
    code, out, _ = run("5", "--algorithm", "minimax")
    assert code == 0 and "55,504 states evaluated" in out and "0 cuts" in out


def test_png_and_svg_are_written(tmp_path: Path) -> None:
    png, svg = tmp_path / "tree.png", tmp_path / "tree.svg"
    result = subprocess.run(
        [sys.executable, "-m", "engine", "tree", "1", "5", "--compare", "--png", str(png), "--svg", str(svg)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert png.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    assert "minimax: 7,331 states" in html.unescape(svg.read_text(encoding="utf-8"))


def test_bad_cells_get_one_clear_line() -> None:
    assert run("5", "5")[0] == 2 and "already taken" in run("5", "5")[2]
    assert run("10")[0] == 2 and "1-9" in run("10")[2]
    assert run("1", "4", "2", "5", "3")[0] == 2 and "over" in run("1", "4", "2", "5", "3")[2]


def test_ultimate_shows_the_mcts_first_plies(tmp_path: Path) -> None:
    code, out, _ = run("--variant", "ultimate", "41", "31", "--iterations", "2000")
    assert code == 0 and out.startswith("MCTS: 2,000 iterations")
    code, out, _ = run("--variant", "ultimate", "41", "31", "--iterations", "2000", "--json")
    assert code == 0 and sum(child["visits"] for child in json.loads(out)["children"]) == 2000
    assert run("--variant", "ultimate", "41", "41")[0] == 2
    png = tmp_path / "mcts.png"
    assert run("--variant", "ultimate", "41", "--iterations", "500", "--png", str(png))[0] == 0
    assert png.read_bytes().startswith(b"\x89PNG")
