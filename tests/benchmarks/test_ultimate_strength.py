"""benchmarks/ultimate_strength: the match summary (score and Wilson interval, by colour, times, load) and the
idle-machine guard."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from benchmarks import ultimate_strength
from benchmarks.ultimate_strength import CLAIM_GAMES, summary, wilson

ROOT = Path(__file__).resolve().parents[2]


def game(ours: str, outcome: str, load: float = 0.3) -> dict[str, Any]:
    return {
        "index": 0,
        "ours": ours,
        "outcome": outcome,
        "moves": [],
        "ours_stats": [[990.0, 995.0, 15_000_000, False], [10.0, 12.0, 1_000, True]],
        "theirs_ms": [1001.0, 2002.0],
        "load": load,
    }


def test_the_wilson_interval_holds_the_score_and_narrows_with_games() -> None:
    low, high = wilson(150, 200)
    assert low < 0.75 < high and round(low, 3) == 0.686 and round(high, 3) == 0.805
    assert wilson(15, 20)[1] - wilson(15, 20)[0] > high - low


def test_the_summary_gives_the_score_by_colour_both_sides_times_and_the_load() -> None:
    records = [game("X", "win"), game("X", "win", 0.9), game("O", "draw"), game("O", "loss")]
    text = summary(records)
    assert "| 4 | 2 | 1 | 1 | 62.5% |" in text
    assert f"- 4 games: fewer than {CLAIM_GAMES}, not enough for a claim" in text
    assert "- load average (1 min) when the games ended: 0.30-0.90" in text
    assert "- as X: win 2, draw 0, loss 0; score 100.0%" in text
    assert "- as O: win 0, draw 1, loss 1; score 25.0%" in text
    assert "- the opponent's moves (8): p50 1502 ms, p95 2002 ms, worst 2002 ms" in text
    assert "engine's time p50 500 ms" in text


def test_a_match_refuses_a_busy_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ultimate_strength.os, "getloadavg", lambda: (3.5, 2.0, 1.0))
    monkeypatch.setattr(sys, "argv", ["ultimate_strength", "random", "--games", "2"])
    with pytest.raises(SystemExit) as refused:
        ultimate_strength.main()
    assert "the load average is 3.50 (above 1.0)" in str(refused.value)


def test_a_summary_of_a_file_needs_no_idle_machine(tmp_path: Path) -> None:
    results = tmp_path / "games.jsonl"
    results.write_text('{"index": 0, "ours": "X", "outcome": "win", "moves": [], "ours_stats": []}\n')
    run = subprocess.run(
        [sys.executable, "-m", "benchmarks.ultimate_strength", "summary", str(results)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert "| 1 | 1 | 0 | 0 | 100.0% |" in run.stdout
