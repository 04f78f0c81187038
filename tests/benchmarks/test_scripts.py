"""Every benchmark script answers ``--help`` with its usage, at once, without running (a benchmark takes minutes)."""

from __future__ import annotations

import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = sorted(p for p in (ROOT / "benchmarks").glob("*.py") if 'if __name__ == "__main__"' in p.read_text())


def help_of(script: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", f"benchmarks.{script.stem}", "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_help_prints_the_usage_and_runs_nothing() -> None:
    assert len(SCRIPTS) >= 20
    with ThreadPoolExecutor(4) as pool:  # the scripts' imports take a second or two each
        done = dict(zip(SCRIPTS, pool.map(help_of, SCRIPTS), strict=True))
    wrong = {
        script.name: (run.returncode, run.stdout[:200], run.stderr[-500:])
        for script, run in done.items()
        if run.returncode != 0 or run.stderr or not run.stdout.startswith(f"usage: {script.name}")
    }
    assert wrong == {}
