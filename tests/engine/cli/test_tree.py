"""``python -m engine tree``: the recorded search as text, JSON and pictures, cells numbered as people see them."""

from __future__ import annotations

import html
import io
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

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


def test_4x4_and_5x5_record_a_fresh_search_near_the_end_and_say_when_it_is_too_early(tmp_path: Path) -> None:
    cells = ("1", "5", "2", "6", "3", "10", "16")  # O to move must block 4
    code, out, _ = run("--variant", "4x4", *cells, "--json")
    tree = json.loads(out)
    assert code == 0 and tree["played"] == 4 and tree["best_moves"] == [4] and tree["states"] > 1
    assert tree["states"] == len(list(_nodes(tree))) - 1
    png, svg = tmp_path / "4x4.png", tmp_path / "4x4.svg"
    assert run("--variant", "4x4", *cells, "--png", str(png), "--svg", str(svg))[0] == 0
    assert png.read_bytes().startswith(b"\x89PNG") and f"alpha-beta: {tree['states']:,} states" in html.unescape(
        svg.read_text(encoding="utf-8")
    )
    code, out, err = run("--variant", "4x4", "1", "2", "3")
    assert code == 2 and "13 empty cells after 3 moves" in err and "play at least 7 cells" in err
    assert run("--variant", "5x5", "26")[0] == 2 and "1-25" in run("--variant", "5x5", "26")[2]
    assert run("--variant", "5x5", *map(str, range(1, 17)), "--algorithm", "minimax")[0] == 2
    code, out, _ = run("--variant", "5x5", "1", "3", "2", "4", "6", "5", "7", "9", "8", "10", "12", "11", "13", "15",
                       "14", "16")  # fmt: skip
    assert code == 0 and "alpha-beta plays 17: X wins at ply 1 (value +9" in out


def _nodes(node: dict[str, object]) -> Iterator[dict[str, object]]:
    yield node
    for child in node["children"]:  # type: ignore[attr-defined]
        yield from _nodes(child)


def test_counts_of_one_are_singular() -> None:
    code, out, _ = run("7", "5", "1")
    assert code == 0 and "1 cut skipping 1 move." in out  # was "1 cuts skipping 1 moves"


def test_step_json_prints_one_event_per_state_that_replay_to_the_json_tree() -> None:
    from engine.tree.node import Node
    from engine.tree.step import replay

    for argv in (("4", "1", "7"), ("5",), ("--variant", "4x4", "1", "5", "2", "6", "3", "10", "16")):
        code, out, _ = run(*argv, "--step", "--json")
        events = [json.loads(line) for line in out.splitlines()]
        tree = json.loads(run(*argv, "--json")[1])
        assert code == 0 and len(events) == tree["states"] == len(list(_nodes(tree))) - 1
        rebuilt = replay(events, Node(None, tree["mark"], tree["value"]))
        assert rebuilt.as_json()["children"] == tree["children"]


def test_step_walks_seed_000s_third_move_state_by_state() -> None:
    code, out, _ = run("4", "1", "7", "2", "9", "--step")  # the lab's third move: X on 4, 7, 9; O on 1, 2
    lines = out.splitlines()
    assert code == 0 and lines[0].startswith("alpha-beta: 6 states; O to move.")
    counted = [line for line in lines[3:] if line[:7].strip().isdigit()]
    assert [int(line[:7]) for line in counted] == [1, 2, 3, 4, 5, 6]
    assert counted[2].split() == ["3", "O", "3", "=", "-9", "(O", "wins", "at", "ply", "1)"]
    assert lines[-1].strip() == "O to move: -9 (O wins at ply 1): 6 states"
    code, _, err = run("--variant", "ultimate", "41", "--step")
    assert code == 2 and "not ultimate" in err


def test_the_games_offered_are_the_registered_games_that_explain_a_move(monkeypatch: pytest.MonkeyPatch) -> None:
    from engine import VARIANTS
    from engine.cli.tree import tree_variants
    from engine.games.tictactoe import ThreeByThree

    assert tree_variants() == ("3x3", "4x4", "5x5", "ultimate")  # Connect Four explains no move

    class Quiet(ThreeByThree):
        name, code = "quiet", "qq"

        def explains(self, cells: object) -> bool:
            return False

    monkeypatch.setitem(VARIANTS, "quiet", Quiet())
    assert "quiet" not in tree_variants()


def test_a_win_in_one_is_shown_played_at_once() -> None:
    code, out, _ = run("--variant", "4x4", "1", "5", "2", "6", "11", "7", "16")  # O wins at 8
    lines = out.splitlines()
    assert code == 0 and lines[0].startswith("O to move; alpha-beta plays 8: O wins at ply 1")
    assert lines[1].startswith("1 state evaluated: 1 terminal") and "played at once" in lines[2]
    code, out, _ = run("--variant", "4x4", "1", "5", "2", "6", "11", "7", "16", "--step")
    assert code == 0 and out.startswith("alpha-beta: 1 state; O to move.")  # was "1 states"
