"""A clone without ``../shared``: the tests that need Discord's specification are skipped, and the run says so in
one line and how to enable them; the fake Discord runs without checking bodies."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from testing.fake_discord import SPEC_MISSING

ROOT = Path(__file__).resolve().parents[2]


def test_a_run_without_the_specification_skips_what_needs_it_and_says_so(tmp_path: Path) -> None:
    env = {**os.environ, "DISCORD_API_SPEC": str(tmp_path / "absent.json")}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/testing/fake_discord/test_spec.py",
         "tests/testing/fake_discord/test_clients.py"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:]
    assert done.stdout.count(SPEC_MISSING) == 1, done.stdout[-3000:]
    assert " skipped" in done.stdout.splitlines()[-1] and " passed" in done.stdout.splitlines()[-1]
